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
from collections.abc import Callable
from dataclasses import dataclass, field

import shiboken6
from PySide6.QtCore import QObject, QRect, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QImage, QPainter, QTransform

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_shapes import Stopped, Stroke, paint_strokes

log = logging.getLogger(__name__)

# Device pixels added around the painted area when culling, for pens wider than a pixel.
CULL_PAD_PX = 4.0


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
    image: QImage | None = None
    cancelled: bool = False
    failed: bool = field(default=False)
    # Called with the job on the GUI thread when it returns; None: the layer's job_done (the
    # screen's image). An export's jobs go to the export, and never replace the screen's.
    deliver: Callable[[LayerJob], None] | None = None

    def stale(self) -> bool:
        return self.cancelled or self.layer.generation != self.generation

    def run(self) -> None:
        if self.strokes is None:
            self.strokes = [s for s in self.layer.strokes(self.model) if not s.shape.empty]
            self.labels = self.layer.labels(self.model)
        if self.stale():
            return
        image = QImage(self.region.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        to_image = self.linear * QTransform.fromTranslate(-self.region.x(), -self.region.y())
        seen = QRectF(self.region).adjusted(-CULL_PAD_PX, -CULL_PAD_PX, CULL_PAD_PX, CULL_PAD_PX)
        area = self.linear.inverted()[0].mapRect(seen)
        painter = QPainter(image)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setTransform(to_image)
            paint_strokes(
                painter,
                self.strokes,
                (area.left(), area.top(), area.right(), area.bottom()),
                stop=self.stale,
            )
        except Stopped:
            return
        finally:
            painter.end()
        self.image = image


class _Courier(QObject):
    """Lives in the GUI thread; a job's signal from the worker is queued to it."""

    finished = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    @Slot(object)
    def _deliver(self, job: LayerJob) -> None:
        if shiboken6.isValid(job.layer):
            (job.deliver or job.layer.job_done)(job)


class LayerPainter:
    """One worker thread for every layer of every view; a layer's newer job replaces its
    pending one, and a running job is abandoned when it goes stale."""

    def __init__(self) -> None:
        self._courier = _Courier()  # created on the GUI thread, so it delivers there
        self._pending: dict[tuple[int, bool], LayerJob] = {}
        self._running: LayerJob | None = None
        self._wake = threading.Condition()
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

    def _work(self) -> None:
        while True:
            with self._wake:
                while not self._pending:
                    self._wake.wait()
                key = next(iter(self._pending))
                job = self._running = self._pending.pop(key)
            if not job.stale():
                try:
                    job.run()
                except Exception:  # a layer's bug must not kill the painter: log, draw nothing
                    log.exception("overlay layer %s failed", getattr(job.layer, "layer_id", "?"))
                    job.strokes, job.labels, job.image, job.failed = [], [], None, True
            with self._wake:
                self._running = None
            self._courier.finished.emit(job)


_painter: LayerPainter | None = None


def layer_painter() -> LayerPainter:
    """The shared painter, started on first use (from the GUI thread)."""
    global _painter
    if _painter is None:
        _painter = LayerPainter()
    return _painter
