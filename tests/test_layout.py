"""Layout text (spec §7) on synthetic glyph records: the monospace grid, blank lines, two
columns side by side, off-grid glyphs."""

from __future__ import annotations

from glyphscope.core.text.layout import layout, layout_text
from tests.glyphbuilder import RULES, make_glyph, make_run, renumber


def lay(glyphs):
    return layout(glyphs, range(len(glyphs)), RULES)


def test_cell_size_is_the_mean_advance_and_the_size():
    result = lay(renumber(make_run("ab", 72.0, 700.0, advance=6.0)))
    assert (result.cell_width, result.cell_height) == (6.0, 10.0)
    assert result.text.text == "ab"


def test_large_heading_does_not_widen_the_body_grid():
    # Advances are 0.5 em everywhere; the body size (median) sets the cell: 5 × 10.
    heading = make_run("Title", 72.0, 740.0, size=40.0)
    body = make_run("body text", 72.0, 700.0) + make_run("more text", 72.0, 688.0)
    result = lay(renumber(heading + body))
    assert (result.cell_width, result.cell_height) == (5.0, 10.0)


def test_wide_gap_on_a_line_becomes_several_spaces():
    # Cells are 5 wide: "Total" ends at 97, the amount starts at 122, grid column 10.
    glyphs = renumber(make_run("Total", 72.0, 700.0) + make_run("42", 122.0, 700.0))
    assert lay(glyphs).text.text == "Total     42"


def test_indentation_survives_from_the_leftmost_glyph():
    glyphs = renumber(make_run("head", 72.0, 700.0) + make_run("item", 92.0, 688.0))
    assert lay(glyphs).text.text == "head\n    item"


def test_two_columns_appear_side_by_side():
    left = make_run("left one", 72.0, 700.0) + make_run("left two", 72.0, 688.0)
    right = make_run("right one", 172.0, 700.0) + make_run("right two", 172.0, 688.0)
    text = lay(renumber(left + right)).text.text
    assert text == "left one            right one\nleft two            right two"


def test_wide_gap_between_baselines_becomes_blank_lines():
    # Cell height 10: baselines 12 apart follow directly, 30 apart leave two blank lines.
    glyphs = renumber(make_run("a", 72.0, 700.0) + make_run("b", 72.0, 688.0))
    glyphs += renumber(make_run("c", 72.0, 658.0))
    assert layout_text(renumber(glyphs), range(3), RULES).text == "a\nb\n\n\nc"


def test_wide_letters_never_split_a_word():
    # 'M' advances 9 on a 5-wide grid: the letters join, they are not padded to grid columns.
    glyphs = renumber(make_run("ab", 72.0, 700.0) + make_run("MMM", 72.0, 688.0, advance=9.0))
    assert lay(glyphs).text.text == "ab\nMMM"


def test_narrow_word_gap_keeps_one_space():
    glyphs = renumber(make_run("ab", 72.0, 700.0) + make_run("cd", 84.0, 700.0))
    assert lay(glyphs).text.text == "ab cd"


def test_superscript_stays_on_its_line():
    glyphs = renumber(make_run("x", 72.0, 700.0) + [make_glyph("2", 77.0, 704.0, size=6.0)])
    assert lay(glyphs).text.text == "x2"


def test_drawn_spaces_write_nothing_the_grid_spaces_the_words():
    glyphs = renumber(make_run("a b", 72.0, 700.0))
    assert lay(glyphs).text.text == "a b"


def test_vertical_and_diagonal_glyphs_follow_the_grid_in_reading_order():
    body = make_run("body", 72.0, 700.0)
    diagonal = make_run("DRAFT", 200.0, 300.0, size=40.0, angle=45.0)
    result = lay(renumber(body + diagonal))
    assert result.text.text == "body\n\nDRAFT"
    assert result.off_grid == (4, 5, 6, 7, 8)


def test_page_drawn_rotated_lays_out_in_its_own_direction():
    # Every line written upwards (90°), the next line to its right: the grid turns with it.
    glyphs = renumber(
        make_run("one", 100.0, 100.0, angle=90.0) + make_run("two", 112.0, 100.0, angle=90.0)
    )
    result = lay(glyphs)
    assert result.rotation == 90
    assert result.text.text == "one\ntwo"


def test_inserted_padding_maps_to_no_glyph():
    glyphs = renumber(make_run("a", 72.0, 700.0) + make_run("b", 92.0, 700.0))
    result = lay(glyphs)
    assert result.text.text == "a   b"
    assert result.text.char_glyphs == (0, -1, -1, -1, 1)


def test_unresolved_glyph_is_a_space_on_the_grid():
    glyphs = renumber(make_run("a", 72.0, 700.0) + [make_glyph("", 77.0, 700.0)])
    glyphs += [make_glyph("c", 82.0, 700.0, draw_order=2)]
    assert lay(glyphs).text.text == "a c"


def test_smaller_column_does_not_overrun_the_next_one():
    # Left column in 6 pt (3 units a glyph), right in 10 pt (5 units): the mean cell (5) would
    # spread "smaller column" (14 glyphs, 42 units) over 70 units, past x 140 where the right
    # column starts. The cell shrinks to the tight block's 3 units a glyph: column 23 = 68 / 3.
    left = make_run("smaller column", 72.0, 700.0, size=6.0) + make_run(
        "second line ok", 72.0, 688.0, size=6.0
    )
    right = make_run("body text here", 140.0, 700.0) + make_run("more body text", 140.0, 688.0)
    right += make_run("and some more", 140.0, 676.0)
    result = lay(renumber(left + right))
    assert result.cell_width == 3.0
    assert [line.find("body") for line in result.text.text.split("\n")[:2]] == [23, 28]
