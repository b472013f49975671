"""Right-to-left lines in logical order (UAX #9) and Arabic presentation forms folded, on
built PDFs: a font whose ToUnicode maps A, B, C… to Hebrew or Arabic letters, painted in
visual order (left to right) or logical order (right to left)."""

from __future__ import annotations

from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder, tounicode_cmap

# A=ש B=ל C=ו D=ם: "שלום" is written right to left, so painted left to right it is D C B A.
HEBREW = {0x41: "\u05e9", 0x42: "\u05dc", 0x43: "\u05d5", 0x44: "\u05dd"}
# E=ﻻ (lam-alef isolated, U+FEFB), F=ﺎ (alef final, U+FE8E), G=ﻣ (meem initial, U+FEE3).
ARABIC = {0x45: "\ufefb", 0x46: "\ufe8e", 0x47: "\ufee3"}


def _page(content: bytes, mapping: dict[int, str] = HEBREW):
    builder = PdfBuilder()
    widths = {code: 500 for code in range(32, 127)}
    font = builder.standard_font("Helvetica", widths=widths, to_unicode=tounicode_cmap(mapping))
    builder.add_page(content, fonts={"F1": font})
    return Document.open(builder.to_bytes()).page(0)


def test_hebrew_painted_in_visual_order_reads_in_logical_order_in_every_mode():
    page = _page(b"BT /F1 10 Tf 72 700 Td (DCBA) Tj ET")
    for mode in ("reading", "layout", "columns", "structure"):
        assert page.text(mode) == "\u05e9\u05dc\u05d5\u05dd", mode


def test_reordered_run_is_logged_with_its_direction():
    analysis = _page(b"BT /F1 10 Tf 72 700 Td (DCBA) Tj ET").analysis()
    (run,) = analysis.to_json()["bidi"]["reading"]
    assert run == {
        "glyphs": [0, 1, 2, 3],
        "direction": "rtl",
        "level": 1,
        "base_level": 1,
        "drawn": "visual",
        "reordered": True,
    }
    assert analysis.reading.char_glyphs == (3, 2, 1, 0)


def test_latin_word_inside_hebrew_line_keeps_its_own_order():
    # Visual: "abc" at the left, then the Hebrew word: logically the Hebrew comes first.
    page = _page(b"BT /F1 10 Tf 72 700 Td (abc DCBA) Tj ET")
    assert page.text() == "\u05e9\u05dc\u05d5\u05dd abc"


def test_hebrew_word_inside_english_line_is_reversed_in_place():
    page = _page(b"BT /F1 10 Tf 72 700 Td (see DCBA now) Tj ET")
    assert page.text() == "see \u05e9\u05dc\u05d5\u05dd now"


def test_digits_inside_hebrew_keep_left_to_right_order():
    page = _page(b"BT /F1 10 Tf 72 700 Td (DCBA 12 BA) Tj ET")
    assert page.text() == "\u05e9\u05dc 12 \u05e9\u05dc\u05d5\u05dd"


def test_brackets_inside_right_to_left_run_are_mirrored():
    # Painted: "(" at the left end closes the Hebrew parenthesis logically.
    page = _page(b"BT /F1 10 Tf 72 700 Td (\\(BA\\)) Tj ET")
    assert page.text() == "(\u05e9\u05dc)"


def test_line_painted_right_to_left_is_already_logical():
    content = b"BT /F1 10 Tf 100 700 Td (A) Tj -5 0 Td (B) Tj -5 0 Td (C) Tj -5 0 Td (D) Tj ET"
    analysis = _page(content).analysis()
    assert analysis.reading.text == "\u05e9\u05dc\u05d5\u05dd"
    (run,) = analysis.to_json()["bidi"]["reading"]
    assert (run["drawn"], run["reordered"]) == ("logical", False)


def test_left_to_right_text_has_no_bidi_runs():
    analysis = _page(b"BT /F1 10 Tf 72 700 Td (abc) Tj ET").analysis()
    assert analysis.reading.text == "abc"
    assert analysis.to_json()["bidi"] == {"reading": [], "layout": []}


def test_bidi_reorder_rule_off_keeps_visual_order():
    page = _page(b"BT /F1 10 Tf 72 700 Td (DCBA) Tj ET")
    assert page.text(rules=Rules(bidi_reorder=False)) == "\u05dd\u05d5\u05dc\u05e9"


def test_layout_reorders_each_run_in_place():
    content = b"BT /F1 10 Tf 72 700 Td (BA) Tj 100 0 Td (DC) Tj ET"
    text = _page(content).text("layout")
    assert text.split() == ["\u05e9\u05dc", "\u05d5\u05dd"]


def test_arabic_presentation_forms_fold_to_base_letters_in_text_only():
    # Painted left to right: meem-initial then lam-alef: logically lam-alef first ("لا" + "م").
    page = _page(b"BT /F1 10 Tf 72 700 Td (EG) Tj ET", ARABIC)
    assert page.text() == "\u0645\u0644\u0627"
    assert [g.text for g in page.glyphs()] == ["\ufefb", "\ufee3"]


def test_folding_rule_off_keeps_presentation_forms():
    page = _page(b"BT /F1 10 Tf 72 700 Td (F) Tj ET", ARABIC)
    assert page.text(rules=Rules(fold_presentation_forms=False)) == "\ufe8e"
    assert page.text() == "\u0627"
