"""What the picture exports share: the legend's sections and sizes, the scene area exported, and
PNG bytes of an image (raster exports in inspector/exporters.py, vector SVG in
inspector/svg_export.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QImage

from glyphscope.widgets.overlay_base import LegendEntry
from glyphscope.widgets.overlay_layers import GlyphQuadsLayer

__all__ = [
    "LEGEND_MARGIN",
    "LEGEND_ROW",
    "LEGEND_WIDTH",
    "LegendSection",
    "legend_sections",
    "page_rect",
    "png_bytes",
]

LEGEND_WIDTH = 280.0  # display points
LEGEND_ROW = 15.0
LEGEND_MARGIN = 10.0


@dataclass(frozen=True, slots=True)
class LegendSection:
    title: str
    entries: tuple[LegendEntry, ...]


def legend_sections(window, layer_ids: Sequence[str]) -> list[LegendSection]:
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


def page_rect(window) -> QRectF:
    """The scene area of the page and every overlay outside it (slug lines, MediaBox)."""
    return QRectF(window.view.page_scene_rect())


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())
