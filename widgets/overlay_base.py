"""The base of every overlay layer: one QGraphicsItem drawing cached paths built from arrays.

A page can carry a hundred thousand glyphs; one item per glyph would make the scene crawl.
Each layer is a single item that turns the page model into a few QPainterPaths once (one per
colour) and paints them with cosmetic pens, which keep their pixel width at every zoom.
Coordinates are PDF user space: the layers are children of the page view's overlay root.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.qt_paths import path_from_polylines, path_from_rects, path_from_segments

# A qualitative palette readable on white paper (fonts, MCIDs, form depths, gap reasons).
PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#393b79",
    "#ad494a",
)


# Layers with at most this many labels stack overlapping ones (the check is quadratic).
STACKED_LABELS = 16


@dataclass(frozen=True, slots=True)
class LegendEntry:
    label: str
    color: str
    style: str = "fill"  # "fill", "line", "dash" or "box": how the legend swatch is drawn


@dataclass(frozen=True, slots=True)
class Stroke:
    """One cached path and how to paint it."""

    path: QPainterPath
    color: str
    # Antialiased cosmetic pens wider than 1 px stroke ~50× slower in the raster engine:
    # keep quad outlines at 1 px and spend width only on sparse lines.
    width: float = 1.0
    fill_alpha: int = 0  # 0: outline only
    dash: bool = False
    line_alpha: int = 230


def cosmetic_pen(color: str, width: float, dash: bool = False, alpha: int = 230) -> QPen:
    qcolor = QColor(color)
    qcolor.setAlpha(alpha)
    pen = QPen(qcolor, width)
    pen.setCosmetic(True)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    if dash:
        pen.setStyle(Qt.PenStyle.DashLine)
    return pen


def quads_path(quads: np.ndarray) -> QPainterPath:
    """Closed subpaths for an (N, 4, 2) array of quads."""
    return path_from_polylines(quads, closed=True)


def on_page(model: PageModel, indices) -> list[int]:
    """The indices that name a glyph of this page; stale ones from another page are skipped."""
    return [i for i in indices if 0 <= i < model.count]


def filled_quads(
    model: PageModel, chosen: np.ndarray, color: str, fill_alpha: int, dash: bool = False
) -> list[Stroke]:
    """Translucent quads for the chosen glyphs (a mask or indices); oversized quads (larger
    than the page) get their outline only."""
    mask = np.zeros(model.count, dtype=bool)
    mask[chosen] = True
    oversized = mask & model.arrays.oversized
    return [
        Stroke(quads_path(model.quads[mask & ~oversized]), color, 1.0, fill_alpha, dash),
        Stroke(quads_path(model.quads[oversized]), color, 1.0, 0, dash),
    ]


def segments_path(starts: np.ndarray, ends: np.ndarray) -> QPainterPath:
    return path_from_segments(starts, ends)


def rect_path(rect) -> QPainterPath:
    return path_from_rects([rect])


class OverlayLayer(QGraphicsItem):
    """Subclasses set `layer_id`, `title`, `z` and implement `strokes` and `legend`."""

    layer_id = ""
    title = ""
    tip = ""
    z = 0.0
    default_on = True

    def __init__(self) -> None:
        super().__init__()
        self._model: PageModel | None = None
        self._strokes: list[Stroke] | None = None
        self._labels: list[tuple] | None = None
        self.setZValue(self.z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        # Painting thousands of antialiased quads is slow; Qt keeps a device-resolution
        # pixmap of the exposed part and redraws only on zoom or when the data changes.
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    # -- data -------------------------------------------------------------------------------
    @property
    def model(self) -> PageModel | None:
        return self._model

    def set_model(self, model: PageModel | None) -> None:
        self.prepareGeometryChange()
        self._model = model
        self.invalidate()

    def invalidate(self) -> None:
        """Drop the cached paths (the model or a display option changed)."""
        self._strokes = None
        self._labels = None
        self.update()

    def strokes(self, model: PageModel) -> list[Stroke]:
        raise NotImplementedError

    def labels(self, model: PageModel) -> list[tuple]:
        """Text drawn upright at user-space points: (x, y, text, colour[, placement]), where
        placement "above" (default) puts it above and right of the point, "left" ends it just
        left of the point, centred on it, and "box left" / "box right" followed by the
        opposite corner (x1, y1) of a rectangle put it above the rectangle's top edge as
        shown, at its left or right end, whatever the page's /Rotate."""
        return []

    def legend(self) -> list[LegendEntry]:
        return []

    def drawn_count(self) -> int:
        """How many primitives this layer draws for the current model (0 when empty)."""
        if self._model is None:
            return 0
        self._ensure_cache(self._model)
        return sum(s.path.elementCount() for s in self._strokes) + len(self._labels)

    def _ensure_cache(self, model: PageModel) -> None:
        if self._strokes is None:
            self._strokes = [s for s in self.strokes(model) if not s.path.isEmpty()]
            self._labels = self.labels(model)

    # -- QGraphicsItem ------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        if self._model is None:
            return QRectF()
        x0, y0, x1, y1 = self._model.bounds
        pad = max(x1 - x0, y1 - y0) * 0.02 + 2.0
        return QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)

    def paint(self, painter, option, widget=None) -> None:
        model = self._model
        if model is None:
            return
        self._ensure_cache(model)
        for stroke in self._strokes:
            if stroke.fill_alpha:
                # Translucent fills need no antialiasing (their outlines carry the edge), and
                # the raster engine fills thousands of quads five times faster without it.
                fill = QColor(stroke.color)
                fill.setAlpha(stroke.fill_alpha)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QBrush(fill))
                painter.drawPath(stroke.path)
                painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setPen(cosmetic_pen(stroke.color, stroke.width, stroke.dash, stroke.line_alpha))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(stroke.path)
        if self._labels:
            self._paint_labels(painter)

    def _paint_labels(self, painter) -> None:
        # Labels stay upright and at a fixed pixel size: map the anchor to device space and
        # draw without the user-space transform (which flips y).
        to_device = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        font = QFont()
        font.setPixelSize(11)
        painter.setFont(font)
        background = QColor("#ffffff")
        background.setAlpha(210)
        for box, text, color in self.label_boxes(to_device, painter.fontMetrics()):
            painter.fillRect(box, background)
            painter.setPen(QColor(color))
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()

    def label_boxes(self, to_device, metrics) -> list[tuple[QRectF, str, str]]:
        """(device rectangle, text, colour) of each label under the `to_device` transform."""
        if self._model is None:
            return []
        self._ensure_cache(self._model)
        placed: list[tuple[QRectF, str, str]] = []
        for x, y, text, color, *placement in self._labels:
            anchor = to_device.map(QPointF(x, y))
            box = QRectF(metrics.boundingRect(text)).adjusted(-2, -1, 2, 1)
            if placement and placement[0] == "left":
                box.moveCenter(anchor)
                box.moveRight(anchor.x() - 2)
            elif placement and placement[0] in ("box left", "box right"):
                x1, y1 = placement[1]
                shown = to_device.mapRect(QRectF(QPointF(x, y), QPointF(x1, y1)).normalized())
                if placement[0] == "box left":
                    box.moveBottomLeft(shown.topLeft() + QPointF(0, -1))
                else:
                    box.moveBottomRight(shown.topRight() + QPointF(0, -1))
            else:
                box.moveTopLeft(anchor + QPointF(1, -box.height() - 1))
            # A label that would overlap one placed before (MediaBox and CropBox above a
            # narrow page at 25 %) stacks upwards instead; only for the few labels of a
            # layer like the page boxes, where the check costs nothing.
            if len(self._labels) <= STACKED_LABELS:
                for _ in range(len(placed)):
                    if not any(box.intersects(other) for other, _t, _c in placed):
                        break
                    box.translate(0, -box.height() - 1)
            placed.append((box, text, color))
        return placed
