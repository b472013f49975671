"""What an overlay layer draws, kept as numpy arrays, and how it is painted in batches.

A layer's geometry stays an array of subpaths (`Shape`) until it is painted: the painter culls
what lies outside the area it paints, cuts rectangles and segments that reach beyond it to its
edge (a corpus file's glyphs are thousands of points wide: stroking their whole length cost
seconds) and turns the rest into QPainterPaths a batch at a time. Translucent fills of
rectangles (nearly every glyph quad) are drawn as rectangles (a page's 4,700 quads: 9 ms, as
one filled path 37), and their union is filled once: overlapping quads neither leave holes,
as the odd-even fill of one path did, nor darken.
PySide6 holds the GIL through each QPainter call (measured: a Python thread made no progress
during a 2.9 s drawPath), so a painter in a worker thread blocks the GUI thread for as long as
its longest call; batches sized to a few milliseconds each keep that short whatever the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QTransform,
)

from glyphscope.core.view.spatial import row_bounds
from glyphscope.widgets.qt_paths import path_from_polylines

# Points per piece when one long polyline (the reading-order path) is cut for batching.
POLYLINE_PIECE = 256
# A batch is sized so one QPainter call takes about this long, from the last batch's time.
BATCH_SECONDS = 0.004
FIRST_BATCH = 256
BATCH_RANGE = (8, 16_384)
# Solid outlines adding up to more than this many device pixels are painted the cheap way
# (_outline_dense); no page of ordinary text comes near it (a page of 4,700 glyph quads at
# 100 % is about 200,000 pixels of outline; at 800 % only the view's part is painted).
DENSE_OUTLINE_PX = 1_000_000
# ... and their boxes less than this many device pixels across are filled whole.
THIN_PX = 2.0
# At most this many translucent rectangles that do not overlap are filled directly.
DIRECT_RECTS = 16
# Layers with at most this many labels stack overlapping ones (the check is quadratic).
STACKED_LABELS = 16
LABEL_PIXELS = 11


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
        lows, highs = row_bounds(self.points)
        # NaN corners (broken matrices) compare false and drop out, as from the path's bounds.
        meets = (highs[:, 0] >= x0) & (lows[:, 0] <= x1) & (highs[:, 1] >= y0) & (lows[:, 1] <= y1)
        return self if meets.all() else Shape(self.points[meets], self.closed)

    def rectangles(self) -> np.ndarray:
        """Which subpaths are axis-aligned rectangles (closed, four corners, each edge
        horizontal or vertical): they are filled as rectangles and cut to an area exactly."""
        if not self.closed or self.points.shape[1:] != (4, 2):
            return np.zeros(len(self.points), dtype=bool)
        x, y = self.points[..., 0], self.points[..., 1]
        across = (y[:, 0] == y[:, 1]) & (x[:, 1] == x[:, 2]) & (y[:, 2] == y[:, 3])
        upright = (x[:, 0] == x[:, 1]) & (y[:, 1] == y[:, 2]) & (x[:, 2] == x[:, 3])
        return (across & (x[:, 3] == x[:, 0])) | (upright & (y[:, 3] == y[:, 0]))

    def cut_to(self, area: tuple[float, float, float, float]) -> Shape:
        """Rectangles and two-point segments cut at `area`'s edges (which lie beyond what is
        painted: the cut adds no visible edge); other subpaths as they are. Inside `area`
        every coordinate is kept bit for bit."""
        x0, y0, x1, y1 = area
        if self.empty:
            return self
        if self.closed:
            chosen = self.rectangles()
            if not chosen.any():
                return self
            points = self.points.copy()
            rects = points[chosen]
            rects[..., 0] = np.clip(rects[..., 0], x0, x1)
            rects[..., 1] = np.clip(rects[..., 1], y0, y1)
            points[chosen] = rects
            return Shape(points, True)
        if self.points.shape[1] != 2:
            return self
        return Shape(_cut_segments(self.points, area))


def finite_bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The lowest and highest x and y of the finite ones of (M, 2) points (None: none is),
    column by column (numpy's `all(axis=1)` and `min(axis=0)` over two values are slow)."""
    xs, ys = points[:, 0], points[:, 1]
    finite = np.isfinite(xs) & np.isfinite(ys)
    if not finite.all():
        xs, ys = xs[finite], ys[finite]
    if not len(xs):
        return None
    return np.array([xs.min(), ys.min()]), np.array([xs.max(), ys.max()])


def _cut_segments(segments: np.ndarray, area: tuple[float, float, float, float]) -> np.ndarray:
    """Liang–Barsky over (N, 2, 2) segments: the part of each inside `area`; one wholly
    outside (culling keeps those that meet its box) shrinks to its start, drawing nothing
    there."""
    x0, y0, x1, y1 = area
    xs, ys = segments[..., 0], segments[..., 1]
    # A segment with both ends inside comes out as it went in (enter 0, leave 1): only the
    # others (a page's few crossing its edge, and NaN ends) are cut.
    inside = ((xs >= x0) & (xs <= x1) & (ys >= y0) & (ys <= y1)).all(axis=1)
    if inside.all():
        return segments
    if inside.any():
        cut = segments.copy()
        cut[~inside] = _cut_segments(segments[~inside], area)
        return cut
    start, end = segments[:, 0], segments[:, 1]
    delta = end - start
    enter = np.zeros(len(segments))
    leave = np.ones(len(segments))
    outside = np.zeros(len(segments), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in (
            (-delta[:, 0], start[:, 0] - x0),
            (delta[:, 0], x1 - start[:, 0]),
            (-delta[:, 1], start[:, 1] - y0),
            (delta[:, 1], y1 - start[:, 1]),
        ):
            t = q / p
            enter = np.where(p < 0, np.maximum(enter, t), enter)
            leave = np.where(p > 0, np.minimum(leave, t), leave)
            outside |= (p == 0) & (q < 0)
    outside |= enter > leave
    # Untouched ends keep their exact coordinates (start + 1 · delta may differ in the last bit).
    cut_start = np.where((enter > 0)[:, None], start + enter[:, None] * delta, start)
    cut_end = np.where((leave < 1)[:, None], start + leave[:, None] * delta, end)
    cut_start = np.where(outside[:, None], start, cut_start)
    cut_end = np.where(outside[:, None], start, cut_end)
    return np.stack([cut_start, cut_end], axis=1)


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


def _device_rect(painter: QPainter) -> QRectF:
    """The device in the pixels the painter's combined transform maps to (an image's own
    pixels, its pixel ratio included in that transform; a widget's logical ones)."""
    return QRectF(painter.viewport())


def painted_area(painter: QPainter, pad_px: float = 4.0) -> tuple[float, float, float, float]:
    """The part of the painter's user space its device (and clip) shows, `pad_px` device
    pixels larger (for pens wider than a pixel), as x0, y0, x1, y1."""
    shown = _device_rect(painter)
    shown.adjust(-pad_px, -pad_px, pad_px, pad_px)
    area = painter.combinedTransform().inverted()[0].mapRect(shown)
    if painter.hasClipping():
        clip = painter.clipBoundingRect()
        pad = painter.combinedTransform().inverted()[0].mapRect(QRectF(0, 0, pad_px, pad_px))
        area = area.intersected(
            clip.adjusted(-pad.width(), -pad.height(), pad.width(), pad.height())
        )
    return (area.left(), area.top(), area.right(), area.bottom())


def paint_strokes(
    painter: QPainter,
    strokes: list[Stroke],
    area: tuple[float, float, float, float] | None = None,
    stop: Callable[[], bool] | None = None,
) -> None:
    """Paint `strokes` in order, only what lies within `area` (user space; None: what the
    painter's device shows).

    With `stop`, each stroke goes out in batches of about BATCH_SECONDS each, asking `stop`
    before each batch (Stopped is raised when it says so); without, one call per pass, the
    cheapest on the GUI thread when the layer is small."""
    if area is None:
        area = painted_area(painter)
    batches = _Batches() if stop is not None else None
    for stroke in strokes:
        shape = stroke.shape.within(area)
        if shape.empty:
            continue
        if stroke.fill_alpha:
            # Translucent fills need no antialiasing (their outlines carry the edge).
            fill = QColor(stroke.color)
            fill.setAlpha(stroke.fill_alpha)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setPen(Qt.PenStyle.NoPen)
            rects = shape.rectangles()
            if rects.all() and len(rects) <= DIRECT_RECTS and not _overlapping(shape.points):
                # A few apart (a layer's regions, one per MCID): their union is themselves,
                # and a mask per stroke would cost more than they do.
                painter.setBrush(fill)
                painter.drawRects(_rects(shape.points))
            else:
                _fill_rectangles(painter, shape.cut_to(area).points[rects], fill, batches, stop)
                if not rects.all():
                    painter.setBrush(fill)
                    _draw(painter, Shape(shape.points[~rects], True), batches, stop)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if len(shape.points) > DIRECT_RECTS:  # a few outlines cost less than cutting them
            cut = shape.cut_to(area)
            if _dense(painter, cut):
                shape = _outline_dense(painter, cut, stroke, batches, stop)
            elif not stroke.dash:  # a dashed line cut at its start would shift its dashes
                shape = cut
        painter.setPen(cosmetic_pen(stroke.color, stroke.width, stroke.dash, stroke.line_alpha))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        _draw(painter, shape, batches, stop)


def _device_xy(painter: QPainter, shape: Shape) -> tuple[np.ndarray, np.ndarray]:
    """The subpaths' device coordinates (less the translation), closing point included."""
    t = painter.combinedTransform()
    xs = shape.points[..., 0] * t.m11() + shape.points[..., 1] * t.m21()
    ys = shape.points[..., 0] * t.m12() + shape.points[..., 1] * t.m22()
    if shape.closed:
        xs, ys = np.concatenate([xs, xs[:, :1]], 1), np.concatenate([ys, ys[:, :1]], 1)
    return xs, ys


def _dense(painter: QPainter, shape: Shape) -> bool:
    """The shape's outlines add up to more than DENSE_OUTLINE_PX on the device (only boxes
    and segments: what _outline_dense paints)."""
    t = painter.combinedTransform()
    if shape.empty or not (shape.closed or shape.points.shape[1] == 2):
        return False
    if (t.m12() or t.m21()) and (t.m11() or t.m22()):
        return False  # a rotation other than quarter turns: boxes are not boxes there
    xs, ys = _device_xy(painter, shape)
    length = np.abs(np.diff(xs, axis=1)) + np.abs(np.diff(ys, axis=1))
    return float(np.nansum(length)) > DENSE_OUTLINE_PX


def _outline_dense(painter: QPainter, shape: Shape, stroke: Stroke, batches, stop) -> Shape:
    """Paint a dense shape's (see _dense) rectangles and segments the cheap way, all opaque
    into one mask painted at the pen's opacity; return the rest to be stroked.

    Antialiased strokes cost about 0.1 µs a device pixel: a corpus page's thousands of quads
    each thousands of pixels long, overlapping into a solid block, took seconds to stroke.
    Here a solid box's edges are filled bars of the pen's width (a box under THIN_PX
    across is filled whole, grown by half the pen: its outline covers it anyway), and
    other segments and dashed outlines are drawn without antialiasing: the same lines, not
    smoothed, overlaps not darker (and a dashed box cut at the area's edge shifts its
    dashes there)."""
    xs, ys = _device_xy(painter, shape)
    points = shape.points
    transform = painter.combinedTransform()
    # Half the pen, in user units along each axis (one of each pair of terms is zero).
    half = stroke.width / 2
    pad = np.array(
        [
            half / (abs(transform.m11()) + abs(transform.m12())),
            half / (abs(transform.m21()) + abs(transform.m22())),
        ]
    )
    x_lows, x_highs = row_bounds(xs[..., None])
    y_lows, y_highs = row_bounds(ys[..., None])
    across = np.minimum(x_highs - x_lows, y_highs - y_lows)[:, 0]
    lows, highs = row_bounds(points)
    colour = QColor(stroke.color)
    colour.setAlpha(stroke.line_alpha)
    if stroke.dash:
        _fill_rectangles(painter, np.empty((0, 4, 2)), colour, batches, stop, shape, stroke)
        return Shape(np.empty((0, 2, 2)))
    lines = None
    if shape.closed:
        chosen = shape.rectangles()
        thin = chosen & (across < THIN_PX)
        edged = chosen & ~thin
        x0, y0 = lows[edged, 0, None], lows[edged, 1, None]
        x1, y1 = highs[edged, 0, None], highs[edged, 1, None]
        edges_low = np.concatenate(
            [np.hstack([x0, y0]), np.hstack([x0, y1]), np.hstack([x0, y0]), np.hstack([x1, y0])]
        )
        edges_high = np.concatenate(
            [np.hstack([x1, y0]), np.hstack([x1, y1]), np.hstack([x0, y1]), np.hstack([x1, y1])]
        )
        box_lows = np.concatenate([lows[thin], edges_low]) - pad
        box_highs = np.concatenate([highs[thin], edges_high]) + pad
        rest = Shape(points[~chosen], True)
    else:
        chosen = across < THIN_PX  # along an axis (or nearly): a bar
        box_lows, box_highs = lows[chosen] - pad, highs[chosen] + pad
        lines = Shape(points[~chosen])
        rest = Shape(np.empty((0, 2, 2)))
    corners = np.stack(
        [
            box_lows,
            np.stack([box_highs[:, 0], box_lows[:, 1]], 1),
            box_highs,
            np.stack([box_lows[:, 0], box_highs[:, 1]], 1),
        ],
        axis=1,
    )
    _fill_rectangles(painter, corners, colour, batches, stop, lines, stroke)
    return rest


def _draw(painter: QPainter, shape: Shape, batches, stop) -> None:
    if batches is None:
        painter.drawPath(shape.path())
        return
    for part in batches.split(shape.points):
        if stop():
            raise Stopped
        started = time.perf_counter()
        painter.drawPath(Shape(part, shape.closed).path())
        batches.took(time.perf_counter() - started)


def _fill_rectangles(
    painter: QPainter,
    rects: np.ndarray,
    fill: QColor,
    batches,
    stop,
    lines: Shape | None = None,
    stroke: Stroke | None = None,
) -> None:
    """Fill the union of (N, 4, 2) axis-aligned rectangles with `fill` once: opaque into a
    mask image over their device bounds, then that image at the fill's opacity. `lines`
    are drawn into the same mask with `stroke`'s pen, not smoothed."""
    lines = Shape(np.empty((0, 2, 2))) if lines is None else lines
    if not len(rects) and lines.empty:
        return
    width = stroke.width if stroke is not None else 1.0
    every = np.concatenate([rects.reshape(-1, 2), lines.points.reshape(-1, 2)])
    to_device = painter.combinedTransform()
    xs, ys = every[:, 0], every[:, 1]
    bx0, by0, bx1, by1 = xs.min(), ys.min(), xs.max(), ys.max()
    seen = _device_rect(painter)
    where = to_device.mapRect(QRectF(bx0, by0, bx1 - bx0, by1 - by0)).adjusted(
        -width, -width, width, width
    )
    where = where.intersected(seen).toAlignedRect()
    if where.isEmpty():
        return
    mask = QImage(where.size(), QImage.Format.Format_ARGB32_Premultiplied)
    mask.fill(Qt.GlobalColor.transparent)
    opaque = QColor(fill)
    opaque.setAlpha(255)
    into = QPainter(mask)
    try:
        into.setTransform(to_device * QTransform.fromTranslate(-where.x(), -where.y()))
        into.setPen(Qt.PenStyle.NoPen)
        into.setBrush(opaque)
        _in_batches(rects, batches, stop, lambda part: into.drawRects(_rects(part)))
        if not lines.empty:
            into.setPen(cosmetic_pen(stroke.color, width, stroke.dash, 255))
            into.setBrush(Qt.BrushStyle.NoBrush)
            closed = lines.closed
            _in_batches(
                lines.points, batches, stop, lambda part: into.drawPath(Shape(part, closed).path())
            )
    finally:
        into.end()
    painter.save()
    # Device pixels one to one: what a reset leaves (a device's pixel ratio) undone too.
    painter.resetTransform()
    painter.setWorldTransform(painter.combinedTransform().inverted()[0])
    painter.setOpacity(painter.opacity() * fill.alphaF())
    painter.drawImage(QPointF(where.topLeft()), mask)
    painter.restore()


def _overlapping(rects: np.ndarray) -> bool:
    """Whether any two of the (N, 4, 2) rectangles share area (pairwise: for a few only)."""
    lows, highs = rects.min(axis=1), rects.max(axis=1)
    apart = (
        (highs[:, None, 0] <= lows[None, :, 0])
        | (highs[None, :, 0] <= lows[:, None, 0])
        | (highs[:, None, 1] <= lows[None, :, 1])
        | (highs[None, :, 1] <= lows[:, None, 1])
    )
    np.fill_diagonal(apart, True)
    return not apart.all()


def _boxes(rects: np.ndarray) -> np.ndarray:
    """(N, 4) x, y, width, height of (N, 4, 2) axis-aligned rectangles."""
    lows, highs = row_bounds(rects)
    return np.concatenate([lows, highs - lows], axis=1)


def _rects(rects: np.ndarray) -> list[QRectF]:
    return list(map(QRectF, *_boxes(rects).T.tolist()))


def _in_batches(rows: np.ndarray, batches, stop, draw: Callable[[np.ndarray], None]) -> None:
    parts = [rows] if batches is None else batches.split(rows)
    for part in parts:
        if stop is not None and stop():
            raise Stopped
        started = time.perf_counter()
        draw(part)
        if batches is not None:
            batches.took(time.perf_counter() - started)


class _Batches:
    """Cuts rows (subpaths, rectangles) into batches whose size follows the time the last
    one took to paint."""

    def __init__(self) -> None:
        self.size = FIRST_BATCH
        self._last = 0

    def split(self, rows: np.ndarray) -> Iterator[np.ndarray]:
        start = 0
        while start < len(rows):
            self._last = self.size
            yield rows[start : start + self.size]
            start += self._last

    def took(self, seconds: float) -> None:
        # A quad can cost a hundred times another (its length on screen): adapt every batch.
        rate = self._last / max(seconds, 1e-5)
        self.size = int(min(max(rate * BATCH_SECONDS, BATCH_RANGE[0]), BATCH_RANGE[1]))


def label_font() -> QFont:
    font = QFont()
    font.setPixelSize(LABEL_PIXELS)
    return font


def paint_labels(painter: QPainter, labels: list[tuple]) -> None:
    """Labels upright at a fixed pixel size (OverlayLayer.labels), at the device positions
    their anchors have under the painter's transform (on the GUI thread or the painter's)."""
    if not labels:
        return
    to_device = painter.worldTransform()
    painter.save()
    painter.resetTransform()
    painter.setFont(label_font())
    background = QColor("#ffffff")
    background.setAlpha(210)
    for box, text, color in placed_labels(labels, to_device, painter.fontMetrics()):
        painter.fillRect(box, background)
        painter.setPen(QColor(color))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


def label_reach(labels: list[tuple], to_device: QTransform) -> QRectF:
    """The device pixels `paint_labels` covers under `to_device`."""
    reach = QRectF()
    for box, _text, _color in placed_labels(labels, to_device, QFontMetrics(label_font())):
        reach = reach.united(box)
    return reach


def placed_labels(
    labels: list[tuple], to_device: QTransform, metrics: QFontMetrics
) -> list[tuple[QRectF, str, str]]:
    """(device rectangle, text, colour) of each label under `to_device`."""
    placed: list[tuple[QRectF, str, str]] = []
    for x, y, text, color, *placement in labels:
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
        if len(labels) <= STACKED_LABELS:
            for _ in range(len(placed)):
                if not any(box.intersects(other) for other, _t, _c in placed):
                    break
                box.translate(0, -box.height() - 1)
        placed.append((box, text, color))
    return placed
