"""The text stages as they were before they ran over arrays (issue 9), kept as the oracle the
array path is compared with: the visible-box filter glyph by glyph and reading order pair by
pair, through the record functions (has_finite_geometry, line_break, word_gap)."""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Callable, Collection, Sequence

from glyphscope.core.geometry import (
    Matrix,
    along,
    apply_vector,
    distance,
    quad_centre,
    quad_height,
)
from glyphscope.core.records import Glyph, Quad, has_finite_geometry
from glyphscope.core.rules import Rules
from glyphscope.core.structure import order
from glyphscope.core.structure.tree import McidKey, ObjGen
from glyphscope.core.text import hidden, reading
from glyphscope.core.text.bidi import logical_order
from glyphscope.core.text.chars import glyph_output_text, is_whitespace_text
from glyphscope.core.text.columns import (
    ColumnBand,
    ColumnsResult,
    Interval,
    band_lines,
    merge_ink,
)
from glyphscope.core.text.layout import (
    BLOCK_GAP_CELLS,
    FIT_BLOCK_GLYPHS,
    GRID_DIRECTION_TOLERANCE,
    LayoutResult,
)
from glyphscope.core.text.reading import TextResult, word_gap
from glyphscope.core.text.visible import (
    DroppedGlyph,
    DropReason,
    drawn_size,
    writing_direction,
)


def box_filter(glyphs: Sequence[Glyph], box) -> tuple[list[int], list[DroppedGlyph]]:
    llx, lly, urx, ury = box
    inside: list[int] = []
    outside: list[DroppedGlyph] = []
    for index, glyph in enumerate(glyphs):
        cx, cy = quad_centre(glyph.quad)
        if llx <= cx <= urx and lly <= cy <= ury and has_finite_geometry(glyph):
            inside.append(index)
        elif not has_finite_geometry(glyph):
            outside.append(DroppedGlyph(index=index, reason=DropReason.NON_FINITE_GEOMETRY))
        else:
            outside.append(
                DroppedGlyph(index=index, reason=DropReason.OUTSIDE_VISIBLE_BOX, box=box)
            )
    return inside, outside


def reading_order(
    glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules
) -> reading.ReadingResult:
    builder = reading.TextBuilder()
    gaps: list[reading.GapDecision] = []
    breaks: list[reading.LineBreakDecision] = []
    columns: list[reading.VerticalColumn] = []
    vertical_run: list[int] = []
    previous = -1
    previous_direction = (1.0, 0.0)
    previous_height = 0.0
    for current in order:
        glyph = glyphs[current]
        if glyph.writing_mode == 1:
            vertical_run.append(current)
            continue
        if vertical_run:
            builder.newline()
            columns.extend(reading._read_vertical(glyphs, vertical_run, rules, builder, gaps))
            vertical_run = []
            builder.newline()
            previous = -1
        direction = writing_direction(glyph)
        height = quad_height(glyph.quad)
        if previous >= 0:
            decision = reading.line_break(
                glyphs, previous, current, previous_direction, previous_height, height, rules
            )
            breaks.append(decision)
            if decision.broke:
                builder.newline()
            else:
                gap = reading.word_gap(glyphs, previous, current, previous_direction, height, rules)
                gaps.append(gap)
                if gap.space:
                    builder.space()
        reading._write(builder, current, glyph, rules)
        previous, previous_direction, previous_height = current, direction, height
    if vertical_run:
        builder.newline()
        columns.extend(reading._read_vertical(glyphs, vertical_run, rules, builder, gaps))
    visual = builder.result()
    text, owners, bidi_runs = logical_order(visual.text, visual.char_glyphs, glyphs, rules)
    return reading.ReadingResult(
        text=visual if text is visual.text else reading.TextResult(text, owners),
        gaps=tuple(gaps),
        line_breaks=tuple(breaks),
        vertical_columns=tuple(columns),
        bidi_runs=bidi_runs,
    )


# Layout (§7), baseline lines and columns (§8) record by record, as before issue 9 put them
# over arrays. Two changes, where the old code raised: a direction that is not a number (a
# quad whose edge overflows) does not vote for the page's rotation (round(nan) raised
# ValueError); a cell whose width comes out 0 (every measured size infinite) takes half the
# cell height (the division by it raised ZeroDivisionError).

_COS_SIN = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
Placed = tuple[float, float, int]
Line = tuple[float, list[Placed]]


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


def dominant_rotation(glyphs: Sequence[Glyph], order: Sequence[int]) -> int:
    """The multiple of 90° most horizontal-mode glyphs are written in (0 when none)."""
    counts = [0, 0, 0, 0]
    for index in order:
        glyph = glyphs[index]
        ux, uy = writing_direction(glyph)
        if glyph.writing_mode == 0 and not (math.isnan(ux) or math.isnan(uy)):
            counts[round(math.degrees(math.atan2(uy, ux)) / 90.0) % 4] += 1
    return 90 * counts.index(max(counts))


def frame_matrix(rotation: int) -> Matrix:
    """User space → the frame of a writing direction at `rotation` degrees (a multiple of 90):
    the turn by -rotation (§8.3.4), so that direction becomes +x and its lines' up +y. A turn
    about the origin has no translation: `apply_vector` maps points as well as directions."""
    cos_r, sin_r = _COS_SIN[rotation]
    return (cos_r, -sin_r, sin_r, cos_r, 0.0, 0.0)


def baseline_lines(glyphs: Sequence[Glyph], placed: Sequence[Placed], rules: Rules) -> list[Line]:
    """Lines top to bottom as (frame y of the line's first baseline, its glyphs): a glyph whose
    baseline lies within line_break_ratio × the larger box height below the line's first
    (highest) baseline joins it (the §6 line-break rule, so a superscript and a wobbly
    baseline stay on their line); each line sorted by frame x, glyph index on ties."""
    ordered = sorted(placed, key=lambda item: (-item[1], item[0], item[2]))
    lines: list[Line] = []
    line_y = line_height = 0.0
    for item in ordered:
        height = quad_height(glyphs[item[2]].quad)
        if lines and line_y - item[1] <= rules.line_break_ratio * max(line_height, height):
            lines[-1][1].append(item)
            line_height = max(line_height, height)
        else:
            lines.append((item[1], [item]))
            line_y, line_height = item[1], height
    for _, line in lines:
        line.sort(key=lambda item: (item[0], item[2]))
    return lines


def line_order(
    glyphs: Sequence[Glyph], indices: Sequence[int], rotation: int, rules: Rules
) -> list[int]:
    """`indices` line by line in the frame of `rotation`: top to bottom, each left to right."""
    frame = frame_matrix(rotation)
    placed = [(*apply_vector(frame, *glyphs[index].origin), index) for index in indices]
    return [item[2] for _, line in baseline_lines(glyphs, placed, rules) for item in line]


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
        tail = reading.reading_order(glyphs, off_grid, rules, decisions=False).text
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
    return cell_width or 0.5 * cell_height or 1.0, cell_height


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


# Columns (§8) record by record.


def _reading_text(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> TextResult:
    return reading.reading_order(glyphs, order, rules, decisions=False).text


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
        text = reading if reading is not None else _reading_text(glyphs, order, rules)
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
        text = _reading_text(glyphs, group, rules)
        if chars and text.text:
            chars.append("\n")
            owners.append(-1)
        chars.extend(text.text)
        owners.extend(text.char_glyphs)
    return TextResult(text="".join(chars), char_glyphs=tuple(owners))


# Structure order's buckets (§9) glyph by glyph, as before they were filled from the MCID
# column.


def order_glyphs(
    mcid_keys: Sequence[McidKey],
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None = None,
) -> order.StructureOrder:
    """Replay `visible` glyphs in the walk's MCID order, then the untagged geometric tail.

    `form_chain(form_path)` gives the objgens of the forms on a glyph's form path, innermost
    first; needed only when some key names a form (MCR /Stm).
    """
    stm_forms = {form for form, _ in mcid_keys if form is not None}
    buckets: dict[McidKey, list[int]] = {key: [] for key in mcid_keys}
    tail: list[int] = []
    for index in visible:
        glyph = glyphs[index]
        key = _glyph_key(glyph, stm_forms, form_chain)
        bucket = buckets.get(key) if key is not None else None
        if bucket is None:
            tail.append(index)
        else:
            bucket.append(index)
    glyph_order: list[int] = []
    spans: dict[int, tuple[int, int]] = {}
    form_spans: dict[tuple[ObjGen, int], tuple[int, int]] = {}
    for key in mcid_keys:
        start = len(glyph_order)
        glyph_order.extend(sorted(buckets[key], key=lambda i: glyphs[i].draw_order))
        form, mcid = key
        if form is None:
            spans[mcid] = (start, len(glyph_order))
        else:
            form_spans[(form, mcid)] = (start, len(glyph_order))
    # The tail is read in baseline lines, in the frame layout text uses for the whole page:
    # on a page drawn turned it follows the page's lines rather than crossing them.
    rotation = dominant_rotation(glyphs, visible) if tail else 0
    untagged = line_order(glyphs, tail, rotation, rules)
    return order.StructureOrder(
        glyph_order=tuple(glyph_order + untagged),
        mcid_order=tuple(mcid for form, mcid in mcid_keys if form is None),
        spans=spans,
        untagged=tuple(untagged),
        total=len(visible),
        form_spans=form_spans,
    )


def _glyph_key(
    glyph: Glyph,
    stm_forms: set[ObjGen],
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None,
) -> McidKey | None:
    if glyph.mcid is None:
        return None
    if glyph.form_path and stm_forms and form_chain is not None:
        for form in form_chain(glyph.form_path):
            if form in stm_forms:
                return (form, glyph.mcid)
    return (None, glyph.mcid)


# Hidden text (core.text.hidden) glyph by glyph, as before it ran over arrays.


def hidden_glyphs(
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, tuple[float, float, float, float] | None]],
    dropped: Sequence[DroppedGlyph],
    rules: Rules,
    no_ink: Collection[int] = (),
) -> tuple[hidden.HiddenGlyph, ...]:
    outside = {d.index for d in dropped if d.reason == hidden.OUTSIDE_VISIBLE_BOX}
    duplicates = {d.index for d in dropped if d.reason != hidden.OUTSIDE_VISIBLE_BOX}
    starts = [start for start, _ in clips]
    found: list[hidden.HiddenGlyph] = []
    for index, glyph in enumerate(glyphs):
        if index in duplicates or (glyph.text and is_whitespace_text(glyph.text)):
            continue
        reasons = []
        if glyph.render_mode in (3, 7):
            reasons.append(hidden.INVISIBLE_RENDER_MODE)
        slot = bisect.bisect_right(starts, index) - 1
        clip = clips[slot][1] if slot >= 0 else None
        if clip is not None:
            x, y = quad_centre(glyph.quad)
            if not (clip[0] <= x <= clip[2] and clip[1] <= y <= clip[3]):
                reasons.append(hidden.CLIPPED)
        if index in no_ink:
            reasons.append(hidden.NO_INK)
        if quad_height(glyph.quad) < rules.hidden_tiny_height:
            reasons.append(hidden.TINY)
        if index in outside:
            reasons.append(hidden.OUTSIDE_VISIBLE_BOX)
        if reasons:
            found.append(hidden.HiddenGlyph(index, tuple(reasons)))
    return tuple(found)
