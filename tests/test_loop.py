"""The interpreter's compiled loop (`core/interpret/_loop.pyx`) against its Python methods
(`_Interpreter.run`, `show`, `show_elements`, `GlyphRuns.show_string`, `clipping.PathBox`):
the same glyph records bit for bit, warnings, clips and marked-content spans, on the
reference pages of test_interpreter_columns, on corpus pages and on random operators (sizes,
spacings, scalings, kerning numbers, vertical fonts, paths and clips, q/Q, marked content,
glyph and operator limits). The compiled glyph columns (`_glyph_table.pyx`) likewise against
`GlyphRuns.columns_in_python`, column by column, every float by its bits."""

from __future__ import annotations

import gc
from contextlib import nullcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.document import Document
from glyphscope.core.fonts.dicts import Font, FontGlyph
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret import interpreter, runs
from glyphscope.core.interpret.interpreter import interpret_page
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows
from tests.corpus import CORPUS
from tests.pdfbuilder import PdfBuilder
from tests.reference_paths import reference_paths
from tests.test_interpreter_columns import BUILT, ISSUE_9_FILES, _reference, page_digests

compiled = pytest.importorskip("glyphscope.core.interpret._loop")
compiled_columns = pytest.importorskip("glyphscope.core.interpret._glyph_table")


@pytest.fixture
def python_loop():
    with reference_paths():
        yield


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


def _same_columns(compiled: object, python: object) -> bool:
    """Every column equal: lists holding the very same str objects, arrays of one dtype and
    shape with the same bits (a nan by being nan: numpy and C may give it another sign)."""
    # The compiled columns number their texts as they make them: the ids and the very str
    # objects dictionary_encoded gives.
    (ours_ids, ours_texts), (their_ids, their_texts) = compiled.text_ids(), python.text_ids()
    if ours_ids.dtype != their_ids.dtype or not np.array_equal(ours_ids, their_ids):
        return False
    if ours_texts != their_texts:
        return False
    if any(a is not b for a, b in zip(ours_texts, their_texts, strict=True)):
        return False
    for name in python.__dataclass_fields__:
        if name in ("_listed", "_text_ids"):
            continue
        ours, theirs = getattr(compiled, name), getattr(python, name)
        if isinstance(theirs, list):
            if ours != theirs or any(a is not b for a, b in zip(ours, theirs, strict=True)):
                return False
        elif ours.dtype != theirs.dtype or ours.shape != theirs.shape:
            return False
        elif ours.tobytes() != theirs.tobytes():
            nan = np.isnan(theirs) if theirs.dtype.kind == "f" else False
            same = ours.view(np.int64) == theirs.view(np.int64)
            if not np.all(same | (nan & np.isnan(ours))):
                return False
    return True


def _columns_agree(data: bytes, rules: Rules) -> int:
    """Interpret every page, holding each page's compiled columns against the numpy ones;
    the glyph count."""
    made = []

    def both(glyph_runs: runs.GlyphRuns) -> GlyphColumns:
        columns = made_columns(glyph_runs)
        if glyph_runs.count:
            assert _same_columns(columns, glyph_runs.columns_in_python())
        made.append(len(columns))
        return columns

    made_columns = runs.GlyphRuns.columns
    runs.GlyphRuns.columns = both
    try:
        with Document.open(data) as document:
            for page in document.pages:
                interpret_page(page, rules)
    finally:
        runs.GlyphRuns.columns = made_columns
    return sum(made)


@pytest.mark.parametrize("name", ISSUE_9_FILES)
def test_the_compiled_columns_agree_with_numpy_on_corpus_files(name):
    paths = sorted(CORPUS.glob(f"{name}*.pdf"))
    if not paths:
        pytest.skip("corpus not present")
    assert _columns_agree(paths[0].read_bytes(), Rules()) > 0


def test_the_compiled_string_columns_are_left_out_of_the_garbage_collector():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 10 Tf (Hello) Tj ET", fonts={"F1": helv})
    with Document.open(builder.to_bytes()) as document:
        columns = interpret_page(document.page(0), Rules()).glyphs
    assert isinstance(columns, GlyphColumns)
    for name in ("text", "font_key", "font_name", "decode_source", "form_path"):
        strings = getattr(columns, name)
        assert type(strings) is list and len(strings) == 5 and not gc.is_tracked(strings)
    texts = GlyphRows(columns, [4, 0]).texts()
    assert texts == ["o", "H"] and not gc.is_tracked(texts)


def _pages(data: bytes, rules: Rules, reference: bool = False) -> list[tuple]:
    """Every page's extraction: glyph records, warnings, limits, clips, spans; through the
    Python references when `reference`."""
    with reference_paths() if reference else nullcontext(), Document.open(data) as document:
        pages = []
        for page in document.pages:
            extraction = interpret_page(page, rules)
            pages.append(
                (
                    [repr(glyph) for glyph in extraction.glyphs],
                    extraction.warnings,
                    extraction.truncated,
                    repr(extraction.clips),
                    repr(extraction.replacements),
                    repr(extraction.annotations),
                )
            )
        return pages


@pytest.mark.parametrize("name", ISSUE_9_FILES[3:])
def test_the_compiled_loop_agrees_with_the_python_loop_on_corpus_files(name):
    paths = sorted(CORPUS.glob(f"{name}*.pdf"))
    if not paths:
        pytest.skip("corpus not present")
    data = paths[0].read_bytes()
    assert _pages(data, Rules()) == _pages(data, Rules(), reference=True)


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
        state = draw(
            st.sampled_from([b"Tc", b"Tw", b"Tz", b"Ts", b"TL", b"Td", b"TD", b"T*", b"Tm"])
        )
        count = {b"Td": 2, b"TD": 2, b"T*": 0, b"Tm": 6}.get(state, 1)
        values = [draw(_numbers).encode() for _ in range(count)]
        parts.append(b" ".join([*values, state]))
        font = draw(st.sampled_from([b"/F1", b"/F2"]))
        parts.append(font + b" " + draw(_numbers).encode() + b" Tf")
        paths = [b"10 20 30 40 re W n", b"1 2 m 3 nan l 5 -0 l h W* n", b"5 5 100 100 re f"]
        parts.append(
            draw(st.sampled_from([b"", b"q", b"Q", b"2 0 0 2 1 1 cm", b"0 1 -1 0 5 -0 cm", *paths]))
        )
        parts.append(draw(st.sampled_from([b"", b"/P <</MCID 4>> BDC", b"/X BMC", b"EMC"])))
        parts.append(draw(st.sampled_from([b"", b"(x) 3 l", b"1 2 3 re", b"q 1 2 cm"])))
        showing = draw(st.sampled_from(["Tj", "TJ", "'", '"']))
        if showing == "TJ":
            parts.append(b"[" + b" ".join(draw(_elements)) + b"] TJ")
        elif showing == '"':
            parts.append(draw(_numbers).encode() + b" 1 " + draw(_strings) + b' "')
        else:
            parts.append(draw(_strings) + b" " + showing.encode())
    return b"BT 10 TL 72 700 Td " + b" ".join(parts) + b" ET"


@settings(max_examples=150, deadline=None)
@given(
    content=_operators(),
    limit=st.one_of(st.none(), st.integers(0, 60)),
    operators=st.one_of(st.none(), st.integers(1, 40)),
)
def test_the_compiled_loop_agrees_with_the_python_loop(content, limit, operators):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    vertical = builder.type0_font(encoding="Identity-V", w=[1, [1000], 3, [500, 600]])
    builder.add_page(content, fonts={"F1": helv, "F2": vertical})
    data = builder.to_bytes()
    rules = Rules(
        max_page_glyphs=Rules().max_page_glyphs if limit is None else limit,
        max_page_operators=Rules().max_page_operators if operators is None else operators,
    )
    assert _pages(data, rules) == _pages(data, rules, reference=True)
    _columns_agree(data, rules)


@pytest.mark.parametrize("budget", range(1, 25))
def test_the_operator_budget_counts_forms_operators_as_the_python_loop(budget):
    # The compiled loop keeps the count in C and hands it to the interpreter around a form;
    # the page holds 12 operators and its form twice 5: budgets below and above 22.
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    form = builder.form_xobject(b"BT /F1 9 Tf (in) Tj ET 0 0 m", fonts={"F1": helv})
    content = b"BT /F1 10 Tf (a) Tj ET /Fm Do q (b) Tj Q /Fm Do BT (c) Tj ET"
    builder.add_page(content, fonts={"F1": helv}, xobjects={"Fm": form})
    data = builder.to_bytes()
    rules = Rules(max_page_operators=budget)
    assert _pages(data, rules) == _pages(data, rules, reference=True)


@pytest.mark.parametrize("loop", [compiled, None], ids=["compiled", "python"])
def test_an_operator_short_of_operands_is_skipped_as_too_few_operands(monkeypatch, loop):
    monkeypatch.setattr(interpreter, "_loop", loop)
    builder = PdfBuilder()
    content = b"BT /F1 10 Tf 1 Td /F1 Tf (a) Tj ET"
    builder.add_page(content, fonts={"F1": builder.standard_font("Helvetica")})
    with Document.open(builder.to_bytes()) as document:
        extraction = interpret_page(document.page(0), Rules())
    assert [g.text for g in extraction.glyphs] == ["a"]
    assert [w for w in extraction.warnings if "skipped malformed" in w] == [
        "page: skipped malformed Td #2: too few operands",
        "page: skipped malformed Tf #3: too few operands",
    ]


def _decoded_codes(monkeypatch) -> list[tuple[str, int, int]]:
    """The (font name, code, length) of every code the fonts are asked for (Font.glyph calls,
    whether through Font.glyphs or the compiled loop's byte numbers)."""
    calls: list[tuple[str, int, int]] = []
    decode = Font.glyph

    def glyph(font: Font, code: int, length: int) -> FontGlyph:
        calls.append((font.name, code, length))
        return decode(font, code, length)

    monkeypatch.setattr(Font, "glyph", glyph)
    return calls


def _codes(name: str, text: str) -> list[tuple[str, int, int]]:
    return [(name, byte, 1) for byte in text.encode("latin-1")]


def test_a_fonts_pieces_are_decoded_once_for_the_document(monkeypatch):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 10 Tf (Hello) Tj [(Hello) -250 (world)] TJ ET", fonts={"F1": helv})
    builder.add_page(b"BT /F1 12 Tf 5 5 Td [(world) 100 (Hello)] TJ ET", fonts={"F1": helv})
    calls = _decoded_codes(monkeypatch)
    with Document.open(builder.to_bytes()) as document:
        first, second = (interpret_page(page, Rules()) for page in document.pages)
        (pieces,) = document.piece_cache.values()
        assert len(pieces) == 2
    # Each byte of the simple font is asked for once, the first time the document shows it;
    # the second page shows only strings the first decoded: its glyphs come from the pieces.
    assert calls == _codes("Helvetica", "Helowrd")
    assert "".join(g.text for g in first.glyphs) == "HelloHelloworld"
    assert "".join(g.text for g in second.glyphs) == "worldHello"
    assert second.glyphs[5].origin[0] > second.glyphs[4].origin[0]


def test_another_font_of_the_same_name_decodes_its_own_pieces(monkeypatch):
    builder = PdfBuilder()
    narrow = builder.standard_font("Helvetica", widths=[100] * 95)
    wide = builder.standard_font("Helvetica", widths=[900] * 95)
    builder.add_page(b"BT /F1 10 Tf (ab) Tj ET", fonts={"F1": narrow})
    builder.add_page(b"BT /F1 10 Tf (ab) Tj ET", fonts={"F1": wide})
    data = builder.to_bytes()
    calls = _decoded_codes(monkeypatch)
    with Document.open(data) as document:
        pages = [interpret_page(page, Rules()) for page in document.pages]
        assert len(document.piece_cache) == 2
    assert calls == _codes("Helvetica", "ab") * 2
    # Each page's advance is its own font's width (0.1 and 0.9 text space units of 10).
    advances = [page.glyphs[1].origin[0] - page.glyphs[0].origin[0] for page in pages]
    assert advances == pytest.approx([1.0, 9.0])
    monkeypatch.undo()
    assert _pages(data, Rules()) == _pages(data, Rules(), reference=True)
