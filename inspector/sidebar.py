"""The sidebar's wiring: thumbnails rendered by pdfium on the window's render thread one at a
time (the shown page's render never waits behind a queue of them), the outline read from a
pikepdf handle of its own in a worker process of its own, page choices sent to the window."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt

from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.pdf.document import PdfDocument
from glyphscope.core.pdf.outline import OutlineEntry, outline_entries
from glyphscope.inspector.worker_process import WorkerProcess
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.render import RenderedBitmap, rendered_page
from glyphscope.widgets.sidebar import THUMB_WIDTH, Sidebar

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

NO_OUTLINE = "No bookmarks in this file."


def read_outline(path: str, password: str | None) -> list[OutlineEntry]:
    """The outline of the file (a short-lived handle: the window's own ones stay theirs)."""
    try:
        with PdfDocument.open(path, password) as document:
            return outline_entries(document.pdf)
    except GlyphscopeError:  # no outline for a file the engine cannot read; the window says why
        return []


class SidebarController(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.sidebar = Sidebar()
        self.outline_worker = WorkerProcess("sidebar-outline", self, replay=())
        self.outline_worker.jobFinished.connect(self._on_outline)
        self._queue: list[int] = []
        self._rendering: int | None = None
        window.add_panel(
            "sidebar", "Pages", self.sidebar, Qt.DockWidgetArea.LeftDockWidgetArea, "Ctrl+F2"
        )
        if "layers" in window.panels:
            window.tabifyDockWidget(window.panels["layers"], window.panels["sidebar"])
            window.panels["layers"].raise_()
        window.documentOpened.connect(self._on_opened)
        window.documentClosed.connect(self._on_closed)
        window.pageChanged.connect(self.sidebar.show_page)
        window.render_worker.jobFinished.connect(self._on_render)
        window.render_worker.jobFailed.connect(self._on_render_failed)
        self.sidebar.pageChosen.connect(self._go)
        self.sidebar.thumbnailsWanted.connect(self._want)

    def _go(self, index: int) -> None:
        if index != self.window.page_index:
            self.window.go_to_page(index)

    def _on_opened(self, path: str, page_count: int) -> None:
        self.sidebar.set_page_count(page_count)
        self.sidebar.show_page(self.window.page_index)
        self.outline_worker.submit(JobKind.OUTLINE, read_outline, path, self.window.password)

    def _on_closed(self) -> None:
        self.window.render_worker.invalidate(JobKind.SIDEBAR_THUMBNAIL)
        self.outline_worker.invalidate(JobKind.OUTLINE)
        self._queue, self._rendering = [], None
        self.sidebar.set_page_count(0)
        self.sidebar.set_outline([])

    def _on_outline(self, kind: str, generation: int, entries: list[OutlineEntry]) -> None:
        if self.outline_worker.is_latest(kind, generation):
            self.sidebar.set_outline(entries, NO_OUTLINE)

    # -- thumbnails -------------------------------------------------------------------------
    def _want(self, indices: list[int]) -> None:
        self._queue = [i for i in indices if not self.sidebar.has_thumbnail(i)]
        self._next()

    def _next(self) -> None:
        if self._rendering is not None or not self._queue or not self.window.page_count:
            return
        self._rendering = self._queue.pop(0)
        scale = THUMB_WIDTH / 612.0  # pixels per point of a letter-size page; others scale
        self.window.render_worker.submit(
            JobKind.SIDEBAR_THUMBNAIL, self.window.pdfium.render, self._rendering, scale
        )

    def _on_render(self, kind: str, generation: int, result: object) -> None:
        if kind != JobKind.SIDEBAR_THUMBNAIL:
            return
        self._rendering = None
        if self.window.render_worker.is_latest(kind, generation) and isinstance(
            result, RenderedBitmap
        ):
            # The QImage reads the worker's pixels in place: the sidebar keeps a copy.
            self.sidebar.set_thumbnail(result.index, rendered_page(result).image.copy())
        self._next()

    def _on_render_failed(self, kind: str, _generation: int, _error: object) -> None:
        if kind == JobKind.SIDEBAR_THUMBNAIL:
            self._rendering = None
            self._next()

    def shutdown(self) -> None:
        self.outline_worker.stop()


def install_sidebar(window: MainWindow) -> SidebarController:
    return SidebarController(window)
