# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""pairs.pair_numbers_in_python compiled: the numbers of spec §6 for every consecutive pair of
an order in one loop, the IEEE operations numpy makes element-wise in the same order (built
with contraction off, so no fused multiply-add changes a last bit), lengths as arrays.hypots
takes them (math.hypot off both axes). tests/test_text_arrays.py holds the two together."""

from libc.math cimport fabs

import math

import numpy as np


cdef inline double _length(double dx, double dy, object hypot):
    """arrays.hypots of one vector: the other side's magnitude when one is zero."""
    if dy == 0.0:
        return fabs(dx)
    if dx == 0.0:
        return fabs(dy)
    return hypot(dx, dy)


def pair_numbers(
    const double[:, ::1] origin,
    const double[:, ::1] glyph_end,
    const double[:, :, ::1] quads,
    const Py_ssize_t[::1] rows,
    const unsigned char[:, ::1] classes,
    const double[::1] font_size,
    double line_break_ratio,
    double space_gap_ratio,
    double space_height_cap,
    double space_height_cap_limit,
    double turn_limit,
    bint backward_jump_spaces,
    object degenerate_direction,
):
    """Per pair k of positions k, k + 1 (position k is row rows[k] of the arrays, its
    whitespace, first and last character CJK the columns of classes[k]): projection,
    break_threshold, broke, gap, gap_threshold and reason as pairs.pair_numbers_in_python
    makes them (`turn_limit` is pairs.turn_limit of the rules). `degenerate_direction(k)` is
    writing_direction of position k when its quad edge 0→1 has no length."""
    cdef Py_ssize_t count = rows.shape[0], pairs = count - 1 if count > 1 else 0, k, r, s
    cdef double dx, dy, length, ux, uy, before, after, projection, threshold, gap, gap_limit
    cdef double size, cap, height, from_origin, from_end, behind
    directions_array = np.empty((count, 2), dtype=np.float64)
    heights_array = np.empty(count, dtype=np.float64)
    cdef double[:, ::1] directions = directions_array
    cdef double[::1] heights = heights_array
    projection_out = np.empty(pairs, dtype=np.float64)
    break_out = np.empty(pairs, dtype=np.float64)
    broke_out = np.empty(pairs, dtype=np.bool_)
    gap_out = np.empty(pairs, dtype=np.float64)
    gap_threshold_out = np.empty(pairs, dtype=np.float64)
    reason_out = np.empty(pairs, dtype=np.int64)
    cdef double[::1] projections = projection_out, breaks = break_out, gaps = gap_out
    cdef double[::1] gap_thresholds = gap_threshold_out
    cdef unsigned char[::1] broken = broke_out.view(np.uint8)
    cdef long long[::1] reasons = reason_out
    hypot = math.hypot
    for k in range(count):
        r = rows[k]
        # arrays.writing_directions: the quad's edge 0→1 over its length.
        dx = quads[r, 1, 0] - quads[r, 0, 0]
        dy = quads[r, 1, 1] - quads[r, 0, 1]
        length = _length(dx, dy, hypot)
        if length == 0.0:
            directions[k, 0], directions[k, 1] = degenerate_direction(k)
        else:
            directions[k, 0], directions[k, 1] = dx / length, dy / length
        # arrays.quad_heights: the edge 0→3.
        heights[k] = _length(quads[r, 3, 0] - quads[r, 0, 0], quads[r, 3, 1] - quads[r, 0, 1], hypot)
    for k in range(pairs):
        r, s = rows[k], rows[k + 1]
        ux, uy = directions[k, 0], directions[k, 1]
        before, after = heights[k], heights[k + 1]
        projection = (origin[s, 1] - origin[r, 1]) * ux - (origin[s, 0] - origin[r, 0]) * uy
        threshold = line_break_ratio * (after if after > before else before)
        gap = (origin[s, 0] - glyph_end[r, 0]) * ux + (origin[s, 1] - glyph_end[r, 1]) * uy
        # pair_numbers_in_python's text height: the box, capped at space_height_cap × the size.
        size = font_size[s]
        cap = space_height_cap * size
        if cap > 0.0 and cap < after and after <= space_height_cap_limit * size:
            height = cap
        else:
            height = after
        gap_limit = space_gap_ratio * height
        projections[k], breaks[k], broken[k] = projection, threshold, fabs(projection) > threshold
        gaps[k], gap_thresholds[k] = gap, gap_limit
        # The first condition that holds gives the reason (pairs.REASONS positions).
        if classes[k, 0] or classes[k + 1, 0]:
            reasons[k] = 3
        elif classes[k, 2] and classes[k + 1, 1]:
            reasons[k] = 4
        elif ux * directions[k + 1, 0] + uy * directions[k + 1, 1] < turn_limit:
            reasons[k] = 6
        elif gap < 0.0:
            from_origin = (origin[r, 0] - origin[s, 0]) * ux + (origin[r, 1] - origin[s, 1]) * uy
            from_end = (origin[r, 0] - glyph_end[s, 0]) * ux + (origin[r, 1] - glyph_end[s, 1]) * uy
            behind = from_end if from_end < from_origin else from_origin
            if backward_jump_spaces and height > 0.0 and behind > gap_limit:
                reasons[k] = 5
            else:
                reasons[k] = 2
        elif height > 0.0 and gap > gap_limit:
            reasons[k] = 0
        else:
            reasons[k] = 1
    return projection_out, break_out, broke_out, gap_out, gap_threshold_out, reason_out
