"""End to end: built PDFs through the interpreter, visible glyphs and the text assemblers
(spec §4–§8), one symptom of the spec per test, with the numbers the decisions logged."""

from __future__ import annotations

import json

import pytest

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from glyphscope.core.text.reading import GapReason
from glyphscope.core.text.visible import DropReason, GlyphStatus
from tests.pdfbuilder import PdfBuilder, tounicode_cmap

RULES = Rules()


def analyse(content: bytes, fonts: str = "helvetica", rules: Rules = RULES, **page):
    builder = PdfBuilder()
    if fonts == "helvetica":
        font = builder.standard_font("Helvetica")
    else:
        font = builder.type0_font(
            encoding="Identity-V" if fonts == "cjk-vertical" else "Identity-H",
            to_unicode=tounicode_cmap(CJK, code_bytes=2),
            w=[1, [500, 500]],
            dw=1000,
        )
    builder.add_page(content, fonts={"F1": font}, **page)
    return analyse_page(Document.open(builder.to_bytes()).page(0), rules)


# CIDs 1.. of the Identity-H/V test font: two half-width digits, then full-width characters.
CJK = {
    1: "9",
    2: "5",
    3: "后",
    4: "日",
    5: "本",
    6: "語",
    7: "の",
    8: "文",
    9: "章",
    10: "で",
    11: "す",
}


def test_tj_spaced_cover_title_reads_with_word_spaces():
    result = analyse(
        b"BT /F1 24 Tf 72 700 Td [(PDF)-250(Reference)-250(Manual)] TJ"
        b" 0 -30 Td [(November)-250(4,)-250(1998)] TJ ET"
    )
    assert result.reading.text == "PDF Reference Manual\nNovember 4, 1998"
    # 250/1000 × 24 = 6 units after "F"; threshold 0.15 × box height 24.
    gap = result.gaps[2]
    assert (gap.gap, round(gap.threshold, 6), gap.space) == (6.0, 3.6, True)


def test_one_tf_with_scaled_tm_spaces_by_the_box_height():
    result = analyse(b"BT /F1 1 Tf 10 0 0 10 72 700 Tm [(Annual)-300(report)] TJ ET")
    assert result.reading.text == "Annual report"
    gap = result.gaps[5]
    assert (round(gap.gap, 6), round(gap.threshold, 6)) == (3.0, 1.5)


def test_text_rise_under_one_tf_stays_on_the_line():
    # Ts 0.4 under a Tm scaled by 10 lifts the superscript 4 units: below half of 10.
    result = analyse(b"BT /F1 1 Tf 10 0 0 10 72 700 Tm (x) Tj 0.4 Ts (2) Tj ET")
    assert result.reading.text == "x2"
    assert (round(result.line_breaks[0].projection, 6), result.line_breaks[0].threshold) == (
        4.0,
        5.0,
    )


def test_negative_tc_given_back_by_tj_keeps_95_together():
    # Tc -2 pulls each pen 2 units back; the TJ -200 (2 units at 10 pt) gives them back.
    result = analyse(b"BT /F1 10 Tf -2 Tc 72 700 Td [<0001> -200 <0002> -200 <0003>] TJ ET", "cjk")
    assert result.reading.text == "95后"
    assert [round(gap.gap, 6) for gap in result.gaps] == [0.0, 0.0]


def test_loose_tracking_heading_gets_a_space_per_letter():
    # Honest edge: Tc 2 alone opens 2 > 0.15 × 10 between the letters.
    assert analyse(b"BT /F1 10 Tf 2 Tc 72 700 Td (TITLE) Tj ET").reading.text == "T I T L E"


def test_big_word_and_small_caption_on_one_baseline_stay_on_one_line():
    result = analyse(b"BT /F1 40 Tf 72 700 Td (BIG) Tj ET BT /F1 8 Tf 160 694 Td (caption) Tj ET")
    assert result.reading.text == "BIG caption"
    assert result.line_breaks[2].threshold == 20.0


def test_diagonal_watermark_is_one_line():
    result = analyse(b"BT /F1 40 Tf 0.6 0.8 -0.8 0.6 100 100 Tm (CONFIDENTIAL) Tj ET")
    assert result.reading.text == "CONFIDENTIAL"
    assert not any(decision.broke for decision in result.line_breaks)


def test_rotated_text_is_one_line_with_its_word_space():
    result = analyse(b"BT /F1 10 Tf 0 1 -1 0 50 100 Tm [(Side)-300(note)] TJ ET")
    assert result.reading.text == "Side note"


def test_form_values_below_label_baselines_give_one_line_per_row():
    # A form in Word's style (1 Tf, size in Tm): each value sits 3 units below its label.
    # A raw-y rule against half the Tf size (0.5) makes 4 lines of the 2 rows.
    result = analyse(
        b"BT /F1 1 Tf 10 0 0 10 72 700 Tm (Name:) Tj 10 0 0 10 150 697 Tm (Ada) Tj"
        b" 10 0 0 10 72 680 Tm (City:) Tj 10 0 0 10 150 677 Tm (Paris) Tj ET"
    )
    assert result.reading.text == "Name: Ada\nCity: Paris"
    naive = sum(
        abs(result.glyphs[b.current].origin[1] - result.glyphs[b.previous].origin[1]) > 0.5
        for b in result.line_breaks
    )
    assert (naive + 1, sum(b.broke for b in result.line_breaks) + 1) == (4, 2)


def test_slug_line_outside_the_crop_box_is_dropped():
    result = analyse(
        b"BT /F1 8 Tf 40 10 Td (SLUG) Tj ET BT /F1 12 Tf 72 700 Td (Body) Tj ET",
        crop_box=(36, 36, 576, 756),
    )
    assert result.reading.text == "Body"
    assert result.visible_box == (36.0, 36.0, 576.0, 756.0)
    assert [(d.index, d.reason, d.box) for d in result.dropped] == [
        (i, "outside_visible_box", (36.0, 36.0, 576.0, 756.0)) for i in range(4)
    ]


def test_fake_bold_words_are_read_once():
    result = analyse(
        b"BT /F1 12 Tf 72 700 Td (Bold words) Tj ET BT /F1 12 Tf 72.3 700 Td (Bold words) Tj ET"
    )
    assert result.reading.text == "Bold words"
    first_copy = result.dropped[0]
    assert (first_copy.index, first_copy.kept, round(first_copy.along, 6)) == (10, 0, 0.3)


def test_triple_strike_keeps_the_first_pass():
    result = analyse(
        b"BT /F1 12 Tf 72.5 700 Td (Ink) Tj ET BT /F1 12 Tf 72.25 700 Td (Ink) Tj ET"
        b" BT /F1 12 Tf 72 700 Td (Ink) Tj ET"
    )
    assert result.visible == (0, 1, 2)
    assert result.reading.text == "Ink"


def test_footer_form_drawn_twice_at_one_spot_is_read_once():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    footer = builder.form_xobject(b"BT /F1 9 Tf 300 30 Td (Page 7) Tj ET", fonts={"F1": font})
    builder.add_page(b"/Fm1 Do /Fm1 Do", fonts={"F1": font}, xobjects={"Fm1": footer})
    result = analyse_page(Document.open(builder.to_bytes()).page(0), RULES)
    assert len(result.glyphs) == 12
    assert result.reading.text == "Page 7"


def test_fill_and_identical_table_cells_are_kept():
    result = analyse(
        b"BT /F1 10 Tf 72 700 Td (fill) Tj ET"
        b" BT /F1 10 Tf 72 680 Td (42) Tj ET BT /F1 10 Tf 200 680 Td (42) Tj ET"
    )
    assert result.dropped == ()
    assert result.reading.text == "fill\n42 42"


def test_offset_of_one_fifth_of_the_size_is_not_removed():
    # Known limit: a second pass 0.2 × 12 = 2.4 units right is two characters.
    result = analyse(b"BT /F1 12 Tf 72 700 Td (A) Tj ET BT /F1 12 Tf 74.4 700 Td (A) Tj ET")
    assert result.dropped == ()
    assert result.reading.text == "AA"


def test_vertical_japanese_reads_columns_right_to_left():
    result = analyse(
        b"BT /F1 10 Tf 180 700 Td <000A000B> Tj ET BT /F1 10 Tf 200 700 Td <000400050006> Tj ET",
        "cjk-vertical",
    )
    assert result.reading.text == "日本語\nです"
    assert [(c.glyphs, c.x_centre) for c in result.vertical_columns] == [
        ((2, 3, 4), 200.0),
        ((0, 1), 180.0),
    ]


def test_justified_cjk_gets_no_spaces():
    result = analyse(b"BT /F1 10 Tf 3 Tc 72 700 Td <000400050006000700080009> Tj ET", "cjk")
    assert result.reading.text == "日本語の文章"
    assert {(gap.reason, round(gap.gap, 6)) for gap in result.gaps} == {("cjk_pair", 3.0)}


def test_fake_bold_ligature_is_deduplicated_before_expansion():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", to_unicode=tounicode_cmap({0x81: "\ufb01"}))
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (\x81le) Tj ET BT /F1 12 Tf 72.3 700 Td (\x81le) Tj ET",
        fonts={"F1": font},
    )
    result = analyse_page(Document.open(builder.to_bytes()).page(0), RULES)
    assert result.reading.text == "file"
    assert result.reading.char_glyphs == (0, 0, 1, 2)


def test_two_columns_side_by_side_in_layout_and_in_turn_in_columns():
    result = analyse(
        b"BT /F1 10 Tf 72 700 Td (left one) Tj 228 0 Td (right one) Tj"
        b" -228 -12 Td (left two) Tj 228 0 Td (right two) Tj ET"
    )
    assert result.reading.text == "left one right one\nleft two right two"
    assert result.columns.text.text == "left one\nleft two\nright one\nright two"
    # The cell fits the tightest block, "left one": 31.68 units over 8 glyphs = 3.96, so the
    # right column, 228 units on, starts in grid column 58 on both lines.
    assert round(result.layout_grid.cell_width, 4) == 3.96
    layout_lines = result.layout.text.split("\n")
    assert [line.index("right") for line in layout_lines] == [58, 58]


def test_explain_json_is_serialisable_and_keeps_every_decision():
    result = analyse(b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ ET")
    decoded = json.loads(json.dumps(result.to_json()))
    assert decoded["reading"] == {"text": "ab cd", "char_glyphs": [0, 1, -1, 2, 3]}
    assert decoded["gaps"][1] == {
        "previous": 1,
        "current": 2,
        "gap": pytest.approx(4.8),
        "threshold": pytest.approx(1.8),
        "space": True,
        "reason": "above_threshold",
    }
    assert decoded["glyphs"][0]["index"] == 0
    assert decoded["structure"] is None


def test_decision_reasons_are_core_enums_written_as_their_values():
    # The inspector compares against GapReason / DropReason / GlyphStatus members, never
    # against retyped strings; the decision log and every printout still read the values.
    result = analyse(
        b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ ET BT /F1 8 Tf 40 10 Td (S) Tj ET",
        crop_box=(36, 36, 576, 756),
    )
    reasons = [gap.reason for gap in result.gaps]
    assert reasons == [
        GapReason.BELOW_THRESHOLD,
        GapReason.ABOVE_THRESHOLD,
        GapReason.BELOW_THRESHOLD,
    ]
    assert [d.reason for d in result.dropped] == [DropReason.OUTSIDE_VISIBLE_BOX]
    assert GlyphStatus(result.dropped[0].reason) is GlyphStatus.OUTSIDE_VISIBLE_BOX
    assert (f"{reasons[1]}", str(reasons[1]), reasons[1] == "above_threshold") == (
        "above_threshold",
        "above_threshold",
        True,
    )
    logged = json.dumps(result.to_json())
    assert '"reason": "above_threshold"' in logged and '"reason": "outside_visible_box"' in logged
    assert json.dumps(result.to_json(), indent=1) == json.dumps(
        json.loads(logged), indent=1
    )  # the pure-Python encoder (indent, --mode explain) writes the same values


def test_untagged_page_says_why_it_has_no_structure_order():
    builder = PdfBuilder()
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (ab) Tj ET", fonts={"F1": builder.standard_font("Helvetica")}
    )
    result = analyse_page(Document.open(builder.to_bytes()).page(0), RULES)
    assert (result.structure, result.structure_reason) == (None, "no structure tree")
    assert result.to_json()["structure_reason"] == "no structure tree"


def test_page_without_content_is_unreadable_and_empty():
    builder = PdfBuilder()
    builder.add_page(None)
    result = analyse_page(Document.open(builder.to_bytes()).page(0), RULES)
    assert (result.readable, result.reading.text, result.glyphs) == (False, "", ())


def test_even_an_unreadable_page_has_a_layout_grid_in_its_log():
    builder = PdfBuilder()
    builder.add_page(None)
    result = analyse_page(Document.open(builder.to_bytes()).page(0), RULES)
    assert (result.layout_grid.lines, result.layout_grid.rotation) == ((), 0)
    layout = result.to_json()["layout"]
    assert (layout["text"], layout["lines"], layout["cell_height"]) == ("", [], 1.0)


def test_corpus_overprinted_report_cover_reads_each_line_once(corpus_dir):
    document = Document.open(corpus_dir / "pdfplumber__issue-842-example.pdf")
    result = analyse_page(document.page(0), RULES)
    assert (len(result.glyphs), len(result.visible)) == (430, 157)
    assert result.reading.text.splitlines()[:4] == [
        "安徽安利合成革股份有限公司",
        "ANHUI ANLI ARTIFICIAL LEATHER CO.,LTD.",
        "2011 年年度报告",
        "股票代码：300218",
    ]


def test_a_partial_analysis_differs_from_the_complete_one_only_in_its_text_mode_fields():
    from dataclasses import fields

    from glyphscope.core.analysis import TEXT_MODE_FIELDS, finish_analysis, read_page

    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 720 Td (one two) Tj 0 -14 Td (three) Tj ET", fonts={"F1": font}
    )
    read = read_page(Document.open(builder.to_bytes()).page(0), RULES)
    partial, complete = finish_analysis(read, text_modes=False), finish_analysis(read)
    differing = {
        f.name for f in fields(complete) if getattr(partial, f.name) != getattr(complete, f.name)
    }
    assert differing <= set(TEXT_MODE_FIELDS)
    assert {"layout", "columns", "layout_grid", "structure_reason"} <= differing
