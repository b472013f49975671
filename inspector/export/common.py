"""What the exports share: the legend's sections and sizes, the scene area exported, PNG bytes
of an image (raster exports in inspector/export/exporters.py, vector SVG in
inspector/export/svg.py), and files written whole or not at all with the user's usual
permissions, with a message a user understands when that fails."""

from __future__ import annotations

import base64
import errno
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QImage

from glyphscope.widgets.overlay_base import LegendEntry
from glyphscope.widgets.overlay_layers import GlyphQuadsLayer

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

__all__ = [
    "LEGEND_MARGIN",
    "LEGEND_ROW",
    "LEGEND_WIDTH",
    "LegendSection",
    "base64_text",
    "legend_height",
    "legend_sections",
    "page_rect",
    "open_temporary",
    "png_bytes",
    "utf8_pieces",
    "write_failure",
]

LEGEND_WIDTH = 280.0  # display points
LEGEND_ROW = 15.0
LEGEND_MARGIN = 10.0


@dataclass(frozen=True, slots=True)
class LegendSection:
    title: str
    entries: tuple[LegendEntry, ...]


def legend_sections(window: MainWindow, layer_ids: Sequence[str]) -> list[LegendSection]:
    sections = []
    for layer_id in layer_ids:
        layer = window.layers.get(layer_id)
        if layer is None:
            continue
        if isinstance(layer, GlyphQuadsLayer):
            entries = layer.legend_for(window.model)
        else:
            entries = layer.legend()
        sections.append(LegendSection(layer.title, tuple(entries)))
    return sections


def legend_height(sections: Sequence[LegendSection]) -> float:
    rows = sum(1 + len(section.entries) for section in sections)
    return LEGEND_MARGIN * 2 + rows * LEGEND_ROW + len(sections) * 4


def page_rect(window: MainWindow) -> QRectF:
    """The scene area of the page and every overlay outside it (slug lines, MediaBox)."""
    return QRectF(window.view.page_scene_rect())


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stub types the format as bytes; the binding takes str (bytes: ValueError).
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


# Characters (or bytes) one call of the text exports' string functions takes at most. A worker
# thread that makes a page's SVG or bundle text holds the GIL for the whole of a call of
# str.encode, str.replace or b64encode: over a bundle's 10 MB at once that kept the GUI
# thread waiting 13 to 18 ms a call. A quarter of a million take well under 1 ms each.
TEXT_PIECE = 1 << 18


def utf8_pieces(parts: Iterable[str]) -> list[bytes]:
    """The UTF-8 bytes of "".join(parts), as pieces written one after the other: each part
    encoded TEXT_PIECE characters at a time (a str slice ends between two code points, so
    the pieces' bytes are the whole text's)."""
    return [
        part[start : start + TEXT_PIECE].encode("utf-8")
        for part in parts
        for start in range(0, len(part), TEXT_PIECE)
    ]


def base64_text(data: bytes) -> str:
    """base64.b64encode(data) as ASCII text, encoded a piece at a time (each a multiple of
    3 bytes long, so the pieces' base64 joins into the whole's)."""
    step = TEXT_PIECE // 4 * 3
    return "".join(
        base64.b64encode(data[start : start + step]).decode("ascii")
        for start in range(0, len(data), step)
    )


def open_temporary(output: str | Path) -> tuple[str, int]:
    """(path, descriptor) of a new file beside `output`, to be renamed over it once whole.
    Not tempfile.mkstemp: its 0600 file would keep that mode after the rename, where the user
    expects their usual permissions (0666 less the umask, like any new file)."""
    folder = Path(output).resolve().parent
    temporary = str(folder / f".glyphscope-{secrets.token_hex(8)}{Path(output).suffix}")
    return temporary, os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)


# What a user is told when a file cannot be written, by the error's number.
WRITE_FAILURES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exhausted",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EROFS: "the disk is read-only",
    errno.ENOENT: "the folder does not exist",
}


def write_failure(error: OSError, path: str | Path) -> str:
    """`could not write NAME: the disk is full` and the like."""
    known = WRITE_FAILURES.get(error.errno) if error.errno is not None else None
    reason = known or error.strerror or str(error)
    return f"could not write {Path(path).name}: {reason}"
