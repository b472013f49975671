# cython: language_level=3, boundscheck=False, wraparound=False
"""visible._decide_in_python compiled: the one sequential step of duplicate removal (spec §5),
walking the matching pairs in the scan's order."""

import numpy as np


def decide(
    const long long[::1] first,
    const long long[::1] second,
    const long long[::1] copy,
    unsigned char[::1] flags,
):
    """The indices of the pairs that drop their copy, in order: a pair one of whose glyphs
    is already dropped is passed over; `flags` (a bytearray) marks the dropped positions."""
    cdef Py_ssize_t k, taken = 0, count = first.shape[0]
    accepted = np.empty(count, dtype=np.int64)
    cdef long long[::1] out = accepted
    for k in range(count):
        if flags[first[k]] or flags[second[k]]:
            continue
        out[taken] = k
        taken += 1
        flags[copy[k]] = 1
    return accepted[:taken]
