"""Accents painted as glyphs of their own merged into their base (core.text.accents), and
marked-content replacement text, /ActualText (§14.9.4) and /E (§14.9.5), on built PDFs."""

from __future__ import annotations

from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import Element, PdfBuilder, standard_widths

MODES = ("reading", "layout", "columns", "structure")


def _page(content: bytes, *, differences=None, xobjects=None, properties=None, builder=None):
    builder = builder or PdfBuilder()
    widths = standard_widths("Helvetica")
    widths[128] = 278  # dotlessi
    font = builder.standard_font("Helvetica", widths=widths, differences=differences)
    builder.add_page(content, fonts={"F1": font}, xobjects=xobjects, properties=properties)
    return Document.open(builder.to_bytes()).page(0)


# TeX's "na\"{\i}ve": the dieresis (333 units) is painted, the pen moves back 305 units, and
# the dotless i (278 units) sits under it: [28, 306] inside the accent's [0, 333].
NAIVE = b"BT /F1 10 Tf 72 700 Td [(na\\250) 305 (\\200ve)] TJ ET"
DOTLESS = [128, "dotlessi"]


def test_dieresis_over_dotless_i_reads_i_with_dieresis_in_every_mode():
    page = _page(NAIVE, differences=DOTLESS)
    for mode in MODES:
        assert page.text(mode) == "na\u00efve", mode


def test_accent_merge_is_logged_and_the_base_owns_the_composed_character():
    analysis = _page(NAIVE, differences=DOTLESS).analysis()
    assert analysis.to_json()["accents"] == [
        {"accent": 2, "base": 3, "overlap": 1.0, "text": "\u00ef"}
    ]
    assert analysis.reading.char_glyphs == (0, 1, 3, 4, 5)
    assert analysis.glyphs[3].text == "\u0131"  # the record keeps what was decoded


def test_accent_beside_a_letter_is_not_merged():
    page = _page(b"BT /F1 10 Tf 72 700 Td (a\\250) Tj ET")
    assert page.text() == "a\u00a8"


def test_overlap_rule_above_one_turns_merging_off():
    page = _page(NAIVE, differences=DOTLESS)
    assert page.text(rules=Rules(accent_overlap_ratio=1.5)) == "na\u00a8\u0131ve"


def test_accent_after_its_base_merges_too():
    # "e" (556) then the pen back 445 and an acute (333): [111, 444] inside [0, 556].
    page = _page(b"BT /F1 10 Tf 72 700 Td [(e) 445 (\\264)] TJ ET")
    assert page.text() == "\u00e9"


def test_cedilla_under_c_composes():
    page = _page(b"BT /F1 10 Tf 72 700 Td [(c) 444 (\\270)] TJ ET")
    assert page.text() == "\u00e7"


def _actual(text: bytes) -> bytes:
    return b"/Span <</ActualText (" + text + b")>> BDC "


def test_actual_text_replaces_its_glyphs_in_every_mode():
    page = _page(b"BT /F1 10 Tf 72 700 Td (x ) Tj " + _actual(b"ffi") + b"(XY) Tj EMC ( z) Tj ET")
    for mode in MODES:
        assert page.text(mode) == "x ffi z", mode


def test_actual_text_characters_map_to_the_spans_first_glyph_and_are_logged():
    analysis = _page(b"BT /F1 10 Tf 72 700 Td " + _actual(b"ffi") + b"(XY) Tj EMC ET").analysis()
    assert analysis.reading.text == "ffi"
    assert analysis.reading.char_glyphs == (0, 0, 0)
    assert analysis.to_json()["replacements"] == [
        {"glyphs": [0, 1], "text": "ffi", "source": "actual_text", "span": [0, 2]}
    ]


def test_actual_text_through_properties_spans_text_objects():
    content = (
        b"/Span /P1 BDC BT /F1 10 Tf 72 700 Td (AB) Tj ET BT /F1 10 Tf 83 700 Td (C) Tj ET EMC"
    )
    page = _page(content, properties={"P1": {"/ActualText": "sigma"}})
    assert page.text() == "sigma"


def test_nested_actual_text_reads_the_outer_replacement():
    content = (
        b"BT /F1 10 Tf 72 700 Td "
        + _actual(b"outer")
        + _actual(b"inner")
        + b"(ab) Tj EMC (c) Tj EMC ET"
    )
    assert _page(content).text() == "outer"


def test_actual_text_around_a_form_replaces_the_forms_glyphs():
    builder = PdfBuilder()
    form = builder.form_xobject(b"BT /F1 10 Tf 72 700 Td (XYZ) Tj ET")
    content = b"/Span <</ActualText <FEFF00E9>>> BDC /Fm1 Do EMC"
    page = _page(content, xobjects={"Fm1": form}, builder=builder)
    assert page.text() == "\u00e9"


def test_empty_actual_text_removes_its_glyphs():
    page = _page(b"BT /F1 10 Tf 72 700 Td (co) Tj " + _actual(b"") + b"(-) Tj EMC (op) Tj ET")
    assert page.text() == "coop"


def test_expansion_is_read_only_when_the_rule_asks():
    content = b"BT /F1 10 Tf 72 700 Td /Span <</E (Doctor)>> BDC (Dr.) Tj EMC ET"
    page = _page(content)
    assert page.text() == "Dr."
    assert page.text(rules=Rules(use_expansion=True)) == "Doctor"


def test_unclosed_span_in_a_form_ends_with_the_form():
    builder = PdfBuilder()
    form = builder.form_xobject(b"BT /F1 10 Tf 72 700 Td /Span <</ActualText (Q)>> BDC (XY) Tj ET")
    content = b"/Fm1 Do BT /F1 10 Tf 100 700 Td (z) Tj ET"
    page = _page(content, xobjects={"Fm1": form}, builder=builder)
    assert page.text() == "Q z"


def _tagged(entries: dict) -> Document:
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=standard_widths("Helvetica"))
    content = (
        b"BT /F1 10 Tf 72 700 Td /P <</MCID 0>> BDC (one ) Tj EMC "
        b"/P <</MCID 1>> BDC (Dr.) Tj EMC /P <</MCID 2>> BDC ( two) Tj EMC ET"
    )
    builder.add_page(content, fonts={"F1": font})
    builder.struct_tree(
        Element(
            "Document",
            [Element("P", [0]), Element("Span", [1], entries=entries), Element("P", [2])],
            page=0,
        )
    )
    return Document.open(builder.to_bytes())


def test_structure_element_actual_text_replaces_its_content_in_structure_order():
    page = _tagged({"ActualText": "Doctor"}).page(0)
    assert page.text("structure") == "one Doctor two"
    assert page.text("reading") == "one Dr. two"


def test_structure_element_expansion_is_read_with_the_rule():
    page = _tagged({"E": "Doctor"}).page(0)
    assert page.text("structure") == "one Dr. two"
    assert page.text("structure", rules=Rules(use_expansion=True)) == "one Doctor two"
