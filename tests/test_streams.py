"""Bounded stream decoding (core/streams.py): caps, chains, damaged Flate data."""

from __future__ import annotations

import zlib

from glyphscope.core.pdf.streams import decode_stream
from tests.pdfbuilder import PdfBuilder, lzw_codes, lzw_encode

CONTENT = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"


def _decode(data: bytes, max_bytes: int = 1 << 20, **entries):
    builder = PdfBuilder()
    return decode_stream(builder.stream(data, **entries), max_bytes)


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


# -- LZW (§7.4.4.2) -------------------------------------------------------------------------


def test_lzw_decodes_the_standards_example():
    # §7.4.4.2 Example: the codes 256 45 258 258 65 259 66 257 written as 9-bit codes.
    decoded = _decode(bytes.fromhex("800B6050220C0C8501"), Filter="/LZWDecode")
    assert (decoded.data, decoded.problem) == (b"-----A---B", "")


def test_lzw_decodes_as_qpdf_does_with_and_without_early_change():
    data = b"".join(b"(%d) Tj " % (i * 7919 % 100003) for i in range(4000))
    for early in (0, 1):
        builder = PdfBuilder()
        stream = builder.stream(
            lzw_encode(data, early), Filter="/LZWDecode", DecodeParms={"EarlyChange": early}
        )
        decoded = decode_stream(stream, 1 << 20)
        assert decoded.data == stream.read_bytes() == data


def test_lzw_bomb_stops_at_the_cap():
    # Each code after a clear repeats the previous string plus one byte: 3,800 codes (5 KB)
    # make 7 MB of zeros, and the cycle repeats.
    codes = ([256, 0, *range(258, 4000)] * 40) + [257]
    bomb = lzw_codes(codes)
    assert len(bomb) < 300_000
    decoded = _decode(bomb, max_bytes=1 << 20, Filter="/LZWDecode")
    assert (len(decoded.data), decoded.truncated, decoded.problem) == (1 << 20, True, "")


def test_lzw_bad_code_keeps_what_came_before_it():
    decoded = _decode(lzw_codes([256, 65, 66, 300, 67, 257]), Filter="/LZWDecode")
    assert (decoded.data, decoded.problem) == (b"AB", "LZWDecode: bad code received")


# -- predictors (§7.4.4.4) --------------------------------------------------------------------


def _png_rows(rows: list[bytes], tag: int = 2) -> bytes:
    return b"".join(bytes((tag,)) + row for row in rows)


def test_png_predictor_is_applied_as_qpdf_does():
    rows = [bytes(range(i, i + 6)) for i in range(0, 60, 6)]
    parms = {"Predictor": 12, "Columns": 6}
    builder = PdfBuilder()
    stream = builder.stream(
        zlib.compress(_png_rows(rows, tag=1)), Filter="/FlateDecode", DecodeParms=parms
    )
    decoded = decode_stream(stream, 1 << 20)
    assert decoded.data == stream.read_bytes() and decoded.problem == ""


def test_predictor_bomb_stops_at_the_cap():
    # 64 MB of "Up" rows of zeros compress to 200 KB.
    bomb = zlib.compress(_png_rows([bytes(63)] * (1 << 20)), 9)
    assert len(bomb) < 250_000
    decoded = _decode(
        bomb,
        max_bytes=1 << 20,
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 12, "Columns": 63},
    )
    assert decoded.truncated and len(decoded.data) <= 1 << 20 and decoded.problem == ""


def test_predictor_row_wider_than_the_cap_is_refused():
    decoded = _decode(
        zlib.compress(b"\x00" * 1000),
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 12, "Columns": 2147483647},
    )
    assert decoded.data == b""
    assert decoded.problem == (
        "FlateDecode: a predictor row of 2147483647 bytes is larger than the 1048576-byte cap"
    )


def test_predictor_bits_the_standard_does_not_define_are_refused():
    decoded = _decode(
        zlib.compress(b"\x00" * 100),
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 2, "BitsPerComponent": 64, "Columns": 4},
    )
    assert decoded.problem == "FlateDecode: /BitsPerComponent 64 is not 1, 2, 4, 8 or 16"


def test_lzw_with_a_tiff_predictor():
    parms = {"Predictor": 2, "Columns": 4}
    builder = PdfBuilder()
    stream = builder.stream(
        lzw_encode(b"\x01\x01\x01\x01" * 8), Filter="/LZWDecode", DecodeParms=parms
    )
    decoded = decode_stream(stream, 1 << 20)
    assert decoded.data == stream.read_bytes() == b"\x01\x02\x03\x04" * 8


# -- ASCII85 (§7.4.3) and failures --------------------------------------------------------------


def test_ascii85_zero_groups_stop_at_the_cap():
    decoded = _decode(b"z" * 1_000_000 + b"~>", max_bytes=1000, Filter="/ASCII85Decode")
    assert (decoded.data, decoded.truncated) == (bytes(1000), True)


def test_ascii85_within_the_cap_decodes_whole():
    decoded = _decode(b"9jqo^ z~>", Filter="/ASCII85Decode")
    assert (decoded.data, decoded.truncated, decoded.problem) == (b"Man " + bytes(4), False, "")


def test_garbage_parameters_are_a_problem_not_an_exception():
    decoded = _decode(
        zlib.compress(b"\x00abc"),
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 12, "Columns": -3},
    )
    assert decoded.data == b"" and decoded.problem.startswith("FlateDecode: /Colors 1 /Columns -3")
