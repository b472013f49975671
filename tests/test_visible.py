"""Visible glyphs (spec §4 visible box, §5 duplicate removal) on synthetic glyph records."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.text.visible import DroppedGlyph, visible_glyphs
from tests.glyphbuilder import PAGE, RULES, make_glyph, make_run, renumber


def test_glyph_centre_outside_visible_box_is_dropped_with_the_box():
    slug = make_glyph("S", 10.0, -20.0)
    body = make_glyph("B", 100.0, 100.0)
    result = visible_glyphs([slug, body], PAGE, RULES)
    assert result.visible == (1,)
    assert result.dropped == (DroppedGlyph(index=0, reason="outside_visible_box", box=PAGE),)


def test_glyph_straddling_the_box_edge_is_kept_when_its_centre_is_inside():
    # Quad spans x 609..614; its centre 611.5 is inside a box ending at 612.
    glyph = make_glyph("E", 609.0, 100.0, advance=5.0)
    assert visible_glyphs([glyph], PAGE, RULES).visible == (0,)


def test_fake_bold_second_pass_is_dropped_as_a_copy_of_the_first():
    first = make_run("Bold words", 100.0, 700.0)
    second = make_run("Bold words", 100.3, 700.0)
    result = visible_glyphs(renumber(first + second), PAGE, RULES)
    # The second pass's space survives: blanks are never candidates (spec §5).
    assert result.visible == (*range(10), 14)
    dropped = [d for d in result.dropped if d.index == 10]
    assert dropped[0].reason == "duplicate"
    assert dropped[0].kept == 0
    assert round(dropped[0].along, 6) == 0.3
    assert round(dropped[0].across, 6) == 0.0
    assert dropped[0].size_ratio == 1.0


def test_blank_glyphs_are_never_duplicate_candidates():
    spaces = [make_glyph(" ", 100.0, 700.0), make_glyph(" ", 100.0, 700.0)]
    ideographic = [make_glyph("\u3000", 200.0, 700.0), make_glyph("\u3000", 200.0, 700.0)]
    assert visible_glyphs(renumber(spaces + ideographic), PAGE, RULES).visible == (0, 1, 2, 3)


def test_unresolved_glyphs_are_never_duplicate_candidates():
    glyphs = [make_glyph("", 100.0, 700.0), make_glyph("", 100.0, 700.0)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0, 1)


def test_triple_strike_keeps_the_first_drawn_whatever_the_x_order():
    # Drawn at x 100.6, 100.3, 100.0: sorted by x the scan starts at the last-drawn copy.
    glyphs = [
        make_glyph("W", 100.6, 700.0),
        make_glyph("W", 100.3, 700.0),
        make_glyph("W", 100.0, 700.0),
    ]
    result = visible_glyphs(glyphs, PAGE, RULES)
    assert result.visible == (0,)
    assert [(d.index, d.kept) for d in result.dropped] == [(1, 0), (2, 1)]


def test_triple_strike_drawn_left_to_right_keeps_the_first():
    glyphs = [
        make_glyph("W", 100.0, 700.0),
        make_glyph("W", 100.3, 700.0),
        make_glyph("W", 100.6, 700.0),
    ]
    result = visible_glyphs(glyphs, PAGE, RULES)
    assert result.visible == (0,)
    assert [(d.index, d.kept) for d in result.dropped] == [(1, 0), (2, 0)]


def test_exact_duplicate_footer_is_read_once():
    footer = make_run("Page 1", 300.0, 30.0)
    result = visible_glyphs(renumber(footer + footer), PAGE, RULES)
    assert result.visible == (0, 1, 2, 3, 4, 5, 10)
    assert [d.kept for d in result.dropped] == [0, 1, 2, 3, 5]


def test_double_letters_of_fill_are_kept():
    assert visible_glyphs(make_run("fill", 100.0, 700.0, advance=2.8), PAGE, RULES).visible == (
        0,
        1,
        2,
        3,
    )


def test_identical_table_cells_at_different_positions_are_kept():
    cells = (
        make_run("42", 100.0, 700.0) + make_run("42", 100.0, 680.0) + make_run("42", 200.0, 700.0)
    )
    assert len(visible_glyphs(renumber(cells), PAGE, RULES).visible) == 6


def test_offset_of_one_fifth_of_the_size_along_the_baseline_is_not_removed():
    glyphs = [make_glyph("A", 100.0, 700.0), make_glyph("A", 102.0, 700.0)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0, 1)


def test_offset_just_below_the_along_tolerance_is_removed():
    glyphs = [make_glyph("A", 100.0, 700.0), make_glyph("A", 100.99, 700.0)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0,)


def test_shadow_offset_across_the_baseline_below_tolerance_is_removed():
    glyphs = [make_glyph("A", 100.0, 700.0), make_glyph("A", 100.5, 698.5)]
    result = visible_glyphs(glyphs, PAGE, RULES)
    assert result.visible == (0,)
    assert round(result.dropped[0].across, 6) == -1.5


def test_shadow_at_a_different_size_is_not_removed():
    glyphs = [make_glyph("A", 100.0, 700.0, size=10.0), make_glyph("A", 100.0, 700.0, size=10.6)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0, 1)


def test_horizontal_glyph_is_never_compared_with_a_vertical_one():
    glyphs = [make_glyph("口", 100.0, 700.0), make_glyph("口", 100.0, 700.0, writing_mode=1)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0, 1)


def test_rotated_fake_bold_uses_the_first_glyphs_baseline_frame():
    # At 90° a 0.5 offset along the baseline is a page-y move, x unchanged.
    glyphs = [make_glyph("R", 100.0, 400.0, angle=90.0), make_glyph("R", 100.0, 400.5, angle=90.0)]
    result = visible_glyphs(glyphs, PAGE, RULES)
    assert result.visible == (0,)
    assert (round(result.dropped[0].along, 6), round(result.dropped[0].across, 6)) == (0.5, 0.0)


def test_rotated_repeat_one_advance_apart_is_kept():
    glyphs = [make_glyph("R", 100.0, 400.0, angle=90.0), make_glyph("R", 100.0, 405.0, angle=90.0)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0, 1)


def test_off_page_copy_does_not_remove_the_visible_original():
    # The first-drawn copy's centre is just outside the box; the box test runs first.
    glyphs = [
        make_glyph("X", 609.6, 100.0, advance=5.0),
        make_glyph("X", 609.3, 100.0, advance=5.0),
    ]
    result = visible_glyphs(glyphs, PAGE, RULES)
    assert result.visible == (1,)
    assert [d.reason for d in result.dropped] == ["outside_visible_box"]


def test_ligature_glyph_fake_bold_is_deduplicated_as_one_glyph():
    glyphs = [make_glyph("\ufb01", 100.0, 700.0), make_glyph("\ufb01", 100.2, 700.0)]
    assert visible_glyphs(glyphs, PAGE, RULES).visible == (0,)


def test_tolerances_come_from_the_rules():
    glyphs = [make_glyph("A", 100.0, 700.0), make_glyph("A", 102.0, 700.0)]
    wide = RULES.with_values(duplicate_along=0.3, duplicate_scan_window=0.5)
    assert visible_glyphs(glyphs, PAGE, wide).visible == (0,)


def _is_copy(kept, copy) -> bool:
    """The §5 pair test written out plainly, in the kept glyph's frame (horizontal here)."""
    size = kept.font_size
    return (
        kept.text == copy.text
        and abs(copy.font_size / size - 1.0) <= RULES.duplicate_size_tolerance
        and abs(copy.origin[0] - kept.origin[0]) < RULES.duplicate_along * size
        and abs(copy.origin[1] - kept.origin[1]) < RULES.duplicate_across * size
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("ab"),
            st.integers(0, 12).map(lambda step: 100.0 + step * 0.25),
            st.integers(0, 6).map(lambda step: 700.0 + step * 0.5),
            st.sampled_from((10.0, 10.3)),
        ),
        max_size=25,
    )
)
def test_no_two_visible_glyphs_are_copies_and_every_copy_names_an_earlier_match(specs):
    glyphs = [
        make_glyph(text, x, y, size=size, draw_order=i)
        for i, (text, x, y, size) in enumerate(specs)
    ]
    result = visible_glyphs(glyphs, PAGE, RULES)
    visible = result.visible
    for position, first in enumerate(visible):
        for later in visible[position + 1 :]:
            assert not _is_copy(glyphs[first], glyphs[later])
    for dropped in result.dropped:
        assert dropped.kept < dropped.index
        assert _is_copy(glyphs[dropped.kept], glyphs[dropped.index])
