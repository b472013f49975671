"""Bounded stream decoding (§7.3.8, §7.4).

qpdf decodes a stream in one go with no size limit, so a chain of expanding filters (a 5-byte
ASCIIHex stream followed by eight RunLengthDecode stages, each able to repeat a byte 128
times) keeps it busy for minutes and then exhausts memory. We therefore decode one filter
stage at a time and stop as soon as a stage's output passes the cap. The filters that can
expand without bound are decoded here with an output budget: Flate (zlib's `max_length`),
LZW (§7.4.4.2, a table of at most 4096 strings) and RunLength (§7.4.5). ASCII85 expands at
most fourfold (`z`, §7.4.3), so it gets only as much input as the budget can hold. A
/Predictor (§7.4.4.4) is applied by qpdf to output already within the cap, after its
parameters are checked: a declared row wider than the cap, or bits per component the
standard does not define, is refused rather than handed to a decoder that allocates the row.
Every decoder failure, ours or qpdf's, becomes the `problem` of the result, never an exception.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

import pikepdf

from glyphscope.core import compiled

# Filter abbreviations allowed in inline images and tolerated by readers in streams (§8.9.7).
_FILTER_ALIASES = {
    "/Fl": "/FlateDecode",
    "/RL": "/RunLengthDecode",
    "/AHx": "/ASCIIHexDecode",
    "/A85": "/ASCII85Decode",
    "/LZW": "/LZWDecode",
}
_ZLIB_CHUNK = 1 << 12
# §7.4.4.4 Table 8: the bits per component a predictor may declare.
_PREDICTOR_BITS = (1, 2, 4, 8, 16)
_PREDICTOR_DEFAULTS = {"Predictor": 1, "Colors": 1, "BitsPerComponent": 8, "Columns": 1}
# §7.4.4.2: LZW codes 256 (clear table) and 257 (end of data); the table holds 4096 entries.
_LZW_CLEAR, _LZW_END, _LZW_TABLE_SIZE = 256, 257, 4096
# Output of one ASCII85 character in fifths of a byte: 4 for a digit, 20 for `z` (four zero
# bytes), 0 for the white space it skips (§7.2.3).
_ASCII85_SPACE = (b"\x00", b"\t", b"\n", b"\x0c", b"\r", b" ")
_ASCII85_FIFTHS = tuple(
    0 if bytes((byte,)) in _ASCII85_SPACE else 20 if byte == ord("z") else 4 for byte in range(256)
)
_ASCII85_CHUNK = 1 << 20


class DecodedStream(NamedTuple):
    data: bytes
    truncated: bool
    problem: str  # "" when the stream decoded cleanly


def _as_list(value: object) -> list:
    if value is None:
        return []
    if isinstance(value, pikepdf.Array):
        return list(value)
    return [value]


def _inflate(data: bytes, budget: int) -> tuple[bytes, bool, str]:
    """zlib inflate with an output budget; a corrupt tail keeps what was inflated before it.

    The zlib wrapper's header and Adler-32 checksum are skipped (raw deflate), as qpdf and
    pdf.js do in effect: a stream whose checksum is wrong still holds good content.
    """
    has_header = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
    inflater = zlib.decompressobj(-zlib.MAX_WBITS if has_header else zlib.MAX_WBITS)
    if has_header:
        data = data[2:]
    out = bytearray()
    for start in range(0, len(data), _ZLIB_CHUNK):
        try:
            out += inflater.decompress(data[start : start + _ZLIB_CHUNK], budget + 1 - len(out))
        except zlib.error as exc:
            return bytes(out[:budget]), False, f"FlateDecode: {exc}"
        if len(out) > budget or inflater.unconsumed_tail:
            return bytes(out[:budget]), True, ""
        if inflater.eof:
            break
    return bytes(out), False, ""


def _run_length(data: bytes, budget: int) -> tuple[bytes, bool, str]:
    """§7.4.5: length byte n < 128 copies n+1 bytes, n > 128 repeats the next byte 257-n times."""
    out = bytearray()
    position, size = 0, len(data)
    while position < size:
        length = data[position]
        if length == 128:
            break
        if length < 128:
            out += data[position + 1 : position + 2 + length]
            position += 2 + length
        else:
            out += data[position + 1 : position + 2] * (257 - length)
            position += 2
        if len(out) > budget:
            return bytes(out[:budget]), True, ""
    return bytes(out), False, ""


def _lzw(data: bytes, budget: int, early_change: int) -> tuple[bytes, bool, str]:
    """§7.4.4.2 LZW with an output budget, code for code as qpdf's decoder: 9- to 12-bit codes,
    widened one code early when /EarlyChange is 1 (the default); a bad code or a full table
    ends the stream and keeps what was decoded before it."""
    out = bytearray()
    table: list[bytes] = []
    code_size, last, previous = 9, _LZW_CLEAR, b""
    bits = count = 0
    for byte in data:
        bits, count = (bits << 8) | byte, count + 8
        if count < code_size:
            continue
        count -= code_size
        code = bits >> count
        bits &= (1 << count) - 1
        if code == _LZW_CLEAR:
            table.clear()
            code_size, last = 9, code
            continue
        if code == _LZW_END:
            break
        if code < 256:
            entry = bytes((code,))
        elif code - 258 < len(table):
            entry = table[code - 258]
        elif code - 258 == len(table) and last != _LZW_CLEAR:
            entry = previous + previous[:1]  # the entry the encoder has just made (KwKwK)
        else:
            return bytes(out[:budget]), False, "LZWDecode: bad code received"
        if last != _LZW_CLEAR:
            if 258 + len(table) == _LZW_TABLE_SIZE:
                return bytes(out[:budget]), False, "LZWDecode: table full"
            table.append(previous + entry[:1])
            if 258 + len(table) - 1 + early_change in (511, 1023, 2047):
                code_size += 1
        out += entry
        if len(out) > budget:
            return bytes(out[:budget]), True, ""
        previous, last = entry, code
    return bytes(out), False, ""


def _ascii85_input(data: bytes, budget: int) -> tuple[bytes, bool]:
    """The prefix of ASCII85 data whose output fits the budget: five characters make four
    bytes and `z` makes four zero bytes (§7.4.3), so the output is bounded before decoding.
    Whole chunks are counted with bytes.count; the last one character by character."""
    if len(data) * 4 <= budget:
        return data, False
    limit, total = 5 * (budget + 4), 0
    for start in range(0, len(data), _ASCII85_CHUNK):
        chunk = data[start : start + _ASCII85_CHUNK]
        skipped = sum(chunk.count(space) for space in _ASCII85_SPACE)
        fifths = 4 * (len(chunk) - skipped) + 16 * chunk.count(b"z")
        if total + fifths > limit:
            # numpy only here, for the one chunk that crosses the budget: the text path does
            # not pay its import for the streams that fit (nearly all of them).
            import numpy as np

            table = np.array(_ASCII85_FIFTHS, dtype=np.int64)
            output = total + np.cumsum(table[np.frombuffer(chunk, dtype=np.uint8)])
            end = start + int(np.searchsorted(output, limit, side="right"))
            return data[:end], True
        total += fifths
    return data, False


def _with_pikepdf(
    data: bytes, name: str, parms: dict[str, int] | None = None
) -> tuple[bytes, bool, str]:
    """One stage decoded by qpdf, in a PDF of its own: a stream made in the document would
    keep its data there (qpdf streams are indirect objects) for as long as the file is open."""
    try:
        with pikepdf.new() as scratch:
            stage = pikepdf.Stream(scratch, data)
            stage.Filter = pikepdf.Name(name)
            if parms:
                stage.DecodeParms = pikepdf.Dictionary({f"/{k}": v for k, v in parms.items()})
            return stage.read_bytes(), False, ""
    except Exception as exc:  # qpdf's decoders raise whatever C++ threw; the page goes on
        return b"", False, f"{name[1:]}: {exc}"


def _has_predictor(parms: object) -> bool:
    """§7.4.4.4: a Predictor > 1 (2 TIFF, 10–15 PNG) needs un-filtering after the stage."""
    if not isinstance(parms, pikepdf.Dictionary):
        return False
    try:
        return int(parms.get("/Predictor", 1)) > 1
    except (TypeError, ValueError, OverflowError):
        return False


def _predictor_parameters(parms: pikepdf.Dictionary, budget: int) -> dict[str, int] | str:
    """The §7.4.4.4 Table 8 parameters qpdf may un-predict with, or why it must not."""
    try:
        values = {
            key: int(parms.get(f"/{key}", default)) for key, default in _PREDICTOR_DEFAULTS.items()
        }
    except (TypeError, ValueError, OverflowError):
        return "unreadable /DecodeParms"
    bits, colors, columns = values["BitsPerComponent"], values["Colors"], values["Columns"]
    if bits not in _PREDICTOR_BITS:
        return f"/BitsPerComponent {bits} is not 1, 2, 4, 8 or 16"
    if colors < 1 or columns < 1:
        return f"/Colors {colors} /Columns {columns} describe no pixel"
    row = (colors * bits * columns + 7) // 8
    if row > budget:
        return f"a predictor row of {row} bytes is larger than the {budget}-byte cap"
    return values


def _unpredict(data: bytes, name: str, parms: pikepdf.Dictionary, budget: int) -> tuple[bytes, str]:
    """Apply the predictor of a Flate or LZW stage to its (bounded) output: qpdf un-filters a
    stored-block Flate stream holding exactly that output with the stage's parameters."""
    values = _predictor_parameters(parms, budget)
    if isinstance(values, str):
        return b"", f"{name[1:]}: {values}"
    data, _, problem = _with_pikepdf(zlib.compress(data, 0), "/FlateDecode", values)
    return data, problem.replace("FlateDecode", name[1:], 1)


def decode_stream(stream: pikepdf.Stream, max_bytes: int) -> DecodedStream:
    """The decoded bytes of a stream, never more than max_bytes.

    Decryption (§7.6) is qpdf's: read_raw_bytes returns decrypted, still-filtered data.
    """
    try:
        data = stream.read_raw_bytes()
        filters = [_FILTER_ALIASES.get(str(f), str(f)) for f in _as_list(stream.get("/Filter"))]
        parms = _as_list(stream.get("/DecodeParms"))
    except Exception as exc:  # a broken stream object, whatever qpdf raised for it
        return DecodedStream(b"", False, f"unreadable stream: {exc}")
    if len(data) > max_bytes and not filters:
        return DecodedStream(data[:max_bytes], True, "")
    truncated = False
    for position, name in enumerate(filters):
        parm = parms[position] if position < len(parms) else None
        if name == "/FlateDecode":
            data, truncated, problem = _inflate(data, max_bytes)
        elif name == "/LZWDecode":
            data, truncated, problem = _lzw(data, max_bytes, _early_change(parm))
        elif name == "/RunLengthDecode":
            data, truncated, problem = _decode_run_length(data, max_bytes)
        elif name == "/ASCII85Decode":
            data, truncated = _ascii85_input(data, max_bytes)
            data, _, problem = _with_pikepdf(data, name)
        else:
            data, _, problem = _with_pikepdf(data, name)
        if (
            data
            and name in ("/FlateDecode", "/LZWDecode")
            and isinstance(parm, pikepdf.Dictionary)
            and _has_predictor(parm)
        ):
            # A damaged stage keeps its prefix, so the prefix is un-predicted too.
            data, predictor_problem = _unpredict(data, name, parm, max_bytes)
            problem = problem or predictor_problem
        if len(data) > max_bytes:
            data, truncated = data[:max_bytes], True
        if problem or truncated:
            return DecodedStream(data, truncated, problem)
    return DecodedStream(data, False, "")


def byte_size(count: int) -> str:
    """A cap for a message: "16 MB" for whole megabytes, else the byte count."""
    return f"{count >> 20} MB" if count and count % (1 << 20) == 0 else f"{count} bytes"


def _early_change(parms: object) -> int:
    """§7.4.4.2 Table 7 /EarlyChange: 1 (default) widens codes one entry early, 0 does not."""
    if not isinstance(parms, pikepdf.Dictionary):
        return 1
    try:
        return 0 if int(parms.get("/EarlyChange", 1)) == 0 else 1
    except (TypeError, ValueError, OverflowError):
        return 1


# RunLengthDecode compiled (_runlength.pyx) where it was built; _run_length is its reference.
_runlength_loop = compiled.load("glyphscope.core.pdf._runlength")
_decode_run_length = _run_length if _runlength_loop is None else _runlength_loop.run_length
