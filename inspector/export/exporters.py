"""Exports of what the inspector shows: the page as PNG or SVG with chosen layers and a legend,
the HTML explanation bundle (inspector/export/bundle.py writes the HTML), and the whole document's
text written off the GUI thread with progress and cancel.

The page picture is the page view's own scene (the pdfium image and the overlay layers in
user space), so an export shows exactly what the screen does, at any resolution.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

from glyphscope.core.rules import Rules
from glyphscope.inspector.export.common import (
    LEGEND_MARGIN,
    LEGEND_ROW,
    LEGEND_WIDTH,
    LegendSection,
    legend_height,
    legend_sections,
    open_temporary,
    page_rect,
    png_bytes,
)
from glyphscope.inspector.export.render import PageRender, RenderRequest, render_now
from glyphscope.inspector.export.svg import page_svg
from glyphscope.widgets.overlay_base import ExportImages, LegendEntry

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

__all__ = [
    "LEGEND_WIDTH",
    "PageImageExport",
    "export_png",
    "export_svg",
    "legend_height",
    "page_image",
    "page_rect",
    "png_bytes",
]


@contextmanager
def layers_shown(window: MainWindow, layer_ids: Sequence[str], selection: bool = False):
    """Show exactly `layer_ids` (and the selection only if `selection`, nor the other pages
    of continuous scrolling) while exporting, then put every layer back as it was; the user's
    saved layer choice is not touched."""
    wanted = set(layer_ids)
    before = {layer_id: layer.isVisible() for layer_id, layer in window.layers.items()}
    selection_visible = window.selection_layer.isVisible()
    try:
        for layer_id, layer in window.layers.items():
            layer.setVisible(layer_id in wanted)
        window.selection_layer.setVisible(selection)
        with window.view.current_page_only():
            yield
    finally:
        for layer_id, visible in before.items():
            window.layers[layer_id].setVisible(visible)
        window.selection_layer.setVisible(selection_visible)


def export_size(window: MainWindow, sections: Sequence[LegendSection], scale: float) -> QSize:
    rect = page_rect(window)
    width = rect.width() + (LEGEND_WIDTH if sections else 0.0)
    height = max(rect.height(), legend_height(sections) if sections else 0.0)
    return QSize(max(int(width * scale), 1), max(int(height * scale), 1))


def paint_legend(
    painter: QPainter, sections: Sequence[LegendSection], left: float, scale: float
) -> None:
    """The legend at `left` pixels, `scale` pixels per point (any thread: a QImage's)."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(left, 0)
    painter.scale(scale, scale)
    _paint_legend(painter, sections)
    painter.restore()


def _paint_scene(
    painter: QPainter, window: MainWindow, source: QRectF, scale: float, page: PageRender | None
) -> None:
    """The scene's `source` rectangle at exactly `scale` pixels per point from (0, 0). With
    `page`, its image is drawn first, unscaled on whole pixels when it was rendered at this
    scale (so it stays as sharp as pdfium made it), and the view's own image (and the white
    paper under it) are left out of the scene."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    target = QRectF(0, 0, source.width() * scale, source.height() * scale)
    if page is None:
        window.view.scene().render(painter, target, source, Qt.AspectRatioMode.IgnoreAspectRatio)
        return
    shown = page.rect.translated(-source.left(), -source.top())
    left, top = shown.left() * scale, shown.top() * scale
    if abs(page.scale - scale) < 1e-9:
        painter.drawImage(QPoint(round(left), round(top)), page.image)
    else:  # pdfium capped a huge render's pixels: magnified, as the view would show it
        painter.drawImage(
            QRectF(left, top, shown.width() * scale, shown.height() * scale), page.image
        )
    with _view_image_hidden(window):
        window.view.scene().render(painter, target, source, Qt.AspectRatioMode.IgnoreAspectRatio)


@contextmanager
def _view_image_hidden(window: MainWindow):
    """The page view's image of the page and its paper left out (an export drew pdfium's
    own render of the page under the scene)."""
    items = window.view.page_image_items()
    shown = [item.isVisible() for item in items]
    try:
        for item in items:
            item.setVisible(False)
        yield
    finally:
        for item, visible in zip(items, shown, strict=True):
            item.setVisible(visible)


def _paint_legend(painter: QPainter, sections: Sequence[LegendSection]) -> None:
    painter.fillRect(QRectF(0, 0, LEGEND_WIDTH, legend_height(sections)), QColor("#ffffff"))
    font = QFont()
    font.setPixelSize(10)
    bold = QFont(font)
    bold.setBold(True)
    y = LEGEND_MARGIN
    x = LEGEND_MARGIN
    for section in sections:
        painter.setFont(bold)
        painter.setPen(QColor("#000000"))
        painter.drawText(QRectF(x, y, LEGEND_WIDTH - 2 * x, LEGEND_ROW), section.title)
        y += LEGEND_ROW
        painter.setFont(font)
        for entry in section.entries:
            _swatch(painter, entry, QRectF(x + 4, y + 3, 20, 9))
            painter.setPen(QColor("#222222"))
            painter.drawText(QRectF(x + 30, y, LEGEND_WIDTH - x - 34, LEGEND_ROW), entry.label)
            y += LEGEND_ROW
        y += 4


def _swatch(painter: QPainter, entry: LegendEntry, box: QRectF) -> None:
    color = QColor(entry.color)
    pen = QPen(color, 1.6)
    if entry.style == "dash":
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    if entry.style in ("line", "dash"):
        middle = box.center().y()
        painter.drawLine(box.left(), middle, box.right(), middle)
        return
    fill = QColor(color)
    fill.setAlpha(0 if entry.style == "box" else 80)
    painter.setBrush(fill)
    painter.drawRect(box)
    painter.setBrush(Qt.BrushStyle.NoBrush)


def page_image(
    window: MainWindow,
    layer_ids: Sequence[str],
    scale: float = 2.0,
    legend: bool = True,
    region: QRectF | None = None,
    page: PageRender | None = None,
) -> QImage:
    """The export picture, painted now on the calling thread (PageImageExport paints a dense
    page's layers off the GUI thread instead). With a `region` (scene rectangle): that part
    of the page with the selection outlined, and no legend. `page`: pdfium's render of the
    area at `scale` (inspector.export.render), drawn under the overlays instead of the
    view's image."""
    sections = legend_sections(window, layer_ids) if legend and region is None else []
    with layers_shown(window, layer_ids, selection=region is not None):
        return _rendered(window, sections, scale, region, page=page)


def _rendered(
    window: MainWindow,
    sections: Sequence[LegendSection],
    scale: float,
    region: QRectF | None = None,
    asking: bool = False,
    page: PageRender | None = None,
    legend: bool = True,
) -> QImage:
    """The export picture painted now. `asking`: PageImageExport's first pass, which only
    lets each background layer record its device transform (ExportImages): everything is
    clipped away, so the page image and the small layers cost little to not paint, and the
    legend (its hundred-odd texts 2 to 7 ms of the GUI thread) is left out. `legend` False:
    its room is left white, for the caller to paint it (PageImageExport, off the GUI thread)."""
    if region is not None:
        size = QSize(max(int(region.width() * scale), 1), max(int(region.height() * scale), 1))
        # Exactly `scale` pixels per point: the source as wide as the whole pixels.
        source = QRectF(region.left(), region.top(), size.width() / scale, size.height() / scale)
    else:
        size = export_size(window, sections, scale)
        source = page_rect(window)
    # Premultiplied: what QPainter composes fastest (the page image and the layers' images).
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    if not asking:
        image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    if asking:
        painter.setClipRect(QRect(0, 0, 1, 1))
    _paint_scene(painter, window, source, scale, None if asking else page)
    if sections and legend and not asking:
        paint_legend(painter, sections, source.width() * scale, scale)
    painter.end()
    return image


# A page whose layers are remade while its export paints them (its complete analysis arriving
# after the first one) is asked again this many times before the export gives up.
MAX_EXPORT_RESTARTS = 3


class PageImageExport(QObject):
    """The export picture with a dense page's layers painted by the layer painter's thread
    at the export's resolution (widgets.overlay_base.ExportImages), so the window never
    freezes while they paint; the same pixels as page_image. `finished` brings the image;
    `failed` says why there is none (another page was shown meanwhile). With a `region`, the
    picture is that part of the page with the selection outlined (page_image's region)."""

    progress = Signal(int, int)  # layers painted, layers to paint
    finished = Signal(QImage)
    failed = Signal(str)

    def __init__(
        self,
        window: MainWindow,
        layer_ids: Sequence[str],
        scale: float = 2.0,
        legend: bool = True,
        region: QRectF | None = None,
        page: PageRender | None = None,
        legend_later: bool = False,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._layer_ids = list(layer_ids)
        self._scale = scale
        self._region = region
        self._page = page
        # legend_later: the legend's room is left white, and its sections are `sections`
        # for the caller to paint off the GUI thread (paint_legend; 3 to 7 ms here).
        self._legend_later = legend_later
        self.sections = legend_sections(window, layer_ids) if legend and region is None else []
        # Where the legend goes: (its left in pixels, pixels per point).
        self.legend_place = (page_rect(window).width() * scale, scale)
        self._images = ExportImages(self._returned)
        self._over = False
        self._page_index = window.page_index
        self._restarts = 0

    def start(self) -> None:
        """Ask every background layer for its image (the first pass paints only the small
        layers, and is thrown away); `finished` may be emitted before this returns."""
        with self._exporting():
            _rendered(self._window, self.sections, self._scale, self._region, asking=True)
        self.progress.emit(0, self._images.total)
        self._images.submit()

    def cancel(self) -> None:
        self._over = True
        self._images.cancel()

    @contextmanager
    def _exporting(self):
        layers = [*self._window.layers.values(), self._window.selection_layer]
        with layers_shown(self._window, self._layer_ids, selection=self._region is not None):
            for layer in layers:
                layer.export = self._images
            try:
                yield
            finally:
                for layer in layers:
                    layer.export = None

    def _returned(self) -> None:
        if self._over:
            return
        if self._images.failed:
            if self._window.page_index == self._page_index and self._restarts < MAX_EXPORT_RESTARTS:
                # The same page's layers were remade (its complete analysis arrived): ask again.
                self._restarts += 1
                self._images = ExportImages(self._returned)
                self.start()
                return
            self._over = True
            self.failed.emit("the page changed while it was being exported")
            return
        self.progress.emit(self._images.finished, self._images.total)
        if self._images.done:
            self._over = True
            with self._exporting():
                image = _rendered(
                    self._window,
                    self.sections,
                    self._scale,
                    self._region,
                    page=self._page,
                    legend=not self._legend_later,
                )
            self.finished.emit(image)


def export_png(
    window: MainWindow,
    path: str | Path,
    layer_ids: Sequence[str],
    scale: float = 2.0,
    legend: bool = True,
) -> QImage:
    """The page at `scale` pixels per point, pdfium's render of it at that scale underneath
    (waited for on the calling thread)."""
    page = render_now(window, RenderRequest(scale, page_rect(window)))
    image = page_image(window, layer_ids, scale, legend, page=page)
    if not image.save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    return image


def export_svg(
    window: MainWindow, path: str | Path, layer_ids: Sequence[str], legend: bool = True
) -> None:
    """Vector SVG in display points: the page image underneath, every overlay as SVG
    elements with classes and titles (glyphscope.inspector.export.svg)."""
    Path(path).write_text(page_svg(window, layer_ids, legend), encoding="utf-8")


# -- whole-document text ----------------------------------------------------------------------


class TextExport(QObject):
    """Writes a document's text (spec §10) page by page on a worker thread. Signals reach the
    GUI queued; `cancel()` stops between pages and leaves no partial file behind."""

    progress = Signal(int, int)  # pages written, pages to write
    finished = Signal(int, str)  # pages written, output path
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def cancel(self) -> None:
        self._cancel.set()

    def start(
        self,
        path: str,
        password: str | None,
        output: str | Path,
        pages: Sequence[int] | None,
        mode: str,
        separator: str,
        bom: bool,
        rules: Rules,
    ) -> None:
        self._cancel.clear()
        args = (path, password, str(output), pages, mode, separator, bom, rules)
        self._thread = threading.Thread(target=self._run, args=args, name="qa-text-export")
        self._thread.daemon = True
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self, path, password, output, pages, mode, separator, bom, rules) -> None:
        try:
            written = self.write(path, password, output, pages, mode, separator, bom, rules)
        except Exception as exc:  # shown to the user; the partial file is already removed
            self.failed.emit(f"{type(exc).__name__}: {exc}")
            return
        if written is None:
            self.cancelled.emit()
        else:
            self.finished.emit(written, output)

    def write(self, path, password, output, pages, mode, separator, bom, rules) -> int | None:
        """Write synchronously (the worker thread's job); None when cancelled, and then no
        file is left behind."""
        from glyphscope.core.document import Document
        from glyphscope.core.output import UTF8_BOM, write_document_text

        temporary, handle = open_temporary(output)
        try:
            with os.fdopen(handle, "wb") as stream, Document.open(path, password) as document:
                indices = list(pages) if pages else list(range(document.page_count))
                if bom:
                    stream.write(UTF8_BOM)
                for written, index in enumerate(indices):
                    if self._cancel.is_set():
                        raise _Cancelled
                    if written:
                        stream.write(separator.encode("utf-8"))
                    # One page at a time through the core writer, so progress and cancel
                    # fall between pages and the text is exactly glyphscope-extract's.
                    write_document_text(document, stream, [index], mode, separator, False, rules)
                    self.progress.emit(written + 1, len(indices))
            os.replace(temporary, output)
            return len(indices)
        except _Cancelled:
            os.unlink(temporary)
            return None
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise


class _Cancelled(Exception):
    """The user cancelled the text export between two pages."""
