"""Continuous scrolling (View ▸ Continuous scrolling, remembered): every page of the document
stacked in the page view (widgets/continuous_pages.py), the page under the viewport's centre
the current one, whose analysis, panes and page number follow the scrolling.

The layout comes from one job on the render worker that reads every page's size without
loading its content; the images of the pages near the viewport are rendered there one at a
time, like the sidebar's thumbnails, so the current page's render never waits behind a queue
of them, and a page that failed once is not tried again (a bomb costs the worker seconds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from glyphscope.inspector.settings import read_bool
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.render import RenderedBitmap, rendered_page

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

CONTINUOUS_KEY = "view/continuous"


class ContinuousScrolling(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.enabled = read_bool(window.settings, CONTINUOUS_KEY, False)
        self._queue: list[int] = []
        self._scale = 1.0
        self._rendering: tuple[int, int] | None = None  # (generation, page) of the job out
        self._failed: set[int] = set()
        view = window.view
        view.currentPageWanted.connect(self._turn_to)
        view.pagesWanted.connect(self._want)
        window.pageChanged.connect(view.show_page)
        window.documentOpened.connect(self._on_opened)
        window.documentClosed.connect(self._on_closed)
        window.render_worker.jobFinished.connect(self._on_job)
        window.render_worker.jobFailed.connect(self._on_job_failed)

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        window = self.window
        if window.persist:
            window.settings.setValue(CONTINUOUS_KEY, self.enabled)
        if self.enabled and window.page_count:
            self._request_sizes()
        elif not self.enabled:
            self._forget_jobs()
            window.view.set_page_sizes(None)

    def _on_opened(self, _path: str, _page_count: int) -> None:
        # Submitted before the first page's render, so the layout is there when it arrives.
        if self.enabled:
            self._request_sizes()

    def _on_closed(self) -> None:
        self._forget_jobs()
        self._failed.clear()

    def _request_sizes(self) -> None:
        window = self.window
        window.render_worker.submit(JobKind.CONTINUOUS_SIZES, window.pdfium.page_sizes)

    def _forget_jobs(self) -> None:
        thread = self.window.render_worker
        thread.invalidate(JobKind.CONTINUOUS_SIZES)
        thread.invalidate(JobKind.CONTINUOUS_PAGE)
        self._queue, self._rendering = [], None

    def _turn_to(self, index: int) -> None:
        if index != self.window.page_index:
            self.window.go_to_page(index)

    # -- images of the pages near the viewport ----------------------------------------------------
    def _want(self, indices: list[int], scale: float) -> None:
        self._queue = [i for i in indices if i not in self._failed]
        self._scale = scale
        self._next()

    def _next(self) -> None:
        window = self.window
        if self._rendering is not None or not self._queue or not window.page_count:
            return
        index = self._queue.pop(0)
        generation = window.render_worker.submit(
            JobKind.CONTINUOUS_PAGE, window.pdfium.render, index, self._scale
        )
        self._rendering = (generation, index)

    def _on_job(self, kind: str, generation: int, result: object) -> None:
        window = self.window
        if kind == JobKind.CONTINUOUS_SIZES:
            if (
                window.render_worker.is_latest(kind, generation)
                and self.enabled
                and isinstance(result, list)
                and len(result) == window.page_count
            ):
                window.view.set_page_sizes(result, window.page_index)
            return
        if (
            kind != JobKind.CONTINUOUS_PAGE
            or self._rendering is None
            or self._rendering[0] != generation
        ):
            return
        self._rendering = None
        if isinstance(result, RenderedBitmap):
            window.view.set_page_image(result.index, rendered_page(result).image, result.geometry)
        self._next()

    def _on_job_failed(self, kind: str, generation: int, error: object) -> None:
        if kind == JobKind.CONTINUOUS_SIZES and self.window.render_worker.is_latest(
            kind, generation
        ):
            self.window.statusBar().showMessage(f"Continuous scrolling is unavailable: {error}")
            return
        if (
            kind != JobKind.CONTINUOUS_PAGE
            or self._rendering is None
            or self._rendering[0] != generation
        ):
            return
        self._failed.add(self._rendering[1])  # blank paper from now on
        self._rendering = None
        self._next()
