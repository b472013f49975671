# cython: language_level=3, boundscheck=False, wraparound=False
"""jsontext.join_rows_in_python compiled: the JSON text of a chunk of rows, written from their
columns into one buffer, without a str per field per row; and FloatTexts, the texts of float
values by bit pattern, each converted once while the writer that owns it lives.

Row r is between[0] + text(fields[0], r) + between[1] + … + between[k], rows joined by
`separator`; a row in `replaced` is written as replaced[r] instead. A field is
- a str: the same text on every row (folded into the texts around it before writing);
- a list of str: row r's text;
- a tuple (codes, table): table[codes[r]], codes an intp array;
- an int64 array: the decimal text of the value (as int.__repr__);
- a tuple (values, null, text): values an int64 array, `text` where the value is `null`;
- a tuple (values, float_texts): values a float64 array (any stride), written as
  float_texts' texts;
- a tuple (column, rows, quoted, quote): column a list of str, rows an int64 array of
  positions in it, written as quoted[column[rows[r]]], quote(text) added to `quoted` first
  where it is missing.
The whole call holds the GIL and runs no Python code but `quote` (a C function of json's), so
a FloatTexts or `quoted` shared between threads is never changed under a call that reads it.
Texts are copied as UTF-8; a str that cannot be (a lone surrogate) raises
UnicodeEncodeError, and the caller writes the rows in Python.
"""

cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.math cimport isinf, isnan
from libc.string cimport memcpy

import numpy as np


cdef extern from "Python.h":
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL
    bint PyUnicode_IS_ASCII(object text)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)


cdef extern from "_jsonput.h":
    # The buffer and the copy of a piece or an int64's digits into it, inlined (_jsonput.h).
    ctypedef struct Buffer "JsonBuffer":
        char* data
        Py_ssize_t size
        Py_ssize_t capacity
        void* owner
    void _put "json_put"(Buffer* buffer, const char* text, Py_ssize_t size) noexcept nogil
    void _put_padded "json_put_padded"(
        Buffer* buffer, const char* text, Py_ssize_t size
    ) noexcept nogil
    Py_ssize_t PADDED "JSON_PADDED"
    void _put_int "json_put_int"(Buffer* buffer, long long value) noexcept nogil


cdef extern from "Python.h":
    ctypedef struct PyObject
    int PyUnicode_Resize(PyObject** text, Py_ssize_t length) except -1
    void Py_XDECREF(PyObject* value)
    PyObject* PyUnicode_New_raw "PyUnicode_New"(Py_ssize_t size, Py_UCS4 maxchar) except NULL


cdef int _grow(Buffer* buffer, Py_ssize_t wanted) except -1:
    cdef Py_ssize_t capacity = buffer.capacity
    cdef char* grown
    cdef PyObject* owner
    while capacity < wanted:
        capacity = 2 * capacity + 4096
    if buffer.owner != NULL:
        # The bytes are a fresh str's own (an ASCII str of `capacity` characters, never seen by
        # any other code): resized in place, as PyUnicode_Resize allows for such a str.
        owner = <PyObject*>buffer.owner
        PyUnicode_Resize(&owner, capacity)
        buffer.owner = owner
        buffer.data, buffer.capacity = <char*>PyUnicode_DATA(<object>owner), capacity
        return 0
    grown = <char*>PyMem_Realloc(buffer.data, capacity)
    if grown == NULL:
        raise MemoryError()
    buffer.data, buffer.capacity = grown, capacity
    return 0


cdef inline int _reserve(Buffer* buffer, Py_ssize_t more) except -1:
    if buffer.size + more > buffer.capacity:
        _grow(buffer, buffer.size + more)
    return 0


cdef str _written(Buffer* buffer, bint ascii):
    """The buffer's UTF-8 as a str."""
    if not ascii:
        return PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
    # Every piece ASCII: the bytes are the str's own, copied without decoding.
    written = PyUnicode_New(buffer.size, 127)
    memcpy(PyUnicode_DATA(written), buffer.data, buffer.size)
    return written


# The longest text of an int64 ("-9223372036854775808").
cdef Py_ssize_t INT_TEXT = 20


cdef struct Text:
    const char* data
    Py_ssize_t size
    bint ascii


cdef Text _text(object text) except *:
    cdef Text found
    found.data = PyUnicode_AsUTF8AndSize(text, &found.size)
    found.ascii = PyUnicode_IS_ASCII(text)
    return found


cdef extern from "_float_repr.h":
    # float.__repr__'s text of a finite value, by Ryu's shortest digits (core/_float_repr.h).
    int float_repr(double value, char* out) noexcept nogil
    int FLOAT_REPR_SIZE


cdef struct Slot:
    unsigned long long key  # the bit pattern
    Py_ssize_t offset  # where its text starts in the arena; -1 where the slot is empty
    Py_ssize_t length


@cython.final
cdef class FloatTexts:
    """The JSON texts of float64 values by bit pattern (not by value: 0.0 and -0.0 are written
    differently), each converted once (float.__repr__'s text, core/_float_repr.h) and kept, bytes in
    one arena, until clear(): a page repeats its baselines, sizes and fonts on every glyph.
    nan and ±inf are written as the texts given. One open-addressing table whose slots hold
    the key and its text's place, so a lookup reads one slot."""

    cdef Slot* slots
    cdef Py_ssize_t size, count  # slots (a power of two), and those used
    cdef char* arena
    cdef Py_ssize_t used, capacity
    cdef bytes nan, infinity, negative_infinity

    def __cinit__(self, str nan, str infinity, str negative_infinity):
        self.nan = nan.encode("ascii")
        self.infinity = infinity.encode("ascii")
        self.negative_infinity = negative_infinity.encode("ascii")
        self.slots, self.arena = NULL, NULL
        self._empty()

    def __dealloc__(self):
        PyMem_Free(self.slots)
        PyMem_Free(self.arena)

    cdef int _empty(self) except -1:
        PyMem_Free(self.slots)
        PyMem_Free(self.arena)
        self.arena, self.used, self.capacity = NULL, 0, 0
        self.slots = _empty_slots(1024)
        self.size, self.count = 1024, 0
        return 0

    def clear(self) -> None:
        """Forget every text (what bounds the memory of a long-lived writer). The slots and
        the arena stay at the size they grew to, emptied: the texts that follow fill them
        again (growing the table anew from 1024 slots cost 2% of a page's rows)."""
        cdef Py_ssize_t i
        for i in range(self.size):
            self.slots[i].offset = -1
        self.count, self.used = 0, 0

    def __len__(self) -> int:
        return self.count

    def texts(self, values) -> list:
        """The texts of `values` (a float64 array, flattened), in their order."""
        cdef const double[::1] flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
        cdef Py_ssize_t i
        cdef Slot* slot
        found: list = []
        for i in range(flat.shape[0]):
            slot = self.find(flat[i])
            found.append(self.arena[slot.offset : slot.offset + slot.length].decode("ascii"))
        return found

    cdef inline Slot* _probe(self, unsigned long long bits) noexcept:
        cdef unsigned long long mask = self.size - 1
        cdef Py_ssize_t at = <Py_ssize_t>(((bits ^ (bits >> 29)) * 0x9E3779B97F4A7C15ULL >> 20) & mask)
        while self.slots[at].offset >= 0 and self.slots[at].key != bits:
            at = (at + 1) & mask
        return &self.slots[at]

    cdef inline Slot* find(self, double value) except NULL:
        """The slot of `value`'s text, converted now if it has none yet (valid until the
        next value is added)."""
        cdef unsigned long long bits
        memcpy(&bits, &value, sizeof(double))
        cdef Slot* slot = self._probe(bits)
        if slot.offset >= 0:
            return slot
        return self._add(value, bits)

    cdef Slot* _add(self, double value, unsigned long long bits) except NULL:
        if 2 * (self.count + 1) > self.size:
            self._grow()
        cdef Slot* slot = self._probe(bits)
        cdef char converted[32]
        cdef const char* text
        cdef Py_ssize_t length
        if isnan(value):
            text = self.nan
            length = len(self.nan)
        elif isinf(value) and value > 0:
            text = self.infinity
            length = len(self.infinity)
        elif isinf(value):
            text = self.negative_infinity
            length = len(self.negative_infinity)
        else:
            length = float_repr(value, converted)
            text = converted
        # PADDED bytes kept after the last text: the row writer reads that many from each.
        if self.used + length + PADDED > self.capacity:
            self._grow_arena(self.used + length + PADDED)
        memcpy(self.arena + self.used, text, length)
        slot.key, slot.offset, slot.length = bits, self.used, length
        self.used += length
        self.count += 1
        return slot

    cdef int _grow_arena(self, Py_ssize_t wanted) except -1:
        cdef Py_ssize_t capacity = self.capacity
        while capacity < wanted:
            capacity = 2 * capacity + 16384
        cdef char* grown = <char*>PyMem_Realloc(self.arena, capacity)
        if grown == NULL:
            raise MemoryError()
        self.arena, self.capacity = grown, capacity
        return 0

    cdef int _grow(self) except -1:
        # Twice the slots, the keys placed anew; the arena stays.
        cdef Slot* old = self.slots
        cdef Py_ssize_t old_size = self.size, i
        cdef Slot* slot
        self.slots = _empty_slots(2 * old_size)
        self.size = 2 * old_size
        for i in range(old_size):
            if old[i].offset >= 0:
                slot = self._probe(old[i].key)
                slot[0] = old[i]
        PyMem_Free(old)
        return 0


cdef Slot* _empty_slots(Py_ssize_t size) except NULL:
    cdef Slot* slots = <Slot*>PyMem_Malloc(size * sizeof(Slot))
    cdef Py_ssize_t i
    if slots == NULL:
        raise MemoryError()
    for i in range(size):
        slots[i].offset = -1
    return slots


cdef enum:
    LISTED, TABLE, INTEGER, NULLABLE, FLOATS, QUOTED


cdef extern from "Python.h":
    PyObject* PyList_GET_ITEM(object items, Py_ssize_t index)
    PyObject* PyDict_GetItem(object mapping, object key)

# The longest text float.__repr__ writes ("-2.2250738585072014e-308").
cdef Py_ssize_t FLOAT_TEXT = 24


cdef struct Field:
    int kind
    Text text  # NULLABLE: the text of null
    Text after  # between[k + 1]
    Text* table  # TABLE: the texts of the codes
    Py_ssize_t entries  # TABLE: how many
    Py_ssize_t widest  # the longest text the field writes but a LISTED one
    PyObject* texts  # LISTED: the list of texts; QUOTED: the column
    const Py_ssize_t* codes
    const long long* values  # INTEGER, NULLABLE: the values; QUOTED: the rows
    long long null
    const double* doubles  # FLOATS: the values, row r at doubles[r * stride]
    Py_ssize_t stride
    void* float_texts  # FLOATS: their FloatTexts
    PyObject* quoted  # QUOTED: the dict of quoted texts
    PyObject* quote  # QUOTED: what quotes a text missing from it
    PyObject* last_text  # QUOTED: the previous row's text and its quoted text
    Text last_quoted
    unsigned long long last_bits  # FLOATS: the previous row's bits and its text's place
    Py_ssize_t last_offset, last_length  # (last_length -1 before the first row)


cdef Text _quoted(Field* f, PyObject* text) except *:
    # QUOTED: the quoted text of a text of the column, quoted now if it is not yet (the row
    # loop takes the same str as the row before, a font's name, a decode source, itself).
    cdef PyObject* found = PyDict_GetItem(<object>f.quoted, <object>text)
    if found != NULL:
        f.last_quoted = _text(<object>found)
    else:
        quoted = (<object>f.quote)(<object>text)
        (<dict>f.quoted)[<object>text] = quoted  # keeps it, and its UTF-8, alive
        f.last_quoted = _text(quoted)
    f.last_text = text
    return f.last_quoted


def _folded(list between, list fields):
    """between and fields with each constant field folded into the texts around it."""
    folded_between, folded_fields, texts = [], [], [between[0]]
    for field, after in zip(fields, between[1:]):
        if isinstance(field, str):
            texts.extend((field, after))
        else:
            folded_between.append("".join(texts))
            folded_fields.append(field)
            texts = [after]
    folded_between.append("".join(texts))
    return folded_between, folded_fields


cdef Text _padded(Text text, char** into) noexcept:
    """`text` copied to into[0], which moves on past it and PADDED bytes more: the copy can
    be put by json_put_padded."""
    memcpy(into[0], text.data, text.size)
    text.data = into[0]
    into[0] += text.size + PADDED
    return text


cdef Py_ssize_t _address(object array):
    return array.__array_interface__["data"][0]


def join_rows(list between, list fields, Py_ssize_t count, str separator, dict replaced):
    cdef Buffer buffer
    buffer.data, buffer.size, buffer.capacity, buffer.owner = NULL, 0, 0, NULL
    cdef bint ascii = True
    try:
        _write_rows(&buffer, &ascii, between, fields, count, separator, replaced)
        return _written(&buffer, ascii)
    finally:
        PyMem_Free(buffer.data)


cdef int _write_rows(
    Buffer* into,
    bint* all_ascii,
    list between,
    list fields,
    Py_ssize_t count,
    str separator,
    dict replaced,
) except -1:
    """join_rows' text appended to `into`; all_ascii[0] cleared if a piece was not ASCII."""
    if len(between) != len(fields) + 1 or not all(isinstance(text, str) for text in between):
        raise ValueError("between must hold one text more than there are fields")
    between, fields = _folded(between, fields)
    cdef Py_ssize_t field_count = len(fields)
    held: list = []  # the arrays, lists and texts the fields point into, alive until the end
    cdef Field* described = <Field*>PyMem_Malloc(max(field_count, 1) * sizeof(Field))
    if described == NULL:
        raise MemoryError()
    # The texts around the fields and between the rows, copied with PADDED bytes after each.
    cdef char* padded = NULL
    cdef char* padding
    cdef Py_ssize_t k, r, entry
    for k in range(field_count):
        described[k].table = NULL
    # Written into a copy of the buffer's state, handed back at the end (the C compiler keeps
    # it in registers instead of reloading through the pointer after every piece).
    cdef Buffer buffer = into[0]
    cdef Field* f
    cdef Field* end = described + field_count
    cdef bint replacing = len(replaced) > 0
    cdef Text first = _text(between[0])
    cdef Text joint = _text(separator)
    cdef Text piece
    cdef Py_ssize_t fixed
    cdef bint ascii
    cdef FloatTexts floats = None, texts_of
    cdef PyObject* text
    cdef Slot* slot
    cdef double value
    cdef unsigned long long bits
    try:
        for k in range(field_count):
            f = &described[k]
            f.codes, f.values, f.null, f.texts = NULL, NULL, 0, NULL
            f.last_text, f.last_length, f.last_bits = NULL, -1, 0
            f.after = _text(between[k + 1])
            field = fields[k]
            f.widest = INT_TEXT
            f.text.data, f.text.size, f.text.ascii = NULL, 0, True
            if isinstance(field, list):
                if len(<list>field) != count:
                    raise ValueError("a listed field must hold a text per row")
                f.kind, f.texts = LISTED, <PyObject*>field
                held.append(field)
            elif isinstance(field, tuple) and len(<tuple>field) == 2 and isinstance(
                field[1], FloatTexts
            ):
                # Read in place with its stride: a point's x or y, a quad's corner.
                doubles = np.asarray(field[0], dtype=np.float64)
                if doubles.ndim != 1 or len(doubles) != count:
                    raise ValueError("a float field must hold a value per row")
                if doubles.strides[0] % sizeof(double):
                    doubles = np.ascontiguousarray(doubles)
                held.extend((doubles, field[1]))
                f.kind, f.float_texts = FLOATS, <void*>field[1]
                f.doubles = <const double*><Py_ssize_t>_address(doubles)
                f.stride = doubles.strides[0] // <Py_ssize_t>sizeof(double)
                texts_of = <FloatTexts>field[1]
                f.widest = max(
                    FLOAT_TEXT,
                    len(texts_of.nan),
                    len(texts_of.infinity),
                    len(texts_of.negative_infinity),
                )
            elif isinstance(field, tuple) and len(<tuple>field) == 4:
                column, positions, quoted, quote = field
                if not isinstance(column, list) or not isinstance(quoted, dict):
                    raise TypeError("a quoted field is (list, rows, dict, quote)")
                positions = np.ascontiguousarray(positions, dtype=np.int64)
                if positions.ndim != 1 or len(positions) != count:
                    raise ValueError("a quoted field must hold a row per row")
                if count and (positions.min() < 0 or positions.max() >= len(<list>column)):
                    raise ValueError("a row outside its column")
                held.extend((column, positions, quoted, quote))
                f.kind, f.texts = QUOTED, <PyObject*>column
                f.values = <const long long*><Py_ssize_t>_address(positions)
                f.quoted, f.quote = <PyObject*>quoted, <PyObject*>quote
            elif isinstance(field, tuple) and len(<tuple>field) == 2:
                codes = np.ascontiguousarray(field[0], dtype=np.intp)
                texts = list(field[1])
                if codes.ndim != 1 or len(codes) != count:
                    raise ValueError("a table field must hold a code per row")
                if count and (codes.min() < 0 or codes.max() >= len(texts)):
                    raise ValueError("a code outside its table")
                held.extend((codes, texts))
                f.kind = TABLE
                f.codes = <const Py_ssize_t*><Py_ssize_t>_address(codes)
                f.table = <Text*>PyMem_Malloc(max(len(texts), 1) * sizeof(Text))
                if f.table == NULL:
                    raise MemoryError()
                f.widest, f.entries = 0, len(texts)
                for entry in range(len(texts)):
                    f.table[entry] = _text(texts[entry])
                    f.widest = max(f.widest, f.table[entry].size)
            else:
                nullable = isinstance(field, tuple) and len(<tuple>field) == 3
                values = np.ascontiguousarray(field[0] if nullable else field, dtype=np.int64)
                if values.ndim != 1 or len(values) != count:
                    raise ValueError("an integer field must hold a value per row")
                held.append(values)
                f.values = <const long long*><Py_ssize_t>_address(values)
                f.kind = INTEGER
                if nullable:
                    f.kind, f.null = NULLABLE, field[1]
                    f.text = _text(field[2])
                    f.widest = max(INT_TEXT, f.text.size)
                    held.append(field[2])
        fixed = first.size + joint.size + (field_count + 2) * PADDED
        for k in range(field_count):
            fixed += described[k].after.size
        padded = <char*>PyMem_Malloc(fixed)
        if padded == NULL:
            raise MemoryError()
        padding = padded
        first, joint = _padded(first, &padding), _padded(joint, &padding)
        for k in range(field_count):
            described[k].after = _padded(described[k].after, &padding)
        # The widest row but its LISTED texts, and the PADDED bytes the last piece may copy
        # past its end: reserved, with them, before each row.
        fixed = first.size + joint.size + PADDED
        ascii = first.ascii and joint.ascii
        for k in range(field_count):
            f = &described[k]
            fixed += f.after.size + f.widest
            ascii = ascii and f.after.ascii and (f.kind in (LISTED, QUOTED) or f.text.ascii)
            if f.kind == TABLE:
                for entry in range(f.entries):
                    ascii = ascii and f.table[entry].ascii
        _reserve(&buffer, count * fixed)
        for r in range(count):
            if replacing and r in replaced:
                piece = _text(replaced[r])
                ascii = ascii and piece.ascii
                _reserve(&buffer, joint.size + piece.size)
                if r:
                    _put(&buffer, joint.data, joint.size)
                _put(&buffer, piece.data, piece.size)
                continue
            _reserve(&buffer, fixed)
            if r:
                _put_padded(&buffer, joint.data, joint.size)
            _put_padded(&buffer, first.data, first.size)
            f = described
            while f < end:
                if f.kind == TABLE:
                    piece = f.table[f.codes[r]]
                    _put(&buffer, piece.data, piece.size)
                elif f.kind == INTEGER:
                    _put_int(&buffer, f.values[r])
                elif f.kind == FLOATS:
                    # A baseline, a size: most often the previous row's bits, not looked up.
                    if f.float_texts != <void*>floats:  # most often one writer's, held once
                        floats = <FloatTexts>f.float_texts
                    value = f.doubles[r * f.stride]
                    memcpy(&bits, &value, sizeof(double))
                    if bits != f.last_bits or f.last_length < 0:
                        slot = floats.find(value)
                        f.last_bits, f.last_offset, f.last_length = bits, slot.offset, slot.length
                    _put_padded(&buffer, floats.arena + f.last_offset, f.last_length)
                elif f.kind == LISTED or f.kind == QUOTED:
                    # A text of its own length: room for it and what the row may still need.
                    if f.kind == LISTED:
                        piece = _text(<object>PyList_GET_ITEM(<object>f.texts, r))
                    else:
                        text = PyList_GET_ITEM(<object>f.texts, f.values[r])
                        piece = f.last_quoted if text == f.last_text else _quoted(f, text)
                    ascii = ascii and piece.ascii
                    _reserve(&buffer, piece.size + fixed)
                    _put(&buffer, piece.data, piece.size)
                elif f.values[r] == f.null:  # NULLABLE
                    _put(&buffer, f.text.data, f.text.size)
                else:
                    _put_int(&buffer, f.values[r])
                _put_padded(&buffer, f.after.data, f.after.size)
                f += 1
        all_ascii[0] = all_ascii[0] and ascii
        return 0
    finally:
        into[0] = buffer
        for k in range(field_count):
            PyMem_Free(described[k].table)
        PyMem_Free(described)
        PyMem_Free(padded)


@cython.final
cdef class TextBuffer:
    """A JSON text written piece by piece into one buffer, as UTF-8: plain texts and chunks
    of rows (join_rows' arguments) alike, so that a page's rows are never a str of their own
    before they are joined. text() decodes it once; take() hands its bytes over and empties
    it (a writer into a file). A str that is not UTF-8 (a lone surrogate) raises
    UnicodeEncodeError, after which what the buffer holds is incomplete."""

    cdef Buffer buffer
    cdef bint ascii

    def __cinit__(self):
        # Written into the storage of a str made for it (see take_text): a page's text is
        # never copied out of the buffer (416 million characters on issue 9's eight files).
        self.buffer.data, self.buffer.size, self.buffer.capacity = NULL, 0, 0
        self.buffer.owner = PyUnicode_New_raw(0, 127)
        self.buffer.data = <char*>PyUnicode_DATA(<object>self.buffer.owner)
        self.ascii = True

    def __dealloc__(self):
        Py_XDECREF(<PyObject*>self.buffer.owner)

    def __len__(self) -> int:
        return self.buffer.size

    def write(self, str text) -> None:
        cdef Text piece = _text(text)
        self.ascii = self.ascii and piece.ascii
        _reserve(&self.buffer, piece.size)
        memcpy(self.buffer.data + self.buffer.size, piece.data, piece.size)
        self.buffer.size += piece.size

    def rows(
        self, list between, list fields, Py_ssize_t count, str separator, dict replaced
    ) -> None:
        _write_rows(&self.buffer, &self.ascii, between, fields, count, separator, replaced)

    def text(self) -> str:
        return _written(&self.buffer, self.ascii)

    def take_text(self) -> str:
        """text(), handed over: the buffer is empty after it. When every piece was ASCII the
        str is the one the bytes were written into, cut to their length, not a copy."""
        cdef PyObject* owner
        if not self.ascii:
            written = _written(&self.buffer, False)
        else:
            owner = <PyObject*>self.buffer.owner
            PyUnicode_Resize(&owner, self.buffer.size)
            written = <object>owner  # a reference of its own, and the buffer's given up:
            Py_XDECREF(owner)
            self.buffer.owner = PyUnicode_New_raw(0, 127)
            self.buffer.capacity = 0
        self.buffer.data = <char*>PyUnicode_DATA(<object>self.buffer.owner)
        self.buffer.size = 0
        self.ascii = True
        return written

    def take(self) -> bytes:
        taken = self.buffer.data[: self.buffer.size]
        self.buffer.size = 0
        return taken


cdef extern from "Python.h":
    long long PyLong_AsLongLong(object value) except? -1
    bint PyLong_CheckExact(object value)


def join_ints(object values, str separator):
    """The texts of a list or tuple of ints (exactly int, as int.__repr__ writes them) joined
    by `separator`; TypeError for an item that is not exactly an int, OverflowError for one
    beyond int64 (the caller writes those in Python)."""
    cdef Py_ssize_t count = len(values), i
    cdef Text joint = _text(separator)
    cdef Buffer buffer
    buffer.data, buffer.size, buffer.capacity, buffer.owner = NULL, 0, 0, NULL
    cdef bint listed = isinstance(values, list)
    if not listed and not isinstance(values, tuple):
        raise TypeError("a list or tuple of ints")
    try:
        _reserve(&buffer, count * (INT_TEXT + joint.size))
        for i in range(count):
            item = values[i]
            if not PyLong_CheckExact(item):
                raise TypeError("an item that is not an int")
            if i:
                _put(&buffer, joint.data, joint.size)
            _put_int(&buffer, PyLong_AsLongLong(item))
        return _written(&buffer, joint.ascii)
    finally:
        PyMem_Free(buffer.data)
