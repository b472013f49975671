"""Word spaces on real documents beyond the spec (issue 26), each from a small PDF whose bytes
the test shows, with the Rules value that gives the spec's behaviour back: tall glyph boxes
(space_height_cap), backward jumps and turns of the writing direction (backward_jump_spaces,
direction_change_degrees), drawn blanks kerned back over (kerned_blanks_join), and the layout
grid's word spaces where reading order writes a drawn blank, and unresolved glyphs that are
marks on a neighbour (unresolved_marks_join)."""

from __future__ import annotations

import math

import pytest
from pikepdf import Dictionary, Name

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder, standard_widths, tounicode_cmap

RULES = Rules()
# The spec's §6 word-gap rule alone.
SPEC = RULES.with_values(
    space_height_cap=math.inf,
    backward_jump_spaces=False,
    direction_change_degrees=180,
    kerned_blanks_join=False,
    unresolved_marks_join=False,
)


def analyse(
    content: bytes,
    rules: Rules = RULES,
    *,
    ascent: float | None = None,
    descent: float = -250.0,
    widths: dict[int, float] | None = None,
):
    """Page 0 of a PDF drawing `content` in Helvetica as /F1; `ascent` gives the font a
    descriptor with that /Ascent and `descent` (§9.8.1, the glyph box); `widths` replaces
    some of the standard widths."""
    builder = PdfBuilder()
    all_widths = {**standard_widths("Helvetica"), **(widths or {})}
    font = builder.standard_font("Helvetica", widths=all_widths)
    if ascent is not None:
        font.FontDescriptor = builder.pdf.make_indirect(
            Dictionary(
                Type=Name.FontDescriptor,
                FontName=Name.Helvetica,
                Flags=32,
                FontBBox=[-200, int(descent), 1000, int(ascent)],
                ItalicAngle=0,
                Ascent=ascent,
                Descent=descent,
                CapHeight=700,
                StemV=80,
            )
        )
    builder.add_page(content, fonts={"F1": font})
    return analyse_page(Document.open(builder.to_bytes()).page(0), rules)


def reasons(result) -> list[str]:
    return [gap.reason for gap in result.gaps]


# Class 1: a tall glyph box. Two words 1.9 units apart (TJ -190 at 10 pt) in a font whose box
# is 1075 + 250 = 1.325 em (Linux Libertine's): the spec's threshold is 0.15 × 13.25 = 1.99.
TALL_WORDS = b"BT /F1 10 Tf 72 700 Td [(in) -190 (it)] TJ ET"


def test_a_word_space_in_a_tall_box_font_is_measured_against_the_capped_height():
    result = analyse(TALL_WORDS, ascent=1075)
    assert result.reading.text == "in it"
    gap = result.gaps[1]
    assert gap.reason == "above_threshold" and gap.space
    assert gap.gap == pytest.approx(1.9)
    assert gap.threshold == pytest.approx(0.15 * 1.2 * 10)


@pytest.mark.parametrize("cap", [math.inf, 3.0])  # at or above space_height_cap_limit
def test_a_tall_box_font_keeps_the_spec_threshold_when_the_cap_is_off(cap):
    result = analyse(TALL_WORDS, RULES.with_values(space_height_cap=cap), ascent=1075)
    assert result.reading.text == "init"
    assert result.gaps[1].reason == "below_threshold"
    assert result.gaps[1].threshold == pytest.approx(0.15 * 13.25)


def test_an_ordinary_font_box_is_under_the_cap_and_keeps_the_spec_threshold():
    # Helvetica's own box, 718 + 207 = 0.925 em: 0.15 × 9.25 = 1.3875, both ways.
    content = b"BT /F1 10 Tf 72 700 Td [(in) -130 (it) -140 (on)] TJ ET"
    for rules in (RULES, SPEC):
        result = analyse(content, rules, ascent=718, descent=-207)
        assert result.reading.text == "init on"
        assert [gap.threshold for gap in result.gaps] == [pytest.approx(1.3875)] * 5


def test_a_box_far_taller_than_the_size_is_kept_whole():
    # 4 em: no em of this font (a Type 3 /FontMatrix in other units); the box rules.
    result = analyse(b"BT /F1 10 Tf 72 700 Td [(in) -500 (it)] TJ ET", ascent=3000, descent=-1000)
    assert result.reading.text == "init"
    assert result.gaps[1].threshold == pytest.approx(0.15 * 40)


# Class 2: backward jumps and turns.


def test_a_margin_number_drawn_after_its_line_is_a_word_apart():
    # "text" from x 100, then "5" 30 units back: wholly behind the line's first glyph.
    result = analyse(b"BT /F1 10 Tf 100 700 Td (text) Tj -30 0 Td (5) Tj ET")
    assert result.reading.text == "text 5"
    assert reasons(result)[3] == "backward_jump"
    assert result.gaps[3].space


def test_a_margin_number_joins_its_line_under_the_spec():
    result = analyse(b"BT /F1 10 Tf 100 700 Td (text) Tj -30 0 Td (5) Tj ET", SPEC)
    assert result.reading.text == "text5"
    assert reasons(result)[3] == "negative_gap"


def test_a_tight_negative_kern_is_no_word_boundary():
    # TJ 80 moves "A" 0.8 back under "V": the two overlap.
    result = analyse(b"BT /F1 10 Tf 72 700 Td [(V) 80 (AT)] TJ ET")
    assert result.reading.text == "VAT"
    assert reasons(result)[0] == "negative_gap"


def test_glyphs_set_right_to_left_touching_stay_one_word():
    # Each glyph drawn one advance to the left of the one before: they touch, none apart.
    result = analyse(b"BT /F1 10 Tf 100 700 Td (o) Tj -5.56 0 Td (n) Tj -5.56 0 Td (e) Tj ET")
    assert result.reading.text == "one"
    assert reasons(result) == ["negative_gap", "negative_gap"]


def test_a_rotated_label_beside_a_number_is_a_word_apart():
    # "80.04" ends at x 125.02; "To" turned a quarter starts 0.48 on (under 0.15 × 9.25).
    content = b"BT /F1 10 Tf 100 700 Td (80.04) Tj ET BT /F1 10 Tf 0 1 -1 0 125.5 701 Tm (To) Tj ET"
    result = analyse(content)
    assert result.reading.text == "80.04 To"
    assert reasons(result)[4] == "direction_change"
    assert analyse(content, SPEC).reading.text == "80.04To"


# Class 3: a drawn blank kerned back over (groff through Ghostscript).


def test_a_blank_the_next_glyph_moves_back_over_is_kerning():
    # The space (2.78) then 226 back: 0.52 left between "A" and "T", no word space.
    content = b"BT /F1 10 Tf 72 700 Td [(VA) ( ) 226 (T)] TJ ET"
    result = analyse(content)
    assert result.reading.text == "VAT"
    assert reasons(result) == ["below_threshold", "blank_side", "kerned_blank"]
    assert result.layout.text.strip() == "VAT"
    assert analyse(content, SPEC).reading.text == "VA T"


def test_a_blank_followed_by_a_small_kern_back_stays_a_word_space():
    # 50 back leaves 2.28 between "A" and "T": still a word space.
    result = analyse(b"BT /F1 10 Tf 72 700 Td [(VA) ( ) 50 (T)] TJ ET")
    assert result.reading.text == "VA T"
    assert reasons(result) == ["below_threshold", "blank_side", "blank_side"]


# Class 8: the layout grid keeps the word spaces reading order writes.


def test_narrow_drawn_spaces_are_word_spaces_in_layout_too():
    # Space glyphs 1 unit wide (under 0.15 × 9.25): reading order writes them; the grid,
    # which drops drawn blanks, put one space where the gap rule alone saw none.
    result = analyse(b"BT /F1 10 Tf 72 700 Td (Thoughts of a developer) Tj ET", widths={32: 100})
    assert result.reading.text == "Thoughts of a developer"
    assert result.layout.text.strip() == "Thoughts of a developer"


# Class 5: unresolved marks. CIDs 1-3 write "b", "a", "r"; 4 (no advance) and 5 (500 wide)
# are in no ToUnicode and no other step: unresolved, which the spec writes as a space.


def analyse_cid(content: bytes, rules: Rules = RULES):
    builder = PdfBuilder()
    font = builder.type0_font(
        cid_system_info=("Adobe", "Identity", 0),
        to_unicode=tounicode_cmap({1: "b", 2: "a", 3: "r"}, code_bytes=2),
        w=[1, [500, 500, 500, 0, 500]],
        dw=1000,
    )
    builder.add_page(content, fonts={"F1": font})
    return analyse_page(Document.open(builder.to_bytes()).page(0), rules)


def test_an_unresolved_glyph_without_advance_is_a_mark_on_its_letter():
    result = analyse_cid(b"BT /F1 10 Tf 72 700 Td <0001000200040003> Tj ET")
    assert result.reading.text == "bar"
    assert reasons(result) == ["below_threshold", "unresolved_mark", "below_threshold"]
    assert [glyph.text for glyph in result.glyphs].count("") == 1
    assert (
        analyse_cid(b"BT /F1 10 Tf 72 700 Td <0001000200040003> Tj ET", SPEC).reading.text == "ba r"
    )


def test_the_word_gap_after_a_mark_is_measured_from_its_letter():
    # 3 units between "a" and "r", the mark on "a": a word space, measured from "a".
    result = analyse_cid(b"BT /F1 10 Tf 72 700 Td [<000100020004> -300 <0003>] TJ ET")
    assert result.reading.text == "ba r"
    assert reasons(result)[1:] == ["unresolved_mark", "above_threshold"]
    assert result.gaps[2].gap == pytest.approx(3.0)


def test_an_unresolved_glyph_the_next_letter_moves_back_over_is_a_mark():
    # CID 5 is 5 units wide; TJ 400 moves "r" 4 units back over it.
    result = analyse_cid(b"BT /F1 10 Tf 72 700 Td [<000100020005> 400 <0003>] TJ ET")
    assert result.reading.text == "bar"
    # An unresolved glyph beside its neighbours is still a letter written as a space.
    assert analyse_cid(b"BT /F1 10 Tf 72 700 Td <0001000200050003> Tj ET").reading.text == "ba r"
