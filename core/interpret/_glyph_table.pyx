# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""GlyphRuns.columns compiled: a page's runs turned into its glyph columns in one C loop.

`glyph_columns` is `runs.columns_in_python` glyph by glyph instead of column by column: each
glyph's run numbers read in place instead of gathered, the same products and sums in the same
order (§9.4.4 for writing mode 0, §9.7.4.3 for writing mode 1), so every float has the bits
numpy's elementwise IEEE arithmetic gives (the extension is compiled without floating-point
contraction, so no fused multiply-add changes a last bit). tests/test_loop.py holds the two
bit for bit. The string columns are lists sharing the table's and the runs' str objects, as
runs._gathered makes them.
"""

import numpy as np

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)


cdef inline list _untracked(list strings):
    """A string column out of the garbage collector's lists: a list of str can hold no
    reference cycle, and a page's five columns of a few thousand glyphs each were traversed
    twice by every collection while the page's columns were held."""
    PyObject_GC_UnTrack(<void *> strings)
    return strings

# GlyphRuns' run record (runs.NUMBERS and its three extents; the six integers).
DEF NUMBERS_PER_RUN = 14
DEF INTEGERS_PER_RUN = 6
DEF A = 0
DEF B = 1
DEF C = 2
DEF D = 3
DEF E = 4
DEF F = 5
DEF SIZE = 6
DEF SCALING = 7
DEF SPACING = 8
DEF SPACE_SPACING = 9
DEF RISE = 10
DEF DESCENT = 11
DEF ASCENT = 12
DEF DRAWN_SIZE = 13
DEF VERTICAL = 0

# FontGlyph's fields (core.fonts.dicts), read by position.
DEF G_CODE = 0
DEF G_CODE_LENGTH = 1
DEF G_TEXT = 2
DEF G_DECODE_SOURCE = 3
DEF G_WIDTH = 4
DEF G_SPACE = 5
DEF G_W1 = 6
DEF G_POSITION = 7


cdef list _strings_of(list values, const long long[:] rows, Py_ssize_t count):
    """values[rows[k]] for each k, the same (shared) str objects, untracked."""
    cdef list out = PyList_New(count)
    cdef Py_ssize_t k
    cdef object value
    for k in range(count):
        value = values[rows[k]]
        Py_INCREF(value)
        PyList_SET_ITEM(out, k, value)
    return _untracked(out)


def gathered(list values, const Py_ssize_t[:] rows):
    """values[row] for each row of an intp array, the same (shared) objects, as
    `list(map(values.__getitem__, rows.tolist()))`: a string column of some glyphs
    (core.text.arrays.GlyphRows.strings), untracked."""
    cdef Py_ssize_t count = rows.shape[0], size = len(values), k, row
    cdef list out = PyList_New(count)
    cdef object value
    for k in range(count):
        row = rows[k]
        if row < 0:
            row += size
        if row < 0 or row >= size:
            # The list is complete up to k: its empty slots are filled before it is freed.
            for row in range(k, count):
                Py_INCREF(None)
                PyList_SET_ITEM(out, row, None)
            raise IndexError("list index out of range")
        value = values[row]
        Py_INCREF(value)
        PyList_SET_ITEM(out, k, value)
    return _untracked(out)


def row_index(rows):
    """A list or tuple of row numbers as an intp array (np.fromiter's values, without its
    iterator protocol per element); OverflowError or TypeError as numpy's conversion would
    fail."""
    cdef Py_ssize_t count = len(rows), k
    index = np.empty(count, dtype=np.intp)
    cdef Py_ssize_t[:] out = index
    cdef list listed
    cdef tuple held
    if type(rows) is tuple:
        held = rows
        for k in range(count):
            out[k] = held[k]
    else:
        listed = rows
        for k in range(count):
            out[k] = listed[k]
    return index


cdef tuple _text_ids(list texts, const long long[:] rows, Py_ssize_t count):
    """core.glyph_table.dictionary_encoded of the text column (texts[rows[k]] for each k): each
    glyph's number among the distinct texts in order of first appearance, and those texts
    (the first str object of each), looked up once per table row instead of once per glyph."""
    cdef Py_ssize_t table_size = len(texts), k, t, number
    numbered_array = np.full(table_size, -1, dtype=np.intp)
    ids_array = np.empty(count, dtype=np.intp)
    cdef Py_ssize_t[:] numbered = numbered_array, ids = ids_array
    cdef dict numbers = {}
    cdef list distinct = []
    for k in range(count):
        t = rows[k]
        number = numbered[t]
        if number < 0:
            text = texts[t]
            found = numbers.get(text)
            if found is None:
                number = len(distinct)
                numbers[text] = number
                distinct.append(text)
            else:
                number = found
            numbered[t] = number
        ids[k] = number
    return ids_array, distinct


def glyph_columns(
    list table,
    long long[:] rows,
    double[:] pens,
    double[:] run_numbers,
    long long[:] run_integers,
    long long[:] run_counts,
    long long[:] run_strings,
    list strings,
    long long[:] elements,
    long long[:] element_counts,
):
    """The GlyphColumns fields of a page's runs (GlyphRuns' arrays), as a dict, and under
    "text_ids" the text column's GlyphColumns.text_ids."""
    cdef Py_ssize_t count = rows.shape[0]
    cdef Py_ssize_t table_size = len(table)
    cdef Py_ssize_t runs = run_counts.shape[0]
    cdef Py_ssize_t k, g, r, end, t
    cdef double a, b, c, d, e, f, size, scaling, spacing, space_spacing, rise
    cdef double descent, ascent, width, pen, advance, displacement
    cdef double ox, oy, gx, gy, left, right, y, la, lb, ra, rb
    cdef bint vertical
    # A FontGlyph (a tuple subclass) read as a tuple's items: the generic item lookup
    # Cython makes for an object was a third of this function's instructions.
    cdef tuple glyph

    widths_array = np.empty(table_size)
    w1_array = np.empty(table_size)
    vx_array = np.empty(table_size)
    spaces_array = np.empty(table_size, dtype=np.int8)
    codes_array = np.empty(table_size, dtype=np.int64)
    lengths_array = np.empty(table_size, dtype=np.int64)
    cdef double[:] widths = widths_array, w1s = w1_array, vxs = vx_array
    cdef signed char[:] spaces = spaces_array
    cdef long long[:] codes = codes_array, lengths = lengths_array
    texts, sources = [], []
    for t in range(table_size):
        item = table[t]
        if not isinstance(item, tuple):
            raise TypeError(f"a glyph table row is a FontGlyph, not {type(item).__name__}")
        glyph = <tuple> item
        codes[t], lengths[t] = glyph[G_CODE], glyph[G_CODE_LENGTH]
        texts.append(glyph[G_TEXT])
        sources.append(glyph[G_DECODE_SOURCE])
        widths[t], w1s[t] = glyph[G_WIDTH], glyph[G_W1]
        vxs[t] = glyph[G_POSITION][0]
        spaces[t] = 1 if glyph[G_SPACE] else 0

    origin_array = np.empty((count, 2))
    glyph_end_array = np.empty((count, 2))
    baseline_end_array = np.empty((count, 2))
    quad_array = np.empty((count, 4, 2))
    font_size_array = np.empty(count)
    code_array = np.empty(count, dtype=np.int64)
    code_length_array = np.empty(count, dtype=np.int64)
    integer_arrays = [np.empty(count, dtype=np.int64) for _ in range(INTEGERS_PER_RUN)]
    run_of_array = np.empty(count, dtype=np.int64)
    element_index_array = np.empty(count, dtype=np.int64)
    cdef double[:, :] origin = origin_array, glyph_end = glyph_end_array
    cdef double[:, :] baseline_end = baseline_end_array
    cdef double[:, :, :] quad = quad_array
    cdef double[:] font_size = font_size_array
    cdef long long[:] code = code_array, code_length = code_length_array
    cdef long long[:] writing_mode = integer_arrays[0], render_mode = integer_arrays[1]
    cdef long long[:] mcid = integer_arrays[2], token_index = integer_arrays[3]
    cdef long long[:] form_depth = integer_arrays[4], operator_index = integer_arrays[5]
    cdef long long[:] run_of = run_of_array, element_index = element_index_array

    g = 0
    for r in range(runs):
        a = run_numbers[r * NUMBERS_PER_RUN + A]
        b = run_numbers[r * NUMBERS_PER_RUN + B]
        c = run_numbers[r * NUMBERS_PER_RUN + C]
        d = run_numbers[r * NUMBERS_PER_RUN + D]
        e = run_numbers[r * NUMBERS_PER_RUN + E]
        f = run_numbers[r * NUMBERS_PER_RUN + F]
        size = run_numbers[r * NUMBERS_PER_RUN + SIZE]
        scaling = run_numbers[r * NUMBERS_PER_RUN + SCALING]
        spacing = run_numbers[r * NUMBERS_PER_RUN + SPACING]
        space_spacing = run_numbers[r * NUMBERS_PER_RUN + SPACE_SPACING]
        rise = run_numbers[r * NUMBERS_PER_RUN + RISE]
        descent = run_numbers[r * NUMBERS_PER_RUN + DESCENT]
        ascent = run_numbers[r * NUMBERS_PER_RUN + ASCENT]
        vertical = run_integers[r * INTEGERS_PER_RUN + VERTICAL] == 1
        end = g + run_counts[r]
        while g < end:
            t = rows[g]
            width = widths[t]
            pen = pens[g]
            if vertical:
                # §9.7.4.3: the pen is at the vertical origin and advances by w1 downward;
                # the box spans w0 across the column, placed by the position vector's vx.
                advance = w1s[t] * size
                displacement = advance + (space_spacing if spaces[t] else spacing)
                left = -vxs[t] * size
                right = left + width * size
                y = pen + rise
                ox = c * y + e
                oy = d * y + f
                gx = ox + c * advance
                gy = oy + d * advance
                baseline_end[g, 0] = ox + c * displacement
                baseline_end[g, 1] = oy + d * displacement
                la, lb, ra, rb = a * left, b * left, a * right, b * right
                quad[g, 0, 0], quad[g, 0, 1] = ox + la, oy + lb
                quad[g, 1, 0], quad[g, 1, 1] = gx + la, gy + lb
                quad[g, 2, 0], quad[g, 2, 1] = gx + ra, gy + rb
                quad[g, 3, 0], quad[g, 3, 1] = ox + ra, oy + rb
            else:
                advance = width * size * scaling
                displacement = (width * size + (space_spacing if spaces[t] else spacing)) * scaling
                ox = a * pen + c * rise + e
                oy = b * pen + d * rise + f
                gx = ox + a * advance
                gy = oy + b * advance
                baseline_end[g, 0] = ox + a * displacement
                baseline_end[g, 1] = oy + b * displacement
                quad[g, 0, 0], quad[g, 0, 1] = ox + c * descent, oy + d * descent
                quad[g, 1, 0], quad[g, 1, 1] = gx + c * descent, gy + d * descent
                quad[g, 2, 0], quad[g, 2, 1] = gx + c * ascent, gy + d * ascent
                quad[g, 3, 0], quad[g, 3, 1] = ox + c * ascent, oy + d * ascent
            origin[g, 0], origin[g, 1] = ox, oy
            glyph_end[g, 0], glyph_end[g, 1] = gx, gy
            font_size[g] = run_numbers[r * NUMBERS_PER_RUN + DRAWN_SIZE]
            code[g], code_length[g] = codes[t], lengths[t]
            writing_mode[g] = run_integers[r * INTEGERS_PER_RUN]
            render_mode[g] = run_integers[r * INTEGERS_PER_RUN + 1]
            mcid[g] = run_integers[r * INTEGERS_PER_RUN + 2]
            token_index[g] = run_integers[r * INTEGERS_PER_RUN + 3]
            form_depth[g] = run_integers[r * INTEGERS_PER_RUN + 4]
            operator_index[g] = run_integers[r * INTEGERS_PER_RUN + 5]
            run_of[g] = run_strings[r]
            g += 1

    g = 0
    for k in range(elements.shape[0]):
        end = g + element_counts[k]
        while g < end:
            element_index[g] = elements[k]
            g += 1

    return {
        "text": _strings_of(texts, rows, count),
        "text_ids": _text_ids(texts, rows, count),
        "code": code_array,
        "code_length": code_length_array,
        "font_key": _strings_of([s[0] for s in strings], run_of, count),
        "font_name": _strings_of([s[1] for s in strings], run_of, count),
        "font_size": font_size_array,
        "origin": origin_array,
        "glyph_end": glyph_end_array,
        "baseline_end": baseline_end_array,
        "quad": quad_array,
        "writing_mode": integer_arrays[0],
        "render_mode": integer_arrays[1],
        "mcid": integer_arrays[2],
        "token_index": integer_arrays[3],
        "form_depth": integer_arrays[4],
        "decode_source": _strings_of(sources, rows, count),
        "operator_index": integer_arrays[5],
        "element_index": element_index_array,
        "form_path": _strings_of([s[2] for s in strings], run_of, count),
    }
