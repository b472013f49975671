"""Bounded stream decoding (§7.3.8, §7.4).

qpdf decodes a stream in one go with no size limit, so a chain of expanding filters (a 5-byte
ASCIIHex stream followed by eight RunLengthDecode stages, each able to repeat a byte 128
times) keeps it busy for minutes and then exhausts memory. We therefore decode one filter
stage at a time and stop as soon as a stage's output passes the cap. The two filters that can
expand without bound are decoded here with an output budget (zlib's `max_length`, and
RunLength, §7.4.5, whose format is two lines of arithmetic); every other stage is handed to
pikepdf alone, on input that is already within the cap.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

import pikepdf

# Filter abbreviations allowed in inline images and tolerated by readers in streams (§8.9.7).
_FILTER_ALIASES = {
    "/Fl": "/FlateDecode",
    "/RL": "/RunLengthDecode",
    "/AHx": "/ASCIIHexDecode",
    "/A85": "/ASCII85Decode",
    "/LZW": "/LZWDecode",
}
_ZLIB_CHUNK = 1 << 12


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


def _with_pikepdf(
    pdf: pikepdf.Pdf, data: bytes, name: str, parms: object
) -> tuple[bytes, bool, str]:
    stage = pikepdf.Stream(pdf, data)
    stage.Filter = pikepdf.Name(name)
    if isinstance(parms, pikepdf.Dictionary):
        stage.DecodeParms = parms
    try:
        return stage.read_bytes(), False, ""
    except (pikepdf.PdfError, RuntimeError, ValueError) as exc:
        return b"", False, f"{name[1:]}: {exc}"


def decode_stream(pdf: pikepdf.Pdf, stream: pikepdf.Stream, max_bytes: int) -> DecodedStream:
    """The decoded bytes of a stream owned by pdf, never more than max_bytes.

    Decryption (§7.6) is qpdf's: read_raw_bytes returns decrypted, still-filtered data.
    """
    try:
        data = stream.read_raw_bytes()
        filters = [_FILTER_ALIASES.get(str(f), str(f)) for f in _as_list(stream.get("/Filter"))]
        parms = _as_list(stream.get("/DecodeParms"))
    except (pikepdf.PdfError, RuntimeError, ValueError) as exc:
        return DecodedStream(b"", False, f"unreadable stream: {exc}")
    truncated = False
    for position, name in enumerate(filters):
        parm = parms[position] if position < len(parms) else None
        if name == "/FlateDecode" and not _has_predictor(parm):
            data, truncated, problem = _inflate(data, max_bytes)
        elif name == "/RunLengthDecode":
            data, truncated, problem = _run_length(data, max_bytes)
        else:
            data, truncated, problem = _with_pikepdf(pdf, data, name, parm)
            if len(data) > max_bytes:
                data, truncated = data[:max_bytes], True
        if problem or truncated:
            return DecodedStream(data, truncated, problem)
    return DecodedStream(data, False, "")


def _has_predictor(parms: object) -> bool:
    """§7.4.4.4: a Predictor > 1 needs qpdf's PNG/TIFF un-filtering."""
    if not isinstance(parms, pikepdf.Dictionary):
        return False
    try:
        return int(parms.get("/Predictor", 1)) > 1
    except (TypeError, ValueError):
        return False
