# cython: language_level=3, boundscheck=False, wraparound=False
"""jsontext.join_rows_in_python and float_table_in_python compiled: the JSON text of a chunk of
rows, written from their columns into one buffer, without a str per field per row; and a
float column's distinct texts, found by a hash of the bits instead of a sort.

Row r is between[0] + text(fields[0], r) + between[1] + … + between[k], rows joined by
`separator`; a row in `replaced` is written as replaced[r] instead. A field is
- a str: the same text on every row;
- a list of str: row r's text;
- a tuple (codes, table): table[codes[r]], codes an intp array;
- an int64 array: the decimal text of the value (as int.__repr__);
- a tuple (values, null, text): values an int64 array, `text` where the value is `null`.
Texts are copied as UTF-8; a str that cannot be (a lone surrogate) raises
UnicodeEncodeError, and the caller writes the rows in Python.
"""

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


cdef struct Buffer:
    char* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _grow(Buffer* buffer, Py_ssize_t wanted) except -1:
    cdef Py_ssize_t capacity = buffer.capacity
    cdef char* grown
    while capacity < wanted:
        capacity = 2 * capacity + 4096
    grown = <char*>PyMem_Realloc(buffer.data, capacity)
    if grown == NULL:
        raise MemoryError()
    buffer.data, buffer.capacity = grown, capacity
    return 0


cdef inline int _reserve(Buffer* buffer, Py_ssize_t more) except -1:
    if buffer.size + more > buffer.capacity:
        _grow(buffer, buffer.size + more)
    return 0


cdef inline void _put(Buffer* buffer, const char* text, Py_ssize_t size) noexcept:
    # Room is reserved a row at a time; most pieces are a few bytes, copied in the loop.
    cdef char* out = buffer.data + buffer.size
    cdef Py_ssize_t i
    if size > 16:
        memcpy(out, text, size)
    else:
        for i in range(size):
            out[i] = text[i]
    buffer.size += size


cdef inline void _put_int(Buffer* buffer, long long value) noexcept:
    # int.__repr__ of an int64: the digits, a minus sign before a negative value.
    cdef char digits[24]
    cdef int position = 24
    cdef unsigned long long magnitude = (
        <unsigned long long>(-(value + 1)) + 1 if value < 0 else <unsigned long long>value
    )
    while True:
        position -= 1
        digits[position] = <char>(48 + magnitude % 10)
        magnitude //= 10
        if magnitude == 0:
            break
    if value < 0:
        position -= 1
        digits[position] = 45
    _put(buffer, digits + position, 24 - position)


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


cdef enum:
    CONSTANT, LISTED, TABLE, INTEGER, NULLABLE


cdef extern from "Python.h":
    ctypedef struct PyObject
    PyObject* PyList_GET_ITEM(object items, Py_ssize_t index)


cdef struct Field:
    int kind
    Text text  # CONSTANT and NULLABLE: the text
    Text after  # between[k + 1]
    Text* table  # TABLE: the texts of the codes
    Py_ssize_t entries  # TABLE: how many
    Py_ssize_t widest  # the longest text the field writes but a LISTED one
    Text current  # LISTED: the text of the row being written
    PyObject* texts  # LISTED: the list of texts
    const Py_ssize_t* codes
    const long long* values
    long long null


cdef Py_ssize_t _address(object array):
    return array.__array_interface__["data"][0]


def join_rows(list between, list fields, Py_ssize_t count, str separator, dict replaced):
    cdef Py_ssize_t field_count = len(fields)
    if len(between) != field_count + 1 or not all(isinstance(text, str) for text in between):
        raise ValueError("between must hold one text more than there are fields")
    held: list = []  # the arrays, lists and texts the fields point into, alive until the end
    cdef Field* described = <Field*>PyMem_Malloc(max(field_count, 1) * sizeof(Field))
    if described == NULL:
        raise MemoryError()
    cdef Py_ssize_t k, r, entry
    for k in range(field_count):
        described[k].table = NULL
    cdef Buffer buffer
    buffer.data, buffer.size, buffer.capacity = NULL, 0, 0
    cdef Field* f
    cdef Field* end = described + field_count
    cdef bint replacing = len(replaced) > 0
    cdef Text first = _text(between[0])
    cdef Text joint = _text(separator)
    cdef Text piece
    cdef Py_ssize_t fixed, wanted
    cdef bint ascii
    try:
        for k in range(field_count):
            f = &described[k]
            f.codes, f.values, f.null, f.texts = NULL, NULL, 0, NULL
            f.after = _text(between[k + 1])
            field = fields[k]
            f.widest = INT_TEXT
            f.text.data, f.text.size, f.text.ascii = NULL, 0, True
            if isinstance(field, str):
                f.kind, f.text = CONSTANT, _text(field)
                f.widest = f.text.size
                held.append(field)
            elif isinstance(field, list):
                if len(<list>field) != count:
                    raise ValueError("a listed field must hold a text per row")
                f.kind, f.texts = LISTED, <PyObject*>field
                held.append(field)
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
        # The widest row but its LISTED texts: reserved, with them, before each row.
        fixed = first.size + joint.size
        ascii = first.ascii and joint.ascii
        for k in range(field_count):
            f = &described[k]
            fixed += f.after.size + f.widest
            ascii = ascii and f.after.ascii and (f.kind == LISTED or f.text.ascii)
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
            wanted = fixed
            f = described
            while f < end:
                if f.kind == LISTED:
                    f.current = _text(<object>PyList_GET_ITEM(<object>f.texts, r))
                    wanted += f.current.size
                    ascii = ascii and f.current.ascii
                f += 1
            _reserve(&buffer, wanted)
            if r:
                _put(&buffer, joint.data, joint.size)
            _put(&buffer, first.data, first.size)
            f = described
            while f < end:
                if f.kind == TABLE:
                    piece = f.table[f.codes[r]]
                    _put(&buffer, piece.data, piece.size)
                elif f.kind == INTEGER:
                    _put_int(&buffer, f.values[r])
                elif f.kind == LISTED:
                    _put(&buffer, f.current.data, f.current.size)
                elif f.kind == CONSTANT or f.values[r] == f.null:
                    _put(&buffer, f.text.data, f.text.size)
                else:
                    _put_int(&buffer, f.values[r])
                _put(&buffer, f.after.data, f.after.size)
                f += 1
        if not ascii:
            return PyUnicode_DecodeUTF8(buffer.data, buffer.size, NULL)
        # Every piece ASCII: the bytes are the str's own, copied without decoding.
        written = PyUnicode_New(buffer.size, 127)
        memcpy(PyUnicode_DATA(written), buffer.data, buffer.size)
        return written
    finally:
        PyMem_Free(buffer.data)
        for k in range(field_count):
            PyMem_Free(described[k].table)
        PyMem_Free(described)


cdef extern from "Python.h":
    char* PyOS_double_to_string(
        double value, char format_code, int precision, int flags, int* type
    ) except NULL
    int Py_DTSF_ADD_DOT_0


def float_table(const double[::1] values, str nan, str infinity, str negative_infinity):
    """jsontext.JsonWriter.float_table's codes and texts, each distinct bit pattern converted
    once (float.__repr__'s own conversion; a non-finite value written as the text given),
    the texts in order of first appearance: a hash of the bits instead of a sort."""
    cdef Py_ssize_t count = values.shape[0], size = 16, i, slot
    while size < 2 * count:
        size *= 2
    cdef unsigned long long mask = size - 1
    keys_array = np.empty(size, dtype=np.uint64)
    slots_array = np.full(size, -1, dtype=np.intp)
    codes_array = np.empty(count, dtype=np.intp)
    cdef unsigned long long[::1] keys = keys_array
    cdef Py_ssize_t[::1] slots = slots_array
    cdef Py_ssize_t[::1] codes = codes_array
    cdef unsigned long long bits
    cdef double value
    cdef char* text
    texts: list = []
    for i in range(count):
        value = values[i]
        memcpy(&bits, &value, sizeof(double))
        slot = <Py_ssize_t>(((bits ^ (bits >> 29)) * 0x9E3779B97F4A7C15ULL >> 20) & mask)
        while slots[slot] >= 0 and keys[slot] != bits:
            slot = (slot + 1) & mask
        if slots[slot] < 0:
            keys[slot], slots[slot] = bits, len(texts)
            if isnan(value):
                texts.append(nan)
            elif isinf(value):
                texts.append(infinity if value > 0 else negative_infinity)
            else:
                text = PyOS_double_to_string(value, b'r', 0, Py_DTSF_ADD_DOT_0, NULL)
                try:
                    texts.append(text.decode("ascii"))
                finally:
                    PyMem_Free(text)
        codes[i] = slots[slot]
    return codes_array, texts
