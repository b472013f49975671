"""Bounded stream decoding (core/streams.py): caps, chains, damaged Flate data."""

from __future__ import annotations

import zlib

from glyphscope.core.pdf.streams import decode_stream
from tests.pdfbuilder import PdfBuilder

CONTENT = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"


def _decode(data: bytes, max_bytes: int = 1 << 20, **entries):
    builder = PdfBuilder()
    return decode_stream(builder.pdf, builder.stream(data, **entries), max_bytes)


def test_flate_stream_with_a_wrong_checksum_keeps_its_content():
    damaged = zlib.compress(CONTENT)[:-4] + b"\0\0\0\0"
    assert _decode(damaged, Filter="/FlateDecode").data == CONTENT


def test_flate_stream_cut_short_keeps_what_was_inflated():
    long_content = b"".join(b"(%d) Tj " % (i * 7919 % 100003) for i in range(5000))
    compressed = zlib.compress(long_content)
    decoded = _decode(compressed[: len(compressed) // 2], Filter="/FlateDecode")
    assert long_content.startswith(decoded.data) and len(decoded.data) > len(long_content) // 3


def test_flate_output_is_capped_and_reported_truncated():
    decoded = _decode(zlib.compress(b"0" * 100_000), max_bytes=1000, Filter="/FlateDecode")
    assert (len(decoded.data), decoded.truncated) == (1000, True)


def test_run_length_decodes_literal_and_repeated_runs():
    decoded = _decode(b"\x02abc\xfdx\x80", Filter="/RunLengthDecode")
    assert decoded.data == b"abcxxxx"


def test_filter_chain_is_decoded_stage_by_stage():
    data = zlib.compress(CONTENT).hex().encode() + b">"
    decoded = _decode(data, Filter=["/ASCIIHexDecode", "/FlateDecode"])
    assert (decoded.data, decoded.problem) == (CONTENT, "")


def test_unknown_filter_is_a_problem_not_an_exception():
    decoded = _decode(b"xx", Filter="/NoSuchDecode")
    assert decoded.data == b"" and "NoSuchDecode" in decoded.problem
