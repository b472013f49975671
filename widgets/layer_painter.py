"""A worker thread that builds overlay layers and paints them into images, off the GUI thread.

A dense page's layers take a second or more to build and paint (20,000 glyph quads, or a few
thousand quads thousands of points wide); the GUI thread only shows the image that comes back.
QImage and QPainter may be used outside the GUI thread. PySide6 does not release the GIL in
the QPainter calls, so the painting is cut into batches of a few milliseconds
(widgets/overlay_shapes.py) and a job asks before each batch whether it is still wanted: a page
flip, a rule change or a new zoom abandons it at once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import shiboken6
from PySide6.QtCore import (
    QAbstractEventDispatcher,
    QObject,
    QPoint,
    QRect,
    QRectF,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import QImage, QPainter, QTransform

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_shapes import (
    Stopped,
    Stroke,
    finite_bounds,
    label_reach,
    paint_labels,
    paint_strokes,
)

log = logging.getLogger(__name__)

# Device pixels added around the painted area when culling, for pens wider than a pixel.
CULL_PAD_PX = 4.0
# Labels reaching at most this far beyond the region asked for are painted whole.
LABEL_MARGIN_PX = 200
# The painter waits at most this long for the GUI thread's event loop to go idle, per batch.
GUI_FIRST_SECONDS = 0.05
# Finished jobs wait at most this long for the jobs after them, to be shown in one repaint.
DELIVERY_SECONDS = 0.1


@dataclass(eq=False, slots=True)
class LayerJob:
    """Build `layer`'s strokes for `model` if not given, and paint `region` (pixels under the
    `linear` transform: the zoom's, no translation, for the screen; an export's whole device
    transform for an export) into an image."""

    layer: object  # an OverlayLayer
    generation: int
    model: PageModel
    strokes: list[Stroke] | None
    labels: list[tuple] | None
    linear: QTransform
    region: QRect
    # The painted image (a null one: nothing of the layer lies in `region`) and its pixel
    # (0, 0) in the `linear` transform's pixel space, within `region`.
    image: QImage | None = None
    origin: QPoint = field(default_factory=QPoint)
    cancelled: bool = False
    failed: bool = field(default=False)
    # Called with the job on the GUI thread when it returns; None: the layer's job_done (the
    # screen's image). An export's jobs go to the export, and never replace the screen's.
    deliver: Callable[[LayerJob], None] | None = None
    # Set by the painter: waits while the GUI thread is busy (LayerPainter).
    gui_first: Callable[[], None] | None = None

    def stale(self) -> bool:
        return self.cancelled or self.layer.generation != self.generation

    def run(self) -> None:
        if self.strokes is None:
            self.strokes = [s for s in self.layer.strokes(self.model) if not s.shape.empty]
            self.labels = self.layer.labels(self.model)
        if self.stale():
            return
        labelled = QRectF()
        if self.labels:
            # Labels stand beside their anchors, beyond the layer's bounds at the page's edge
            # (MediaBox above it, MCID numbers left of it): the image takes them in.
            beside = self.region.adjusted(
                -LABEL_MARGIN_PX, -LABEL_MARGIN_PX, LABEL_MARGIN_PX, LABEL_MARGIN_PX
            )
            labelled = label_reach(self.labels, self.linear)
            # With the pixel of antialiasing around them that _reach keeps: a region short of
            # it had the layer painted again, a pixel taller, once its bounds took the image in.
            inked = labelled.adjusted(-1, -1, 1, 1).toAlignedRect()
            self.region = self.region.united(inked.intersected(beside))
        seen = QRectF(self.region).adjusted(-CULL_PAD_PX, -CULL_PAD_PX, CULL_PAD_PX, CULL_PAD_PX)
        area = self.linear.inverted()[0].mapRect(seen)
        culled = (area.left(), area.top(), area.right(), area.bottom())
        # Only the pixels the strokes reach are kept (no image for a layer with nothing on
        # the page): the GUI thread composes every layer's image on every repaint. They are
        # painted in an image of the whole region, as the screen's pixels are the same only
        # under the same transform (another translation moves a few antialiased pixels).
        reach = self._reach(culled, labelled)
        self.origin = reach.topLeft()
        if reach.isEmpty():
            self.image = QImage()
            return
        image = QImage(self.region.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        to_image = self.linear * QTransform.fromTranslate(-self.region.x(), -self.region.y())
        painter = QPainter(image)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setTransform(to_image)
            paint_strokes(painter, self.strokes, culled, stop=self._next_batch)
            # The labels too (one call each, a few hundred at most: no batches).
            if self.labels and not self._next_batch():
                paint_labels(painter, self.labels)
        except Stopped:
            return
        finally:
            painter.end()
        self.image = (
            image if reach == self.region else image.copy(reach.translated(-self.region.topLeft()))
        )

    def _next_batch(self) -> bool:
        """Whether to stop before the next batch, once the GUI thread has gone first."""
        if self.gui_first is not None:
            self.gui_first()
        return self.stale()

    def _reach(self, area: tuple[float, float, float, float], labelled: QRectF) -> QRect:
        """The pixels of `region` the strokes within `area` can touch (their points' bounds
        under `linear`, grown by CULL_PAD_PX for pens and antialiasing) and the labels
        (`labelled`: their label_reach)."""
        lows, highs = [], []
        for stroke in self.strokes:
            bounds = finite_bounds(stroke.shape.within(area).points.reshape(-1, 2))
            if bounds is not None:
                lows.append(bounds[0])
                highs.append(bounds[1])
        drawn = QRectF()
        if lows:
            (x0, y0), (x1, y1) = np.min(lows, axis=0), np.max(highs, axis=0)
            drawn = self.linear.mapRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            drawn.adjust(-CULL_PAD_PX, -CULL_PAD_PX, CULL_PAD_PX, CULL_PAD_PX)
        if self.labels:
            drawn = drawn.united(labelled.adjusted(-1, -1, 1, 1))
        if drawn.isEmpty():
            return QRect()
        return drawn.toAlignedRect().intersected(self.region)


class _Courier(QObject):
    """Lives in the GUI thread; a job's signal from the worker is queued to it."""

    finished = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @Slot(object)
    def _deliver(self, jobs: list[LayerJob]) -> None:
        for job in jobs:
            if shiboken6.isValid(job.layer):
                (job.deliver or job.layer.job_done)(job)


class LayerPainter:
    """One worker thread for every layer of every view; a layer's newer job replaces its
    pending one, and a running job is abandoned when it goes stale.

    The GUI thread goes first: the painter's QPainter calls hold the GIL (PySide6 does not
    release it), so while the GUI thread's event loop is awake the painter waits before each
    batch (at most GUI_FIRST_SECONDS), instead of taking the GIL from it every switch
    interval and doubling the wall time of its work.

    Finished jobs are handed to the GUI thread together, once no job is pending or
    DELIVERY_SECONDS after the first of them: each delivery repaints the view, composing
    every layer's image, and a page's dozen layers delivered one by one cost a dozen."""

    def __init__(self) -> None:
        self._courier = _Courier()  # created on the GUI thread, so it delivers there
        self._pending: dict[tuple[int, bool], LayerJob] = {}
        self._running: LayerJob | None = None
        self._finished: list[LayerJob] = []
        self._first_finished = 0.0
        self._wake = threading.Condition()
        self._gui_idle = threading.Event()
        self._gui_idle.set()
        dispatcher = QAbstractEventDispatcher.instance()
        if dispatcher is not None:
            dispatcher.awake.connect(self._gui_idle.clear)
            dispatcher.aboutToBlock.connect(self._gui_idle.set)
        self._thread = threading.Thread(target=self._work, name="overlay painter", daemon=True)
        self._thread.start()

    @property
    def idle(self) -> bool:
        with self._wake:
            return not self._pending and self._running is None

    def submit(self, job: LayerJob) -> None:
        key = (id(job.layer), job.deliver is None)
        with self._wake:
            self._pending.pop(key, None)
            self._pending[key] = job  # at the back: the newest zoom or page last
            self._wake.notify()

    def _gui_first(self) -> None:
        self._gui_idle.wait(GUI_FIRST_SECONDS)

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
                key = next(iter(self._pending))
                job = self._running = self._pending.pop(key)
            if not job.stale():
                try:
                    self._gui_first()
                    job.gui_first = self._gui_first
                    job.run()
                except Exception:  # a layer's bug must not kill the painter: log, draw nothing
                    log.exception("overlay layer %s failed", getattr(job.layer, "layer_id", "?"))
                    job.strokes, job.labels, job.image, job.failed = [], [], None, True
            with self._wake:
                self._running = None
                if not self._finished:
                    self._first_finished = time.perf_counter()
                self._finished.append(job)
                late = time.perf_counter() - self._first_finished >= DELIVERY_SECONDS
                if self._pending and not late:
                    continue
                finished, self._finished = self._finished, []
            self._courier.finished.emit(finished)


_painter: LayerPainter | None = None


def layer_painter() -> LayerPainter:
    """The shared painter, started on first use (from the GUI thread)."""
    global _painter
    if _painter is None:
        _painter = LayerPainter()
    return _painter
