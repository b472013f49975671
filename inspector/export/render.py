"""The page image of an export, rendered by pdfium at the export's own scale in the render
worker process (inspector.workers.render.PdfiumOwner.render_area), not the page view's screen
image: a PNG of a page shown at 44 % was that image magnified five times, and the SVG held
the whole page's screen image for a selection of a few words.

PageRenderJob asks for it and says when it is there (the window goes on meanwhile);
`render_now` waits for it on the calling thread (write_now's files are the same). A page
pdfium cannot render (blank paper with a banner) has no render: the export shows the page as
the view does, blank paper and all.
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QImage

from glyphscope.inspector.workers.render import RenderedBitmap

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

# A render of an export waits this long at most for the worker (which stops a job at 30 s);
# then the export shows the view's own image.
RENDER_WAIT_S = 45.0
_kinds = itertools.count(1)


@dataclass(frozen=True, slots=True)
class RenderRequest:
    """The part of the page an export shows (`area`: a scene rectangle, display points) and
    the pixels per display point it wants there."""

    scale: float
    area: QRectF


@dataclass(frozen=True, slots=True)
class PageRender:
    """pdfium's render of a part of the page: `image` covers `rect` (scene, display points)."""

    image: QImage
    rect: QRectF
    scale: float  # image pixels per display point
    pixels: np.ndarray | None = None  # what `image` reads from, kept alive with it


def renderable(window: MainWindow) -> bool:
    """pdfium showed the current page (not blank paper laid out from the engine's boxes)."""
    rendered = window.rendered
    return (
        rendered is not None
        and rendered.rendered
        and rendered.index == window.page_index
        and window.view.geometry is not None
    )


def page_render(bitmap: RenderedBitmap) -> PageRender | None:
    """The window's side of a render_area bitmap; None for blank paper."""
    if bitmap.pixels is None or not bitmap.rendered:
        return None
    image = QImage(
        bitmap.pixels.data, bitmap.width, bitmap.height, bitmap.stride, QImage.Format.Format_RGB32
    )
    x, y = bitmap.origin
    rect = QRectF(x, y, bitmap.width / bitmap.scale, bitmap.height / bitmap.scale)
    return PageRender(image, rect, bitmap.scale, bitmap.pixels)


def _job(window: MainWindow, request: RenderRequest) -> tuple:
    area = request.area
    return (
        window.pdfium.render_area,
        window.page_index,
        request.scale,
        (area.left(), area.top(), area.right(), area.bottom()),
    )


class PageRenderJob(QObject):
    """Asks the render worker for a request's page image; `done` brings the PageRender, or
    None when there is none (the page is blank paper, or the worker failed on it: the export
    then shows the view's image, as it did before)."""

    done = Signal(object)

    def __init__(self, window: MainWindow, request: RenderRequest) -> None:
        super().__init__(window)
        self._window = window
        self._request = request
        self._kind = f"export render {next(_kinds)}"
        self._generation = 0
        self._over = False

    def start(self) -> None:
        if not renderable(self._window):
            self._end(None)
            return
        thread = self._window.render_worker
        thread.jobFinished.connect(self._on_finished)
        thread.jobFailed.connect(self._on_failed)
        self._generation = thread.submit(self._kind, *_job(self._window, self._request))

    def cancel(self) -> None:
        if not self._over:
            self._over = True
            self._window.render_worker.invalidate(self._kind)
            self._disconnect()

    @Slot(str, int, object)
    def _on_finished(self, kind: str, generation: int, result: object) -> None:
        if kind == self._kind and generation == self._generation:
            self._end(page_render(result) if isinstance(result, RenderedBitmap) else None)

    @Slot(str, int, object)
    def _on_failed(self, kind: str, generation: int, _error: object) -> None:
        if kind == self._kind and generation == self._generation:
            self._end(None)

    def _end(self, render: PageRender | None) -> None:
        if self._over:
            return
        self._over = True
        self._disconnect()
        self.done.emit(render)

    def _disconnect(self) -> None:
        if not self._generation:
            return
        thread = self._window.render_worker
        for signal, slot in (
            (thread.jobFinished, self._on_finished),
            (thread.jobFailed, self._on_failed),
        ):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass


def render_now(window: MainWindow, request: RenderRequest) -> PageRender | None:
    """The request's page image, waited for on the calling thread (the worker's answer is
    taken on its dispatcher thread, so no event loop runs meanwhile); None as PageRenderJob."""
    if not renderable(window):
        return None
    thread = window.render_worker
    kind = f"export render {next(_kinds)}"
    answered = threading.Event()
    answer: list[object] = []
    generation = [0]
    lock = threading.Lock()

    def finished(got_kind: str, got_generation: int, result: object) -> None:
        with lock:
            if got_kind == kind and got_generation == generation[0]:
                answer.append(result)
                answered.set()

    def failed(got_kind: str, got_generation: int, _error: object) -> None:
        finished(got_kind, got_generation, None)

    direct = Qt.ConnectionType.DirectConnection
    thread.jobFinished.connect(finished, direct)
    thread.jobFailed.connect(failed, direct)
    try:
        with lock:
            generation[0] = thread.submit(kind, *_job(window, request))
        answered.wait(RENDER_WAIT_S)
    finally:
        thread.jobFinished.disconnect(finished)
        thread.jobFailed.disconnect(failed)
        thread.invalidate(kind)
    result = answer[0] if answer else None
    return page_render(result) if isinstance(result, RenderedBitmap) else None
