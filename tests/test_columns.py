"""Columns text (spec §8) on synthetic glyph records and built PDFs: gutters found per vertical
band of lines, spanning lines closing a band, duplicates removed before the split."""

from __future__ import annotations

from glyphscope.core.document import Document
from glyphscope.core.output import page_text
from glyphscope.core.rules import Rules
from glyphscope.core.text.columns import ColumnBand, columns_text
from glyphscope.core.text.reading import reading_order
from glyphscope.core.text.visible import visible_glyphs
from tests.glyphbuilder import PAGE, RULES, make_run, renumber
from tests.pdfbuilder import PdfBuilder


def rows(*lines: tuple[tuple[str, float], ...], top: float = 700.0) -> list:
    """One run per (text, x) cell, lines 12 units apart from `top` down, drawn across the page
    as a composer interleaving columns would."""
    glyphs = []
    for number, cells in enumerate(lines):
        for text, x in cells:
            glyphs += make_run(text, x, top - 12.0 * number)
    return renumber(glyphs)


def two_column_page():
    return rows(
        (("alpha one", 72.0), ("gamma one", 300.0)), (("alpha two", 72.0), ("gamma two", 300.0))
    )


def columns_of(glyphs, rules: Rules = RULES):
    return columns_text(glyphs, range(len(glyphs)), rules)


def test_gutter_wider_than_three_median_advances_splits_the_page():
    result = columns_of(two_column_page())
    assert result.columns == ((72.0, 117.0), (300.0, 345.0))
    assert (result.median_advance, result.threshold) == (5.0, 15.0)
    assert result.gaps == ((117.0, 300.0),)


def test_each_column_is_emitted_in_turn():
    text = columns_of(two_column_page()).text.text
    assert text == "alpha one\nalpha two\ngamma one\ngamma two"


def test_gap_at_the_threshold_does_not_split():
    # "ab" ends at 82, "cd" starts at 97: a gap of exactly 3 × 5.
    glyphs = rows((("ab", 72.0), ("cd", 97.0)), (("ef", 72.0), ("gh", 97.0)))
    result = columns_of(glyphs)
    assert result.columns == ((72.0, 107.0),)
    assert result.text.text == "ab cd\nef gh"


def test_gap_multiple_comes_from_the_rules():
    glyphs = rows((("ab", 72.0), ("cd", 97.0)), (("ef", 72.0), ("gh", 97.0)))
    result = columns_of(glyphs, RULES.with_values(columns_gap_multiple=2.0))
    assert result.text.text == "ab\nef\ncd\ngh"


def test_spanning_title_reads_before_column_one_then_column_two():
    glyphs = rows(
        (("A title across both columns of the page", 150.0),),
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
    )
    text = columns_of(glyphs).text.text
    assert (
        text
        == "A title across both columns of the page\nalpha one\nalpha two\ngamma one\ngamma two"
    )


def test_spanning_title_stands_alone_in_its_own_band():
    glyphs = rows(
        (("A title across both columns of the page", 150.0),),
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
    )
    assert columns_of(glyphs).bands == (
        ColumnBand(top=708.0, bottom=698.0, columns=((150.0, 345.0),), gutters=(), lines=1),
        ColumnBand(
            top=696.0,
            bottom=674.0,
            columns=((72.0, 117.0), (300.0, 345.0)),
            gutters=((117.0, 300.0),),
            lines=2,
        ),
    )


def test_centred_page_number_in_the_gutter_reads_after_both_columns():
    glyphs = rows(
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
        (("5", 200.0),),
    )
    assert columns_of(glyphs).text.text == "alpha one\nalpha two\ngamma one\ngamma two\n5"


def test_three_columns_read_left_to_right():
    glyphs = rows(
        (("a one", 72.0), ("b one", 250.0), ("c one", 430.0)),
        (("a two", 72.0), ("b two", 250.0), ("c two", 430.0)),
    )
    result = columns_of(glyphs)
    assert result.text.text == "a one\na two\nb one\nb two\nc one\nc two"
    assert result.gaps == ((97.0, 250.0), (275.0, 430.0))


def test_short_last_line_of_a_paragraph_keeps_the_gutter():
    glyphs = rows(
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("al", 72.0), ("gamma two", 300.0)),
        (("alpha three", 72.0), ("gamma three", 300.0)),
    )
    text = columns_of(glyphs).text.text
    assert text == "alpha one\nal\nalpha three\ngamma one\ngamma two\ngamma three"


def test_caption_with_its_own_gap_inside_one_column_does_not_split_the_band():
    glyphs = rows(
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("Fig", 72.0), ("2", 110.0), ("gamma two", 300.0)),
        (("alpha three", 72.0), ("gamma three", 300.0)),
    )
    result = columns_of(glyphs)
    assert len(result.bands) == 1
    assert result.text.text == "alpha one\nFig 2\nalpha three\ngamma one\ngamma two\ngamma three"


def test_a_wide_gap_in_a_single_line_is_a_word_gap_not_a_column():
    glyphs = rows(
        (("Name", 72.0), ("page 5", 300.0)),
        (("a line running right across the whole width of the page", 72.0),),
    )
    assert (
        columns_of(glyphs).text.text == reading_order(glyphs, range(len(glyphs)), RULES).text.text
    )


def test_page_without_columns_reads_as_reading_order():
    glyphs = rows(
        (("A heading", 72.0),),
        (("the first line of a single column of text", 72.0),),
        (("the second", 72.0),),
    )
    result = columns_of(glyphs)
    assert result.text == reading_order(glyphs, range(len(glyphs)), RULES).text
    assert result.gaps == ()


def test_rotated_glyphs_follow_the_columns_in_reading_order():
    glyphs = renumber(make_run("side", 40.0, 500.0, angle=90.0) + two_column_page())
    result = columns_of(glyphs)
    assert result.text.text == "alpha one\nalpha two\ngamma one\ngamma two\nside"
    assert result.off_grid == (0, 1, 2, 3)


def test_duplicate_removal_runs_before_the_split():
    # A fake-bold second pass of the title, 0.3 units on, would widen nothing but double it.
    glyphs = rows(
        (("A title across both columns of the page", 150.0),),
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
    )
    glyphs = renumber(glyphs + make_run("A title across both columns of the page", 150.3, 700.0))
    visible = visible_glyphs(glyphs, PAGE, RULES).visible
    text = columns_text(glyphs, visible, RULES).text.text
    assert (
        text
        == "A title across both columns of the page\nalpha one\nalpha two\ngamma one\ngamma two"
    )


def test_built_pdf_with_spanning_title_reads_title_then_each_column():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 14 Tf 150 730 Td (A title over both columns) Tj ET"
        b" BT /F1 10 Tf 72 700 Td (left one) Tj 228 0 Td (right one) Tj"
        b" -228 -12 Td (left two) Tj 228 0 Td (right two) Tj ET"
        b" BT /F1 10 Tf 200 60 Td (7) Tj ET",
        fonts={"F1": font},
    )
    page = Document.open(builder.to_bytes()).page(0)
    assert page_text(page, "columns", RULES).text == (
        "A title over both columns\nleft one\nleft two\nright one\nright two\n7"
    )


def test_no_glyphs_no_columns():
    result = columns_text([], [], RULES)
    assert (result.text.text, result.columns, result.bands) == ("", (), ())


def test_heading_starting_inside_the_gutter_is_a_spanning_line():
    glyphs = rows(
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
        (("Heading set over the right", 150.0),),
        (("alpha three", 72.0), ("gamma three", 300.0)),
        (("alpha four", 72.0), ("gamma four", 300.0)),
    )
    assert columns_of(glyphs).text.text == (
        "alpha one\nalpha two\ngamma one\ngamma two\nHeading set over the right\n"
        "alpha three\nalpha four\ngamma three\ngamma four"
    )


def test_heading_over_the_first_column_joins_the_band_below():
    glyphs = rows(
        (("Abstract", 72.0),),
        (("alpha one", 72.0), ("gamma one", 300.0)),
        (("alpha two", 72.0), ("gamma two", 300.0)),
    )
    result = columns_of(glyphs)
    assert result.text.text == "Abstract\nalpha one\nalpha two\ngamma one\ngamma two"
    assert len(result.bands) == 1


def test_table_cells_are_columns():
    glyphs = rows(
        (("Name", 72.0), ("Size", 200.0), ("Date", 300.0)),
        (("alpha", 72.0), ("12", 200.0), ("May", 300.0)),
    )
    assert columns_of(glyphs).text.text == "Name\nalpha\nSize\n12\nDate\nMay"
