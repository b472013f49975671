"""Property-based fuzzing with a small budget: content streams, CMaps, font dictionaries and
whole documents (mutations of built PDFs and small corpus files). Whatever the input, the
engine answers (text, a decision log that is valid JSON) or raises a typed error, within
the memory cap of `bounded_memory` and hypothesis' deadline. A failing whole document is
saved, smallest first, under tests/fuzz/regressions/, which `test_regressions_replay`
runs in a bounded child (as `python -m tests.fuzz` saves its own finds)."""

from __future__ import annotations

import io
import json
import random
import resource
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import glyphscope
from glyphscope.core import cli
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.fonts.cmap.parser import parse_cmap
from glyphscope.core.fonts.loader import load_font
from tests import hostile
from tests.fuzz import mutate
from tests.fuzz.bounded import GIGABYTE, run_bounded
from tests.fuzz.worker import Worker
from tests.pdfbuilder import PdfBuilder

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def bounded_memory():
    """1 GB of address space more than the test process holds now, for this test only (the
    soft limit goes back up afterwards): a run-away allocation is a MemoryError, not swap."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        in_use = int(statm.read().split()[0]) * resource.getpagesize()
    cap = in_use + GIGABYTE
    resource.setrlimit(resource.RLIMIT_AS, (min(cap, hard) if hard > 0 else cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _every_output(data: bytes) -> None:
    """Open, then every text mode and the streamed decision log of every page."""
    try:
        document = glyphscope.open(data)
    except GlyphscopeError:
        return
    with document:
        for page in document.pages[:3]:
            for mode in ("reading", "layout", "columns", "structure"):
                assert isinstance(page.text(mode), str)
        out = io.BytesIO()
        cli._write_explain(document, list(range(min(3, len(document.pages)))), cli.Rules(), out)
        json.loads(out.getvalue())


_NUMBER = st.one_of(
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([0, 1e30, -1e30, 2147483647, 1e-9]),
)
_OPERAND = st.one_of(
    _NUMBER.map(lambda n: repr(n).encode()),
    st.binary(max_size=12).map(lambda b: b"<" + b.hex().encode() + b">"),
    st.text("abcXYZ ()\\", max_size=8).map(lambda t: b"(" + t.encode().replace(b"\\", b"") + b")"),
    st.sampled_from([b"/F1", b"/F2", b"/Fm1", b"/P", b"[", b"]", b"<< /MCID 3 >>"]),
)
_OPERATION = st.tuples(st.lists(_OPERAND, max_size=6), st.sampled_from(mutate.CONTENT_OPERATORS))


def _content_page(content: bytes) -> bytes:
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    cid = builder.type0_font(w=[1, [500, 600], 10, 20, 250])
    form = builder.form_xobject(b"BT /F1 5 Tf (f) Tj ET /Fm1 Do", fonts={"F1": helvetica})
    builder.add_page(content, fonts={"F1": helvetica, "F2": cid}, xobjects={"Fm1": form})
    return builder.to_bytes()


@FUZZ
@given(st.lists(_OPERATION, max_size=60))
def test_any_content_stream_is_read(bounded_memory, operations):
    content = b"\n".join(b" ".join([*operands, operator]) for operands, operator in operations)
    _every_output(_content_page(b"BT /F1 12 Tf 72 700 Td " + content))


_CMAP_TOKEN = st.one_of(
    st.sampled_from(
        [
            b"begincodespacerange",
            b"endcodespacerange",
            b"beginbfchar",
            b"endbfchar",
            b"beginbfrange",
            b"endbfrange",
            b"begincidrange",
            b"endcidrange",
            b"begincidchar",
            b"endcidchar",
            b"usecmap",
            b"/Identity-H",
            b"/CMapName",
            b"def",
            b"[",
            b"]",
            b"/WMode",
            b"1",
            b"<0000>",
            b"<FFFF>",
            b"<00>",
            b"<FF>",
            b"<D83DDE00>",
        ]
    ),
    st.binary(min_size=1, max_size=5).map(lambda b: b"<" + b.hex().encode() + b">"),
    st.integers(-5, 70000).map(lambda n: str(n).encode()),
)


@FUZZ
@given(st.lists(_CMAP_TOKEN, max_size=80), st.binary(max_size=40))
def test_any_cmap_parses_and_decodes(bounded_memory, tokens, shown):
    data = b" ".join(tokens)
    cmap = parse_cmap(data, None, 32)
    for code, _length in cmap.split(shown):
        text = cmap.unicode(code)
        assert text is None or len(text) <= 32
        cmap.cid(code)
    builder = PdfBuilder()
    font = builder.type0_font(encoding=b"begincmap " + data, to_unicode=data)
    load_font(font).glyphs(shown)


_W_ITEM = st.one_of(
    st.integers(-10, 70000),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.lists(st.integers(-2000, 2000), max_size=5),
)


@FUZZ
@given(
    st.lists(_W_ITEM, max_size=40),
    st.lists(_NUMBER, max_size=20),
    st.integers(-(2**31), 2**31),
    st.binary(max_size=30),
)
def test_any_font_dictionary_loads(bounded_memory, w, widths, first_char, shown):
    builder = PdfBuilder()
    for font in (
        builder.type0_font(w=w, w2=w, encoding="Identity-V"),
        builder.type0_font(w=w),
        builder.standard_font("Helvetica"),
    ):
        if "/Widths" not in font and not font.get("/DescendantFonts"):
            font.Widths = widths
            font.FirstChar = first_char
        load_font(font).glyphs(shown)


_SEEDS = mutate.built_seeds() + mutate.corpus_seeds(limit=20)


@FUZZ
@given(st.randoms(use_true_random=False))
def test_any_mutated_document_is_read(bounded_memory, rng: random.Random):
    data = mutate.mutate(rng.choice(_SEEDS), rng)
    try:
        _every_output(data)
    except BaseException:
        _keep_smallest_failure(data)
        raise


def _keep_smallest_failure(data: bytes) -> None:
    """Hypothesis shrinks a failure by re-running smaller inputs: keep the smallest seen."""
    REGRESSIONS.mkdir(exist_ok=True)
    saved = REGRESSIONS / "hypothesis-mutated-document.pdf"
    if not saved.exists() or len(data) < saved.stat().st_size:
        saved.write_bytes(data)


def test_regressions_replay():
    """Every saved failing input now runs clean: every mode, 1 GB, 30 s."""
    for path in sorted(REGRESSIONS.glob("*.pdf")):
        outcome = run_bounded(path, timeout=60)
        assert outcome.kind == "clean", (path.name, outcome.detail)


def test_the_campaign_worker_times_each_mode_and_measures_each_input_alone(tmp_path):
    """The long campaign's warm worker (python -m tests.fuzz): one answer per input with
    the slowest mode, a typed refusal counted apart, and a peak resident set reset between
    inputs (a small file after a 400 MB one reports its own peak)."""
    big, small, junk = tmp_path / "big.pdf", tmp_path / "small.pdf", tmp_path / "junk.pdf"
    big.write_bytes(hostile.flate_predictor_bomb())
    small.write_bytes(_content_page(b"BT /F1 12 Tf 72 700 Td (small) Tj ET"))
    junk.write_bytes(b"not a pdf")
    worker = Worker(GIGABYTE)
    try:
        first = worker.run(str(big), ("layout",), 60)
        second = worker.run(str(small), ("text", "explain"), 60)
        third = worker.run(str(junk), ("text", "explain"), 60)
    finally:
        worker.stop()
    assert (first.kind, second.kind, third.kind) == ("clean", "clean", "clean")
    assert first.slowest_mode[0] == "layout" and second.slowest_mode[0] in ("text", "explain")
    assert (first.refused, second.refused, third.refused) == ("", "", "NotAPdfError")
    assert second.peak_bytes < first.peak_bytes - 100 * 2**20
