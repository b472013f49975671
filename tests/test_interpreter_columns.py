"""The interpreter's columns (core.interpret.runs) give back the records the per-glyph loop built.

The interpreter used to append one Glyph record per code; it now records one run per showing
operator and computes the page's columns with numpy. The reference digests in
`interpreter_reference.json` were written by the per-glyph interpreter (the engine before
this change) from the PDFs built below and from the eight corpus files of issue 9: the sha256
of the `repr` of every record of every page, so a float that differs in its last bit, -0.0
for 0.0, or None for an MCID fails the comparison.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest

from glyphscope.core.document import Document
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret.interpreter import interpret_page
from glyphscope.core.rules import Rules
from tests.corpus import CORPUS
from tests.pdfbuilder import PdfBuilder, tounicode_cmap

REFERENCE = Path(__file__).with_name("interpreter_reference.json")
ISSUE_9_FILES = (
    "pdfjs__tracemonkey",
    "pdfjs__pdkids",
    "pdfjs__tamreview",
    "pdfplumber__ca-warn-report",
    "pdfplumber__federal-register-2020-17221",
    "pdfplumber__issue-67-example",
    "pdfpig__capas",
    "pypdf__geobase_nhnc1_data_model_uml_en",
)


def _horizontal() -> bytes:
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    times = builder.standard_font("Times-Roman")
    builder.add_page(
        b"BT /F1 12 Tf 72 720 Td (Hello, world) Tj 0 -14 Td (second line) Tj"
        b" /F2 9.5 Tf 1 0 0 1 300.25 500.125 Tm (Times) Tj T* (after T*) Tj"
        b" 0.7071 0.7071 -0.7071 0.7071 200 200 Tm /F1 20 Tf (diagonal) Tj ET"
        b" q 2 0 0 3 10 20 cm BT /F1 5 Tf 1 1 Td (scaled ctm) Tj ET Q"
        b" BT /F1 -8 Tf 100 100 Td (negative size) Tj ET"
        b" BT /F1 0 Tf 100 80 Td (zero size) Tj ET",
        fonts={"F1": helv, "F2": times},
    )
    return builder.to_bytes()


def _spacing_and_kerning() -> bytes:
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    long_line = b"A long line of words set with word and character spacing " * 4
    builder.add_page(
        b"BT /F1 11 Tf 50 700 Td 0.5 Tc 2.25 Tw (a b  c) Tj 0 -20 Td 85 Tz -1.5 Ts (scaled) Tj"
        b" 0 -20 Td [(W) -120 (orld) 250.5 ( ) -33 (T) 80 (J)] TJ"
        b" 0 -20 Td 0 Tc 0 Tw 100 Tz 0 Ts [(" + long_line + b") -50 (" + long_line + b")] TJ"
        b" 0 -20 Td 3 Ts 0.1 Tc (" + long_line * 2 + b") Tj"
        b' 14 TL 1 0.25 (quoted ") Tj) " (apostrophe) \' 3 Tr (invisible) Tj ET',
        fonts={"F1": helv},
    )
    return builder.to_bytes()


def _vertical() -> bytes:
    builder = PdfBuilder()
    cid = builder.type0_font(encoding="Identity-V", w=[1, [1000], 3, [500, 600]])
    w2 = builder.type0_font(
        "GlyphscopeCIDW2",
        encoding="Identity-V",
        w=[1, 10, 800],
        w2=[2, [-900, 300, 850]],
        dw2=(880, -1000),
    )
    horizontal = builder.type0_font("GlyphscopeCIDH", w=[1, [1000], 32, [250]], dw=900)
    codes = b"<" + b"0001000200030004" * 20 + b">"
    builder.add_page(
        b"BT /V1 10 Tf 300 700 Td <00010001> Tj 2 Tc 1 Tw [<0003> 200 <0004>] TJ"
        b" 0 0 0 0 0 0 Tm /V1 12 Tf " + codes + b" Tj"
        b" 1 0 0 1 200 600 Tm /V2 9 Tf -4 Ts <000100020003> Tj ET"
        b" BT /H1 10 Tf 50 50 Td <00010020000100200001> Tj [" + codes + b" -500 <0020>] TJ ET",
        fonts={"V1": cid, "V2": w2, "H1": horizontal},
    )
    return builder.to_bytes()


def _type3_forms_and_clips() -> bytes:
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    type3 = builder.type3_font(
        {"sq": b"50 0 0 0 50 50 d1 0 0 50 50 re f"},
        differences=[97, "sq", "sq"],
        widths=[50, 70],
        first_char=97,
        font_matrix=(0.01, 0.002, 0, 0.01, 0, 0),
        font_bbox=(0, 0, 50, 50),
    )
    inner = builder.form_xobject(
        b"BT /F1 7 Tf 5 5 Td (inner form) Tj ET", matrix=(0.5, 0, 0, 0.5, 10, 10)
    )
    outer = builder.form_xobject(
        b"BT /F1 9 Tf 20 30 Td (outer form) Tj ET /In Do",
        bbox=(0, 0, 300, 100),
        matrix=(1, 0.2, -0.2, 1, 50, 400),
        fonts={"F1": helv},
        xobjects={"In": inner},
    )
    builder.add_page(
        b"BT /T3 10 Tf 10 10 Td (abab) Tj ET /Fm1 Do"
        b" q 100 100 200 50 re W n BT /F1 10 Tf 90 120 Td (clipped) Tj ET Q"
        b" /Fm1 Do BT /F1 10 Tf 300 300 Td (after forms) Tj ET",
        fonts={"F1": helv, "T3": type3},
        xobjects={"Fm1": outer},
    )
    return builder.to_bytes()


def _marked_content() -> bytes:
    builder = PdfBuilder()
    mapped = builder.standard_font(
        "Helvetica",
        to_unicode=tounicode_cmap({0x61: "α", 0x62: "fi", 0x63: ""}),
    )
    helv = builder.standard_font("Helvetica")
    builder.add_page(
        b"/P <</MCID 3>> BDC BT /F1 10 Tf 50 50 Td (abc) Tj ET EMC"
        b" /Span <</ActualText (sigma)>> BDC BT /F2 10 Tf 50 80 Td (s) Tj ET EMC"
        b" /P /MC0 BDC /Artifact BMC BT /F2 10 Tf 50 100 Td (nested) Tj ET EMC EMC"
        b" BT (before any font) Tj /F2 10 Tf <00ff80> Tj ET",
        fonts={"F1": mapped, "F2": helv},
        properties={"MC0": {"/MCID": 7}},
    )
    return builder.to_bytes()


BUILT: dict[str, Callable[[], bytes]] = {
    "horizontal": _horizontal,
    "spacing_and_kerning": _spacing_and_kerning,
    "vertical": _vertical,
    "type3_forms_and_clips": _type3_forms_and_clips,
    "marked_content": _marked_content,
}


def page_digests(document: Document, rules: Rules | None = None) -> list[list]:
    """Per page: the glyph count and the sha256 of the records' reprs, one per line."""
    digests = []
    for page in document.pages:
        glyphs = interpret_page(page, rules or Rules()).glyphs
        text = "\n".join(map(repr, glyphs)).encode("utf-8", "surrogatepass")
        digests.append([len(glyphs), hashlib.sha256(text).hexdigest()])
    return digests


def _reference() -> dict:
    return json.loads(REFERENCE.read_text())


@pytest.mark.parametrize("name", sorted(BUILT))
def test_built_pages_give_the_per_glyph_records_bit_for_bit(name):
    with Document.open(BUILT[name]()) as document:
        assert page_digests(document) == _reference()["built"][name]


@pytest.mark.parametrize("name", ISSUE_9_FILES)
def test_issue_9_files_give_the_per_glyph_records_bit_for_bit(name):
    paths = sorted(CORPUS.glob(f"{name}*.pdf"))
    if not paths:
        pytest.skip("corpus not present")
    with Document.open(paths[0]) as document:
        assert page_digests(document) == _reference()["corpus"][name]


def test_the_glyph_limit_cuts_a_string_part_way_and_marks_the_page():
    with Document.open(_spacing_and_kerning()) as document:
        page = document.page(0)
        whole = interpret_page(page, Rules()).glyphs
        cut = interpret_page(page, Rules(max_page_glyphs=100)).glyphs
        extraction = interpret_page(page, Rules(max_page_glyphs=100))
    # The limit falls inside the long TJ string (its pen positions are one accumulate).
    assert len(cut) == 100 and extraction.truncated
    assert "page truncated: more than 100 glyphs" in extraction.warnings
    assert [repr(g) for g in cut] == [repr(g) for g in whole[:100]]


def test_the_columns_pickle_as_arrays_without_their_records():
    with Document.open(_spacing_and_kerning()) as document:
        glyphs = interpret_page(document.page(0), Rules()).glyphs
    assert isinstance(glyphs, GlyphColumns)
    before = len(pickle.dumps(glyphs))
    glyphs[0]  # fills the records' list cache, which stays behind
    assert len(pickle.dumps(glyphs)) == before
    copy = pickle.loads(pickle.dumps(glyphs))
    assert isinstance(copy, GlyphColumns) and copy == list(glyphs)


def test_columns_compare_equal_to_the_records_they_hold():
    with Document.open(_horizontal()) as document:
        glyphs = interpret_page(document.page(0), Rules()).glyphs
    assert glyphs == tuple(glyphs) and glyphs == list(glyphs)
    assert glyphs != list(glyphs)[:-1] and GlyphColumns.empty() == ()


def _one_line(content: bytes) -> Document:
    builder = PdfBuilder()
    builder.add_page(content, fonts={"F1": builder.standard_font("Helvetica")})
    return Document.open(builder.to_bytes())


def test_a_render_mode_beyond_any_column_integer_is_a_malformed_tr():
    huge = b"9" * 30 + b".0"
    with _one_line(b"BT /F1 10 Tf 2 Tr " + huge + b" Tr (a) Tj ET") as document:
        extraction = interpret_page(document.page(0), Rules())
    assert [g.render_mode for g in extraction.glyphs] == [2]
    assert any("skipped malformed Tr" in w for w in extraction.warnings)


def test_an_mcid_beyond_any_column_integer_is_no_mcid():
    huge = b"9" * 30 + b".0"
    content = b"/P <</MCID " + huge + b">> BDC BT /F1 10 Tf (a) Tj ET EMC"
    with _one_line(content) as document:
        (glyph,) = interpret_page(document.page(0), Rules()).glyphs
    assert glyph.mcid is None
