# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The visible stage's loops compiled: visible._scan_duplicates (spec §5), the scan over the
sorted candidates, its near test, _match and the first-drawn-wins decisions in one loop, with
_match's numbers bit for bit (built with contraction off, so no fused multiply-add changes a
last bit), and the visible-box test (§4), visible._box_in_python. The Python functions named
are the references: tests/test_visible_arrays.py and tests/test_text_arrays.py hold each loop
against its reference."""

from libc.math cimport fabs, isfinite
from libc.stdlib cimport qsort

import math

import numpy as np


cdef int _ascending(const void *left, const void *right) noexcept nogil:
    cdef Py_ssize_t a = (<const Py_ssize_t *>left)[0], b = (<const Py_ssize_t *>right)[0]
    return (a > b) - (a < b)


cdef Py_ssize_t _band_start(
    const long long[::1] texts,
    const double[::1] bands,
    const Py_ssize_t[::1] positions,
    long long text,
    double band,
    Py_ssize_t position,
) noexcept nogil:
    """The first place in the band order whose (text, band, scan position) is not below
    (text, band, position): a binary search."""
    cdef Py_ssize_t low = 0, high = texts.shape[0], middle
    while low < high:
        middle = (low + high) // 2
        if texts[middle] < text or (
            texts[middle] == text
            and (bands[middle] < band or (bands[middle] == band and positions[middle] < position))
        ):
            low = middle + 1
        else:
            high = middle
    return low


def find_copies(
    const Py_ssize_t[::1] order,
    const Py_ssize_t[::1] index,
    const double[:, ::1] origins,
    const double[::1] sizes,
    const long long[::1] texts,
    const long long[::1] modes,
    const double[:, :, ::1] quads,
    const Py_ssize_t[::1] quad_rows,
    double window,
    double radius,
    double along_limit,
    double across_limit,
    double size_tolerance,
    Py_ssize_t direct_limit,
    object band_order,
    object degenerate_direction,
):
    """The duplicates of the candidates (rows 0..n-1 of the arrays), as _scan_duplicates finds
    them: `order` the rows in the scan's order (text id, origin x, drawing order), `index`
    each row's glyph index, `quads[quad_rows[row]]` its quad. From each glyph A not yet
    dropped, the glyphs after it that share its text and lie within its x reach are its
    candidates; when there are more than `direct_limit` of them, only those in A's band of y
    and the two on each side are looked up: `band_order()`, called once when first needed,
    gives each row's band (floor(y / band height)) and the rows ordered by text, band and
    scan position, or None when the bands cannot be numbered (then every glyph passes its
    candidates itself). `degenerate_direction(row)` is writing_direction of a glyph whose quad
    edge 0→1 has no length.

    Returns the dropped and kept glyph indices, offsets along and across and size ratios of
    the copies in the order the scan finds them."""
    cdef Py_ssize_t count = order.shape[0], taken = 0, p, q, b, r, k, i, found, first, later
    cdef Py_ssize_t step
    cdef const Py_ssize_t[::1] by_band
    cdef long long text
    cdef double reach, y, size, other, kept_size, dx, dy, length, ux, uy, ratio, along, across, band
    cdef bint scan_ended, banded = False
    cdef const double[::1] bands
    # Per scan position: x, y, size, text, row; whether dropped, whether its direction is known.
    xs_array = np.empty(count, dtype=np.float64)
    ys_array = np.empty(count, dtype=np.float64)
    sizes_array = np.empty(count, dtype=np.float64)
    texts_array = np.empty(count, dtype=np.int64)
    positions_array = np.empty(count, dtype=np.intp)
    flags_array = np.zeros(count, dtype=np.uint8)
    known_array = np.zeros(count, dtype=np.uint8)
    directions_array = np.empty((count, 2), dtype=np.float64)
    band_texts_array = np.empty(count, dtype=np.int64)
    band_values_array = np.empty(count, dtype=np.float64)
    band_positions_array = np.empty(count, dtype=np.intp)
    near_array = np.empty(count, dtype=np.intp)
    cdef double[::1] xs = xs_array, ys = ys_array, sized = sizes_array
    cdef long long[::1] scan_texts = texts_array, band_texts = band_texts_array
    cdef Py_ssize_t[::1] position_of = positions_array, band_positions = band_positions_array
    cdef Py_ssize_t[::1] near = near_array
    cdef double[::1] band_values = band_values_array
    cdef unsigned char[::1] dropped = flags_array, known = known_array
    cdef double[:, ::1] directions = directions_array
    dropped_out = np.empty(count, dtype=np.intp)
    kept_out = np.empty(count, dtype=np.intp)
    numbers_out = np.empty((count, 3), dtype=np.float64)
    cdef Py_ssize_t[::1] dropped_rows = dropped_out, kept_rows = kept_out
    cdef double[:, ::1] numbers = numbers_out
    hypot = math.hypot

    for p in range(count):
        r = order[p]
        xs[p], ys[p], sized[p], scan_texts[p] = origins[r, 0], origins[r, 1], sizes[r], texts[r]
        position_of[r] = p

    for p in range(count):
        if dropped[p]:
            continue
        text, y, size = scan_texts[p], ys[p], sized[p]
        reach = xs[p] + window * size
        # The scan's own candidates when they are few, else those of the neighbouring bands.
        q = p + 1
        while q < count and q - p <= direct_limit and scan_texts[q] == text and xs[q] <= reach:
            q += 1
        scan_ended = q == count or scan_texts[q] != text or xs[q] > reach
        if not scan_ended and not banded:
            banded = True
            numbered = band_order()
            if numbered is None:
                direct_limit = count
                while q < count and scan_texts[q] == text and xs[q] <= reach:
                    q += 1
                scan_ended = True
            else:
                bands = numbered[0]
                by_band = numbered[1]
                for i in range(count):
                    r = by_band[i]
                    band_texts[i], band_values[i] = texts[r], bands[r]
                    band_positions[i] = position_of[r]
        found = 0
        if scan_ended:
            for b in range(p + 1, q):
                near[found] = b
                found += 1
        else:
            band = bands[order[p]]
            for step in range(-2, 3):
                i = _band_start(
                    band_texts, band_values, band_positions, text, band + step, p + 1
                )
                while (
                    i < count
                    and band_texts[i] == text
                    and band_values[i] == band + step
                    and xs[band_positions[i]] <= reach
                ):
                    near[found] = band_positions[i]
                    found += 1
                    i += 1
            qsort(&near[0], found, sizeof(Py_ssize_t), _ascending)
        for k in range(found):
            b = near[k]
            other = sized[b]
            if dropped[b] or not fabs(ys[b] - y) < radius * (size if size > other else other):
                continue
            # _match(first drawn, later drawn).
            if index[order[p]] < index[order[b]]:
                first, later = p, b
            else:
                first, later = b, p
            if modes[order[first]] != modes[order[later]]:
                continue
            kept_size = sized[first]
            ratio = sized[later] / kept_size
            if not kept_size > 0.0 or fabs(ratio - 1.0) > size_tolerance:
                continue
            if not known[first]:
                # arrays.writing_directions: the quad's edge 0→1 over its length (arrays.hypots:
                # math.hypot off both axes), a degenerate edge handed back.
                r = quad_rows[order[first]]
                dx = quads[r, 1, 0] - quads[r, 0, 0]
                dy = quads[r, 1, 1] - quads[r, 0, 1]
                if dy == 0.0:
                    length = fabs(dx)
                elif dx == 0.0:
                    length = fabs(dy)
                else:
                    length = hypot(dx, dy)
                if length == 0.0:
                    directions[first, 0], directions[first, 1] = degenerate_direction(order[first])
                else:
                    directions[first, 0], directions[first, 1] = dx / length, dy / length
                known[first] = 1
            ux, uy = directions[first, 0], directions[first, 1]
            dx = xs[later] - xs[first]
            dy = ys[later] - ys[first]
            along = dx * ux + dy * uy
            across = dy * ux - dx * uy
            if fabs(along) >= along_limit * kept_size or fabs(across) >= across_limit * kept_size:
                continue
            dropped_rows[taken], kept_rows[taken] = index[order[later]], index[order[first]]
            numbers[taken, 0], numbers[taken, 1], numbers[taken, 2] = along, across, ratio
            taken += 1
            dropped[later] = 1
            if later == p:
                break
    return dropped_out[:taken], kept_out[:taken], numbers_out[:taken]


def box_rows(
    const double[::1] font_size,
    const double[:, ::1] origin,
    const double[:, ::1] glyph_end,
    const double[:, ::1] baseline_end,
    const double[:, :, ::1] quads,
    double llx,
    double lly,
    double urx,
    double ury,
):
    """visible._box_filter's test in one loop over every row (spec §4, §14.11.2): the rows
    whose geometry is finite (records.has_finite_geometry) and whose quad centre (the
    midpoint of diagonal 0–2) lies in the box; the others; and whether each of those is
    finite."""
    cdef Py_ssize_t count = font_size.shape[0], k, j, inside = 0, outside = 0
    cdef double cx, cy
    cdef bint finite
    inside_out = np.empty(count, dtype=np.intp)
    outside_out = np.empty(count, dtype=np.intp)
    finite_out = np.empty(count, dtype=np.bool_)
    cdef Py_ssize_t[::1] inside_rows = inside_out, outside_rows = outside_out
    cdef unsigned char[::1] outside_finite = finite_out.view(np.uint8)
    for k in range(count):
        finite = isfinite(font_size[k])
        for j in range(2):
            finite = finite and isfinite(origin[k, j]) and isfinite(glyph_end[k, j])
            finite = finite and isfinite(baseline_end[k, j])
        for j in range(4):
            finite = finite and isfinite(quads[k, j, 0]) and isfinite(quads[k, j, 1])
        cx = (quads[k, 0, 0] + quads[k, 2, 0]) * 0.5
        cy = (quads[k, 0, 1] + quads[k, 2, 1]) * 0.5
        if finite and llx <= cx and cx <= urx and lly <= cy and cy <= ury:
            inside_rows[inside] = k
            inside += 1
        else:
            outside_rows[outside] = k
            outside_finite[outside] = finite
            outside += 1
    return inside_out[:inside], outside_out[:outside], finite_out[:outside]
