# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The sequential loops of layout text (spec §7) and of columns over its lines (§8) compiled:
lines.line_starts_in_python (which rows open a baseline line), layout.grid_text_in_python (the
glyphs written on the grid) and columns.line_inks_in_python (each line's ink), step for step.
Every comparison and float operation is the Python one on the same doubles (the extension is
compiled without floating-point contraction); the padding budget is kept in a C integer and
handed back to layout._Padding whenever a cap may be reached, so the caps and their messages
are those of the Python path. tests/test_grid_loops.py holds the two paths against each
other."""

import math

import numpy as np


def line_starts(const double[::1] ys, const double[::1] heights, double ratio):
    """The positions that open a line (see lines.line_starts_in_python)."""
    cdef Py_ssize_t position, count = ys.shape[0]
    cdef double line_y = 0.0, line_height = 0.0, row_y, height, larger
    cdef list starts = []
    for position in range(count):
        row_y, height = ys[position], heights[position]
        # max(line_height, height) as Python takes it: `height` only when strictly larger.
        larger = height if height > line_height else line_height
        if position and line_y - row_y <= ratio * larger:
            line_height = larger
        else:
            starts.append(position)
            line_y, line_height = row_y, height
    return starts


cdef inline long long _take(object padding, long long count, long long* left) except? -1:
    """padding.take(count) with the budget held in `left`: Python's own take once it may cap."""
    if count <= left[0]:
        left[0] -= count
        return count
    padding.left = left[0]
    taken = padding.take(count)
    left[0] = padding.left
    return taken


def grid_text(
    const Py_ssize_t[::1] lengths,
    list line_ys,
    double cell_height,
    const long long[::1] targets,
    Py_ssize_t first_capped,
    const unsigned char[::1] block,
    const unsigned char[::1] space,
    list texts,
    list owners_of,
    padding,
):
    """The grid's characters and owners (see layout.grid_text_in_python)."""
    cdef list pieces = [], owners = []
    cdef Py_ssize_t number, k, j, position = 0, stop, size
    cdef long long length = 0, line_start, cursor, column, spaces, breaks
    cdef long long left = padding.left
    cdef double lines_down
    cdef object text, owner
    for number in range(lengths.shape[0]):
        if number:
            lines_down = (<double>line_ys[number - 1] - <double>line_ys[number]) / cell_height
            padding.left = left
            breaks = padding.blank(lines_down) + 1
            breaks = _take(padding, breaks, &left)
            pieces.append("\n" * breaks)
            for j in range(breaks):
                owners.append(-1)
            length += breaks
        line_start = length
        stop = position + lengths[number]
        for k in range(position, stop):
            cursor = length - line_start
            if k == first_capped:
                padding.cap_column()
            if k == position:
                column = targets[k]
            elif block[k - 1]:
                column = targets[k] if targets[k] > cursor + 1 else cursor + 1
            else:
                column = cursor + 1 if space[k - 1] else cursor
            if column > cursor:
                spaces = _take(padding, column - cursor, &left)
                pieces.append(" " * spaces)
                for j in range(spaces):
                    owners.append(-1)
                length += spaces
            text = texts[k]
            pieces.append(text)
            owner = owners_of[k]
            size = len(text)
            for j in range(size):
                owners.append(owner)
            length += size
        position = stop
    padding.left = left
    return "".join(pieces), owners


def line_inks(
    const double[::1] x0, const double[::1] x1, const Py_ssize_t[::1] bounds, double distance
):
    """The ink of each line (see columns.line_inks_in_python): rows bounds[n]..bounds[n+1]
    are line n's boxes, sorted by (x0, x1)."""
    cdef Py_ssize_t line, row
    cdef double left, right
    cdef list inks = [], ink
    for line in range(bounds.shape[0] - 1):
        ink = []
        row = bounds[line]
        if row < bounds[line + 1]:
            left, right = x0[row], x1[row]
            for row in range(row + 1, bounds[line + 1]):
                if x0[row] - right <= distance:
                    # max(right, x1) as Python takes it: x1 only when strictly larger.
                    if x1[row] > right:
                        right = x1[row]
                else:
                    ink.append((left, right))
                    left, right = x0[row], x1[row]
            ink.append((left, right))
        inks.append(ink)
    return inks


def band_extents(
    const Py_ssize_t[::1] columns,
    Py_ssize_t column_count,
    const double[::1] x0,
    const double[::1] x1,
    const double[::1] y0,
    const double[::1] y1,
):
    """columns._extents' extents, top and bottom over rows without nan (see
    columns.extents_in_python): per column 0..column_count-1 holding rows, left to right, the
    smallest x0 and the largest x1, each the first row's holding that value (0.0 and -0.0 are
    equal, and the first is kept); the band's largest y1 and smallest y0, the first of each."""
    cdef Py_ssize_t count = columns.shape[0], r, c
    cdef double top, bottom
    lows = np.empty(max(column_count, 1), dtype=np.float64)
    highs = np.empty(max(column_count, 1), dtype=np.float64)
    held = np.zeros(max(column_count, 1), dtype=np.uint8)
    cdef double[::1] low = lows, high = highs
    cdef unsigned char[::1] holds = held
    if count == 0:
        return (), -math.inf, math.inf
    top, bottom = y1[0], y0[0]
    for r in range(count):
        c = columns[r]
        if c < 0 or c >= column_count:
            raise IndexError("a column outside the band")
        if not holds[c]:
            holds[c] = 1
            low[c], high[c] = x0[r], x1[r]
        else:
            if x0[r] < low[c]:
                low[c] = x0[r]
            if x1[r] > high[c]:
                high[c] = x1[r]
        if y1[r] > top:
            top = y1[r]
        if y0[r] < bottom:
            bottom = y0[r]
    extents = tuple([(low[c], high[c]) for c in range(column_count) if holds[c]])
    return extents, top, bottom


cdef struct _Keys:
    const double* first  # NULL: no first key
    const double* x
    const long long* glyph


cdef inline bint _before(Py_ssize_t a, Py_ssize_t b, const _Keys* keys) noexcept nogil:
    """Whether row a goes before row b: by the first key, x, glyph index, then row (a total
    order, so that any sort gives the stable sort's order)."""
    if keys.first != NULL and keys.first[a] != keys.first[b]:
        return keys.first[a] < keys.first[b]
    if keys.x[a] != keys.x[b]:
        return keys.x[a] < keys.x[b]
    if keys.glyph[a] != keys.glyph[b]:
        return keys.glyph[a] < keys.glyph[b]
    return a < b


cdef void _sort(
    Py_ssize_t* rows, Py_ssize_t* spare, Py_ssize_t start, Py_ssize_t end, const _Keys* keys
) noexcept nogil:
    """rows[start:end] sorted by _before: a merge sort whose runs of up to eight rows are first
    sorted by insertion (a line comes nearly sorted by x); `spare` as long as `rows`."""
    cdef Py_ssize_t i, j, row, low, middle, high, a, b, width = 8
    cdef Py_ssize_t* source = rows
    cdef Py_ssize_t* target = spare
    cdef bint in_spare = False
    low = start
    while low < end:
        high = min(low + 8, end)
        for i in range(low + 1, high):
            row = rows[i]
            j = i
            while j > low and _before(row, rows[j - 1], keys):
                rows[j] = rows[j - 1]
                j -= 1
            rows[j] = row
        low = high
    while width < end - start:
        low = start
        while low < end:
            middle, high = min(low + width, end), min(low + 2 * width, end)
            a, b, i = low, middle, low
            while a < middle and b < high:
                if _before(source[b], source[a], keys):
                    target[i] = source[b]
                    b += 1
                else:
                    target[i] = source[a]
                    a += 1
                i += 1
            while a < middle:
                target[i] = source[a]
                a += 1
                i += 1
            while b < high:
                target[i] = source[b]
                b += 1
                i += 1
            low = high
        source, target, width, in_spare = target, source, 2 * width, not in_spare
    if in_spare:
        for i in range(start, end):
            rows[i] = spare[i]


def rows_top_down(const double[::1] y, const double[::1] x, const long long[::1] glyph):
    """Rows 0..n-1 sorted by (-y, x, glyph index), the stable sort's order (see
    lines.rows_top_down_in_python), over rows without nan."""
    cdef Py_ssize_t count = y.shape[0], i
    sorted_rows = np.arange(count, dtype=np.intp)
    if not count:
        return sorted_rows
    down_array = np.empty(count, dtype=np.float64)
    spare_rows = np.empty(count, dtype=np.intp)
    cdef double[::1] down = down_array
    cdef Py_ssize_t[::1] rows = sorted_rows, spare = spare_rows
    for i in range(count):
        down[i] = -y[i]
    cdef _Keys keys
    keys.first, keys.x, keys.glyph = &down[0], &x[0], &glyph[0]
    _sort(&rows[0], &spare[0], 0, count, &keys)
    return sorted_rows


def rows_by_line(
    const Py_ssize_t[::1] ordered,
    const Py_ssize_t[::1] bounds,
    const double[::1] x,
    const long long[::1] glyph,
):
    """`ordered` with each line, rows bounds[n]..bounds[n+1] of it, sorted by (x, glyph index,
    row) (see lines.rows_by_line_in_python), each line alone."""
    cdef Py_ssize_t line
    sorted_rows = np.array(ordered, dtype=np.intp)
    if not ordered.shape[0]:
        return sorted_rows
    spare_rows = np.empty(ordered.shape[0], dtype=np.intp)
    cdef Py_ssize_t[::1] rows = sorted_rows, spare = spare_rows
    cdef _Keys keys
    keys.first, keys.x, keys.glyph = NULL, &x[0], &glyph[0]
    for line in range(bounds.shape[0] - 1):
        _sort(&rows[0], &spare[0], bounds[line], bounds[line + 1], &keys)
    return sorted_rows


def merge_ink(extents, distance):
    """columns.merge_ink_in_python over intervals of floats: the same float objects merged in
    one pass (TypeError for any other numbers, which the caller merges in Python)."""
    cdef list merged = []
    cdef double left_edge, right_edge, gap
    cdef bint started = False
    if type(distance) is not float:
        raise TypeError("a distance that is not a float")
    gap = distance
    left = right = None
    for x0, x1 in extents:
        if type(x0) is not float or type(x1) is not float:
            raise TypeError("an interval that is not of floats")
        if started and <double>x0 - right_edge <= gap:
            # max(right, x1) as Python takes it: x1 only when strictly larger.
            if <double>x1 > right_edge:
                right, right_edge = x1, x1
        else:
            if started:
                merged.append((left, right))
            left, right, left_edge, right_edge = x0, x1, x0, x1
            started = True
    if started:
        merged.append((left, right))
    return merged
