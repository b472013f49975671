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
  more than ~3° (layout_direction_tolerance) off the dominant one (diagonal watermarks, rotated
  side notes), are not placed on the grid: they follow it, after a blank line, as reading-order
  text (spec §6), in drawing order. Scattering a diagonal word over the grid one letter per
  line helps no one.
- On a line, a gap wider than layout_block_gap_cells cells starts a new block, placed at its
  own grid column (at least one cell on): wide gaps become several spaces, table cells and
  columns line up. Inside a block, glyphs follow one another, with one space where the
  word-gap rule (§6) puts one, so wide letters never split a word and justified lines are not
  padded.
- Between consecutive baselines, floor(distance / cell height) − 1 blank lines: single and
  1.5 spacing give none, a gap of two lines or more gives blank lines.
- Drawn space glyphs write nothing: the grid position of the next glyph is the space, and
  one space at least where reading order writes one (a narrow space glyph leaves a gap under
  the §6 threshold; issue 26).
- Padding is bounded by the rules, so a glyph at x = 1e9 or a 1e9-unit page cannot write
  gigabytes of spaces: no glyph is padded past column layout_max_columns, no gap gets more
  than layout_max_blank_lines blank lines, and a page inserts at most layout_max_padding
  spaces and newlines in all (then one space or newline where padding was due). Each cap
  reached is named in `LayoutResult.capped`, and the decision log's warnings.

Every step runs over the glyphs' arrays (core.text.arrays; issue 9): directions, frame
positions, cells, lines and word gaps (core.text.pairs) for the whole page at once, then one
pass placing the glyphs on the grid (it and the pass cutting the lines compiled in
core/text/_grid.pyx, their Python paths kept). Records are made only for the few glyphs a
record function still reads (a degenerate writing direction, right-to-left runs). The numbers
are those the record functions compute, bit for bit (tests/text_reference.py keeps them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import (
    GlyphRows,
    few_records,
    hypots,
    median,
    quad_heights,
    writing_directions,
)
from glyphscope.core.text.bidi import BidiRun, logical_order
from glyphscope.core.text.chars import is_whitespace_text
from glyphscope.core.text.lines import (
    baseline_line_rows,
    frame_matrix,
    in_frame,
    rows_rotation,
)
from glyphscope.core.text.pairs import kerned_blanks, reading_pairs
from glyphscope.core.text.reading import TextResult, reading_order
from glyphscope.core.text.visible import drawn_sizes


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

    def targets(self, cells: np.ndarray) -> tuple[np.ndarray, int]:
        """The grid column each of `cells` (cells from the left edge) rounds to, at most the
        column cap (a coordinate too far to be a number of cells, 1e300, inf, nan, gets the
        cap too); and the position of the first capped one (len(cells) when none), whose
        warning cap_column records when the grid reaches it."""
        with np.errstate(invalid="ignore"):
            within = cells + 0.5 < self.columns
        capped = np.flatnonzero(~within)
        targets = np.full(len(cells), self.columns, dtype=np.int64)
        targets[within] = np.floor(cells[within] + 0.5)
        return targets, int(capped[0]) if len(capped) else len(cells)

    def fits(self) -> bool:
        """Whether the caps fit the compiled grid loop's 64-bit integers (any the rules allow
        but a number too large to pad to)."""
        return all(abs(cap) < 2**62 for cap in (self.columns, self.blank_lines, self.left))

    def cap_column(self) -> None:
        self.capped[f"layout: a glyph past column {self.columns} placed at it"] = None

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


class GridArrays(NamedTuple):
    """What layout computed over its glyphs that columns (§8) reads again, handed over by
    `layout_with_arrays`: per row of the order (row k is glyph `glyph_index[k]`) its quad, whether
    its text is white space and its own advance; and the grid's lines as rows, line after
    line (`line_rows`, `line_lengths` glyphs each)."""

    glyph_index: np.ndarray
    quads: np.ndarray
    whitespace: np.ndarray
    advances: np.ndarray
    line_rows: np.ndarray
    line_lengths: np.ndarray


class _Rows:
    """The glyphs of `order` as arrays, in the grid frame: what every step of the grid reads.
    Positions index the arrays (row k is glyph `index[k]`)."""

    __slots__ = (
        "rows",
        "index",
        "whitespace",
        "origin",
        "glyph_end",
        "ux",
        "uy",
        "x",
        "y",
        "_advances",
    )

    def __init__(self, rows: GlyphRows, ux: np.ndarray, uy: np.ndarray, rotation: int) -> None:
        self.rows = rows
        self.index = rows.index
        self.whitespace = rows.per_text(is_whitespace_text)
        self.origin, self.glyph_end = rows.points("origin"), rows.points("glyph_end")
        self.ux, self.uy = ux, uy
        self.x, self.y = in_frame(frame_matrix(rotation), self.origin[:, 0], self.origin[:, 1])
        self._advances: np.ndarray | None = None

    def advances(self) -> np.ndarray:
        """geometry.distance(origin, glyph_end) of every row: its own advance (made once)."""
        if self._advances is None:
            with np.errstate(all="ignore"):
                delta = self.glyph_end - self.origin
            self._advances = hypots(delta[:, 0], delta[:, 1])
        return self._advances

    def gaps(self, before: np.ndarray, after: np.ndarray) -> np.ndarray:
        """geometry.along from each `before` row's glyph end to the `after` row's origin, in
        the before row's writing direction: the §6 word gap."""
        end, origin = self.glyph_end[before], self.origin[after]
        with np.errstate(all="ignore"):
            return (origin[:, 0] - end[:, 0]) * self.ux[before] + (
                origin[:, 1] - end[:, 1]
            ) * self.uy[before]


def layout_text(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> TextResult:
    return layout(glyphs, order, rules).text


def layout(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> LayoutResult:
    return layout_with_arrays(glyphs, order, rules)[0]


def layout_with_arrays(
    glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules
) -> tuple[LayoutResult, GridArrays]:
    """layout() and the arrays it made that columns_text reads again (core.analysis hands
    them over, so that columns does not gather and measure the same glyphs once more)."""
    rows = GlyphRows(glyphs, order)
    ux, uy = writing_directions(rows)
    modes = rows.numbers("writing_mode")
    rotation = rows_rotation(modes, ux, uy)
    frame_ux, frame_uy = in_frame(frame_matrix(rotation), ux, uy)
    with np.errstate(invalid="ignore"):
        off = (modes == 1) | (frame_ux <= 0) | (np.abs(frame_uy) > rules.layout_direction_tolerance)
    grid = _Rows(rows, ux, uy, rotation)
    on = np.flatnonzero(~off)
    cell_width, cell_height = _grid_cells(grid, drawn_sizes(rows), on)
    left = min(grid.x[on].tolist(), default=0.0)
    line_ys, line_rows, starts = baseline_line_rows(
        grid.x[on], grid.y[on], quad_heights(rows.quads())[on], grid.index[on], rules
    )
    # The lines as one array of rows, line after line, and each line's length: no array per
    # line (a dense page has hundreds).
    line_rows = on[line_rows]
    line_lengths = np.diff(np.array([*starts, len(line_rows)], dtype=np.intp))
    cell_width = _fitted_cell_width(grid, line_rows, line_lengths, cell_width, rules)
    chars, owners, capped = _place(
        glyphs, grid, line_ys, line_rows, starts, left, cell_width, cell_height, rules
    )
    grid_text, grid_owners, bidi_runs = logical_order(
        chars, owners, few_records(glyphs), rules, layout=True
    )
    if bidi_runs:
        chars, owners = grid_text, list(grid_owners)
    off_grid = grid.index[off].tolist()
    if off_grid:
        tail = reading_order(glyphs, off_grid, rules, decisions=False).text
        if chars:
            chars += "\n\n"
            owners.extend((-1, -1))
        chars += tail.text
        owners.extend(tail.char_glyphs)
    line_glyphs = grid.index[line_rows].tolist()
    bounds = [*starts, len(line_glyphs)]
    arrays = GridArrays(
        grid.index, rows.quads(), grid.whitespace, grid.advances(), line_rows, line_lengths
    )
    result = LayoutResult(
        text=TextResult(text=chars, char_glyphs=tuple(owners)),
        rotation=rotation,
        cell_width=cell_width,
        cell_height=cell_height,
        left=left,
        lines=tuple(tuple(line_glyphs[start:end]) for start, end in pairwise(bounds)),
        off_grid=tuple(off_grid),
        bidi_runs=bidi_runs,
        capped=capped,
    )
    return result, arrays


def grid_cells(glyphs: Sequence[Glyph], indices: Sequence[int]) -> tuple[float, float]:
    """(cell width, cell height). The cell height is the median size as drawn (the body text
    size: a few large headings must not stretch the grid); the cell width is the mean advance
    per unit of size (the font's average em fraction) times that size. A raw mean advance would
    let the headings widen every cell, and body lines would overrun the column beside them.
    Half the size when no glyph advances (or every advance per size comes out 0: infinite
    sizes); 1 × 1 when nothing has a size."""
    rows = GlyphRows(glyphs, indices)
    grid = _Rows(rows, *writing_directions(rows), 0)
    return _grid_cells(grid, drawn_sizes(rows), np.arange(len(rows)))


def _grid_cells(grid: _Rows, sizes: np.ndarray, on: np.ndarray) -> tuple[float, float]:
    """grid_cells of the rows at positions `on`."""
    sizes = sizes[on]
    sized = ~(sizes <= 0.0)  # a nan size counts, as `size <= 0.0` lets it through
    on, sizes = on[sized], sizes[sized]
    advances = grid.advances()[on]
    measured = ~grid.whitespace[on] & (advances > 0.0)
    lengths = grid.rows.per_text(len, np.int64)[on[measured]]
    with np.errstate(all="ignore"):
        ratios = advances[measured] / lengths / sizes[measured]
    cell_height = median(sizes) if len(sizes) else 1.0
    # sum() of the Python floats, not numpy's pairwise sum: the very mean a loop takes.
    ratio = sum(ratios.tolist()) / len(ratios) if len(ratios) else 0.5
    # An infinite size makes a ratio of 0: when all are, the cell still needs a width.
    return ratio * cell_height or 0.5 * cell_height or 1.0, cell_height


def _fitted_cell_width(
    grid: _Rows, sequence: np.ndarray, lengths: np.ndarray, cell_width: float, rules: Rules
) -> float:
    """Narrow the cell so that blocks of text fit the room they have on the page.

    A block written on the grid takes one cell per glyph; when its glyphs are narrower than
    the cell (a column set a point smaller than the body, a condensed face) it overruns the
    next block, and the columns no longer line up. The cell becomes the smaller of the mean
    cell and the width per glyph of the tightest tenth of the blocks of layout_fit_block_glyphs
    glyphs or more, never below half the mean cell. A block ends at a line's end and at a gap
    (§6, from glyph end to origin) wider than layout_block_gap_cells cells. The lines are
    `sequence`, rows line after line, `lengths[n]` rows in line n."""
    if not len(lengths):
        return cell_width
    ends = np.cumsum(lengths)
    with np.errstate(invalid="ignore"):
        cut = ~(grid.gaps(sequence[:-1], sequence[1:]) <= rules.layout_block_gap_cells * cell_width)
    cut[ends[:-1] - 1] = True
    stops = np.concatenate((np.flatnonzero(cut) + 1, [len(sequence)]))
    starts = np.concatenate(([0], stops[:-1]))
    long = stops - starts >= rules.layout_fit_block_glyphs
    first, last = sequence[starts[long]], sequence[stops[long] - 1]
    with np.errstate(all="ignore"):
        delta = grid.glyph_end[last] - grid.origin[first]
        per_glyph = (hypots(delta[:, 0], delta[:, 1]) / (stops - starts)[long]).tolist()
    if not per_glyph:
        return cell_width
    per_glyph.sort()
    tight = per_glyph[len(per_glyph) // 10]
    return max(0.5 * cell_width, min(cell_width, tight))


def _place(
    glyphs: Sequence[Glyph],
    grid: _Rows,
    line_ys: list[float],
    line_rows: np.ndarray,
    starts: list[int],
    left: float,
    cell_width: float,
    cell_height: float,
    rules: Rules,
) -> tuple[str, list[int], tuple[str, ...]]:
    """The grid's text, its owners and the caps reached. Drawn blanks write nothing; a glyph
    goes to its grid column after a gap wider than layout_block_gap_cells cells, else it follows
    the glyph before, one space after it where the §6 word-gap rule puts one or reading order
    writes a drawn blank (_blank_spaces)."""
    blank = grid.whitespace & grid.rows.per_text(bool)
    kept = ~blank[line_rows]
    sequence = line_rows[kept]
    # How many of each line's rows are kept (every line holds a row).
    lengths = (
        np.add.reduceat(kept.astype(np.intp), starts) if len(starts) else np.empty(0, dtype=np.intp)
    )
    pairs = reading_pairs(glyphs, grid.index[sequence], rules)
    space = pairs.space | _blank_spaces(glyphs, grid, line_rows, kept, rules)
    padding = _Padding(rules)
    with np.errstate(all="ignore"):
        targets, first_capped = padding.targets((grid.x[sequence] - left) / cell_width)
    block = pairs.gap > rules.layout_block_gap_cells * cell_width
    write = _grid_text if padding.fits() else grid_text_in_python
    chars, owners = write(
        lengths,
        line_ys,
        cell_height,
        targets,
        first_capped,
        block.view(np.uint8),
        space.view(np.uint8),
        pairs.outputs,
        pairs.glyphs,
        padding,
    )
    return chars, owners, tuple(padding.capped)


def _blank_spaces(
    glyphs: Sequence[Glyph],
    grid: _Rows,
    line_rows: np.ndarray,
    kept: np.ndarray,
    rules: Rules,
) -> np.ndarray:
    """Per pair of consecutive kept rows (line_rows[kept]), whether reading order writes a
    drawn blank between the two: blanks lie between them on the line, and the three or more
    glyphs were drawn one after another in the order (left to right or right to left; blanks
    of another cell that only fall between them on the line write no space there). Such a
    pair is a word space in the grid too, though the gap left between the two glyphs may be
    under the §6 threshold (a narrow space glyph under a tall box). A lone blank the glyph
    drawn after it kerns back over (pairs.kerned_blanks) writes nothing, and is no space
    here."""
    dropped = np.cumsum(~kept)[kept]
    positions = np.flatnonzero(kept)
    first, last = positions[:-1], positions[1:]
    # How many steps along the line so far are no step of +1 (of -1) in the order.
    steps = np.diff(line_rows)
    ahead = np.concatenate(([0], np.cumsum(steps != 1)))
    back = np.concatenate(([0], np.cumsum(steps != -1)))
    drawn = (ahead[last] == ahead[first]) | (back[last] == back[first])
    between = (dropped[1:] > dropped[:-1]) & drawn
    if not rules.kerned_blanks_join:
        return between
    lone = np.flatnonzero(between & (last - first == 2))
    # Only a blank the glyph drawn after it moves back over by nearly half of it or more can
    # be kerned (pairs._join_kerned_blanks): kerned_blanks decides those few.
    blank_rows = line_rows[first[lone] + 1]
    after_rows = np.maximum(line_rows[first[lone]], line_rows[first[lone] + 2])
    end, origin = grid.glyph_end[blank_rows], grid.origin[after_rows]
    with np.errstate(all="ignore"):
        overlap = (end[:, 0] - origin[:, 0]) * grid.ux[blank_rows] + (
            end[:, 1] - origin[:, 1]
        ) * grid.uy[blank_rows]
        lone = lone[overlap > 0.49 * grid.advances()[blank_rows]]
    if len(lone):
        # The three in drawing order: before, blank, after.
        drawn_rows = np.sort(line_rows[first[lone][:, None] + np.arange(3)], axis=1)
        between[lone[kerned_blanks(glyphs, grid.index[drawn_rows], rules)]] = False
    return between


def grid_text_in_python(
    lengths: np.ndarray,
    line_ys: list[float],
    cell_height: float,
    targets: np.ndarray,
    first_capped: int,
    block: np.ndarray,
    space: np.ndarray,
    texts: list[str],
    owners_of: list[int],
    padding: _Padding,
) -> tuple[str, list[int]]:
    """The grid's characters and owners: the rows of `lengths[n]` glyphs per line in turn,
    line n at frame y line_ys[n]; row k written at grid column targets[k] when it opens its
    line or follows a wide gap (block[k - 1]), else after the row before, one space on where
    space[k - 1] (the §6 word-gap rule); texts[k] owned by owners_of[k]."""
    block_list, space_list, target_list = block.tolist(), space.tolist(), targets.tolist()
    pieces: list[str] = []
    owners: list[int] = []
    length = 0
    position = 0
    for number, count in enumerate(lengths.tolist()):
        if number:
            lines_down = (line_ys[number - 1] - line_ys[number]) / cell_height
            breaks = padding.take(padding.blank(lines_down) + 1)
            pieces.append("\n" * breaks)
            owners.extend([-1] * breaks)
            length += breaks
        line_start = length
        for k in range(position, position + count):
            cursor = length - line_start
            if k == first_capped:
                padding.cap_column()
            if k == position:
                column = target_list[k]
            elif block_list[k - 1]:
                column = max(target_list[k], cursor + 1)
            else:
                column = cursor + 1 if space_list[k - 1] else cursor
            if column > cursor:
                spaces = padding.take(column - cursor)
                pieces.append(" " * spaces)
                owners.extend([-1] * spaces)
                length += spaces
            text = texts[k]
            pieces.append(text)
            owners.extend([owners_of[k]] * len(text))
            length += len(text)
        position += count
    return "".join(pieces), owners


# grid_text_in_python compiled (_grid.pyx), when the extension was built.
_grid = compiled.load("glyphscope.core.text._grid")
_grid_text = grid_text_in_python if _grid is None else _grid.grid_text
