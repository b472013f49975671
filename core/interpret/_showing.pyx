# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The compiled inner loop of text showing (§9.4.3, §9.4.4): the strings and numbers of one
Tj/TJ/'/" operator appended to a page's `GlyphRuns`.

`GlyphRuns.show_string` and the element loop of the interpreter's `show_elements` do this in
Python; this module does the same steps in the same order, so every pen position has the same
bits: a pen is summed glyph by glyph as `pen += (advance * size + spacing) * scaling` (without
scaling in writing mode 1), a TJ number moves it back by `number / 1000 * size` (times
scaling in writing mode 0), in IEEE double arithmetic as Python's floats (the extension is
compiled without floating-point contraction, so no fused multiply-add changes a last bit). A
string's glyphs are decoded once per page as `GlyphRuns._piece` decodes them (the font's
`glyphs`, rows in the page table) and kept as C arrays.
"""

from cpython cimport array
from cpython.mem cimport PyMem_Free, PyMem_Malloc

import array as _array_module  # noqa: F401 - cpython.array needs the module loaded

from glyphscope.core.interpret.runs import GlyphBudget

# Distinct (font, string) pieces kept per page (GlyphRuns' own limit).
from glyphscope.core.interpret.runs import _PIECES_KEPT


cdef class _Piece:
    """A string's glyphs: page-table rows, advances (w0 or w1) and single-byte-space flags."""

    cdef long long *rows
    cdef double *advances
    cdef char *spaces
    cdef Py_ssize_t size

    def __cinit__(self, Py_ssize_t size):
        self.size = size
        self.rows = <long long *> PyMem_Malloc((size + 1) * sizeof(long long))
        self.advances = <double *> PyMem_Malloc((size + 1) * sizeof(double))
        self.spaces = <char *> PyMem_Malloc(size + 1)
        if not self.rows or not self.advances or not self.spaces:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.rows)
        PyMem_Free(self.advances)
        PyMem_Free(self.spaces)


cdef _Piece _piece_of(object runs, dict pieces, object font, bytes data, bint vertical):
    """GlyphRuns._piece's rows and metrics of a string, kept as C arrays."""
    key = (font, data)
    piece = pieces.get(key)
    if piece is not None:
        return <_Piece> piece
    cdef list table = runs.table
    cdef dict table_rows = runs._table_rows
    glyphs = font.glyphs(data)
    cdef _Piece made = _Piece(len(glyphs))
    cdef Py_ssize_t k = 0
    for glyph in glyphs:
        # The table holds every FontGlyph, so the ids it is keyed by stay unique.
        identity = id(glyph)
        row = table_rows.get(identity)
        if row is None:
            row = table_rows[identity] = len(table)
            table.append(glyph)
        made.rows[k] = row
        made.advances[k] = glyph.vertical_displacement if vertical else glyph.width
        made.spaces[k] = 1 if glyph.is_single_byte_space else 0
        k += 1
    if len(pieces) >= _PIECES_KEPT:
        pieces.clear()
    pieces[key] = made
    return made


def show_elements(
    object runs,
    object font,
    list elements,
    double size,
    double spacing,
    double space_spacing,
    double scaling,
    bint vertical,
    object string_type,
):
    """Append the glyphs of `elements` (strings as bytes or `string_type`, numbers) to `runs`
    from pen 0 and return the pen after them; GlyphBudget when the page's glyph limit is
    reached (the glyphs up to it are kept, as GlyphRuns.show_string keeps them)."""
    cdef array.array rows = runs.rows
    cdef array.array pens = runs.pens
    cdef array.array element_indices = runs.elements
    cdef array.array element_counts = runs.element_counts
    cdef dict pieces = runs._pieces
    cdef long long limit = runs.limit
    cdef long long count = runs.count
    cdef long long room, taken, element_index = 0
    cdef long long taken_value
    cdef double pen = 0.0, adjustment
    cdef double *pen_out
    cdef Py_ssize_t k, first
    cdef _Piece piece
    cdef bytes data
    try:
        for element in elements:
            if isinstance(element, bytes) or isinstance(element, string_type):
                data = element if type(element) is bytes else bytes(element)
                piece = _piece_of(runs, pieces, font, data, vertical)
                room = limit - count
                taken = piece.size if piece.size <= room else room
                array.extend_buffer(rows, <char *> piece.rows, taken)
                element_indices.append(element_index)
                taken_value = taken
                element_counts.append(taken_value)
                count += taken
                first = len(pens)
                array.resize_smart(pens, first + taken)
                pen_out = pens.data.as_doubles + first
                if vertical:
                    # §9.7.4.3: the pen advances by w1 (downward), without Th.
                    for k in range(taken):
                        pen_out[k] = pen
                        pen += piece.advances[k] * size + (
                            space_spacing if piece.spaces[k] else spacing
                        )
                else:
                    for k in range(taken):
                        pen_out[k] = pen
                        pen += (
                            piece.advances[k] * size
                            + (space_spacing if piece.spaces[k] else spacing)
                        ) * scaling
                if taken < piece.size:
                    raise GlyphBudget(f"more than {limit} glyphs")
            elif isinstance(element, (int, float)) or hasattr(element, "as_integer_ratio"):
                # §9.4.3: a TJ number moves the pen back by number/1000 text-space units.
                adjustment = float(element) / 1000.0 * size
                pen -= adjustment if vertical else adjustment * scaling
            element_index += 1
    finally:
        runs.count = count
    return pen
