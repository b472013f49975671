"""Duplicate removal's compiled scan (issue 9, 10) decides exactly as its reference, the
pair-by-pair scan: same records, same order, on random clusters of overprinted, shifted and
rescaled glyphs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.rules import Rules
from glyphscope.core.text import visible
from glyphscope.core.text.arrays import GlyphRows
from tests.reference_paths import reference_paths
from tests.test_visible import make_glyph

# Few texts, few anchor points and tiny offsets, so that copies, near misses, triple strikes
# and glyphs sharing text and x on many lines are all common.
_glyph = st.builds(
    lambda text, anchor, dx, dy, size, angle, mode: (text, anchor, dx, dy, size, angle, mode),
    st.sampled_from(["a", "b", "é", "ﬁ"]),
    st.integers(0, 5),
    st.sampled_from([0.0, 0.0, 0.05, -0.05, 0.3, 0.9, 1.7, 2.5]),
    st.sampled_from([0.0, 0.0, 0.1, -0.1, 1.0, 1.9, 2.0, 2.1, 4.0, 7.0]),
    st.sampled_from([10.0, 10.0, 10.2, 9.0, 0.0, 30.0]),
    st.sampled_from([0.0, 0.0, 90.0, 30.0]),
    st.sampled_from([0, 0, 0, 1]),
)


def _glyphs(specs):
    glyphs = []
    for order, (text, anchor, dx, dy, size, angle, mode) in enumerate(specs):
        x, y = 100.0 + 3.0 * (anchor % 3), 500.0 + 11.0 * (anchor // 3)
        glyph = make_glyph(text, x + dx, y + dy, size=size, angle=angle, writing_mode=mode)
        if size == 0.0:  # no size recorded: drawn_size falls back on the quad height
            glyph = make_glyph(text, x + dx, y + dy, size=12.0, angle=angle)._replace(font_size=0.0)
        glyphs.append(glyph._replace(draw_order=order))
    return glyphs


def _bits(records):
    """The records with every float as its bits (-0.0 is not 0.0, nan is nan)."""
    if records is None:
        return None
    return [
        (r.index, r.reason, r.kept, *(float.hex(v) for v in (r.along, r.across, r.size_ratio)))
        for r in records
    ]


def _compiled(glyphs, candidates, rules):
    """The compiled scan's records (on records and on columns, and with every glyph looking
    its candidates up in its bands of y), all the same, as bits; None where the extension is
    not built or the geometry is not finite (the scan decides there)."""
    if visible._find_copies is None:
        return None
    text_ids = visible._string_ordered(*GlyphRows(glyphs, candidates).text_ids())[0]
    columns = GlyphColumns.from_glyphs(glyphs)
    outcomes = [
        visible._compiled_duplicates(held, candidates, rules, text_ids)
        for held in (glyphs, columns)
    ]
    saved = visible._DIRECT_SCAN
    try:
        visible._DIRECT_SCAN = 0
        outcomes.append(visible._compiled_duplicates(glyphs, candidates, rules, text_ids))
    finally:
        visible._DIRECT_SCAN = saved
    found = [_bits(copies.records()) for copies in outcomes if copies is not None]
    assert all(outcome == found[0] for outcome in found)
    return found[0] if found else None


def _both(glyphs, rules):
    """The compiled scan's records and the reference scan's (_scan_duplicates), as bits."""
    candidates = [i for i, g in enumerate(glyphs) if g.text]
    scan = sorted(candidates, key=lambda i: (glyphs[i].text, glyphs[i].origin[0]))
    return _compiled(glyphs, candidates, rules), _bits(
        visible._scan_duplicates(glyphs, scan, rules)
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(_glyph, max_size=120))
def test_compiled_scan_decides_as_the_scan(specs):
    compiled, scan = _both(_glyphs(specs), Rules())
    assert compiled is None or compiled == scan


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_glyph, max_size=80),
    st.sampled_from([0.0, 0.1, 0.25, 1.0, 3.0]),
    st.sampled_from([0.0, 0.2, 0.5]),
)
def test_compiled_scan_decides_as_the_scan_under_other_rules(specs, window, across):
    rules = Rules(duplicate_scan_window=window, duplicate_across=across)
    compiled, scan = _both(_glyphs(specs), rules)
    assert compiled is None or compiled == scan


def test_non_finite_geometry_goes_to_the_scan():
    glyphs = [make_glyph("a", 10.0 * i, 10.0) for i in range(70)]
    glyphs.append(make_glyph("a", math.inf, 10.0))
    assert _compiled(glyphs, list(range(len(glyphs))), Rules()) is None
    assert visible.visible_glyphs(glyphs, (-1e9, -1e9, 1e9, 1e9), Rules()).dropped[-1].index == 70


def test_aligned_grid_sharing_text_and_x_keeps_every_glyph():
    # Issue 10: 1,000 lines × 1,000 glyphs sharing text and x (the pair-by-pair scan was still
    # running after 150 s); one band of y per line, so no two lines are compared.
    glyphs = [
        make_glyph("1", 5.0 * column, 12.0 * line, size=10.0)
        for line in range(1000)
        for column in range(1000)
    ]
    glyphs = [g._replace(draw_order=i) for i, g in enumerate(glyphs)]
    result = visible.visible_glyphs(glyphs, (-1e6, -1e6, 1e6, 1e6), Rules())
    assert len(result.visible) == len(glyphs) and result.dropped == ()


def test_a_stack_of_copies_keeps_the_first_drawn():
    glyphs = [make_glyph("a", 10.0, 10.0)._replace(draw_order=i) for i in range(20_000)]
    result = visible.visible_glyphs(glyphs, (0, 0, 100, 100), Rules())
    assert result.visible == (0,)
    assert {d.kept for d in result.dropped} == {0}


@settings(max_examples=100, deadline=None)
@given(st.lists(_glyph, max_size=120), st.sampled_from([(0, 0, 1e4, 1e4), (100, 500, 104, 530)]))
def test_visible_rows_are_the_visible_glyphs_without_the_records(specs, box):
    glyphs = _glyphs(specs)
    assert visible.visible_rows(glyphs, box, Rules()) == (
        visible.visible_glyphs(glyphs, box, Rules()).visible
    )


compiled = pytest.mark.skipif(visible._find_copies is None, reason="extension not built")

# Edges of the arithmetic: signed zeros, exact ties in text and x (the drawing order breaks
# them), zero-width glyphs (whose direction falls back on the pen), sizes so small or large
# that the y bands cannot be numbered (every glyph scans its own candidates), and geometry
# that is not finite (left to the scan).
_edge = st.builds(
    lambda text, x, y, size, angle, advance: (text, x, y, size, angle, advance),
    st.sampled_from(["a", "a", "b"]),
    st.sampled_from([0.0, -0.0, 0.0, 0.04, 1e-9, 5e-324, 3.0]),
    st.sampled_from([0.0, -0.0, 0.01, -0.01, 1.0, 2.0, 5e-324]),
    st.sampled_from([10.0, 10.0, 1e-300, 1e300, 0.0]),
    st.sampled_from([0.0, 0.0, 45.0, 180.0, 270.0]),
    st.sampled_from([None, None, 0.0]),
)


def _edge_glyphs(specs, non_finite=None):
    glyphs = []
    for order, (text, x, y, size, angle, advance) in enumerate(specs):
        glyph = make_glyph(text, x, y, size=size or 10.0, angle=angle, advance=advance)
        if size == 0.0:
            glyph = glyph._replace(font_size=0.0)
        glyphs.append(glyph._replace(draw_order=order))
    if non_finite is not None and glyphs:
        glyphs[len(glyphs) // 2] = glyphs[len(glyphs) // 2]._replace(origin=(non_finite, 1.0))
    return glyphs


@compiled
@settings(max_examples=300, deadline=None)
@given(st.lists(_edge, max_size=60))
def test_compiled_scan_decides_as_the_scan_bit_for_bit_at_the_edges(specs):
    compiled, scan = _both(_edge_glyphs(specs), Rules())
    assert compiled is None or compiled == scan


@compiled
@settings(max_examples=200, deadline=None)
@given(
    st.lists(_edge, max_size=60),
    st.sampled_from([None, math.nan, math.inf, -math.inf]),
    st.sampled_from([Rules(), Rules(duplicate_scan_window=0.0), Rules(duplicate_along=0.0)]),
)
def test_duplicates_are_the_same_with_and_without_the_extension(specs, non_finite, rules):
    glyphs = _edge_glyphs(specs, non_finite)
    candidates = list(range(len(glyphs)))
    with_extension = visible._duplicates(glyphs, candidates, rules).records()
    with reference_paths():
        without = visible._duplicates(glyphs, candidates, rules).records()
    assert _bits(with_extension) == _bits(without)


@compiled
def test_compiled_scan_looks_up_bands_for_a_column_sharing_text_and_x():
    # More glyphs within one x reach than the scan passes itself: the column's copies are
    # still found through the bands, and only they.
    glyphs = []
    for line in range(200):
        glyphs.append(make_glyph("7", 100.0, 12.0 * line))
        if line % 3 == 0:
            glyphs.append(make_glyph("7", 100.2, 12.0 * line + 0.1))
    glyphs = [g._replace(draw_order=i) for i, g in enumerate(glyphs)]
    copies = visible._duplicates(glyphs, list(range(len(glyphs))), Rules())
    assert copies.dropped == [i for i, g in enumerate(glyphs) if g.origin[0] == 100.2]
    assert copies.kept == [i - 1 for i in copies.dropped]
    compiled, scan = _both(glyphs, Rules())
    assert compiled == scan
