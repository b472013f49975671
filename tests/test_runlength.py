"""The compiled RunLength decoder (core/pdf/_runlength.pyx) against the Python reference
(`streams._run_length`, §7.4.5): the same bytes, truncation and problem on any input and any
output budget, the end-of-data byte, runs cut by the end of the data and budgets met inside a
run included."""

from __future__ import annotations

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.pdf.streams import _run_length, decode_stream

compiled = pytest.importorskip("glyphscope.core.pdf._runlength")

_RUN = st.one_of(
    st.binary(min_size=1, max_size=129).map(lambda run: bytes([len(run) - 1]) + run),
    st.tuples(st.integers(129, 255), st.binary(max_size=1)).map(lambda r: bytes([r[0]]) + r[1]),
    st.just(b"\x80"),
)


@settings(max_examples=500, deadline=None)
@given(st.lists(_RUN, max_size=12).map(b"".join), st.integers(0, 3000))
def test_the_compiled_decoder_is_the_python_decoder_on_well_formed_runs(data, budget):
    assert compiled.run_length(data, budget) == _run_length(data, budget)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=600), st.integers(0, 3000))
def test_the_compiled_decoder_is_the_python_decoder_on_any_bytes(data, budget):
    assert compiled.run_length(data, budget) == _run_length(data, budget)


def test_a_stream_past_its_budget_is_cut_at_the_budget_and_marked_truncated():
    pdf = pikepdf.new()
    stream = pikepdf.Stream(pdf, b"\x81a" * 100 + b"\x80", Filter=pikepdf.Name.RunLengthDecode)
    decoded = decode_stream(stream, 1000)
    assert (decoded.data, decoded.truncated) == (b"a" * 1000, True)
