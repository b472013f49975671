"""The base of every overlay layer: one QGraphicsItem drawing shapes built from arrays.

A page can carry a hundred thousand glyphs; one item per glyph would make the scene crawl.
Each layer is a single item that turns the page model into a few shapes once (one per colour)
and paints them with cosmetic pens, which keep their pixel width at every zoom. A small layer
is built and painted on the GUI thread; a large one is built and painted into an image of the
zoom by the layer painter's thread (widgets/layer_painter.py), and the GUI thread only shows
that image (the last one, scaled, while a new zoom is painted; none while a new page is).
Coordinates are PDF user space: the layers are children of the page view's overlay root.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, QSizeF
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.layer_painter import LayerJob, layer_painter
from glyphscope.widgets.overlay_shapes import (
    LABEL_PIXELS,
    Stroke,
    paint_labels,
    paint_strokes,
    placed_labels,
    quads_shape,
)

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


# The page boxes' two labels, stacked above a narrow page, take this many device pixels
# above its top edge whatever the zoom.
BOX_LABELS_ROOM_PX = 2 * (LABEL_PIXELS + 7)
# A layer drawing at most this many glyphs is built and painted on the GUI thread; a larger
# one by the layer painter's thread. Measured on the 20,000-glyph page at fit width: its glyph
# quads (100,000 path elements) take 30 ms to build and 100 ms to paint, so 500 glyphs cost
# the GUI thread a few milliseconds per layer, and a page has a dozen layers.
SYNC_GLYPHS = 500
# ... and whose glyph outlines add up to at most this many times the page's perimeter: 500
# glyphs of 10-point text are about 6; a few hundred glyphs each thousands of points wide (a
# corpus file's slug lines) cost seconds to stroke.
SYNC_OUTLINE_PAGES = 100
# The painter thread's image of a layer covers what the viewport shows and a quarter of it
# around (scrolling within that needs no new image), at most this many pixels (16 MB).
MAX_IMAGE_PIXELS = 4_000_000
IMAGE_MARGIN = 0.25


@dataclass(frozen=True, slots=True)
class LegendEntry:
    label: str
    color: str
    style: str = "fill"  # "fill", "line", "dash" or "box": how the legend swatch is drawn


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
        Stroke(quads_shape(model.quads[mask & ~oversized]), color, 1.0, fill_alpha, dash),
        Stroke(quads_shape(model.quads[oversized]), color, 1.0, 0, dash),
    ]


class OverlayLayer(QGraphicsItem):
    """Subclasses set `layer_id`, `title`, `z` and implement `strokes` and `legend`.

    `strokes` and `labels` may run on the layer painter's thread: they read the model and the
    layer's settings and change nothing the GUI thread reads but their own legend data."""

    layer_id = ""
    title = ""
    tip = ""
    z = 0.0
    default_on = True
    cached = True  # False for a layer that changes with every pointer move

    def __init__(self) -> None:
        super().__init__()
        self._model: PageModel | None = None
        self._bounding: QRectF | None = None
        self._strokes: list[Stroke] | None = None
        self._labels: list[tuple] | None = None
        self._elements = 0  # path elements of the built strokes
        # Bumped whenever what the layer draws changes: a job or image of an older one is
        # never shown (a page flipped while its layer was being built).
        self._generation = 0
        self._image: LayerImage | None = None
        self._job: LayerJob | None = None
        self._background = False  # drawn from the painter thread's images
        # The image key, zoom and region of the job out, and the last image with those it
        # was painted for (OverlayLayer.image_key).
        self._asked: tuple = (None,)
        self._kept: tuple[tuple, LayerImage] | None = None
        # An export in progress (widgets.overlay_base.ExportImages): QGraphicsScene.render()
        # asks this layer for its painter thread's image at the export's transform.
        self.export: ExportImages | None = None
        self.setZValue(self.z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self._set_background(False)

    # -- data -------------------------------------------------------------------------------
    @property
    def model(self) -> PageModel | None:
        return self._model

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def pending(self) -> bool:
        """A background build or paint of this layer is under way."""
        return self._job is not None

    def awaits_image(self, view: QGraphicsView) -> bool:
        """A background layer whose image for what `view` shows is not there yet (its job
        pending, or not asked for yet); False for one the view shows nothing of (its paint
        asks for no image: Qt does not even call it)."""
        if not self._background or self._model is None or self._image is not None:
            return self._job is not None
        if self._job is not None:
            return True
        world = self.deviceTransform(view.viewportTransform())
        return not self._wanted(world, view)[2].isEmpty()

    @property
    def background(self) -> bool:
        """Built and painted by the layer painter's thread (a dense page's layer)."""
        return self._background

    @property
    def painted_image(self) -> QImage | None:
        """The image the painter thread made of this layer for the current data (None for a
        layer painted directly, or before the image is ready)."""
        return self._image.image if self._image is not None else None

    def set_model(self, model: PageModel | None) -> None:
        self.prepareGeometryChange()
        self._model = model
        self._bounding = None
        self.invalidate()

    def invalidate(self) -> None:
        """Drop the built shapes and images (the model or a display option changed)."""
        # The bounds of a layer painted directly depend on its shapes (boundingRect).
        self.prepareGeometryChange()
        self._bounding = None
        self._generation += 1
        self._strokes = None
        self._labels = None
        self._image = None
        if self._job is not None:
            self._job.cancelled = True
            self._job = None
        self._set_background(self._model is not None and not self.builds_quickly(self._model))
        self.update()

    def _set_background(self, background: bool) -> None:
        """Paint from the painter thread's images, or directly (never while painting: Qt's
        cache mode is switched here)."""
        self._background = background
        # A small layer gets Qt's device-resolution pixmap of its exposed part, repainted only
        # on zoom, scrolling or a change; the images are the large layer's cache. Qt paints
        # that pixmap with no widget, which is how `paint` tells an export from the screen.
        cached = self.cached and not background
        self.setCacheMode(
            QGraphicsItem.CacheMode.DeviceCoordinateCache
            if cached
            else QGraphicsItem.CacheMode.NoCache
        )

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

    def builds_quickly(self, model: PageModel) -> bool:
        """Whether `strokes(model)` is cheap enough to build and paint on the GUI thread: few
        glyphs, and not glyphs thousands of points wide (their strokes' pixels are the cost)."""
        if model.count > SYNC_GLYPHS:
            return False
        x0, y0, x1, y1 = model.grid.bounds.reshape(-1, 4).T
        outlines = 2.0 * float(np.nansum((x1 - x0) + (y1 - y0)))
        bx0, by0, bx1, by1 = model.media_box
        return outlines <= SYNC_OUTLINE_PAGES * 2.0 * (abs(bx1 - bx0) + abs(by1 - by0))

    def drawn_count(self) -> int:
        """How many primitives this layer draws for the current model (0 when empty)."""
        if self._model is None:
            return 0
        self._ensure_cache(self._model)
        return self._elements + len(self._labels)

    def _ensure_cache(self, model: PageModel) -> None:
        if self._strokes is None:
            self._set_built(
                [s for s in self.strokes(model) if not s.shape.empty], self.labels(model)
            )

    def _set_built(self, strokes: list[Stroke], labels: list[tuple]) -> None:
        self._strokes = strokes
        self._labels = labels
        self._elements = sum(s.shape.element_count() for s in strokes)

    # -- QGraphicsItem ------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        # Qt asks on every repaint and scene query (a page's dozen layers, several times a
        # paint): made once per model.
        if self._bounding is None:
            self._bounding = QRectF()
            if self._model is not None and not self._draws_nothing(self._model):
                x0, y0, x1, y1 = self._model.bounds
                pad = max(x1 - x0, y1 - y0) * 0.02 + 2.0
                self._bounding = QRectF(x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad)
        return QRectF(self._bounding)

    def _draws_nothing(self, model: PageModel) -> bool:
        """A layer painted directly with nothing on the page: empty bounds, so that Qt skips
        it. Its device-coordinate cache, a transparent pixmap of the page's size, cost every
        repaint about 0.5 ms to compose (a small page's dozen empty layers, 5 to 9 ms)."""
        if self._background:
            return False
        self._ensure_cache(model)
        return not self._strokes and not self._labels

    def paint(self, painter, option, widget=None) -> None:
        model = self._model
        if model is None:
            return
        if self._background and widget is not None:
            self._paint_from_image(painter, widget)
        elif self._background and self.export is not None:
            self.export.paint(self, painter)
        else:
            # A small layer, or QGraphicsScene.render() into an export: the whole layer, now.
            self._ensure_cache(model)
            paint_strokes(painter, self._strokes)
            if self._labels:
                self._paint_labels(painter)
        # A background layer's labels are in its painter thread's image (LayerJob.run): a
        # tagged page's hundreds of MCID numbers drawn here took the GUI thread 10 ms a repaint.

    # -- painted in the background ------------------------------------------------------------
    def _paint_from_image(self, painter, widget) -> None:
        """Show the painter thread's image of this layer, and ask for a new one when the zoom
        changed or the view scrolled beyond it."""
        world = painter.worldTransform()
        view = widget.parent()
        if not isinstance(view, QGraphicsView):
            view = None
        linear, bounds, seen = self._wanted(world, view)
        if self._image is not None:
            self._image.draw(painter, world)
            if self._image.covers(linear, seen):
                return
        self._request(linear, bounds, seen)

    def _wanted(
        self, world: QTransform, view: QGraphicsView | None
    ) -> tuple[QTransform, QRectF, QRectF]:
        """The zoom (`world` less its translation), the layer's pixels under it, and those
        of them `view` shows (all of them without a view)."""
        linear = QTransform(world.m11(), world.m12(), world.m21(), world.m22(), 0.0, 0.0)
        bounds = linear.mapRect(self.boundingRect())
        if view is None:
            return linear, bounds, bounds
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        seen = linear.mapRect(self.mapFromScene(shown).boundingRect()).intersected(bounds)
        return linear, bounds, seen

    def paint_ahead(self, view: QGraphicsView) -> None:
        """Start the painter thread on this layer's image for what `view` shows now, before
        the view's next paint asks for it (which finds the job under way): a page's layers
        start painting as soon as its model is set, not a turn of the event loop later."""
        if not self._background or self._model is None or self._image is not None:
            return
        if not self.isVisible() or not view.isVisible() or self.export is not None:
            return
        world = self.deviceTransform(view.viewportTransform())
        self._request(*self._wanted(world, view), reuse=True)

    def _request(
        self, linear: QTransform, bounds: QRectF, seen: QRectF, *, reuse: bool = False
    ) -> None:
        """Ask the painter thread for the image of `seen` (and a margin) at zoom `linear`;
        with `reuse`, outside a paint (showing a kept image changes the layer's bounds, which
        a paint must not), a kept image of the same pixels is shown instead (`_reuse`)."""
        if seen.isEmpty():
            return
        job = self._job
        wanted = seen.toAlignedRect()
        if job is not None and _same(job.linear, linear) and job.region.contains(wanted):
            return  # already being painted
        if job is not None:
            job.cancelled = True
        region = _image_region(bounds, seen)
        asked = (self.image_key(self._model), _matrix(linear), region)
        if reuse and self._reuse(asked):
            return
        self._job = LayerJob(
            self, self._generation, self._model, self._strokes, self._labels, linear, region
        )
        self._asked = asked
        layer_painter().submit(self._job)

    def image_key(self, model: PageModel) -> object:
        """What this layer's pixels depend on besides the zoom and the region painted, when
        that is less than the whole model: another page with the same key shows the image
        painted for it (`_reuse`). None: the whole model (never reused)."""
        return None

    def _reuse(self, asked: tuple) -> bool:
        """Show the kept image of the last page painted whose image key, zoom and region are
        `asked`: the same strokes painted over the same pixels, the same image. A document's
        page boxes, the same page after page, cost the painter 2.6 ms a page at the median."""
        kept = self._kept
        if asked[0] is None or kept is None or kept[0] != asked:
            return False
        self._job = None
        self._image = kept[1]
        self._take_in(self._image)
        self.update()
        return True

    def job_done(self, job: LayerJob) -> None:
        """A painter thread's job came back (on the GUI thread)."""
        if job.generation != self._generation:
            return
        if self._strokes is None and job.strokes is not None:
            self._set_built(job.strokes, job.labels)
        if job is not self._job:
            return  # a newer zoom or scroll position is being painted
        self._job = None
        if job.failed:
            self._set_background(False)  # drawn as nothing (the error is logged), not retried
        elif job.image is not None:
            self._image = LayerImage(job.image, job.linear, job.origin, job.region)
            self._kept = (self._asked, self._image)
            self._take_in(self._image)
        self.update()

    def _take_in(self, image: LayerImage) -> None:
        """Grow the bounds to the image's pixels: its labels stand beside their anchors,
        beyond the glyphs and boxes at the page's edge, and Qt repaints an item only
        within its bounds."""
        if image.image.isNull():
            return
        # A hundredth of a pixel inside the image's edges: mapped back to pixels, bounds on
        # them came out a pixel wider (the floats' rounding), so that the image no longer
        # covered what the view showed of the layer and the layer was painted again.
        pixels = QRectF(QPointF(image.origin), QSizeF(image.image.size()))
        shown = image.linear.inverted()[0].mapRect(pixels.adjusted(0.01, 0.01, -0.01, -0.01))
        bounds = self.boundingRect()
        if not bounds.contains(shown):
            self.prepareGeometryChange()
            self._bounding = bounds.united(shown)

    def _paint_labels(self, painter) -> None:
        paint_labels(painter, self._labels)

    def label_boxes(self, to_device, metrics) -> list[tuple[QRectF, str, str]]:
        """(device rectangle, text, colour) of each label under the `to_device` transform."""
        if self._model is None:
            return []
        self._ensure_cache(self._model)
        return placed_labels(self._labels, to_device, metrics)


class ExportImages:
    """The background layers of an export, painted by the layer painter's thread at the
    export's own transform, so that QGraphicsScene.render() into the export only composes
    images on the GUI thread (painting a dense page's layers there froze the window).

    Render the scene twice with every layer's `export` set to this: the first pass (`asking`)
    records each background layer's device transform and paints nothing of them; `submit`
    sends their jobs; once `done`, the second pass draws each image where its layer's
    strokes would be, the same pixels as painting them there."""

    def __init__(self, on_done: Callable[[], None]) -> None:
        self.asking = True
        self._on_done = on_done
        self._jobs: dict[int, LayerJob] = {}
        self._wanted: list[tuple[OverlayLayer, QTransform, QRect]] = []
        self.failed = False

    @property
    def total(self) -> int:
        return len(self._wanted)

    @property
    def finished(self) -> int:
        return sum(1 for job in self._jobs.values() if job.image is not None or job.failed)

    @property
    def done(self) -> bool:
        return self.finished == self.total

    def paint(self, layer: OverlayLayer, painter: QPainter) -> None:
        world = painter.worldTransform()
        if self.asking:
            region = world.mapRect(layer.boundingRect()).toAlignedRect()
            region = region.intersected(painter.viewport())
            if not region.isEmpty():
                self._wanted.append((layer, world, region))
            return
        job = self._jobs.get(id(layer))
        if job is None or job.image is None or job.image.isNull():
            return
        painter.save()
        painter.resetTransform()
        painter.drawImage(job.origin, job.image)
        painter.restore()

    def submit(self) -> None:
        self.asking = False
        for layer, world, region in self._wanted:
            # `world` with its translation: pixel (0, 0) of the job's image is the device's
            # region.topLeft(), painted exactly as render() would paint the strokes there.
            job = LayerJob(
                layer,
                layer.generation,
                layer.model,
                layer._strokes,
                layer._labels,
                world,
                region,
                deliver=self._returned,
            )
            self._jobs[id(layer)] = job
            layer_painter().submit(job)
        if self.done:
            self._on_done()

    def cancel(self) -> None:
        for job in self._jobs.values():
            job.cancelled = True

    def _returned(self, job: LayerJob) -> None:
        if self._jobs.get(id(job.layer)) is not job:
            return
        layer = job.layer
        if layer._strokes is None and job.generation == layer.generation and job.strokes:
            layer._set_built(job.strokes, job.labels)  # its labels are in the job's image
        if job.image is None and not job.failed:
            # Abandoned: the page, the rules or the layer changed meanwhile.
            self.failed = True
            job.failed = True
        self._on_done()


@dataclass(frozen=True, slots=True)
class LayerImage:
    """A layer's pixels `covered` painted at the zoom `linear` (user space → device pixels,
    no translation): the image holds those it draws on, its pixel (0, 0) at `origin` in that
    pixel space (a null image: it draws on none)."""

    image: QImage
    linear: QTransform
    origin: QPoint
    covered: QRect

    def covers(self, linear: QTransform, seen: QRectF) -> bool:
        return _same(self.linear, linear) and self.covered.contains(seen.toAlignedRect())

    def draw(self, painter, world: QTransform) -> None:
        if self.image.isNull():
            return
        # Image pixel → that pixel space → user space → the device, whatever the zoom now:
        # at the zoom it was painted for, a translation by whole pixels (crisp); at another,
        # the old image scaled until the new one arrives.
        to_user = (
            QTransform.fromTranslate(self.origin.x(), self.origin.y()) * self.linear.inverted()[0]
        )
        shown = to_user * world
        exact = _same(
            self.linear, QTransform(world.m11(), world.m12(), world.m21(), world.m22(), 0, 0)
        )
        if exact:
            shown = QTransform.fromTranslate(round(shown.dx()), round(shown.dy()))
        painter.save()
        painter.setWorldTransform(shown)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        painter.drawImage(0, 0, self.image)
        painter.restore()


def _same(a: QTransform, b: QTransform) -> bool:
    # Asked for every background layer on every repaint: no generator, four comparisons.
    a11, a12, a21, a22 = a.m11(), a.m12(), a.m21(), a.m22()
    tolerance = 1e-6 * max(abs(a11) + abs(a12), abs(a21) + abs(a22), 1e-9)
    return (
        abs(a11 - b.m11()) <= tolerance
        and abs(a12 - b.m12()) <= tolerance
        and abs(a21 - b.m21()) <= tolerance
        and abs(a22 - b.m22()) <= tolerance
    )


def _matrix(linear: QTransform) -> tuple[float, float, float, float]:
    return (linear.m11(), linear.m12(), linear.m21(), linear.m22())


def _image_region(bounds: QRectF, seen: QRectF) -> QRect:
    """The pixels to paint: what is seen and a margin around it, within the layer (a page
    whose glyphs lie far beyond its edges would otherwise be painted whole, for seconds)."""
    dx, dy = seen.width() * IMAGE_MARGIN, seen.height() * IMAGE_MARGIN
    grown = seen.adjusted(-dx, -dy, dx, dy).intersected(bounds)
    if grown.width() * grown.height() > MAX_IMAGE_PIXELS:
        grown = seen
    return grown.toAlignedRect()
