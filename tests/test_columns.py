"""Columns text (spec §8) on synthetic glyph records."""

from __future__ import annotations

from core.columns import columns_text
from core.rules import Rules
from tests.test_visible import make_run, renumber

RULES = Rules()


def two_column_page():
    # Lines drawn across the page, left then right, as a composer interleaving columns would.
    glyphs = []
    for row, (left, right) in enumerate((("alpha one", "gamma one"), ("alpha two", "gamma two"))):
        y = 700.0 - 12.0 * row
        glyphs += make_run(left, 72.0, y) + make_run(right, 300.0, y)
    return renumber(glyphs)


def test_gutter_wider_than_three_median_advances_splits_the_page():
    glyphs = two_column_page()
    result = columns_text(glyphs, range(len(glyphs)), RULES)
    assert result.columns == ((72.0, 117.0), (300.0, 345.0))
    assert (result.median_advance, result.threshold) == (5.0, 15.0)
    assert result.gaps == ((117.0, 300.0),)


def test_each_column_is_emitted_in_turn():
    glyphs = two_column_page()
    text = columns_text(glyphs, range(len(glyphs)), RULES).text.text
    assert text == "alpha one\nalpha two\ngamma one\ngamma two"


def test_gap_at_the_threshold_does_not_split():
    glyphs = renumber(make_run("ab", 72.0, 700.0) + make_run("cd", 97.0, 700.0))
    result = columns_text(glyphs, range(4), RULES)
    assert result.columns == ((72.0, 107.0),)
    assert result.text.text == "ab cd"


def test_gap_multiple_comes_from_the_rules():
    glyphs = renumber(make_run("ab", 72.0, 700.0) + make_run("cd", 97.0, 700.0))
    result = columns_text(glyphs, range(4), RULES.with_values(columns_gap_multiple=2.0))
    assert result.text.text == "ab\ncd"


def test_heading_spanning_the_gutter_joins_the_columns():
    glyphs = two_column_page()
    glyphs = renumber(make_run("A heading across the whole page width" * 2, 72.0, 730.0) + glyphs)
    assert len(columns_text(glyphs, range(len(glyphs)), RULES).columns) == 1


def test_no_glyphs_no_columns():
    result = columns_text([], [], RULES)
    assert (result.text.text, result.columns) == ("", ())
