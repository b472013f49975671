"""Reading-order text (spec §6) on synthetic glyph records: word spaces, line breaks, columns
of vertical text, unresolved glyphs, ligatures."""

from __future__ import annotations

import math

from glyphscope.core.text.reading import GapDecision, LineBreakDecision, reading_order
from glyphscope.core.text.visible import visible_glyphs
from tests.glyphbuilder import PAGE, RULES, make_glyph, make_run, renumber


def read(glyphs, rules=RULES):
    return reading_order(glyphs, range(len(glyphs)), rules)


def words(text: str, x: float, y: float, gap: float, size: float = 10.0, **kw):
    """Words placed by TJ-style pen moves: no space glyphs, `gap` units between words."""
    angle = math.radians(kw.get("angle", 0.0))
    glyphs = []
    for word in text.split(" "):
        run = make_run(word, x, y, size, **kw)
        glyphs += run
        x = run[-1].glyph_end[0] + gap * math.cos(angle)
        y = run[-1].glyph_end[1] + gap * math.sin(angle)
    return renumber(glyphs)


def test_tj_spaced_cover_title_gets_word_spaces():
    title = words("PDF Reference Manual November 4, 1998", 72.0, 700.0, gap=3.0)
    assert read(title).text.text == "PDF Reference Manual November 4, 1998"


def test_word_gap_decision_records_gap_and_threshold():
    result = read(words("ab cd", 72.0, 700.0, gap=3.0))
    assert result.gaps[1] == GapDecision(1, 2, 3.0, 1.5, True, "above_threshold")
    assert result.gaps[0] == GapDecision(0, 1, 0.0, 1.5, False, "below_threshold")


def test_one_tf_with_scaled_tm_uses_the_box_height_not_the_font_size():
    # Word writes `1 Tf` and a Tm scaled by 10: a record whose Tf-sized font_size would be 1.
    title = [g._replace(font_size=1.0) for g in words("Annual report", 72.0, 700.0, gap=2.0)]
    assert read(title).text.text == "Annual report"


def test_negative_tc_given_back_by_tj_inserts_no_space():
    # Tc = -2 tightens the pen; each TJ adjustment gives the 2 units back, so every origin sits
    # on the previous glyph END while the pen (baseline_end) is 2 units short of it.
    glyphs = renumber(make_run("95后", 72.0, 700.0, pen_extra=-2.0))
    glyphs = [g._replace(origin=glyphs[i - 1].glyph_end) if i else g for i, g in enumerate(glyphs)]
    result = read(glyphs)
    assert result.text.text == "95后"
    assert [gap.gap for gap in result.gaps] == [0.0, 0.0]


def test_loose_tracking_heading_gets_a_space_per_letter():
    # Honest edge (spec §6): Tc = 2 on 10 pt type opens 2 > 0.15 × 10 between the letters.
    heading = renumber(make_run("TITLE", 72.0, 700.0, pen_extra=2.0))
    assert read(heading).text.text == "T I T L E"


def test_superscript_raised_by_text_rise_stays_on_the_line():
    base = make_run("x", 72.0, 700.0)
    superscript = make_glyph("2", base[-1].glyph_end[0], 704.0, size=6.0)
    result = read(renumber(base + [superscript]))
    assert result.text.text == "x2"
    assert result.line_breaks == (LineBreakDecision(0, 1, 4.0, 5.0, False),)


def test_big_word_and_small_caption_on_one_baseline_stay_on_one_line():
    big = make_run("BIG", 72.0, 700.0, size=40.0)
    caption = make_run("caption", big[-1].glyph_end[0] + 10.0, 694.0, size=8.0)
    result = read(renumber(big + caption))
    assert result.text.text == "BIG caption"
    assert result.line_breaks[2] == LineBreakDecision(2, 3, -6.0, 20.0, False)


def test_next_line_starting_at_the_margin_breaks_without_a_gap_decision():
    lines = renumber(make_run("ab", 72.0, 700.0) + make_run("cd", 72.0, 688.0))
    result = read(lines)
    assert result.text.text == "ab\ncd"
    assert result.line_breaks[1] == LineBreakDecision(1, 2, -12.0, 5.0, True)
    assert [(gap.previous, gap.current) for gap in result.gaps] == [(0, 1), (2, 3)]


def test_diagonal_watermark_is_one_line():
    watermark = renumber(make_run("CONFIDENTIAL", 100.0, 100.0, size=40.0, angle=45.0))
    assert read(watermark).text.text == "CONFIDENTIAL"


def test_rotated_text_keeps_word_spaces_along_its_direction():
    rotated = words("Side note", 50.0, 100.0, gap=3.0, angle=90.0)
    assert read(rotated).text.text == "Side note"


def test_form_fields_below_their_label_baseline_stay_on_the_label_line():
    # Fill-in values sit 3 pt below the label baseline: a raw-y rule against half of a
    # `1 Tf` size (0.5) splits every row; half the box height (5) does not.
    rows = []
    for row, (label, value) in enumerate((("Name:", "Ada"), ("City:", "Paris"))):
        y = 700.0 - 20.0 * row
        label_run = make_run(label, 72.0, y)
        rows += label_run + make_run(value, label_run[-1].glyph_end[0] + 20.0, y - 3.0)
    rows = [g._replace(font_size=1.0) for g in renumber(rows)]
    assert read(rows).text.text == "Name: Ada\nCity: Paris"


def test_out_of_order_fragments_on_one_baseline_join_without_a_space_under_the_spec():
    # The spec's honest edge, reachable with backward_jump_spaces off.
    second = make_run("world", 100.0, 700.0)
    first = make_run("hello", 72.0, 700.0)
    result = read(renumber(second + first), RULES.with_values(backward_jump_spaces=False))
    assert result.text.text == "worldhello"
    assert result.gaps[4].reason == "negative_gap"
    assert result.gaps[4].gap == -53.0


def test_a_fragment_drawn_clear_behind_the_previous_one_is_a_word_apart():
    # Beyond the spec (issue 26): "hello" ends at 97, 3 units before "world" starts.
    second = make_run("world", 100.0, 700.0)
    first = make_run("hello", 72.0, 700.0)
    result = read(renumber(second + first))
    assert result.text.text == "world hello"
    assert result.gaps[4] == GapDecision(4, 5, -53.0, 1.5, True, "backward_jump")


def test_justified_cjk_gets_no_spaces():
    line = renumber(make_run("日本語の文章", 72.0, 700.0, pen_extra=3.0))
    result = read(line)
    assert result.text.text == "日本語の文章"
    assert {gap.reason for gap in result.gaps} == {"cjk_pair"}


def test_korean_words_apart_get_a_space_because_hangul_is_spaced_text():
    assert read(words("흐린 품이", 72.0, 700.0, gap=3.0)).text.text == "흐린 품이"


def test_latin_next_to_cjk_gets_a_space_when_the_gap_is_wide():
    assert read(words("PDF 文書", 72.0, 700.0, gap=3.0)).text.text == "PDF 文書"


def test_drawn_space_is_a_blank_side_and_not_doubled():
    result = read(renumber(make_run("a b", 72.0, 700.0, advance=5.0)))
    assert result.text.text == "a b"
    assert [gap.reason for gap in result.gaps] == ["blank_side", "blank_side"]


def test_unresolved_glyph_becomes_a_space():
    glyphs = renumber(make_run("ab", 72.0, 700.0) + [make_glyph("", 82.0, 700.0)])
    glyphs += [make_glyph("c", 87.0, 700.0, draw_order=3)]
    result = read(glyphs)
    assert result.text.text == "ab c"
    assert result.text.char_glyphs == (0, 1, 2, 3)


def test_inserted_characters_map_to_no_glyph():
    result = read(renumber(make_run("ab", 72.0, 700.0) + make_run("cd", 72.0, 680.0)))
    assert result.text.char_glyphs == (0, 1, -1, 2, 3)


def test_ligature_is_expanded_and_both_letters_map_to_its_glyph():
    result = read(renumber(make_run("\ufb01le", 72.0, 700.0)))
    assert result.text.text == "file"
    assert result.text.char_glyphs == (0, 0, 1, 2)
    assert result.text.glyph_spans(0) == [(0, 2)]


def test_ligature_is_kept_when_expansion_is_off():
    off = RULES.with_values(expand_ligatures=False)
    assert read(renumber(make_run("\ufb01le", 72.0, 700.0)), off).text.text == "\ufb01le"


def test_fake_bold_ligature_is_deduplicated_before_expansion():
    first = make_run("\ufb01le", 72.0, 700.0)
    second = make_run("\ufb01le", 72.3, 700.0)
    glyphs = renumber(first + second)
    visible = visible_glyphs(glyphs, PAGE, RULES).visible
    assert reading_order(glyphs, visible, RULES).text.text == "file"


def test_fake_bold_words_are_read_once():
    first = make_run("Bold words", 72.0, 700.0)
    second = make_run("Bold words", 72.3, 700.0)
    glyphs = renumber(first + second)
    visible = visible_glyphs(glyphs, PAGE, RULES).visible
    assert reading_order(glyphs, visible, RULES).text.text == "Bold words"


def test_exact_duplicate_footer_is_read_once():
    footer = make_run("Page 1", 300.0, 30.0)
    glyphs = renumber(make_run("Body", 72.0, 700.0) + footer + footer)
    visible = visible_glyphs(glyphs, PAGE, RULES).visible
    assert reading_order(glyphs, visible, RULES).text.text == "Body\nPage 1"


def vertical_column(text: str, x: float, top: float, size: float = 10.0):
    return make_run(text, x, top, size, advance=size, writing_mode=1, angle=-90.0)


def test_vertical_japanese_reads_columns_right_to_left():
    # Drawn left column first: reading order still starts at the right.
    left = vertical_column("です", 180.0, 700.0)
    right = vertical_column("日本語", 200.0, 700.0)
    result = read(renumber(left + right))
    assert result.text.text == "日本語\nです"
    assert [column.glyphs for column in result.vertical_columns] == [(2, 3, 4), (0, 1)]
    assert result.vertical_columns[0].x_centre == 200.0
    assert (result.vertical_columns[0].top, result.vertical_columns[0].bottom) == (700.0, 670.0)


def test_vertical_column_reads_top_to_bottom_whatever_the_drawing_order():
    column = vertical_column("縦書き", 200.0, 700.0)
    assert read(renumber(column[::-1])).text.text == "縦書き"


def test_horizontal_text_after_a_vertical_run_starts_a_new_line():
    glyphs = renumber(vertical_column("縦", 200.0, 700.0) + make_run("p1", 72.0, 40.0))
    assert read(glyphs).text.text == "縦\np1"


def test_glyph_spans_lists_every_run_of_a_glyph():
    result = read(renumber(make_run("\ufb00", 72.0, 700.0)))
    assert result.text.glyph_spans(0) == [(0, 2)]
    assert result.text.glyph_spans(5) == []


def test_control_characters_from_a_cmap_are_written_as_spaces():
    glyphs = renumber(make_run("a", 72.0, 700.0) + [make_glyph("\r", 77.0, 700.0)])
    glyphs += [make_glyph("b", 82.0, 700.0, draw_order=2)]
    assert read(glyphs).text.text == "a b"


def test_blank_glyph_alone_on_a_last_line_leaves_no_trailing_newline():
    glyphs = renumber(make_run("ab", 72.0, 700.0) + [make_glyph(" ", 72.0, 680.0)])
    assert read(glyphs).text.text == "ab"
