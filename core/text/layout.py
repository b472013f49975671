"""Layout text (spec §7, `ExtractLoadedPageTextLayout`): the page's look as plain text.

Glyphs are grouped by baseline, each line sorted by x and placed on a monospace character
grid "calculated from the average glyph advance and font size" (seed 001): the cell height is
the body size (median size as drawn), the cell width the average advance per unit of size
times that body size. Columns, indentation and table alignment
survive; two columns appear side by side.

Decisions made here (the seeds leave them open):
- The grid is laid in the page's dominant writing direction, snapped to a multiple of 90°
  (the direction most horizontal-mode glyphs share), so a page drawn rotated (e.g. under
  /Rotate 90 content) still lays out. Glyphs of writing mode 1, and glyphs whose direction is
  more than ~3° off the dominant one (diagonal watermarks, rotated side notes), are not placed
  on the grid: they follow it, after a blank line, as reading-order text (spec §6), in drawing
  order. Scattering a diagonal word over the grid one letter per line helps no one.
- On a line, a gap wider than BLOCK_GAP_CELLS cells starts a new block, placed at its own grid
  column (at least one cell on): wide gaps become several spaces, table cells and columns line
  up. Inside a block, glyphs follow one another, with one space where the word-gap rule (§6)
  puts one, so wide letters never split a word and justified lines are not padded.
- Between consecutive baselines, floor(distance / cell height) − 1 blank lines: single and
  1.5 spacing give none, a gap of two lines or more gives blank lines.
- Drawn space glyphs write nothing: the grid position of the next glyph is the space.
- Padding is bounded by the rules, so a glyph at x = 1e9 or a 1e9-unit page cannot write
  gigabytes of spaces: no glyph is padded past column layout_max_columns, no gap gets more
  than layout_max_blank_lines blank lines, and a page inserts at most layout_max_padding
  spaces and newlines in all (then one space or newline where padding was due). Each cap
  reached is named in `LayoutResult.capped`, and the decision log's warnings.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.geometry import along, apply_vector, distance, quad_height
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.bidi import BidiRun, logical_order
from glyphscope.core.text.chars import glyph_output_text, is_whitespace_text
from glyphscope.core.text.lines import (
    Line,
    Placed,
    baseline_lines,
    dominant_rotation,
    frame_matrix,
)
from glyphscope.core.text.reading import TextResult, reading_order, word_gap
from glyphscope.core.text.visible import drawn_size, writing_direction

# A gap wider than this many cells separates two blocks of text on a line (table cells, columns,
# a tab stop): the second block goes to its own grid column. Narrower gaps are word spaces.
BLOCK_GAP_CELLS = 2.0
# Blocks at least this long are measured to fit the cell width (fitted_cell_width).
FIT_BLOCK_GLYPHS = 8
# sin(3°): how far a glyph's direction may turn from the grid's and still be placed on it.
GRID_DIRECTION_TOLERANCE = 0.0523


@dataclass(frozen=True, slots=True)
class LayoutResult:
    """Layout text and the grid behind it: `rotation` (degrees, the dominant direction),
    `cell_width` and `cell_height` (user-space units), `left` (the frame x of column 0),
    `lines` (glyph indices per grid line, top to bottom), `off_grid` (glyphs read after it)."""

    text: TextResult
    rotation: int
    cell_width: float
    cell_height: float
    left: float
    lines: tuple[tuple[int, ...], ...]
    off_grid: tuple[int, ...]
    # Grid runs holding right-to-left text, reordered in place (core.text.bidi).
    bidi_runs: tuple[BidiRun, ...] = ()
    capped: tuple[str, ...] = ()


class _Padding:
    """The padding budget of one page's grid (the layout_max_* rules) and the caps reached."""

    __slots__ = ("columns", "blank_lines", "budget", "left", "capped")

    def __init__(self, rules: Rules) -> None:
        self.columns = rules.layout_max_columns
        self.blank_lines = rules.layout_max_blank_lines
        self.budget = self.left = rules.layout_max_padding
        self.capped: dict[str, None] = {}

    def column(self, cells: float) -> int:
        """The grid column cells from the left edge rounds to, at most the column cap; a
        coordinate too far to be a number of cells (1e300, inf, nan) gets the cap too."""
        if cells + 0.5 < self.columns:
            return math.floor(cells + 0.5)
        self.capped[f"layout: a glyph past column {self.columns} placed at it"] = None
        return self.columns

    def blank(self, lines: float) -> int:
        """Blank lines for a baseline gap of `lines` cell heights: floor(lines) − 1, capped."""
        if lines + 1e-9 < self.blank_lines + 1:
            return max(0, math.floor(lines + 1e-9) - 1)
        self.capped[f"layout: more than {self.blank_lines} blank lines between two lines"] = None
        return self.blank_lines

    def take(self, count: int) -> int:
        """`count` padding characters, or 1 once the page's padding budget is spent."""
        if count <= self.left:
            self.left -= count
            return count
        self.capped[f"layout: more than {self.budget} characters of padding on the page"] = None
        self.left = 0
        return 1


def layout_text(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> TextResult:
    return layout(glyphs, order, rules).text


def layout(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> LayoutResult:
    rotation = dominant_rotation(glyphs, order)
    frame = frame_matrix(rotation)
    on_grid: list[Placed] = []
    off_grid: list[int] = []
    for index in order:
        glyph = glyphs[index]
        frame_ux, frame_uy = apply_vector(frame, *writing_direction(glyph))
        if glyph.writing_mode == 1 or frame_ux <= 0 or abs(frame_uy) > GRID_DIRECTION_TOLERANCE:
            off_grid.append(index)
            continue
        on_grid.append((*apply_vector(frame, *glyph.origin), index))
    cell_width, cell_height = grid_cells(glyphs, [item[2] for item in on_grid])
    left = min((item[0] for item in on_grid), default=0.0)
    lines = baseline_lines(glyphs, on_grid, rules)
    cell_width = fitted_cell_width(glyphs, lines, cell_width)
    chars: list[str] = []
    owners: list[int] = []
    padding = _Padding(rules)
    previous_y = None
    for line_y, line in lines:
        if previous_y is not None:
            breaks = padding.take(padding.blank((previous_y - line_y) / cell_height) + 1)
            chars.extend("\n" * breaks)
            owners.extend([-1] * breaks)
        _place_line(glyphs, line, left, cell_width, rules, chars, owners, padding)
        previous_y = line_y
    grid_text, grid_owners, bidi_runs = logical_order(
        "".join(chars), owners, glyphs, rules, layout=True
    )
    if bidi_runs:
        chars, owners = list(grid_text), list(grid_owners)
    if off_grid:
        tail = reading_order(glyphs, off_grid, rules, decisions=False).text
        if chars:
            chars.extend("\n\n")
            owners.extend((-1, -1))
        chars.extend(tail.text)
        owners.extend(tail.char_glyphs)
    return LayoutResult(
        text=TextResult(text="".join(chars), char_glyphs=tuple(owners)),
        rotation=rotation,
        cell_width=cell_width,
        cell_height=cell_height,
        left=left,
        lines=tuple(tuple(item[2] for item in line) for _, line in lines),
        off_grid=tuple(off_grid),
        bidi_runs=bidi_runs,
        capped=tuple(padding.capped),
    )


def grid_cells(glyphs: Sequence[Glyph], indices: Sequence[int]) -> tuple[float, float]:
    """(cell width, cell height). The cell height is the median size as drawn (the body text
    size: a few large headings must not stretch the grid); the cell width is the mean advance
    per unit of size (the font's average em fraction) times that size. A raw mean advance would
    let the headings widen every cell, and body lines would overrun the column beside them.
    Half the size when no glyph advances; 1 × 1 when nothing has a size."""
    ratios = []
    sizes = []
    for index in indices:
        glyph = glyphs[index]
        size = drawn_size(glyph)
        if size <= 0.0:
            continue
        sizes.append(size)
        if not is_whitespace_text(glyph.text):
            advance = distance(glyph.origin, glyph.glyph_end)
            if advance > 0.0:
                ratios.append(advance / len(glyph.text) / size)
    cell_height = statistics.median(sizes) if sizes else 1.0
    cell_width = (sum(ratios) / len(ratios) if ratios else 0.5) * cell_height
    return cell_width, cell_height


def fitted_cell_width(glyphs: Sequence[Glyph], lines: list[Line], cell_width: float) -> float:
    """Narrow the cell so that blocks of text fit the room they have on the page.

    A block written on the grid takes one cell per glyph; when its glyphs are narrower than
    the cell (a column set a point smaller than the body, a condensed face) it overruns the
    next block, and the columns no longer line up. The cell becomes the smaller of the mean
    cell and the width per glyph of the tightest tenth of the blocks of FIT_BLOCK_GLYPHS
    glyphs or more, never below half the mean cell."""
    per_glyph = []
    for _, line in lines:
        start = 0
        for position in range(1, len(line) + 1):
            if position < len(line):
                before = glyphs[line[position - 1][2]]
                current = glyphs[line[position][2]].origin
                gap = along(before.glyph_end, current, writing_direction(before))
                if gap <= BLOCK_GAP_CELLS * cell_width:
                    continue
            if position - start >= FIT_BLOCK_GLYPHS:
                last = glyphs[line[position - 1][2]]
                extent = distance(glyphs[line[start][2]].origin, last.glyph_end)
                per_glyph.append(extent / (position - start))
            start = position
    if not per_glyph:
        return cell_width
    per_glyph.sort()
    tight = per_glyph[len(per_glyph) // 10]
    return max(0.5 * cell_width, min(cell_width, tight))


def _place_line(
    glyphs: Sequence[Glyph],
    line: list[Placed],
    left: float,
    cell_width: float,
    rules: Rules,
    chars: list[str],
    owners: list[int],
    padding: _Padding,
) -> None:
    line_start = len(chars)
    previous = -1
    for x, _, index in line:
        glyph = glyphs[index]
        if glyph.text != "" and is_whitespace_text(glyph.text):
            continue
        cursor = len(chars) - line_start
        target = padding.column((x - left) / cell_width)
        if previous < 0:
            column = target
        else:
            before = glyphs[previous]
            direction = writing_direction(before)
            gap = word_gap(glyphs, previous, index, direction, quad_height(glyph.quad), rules)
            if gap.gap > BLOCK_GAP_CELLS * cell_width:
                column = max(target, cursor + 1)
            else:
                column = cursor + 1 if gap.space else cursor
        if column > cursor:
            spaces = padding.take(column - cursor)
            chars.extend(" " * spaces)
            owners.extend([-1] * spaces)
        text = glyph_output_text(glyph, rules)
        chars.extend(text)
        owners.extend([index] * len(text))
        previous = index
