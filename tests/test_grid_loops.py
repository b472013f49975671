"""Layout's compiled loops (`core/text/_grid.pyx`) against their Python paths: the rows that
open a baseline line and the glyphs written on the grid, on random numbers (nan, ±inf, -0.0,
ties) and padding caps small enough to be reached, and whole layouts of random pages laid
out by either path."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glyphscope.core.text.columns as columns
import glyphscope.core.text.layout as layout
import glyphscope.core.text.lines as lines
from glyphscope.core.rules import Rules
from tests.reference_paths import reference_paths
from tests.test_layout_arrays import _rules
from tests.test_text_arrays import _pages

compiled = pytest.importorskip("glyphscope.core.text._grid")

_float = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, 2.0, 10.0, 12.0, math.nan, math.inf, -math.inf]),
    st.floats(-1e3, 1e3),
)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(_float, _float), max_size=40),
    st.sampled_from([0.5, 0.0, 0.25, 2.0, math.inf, math.nan]),
)
def test_compiled_line_starts_are_the_python_ones(rows, ratio):
    ys = np.array([y for y, _ in rows], dtype=np.float64)
    heights = np.array([h for _, h in rows], dtype=np.float64)
    expected = lines.line_starts_in_python(ys, heights, ratio)
    assert compiled.line_starts(ys, heights, ratio) == expected


_finite_x = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, 2.0, math.inf, -math.inf]), st.floats(-1e3, 1e3)
)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(_finite_x, st.integers(0, 5)), max_size=60),
    st.lists(st.integers(1, 30), max_size=8),
    st.randoms(use_true_random=False),
)
def test_compiled_rows_by_line_are_the_python_ones(rows, line_lengths, random):
    # Rows in any order cut into lines of any length; x and glyph index with ties (0.0 and
    # -0.0 among them), no nan (baseline_line_rows sorts those in Python).
    ordered = np.array(random.sample(range(len(rows)), len(rows)), dtype=np.intp)
    ends = np.minimum(np.cumsum(line_lengths, dtype=np.intp), len(rows))
    bounds = np.unique(np.array([0, *ends, len(rows)], dtype=np.intp))
    x = np.array([value for value, _ in rows], dtype=np.float64)
    glyph = np.array([index for _, index in rows], dtype=np.int64)
    expected = lines.rows_by_line_in_python(ordered, bounds, x, glyph)
    assert compiled.rows_by_line(ordered, bounds, x, glyph).tolist() == expected.tolist()


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(_finite_x, _finite_x, st.integers(0, 5)), max_size=60))
def test_compiled_rows_top_down_are_the_python_ones(rows):
    # Ties in y, x and glyph index (0.0 and -0.0 among them), no nan.
    y = np.array([row[0] for row in rows], dtype=np.float64)
    x = np.array([row[1] for row in rows], dtype=np.float64)
    glyph = np.array([row[2] for row in rows], dtype=np.int64)
    expected = lines.rows_top_down_in_python(y, x, glyph)
    assert compiled.rows_top_down(y, x, glyph).tolist() == expected.tolist()


@st.composite
def _grid_rows(draw):
    lengths = draw(st.lists(st.integers(0, 6), max_size=8))
    count = sum(lengths)
    line_ys = draw(st.lists(_float, min_size=len(lengths), max_size=len(lengths)))
    targets = draw(st.lists(st.integers(0, 40), min_size=count, max_size=count))
    flags = st.lists(st.booleans(), min_size=max(count - 1, 0), max_size=max(count - 1, 0))
    texts = draw(
        st.lists(st.sampled_from(["a", "", "ﬁ", "bc", " "]), min_size=count, max_size=count)
    )
    return (
        np.array(lengths, dtype=np.intp),
        line_ys,
        draw(st.sampled_from([10.0, 1.0, 0.5, math.inf, math.nan])),
        np.array(targets, dtype=np.int64),
        draw(st.integers(0, count)),
        np.array(draw(flags), dtype=bool),
        np.array(draw(flags), dtype=bool),
        texts,
        list(range(count)),
    )


@settings(max_examples=500, deadline=None)
@given(
    _grid_rows(),
    st.sampled_from([2000, 30, 3]),
    st.sampled_from([200, 2, 0]),
    st.sampled_from([1_000_000, 40, 2, 0]),
)
def test_compiled_grid_text_is_the_python_one(rows, columns, blank_lines, padding):
    rules = Rules(
        layout_max_columns=columns,
        layout_max_blank_lines=blank_lines,
        layout_max_padding=padding,
    )
    lengths, line_ys, cell_height, targets, first_capped, block, space, texts, owners = rows
    results = []
    for write in (layout.grid_text_in_python, compiled.grid_text):
        budget = layout._Padding(rules)
        flags = (block.view(np.uint8), space.view(np.uint8))
        try:
            text = write(
                lengths, line_ys, cell_height, targets, first_capped, *flags, texts, owners, budget
            )
        except OverflowError as error:  # math.floor of -inf blank lines, in either path
            text = type(error)
        results.append((text, budget.left, list(budget.capped)))
    assert results[0] == results[1]


@settings(max_examples=300, deadline=None)
@given(_pages(), _rules)
def test_layout_with_the_python_loops_is_the_compiled_layout(page, rules):
    glyphs, order = page
    expected = repr(layout.layout(glyphs, order, rules))
    with reference_paths():
        assert repr(layout.layout(glyphs, order, rules)) == expected


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(_float, _float), max_size=12),
    st.sampled_from([0.0, -0.0, 1.5, 30.0, math.inf, math.nan]),
)
def test_compiled_merge_ink_is_the_python_one(intervals, distance):
    # Unsorted too: merge_ink takes what it is given; the float objects themselves are kept.
    expected = columns.merge_ink_in_python(intervals, distance)
    merged = compiled.merge_ink(intervals, distance)
    assert repr(merged) == repr(expected)
    assert all(a is c and b is d for (a, b), (c, d) in zip(merged, expected, strict=True))


def test_merge_ink_of_other_numbers_is_merged_in_python():
    with pytest.raises(TypeError):
        compiled.merge_ink([(0, 1.0)], 0.5)
    with pytest.raises(TypeError):
        compiled.merge_ink([(0.0, 1.0)], 1)
    assert columns.merge_ink([(0, 1), (1, 3)], 0) == [(0, 3)]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.lists(st.tuples(_float, _float), max_size=8), max_size=6),
    st.sampled_from([0.0, 1.5, 30.0, math.inf, math.nan]),
)
def test_compiled_line_inks_are_the_python_ones(lines_rows, distance):
    rows = [sorted(line) for line in lines_rows]
    x0 = np.array([x for line in rows for x, _ in line], dtype=np.float64)
    x1 = np.array([x for line in rows for _, x in line], dtype=np.float64)
    bounds = np.cumsum([0, *map(len, rows)]).astype(np.intp)
    expected = columns.line_inks_in_python(x0, x1, bounds, distance)
    assert repr(compiled.line_inks(x0, x1, bounds, distance)) == repr(expected)


@settings(max_examples=300, deadline=None)
@given(_pages(), _rules)
def test_columns_with_the_python_loops_are_the_compiled_columns(page, rules):
    glyphs, order = page
    expected = repr(columns.columns_text(glyphs, order, rules))
    with reference_paths():
        assert repr(columns.columns_text(glyphs, order, rules)) == expected


_finite = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, 1e300]), st.floats(-50, 50))


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(_finite, _finite, _finite, _finite), max_size=30),
    st.lists(st.sampled_from([0.0, -0.0, 1.0, 5.0, 10.0, 20.0]), max_size=4),
)
def test_compiled_band_extents_are_the_numpy_ones(boxes, middles):
    """A band's column extents, top and bottom in one pass as two lexsorts give them: the first
    row of each extreme kept (signed zeros tell which), columns with no row left out."""
    middles = sorted(middles)
    x0, x1, y0, y1 = (np.array([box[k] for box in boxes], dtype=np.float64) for k in range(4))
    centres = (x0 + x1) / 2.0
    with np.errstate(all="ignore"):
        if np.isnan(centres).any():
            return  # inf - inf: the one-by-one path's
    numbered, *expected = columns._extents(middles, centres, x0, x1, y0, y1)
    found_columns = np.searchsorted(np.array(middles, dtype=np.float64), centres, side="right")
    assert found_columns.tolist() == numbered.tolist()
    found = compiled.band_extents(found_columns, len(middles) + 1, x0, x1, y0, y1)
    assert repr(found) == repr(tuple(expected))
    assert [math.copysign(1.0, x) for x in np.ravel(found[0])] == [
        math.copysign(1.0, x) for x in np.ravel(expected[0])
    ]


@settings(max_examples=300, deadline=None)
@given(_pages(), _rules)
def test_columns_from_layouts_arrays_are_the_columns_read_from_the_glyphs(page, rules):
    """columns_text handed layout's arrays (core.analysis) is columns_text handed the layout
    alone, which measures the glyphs and gathers the lines' boxes itself."""
    glyphs, order = page
    grid, arrays = layout.layout_with_arrays(glyphs, order, rules)
    expected = repr(columns.columns_text(glyphs, order, rules, grid=grid))
    assert repr(columns.columns_text(glyphs, order, rules, grid=grid, arrays=arrays)) == expected
