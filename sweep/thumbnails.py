"""Small page pictures for the report: pdfium renders the page, the marks are drawn over it in
SVG, so the report stays one file (a PNG data URI inside an inline SVG).

pdfium renders the crop box with the page's /Rotate applied (§7.7.3.3, §14.11.2); marks are in
default user space and are carried through the same box and rotation. The report draws each
picture with `file_page_svg` in a contained process (core.contained), under the limits of the
sweep's workers: pdfium may abort, or refuse a page (a CropBox outside the MediaBox), and the
report is written all the same.
"""

from __future__ import annotations

import base64
import struct
import zlib
from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np

MARK_COLOURS = {
    "unresolved": "#d62728",
    "duplicate": "#ff7f0e",
    "off_box": "#9467bd",
    "changed": "#00a651",
}
THUMBNAIL_WIDTH = 180
THUMBNAIL_HEIGHT = 240


def png_bytes(rgb: np.ndarray) -> bytes:
    """A minimal PNG (8-bit RGB, no filtering) of an (height, width, 3) uint8 array."""
    height, width, _ = rgb.shape
    raw = np.zeros((height, width * 3 + 1), dtype=np.uint8)
    raw[:, 1:] = rgb.reshape(height, width * 3)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack("!I", len(data)) + body + struct.pack("!I", zlib.crc32(body))

    header = struct.pack("!IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw.tobytes(), 9))
        + chunk(b"IEND", b"")
    )


# The one document the drawing process keeps open, by path: the report asks for a file's
# pages in a row.
_open_documents: dict[str, Any] = {}


def file_page_svg(
    path: str, index: int, crop_box: Sequence[float], rotate: int, marks: Sequence[Sequence]
) -> str:
    """page_svg of page `index` (0-based) of the file at `path`."""
    import pypdfium2 as pdfium

    document = _open_documents.get(path)
    if document is None:
        for other in _open_documents.values():
            other.close()
        _open_documents.clear()
        document = _open_documents[path] = pdfium.PdfDocument(path)
    return page_svg(document, index, crop_box, rotate, marks)


def page_svg(
    pdfium_document,
    index: int,
    crop_box: Sequence[float],
    rotate: int,
    marks: Sequence[Sequence],
    width: int = THUMBNAIL_WIDTH,
    height: int = THUMBNAIL_HEIGHT,
) -> str:
    """An inline <svg> of page `index` (0-based), fitted in width × height pixels, with its
    marks as coloured rectangles."""
    page = pdfium_document[index]
    try:
        x0, y0, x1, y1 = crop_box
        box_width = max(x1 - x0, 1.0)
        box_height = max(y1 - y0, 1.0)
        shown_width, shown_height = (
            (box_width, box_height) if rotate % 180 == 0 else (box_height, box_width)
        )
        scale = min(width / shown_width, height / shown_height)
        bitmap = page.render(scale=scale, rotation=0, may_draw_forms=True)
        pixels = bitmap.to_numpy()
        rgb = pixels[:, :, 2::-1] if bitmap.mode in ("BGR", "BGRA", "BGRX") else pixels[:, :, :3]
        image_height, image_width = rgb.shape[:2]
        picture = base64.b64encode(png_bytes(np.ascontiguousarray(rgb))).decode("ascii")
    finally:
        page.close()
    shapes = []
    for kind, mx0, my0, mx1, my1 in marks:
        corners = [
            _to_pixels(x, y, crop_box, rotate % 360, scale) for x, y in ((mx0, my0), (mx1, my1))
        ]
        left, right = sorted(c[0] for c in corners)
        top, bottom = sorted(c[1] for c in corners)
        colour = MARK_COLOURS.get(kind, "#000")
        shapes.append(
            f'<rect x="{left - 1:.1f}" y="{top - 1:.1f}" width="{right - left + 2:.1f}" '
            f'height="{bottom - top + 2:.1f}" fill="{colour}" fill-opacity="0.25" '
            f'stroke="{colour}" stroke-width="1"><title>{escape(kind)}</title></rect>'
        )
    return (
        f'<svg class="thumb" width="{image_width}" height="{image_height}" '
        f'viewBox="0 0 {image_width} {image_height}">'
        f'<image width="{image_width}" height="{image_height}" '
        f'href="data:image/png;base64,{picture}"/>{"".join(shapes)}</svg>'
    )


def _to_pixels(
    x: float, y: float, crop_box: Sequence[float], rotate: int, scale: float
) -> tuple[float, float]:
    """User space → pixels of the rendered, rotated crop box."""
    x0, y0, x1, y1 = crop_box
    u, v = (x - x0) * scale, (y1 - y) * scale  # upright image: origin top left
    width, height = (x1 - x0) * scale, (y1 - y0) * scale
    if rotate == 90:  # shown turned clockwise
        return height - v, u
    if rotate == 180:
        return width - u, height - v
    if rotate == 270:
        return v, width - u
    return u, v
