# cython: language_level=3
"""The interpreter's loop compiled (§7.8.2, §9.4): operator dispatch and text showing.

`run` is `_Interpreter.run` and `_show` its `show` and `show_elements`, step for step, with the
same calls for everything else (text positioning, state operators, fonts, forms, marked
content, clipping), so they make the same records and warnings; the Python methods stay as
the path taken when this extension is not built, and tests/test_loop.py holds the two
against each other. Only the element loop of a showing operator is C: a shown string's
glyphs are decoded once per document as `GlyphRuns._piece` decodes them (the font's
`glyphs`, or a simple font's `glyph` per byte; rows in the page table) and kept as C arrays,
and each pen is summed glyph by glyph as `pen += (advance * size + spacing) * scaling`
(without scaling in writing mode 1), a TJ number moving it back by `number / 1000 * size`
(times scaling in writing mode 0), in IEEE double arithmetic as Python's floats (the
extension is compiled without floating-point contraction, so no fused multiply-add changes a
last bit).
"""

import math

from cpython cimport array
from cpython.mem cimport PyMem_Free, PyMem_Malloc

import array as _array_module  # noqa: F401 - cpython.array needs the module loaded

import pikepdf

from glyphscope.core.glyph_table import NO_MCID
from glyphscope.core.geometry import IDENTITY
from glyphscope.core.interpret.clipping import (
    CLIPPING,
    PAINTING,
    PATH_OPERATORS,
    intersect,
    rectangle_corners,
)
from glyphscope.core.interpret.limits import OPERATOR_ERRORS, OperatorBudget, malformed_reason
from glyphscope.core.interpret.runs import (
    PIECES_KEPT,  # distinct (font, string) pieces kept per page (GlyphRuns' own limit)
    RUN_INTEGERS,
    RUN_NUMBERS,
    GlyphBudget,
)
from glyphscope.core.interpret.state import set_text_state

# The run record GlyphRuns.end_run keeps, as C arrays (its tuples, in their order).
DEF NUMBERS_PER_RUN = 14
DEF INTEGERS_PER_RUN = 6
assert (RUN_NUMBERS, RUN_INTEGERS) == (NUMBERS_PER_RUN, INTEGERS_PER_RUN)


cdef tuple _multiply(tuple m1, tuple m2):
    """geometry.multiply with the same products and sums in the same order."""
    cdef double a1 = m1[0], b1 = m1[1], c1 = m1[2], d1 = m1[3], e1 = m1[4], f1 = m1[5]
    cdef double a2 = m2[0], b2 = m2[1], c2 = m2[2], d2 = m2[3], e2 = m2[4], f2 = m2[5]
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


cdef tuple _translated(double tx, double ty, tuple m):
    """multiply(translate(tx, ty), m), the translation's ones and zeros multiplied as there
    (a zero times an infinite entry is nan, 1·a + 0·c is not always a)."""
    cdef double one = 1.0, zero = 0.0
    cdef double a2 = m[0], b2 = m[1], c2 = m[2], d2 = m[3], e2 = m[4], f2 = m[5]
    return (
        one * a2 + zero * c2,
        one * b2 + zero * d2,
        zero * a2 + one * c2,
        zero * b2 + one * d2,
        tx * a2 + ty * c2 + e2,
        tx * b2 + ty * d2 + f2,
    )


cdef tuple _matrix_operand(object operands):
    """state.matrix_operand: every operand made a float in order (its error first), then six
    of them or ValueError."""
    cdef double values[6]
    cdef double value
    cdef Py_ssize_t count = 0
    for operand in operands:
        value = float(operand)
        if count < 6:
            values[count] = value
        count += 1
    if count != 6:
        raise ValueError(f"a matrix takes 6 numbers, not {count}")
    return (values[0], values[1], values[2], values[3], values[4], values[5])


cdef tuple _position_text(object operator, object operands, object state, tuple line_matrix):
    """state.position_text: §9.4.2 Table 108, Td, TD, Tm and T* set both matrices."""
    cdef double tx, ty
    if operator == "Tm":
        matrix = _matrix_operand(operands)
        return matrix, matrix
    if operator == "T*":
        tx, ty = 0.0, -state.leading
    else:
        tx, ty = float(operands[0]), float(operands[1])
        if operator == "TD":
            state.leading = -ty
    matrix = _translated(tx, ty, line_matrix)
    return matrix, matrix


cdef void _end_run(
    object runs,
    long long start,
    tuple numbers,
    long long vertical,
    long long render_mode,
    long long mcid,
    long long token_index,
    long long form_depth,
    long long operator_index,
    tuple strings,
) except *:
    """GlyphRuns.end_run, its numbers and integers written into the arrays from C."""
    cdef long long count = runs.count
    cdef double values[NUMBERS_PER_RUN]
    cdef long long integers[INTEGERS_PER_RUN]
    cdef Py_ssize_t k
    cdef array.array run_numbers = runs.run_numbers
    cdef array.array run_integers = runs.run_integers
    if count == start:
        return
    for k in range(NUMBERS_PER_RUN):
        values[k] = numbers[k]
    array.extend_buffer(run_numbers, <char *> values, NUMBERS_PER_RUN)
    integers[0], integers[1], integers[2] = vertical, render_mode, mcid
    integers[3], integers[4], integers[5] = token_index, form_depth, operator_index
    array.extend_buffer(run_integers, <char *> integers, INTEGERS_PER_RUN)
    string_rows = runs._string_rows
    row = string_rows.get(strings)
    if row is None:
        row = string_rows[strings] = len(runs.strings)
        runs.strings.append(strings)
    runs.run_strings.append(row)
    runs.run_counts.append(count - start)


cdef inline int _append_integer(array.array values, long long value) except -1:
    """values.append(value) for an array('q'), without a method call and a Python int."""
    array.extend_buffer(values, <char *> &value, 1)
    return 0


cdef class _Piece:
    """A string's glyphs: their numbers in the font's _FontPieces, advances (w0 or w1) and
    single-byte-space flags."""

    cdef long long *numbers
    cdef double *advances
    cdef char *spaces
    cdef Py_ssize_t size

    def __cinit__(self, Py_ssize_t size):
        self.size = size
        self.numbers = <long long *> PyMem_Malloc((size + 1) * sizeof(long long))
        self.advances = <double *> PyMem_Malloc((size + 1) * sizeof(double))
        self.spaces = <char *> PyMem_Malloc(size + 1)
        if not self.numbers or not self.advances or not self.spaces:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.numbers)
        PyMem_Free(self.advances)
        PyMem_Free(self.spaces)


cdef class FontPieces:
    """One font's shown strings, decoded once for the whole document (the document's
    piece_cache holds one per Font): each distinct FontGlyph numbered in the order first met,
    with its advance and single-byte-space flag, and each string as a _Piece of numbers.

    A piece depends on the Font object alone: `Font.glyphs` of the same bytes gives the same
    FontGlyph objects for the font's lifetime (its glyph cache is never emptied), their
    advance is w0 or w1 by the font's writing mode, fixed when it was loaded, and the font
    cache gives another Font to another font dictionary or other font limits. What depends on
    the page, the glyph's row in the page's table, is `_PageFont`'s."""

    cdef readonly object font
    cdef bint vertical
    # §9.6: a simple font's code is one byte; its strings are numbered byte by byte through
    # byte_numbers (-1 until the byte is met) instead of the font's `glyphs`.
    cdef bint single_byte
    cdef long long byte_numbers[256]
    cdef list glyphs
    # id(FontGlyph) -> its number (`glyphs` keeps each alive, so its id stays its own).
    cdef dict numbers
    cdef dict pieces
    cdef array.array advances
    cdef array.array spaces

    def __init__(self, font):
        self.font = font
        self.vertical = font.writing_mode == 1
        self.single_byte = not font.is_composite
        for byte in range(256):
            self.byte_numbers[byte] = -1
        self.glyphs = []
        self.numbers = {}
        self.pieces = {}
        self.advances = _array_module.array("d")
        self.spaces = _array_module.array("b")

    def __len__(self):
        """The strings held (at most PIECES_KEPT)."""
        return len(self.pieces)


cdef class _PageFont:
    """A font's glyphs on one page: each glyph number's row in the page's table, -1 until the
    page shows it."""

    cdef FontPieces pieces
    cdef array.array rows

    def __cinit__(self, FontPieces pieces):
        self.pieces = pieces
        self.rows = _array_module.array("q")


cdef _PageFont _page_font(object runs, object font):
    """The page's _PageFont of `font`, over the document's FontPieces of it."""
    cdef dict page_fonts = runs.page_fonts
    found = page_fonts.get(font)
    if found is not None:
        return <_PageFont> found
    cdef dict document_pieces = runs.font_pieces
    pieces = document_pieces.get(font)
    if pieces is None:
        pieces = document_pieces[font] = FontPieces(font)
    made = page_fonts[font] = _PageFont(pieces)
    return made


cdef Py_ssize_t _number_of(FontPieces font_pieces, object glyph) except -1:
    """The glyph's number in the font's pieces, given (with its advance and single-byte-space
    flag) the first time it is met."""
    identity = id(glyph)
    known = font_pieces.numbers.get(identity)
    if known is not None:
        return known
    cdef Py_ssize_t number = len(font_pieces.glyphs)
    font_pieces.numbers[identity] = number
    font_pieces.glyphs.append(glyph)
    advance = glyph.vertical_displacement if font_pieces.vertical else glyph.width
    array.resize_smart(font_pieces.advances, number + 1)
    array.resize_smart(font_pieces.spaces, number + 1)
    font_pieces.advances.data.as_doubles[number] = advance
    font_pieces.spaces.data.as_schars[number] = 1 if glyph.is_single_byte_space else 0
    return number


cdef Py_ssize_t _byte_number(FontPieces font_pieces, unsigned char byte) except -1:
    """A simple font's code's number: its glyph (the font's `glyph` of the one-byte code, as
    its `glyphs` decodes each byte) numbered the first time the byte is met."""
    cdef long long number = font_pieces.byte_numbers[byte]
    if number < 0:
        number = _number_of(font_pieces, font_pieces.font.glyph(byte, 1))
        font_pieces.byte_numbers[byte] = number
    return number


cdef _Piece _piece_of(FontPieces font_pieces, bytes data):
    """GlyphRuns._piece's glyphs and metrics of a string, numbered in the font's pieces."""
    piece = font_pieces.pieces.get(data)
    if piece is not None:
        return <_Piece> piece
    cdef _Piece made
    cdef const unsigned char *codes = data
    cdef Py_ssize_t k
    if font_pieces.single_byte:
        made = _Piece(len(data))
        for k in range(made.size):
            made.numbers[k] = _byte_number(font_pieces, codes[k])
    else:
        glyphs = font_pieces.font.glyphs(data)
        made = _Piece(len(glyphs))
        for k in range(made.size):
            made.numbers[k] = _number_of(font_pieces, glyphs[k])
    for k in range(made.size):
        made.advances[k] = font_pieces.advances.data.as_doubles[made.numbers[k]]
        made.spaces[k] = font_pieces.spaces.data.as_schars[made.numbers[k]]
    if len(font_pieces.pieces) >= PIECES_KEPT:
        font_pieces.pieces.clear()
    font_pieces.pieces[data] = made
    return made


cdef int _append_rows(
    object runs, _PageFont page_font, _Piece piece, Py_ssize_t taken
) except -1:
    """Append the table rows of the piece's first `taken` glyphs to runs.rows. Every glyph of
    the piece gets its row, in order, the first time the page shows it (as GlyphRuns._piece
    gives rows when it decodes a string: the table's order is the same)."""
    cdef array.array page_rows = page_font.rows
    cdef list glyphs = page_font.pieces.glyphs
    cdef Py_ssize_t known = len(page_rows), count = len(glyphs), k, first
    cdef long long *numbered
    cdef long long number
    if known < count:
        array.resize_smart(page_rows, count)
        for k in range(known, count):
            page_rows.data.as_longlongs[k] = -1
    numbered = page_rows.data.as_longlongs
    for k in range(piece.size):
        number = piece.numbers[k]
        if numbered[number] < 0:
            numbered[number] = _table_row(runs, glyphs[number])
    cdef array.array rows = runs.rows
    first = len(rows)
    array.resize_smart(rows, first + taken)
    for k in range(taken):
        rows.data.as_longlongs[first + k] = numbered[piece.numbers[k]]
    return 0


cdef long long _table_row(object runs, object glyph) except -1:
    """The glyph's row in the page's table, added at its end when the page had none."""
    cdef dict table_rows = runs._table_rows
    # The table holds every FontGlyph, so the ids it is keyed by stay unique.
    identity = id(glyph)
    row = table_rows.get(identity)
    if row is None:
        table = runs.table
        row = table_rows[identity] = len(table)
        table.append(glyph)
    return row


cdef double _show_strings(
    object runs,
    object font,
    list elements,
    double size,
    double spacing,
    double space_spacing,
    double scaling,
    bint vertical,
) except? -1.0:
    """Append the glyphs of `elements` (strings as bytes or pikepdf.String, numbers) to
    `runs` from pen 0 and return the pen after them; GlyphBudget when the page's glyph limit
    is reached (the glyphs up to it are kept, as GlyphRuns.show_string keeps them)."""
    cdef array.array pens = runs.pens
    cdef array.array element_indices = runs.elements
    cdef array.array element_counts = runs.element_counts
    cdef _PageFont page_font = _page_font(runs, font)
    cdef long long limit = runs.limit
    cdef long long count = runs.count
    cdef long long room, taken, element_index = 0
    cdef bint number
    cdef double pen = 0.0, adjustment
    cdef double *pen_out
    cdef Py_ssize_t k, first
    cdef _Piece piece
    cdef bytes data
    try:
        for element in elements:
            # The scanner's bytes and numbers by their exact type first: isinstance against
            # pikepdf.String (a module attribute, then a pybind11 type) costs more than the
            # element's glyphs; every other value takes the Python method's tests in its order.
            number = type(element) is float or type(element) is int
            if not number and (type(element) is bytes or isinstance(element, pikepdf.String)):
                data = element if type(element) is bytes else bytes(element)
                piece = _piece_of(page_font.pieces, data)
                room = limit - count
                taken = piece.size if piece.size <= room else room
                _append_rows(runs, page_font, piece, taken)
                _append_integer(element_indices, element_index)
                _append_integer(element_counts, taken)
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
            elif (
                number
                or isinstance(element, (int, float))
                or hasattr(element, "as_integer_ratio")
            ):
                # §9.4.3: a TJ number moves the pen back by number/1000 text-space units.
                adjustment = float(element) / 1000.0 * size
                pen -= adjustment if vertical else adjustment * scaling
            element_index += 1
    finally:
        runs.count = count
    return pen


cdef tuple _show(
    object interpreter,
    object operator,
    object operands,
    object state,
    tuple text_matrix,
    tuple line_matrix,
    object index,
    object form_depth,
    str form_path,
):
    """_Interpreter.show and show_elements: one run of glyphs (§9.4.4); the text and line
    matrices after it."""
    if operator == "TJ":
        elements = list(operands[0])
    else:
        if operator == "'" or operator == '"':
            if operator == '"':
                state.word_spacing = float(operands[0])
                state.character_spacing = float(operands[1])
            # §9.4.3 Table 109: ' is T* then Tj.
            text_matrix, line_matrix = _position_text("T*", (), state, line_matrix)
        elements = [operands[-1]]
    font = state.font
    if font is None:
        font = state.font = interpreter.fallback_font()
    runs = interpreter.runs
    clip = state.clip
    if clip is not interpreter.clip_in_force:
        interpreter.clip_in_force = clip
        interpreter.clips.append((runs.count, clip))
    size = state.font_size
    scaling = state.horizontal_scaling
    char_spacing = state.character_spacing
    rise = state.text_rise
    a, b, c, d, e, f = _multiply(text_matrix, state.ctm)
    vertical = font.writing_mode == 1
    start = runs.count
    # §9.4.3: Tw applies to the single-byte code 32 only.
    space_spacing = char_spacing + state.word_spacing
    try:
        pen = _show_strings(
            runs, font, elements, size, char_spacing, space_spacing, scaling, vertical
        )
    finally:
        if runs.count != start:
            mcid_stack = interpreter.mcid_stack
            mcid = mcid_stack[-1] if mcid_stack else None
            _end_run(
                runs,
                start,
                (
                    a, b, c, d, e, f,
                    size, scaling, char_spacing, space_spacing, rise,
                    font.descent * size,
                    font.ascent * size,
                    abs(size) * math.hypot(c, d),
                ),
                1 if vertical else 0,
                state.render_mode,
                NO_MCID if mcid is None else mcid,
                index if form_depth == 0 else -1,
                form_depth,
                index,
                (state.font_key, font.name, form_path),
            )
    # §9.4.4: after showing, Tm is translated by the total displacement.
    if font.writing_mode:
        return _translated(0.0, pen, text_matrix), line_matrix
    return _translated(pen, 0.0, text_matrix), line_matrix


cdef tuple _transformed_box(tuple m, double x0, double y0, double x1, double y1):
    """clipping.transformed_box: the corners through geometry.apply, then min and max as
    Python takes them (a later value only when strictly smaller or larger: nan stays out
    unless first, -0.0 and 0.0 keep the first)."""
    cdef double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5]
    cdef double xs[4]
    cdef double ys[4]
    cdef double left, bottom, right, top
    cdef int k
    xs[0], ys[0] = a * x0 + c * y0 + e, b * x0 + d * y0 + f
    xs[1], ys[1] = a * x1 + c * y0 + e, b * x1 + d * y0 + f
    xs[2], ys[2] = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    xs[3], ys[3] = a * x0 + c * y1 + e, b * x0 + d * y1 + f
    left = right = xs[0]
    bottom = top = ys[0]
    for k in range(1, 4):
        if xs[k] < left:
            left = xs[k]
        if xs[k] > right:
            right = xs[k]
        if ys[k] < bottom:
            bottom = ys[k]
        if ys[k] > top:
            top = ys[k]
    return (left, bottom, right, top)


cdef class PathBox:
    """clipping.PathBox compiled: the bounding box of the path under construction, its
    corners kept with the comparisons of Python's min and max (the first argument unless the
    second is smaller or larger), so nan and -0.0 come out as there."""

    cdef public double left, bottom, right, top
    cdef public bint clip_pending

    def __init__(self):
        self.reset()

    cpdef reset(self):
        self.left = self.bottom = float("inf")
        self.right = self.top = float("-inf")
        self.clip_pending = False

    cpdef object handle(self, object operator, object operands, object ctm, object clip):
        """Follow one path operator; return the clipping box in force after it."""
        cdef double x, y
        cdef Py_ssize_t k
        if operator in CLIPPING:
            self.clip_pending = True
            return clip
        if operator in PAINTING:
            if self.clip_pending and self.left <= self.right:
                clip = intersect(
                    clip, _transformed_box(ctm, self.left, self.bottom, self.right, self.top)
                )
            self.reset()
            return clip
        values = [float(v) for v in operands]
        if operator == "re":
            values = rectangle_corners(values)
        for k in range(0, len(values) - 1, 2):
            x, y = values[k], values[k + 1]
            if x < self.left:
                self.left = x
            if x > self.right:
                self.right = x
            if y < self.bottom:
                self.bottom = y
            if y > self.top:
                self.top = y
        return clip

    cpdef tuple box(self):
        return (self.left, self.bottom, self.right, self.top)


# Beyond any operator count: a stream of 2**62 operators cannot be held.
DEF COUNT_BOUND = 2**62

cdef enum:
    SHOWING = 1
    POSITIONING = 2
    TEXT_STATE = 3
    FONT = 4
    BEGIN_TEXT = 5
    SAVE = 6
    RESTORE = 7
    CONCATENATE = 8
    DRAW = 9
    BEGIN_PROPERTIES = 10
    BEGIN_MARKED = 11
    END_MARKED = 12
    PATH = 13

cdef dict _KINDS = {
    **dict.fromkeys(("Tj", "TJ", "'", '"'), SHOWING),
    **dict.fromkeys(("Td", "TD", "Tm", "T*"), POSITIONING),
    **dict.fromkeys(("Tc", "Tw", "Tz", "TL", "Ts", "Tr"), TEXT_STATE),
    "Tf": FONT,
    "BT": BEGIN_TEXT,
    "q": SAVE,
    "Q": RESTORE,
    "cm": CONCATENATE,
    "Do": DRAW,
    "BDC": BEGIN_PROPERTIES,
    "BMC": BEGIN_MARKED,
    "EMC": END_MARKED,
    **dict.fromkeys(PATH_OPERATORS, PATH),
}


def run(
    object interpreter,
    object parsed,
    object resources,
    object state,
    object form_depth,
    str form_path,
):
    """_Interpreter.run: the operators of one parsed stream, through the same steps."""
    cdef tuple text_matrix = IDENTITY
    cdef tuple line_matrix = IDENTITY
    cdef list stack = []
    cdef list mcid_stack = interpreter.mcid_stack
    cdef Py_ssize_t mcid_floor = len(mcid_stack)
    cdef int kind
    marked = interpreter.marked
    marked_floor = marked.depth
    budget = interpreter.rules.max_page_operators
    max_q_depth = interpreter.rules.max_q_depth
    runs = interpreter.runs
    cdef PathBox path = interpreter.path
    skipped = interpreter.skipped
    warnings = interpreter.warnings
    cdef dict shown_fonts = interpreter.shown_fonts
    # Only the interpreted operators are listed; the others count against the budget
    # all the same, by their index (forms drawn in between add their own). The count is
    # kept here and handed to the interpreter around a form (draw_xobject runs its
    # operators) and when the loop ends.
    cdef long long operators_run = interpreter.operators_run, previous = -1
    # Rules do not bound the budget: one past any count a page reaches is the same budget.
    cdef long long operator_budget = max(-COUNT_BOUND, min(budget, COUNT_BOUND))
    for index, operator, operands in parsed.operators or ():
        operators_run += <long long> index - previous
        previous = index
        if operators_run > operator_budget:
            interpreter.operators_run = operators_run
            raise OperatorBudget(f"more than {budget} operators")
        kind = _KINDS.get(operator, 0)
        try:
            if kind == SHOWING:
                text_matrix, line_matrix = _show(
                    interpreter,
                    operator,
                    operands,
                    state,
                    text_matrix,
                    line_matrix,
                    index,
                    form_depth,
                    form_path,
                )
            elif kind == POSITIONING:
                text_matrix, line_matrix = _position_text(operator, operands, state, line_matrix)
            elif kind == TEXT_STATE:
                set_text_state(operator, operands, state)
            elif kind == FONT:
                # _Interpreter.set_font's first step: the scanner's plain name, seen before
                # with this form path, sets the state from the page's cache without a call.
                name, size = operands[0], float(operands[1])
                known = shown_fonts.get((form_path, name)) if type(name) is str else None
                if known is None:
                    interpreter.set_font(operands, state, resources, form_path)
                else:
                    state.font_key, state.font = known
                    state.font_size = size
            elif kind == BEGIN_TEXT:
                text_matrix = line_matrix = IDENTITY
            elif kind == SAVE:
                if len(stack) >= max_q_depth:
                    raise OperatorBudget(f"q nesting deeper than {max_q_depth}")
                stack.append(state.copy())
            elif kind == RESTORE:
                if stack:
                    state = stack.pop()
            elif kind == CONCATENATE:
                state.ctm = _multiply(_matrix_operand(operands), state.ctm)
            elif kind == DRAW:
                interpreter.operators_run = operators_run
                try:
                    interpreter.draw_xobject(operands[0], resources, state, form_depth, form_path)
                finally:
                    operators_run = interpreter.operators_run
            elif kind == BEGIN_PROPERTIES:
                interpreter.begin_marked_content(operands, resources)
            elif kind == BEGIN_MARKED:
                mcid_stack.append(mcid_stack[-1] if mcid_stack else None)
                marked.begin(None, runs.count)
            elif kind == END_MARKED:
                if len(mcid_stack) > mcid_floor:
                    mcid_stack.pop()
                if marked.depth > marked_floor:
                    marked.end(runs.count)
            elif kind == PATH:
                state.clip = path.handle(operator, operands, state.ctm, state.clip)
        except OPERATOR_ERRORS as exc:
            skipped[operator] = skipped.get(operator, 0) + 1
            if skipped[operator] == 1:
                where = form_path or "page"
                warnings.append(
                    f"{where}: skipped malformed {operator} #{index}: {malformed_reason(exc)}"
                )
    operators_run += <long long> parsed.count - 1 - previous
    interpreter.operators_run = operators_run
    if operators_run > operator_budget:
        raise OperatorBudget(f"more than {budget} operators")
    del mcid_stack[mcid_floor:]
    marked.close_to(marked_floor, runs.count)
