"""The text stages as they were before they ran over arrays (issue 9), kept as the oracle the
array path is compared with: the visible-box filter glyph by glyph and reading order pair by
pair, through the record functions (has_finite_geometry, line_break, word_gap)."""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.geometry import quad_centre, quad_height
from glyphscope.core.records import Glyph, has_finite_geometry
from glyphscope.core.rules import Rules
from glyphscope.core.text import reading
from glyphscope.core.text.bidi import logical_order
from glyphscope.core.text.visible import DroppedGlyph, DropReason, writing_direction


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
