"""Visible glyphs (spec §3–§5): the page's painted glyphs minus those whose box centre lies
outside the visible box, minus fake-bold and overprint duplicates. Every text mode reads this.

The box test runs first, then duplicate removal among the glyphs that survived it: a copy whose
centre straddles the crop edge then cannot be removed in favour of an original that the box
test drops anyway, which would lose the character altogether.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.geometry import (
    Rect,
    across,
    along,
    normalize_rect,
    quad_centre,
    quad_height,
)
from glyphscope.core.records import Glyph, StrEnum, has_finite_geometry
from glyphscope.core.rules import Rules
from glyphscope.core.text.chars import is_blank_text


class DropReason(StrEnum):
    """Why a painted glyph is not visible (spec §4, §5)."""

    OUTSIDE_VISIBLE_BOX = "outside_visible_box"
    DUPLICATE = "duplicate"
    NON_FINITE_GEOMETRY = "non_finite_geometry"


class GlyphStatus(StrEnum):
    """What the visible stage made of a painted glyph: visible, or why it was dropped."""

    VISIBLE = "visible"
    OUTSIDE_VISIBLE_BOX = DropReason.OUTSIDE_VISIBLE_BOX.value
    DUPLICATE = DropReason.DUPLICATE.value
    NON_FINITE_GEOMETRY = DropReason.NON_FINITE_GEOMETRY.value


@dataclass(frozen=True, slots=True)
class DroppedGlyph:
    """Why glyph `index` is not visible.

    reason OUTSIDE_VISIBLE_BOX: its quad centre lies outside `box`.
    reason DUPLICATE: it repeats glyph `kept` (drawn earlier); `along` and `across` are the
    reason NON_FINITE_GEOMETRY: its size or a coordinate is nan or infinite (a huge Tm), so
    it has no place on the page at all.
    offset of its origin from kept's origin in kept's baseline frame, `size_ratio` its size as
    drawn over kept's.
    """

    index: int
    reason: DropReason
    kept: int | None = None
    along: float | None = None
    across: float | None = None
    size_ratio: float | None = None
    box: Rect | None = None


@dataclass(frozen=True, slots=True)
class VisibleResult:
    visible: tuple[int, ...]
    dropped: tuple[DroppedGlyph, ...]


def writing_direction(glyph: Glyph) -> tuple[float, float]:
    """Unit vector along the glyph's writing direction (quad edge 0→1).

    Zero-width glyphs have a degenerate 0→1 edge; fall back on the pen movement, then on the
    0→3 edge turned a quarter clockwise, then on the writing mode's nominal direction (§9.7.4.3).
    """
    quad = glyph.quad
    dx, dy = quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]
    length = math.hypot(dx, dy)
    if length == 0.0:
        for end in (glyph.glyph_end, glyph.baseline_end):
            dx, dy = end[0] - glyph.origin[0], end[1] - glyph.origin[1]
            length = math.hypot(dx, dy)
            if length > 0.0:
                break
    if length == 0.0:
        dx, dy = quad[3][1] - quad[0][1], quad[0][0] - quad[3][0]
        length = math.hypot(dx, dy)
    if length == 0.0:
        return (0.0, -1.0) if glyph.writing_mode == 1 else (1.0, 0.0)
    return (dx / length, dy / length)


def drawn_size(glyph: Glyph) -> float:
    """Size as drawn in user space (the record's font_size is Tf scaled by the text rendering
    matrix, §9.4.4); the quad's 0→3 extent when the record carries none."""
    return glyph.font_size if glyph.font_size > 0.0 else quad_height(glyph.quad)


def visible_glyphs(glyphs: Sequence[Glyph], visible_box: Rect, rules: Rules) -> VisibleResult:
    """Indices of the visible glyphs in drawing order, and a record for every dropped one."""
    box = normalize_rect(visible_box)
    inside, outside = _box_filter(glyphs, box)
    duplicates = _duplicates(glyphs, inside, rules)
    dropped_at = {d.index for d in duplicates}
    visible = tuple(i for i in inside if i not in dropped_at)
    dropped = sorted(outside + duplicates, key=lambda d: d.index)
    return VisibleResult(visible=visible, dropped=tuple(dropped))


def _box_filter(glyphs: Sequence[Glyph], box: Rect) -> tuple[list[int], list[DroppedGlyph]]:
    """§14.11.2: a glyph is kept when its quad centre (midpoint of diagonal 0–2) is inside;
    one whose geometry is not finite is dropped for that, before the box is asked."""
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


def _duplicates(glyphs: Sequence[Glyph], candidates: list[int], rules: Rules) -> list[DroppedGlyph]:
    """Spec §5 in n log n: stable-sort the non-blank, resolved glyphs by (Unicode, origin x,
    draw order) and compare each only with the glyphs after it that share its Unicode and lie
    within duplicate_scan_window × size in x. A scan from A that meets a match drawn before A
    drops A and stops, so the earlier glyph carries on the comparisons and the first-drawn of a
    triple strike survives."""
    scan = [i for i in candidates if not is_blank_text(glyphs[i].text) and glyphs[i].text != ""]
    scan.sort(key=lambda i: (glyphs[i].text, glyphs[i].origin[0]))
    texts = [glyphs[i].text for i in scan]
    xs = [glyphs[i].origin[0] for i in scan]
    ys = [glyphs[i].origin[1] for i in scan]
    sizes = [drawn_size(glyphs[i]) for i in scan]
    window = rules.duplicate_scan_window
    # A match lies within hypot(along, across) × the first glyph's size in any frame, so a
    # larger y offset can be skipped without the frame test: same outcome, far cheaper when one
    # character repeats at one x on many lines (a column of digits).
    radius = math.hypot(rules.duplicate_along, rules.duplicate_across)
    dropped_flags = [False] * len(scan)
    dropped: list[DroppedGlyph] = []
    count = len(scan)
    for a in range(count):
        if dropped_flags[a]:
            continue
        text_a, y_a, size_a = texts[a], ys[a], sizes[a]
        reach = xs[a] + window * size_a
        b = a + 1
        while b < count and texts[b] == text_a and xs[b] <= reach:
            near = abs(ys[b] - y_a) < radius * (size_a if size_a > sizes[b] else sizes[b])
            if near and not dropped_flags[b]:
                first, later = (scan[a], scan[b]) if scan[a] < scan[b] else (scan[b], scan[a])
                record = _match(glyphs, first, later, rules)
                if record is not None:
                    dropped.append(record)
                    if later == scan[a]:
                        dropped_flags[a] = True
                        break
                    dropped_flags[b] = True
            b += 1
    return dropped


def _match(glyphs: Sequence[Glyph], first: int, later: int, rules: Rules) -> DroppedGlyph | None:
    """The record dropping `later` as a copy of `first`, or None when they are two characters.
    Offsets are measured in the first glyph's own baseline frame so rotated text gets the same
    tolerances as horizontal text."""
    kept, copy = glyphs[first], glyphs[later]
    if kept.writing_mode != copy.writing_mode:
        return None
    size = drawn_size(kept)
    if size <= 0.0:
        return None
    size_ratio = drawn_size(copy) / size
    if abs(size_ratio - 1.0) > rules.duplicate_size_tolerance:
        return None
    direction = writing_direction(kept)
    offset_along = along(kept.origin, copy.origin, direction)
    offset_across = across(kept.origin, copy.origin, direction)
    if (
        abs(offset_along) >= rules.duplicate_along * size
        or abs(offset_across) >= rules.duplicate_across * size
    ):
        return None
    return DroppedGlyph(
        index=later,
        reason=DropReason.DUPLICATE,
        kept=first,
        along=offset_along,
        across=offset_across,
        size_ratio=size_ratio,
    )
