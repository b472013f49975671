# cython: language_level=3, boundscheck=False, wraparound=False
"""RunLengthDecode (ISO 32000-1 §7.4.5) compiled: `streams._run_length` byte for byte.

A length byte n < 128 copies the next n + 1 bytes (fewer when the data ends first), n > 128
repeats the next byte 257 - n times (nothing when no byte follows), 128 is the end of data.
The output budget is the Python decoder's: once the output passes it, decoding stops and the
first `budget` bytes are returned as truncated. The Python decoder stays as the reference;
tests/test_runlength.py holds the two equal.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.string cimport memcpy, memset


cdef Py_ssize_t _decode(
    const unsigned char[::1] data, char *out, Py_ssize_t budget, Py_ssize_t room
) noexcept nogil:
    """Walk the runs: the bytes produced until the output passes `budget` or the data ends
    (at most budget + 128 when it passes), writing the first `room` of them to `out` when
    given."""
    cdef Py_ssize_t position = 0, size = data.shape[0], produced = 0, count, write
    cdef unsigned char length
    while position < size:
        length = data[position]
        if length == 128:
            break
        if length < 128:
            count = min(<Py_ssize_t>length + 1, size - position - 1)
            if out != NULL and produced < room:
                write = min(count, room - produced)
                memcpy(out + produced, &data[position + 1], write)
            position += 2 + length
        else:
            count = 257 - length if position + 1 < size else 0
            if out != NULL and produced < room and count:
                write = min(count, room - produced)
                memset(out + produced, data[position + 1], write)
            position += 2
        produced += count
        if produced > budget:
            break
    return produced


def run_length(const unsigned char[::1] data, Py_ssize_t budget):
    """(decoded bytes, truncated, problem) as streams._run_length returns them."""
    cdef Py_ssize_t produced = _decode(data, NULL, budget, 0)
    cdef Py_ssize_t kept = min(produced, budget)
    out = PyBytes_FromStringAndSize(NULL, kept)
    _decode(data, PyBytes_AS_STRING(out), budget, kept)
    return out, produced > budget, ""
