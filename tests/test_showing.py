"""The compiled element loop of text showing (`core/interpret/_showing.pyx`) against the Python
loop it replaces (`GlyphRuns.show_string` and `show_elements`' loop): the same glyph records
bit for bit, on the reference pages of test_interpreter_columns and on random showing
operators (sizes, spacings, scalings, kerning numbers, vertical fonts, glyph limits)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.document import Document
from glyphscope.core.interpret import interpreter
from glyphscope.core.interpret.interpreter import interpret_page
from glyphscope.core.rules import Rules
from tests.corpus import CORPUS
from tests.pdfbuilder import PdfBuilder
from tests.test_interpreter_columns import BUILT, ISSUE_9_FILES, _reference, page_digests

compiled = pytest.importorskip("glyphscope.core.interpret._showing")


@pytest.fixture
def python_loop(monkeypatch):
    monkeypatch.setattr(interpreter, "_showing", None)


@pytest.mark.parametrize("name", sorted(BUILT))
def test_the_python_loop_gives_the_reference_records_of_built_pages(python_loop, name):
    with Document.open(BUILT[name]()) as document:
        assert page_digests(document) == _reference()["built"][name]


@pytest.mark.parametrize("name", ISSUE_9_FILES[:3])
def test_the_python_loop_gives_the_reference_records_of_corpus_files(python_loop, name):
    paths = sorted(CORPUS.glob(f"{name}*.pdf"))
    if not paths:
        pytest.skip("corpus not present")
    with Document.open(paths[0]) as document:
        assert page_digests(document) == _reference()["corpus"][name]


def _records(data: bytes, rules: Rules, loop: object) -> tuple[list[str], tuple[str, ...]]:
    saved = interpreter._showing
    interpreter._showing = loop
    try:
        with Document.open(data) as document:
            extraction = interpret_page(document.page(0), rules)
            return [repr(glyph) for glyph in extraction.glyphs], extraction.warnings
    finally:
        interpreter._showing = saved


_numbers = st.one_of(
    st.integers(-3000, 3000).map(str),
    st.floats(-500, 500, allow_nan=False).map(lambda v: f"{v:.5f}"),
    st.sampled_from(["0", "-0", "1e3", "99999999999", ".5", "-.25"]),
)
_strings = st.binary(max_size=70).map(
    lambda b: b"(" + b.replace(b"\\", b"").replace(b"(", b"").replace(b")", b"") + b")"
)
_elements = st.lists(st.one_of(_strings, _numbers.map(str.encode)), max_size=12)


@st.composite
def _operators(draw) -> bytes:
    parts = []
    for _ in range(draw(st.integers(1, 6))):
        state = draw(st.sampled_from([b"Tc", b"Tw", b"Tz", b"Ts", b"Td"]))
        values = [draw(_numbers).encode() for _ in range(2 if state == b"Td" else 1)]
        parts.append(b" ".join([*values, state]))
        font = draw(st.sampled_from([b"/F1", b"/F2"]))
        parts.append(font + b" " + draw(_numbers).encode() + b" Tf")
        showing = draw(st.sampled_from(["Tj", "TJ", "'", '"']))
        if showing == "TJ":
            parts.append(b"[" + b" ".join(draw(_elements)) + b"] TJ")
        elif showing == '"':
            parts.append(draw(_numbers).encode() + b" 1 " + draw(_strings) + b' "')
        else:
            parts.append(draw(_strings) + b" " + showing.encode())
    return b"BT 10 TL 72 700 Td " + b" ".join(parts) + b" ET"


@settings(max_examples=150, deadline=None)
@given(content=_operators(), limit=st.one_of(st.none(), st.integers(0, 60)))
def test_the_compiled_loop_agrees_with_the_python_loop(content, limit):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    vertical = builder.type0_font(encoding="Identity-V", w=[1, [1000], 3, [500, 600]])
    builder.add_page(content, fonts={"F1": helv, "F2": vertical})
    data = builder.to_bytes()
    rules = Rules() if limit is None else Rules(max_page_glyphs=limit)
    assert _records(data, rules, compiled) == _records(data, rules, None)
