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
  or GUTTER_KEEP_RATIO of its opening width, whichever is less. Ink (merged at one median
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
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

from glyphscope.core.geometry import Matrix, apply_vector, distance
from glyphscope.core.records import Glyph, Quad
from glyphscope.core.rules import Rules
from glyphscope.core.text.chars import is_whitespace_text
from glyphscope.core.text.layout import LayoutResult, layout
from glyphscope.core.text.lines import frame_matrix
from glyphscope.core.text.reading import TextResult, reading_order

Interval = tuple[float, float]

# A gutter survives a line that narrows it to more than this fraction of its opening width
# (or of the threshold): a column set close to a narrow gutter runs a little into it.
GUTTER_KEEP_RATIO = 0.5


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
) -> ColumnsResult:
    """Columns text of `order`. `grid` and `reading` are layout() and reading_order() of the
    same glyphs, order and rules when the caller already has them (core.analysis does)."""
    if not order:
        return ColumnsResult(text=TextResult(text="", char_glyphs=()), columns=())
    median = median_advance(glyphs, order)
    threshold = rules.columns_gap_multiple * median
    if grid is None:
        grid = layout(glyphs, order, rules)
    frame = frame_matrix(grid.rotation)
    boxes = {
        index: _frame_bounds(glyphs[index].quad, frame) for line in grid.lines for index in line
    }
    inks = [line_ink(glyphs, line, boxes, median) for line in grid.lines]
    spans = band_lines(inks, threshold) if median > 0.0 else [(0, len(inks), [])]
    bands: list[ColumnBand] = []
    owner: dict[int, tuple[int, int]] = {}
    for band_number, (first, end, gutters) in enumerate(spans):
        bands.append(_band(grid.lines[first:end], gutters, boxes, band_number, owner))
    if not any(band.gutters for band in bands):
        text = (
            reading
            if reading is not None
            else reading_order(glyphs, order, rules, decisions=False).text
        )
    else:
        text = _read_bands(glyphs, order, rules, bands, owner, grid.off_grid)
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
    advances = []
    for index in order:
        glyph = glyphs[index]
        if is_whitespace_text(glyph.text):
            continue
        advance = distance(glyph.origin, glyph.glyph_end)
        if advance > 0.0:
            advances.append(advance)
    return statistics.median(advances) if advances else 0.0


def line_ink(
    glyphs: Sequence[Glyph],
    line: Sequence[int],
    boxes: dict[int, tuple[float, float, float, float]],
    distance: float,
) -> list[Interval]:
    """The x-intervals a line inks: its non-blank glyph boxes, merged where at most `distance`
    apart (blank glyphs write no ink, so a trailing space never reaches into a gutter)."""
    extents = sorted(
        (boxes[index][0], boxes[index][2])
        for index in line
        if not is_whitespace_text(glyphs[index].text)
    )
    return merge_ink(extents, distance)


def merge_ink(extents: Sequence[Interval], distance: float) -> list[Interval]:
    """Sorted intervals merged where at most `distance` apart."""
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
    inks: Sequence[Sequence[Interval]], threshold: float
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
            narrowed, crossed = narrow_gutters(gutters, ink, threshold)
            if crossed and number - first == 1:
                # The first line only proposed gutters: this line crosses them, so the first
                # line has none and the band goes on as one column, or closes below.
                narrowed, crossed = [], False
            fresh = [gutter for gutter in proposed if not _overlaps(gutter, narrowed)]
            adopted = [g for g in fresh if not narrow_gutters([g], band_ink, threshold)[1]]
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
    gutters: Sequence[Gutter], ink: Sequence[Interval], threshold: float
) -> tuple[list[Gutter], bool]:
    """The gutters as `ink` (one line, merged at word scale) leaves them, and whether the line
    crosses one. Ink may narrow a gutter from its left edge (a line of the column before it
    running long, ragged right) down to the threshold or GUTTER_KEEP_RATIO of its opening
    width, whichever is less; from its right edge only by less than GUTTER_KEEP_RATIO of it
    (left-aligned columns share their left edge: a line starting deep inside the gutter is a
    heading set across it). Any other ink in it (a centred page number, a spanning title)
    crosses it."""
    starts = [x0 for x0, _ in ink]
    narrowed: list[Gutter] = []
    for gutter in gutters:
        left, right = gutter.left, gutter.right
        position = max(0, bisect.bisect_right(starts, left) - 1)
        while position < len(ink) and ink[position][0] < right:
            x0, x1 = ink[position]
            if x0 <= left:
                left = max(left, x1)
            elif x1 >= right and x0 - left > GUTTER_KEEP_RATIO * (right - left):
                right = x0
            elif x1 > left:
                return [], True
            position += 1
        if right - left <= min(threshold, GUTTER_KEEP_RATIO * gutter.opening_width):
            return [], True
        narrowed.append(Gutter(left, right, gutter.opening_width))
    return narrowed, False


def _band_gutters(gutters: Sequence[Gutter], lines: int) -> list[Interval]:
    """A band of one line has no gutters: a wide gap in a single line is a word gap."""
    return [(gutter.left, gutter.right) for gutter in gutters] if lines > 1 else []


def _frame_bounds(quad: Quad, frame: Matrix) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a quad in the layout grid frame (core.text.lines.frame_matrix)."""
    xs, ys = zip(*(apply_vector(frame, x, y) for x, y in quad), strict=True)
    return min(xs), min(ys), max(xs), max(ys)


def _band(
    lines: Sequence[Sequence[int]],
    gutters: Sequence[Interval],
    boxes: dict[int, tuple[float, float, float, float]],
    band_number: int,
    owner: dict[int, tuple[int, int]],
) -> ColumnBand:
    """Assign the band's glyphs to columns by quad centre; record its extents."""
    middles = [(left + right) / 2.0 for left, right in gutters]
    extents: dict[int, list[float]] = {}
    top, bottom = -math.inf, math.inf
    for line in lines:
        for index in line:
            x0, y0, x1, y1 = boxes[index]
            column = bisect.bisect_right(middles, (x0 + x1) / 2.0)
            owner[index] = (band_number, column)
            extent = extents.setdefault(column, [x0, x1])
            extent[0], extent[1] = min(extent[0], x0), max(extent[1], x1)
            top, bottom = max(top, y1), min(bottom, y0)
    return ColumnBand(
        top=top,
        bottom=bottom,
        columns=tuple((extents[c][0], extents[c][1]) for c in sorted(extents)),
        gutters=tuple(gutters),
        lines=len(lines),
    )


def _read_bands(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    rules: Rules,
    bands: Sequence[ColumnBand],
    owner: dict[int, tuple[int, int]],
    off_grid: Sequence[int],
) -> TextResult:
    """Bands top to bottom, columns left to right, each column in drawing order; then the
    off-grid glyphs."""
    members: dict[tuple[int, int], list[int]] = {}
    for index in order:
        place = owner.get(index)
        if place is not None:
            members.setdefault(place, []).append(index)
    groups = [members[place] for place in sorted(members)]
    if off_grid:
        groups.append(list(off_grid))
    chars: list[str] = []
    owners: list[int] = []
    for group in groups:
        text = reading_order(glyphs, group, rules, decisions=False).text
        if chars and text.text:
            chars.append("\n")
            owners.append(-1)
        chars.extend(text.text)
        owners.extend(text.char_glyphs)
    return TextResult(text="".join(chars), char_glyphs=tuple(owners))
