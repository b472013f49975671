"""The page exports as jobs: what each one paints (the page picture, or a region of it) and the
files it writes from that picture and from what the window showed when it was asked for.

A job is taken on the GUI thread in an instant (the model, the analysis, the layers chosen);
BackgroundExport then paints its picture with PageImageExport (the dense layers on the layer
painter's thread) and makes and writes its files on a thread of its own (the HTML and SVG text,
the PNG encoding: a dense page's take a second or more each), so the window never freezes. It
shows its progress, can be cancelled, stops if the page is turned meanwhile, and says in words
why a file could not be written. write_now does the same on the calling thread: the same files.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRectF, Qt, Signal, Slot
from PySide6.QtGui import QImage, QPainter

from glyphscope.inspector.export.bundle import explanation_parts
from glyphscope.inspector.export.common import (
    open_temporary,
    png_bytes,
    utf8_pieces,
    write_failure,
)
from glyphscope.inspector.export.exporters import (
    PageImageExport,
    page_image,
    page_rect,
    paint_legend,
)
from glyphscope.inspector.export.render import (
    PageRender,
    PageRenderJob,
    RenderRequest,
    render_now,
)
from glyphscope.inspector.export.selection import selection_html, selection_region
from glyphscope.inspector.export.svg import (
    SVG_REGION_SCALE,
    SvgPage,
    svg_page,
    svg_parts,
    svg_render_request,
)

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

log = logging.getLogger(__name__)

PAGE_TURNED = "the page changed while it was being exported"
CANCELLED = "cancelled"


class Picture:
    """The job's painted picture as its files' makers see it: the image, and its PNG bytes
    encoded once for every file that holds them; `page`, pdfium's render of the page (or its
    region) the picture was painted on (an SVG's page image), when there is one."""

    def __init__(self, image: QImage | None, page: PageRender | None = None) -> None:
        self.image = image
        self.page = page

    @cached_property
    def png(self) -> bytes:
        return png_bytes(self.image)


@dataclass(frozen=True, slots=True)
class ExportFile:
    """One file of a job: `make` returns its bytes from the job's Picture (on a worker
    thread, so it reads only what the job took, never the window), whole or as pieces
    written one after the other (a long text encoded a piece at a time, export.common.
    utf8_pieces)."""

    path: Path
    make: Callable[[Picture], bytes | list[bytes]]


@dataclass(frozen=True, slots=True)
class PictureRequest:
    """What PageImageExport / page_image paint for a job."""

    layer_ids: tuple[str, ...]
    scale: float
    legend: bool
    region: QRectF | None = None


@dataclass(frozen=True, slots=True)
class ExportJob:
    page_index: int
    picture: PictureRequest | None
    files: tuple[ExportFile, ...]
    # The page image pdfium renders for the job (the picture's, at its scale, or an SVG's):
    # None, no page image (an export of text alone).
    render: RenderRequest | None = None


class ExportError(OSError):
    """A file of an export could not be written; the message says which and why."""


class ExportStopped(Exception):
    """The export was cancelled or its page turned before its files were in place."""


def write_temporaries(
    files: Sequence[ExportFile],
    picture: Picture,
    stop: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Make every file and write it under a temporary name beside it (put_in_place renames
    them): a failed or stopped export leaves no file, partial or stale, behind."""
    temporaries: list[str] = []
    try:
        for number, file in enumerate(files):
            if stop():
                raise ExportStopped
            data = file.make(picture)
            if stop():  # stopped while this file was being made, which can take a while
                raise ExportStopped
            try:
                temporary, handle = open_temporary(file.path)
                temporaries.append(temporary)
                with os.fdopen(handle, "wb") as stream:
                    stream.writelines([data] if isinstance(data, bytes) else data)
            except OSError as exc:
                raise ExportError(write_failure(exc, file.path)) from exc
            if progress is not None:
                progress(number + 1, len(files))
        if stop():  # the worker removes its own files: a queued word to the GUI may never land
            raise ExportStopped
    except BaseException:
        discard(temporaries)
        raise
    return temporaries


def put_in_place(temporaries: Sequence[str], files: Sequence[ExportFile]) -> list[Path]:
    """Rename the written temporaries over their files (quick: done on the GUI thread, after
    it has checked that the export is still wanted)."""
    try:
        for temporary, file in zip(temporaries, files, strict=True):
            try:
                os.replace(temporary, file.path)
            except OSError as exc:
                raise ExportError(write_failure(exc, file.path)) from exc
    finally:
        discard(temporaries)
    return [file.path for file in files]


def discard(temporaries: Sequence[str]) -> None:
    for temporary in temporaries:
        if os.path.exists(temporary):
            os.unlink(temporary)


def write_files(files: Sequence[ExportFile], picture: Picture) -> list[Path]:
    return put_in_place(write_temporaries(files, picture), files)


def write_now(window: MainWindow, job: ExportJob) -> list[Path]:
    """Render the job's page image (waiting for the render worker), paint its picture and
    write its files on the calling thread: BackgroundExport's files."""
    page = render_now(window, job.render) if job.render is not None else None
    request = job.picture
    image = None
    if request is not None:
        image = page_image(
            window, request.layer_ids, request.scale, request.legend, request.region, page
        )
    return write_files(job.files, Picture(image, page))


class BackgroundExport(QObject):
    """A job's page image rendered by pdfium in the render worker process (PageRenderJob),
    its picture painted on it through PageImageExport (the legend left to the worker
    thread), then its files made and written on a worker thread. `finished` brings the paths
    written; `failed` the reason there are none (a file that could not be written, the page
    turned, cancelled)."""

    progress = Signal(str)
    finished = Signal(list)
    failed = Signal(str)
    _wrote = Signal(int, int)  # from the worker thread: files written, files to write
    _ended = Signal(object)  # from the worker thread: the temporaries, or the failure's message

    def __init__(self, window: MainWindow, job: ExportJob) -> None:
        super().__init__(window)
        self._window = window
        self._job = job
        self._picture: PageImageExport | None = None
        self._render: PageRenderJob | None = None
        self._page: PageRender | None = None
        self._stop = threading.Event()
        self._over = False
        self.writer_thread: threading.Thread | None = None
        self._wrote.connect(self._on_wrote, Qt.ConnectionType.QueuedConnection)
        self._ended.connect(self._on_ended, Qt.ConnectionType.QueuedConnection)
        window.pageChanged.connect(self._on_page_changed)
        window.documentClosed.connect(self._on_document_closed)

    @property
    def running(self) -> bool:
        return not self._over

    def start(self) -> None:
        if self._job.render is None:
            self._paint(None)
            return
        self.progress.emit("rendering the page")
        render = self._render = PageRenderJob(self._window, self._job.render)
        render.done.connect(self._paint)
        render.start()

    @Slot(object)
    def _paint(self, page: PageRender | None) -> None:
        if self._over:
            return
        self._page = page
        request = self._job.picture
        if request is None:
            self._write(None)
            return
        picture = self._picture = PageImageExport(
            self._window,
            request.layer_ids,
            request.scale,
            request.legend,
            request.region,
            page,
            legend_later=True,
        )
        picture.progress.connect(
            lambda done, total: self.progress.emit(f"{done} of {total} layers painted")
        )
        picture.finished.connect(self._write)
        picture.failed.connect(self._fail)
        picture.start()

    def cancel(self) -> None:
        self._fail(CANCELLED)

    def wait(self, timeout: float | None = None) -> None:
        if self.writer_thread is not None:
            self.writer_thread.join(timeout)

    @Slot(QImage)
    def _write(self, image: QImage | None) -> None:
        if self._over:
            return
        self.progress.emit(f"writing 0 of {len(self._job.files)} files")
        picture = self._picture
        sections = picture.sections if picture is not None else []
        legend = (sections, *picture.legend_place) if picture is not None else ([], 0.0, 1.0)
        self.writer_thread = threading.Thread(
            target=self._run,
            args=(image, self._page, legend),
            name="page export",
            daemon=True,
        )
        self.writer_thread.start()

    def _run(self, image: QImage | None, page: PageRender | None, legend) -> None:
        sections, left, scale = legend
        try:
            if image is not None and sections:
                # The legend, painted here rather than on the GUI thread (its hundred-odd
                # texts took 3 to 7 ms there): page_image's pixels.
                painter = QPainter(image)
                paint_legend(painter, sections, left, scale)
                painter.end()
            picture = Picture(image, page)
            written = write_temporaries(
                self._job.files, picture, self._stop.is_set, self._wrote.emit
            )
        except ExportStopped:
            return  # the GUI thread has said why already
        except ExportError as exc:
            self._ended.emit(str(exc))
        except Exception as exc:  # a maker's bug: told to the user, logged with its trace
            log.exception("page export failed")
            self._ended.emit(f"{type(exc).__name__}: {exc}")
        else:
            self._ended.emit(written)

    @Slot(int, int)
    def _on_wrote(self, done: int, total: int) -> None:
        if not self._over:
            self.progress.emit(f"writing {done} of {total} files")

    @Slot(object)
    def _on_ended(self, outcome) -> None:
        if isinstance(outcome, str):
            self._fail(outcome)
            return
        if self._over:  # cancelled, or the page turned, after the files were written
            discard(outcome)
            return
        try:
            written = put_in_place(outcome, self._job.files)
        except ExportError as exc:
            self._fail(str(exc))
            return
        self._finish()
        self.finished.emit([str(path) for path in written])

    @Slot(int)
    def _on_page_changed(self, index: int) -> None:
        if index != self._job.page_index:
            self._fail(PAGE_TURNED)

    @Slot()
    def _on_document_closed(self) -> None:
        self._fail(PAGE_TURNED)

    def _fail(self, reason: str) -> None:
        if self._over:
            return
        self._stop.set()
        if self._render is not None:
            self._render.cancel()
        if self._picture is not None:
            self._picture.cancel()
        self._finish()
        self.failed.emit(reason)

    def _finish(self) -> None:
        self._over = True
        if self._render is not None:  # its answer is in (or cancelled): free it
            self._render.deleteLater()
            self._render = None
        self._window.pageChanged.disconnect(self._on_page_changed)
        self._window.documentClosed.disconnect(self._on_document_closed)


# -- the jobs of the QA menu's exports --------------------------------------------------------


def shown_layers(window: MainWindow) -> list[str]:
    return [layer_id for layer_id, layer in window.layers.items() if layer.isVisible()]


def png_job(
    window: MainWindow, path: str | Path, layer_ids, scale: float, legend: bool
) -> ExportJob:
    request = PictureRequest(tuple(layer_ids), scale, legend)
    render = RenderRequest(scale, page_rect(window))
    return ExportJob(window.page_index, request, (ExportFile(Path(path), _png),), render)


def svg_job(window: MainWindow, path: str | Path, layer_ids, legend: bool = True) -> ExportJob:
    """Vector SVG in display points (glyphscope.inspector.export.svg)."""
    page = svg_page(window, layer_ids, legend)
    files = (ExportFile(Path(path), _svg_maker(page)),)
    return ExportJob(window.page_index, None, files, svg_render_request(window))


def bundle_job(window: MainWindow, path: str | Path, layer_ids=None) -> ExportJob:
    """The explanation bundle of the current page (layers: the visible ones); decisions
    touching the selection are highlighted."""
    model = window.model
    if layer_ids is None:
        layer_ids = shown_layers(window)
    titles = [window.layers[lid].title for lid in layer_ids if lid in window.layers]
    panes = list(model.panes.values())
    name = Path(window.path or "").name
    selection = tuple(window.selection.indices)

    def html(picture: Picture) -> list[bytes]:
        parts = explanation_parts(model.analysis, panes, picture.png, name, titles, selection)
        return utf8_pieces(parts)

    request = PictureRequest(tuple(layer_ids), 2.0, True)
    render = RenderRequest(2.0, page_rect(window))
    return ExportJob(window.page_index, request, (ExportFile(Path(path), html),), render)


def selection_job(window: MainWindow, html_path: str | Path, layer_ids=None) -> ExportJob:
    """NAME.html, NAME.png and NAME.svg of the selection (glyphscope.inspector.
    export.selection); ValueError when nothing is selected on the page."""
    indices = list(window.selection.indices)
    region = selection_region(window, indices)
    if region is None:
        raise ValueError("nothing selected on the page")
    if layer_ids is None:
        layer_ids = shown_layers(window)
    html_path = Path(html_path)
    model = window.model
    name = Path(window.path or "").name
    page = svg_page(window, layer_ids, legend=False, selection=indices, region=region)

    def html(picture: Picture) -> list[bytes]:
        return utf8_pieces([selection_html(model, indices, picture.png, name)])

    # One render of the region for the PNG (drawn at its 3 pixels per point) and the SVG.
    render = svg_render_request(window, region)
    request = PictureRequest(tuple(layer_ids), SVG_REGION_SCALE, False, region)
    files = (
        ExportFile(html_path, html),
        ExportFile(html_path.with_suffix(".png"), _png),
        ExportFile(html_path.with_suffix(".svg"), _svg_maker(page)),
    )
    return ExportJob(window.page_index, request, files, render)


def _png(picture: Picture) -> bytes:
    return picture.png


def _svg_maker(page: SvgPage) -> Callable[[Picture], list[bytes]]:
    """The SVG's text, its page image pdfium's render for the job when there is one (else
    the view's image that svg_page took: a page pdfium cannot render)."""

    def make(picture: Picture) -> list[bytes]:
        shown = page
        if picture.page is not None:
            rect = picture.page.rect
            shown = dataclasses.replace(
                page,
                page_image=picture.page.image,
                image_rect=(rect.left(), rect.top(), rect.width(), rect.height()),
            )
        return utf8_pieces(svg_parts(shown))

    return make
