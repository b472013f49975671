"""Hostile PDFs for the inspector's worker processes: small files that expand to gigabytes in
pdfium or the engine, and damaged copies of corpus files (built in the test, never stored)."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

from tests.pdfbuilder import PdfBuilder

SHOW_IMAGE = b"q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 24 Tf 72 700 Td (Bomb) Tj ET"


def _zeros_deflated(size: int) -> bytes:
    """zlib data of `size` zero bytes, compressed a megabyte at a time (never held whole)."""
    compressor = zlib.compressobj(9)
    chunk = bytes(2**20)
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    return b"".join(parts) + compressor.flush()


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


def damaged_copy(source: Path, target: Path, seed: int, start: int, count: int = 2000) -> Path:
    """`source` with `count` bytes from `start` replaced by seeded random bytes."""
    rng = random.Random(seed)
    data = bytearray(source.read_bytes())
    for offset in range(start, min(start + count, len(data))):
        data[offset] = rng.randrange(256)
    target.write_bytes(bytes(data))
    return target
