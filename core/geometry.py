"""Affine matrices and points of PDF user space (§8.3.3), done once for the whole engine.

A matrix is the six numbers [a b c d e f] of §8.3.4 as a tuple; a point is (x, y).
`multiply(m1, m2)` is m1 × m2 in the spec's row-vector convention: apply m1, then m2.
"""

from __future__ import annotations

import math

from glyphscope.core.records import Glyph, Point, Quad

Matrix = tuple[float, float, float, float, float, float]
# A rectangle as PDF writes one (§7.9.5): x0 y0 x1 y1, normalised or not.
Rect = tuple[float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m1: Matrix, m2: Matrix) -> Matrix:
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def apply_vector(m: Matrix, x: float, y: float) -> Point:
    """Transform a direction (no translation)."""
    a, b, c, d, _, _ = m
    return (a * x + c * y, b * x + d * y)


def translate(tx: float, ty: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, tx, ty)


def invert(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if det == 0:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def distance(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


def along(p: Point, q: Point, direction: Point) -> float:
    """How far q lies from p along a unit direction (the move p → q projected on it)."""
    return (q[0] - p[0]) * direction[0] + (q[1] - p[1]) * direction[1]


def across(p: Point, q: Point, direction: Point) -> float:
    """How far q lies from p across a unit direction, positive to its left (on its normal
    turned a quarter counter-clockwise: "up" for a left-to-right baseline)."""
    return (q[1] - p[1]) * direction[0] - (q[0] - p[0]) * direction[1]


def quad_centre(quad: Quad) -> Point:
    """Centre of a parallelogram quad: the midpoint of its diagonal 0–2."""
    return ((quad[0][0] + quad[2][0]) * 0.5, (quad[0][1] + quad[2][1]) * 0.5)


def quad_height(quad: Quad) -> float:
    """Ascent-to-descent extent of a glyph quad (edge 0→3)."""
    return math.hypot(quad[3][0] - quad[0][0], quad[3][1] - quad[0][1])


def quad_bounds(quad: Quad) -> Rect:
    xs = [p[0] for p in quad]
    ys = [p[1] for p in quad]
    return (min(xs), min(ys), max(xs), max(ys))


def normalize_rect(rect: Rect) -> Rect:
    """A rectangle's corners as (llx, lly, urx, ury) whichever pair was written (§7.9.5)."""
    x0, y0, x1, y1 = rect
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def intersect_rect(r1: Rect, r2: Rect) -> Rect:
    """Intersection of two normalised rectangles; empty intersections collapse to a line."""
    x0, y0 = max(r1[0], r2[0]), max(r1[1], r2[1])
    x1, y1 = min(r1[2], r2[2]), min(r1[3], r2[3])
    return (x0, y0, max(x0, x1), max(y0, y1))


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
