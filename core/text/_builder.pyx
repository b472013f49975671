# cython: language_level=3, boundscheck=False, wraparound=False
"""reading.run_in_python compiled: TextBuilder.run, the loop that writes a run of glyphs of
reading order (spec §6) with their separators, blanks collapsing, step for step on the same
lists. tests/test_builder_run.py holds the two against each other."""

# reading.TextBuilder.run separators (reading.SPACE, reading.NEWLINE).
cdef enum:
    SPACE = 1
    NEWLINE = 2


def run(
    list chars, list owners, Py_ssize_t tail, list indices, list texts, list blanks, list separators
):
    """Write the run into `chars` and `owners` after `tail` trimmable blank characters; the
    blank tail after it (see reading.run_in_python)."""
    cdef Py_ssize_t k, j, size, count = len(indices), start
    cdef long separator
    cdef object index
    cdef str text, last
    if len(texts) != count or len(blanks) != count or len(separators) != count:
        raise ValueError("run: indices, texts, blanks and separators differ in length")
    for k in range(count):
        index, text, separator = indices[k], texts[k], separators[k]
        if separator == SPACE:
            chars.append(" ")
            owners.append(-1)
            tail = 0
        elif separator == NEWLINE:
            if tail:
                start = len(chars) - tail
                if start < 0:
                    start = 0
                del chars[start:]
                del owners[start:]
                tail = 0
            if chars and chars[len(chars) - 1] != "\n":
                chars.append("\n")
                owners.append(-1)
        size = len(text)
        if blanks[k]:
            if not chars:
                continue
            last = chars[len(chars) - 1]
            if last == "\n" or last.isspace():
                continue
            tail += size
        else:
            tail = 0
        if size == 1:
            chars.append(text)
            owners.append(index)
        else:
            for j in range(size):
                chars.append(text[j])
                owners.append(index)
    return tail
