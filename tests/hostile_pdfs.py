"""Hostile PDFs for the inspector's worker processes: small files that expand to gigabytes in
pdfium or the engine, and damaged copies of corpus files (built in the test, never stored)."""

from __future__ import annotations

import functools
import random
import zlib
from collections.abc import Callable
from pathlib import Path

import pikepdf

from tests.pdfbuilder import PdfBuilder

SHOW_IMAGE = b"q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 24 Tf 72 700 Td (Bomb) Tj ET"


def _deflate_zeros(compressor: zlib._Compress, size: int) -> bytes:
    """What `compressor` makes of `size` zero bytes, a megabyte at a time (never held whole),
    flushed."""
    chunk = bytes(2**20)
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    return b"".join(parts) + compressor.flush()


@functools.cache
def _zeros_deflated(size: int) -> bytes:
    """zlib data of `size` zero bytes (made once per size: a 2.7 GB bomb takes seconds)."""
    return _deflate_zeros(zlib.compressobj(9), size)


def _image_page(path: Path, data: bytes, filters: list[str], side: int) -> Path:
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    image = builder.stream(
        data,
        Type="/XObject",
        Subtype="/Image",
        Width=side,
        Height=side,
        ColorSpace="/DeviceRGB",
        BitsPerComponent=8,
        Filter=filters if len(filters) > 1 else filters[0],
    )
    builder.add_page(SHOW_IMAGE, fonts={"F1": helv}, xobjects={"Im1": image})
    builder.save(path)
    return path


def flate_bomb_pdf(path: Path, side: int = 30_000) -> Path:
    """An RGB image of side × side pixels of Flate-compressed zeros (2.7 GB decoded, 2.6 MB)."""
    return _image_page(path, _zeros_deflated(side * side * 3), ["/FlateDecode"], side)


def run_length_bomb_pdf(path: Path, side: int = 30_000) -> Path:
    """The same image as RunLength runs of 128 zeros (§7.4.5), then deflated."""
    runs = side * side * 3 // 128
    compressor = zlib.compressobj(9)
    block = b"\x81\x00" * 2**19
    parts = [compressor.compress(block) for _ in range(runs // 2**19)]
    data = b"".join(parts) + compressor.flush()
    return _image_page(path, data, ["/FlateDecode", "/RunLengthDecode"], side)


def huge_page_pdf(path: Path) -> Path:
    """A 14,400-unit page at UserUnit 75 (§14.11.2.2): 15 km on a side, text in a corner."""
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 24 Tf 72 700 Td (Huge) Tj ET",
        media_box=(0, 0, 14_400, 14_400),
        user_unit=75.0,
        fonts={"F1": helv},
    )
    builder.save(path)
    return path


# pdfium reads the streams below whole, unlike images, and aborts the process (SIGABRT) when
# the allocation fails: 2.7 GB each, over the render worker's 2 GB cap and any CLI's 1 GB.
PDFIUM_BOMB_BYTES = 30_000 * 30_000 * 3
BOMB_TEXT = b"BT /F1 24 Tf 72 700 Td (Bomb) Tj ET"


def _bomb_stream(builder: PdfBuilder, **entries: object) -> pikepdf.Stream:
    return builder.stream(_zeros_deflated(PDFIUM_BOMB_BYTES), Filter="/FlateDecode", **entries)


def _then_a_text_page(builder: PdfBuilder, path: Path) -> Path:
    """A second, harmless page, to turn to after the bomb."""
    builder.add_page(
        b"BT /F1 24 Tf 72 700 Td (After) Tj ET", fonts={"F1": builder.standard_font("Helvetica")}
    )
    builder.save(path)
    return path


def icc_profile_bomb_pdf(path: Path) -> Path:
    """Page 1 fills itself in an ICCBased colour space (§8.6.5.5) whose profile stream
    decodes to 2.7 GB of zeros; the text is drawn in DeviceGray. Page 2 is plain text."""
    builder = PdfBuilder()
    profile = _bomb_stream(builder, N=3)
    builder.add_page(
        b"/CS1 cs 0.5 0.5 0.5 sc 0 0 612 792 re f 0 g " + BOMB_TEXT,
        fonts={"F1": builder.standard_font("Helvetica")},
    )
    resources = builder.page_object(0).Resources
    resources.ColorSpace = pikepdf.Dictionary(CS1=pikepdf.Array([pikepdf.Name.ICCBased, profile]))
    return _then_a_text_page(builder, path)


def font_program_bomb_pdf(path: Path) -> Path:
    """Page 1's text is in a TrueType font whose FontFile2 decodes to 2.7 GB of zeros (the
    engine skips a program over max_font_program_bytes and reads the text by its encoding).
    Page 2 is plain text."""
    builder = PdfBuilder()
    font = builder.truetype_font()
    font.FontDescriptor.FontFile2 = _bomb_stream(builder)
    builder.add_page(BOMB_TEXT, fonts={"F1": font})
    return _then_a_text_page(builder, path)


def content_stream_bomb_pdf(path: Path) -> Path:
    """Page 1's content is the text and then 2.7 GB of NUL bytes (whitespace, §7.2.3): the
    engine reads it under max_stream_bytes, pdfium whole. Page 2 is plain text."""
    builder = PdfBuilder()
    compressor = zlib.compressobj(9)
    head = compressor.compress(BOMB_TEXT + b" ")
    data = head + _deflate_zeros(compressor, PDFIUM_BOMB_BYTES)
    builder.add_page(
        builder.stream(data, Filter="/FlateDecode"),
        fonts={"F1": builder.standard_font("Helvetica")},
    )
    return _then_a_text_page(builder, path)


# The files pdfium cannot survive in-process, by the name the tests and the campaign use.
PDFIUM_BOMBS: dict[str, Callable[[Path], Path]] = {
    "icc_profile_bomb": icc_profile_bomb_pdf,
    "font_program_pdfium_bomb": font_program_bomb_pdf,
    "content_stream_pdfium_bomb": content_stream_bomb_pdf,
}


def damaged_copy(source: Path, target: Path, seed: int, start: int, count: int = 2000) -> Path:
    """`source` with `count` bytes from `start` replaced by seeded random bytes."""
    rng = random.Random(seed)
    data = bytearray(source.read_bytes())
    for offset in range(start, min(start + count, len(data))):
        data[offset] = rng.randrange(256)
    target.write_bytes(bytes(data))
    return target
