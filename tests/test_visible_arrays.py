"""Duplicate removal over arrays (issue 9, 10) decides exactly as the pair-by-pair scan:
same records, same order, on random clusters of overprinted, shifted and rescaled glyphs."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.rules import Rules
from glyphscope.core.text import visible
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


# The sequential step of the array path: compiled (_duplicates.pyx) when built, and Python.
_DECIDERS = [visible._decide_in_python]
if visible._decide is not visible._decide_in_python:
    _DECIDERS.append(visible._decide)


def _arrays(glyphs, candidates, rules):
    """_array_duplicates' records, the same with every decider (None: left to the scan)."""
    outcomes = []
    saved = visible._decide
    try:
        for decide in _DECIDERS:
            visible._decide = decide
            copies = visible._array_duplicates(glyphs, candidates, rules)
            outcomes.append(None if copies is None else copies.records())
    finally:
        visible._decide = saved
    assert all(outcome == outcomes[0] for outcome in outcomes)
    return outcomes[0]


def _both(glyphs, rules):
    candidates = [i for i, g in enumerate(glyphs) if g.text]
    scan = sorted(candidates, key=lambda i: (glyphs[i].text, glyphs[i].origin[0]))
    arrays = _arrays(glyphs, candidates, rules)
    return arrays, visible._scan_duplicates(glyphs, scan, rules)


@settings(max_examples=300, deadline=None)
@given(st.lists(_glyph, max_size=120))
def test_arrays_decide_as_the_scan(specs):
    arrays, scan = _both(_glyphs(specs), Rules())
    assert arrays == scan


@settings(max_examples=100, deadline=None)
@given(
    st.lists(_glyph, max_size=80),
    st.sampled_from([0.0, 0.1, 0.25, 1.0, 3.0]),
    st.sampled_from([0.0, 0.2, 0.5]),
)
def test_arrays_decide_as_the_scan_under_other_rules(specs, window, across):
    rules = Rules(duplicate_scan_window=window, duplicate_across=across)
    arrays, scan = _both(_glyphs(specs), rules)
    assert arrays == scan


def test_non_finite_geometry_goes_to_the_scan():
    glyphs = [make_glyph("a", 10.0 * i, 10.0) for i in range(70)]
    glyphs.append(make_glyph("a", math.inf, 10.0))
    assert visible._array_duplicates(glyphs, list(range(len(glyphs))), Rules()) is None
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
