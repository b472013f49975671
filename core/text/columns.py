"""Columns text (spec §8, `ExtractLoadedPageTextColumns`): the page split into columns where a
horizontal gap exceeds columns_gap_multiple × the median glyph advance; each column is read in
turn, in reading order (§6) inside it.

Duplicates are already gone: the caller passes the visible glyphs (seed 003: the duplicate
filter runs before the split).

Decision (the spec's gap rule, applied per vertical band): projecting every glyph of the page
onto x lets one heading, caption or page number that spans the gutter close it, and a journal
page then reads line by line across both columns. So the gap is looked for between the lines of
a band, not over the whole page:
- lines are the layout grid's baseline lines (§7, core.text.layout), top to bottom, in the page's
  dominant writing direction; a line's ink is its non-blank glyph boxes projected on x;
- a band opens on a line whose ink, merged where at most the threshold apart, leaves gaps:
  those gaps (each wider than the threshold: the §8 rule) are the band's proposed gutters.
  Room beyond a line's ends is free, so ragged and short lines (a paragraph's last line, a
  caption or an equation number inside one column) keep a gutter;
- a later line may narrow a gutter from either edge (a line of the column beside it running
  long; tightly set pages have gutters barely wider than the threshold), down to the threshold
  or columns_gutter_keep_ratio of its opening width, whichever is less. Ink (merged at one median
  advance, a word) clear of both edges, or narrowing it further, crosses the gutter: that line
  (a spanning heading, a centred page number) closes the band and starts the next one. A
  band's first line only proposes gutters: when the second line crosses them all, the first
  line was the spanning one (a title over the body) and stands alone. A band of a single line
  has no gutters (a tab gap in one line is a word gap, not a column). `gaps`/ColumnBand.gutters
  are the gutters as narrowed by all the band's lines;
- bands are emitted top to bottom, a band's columns left to right, each in reading order
  (drawing order, §6). A glyph belongs to the column holding its quad centre. Columns and bands
  are separated by one newline. A table's cell columns are columns too.
- glyphs off the layout grid (writing mode 1, rotated or diagonal text) follow, in reading order.
- a page with no gutter in any band is read exactly as reading order (§6).
Coordinates in ColumnBand are in the grid frame (user space turned by -rotation); at rotation 0
they are user space.

The median advance, the glyph boxes in the grid frame and each band's columns and extents are
computed over the glyphs' arrays (core.text.arrays; issue 9), every line's ink in one pass
(compiled in core/text/_grid.pyx), the columns read by reading order's text path from one
set of pairs (core.text.pairs); the numbers are those the record functions computed, bit for
bit.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, pairwise
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, hypots, median
from glyphscope.core.text.chars import is_whitespace_text
from glyphscope.core.text.layout import GridArrays, LayoutResult, layout_with_arrays
from glyphscope.core.text.lines import frame_matrix, in_frame
from glyphscope.core.text.pairs import reading_pairs
from glyphscope.core.text.reading import TextResult, reading_order

Interval = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ColumnBand:
    """A run of lines sharing gutters: `top`/`bottom` (frame y of its glyph boxes), `columns`
    ((x0, x1) ink extents, left to right), `gutters` ((x0, x1) gaps no line of the band inks),
    `lines` (how many baseline lines it holds)."""

    top: float
    bottom: float
    columns: tuple[Interval, ...]
    gutters: tuple[Interval, ...]
    lines: int


@dataclass(frozen=True, slots=True)
class ColumnsResult:
    """`columns`: (x0, x1) extents of every band's columns, band by band, left to right.
    `median_advance` and `threshold` (= columns_gap_multiple × median_advance) are the numbers
    behind the split; `gaps` the (x0, x1) of every gutter that split a band. `bands` the bands
    top to bottom, `rotation` the grid frame (degrees), `off_grid` the glyphs read after."""

    text: TextResult
    columns: tuple[Interval, ...]
    median_advance: float = 0.0
    threshold: float = 0.0
    gaps: tuple[Interval, ...] = ()
    bands: tuple[ColumnBand, ...] = ()
    rotation: int = 0
    off_grid: tuple[int, ...] = ()


def columns_text(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    rules: Rules,
    *,
    grid: LayoutResult | None = None,
    reading: TextResult | None = None,
    arrays: GridArrays | None = None,
) -> ColumnsResult:
    """Columns text of `order`. `grid` and `reading` are layout() and reading_order() of the
    same glyphs, order and rules when the caller already has them (core.analysis does), and
    `arrays` the arrays layout made for `grid` (layout_with_arrays)."""
    if not order:
        return ColumnsResult(text=TextResult(text="", char_glyphs=()), columns=())
    if grid is None:
        grid, arrays = layout_with_arrays(glyphs, order, rules)
    if arrays is None:
        median = median_advance(glyphs, order)
        boxes = _LineBoxes.of_lines(glyphs, grid)
    else:
        median = _median_advance(arrays.advances, ~arrays.whitespace)
        boxes = _LineBoxes.of_arrays(arrays, grid.rotation)
    threshold = rules.columns_gap_multiple * median
    inks = boxes.inks(median)
    spans = band_lines(inks, threshold, rules) if median > 0.0 else [(0, len(inks), [])]
    bands = [
        boxes.band(first, end, gutters, band_number)
        for band_number, (first, end, gutters) in enumerate(spans)
    ]
    if not any(band.gutters for band in bands):
        text = (
            reading
            if reading is not None
            else reading_order(glyphs, order, rules, decisions=False).text
        )
    else:
        text = _read_bands(glyphs, order, rules, boxes, grid.off_grid)
    return ColumnsResult(
        text=text,
        columns=tuple(column for band in bands for column in band.columns),
        median_advance=median,
        threshold=threshold,
        gaps=tuple(gutter for band in bands for gutter in band.gutters),
        bands=tuple(bands),
        rotation=grid.rotation,
        off_grid=grid.off_grid,
    )


def median_advance(glyphs: Sequence[Glyph], order: Sequence[int]) -> float:
    """Median own advance (origin to glyph end) of the non-blank glyphs that have one."""
    rows = GlyphRows(glyphs, order)
    with np.errstate(all="ignore"):
        delta = rows.points("glyph_end") - rows.points("origin")
    return _median_advance(hypots(delta[:, 0], delta[:, 1]), rows.per_text(_writes_ink))


def _median_advance(advances: np.ndarray, inked: np.ndarray) -> float:
    """median_advance from every row's own advance and whether it writes ink (layout's
    arrays hand both over)."""
    advances = advances[inked]
    advances = advances[advances > 0.0]
    return median(advances) if len(advances) else 0.0


def _writes_ink(text: str) -> bool:
    """Whether a glyph of this text writes ink (its text is not white space, nor
    unresolved)."""
    return not is_whitespace_text(text)


class _LineBoxes:
    """The glyph boxes of a layout grid's lines in its frame (core.text.lines.frame_matrix),
    one row per glyph of the lines, line after line: `glyph` its index, `x0`, `y0`, `x1`,
    `y1` the bounds of its quad, `inked` whether it writes ink, and once `band` placed it,
    `band_of` and `column_of` its band and column. `lines` holds the [start, end) rows of
    each grid line."""

    def __init__(
        self,
        glyph: np.ndarray,
        quads: np.ndarray,
        inked: np.ndarray,
        lengths: np.ndarray,
        rotation: int,
    ) -> None:
        self.glyph = glyph
        xs, ys = in_frame(frame_matrix(rotation), quads[:, :, 0], quads[:, :, 1])
        self.x0, self.x1 = _first_min(xs), _first_max(xs)
        self.y0, self.y1 = _first_min(ys), _first_max(ys)
        self.inked = inked
        ends = np.cumsum(lengths).tolist()
        self.lines = list(pairwise([0, *ends]))
        self.band_of = np.full(len(self.glyph), -1, dtype=np.intp)
        self.column_of = np.zeros(len(self.glyph), dtype=np.intp)

    @classmethod
    def of_lines(cls, glyphs: Sequence[Glyph], grid: LayoutResult) -> _LineBoxes:
        """The boxes of the grid's lines, read from the glyphs."""
        lengths = np.fromiter(map(len, grid.lines), np.intp, len(grid.lines))
        count = int(lengths.sum())
        rows = GlyphRows(glyphs, np.fromiter(chain.from_iterable(grid.lines), np.intp, count))
        return cls(rows.index, rows.quads(), rows.per_text(_writes_ink), lengths, grid.rotation)

    @classmethod
    def of_arrays(cls, arrays: GridArrays, rotation: int) -> _LineBoxes:
        """The same boxes from the arrays layout made for the grid."""
        at = arrays.line_rows
        return cls(
            arrays.glyph_index[at],
            arrays.quads[at],
            ~arrays.whitespace[at],
            arrays.line_lengths,
            rotation,
        )

    def inks(self, distance: float) -> list[list[Interval]]:
        """The x-intervals each line inks: its non-blank glyph boxes sorted as (x0, x1)
        tuples, merged where at most `distance` apart (blank glyphs write no ink, so a
        trailing space never reaches into a gutter)."""
        lengths = [end - start for start, end in self.lines]
        inked = np.flatnonzero(self.inked)
        line = np.repeat(np.arange(len(self.lines)), lengths)[inked]
        x0, x1 = self.x0[inked], self.x1[inked]
        bounds = np.searchsorted(line, np.arange(len(self.lines) + 1))
        if np.isnan(x0).any() or np.isnan(x1).any():
            ordered = _sorted_in_lines(x0, x1, bounds)
        else:  # numpy's stable sort compares (x0, x1) as the tuples compare
            ordered = np.lexsort((x1, x0, line))
        return _line_inks(
            np.ascontiguousarray(x0[ordered]), np.ascontiguousarray(x1[ordered]), bounds, distance
        )

    def band(
        self,
        first: int,
        end: int,
        gutters: Sequence[Interval],
        band_number: int,
    ) -> ColumnBand:
        """The band of lines [first, end): its rows' band_of and column_of are set, the column
        the one holding the glyph's quad centre; the band records its extents."""
        start, stop = (self.lines[first][0], self.lines[end - 1][1]) if end > first else (0, 0)
        middles = [(left + right) / 2.0 for left, right in gutters]
        x0, x1 = self.x0[start:stop], self.x1[start:stop]
        y0, y1 = self.y0[start:stop], self.y1[start:stop]
        centres = (x0 + x1) / 2.0
        if np.isnan(centres).any() or np.isnan(y0).any() or np.isnan(y1).any():
            columns, extents, top, bottom = _extents_one_by_one(middles, x0, x1, y0, y1)
        elif _band_extents is not None:
            columns = np.searchsorted(np.array(middles, dtype=np.float64), centres, side="right")
            extents, top, bottom = _band_extents(columns, len(middles) + 1, x0, x1, y0, y1)
        else:
            columns, extents, top, bottom = _extents(middles, centres, x0, x1, y0, y1)
        self.band_of[start:stop] = band_number
        self.column_of[start:stop] = columns
        return ColumnBand(
            top=top, bottom=bottom, columns=extents, gutters=tuple(gutters), lines=end - first
        )


def _extents(
    middles: list[float],
    centres: np.ndarray,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
) -> tuple[np.ndarray, tuple[Interval, ...], float, float]:
    """Each row's column (bisect_right of its centre among the gutter middles), the (x0, x1)
    extent of each column holding rows, left to right, and the band's top and bottom. The
    extremes are those min() and max() keep going row by row: the first row holding the
    extreme value (0.0 and -0.0 are equal, and the first is kept)."""
    columns = np.searchsorted(np.array(middles, dtype=np.float64), centres, side="right")
    rows = np.arange(len(columns))
    lowest = np.lexsort((rows, x0, columns))
    highest = np.lexsort((rows, -x1, columns))
    starts = np.flatnonzero(np.diff(columns[lowest], prepend=-1))
    extents = tuple(zip(x0[lowest[starts]].tolist(), x1[highest[starts]].tolist(), strict=True))
    if not len(rows):
        return columns, extents, -math.inf, math.inf
    return columns, extents, float(y1[np.argmax(y1)]), float(y0[np.argmin(y0)])


def _extents_one_by_one(
    middles: list[float], x0: np.ndarray, x1: np.ndarray, y0: np.ndarray, y1: np.ndarray
) -> tuple[np.ndarray, tuple[Interval, ...], float, float]:
    """_extents for boxes holding nan (non-finite geometry, which the visible stage drops):
    row by row, as Python's comparisons order nan."""
    columns: list[int] = []
    extents: dict[int, list[float]] = {}
    top, bottom = -math.inf, math.inf
    rows = zip(x0.tolist(), x1.tolist(), y0.tolist(), y1.tolist(), strict=True)
    for left, right, low, high in rows:
        column = bisect.bisect_right(middles, (left + right) / 2.0)
        columns.append(column)
        extent = extents.setdefault(column, [left, right])
        extent[0], extent[1] = min(extent[0], left), max(extent[1], right)
        top, bottom = max(top, high), min(bottom, low)
    ordered = tuple((extents[c][0], extents[c][1]) for c in sorted(extents))
    return np.array(columns, dtype=np.intp), ordered, top, bottom


def _first_min(values: np.ndarray) -> np.ndarray:
    """min() of each row as Python takes it: the first value unless a later one is smaller
    (nan stays only where it comes first; of 0.0 and -0.0 the first is kept)."""
    result = values[:, 0]
    for column in range(1, values.shape[1]):
        result = np.where(values[:, column] < result, values[:, column], result)
    return result


def _first_max(values: np.ndarray) -> np.ndarray:
    """max() of each row as Python takes it (see _first_min)."""
    result = values[:, 0]
    for column in range(1, values.shape[1]):
        result = np.where(values[:, column] > result, values[:, column], result)
    return result


def _sorted_in_lines(x0: np.ndarray, x1: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """The rows of each line [bounds[n], bounds[n+1]) in the order sorted() puts their
    (x0, x1) tuples (nan compares false: only Python's own sort gives Python's order)."""
    ordered: list[int] = []
    for start, end in pairwise(bounds.tolist()):
        items = list(zip(x0[start:end].tolist(), x1[start:end].tolist(), strict=True))
        ordered.extend(start + k for k in sorted(range(len(items)), key=items.__getitem__))
    return np.array(ordered, dtype=np.intp)


def line_inks_in_python(
    x0: np.ndarray, x1: np.ndarray, bounds: np.ndarray, distance: float
) -> list[list[Interval]]:
    """merge_ink of each line's boxes: rows [bounds[n], bounds[n+1]) are line n's, sorted."""
    return [
        merge_ink_in_python(
            list(zip(x0[start:end].tolist(), x1[start:end].tolist(), strict=True)), distance
        )
        for start, end in pairwise(bounds.tolist())
    ]


_band_extents: Callable[..., tuple[tuple[Interval, ...], float, float]] | None
_merge_ink: Callable[[Sequence[Interval], float], list[Interval]] | None
# line_inks_in_python and merge_ink_in_python compiled (_grid.pyx), when the extension was
# built; and _extents' extents, top and bottom in one pass over a band's rows instead of two
# lexsorts.
_grid = compiled.load("glyphscope.core.text._grid")
_line_inks = line_inks_in_python if _grid is None else _grid.line_inks
_band_extents = None if _grid is None else _grid.band_extents
_merge_ink = None if _grid is None else _grid.merge_ink


def merge_ink(extents: Sequence[Interval], distance: float) -> list[Interval]:
    """Sorted intervals merged where at most `distance` apart."""
    if _merge_ink is not None:
        try:
            return _merge_ink(extents, distance)
        except TypeError:  # numbers other than floats: merged in Python
            pass
    return merge_ink_in_python(extents, distance)


def merge_ink_in_python(extents: Sequence[Interval], distance: float) -> list[Interval]:
    """merge_ink in Python (the compiled one's oracle and fallback)."""
    ink: list[list[float]] = []
    for x0, x1 in extents:
        if ink and x0 - ink[-1][1] <= distance:
            ink[-1][1] = max(ink[-1][1], x1)
        else:
            ink.append([x0, x1])
    return [(x0, x1) for x0, x1 in ink]


class Gutter(NamedTuple):
    """A gutter as it narrows: the free x-interval and its width when the band opened."""

    left: float
    right: float
    opening_width: float


def band_lines(
    inks: Sequence[Sequence[Interval]], threshold: float, rules: Rules
) -> list[tuple[int, int, list[Interval]]]:
    """Split lines (top to bottom, each given by its ink merged at word scale) into bands:
    (first line, end line, gutters). A line proposes the gaps of its ink merged at the §8
    threshold; see the module docstring for the rule. A line costs O((ink + band ink) log)."""
    bands: list[tuple[int, int, list[Interval]]] = []
    first = 0
    gutters: list[Gutter] = []
    band_ink: list[Interval] = []
    for number, ink in enumerate(inks):
        coarse = merge_ink(ink, threshold)
        proposed = [Gutter(a[1], b[0], b[0] - a[1]) for a, b in pairwise(coarse)]
        if number > first:
            narrowed, crossed = narrow_gutters(gutters, ink, threshold, rules)
            if crossed and number - first == 1:
                # The first line only proposed gutters: this line crosses them, so the first
                # line has none and the band goes on as one column, or closes below.
                narrowed, crossed = [], False
            fresh = [gutter for gutter in proposed if not _overlaps(gutter, narrowed)]
            adopted = [g for g in fresh if not narrow_gutters([g], band_ink, threshold, rules)[1]]
            # A gap the band's lines ink where the band has no gutter: those lines span it.
            if crossed or (not narrowed and len(adopted) < len(fresh)):
                bands.append((first, number, _band_gutters(gutters, number - first)))
                first = number
            else:
                gutters = sorted(narrowed + adopted)
                band_ink = merge_ink(sorted([*band_ink, *ink]), 0.0)
                continue
        gutters, band_ink = proposed, list(ink)
    if inks:
        bands.append((first, len(inks), _band_gutters(gutters, len(inks) - first)))
    return bands


def _overlaps(gutter: Gutter, gutters: Sequence[Gutter]) -> bool:
    return any(other.left < gutter.right and gutter.left < other.right for other in gutters)


def narrow_gutters(
    gutters: Sequence[Gutter], ink: Sequence[Interval], threshold: float, rules: Rules
) -> tuple[list[Gutter], bool]:
    """The gutters as `ink` (one line, merged at word scale) leaves them, and whether the line
    crosses one. Ink may narrow a gutter from its left edge (a line of the column before it
    running long, ragged right) down to the threshold or columns_gutter_keep_ratio of its
    opening width, whichever is less; from its right edge only by less than that ratio of it
    (left-aligned columns share their left edge: a line starting deep inside the gutter is a
    heading set across it). Any other ink in it (a centred page number, a spanning title)
    crosses it."""
    keep = rules.columns_gutter_keep_ratio
    starts = [x0 for x0, _ in ink]
    narrowed: list[Gutter] = []
    for gutter in gutters:
        left, right = gutter.left, gutter.right
        position = max(0, bisect.bisect_right(starts, left) - 1)
        while position < len(ink) and ink[position][0] < right:
            x0, x1 = ink[position]
            if x0 <= left:
                left = max(left, x1)
            elif x1 >= right and x0 - left > keep * (right - left):
                right = x0
            elif x1 > left:
                return [], True
            position += 1
        if right - left <= min(threshold, keep * gutter.opening_width):
            return [], True
        narrowed.append(Gutter(left, right, gutter.opening_width))
    return narrowed, False


def _glyph_places(boxes: _LineBoxes, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The band and column of each of `count` glyphs (band -1 off the lines); a glyph on
    several rows of the lines takes its last one's."""
    glyph = boxes.glyph
    last: np.ndarray | slice = slice(None)
    if len(glyph) and np.bincount(glyph, minlength=count).max() > 1:
        _, first_from_end = np.unique(glyph[::-1], return_index=True)
        last = len(glyph) - 1 - first_from_end
    band = np.full(count, -1, dtype=np.intp)
    column = np.zeros(count, dtype=np.intp)
    band[glyph[last]] = boxes.band_of[last]
    column[glyph[last]] = boxes.column_of[last]
    return band, column


def _band_gutters(gutters: Sequence[Gutter], lines: int) -> list[Interval]:
    """A band of one line has no gutters: a wide gap in a single line is a word gap."""
    return [(gutter.left, gutter.right) for gutter in gutters] if lines > 1 else []


def _read_bands(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    rules: Rules,
    boxes: _LineBoxes,
    off_grid: Sequence[int],
) -> TextResult:
    """Bands top to bottom, columns left to right, each column in drawing order; then the
    off-grid glyphs."""
    rows = np.fromiter(order, dtype=np.intp, count=len(order))
    band, column = _glyph_places(boxes, len(glyphs))
    at = band[rows]
    placed = np.flatnonzero(at >= 0)
    # A stable sort by (band, column): each group keeps the order's sequence.
    ranked = placed[np.lexsort((column[rows[placed]], at[placed]))]
    keys = np.stack((at[ranked], column[rows[ranked]]))
    ends = (np.flatnonzero((keys[:, 1:] != keys[:, :-1]).any(axis=0)) + 1).tolist()
    sequence = rows[ranked]
    if off_grid:
        if len(sequence):
            ends.append(len(sequence))
        sequence = np.concatenate((sequence, np.asarray(off_grid, dtype=np.intp)))
    # The groups read as one order whose line breaks where a group ends: the builder then
    # writes each group as reading order writes it alone (its blank tail trimmed, blanks at
    # its start dropped) and one newline between two that write text; vertical glyphs, which
    # are off the grid, are only in the last group. Bidi reordering goes line by line.
    pairs = reading_pairs(glyphs, sequence, rules)
    broke = pairs.broke.copy()
    broke[np.asarray(ends, dtype=np.intp) - 1] = True
    return reading_order(
        glyphs, sequence.tolist(), rules, decisions=False, pairs=pairs._replace(broke=broke)
    ).text
