"""Reading order's compiled run loop (`core/text/_builder.pyx`) against its Python path: the
characters, owners and blank tail written for random runs of glyphs (blanks, white space of
other kinds, multi-character and empty texts) after random builder states, and reading order
of random pages written by either path."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import glyphscope.core.text.reading as reading

compiled = pytest.importorskip("glyphscope.core.text._builder")

_text = st.sampled_from(["a", " ", "\u3000", "\n", "", "ﬁ", "bc", "  ", "\t", "x "])


@st.composite
def _runs(draw):
    before = draw(st.lists(st.sampled_from(["a", " ", "\n", "\u3000"]), max_size=5))
    tail = draw(st.integers(0, len(before)))
    count = draw(st.integers(0, 12))
    texts = draw(st.lists(_text, min_size=count, max_size=count))
    blanks = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    separators = draw(st.lists(st.sampled_from([0, 1, 2]), min_size=count, max_size=count))
    return before, tail, list(range(count)), texts, blanks, separators


@settings(max_examples=1000, deadline=None)
@given(_runs())
def test_the_compiled_run_writes_what_the_python_run_writes(run):
    before, tail, indices, texts, blanks, separators = run
    results = []
    for write in (reading.run_in_python, compiled.run):
        chars, owners = list(before), [-1] * len(before)
        after = write(chars, owners, tail, indices, texts, blanks, separators)
        results.append((chars, owners, after))
    assert results[0] == results[1]
