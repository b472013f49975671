"""What an overlay layer draws, kept as numpy arrays, and how it is painted in batches.

A layer's geometry stays an array of subpaths (`Shape`) until it is painted: the painter culls
what lies outside the area it paints and turns the rest into QPainterPaths a batch at a time.
PySide6 holds the GIL through each QPainter call (measured: a Python thread made no progress
during a 2.9 s drawPath), so a painter in a worker thread blocks the GUI thread for as long as
its longest call; batches sized to a few milliseconds each keep that short whatever the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen

from glyphscope.widgets.qt_paths import path_from_polylines

# Points per piece when one long polyline (the reading-order path) is cut for batching.
POLYLINE_PIECE = 256
# A batch is sized so one QPainter call takes about this long, from the last batch's time.
BATCH_SECONDS = 0.004
FIRST_BATCH = 256
BATCH_RANGE = (8, 16_384)


@dataclass(frozen=True, slots=True)
class Shape:
    """Subpaths as an (N, K, 2) array of user-space points; `closed` returns each subpath to
    its first point (quads, rectangles), else each is an open polyline (ticks, links)."""

    points: np.ndarray
    closed: bool = False

    @property
    def empty(self) -> bool:
        return len(self.points) == 0

    def element_count(self) -> int:
        """The QPainterPath elements it makes (the closing point included)."""
        if self.empty:
            return 0
        count, per, _ = self.points.shape
        return count * (per + int(self.closed))

    def subpaths(self) -> list[list[tuple[float, float]]]:
        """Each subpath's points, the closing one included, as the screen strokes them."""
        points = self.points
        if self.closed and len(points):
            points = np.concatenate([points, points[:, :1]], axis=1)
        return [[(x, y) for x, y in row] for row in points.tolist()]

    def path(self) -> QPainterPath:
        return path_from_polylines(self.points, closed=self.closed)

    def within(self, area: tuple[float, float, float, float] | None) -> Shape:
        """The subpaths whose bounding box meets `area` (x0, y0, x1, y1 in user space)."""
        if area is None or self.empty:
            return self
        x0, y0, x1, y1 = area
        xs, ys = self.points[..., 0], self.points[..., 1]
        # NaN corners (broken matrices) compare false and drop out, as from the path's bounds.
        meets = (xs.max(1) >= x0) & (xs.min(1) <= x1) & (ys.max(1) >= y0) & (ys.min(1) <= y1)
        return self if meets.all() else Shape(self.points[meets], self.closed)


def quads_shape(quads: np.ndarray) -> Shape:
    """Closed subpaths for an (N, 4, 2) array of quads."""
    return Shape(np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2), closed=True)


def segments_shape(starts: np.ndarray, ends: np.ndarray) -> Shape:
    starts = np.asarray(starts, dtype=np.float64).reshape(-1, 2)
    ends = np.asarray(ends, dtype=np.float64).reshape(-1, 2)
    return Shape(np.stack([starts, ends], axis=1))


def rects_shape(rects) -> Shape:
    """Closed rectangles from rows (x0, y0, x1, y1)."""
    r = np.asarray(rects, dtype=np.float64).reshape(-1, 4)
    return Shape(np.stack([r[:, [0, 1]], r[:, [2, 1]], r[:, [2, 3]], r[:, [0, 3]]], axis=1), True)


def polyline_shape(points: np.ndarray) -> Shape:
    """One open polyline through (K, 2) points, cut into pieces that share their end points
    (the last piece is padded with its final point, which draws nothing more)."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(points) < 2:
        return Shape(np.empty((0, 2, 2)))
    pieces = -(-(len(points) - 1) // POLYLINE_PIECE)
    needed = pieces * POLYLINE_PIECE + 1
    padded = np.concatenate([points, np.repeat(points[-1:], needed - len(points), axis=0)])
    starts = np.arange(pieces) * POLYLINE_PIECE
    rows = starts[:, None] + np.arange(POLYLINE_PIECE + 1)[None, :]
    return Shape(padded[rows])


@dataclass(frozen=True, slots=True)
class Stroke:
    """One shape and how to paint it."""

    shape: Shape
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


class Stopped(Exception):
    """A batched paint was abandoned: what it painted is no longer wanted."""


def paint_strokes(
    painter: QPainter,
    strokes: list[Stroke],
    area: tuple[float, float, float, float] | None = None,
    stop: Callable[[], bool] | None = None,
) -> None:
    """Paint `strokes` in order, only the subpaths that meet `area` (user space; None: all).

    With `stop`, each stroke goes out in batches of about BATCH_SECONDS each, asking `stop`
    before each batch (Stopped is raised when it says so); without, one path per pass, the
    cheapest on the GUI thread when the layer is small."""
    batches = _Batches() if stop is not None else None
    for stroke in strokes:
        shape = stroke.shape.within(area)
        if shape.empty:
            continue
        if stroke.fill_alpha:
            # Translucent fills need no antialiasing (their outlines carry the edge), and
            # the raster engine fills thousands of quads five times faster without it.
            fill = QColor(stroke.color)
            fill.setAlpha(stroke.fill_alpha)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(fill))
            _draw(painter, shape, batches, stop)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(cosmetic_pen(stroke.color, stroke.width, stroke.dash, stroke.line_alpha))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        _draw(painter, shape, batches, stop)


def _draw(painter: QPainter, shape: Shape, batches, stop) -> None:
    if batches is None:
        painter.drawPath(shape.path())
        return
    for part in batches.split(shape):
        if stop():
            raise Stopped
        started = time.perf_counter()
        painter.drawPath(part.path())
        batches.took(time.perf_counter() - started)


class _Batches:
    """Cuts shapes into batches whose size follows the time the last one took to paint."""

    def __init__(self) -> None:
        self.size = FIRST_BATCH
        self._last = 0

    def split(self, shape: Shape) -> Iterator[Shape]:
        start = 0
        while start < len(shape.points):
            self._last = self.size
            yield Shape(shape.points[start : start + self.size], shape.closed)
            start += self._last

    def took(self, seconds: float) -> None:
        # A quad can cost a hundred times another (its length on screen): adapt every batch.
        rate = self._last / max(seconds, 1e-5)
        self.size = int(min(max(rate * BATCH_SECONDS, BATCH_RANGE[0]), BATCH_RANGE[1]))
