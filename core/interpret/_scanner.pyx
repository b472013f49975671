# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A compiled scanner for content streams (§7.2 lexical conventions, §7.8.2 content streams).

It reads the operators a caller wants, with their operand values and their index among all
operators, and counts the others, exactly as qpdf's tokenizer (`pikepdf.parse_content_stream`)
would. It never guesses: a stream holding anything it does not read exactly as qpdf does (an
inline image, an unknown or misplaced operator, an unbalanced delimiter, a malformed hex string,
operands left at the end) makes `scan` return None, and the caller tokenises that stream with
qpdf. Operands whose values it does not reproduce exactly (dictionaries other than plain
property lists, booleans, nested arrays, names with # escapes, very long numbers, which qpdf
reads as null) or whose operator
has no plain shape are not converted: their byte span is returned for qpdf to parse.

Lexing is one pass over the bytes with no regular expressions (no backtracking); string and
number values are built only for wanted operators.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.ref cimport PyObject
from libc.string cimport memcpy, memset


cdef extern from "Python.h":
    double PyOS_string_to_double(const char *s, char **endptr, object overflow_exception) except? -1.0
    void PyObject_GC_UnTrack(void *op)


cdef inline tuple _untracked(tuple values):
    """values out of the garbage collector's lists: a tuple of numbers, strings, names, plain
    dictionaries and such tuples can hold no reference cycle, and CPython itself untracks it
    at its first collection; untracked at once, the page's operators cost no collection any
    traversal while they are held."""
    PyObject_GC_UnTrack(<void *> values)
    return values


cdef enum:
    K_INT = 1
    K_REAL = 2
    K_LITERAL = 3
    K_HEX = 4
    K_NAME = 5
    K_KEYWORD = 6  # true, false, null
    K_ARRAY_OPEN = 7
    K_ARRAY_CLOSE = 8
    K_DICT_OPEN = 9
    K_DICT_CLOSE = 10

# §7.2.2: white-space (1) and delimiter (2) characters; every other byte is regular (0).
cdef unsigned char CLASS[256]
for _c in range(256):
    CLASS[_c] = 0
for _c in list(b"\x00\t\n\x0c\r "):
    CLASS[_c] = 1
for _c in list(b"()<>[]{}/%"):
    CLASS[_c] = 2

# Digits beyond these read exactly by qpdf are rare; longer numbers go to qpdf (which reads
# integers past 64 bits as null).
DEF MAX_INT_DIGITS = 15
DEF MAX_REAL_CHARS = 40
DEF MAX_NESTING = 64

_KEYWORDS = frozenset((b"true", b"false", b"null"))

# Shared by every operator without operands (q, Q, BT, ET...): callers never change operands.
_NO_OPERANDS = ()

# Annex A's operators are one to three bytes: such a word is looked up by its bytes packed in
# an integer (regular bytes are never 0, so the packing is unique) in an open-addressed table
# of the caller's operators, without a bytes object, a hash or a dict lookup per operator.
DEF PACKED_BYTES = 3
DEF OPERATOR_SLOTS = 256  # a power of two, over twice Annex A's 73 operators


cdef struct _OperatorSlot:
    unsigned int word  # the packed bytes, 0 for an empty slot
    PyObject *info  # borrowed from the caller's operators, alive for the scan


cdef inline unsigned int _packed(const unsigned char *buf, Py_ssize_t start, Py_ssize_t end):
    cdef unsigned int word = 0
    cdef Py_ssize_t i
    for i in range(start, end):
        word = (word << 8) | buf[i]
    return word


cdef inline Py_ssize_t _slot(_OperatorSlot *slots, unsigned int word):
    """The slot of word, or the empty slot where it would go (Fibonacci hashing, linear
    probing: the table is never more than half full)."""
    cdef Py_ssize_t slot = ((word * 2654435769u) >> 24) & (OPERATOR_SLOTS - 1)
    while slots[slot].word and slots[slot].word != word:
        slot = (slot + 1) & (OPERATOR_SLOTS - 1)
    return slot


cdef int _fill_slots(_OperatorSlot *slots, dict operators) except -1:
    """The caller's operators of at most PACKED_BYTES bytes in slots; longer ones are looked
    up in `operators` itself."""
    cdef Py_ssize_t slot, used = 0
    cdef unsigned int packed
    cdef bytes word
    memset(slots, 0, OPERATOR_SLOTS * sizeof(_OperatorSlot))
    for word, info in operators.items():
        if 0 < len(word) <= PACKED_BYTES and 0 not in word:
            used += 1
            if 2 * used > OPERATOR_SLOTS:
                raise ValueError(f"more than {OPERATOR_SLOTS // 2} short operators")
            packed = _packed(word, 0, len(word))
            slot = _slot(slots, packed)
            slots[slot].word = packed
            slots[slot].info = <PyObject *> info
    return 0


cdef object _operator_info(
    _OperatorSlot *slots, dict operators, bytes data, Py_ssize_t start, Py_ssize_t end
):
    """operators.get(data[start:end]), a short word by its slot."""
    cdef Py_ssize_t slot
    if end - start <= PACKED_BYTES:
        slot = _slot(slots, _packed(<const unsigned char *> PyBytes_AS_STRING(data), start, end))
        return <object> slots[slot].info if slots[slot].word else None
    return operators.get(data[start:end])


cdef class _Tokens:
    """The operand tokens read since the last operator: kind, start and end offsets."""

    cdef int *kinds
    cdef Py_ssize_t *starts
    cdef Py_ssize_t *ends
    cdef Py_ssize_t size, capacity

    def __cinit__(self):
        self.capacity = 64
        self.size = 0
        self.kinds = <int *> PyMem_Malloc(self.capacity * sizeof(int))
        self.starts = <Py_ssize_t *> PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        self.ends = <Py_ssize_t *> PyMem_Malloc(self.capacity * sizeof(Py_ssize_t))
        if not self.kinds or not self.starts or not self.ends:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_Free(self.kinds)
        PyMem_Free(self.starts)
        PyMem_Free(self.ends)

    cdef int push(self, int kind, Py_ssize_t start, Py_ssize_t end) except -1:
        cdef Py_ssize_t capacity
        if self.size == self.capacity:
            capacity = self.capacity * 2
            self.kinds = <int *> PyMem_Realloc(self.kinds, capacity * sizeof(int))
            self.starts = <Py_ssize_t *> PyMem_Realloc(self.starts, capacity * sizeof(Py_ssize_t))
            self.ends = <Py_ssize_t *> PyMem_Realloc(self.ends, capacity * sizeof(Py_ssize_t))
            if not self.kinds or not self.starts or not self.ends:
                raise MemoryError()
            self.capacity = capacity
        self.kinds[self.size] = kind
        self.starts[self.size] = start
        self.ends[self.size] = end
        self.size += 1
        return 0


cdef Py_ssize_t _skip_literal(const unsigned char *buf, Py_ssize_t i, Py_ssize_t n):
    """Offset after the literal string opening at i (§7.3.4.2: balanced or escaped
    parentheses), or -1 when the stream ends inside it."""
    cdef int depth = 1
    cdef unsigned char c
    i += 1
    while i < n:
        c = buf[i]
        if c == 92:  # backslash: the next byte is escaped
            i += 2
            continue
        if c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


cdef inline int _hex_value(unsigned char c):
    if 48 <= c <= 57:
        return c - 48
    if 65 <= c <= 70:
        return c - 55
    if 97 <= c <= 102:
        return c - 87
    return -1


cdef bytes _literal_value(const unsigned char *buf, Py_ssize_t start, Py_ssize_t end):
    """§7.3.4.2 escapes as qpdf reads them: \\ddd keeps the low byte, an unknown escape
    drops the backslash, a backslash before an end of line joins the lines, and a bare CR
    or CR LF is read as LF."""
    cdef Py_ssize_t i = start + 1, stop = end - 1, j = 0, digits
    cdef unsigned char c
    cdef int value
    cdef char *out = <char *> PyMem_Malloc(stop - i + 1)
    if not out:
        raise MemoryError()
    try:
        while i < stop:
            c = buf[i]
            if c == 92:
                i += 1
                c = buf[i]
                if c == 110:
                    out[j] = 10
                    j += 1
                elif c == 114:
                    out[j] = 13
                    j += 1
                elif c == 116:
                    out[j] = 9
                    j += 1
                elif c == 98:
                    out[j] = 8
                    j += 1
                elif c == 102:
                    out[j] = 12
                    j += 1
                elif 48 <= c <= 55:
                    value = c - 48
                    digits = 1
                    while digits < 3 and i + 1 < stop and 48 <= buf[i + 1] <= 55:
                        i += 1
                        value = value * 8 + buf[i] - 48
                        digits += 1
                    out[j] = <char> (value & 0xFF)
                    j += 1
                elif c == 13:
                    if i + 1 < stop and buf[i + 1] == 10:
                        i += 1
                elif c != 10:
                    out[j] = <char> c
                    j += 1
                i += 1
            elif c == 13:
                out[j] = 10
                j += 1
                if i + 1 < stop and buf[i + 1] == 10:
                    i += 1
                i += 1
            else:
                out[j] = <char> c
                j += 1
                i += 1
        return PyBytes_FromStringAndSize(out, j)
    finally:
        PyMem_Free(out)


cdef bytes _hex_string_value(const unsigned char *buf, Py_ssize_t start, Py_ssize_t end):
    """§7.3.4.3: white space is ignored and an odd last digit is followed by 0."""
    cdef Py_ssize_t i, j = 0
    cdef int value, high = -1
    cdef char *out = <char *> PyMem_Malloc((end - start) // 2 + 1)
    if not out:
        raise MemoryError()
    try:
        for i in range(start + 1, end - 1):
            value = _hex_value(buf[i])
            if value < 0:
                continue
            if high < 0:
                high = value
            else:
                out[j] = <char> (high * 16 + value)
                j += 1
                high = -1
        if high >= 0:
            out[j] = <char> (high * 16)
            j += 1
        return PyBytes_FromStringAndSize(out, j)
    finally:
        PyMem_Free(out)


cdef object _number(const unsigned char *buf, int kind, Py_ssize_t start, Py_ssize_t end):
    """A Python int or float equal to qpdf's value (float(Decimal) rounds the same decimal
    text correctly, as PyOS_string_to_double does), or None when qpdf should read it."""
    cdef Py_ssize_t i = start
    cdef long long value = 0
    cdef bint negative = False
    cdef char text[MAX_REAL_CHARS + 1]
    if kind == K_INT:
        if buf[i] == 43 or buf[i] == 45:
            negative = buf[i] == 45
            i += 1
        if end - i > MAX_INT_DIGITS:
            return None
        while i < end:
            value = value * 10 + (buf[i] - 48)
            i += 1
        return -value if negative else value
    if end - start > MAX_REAL_CHARS:
        return None
    memcpy(text, buf + start, end - start)
    text[end - start] = 0
    return PyOS_string_to_double(text, NULL, None)


cdef bint _plain_name(const unsigned char *buf, Py_ssize_t start, Py_ssize_t end):
    """A name qpdf keeps byte for byte: printable ASCII, no # escape, not empty."""
    cdef Py_ssize_t i
    if end - start < 2:
        return False
    for i in range(start + 1, end):
        if buf[i] < 33 or buf[i] > 126 or buf[i] == 35:
            return False
    return True


cdef object _properties(bytes data, const unsigned char *buf, _Tokens tokens, Py_ssize_t k):
    """The inline property list (§14.6.2) whose << is token k, as a dict of plain names to
    plain values (integers, strings as bytes, names), and the index of its >>; None when
    qpdf should read it: a nested dictionary or array, a real, a boolean or null, a key that
    is not a plain name, a key given twice or without a value (qpdf drops null entries, keeps
    the last of duplicated keys and makes up keys, some of it with a logged warning)."""
    cdef Py_ssize_t size = tokens.size
    cdef int kind
    cdef dict properties = {}
    cdef object value
    k += 1
    while k < size and tokens.kinds[k] != K_DICT_CLOSE:
        if tokens.kinds[k] != K_NAME or not _plain_name(buf, tokens.starts[k], tokens.ends[k]):
            return None
        key = data[tokens.starts[k]:tokens.ends[k]].decode("ascii")
        if key in properties or k + 1 >= size:
            return None
        k += 1
        kind = tokens.kinds[k]
        if kind == K_INT:
            value = _number(buf, kind, tokens.starts[k], tokens.ends[k])
            if value is None:
                return None
        elif kind == K_LITERAL:
            value = _literal_value(buf, tokens.starts[k], tokens.ends[k])
        elif kind == K_HEX:
            value = _hex_string_value(buf, tokens.starts[k], tokens.ends[k])
        elif kind == K_NAME and _plain_name(buf, tokens.starts[k], tokens.ends[k]):
            value = data[tokens.starts[k]:tokens.ends[k]].decode("ascii")
        else:
            return None
        properties[key] = value
        k += 1
    if k >= size:
        return None
    return properties, k


cdef object _operands(bytes data, const unsigned char *buf, _Tokens tokens, str shape):
    """Operand values when every token has a plain value and their kinds spell `shape`
    ("n" number, "s" string, "/" name, "a" array of strings and numbers, "p" a property list:
    a name or an inline dictionary read by _properties); else None. Operands and arrays are
    tuples (_untracked): as lists they were traversed by every collection while the page's
    operators are held (a quarter of interpretation time)."""
    cdef Py_ssize_t k = 0, size = tokens.size, position = 0
    cdef int kind
    cdef list values, elements
    cdef object value
    cdef Py_ssize_t length = len(shape)
    if not size and not length:
        return _NO_OPERANDS
    values = []
    while k < size:
        if position >= length:
            return None
        kind = tokens.kinds[k]
        if kind == K_INT or kind == K_REAL:
            if shape[position] != "n":
                return None
            value = _number(buf, kind, tokens.starts[k], tokens.ends[k])
            if value is None:
                return None
            values.append(value)
        elif kind == K_LITERAL or kind == K_HEX:
            if shape[position] != "s":
                return None
            if kind == K_LITERAL:
                values.append(_literal_value(buf, tokens.starts[k], tokens.ends[k]))
            else:
                values.append(_hex_string_value(buf, tokens.starts[k], tokens.ends[k]))
        elif kind == K_NAME:
            if shape[position] not in "/p" or not _plain_name(
                buf, tokens.starts[k], tokens.ends[k]
            ):
                return None
            values.append(data[tokens.starts[k]:tokens.ends[k]].decode("ascii"))
        elif kind == K_DICT_OPEN:
            if shape[position] != "p":
                return None
            read = _properties(data, buf, tokens, k)
            if read is None:
                return None
            value, k = read
            values.append(value)
        elif kind == K_ARRAY_OPEN:
            if shape[position] != "a":
                return None
            elements = []
            k += 1
            while k < size and tokens.kinds[k] != K_ARRAY_CLOSE:
                kind = tokens.kinds[k]
                if kind == K_INT or kind == K_REAL:
                    value = _number(buf, kind, tokens.starts[k], tokens.ends[k])
                    if value is None:
                        return None
                    elements.append(value)
                elif kind == K_LITERAL:
                    elements.append(_literal_value(buf, tokens.starts[k], tokens.ends[k]))
                elif kind == K_HEX:
                    elements.append(_hex_string_value(buf, tokens.starts[k], tokens.ends[k]))
                else:
                    return None
                k += 1
            values.append(_untracked(tuple(elements)))
        else:
            return None
        position += 1
        k += 1
    if position != length:
        return None
    return _untracked(tuple(values))


def scan(bytes data, dict operators, Py_ssize_t max_operators):
    """Scan a content stream; None when qpdf must tokenise it.

    operators maps each operator qpdf reads (as bytes) to (name, wanted, shape): wanted
    operators are returned, with plain operand values when their tokens spell shape (see
    _operands; shape None: never). Returns (entries, spans, count, cut): entries are
    (index, name, operands) in stream order, operands None for the entries listed in spans as
    (entry position, start, end), the byte span of operands and operator for qpdf to read;
    count is the number of operators read; cut is True when reading stopped after
    max_operators + 1 operators (the caller's budget is then exceeded whatever follows).
    Operands after the last operator (a stream cut at the byte cap in the middle of 64 MB of
    numbers) are dropped, as qpdf drops them with the warning "Unexpected end of stream":
    cut is then None, for the caller to warn the same.
    """
    cdef const unsigned char *buf = <const unsigned char *> PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), i = 0, start, first = -1, count = 0
    cdef unsigned char c
    cdef char nesting[MAX_NESTING]
    cdef int depth = 0, digits, dots
    cdef Py_ssize_t j
    cdef _Tokens tokens = _Tokens()
    cdef list entries = [], spans = []
    cdef object info, values
    cdef _OperatorSlot slots[OPERATOR_SLOTS]
    _fill_slots(slots, operators)
    while i < n:
        c = buf[i]
        if CLASS[c] == 1:
            i += 1
            continue
        if c == 37:  # % comment to the end of the line
            while i < n and buf[i] != 10 and buf[i] != 13:
                i += 1
            continue
        start = i
        if c == 40:  # (
            i = _skip_literal(buf, i, n)
            if i < 0:
                return None
            tokens.push(K_LITERAL, start, i)
        elif c == 60:  # <
            if i + 1 < n and buf[i + 1] == 60:
                if depth == MAX_NESTING:
                    return None
                nesting[depth] = 60
                depth += 1
                i += 2
                tokens.push(K_DICT_OPEN, start, i)
            else:
                i += 1
                while i < n and buf[i] != 62:
                    if CLASS[buf[i]] != 1 and _hex_value(buf[i]) < 0:
                        return None
                    i += 1
                if i == n:
                    return None
                i += 1
                tokens.push(K_HEX, start, i)
        elif c == 62:  # >
            if i + 1 < n and buf[i + 1] == 62 and depth and nesting[depth - 1] == 60:
                depth -= 1
                i += 2
                tokens.push(K_DICT_CLOSE, start, i)
            else:
                return None
        elif c == 91:  # [
            if depth == MAX_NESTING:
                return None
            nesting[depth] = 91
            depth += 1
            i += 1
            tokens.push(K_ARRAY_OPEN, start, i)
        elif c == 93:  # ]
            if not depth or nesting[depth - 1] != 91:
                return None
            depth -= 1
            i += 1
            tokens.push(K_ARRAY_CLOSE, start, i)
        elif c == 47:  # / name
            i += 1
            while i < n and CLASS[buf[i]] == 0:
                i += 1
            tokens.push(K_NAME, start, i)
        elif CLASS[c] == 2:  # ) { } out of place
            return None
        else:
            while i < n and CLASS[buf[i]] == 0:
                i += 1
            # §7.3.3: an optional sign, digits and at most one period, at least one digit.
            j = start
            if buf[j] == 43 or buf[j] == 45:
                j += 1
            digits = dots = 0
            while j < i:
                if 48 <= buf[j] <= 57:
                    digits += 1
                elif buf[j] == 46:
                    dots += 1
                else:
                    break
                j += 1
            if j == i and digits and dots <= 1:
                tokens.push(K_REAL if dots else K_INT, start, i)
            elif i - start > PACKED_BYTES and data[start:i] in _KEYWORDS:
                tokens.push(K_KEYWORD, start, i)
            else:
                info = _operator_info(slots, operators, data, start, i)
                if info is None or depth:
                    return None
                if info[1]:
                    values = None if info[2] is None else _operands(data, buf, tokens, info[2])
                    entries.append(_untracked((count, info[0], values)))
                    if values is None:
                        first = tokens.starts[0] if tokens.size else start
                        spans.append((len(entries) - 1, first, i))
                count += 1
                tokens.size = 0
                if count > max_operators:
                    return entries, spans, count, True
    if depth:
        return None
    return entries, spans, count, None if tokens.size else False
