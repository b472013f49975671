"""Baseline lines: glyphs grouped into lines, top to bottom, in the page's writing frame.

One grouping for every mode that reads a page line by line: layout text (spec §7, and through
its grid the columns of §8) and the untagged tail of structure order (§9). Both work in the
frame of the page's dominant writing direction, snapped to a multiple of 90°, so a page whose
content is drawn turned (text running up a /Rotate 90 page) is read along its lines, not across
them, and the structure tail of such a page reads as its layout text does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from glyphscope.core.geometry import Matrix, apply_vector, quad_height
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.visible import writing_direction

# A glyph placed in the frame: (frame x, frame y, glyph index).
Placed = tuple[float, float, int]
Line = tuple[float, list[Placed]]

# cos and sin of the multiples of 90°, exact.
_COS_SIN = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}


def dominant_rotation(glyphs: Sequence[Glyph], order: Sequence[int]) -> int:
    """The multiple of 90° most horizontal-mode glyphs are written in (0 when none)."""
    counts = [0, 0, 0, 0]
    for index in order:
        glyph = glyphs[index]
        if glyph.writing_mode == 0:
            ux, uy = writing_direction(glyph)
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
