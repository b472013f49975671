"""Baseline lines: glyphs grouped into lines, top to bottom, in the page's writing frame.

One grouping for every mode that reads a page line by line: layout text (spec §7, and through
its grid the columns of §8) and the untagged tail of structure order (§9). Both work in the
frame of the page's dominant writing direction, snapped to a multiple of 90°, so a page whose
content is drawn turned (text running up a /Rotate 90 page) is read along its lines, not across
them, and the structure tail of such a page reads as its layout text does.

The grouping runs over the glyphs' arrays (core.text.arrays); the numbers are the ones the
record functions compute (geometry.apply_vector, quad_height), element by element.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import Matrix
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, quad_heights, writing_directions

# cos and sin of the multiples of 90°, exact.
_COS_SIN = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}


class FramePoints(NamedTuple):
    """Rows' points in the frame of a rotation: `x` and `y` as arrays."""

    x: np.ndarray
    y: np.ndarray


def dominant_rotation(glyphs: Sequence[Glyph], order: Sequence[int]) -> int:
    """The multiple of 90° most horizontal-mode glyphs are written in (0 when none)."""
    rows = GlyphRows(glyphs, order)
    return rows_rotation(rows.numbers("writing_mode"), *writing_directions(rows))


def rows_rotation(writing_mode: np.ndarray, ux: np.ndarray, uy: np.ndarray) -> int:
    """dominant_rotation of rows given their writing modes and directions. A direction that is
    not a number (a quad whose edge overflows) has no angle and does not vote."""
    horizontal = writing_mode == 0
    ux, uy = ux[horizontal], uy[horizontal]
    # The axis directions are exact (an edge along an axis divided by its own length): their
    # quarter is known without atan2; the rest go through math.atan2 and round() as one glyph
    # at a time did, so an edge case at 45° falls in the same quarter.
    counts = [
        int(np.count_nonzero((ux == 1.0) & (uy == 0.0))),
        int(np.count_nonzero((ux == 0.0) & (uy == 1.0))),
        int(np.count_nonzero((ux == -1.0) & (uy == 0.0))),
        int(np.count_nonzero((ux == 0.0) & (uy == -1.0))),
    ]
    with np.errstate(invalid="ignore"):
        axis = (np.abs(ux) == 1.0) & (uy == 0.0) | (ux == 0.0) & (np.abs(uy) == 1.0)
    other = ~axis & ~(np.isnan(ux) | np.isnan(uy))
    for dy, dx in zip(uy[other].tolist(), ux[other].tolist(), strict=True):
        counts[round(math.degrees(math.atan2(dy, dx)) / 90.0) % 4] += 1
    return 90 * counts.index(max(counts))


def frame_matrix(rotation: int) -> Matrix:
    """User space → the frame of a writing direction at `rotation` degrees (a multiple of 90):
    the turn by -rotation (§8.3.4), so that direction becomes +x and its lines' up +y. A turn
    about the origin has no translation: `apply_vector` maps points as well as directions."""
    cos_r, sin_r = _COS_SIN[rotation]
    return (cos_r, -sin_r, sin_r, cos_r, 0.0, 0.0)


def in_frame(frame: Matrix, x: np.ndarray, y: np.ndarray) -> FramePoints:
    """geometry.apply_vector(frame, x, y) of each element: the same products and sum."""
    a, b, c, d, _, _ = frame
    with np.errstate(all="ignore"):  # inf × 0 is nan, as in Python, unwarned
        return FramePoints(a * x + c * y, b * x + d * y)


def baseline_rows(
    x: np.ndarray, y: np.ndarray, heights: np.ndarray, glyph: np.ndarray, rules: Rules
) -> tuple[list[float], list[np.ndarray]]:
    """Lines top to bottom of rows at frame (x, y) with box `heights` and glyph indices
    `glyph`: each line's frame y (its first, highest baseline) and its rows (positions in the
    arrays), sorted by frame x, glyph index on ties. A row whose baseline lies within
    line_break_ratio × the larger box height below the line's first baseline joins it (the §6
    line-break rule, so a superscript and a wobbly baseline stay on their line)."""
    line_ys, rows, starts = baseline_line_rows(x, y, heights, glyph, rules)
    return line_ys, np.split(rows, starts[1:]) if len(rows) else []


def baseline_line_rows(
    x: np.ndarray, y: np.ndarray, heights: np.ndarray, glyph: np.ndarray, rules: Rules
) -> tuple[list[float], np.ndarray, list[int]]:
    """baseline_rows' lines as one array: each line's frame y, every line's rows one line
    after the other, and the position in them where each line starts."""
    count = len(x)
    if not count:
        return [], np.empty(0, dtype=np.intp), []
    without_nan = not (np.isnan(x).any() or np.isnan(y).any())
    if without_nan:
        x = np.ascontiguousarray(x, dtype=np.float64)
        glyph = np.ascontiguousarray(glyph, dtype=np.int64)
        ordered = _rows_top_down(np.ascontiguousarray(y, dtype=np.float64), x, glyph)
    else:
        ordered = _sorted_rows((-y, x, glyph))
    ys = np.ascontiguousarray(y[ordered], dtype=np.float64)
    hs = np.ascontiguousarray(heights[ordered], dtype=np.float64)
    starts = _line_starts(ys, hs, float(rules.line_break_ratio))
    bounds = [*starts, count]
    if without_nan:
        rows = _rows_by_line(ordered, np.array(bounds, dtype=np.intp), x, glyph)
    else:  # each line sorted alone, as the records were: nan makes the order path-dependent
        rows = np.concatenate(
            [
                ordered[start:end][_sorted_rows((x[ordered[start:end]], glyph[ordered[start:end]]))]
                for start, end in zip(bounds, bounds[1:], strict=False)
            ]
        )
    return ys[starts].tolist(), rows, starts


def line_starts_in_python(ys: np.ndarray, heights: np.ndarray, ratio: float) -> list[int]:
    """The positions of rows (sorted top to bottom, frame y `ys`, box `heights`) that open a
    line: a row joins the open line when its baseline lies within ratio × the larger of its
    height and the line's running height below the line's first baseline."""
    starts: list[int] = []
    line_y = line_height = 0.0
    for position, (row_y, height) in enumerate(zip(ys.tolist(), heights.tolist(), strict=True)):
        # max() as Python takes it (nan kept when first), as the line's running height.
        if starts and line_y - row_y <= ratio * max(line_height, height):
            line_height = max(line_height, height)
        else:
            starts.append(position)
            line_y, line_height = row_y, height
    return starts


def rows_top_down_in_python(y: np.ndarray, x: np.ndarray, glyph: np.ndarray) -> np.ndarray:
    """Rows 0..n-1 (without nan) sorted by (-y, x, glyph index): top to bottom, left to
    right, as the stable sort of those tuples orders them."""
    return _sorted_rows((-y, x, glyph))


def rows_by_line_in_python(
    ordered: np.ndarray, bounds: np.ndarray, x: np.ndarray, glyph: np.ndarray
) -> np.ndarray:
    """`ordered` (rows top to bottom, without nan) with each line, ordered[bounds[n]:
    bounds[n + 1]], sorted by frame x, glyph index on ties (then row: the stable sort)."""
    line_number = np.zeros(len(ordered), dtype=np.intp)
    line_number[bounds[1:-1]] = 1
    by_line = np.empty(len(ordered), dtype=np.intp)
    by_line[ordered] = np.cumsum(line_number)
    return _sorted_rows((by_line, x, glyph))


# line_starts_in_python, rows_top_down_in_python and rows_by_line_in_python compiled
# (_grid.pyx: one merge sort by all the keys at once instead of a stable sort per key, and
# each line sorted alone), when the extension was built.
_grid = compiled.load("glyphscope.core.text._grid")
_line_starts = line_starts_in_python if _grid is None else _grid.line_starts
_rows_by_line = rows_by_line_in_python if _grid is None else _grid.rows_by_line
_rows_top_down = rows_top_down_in_python if _grid is None else _grid.rows_top_down


def _sorted_rows(keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """Positions 0..n-1 sorted by the key tuples, as Python's stable sort of those tuples
    sorts them: numpy's stable lexsort when no key is nan (the comparisons agree, -0.0 equals
    0.0), Python's sort itself otherwise (nan compares false to everything, so the order
    depends on the comparisons made: only Python's own sort gives Python's order)."""
    if not any(np.isnan(key).any() for key in keys if key.dtype.kind == "f"):
        return np.lexsort(keys[::-1])
    items = list(zip(*(key.tolist() for key in keys), strict=True))
    return np.array(sorted(range(len(items)), key=items.__getitem__), dtype=np.intp)


def line_order(
    glyphs: Sequence[Glyph], indices: Sequence[int], rotation: int, rules: Rules
) -> list[int]:
    """`indices` line by line in the frame of `rotation`: top to bottom, each left to right."""
    rows = GlyphRows(glyphs, indices)
    origin = rows.points("origin")
    x, y = in_frame(frame_matrix(rotation), origin[:, 0], origin[:, 1])
    _, lines = baseline_rows(x, y, quad_heights(rows.quads()), rows.index, rules)
    return rows.index[np.concatenate(lines)].tolist() if lines else []
