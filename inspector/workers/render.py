"""Page rendering with pypdfium2, entirely inside the render worker process.

pdfium is not thread-safe and aborts its process on some decompression bombs, so it runs in a
worker process of its own (inspector.worker_process): `PdfiumOwner` lives there and sends back
`RenderedBitmap`s, plain bytes the window turns into a `RenderedPage` with `rendered_page`.
When pdfium cannot read a file, or dies on one of its pages, the page is laid out from the
engine's boxes (pikepdf) as blank paper of the right size, with a note saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PySide6.QtGui import QImage

from glyphscope.core.errors import (
    DamagedPdfError,
    GlyphscopeError,
    NotAPdfError,
    PasswordRequiredError,
    WrongPasswordError,
)
from glyphscope.core.geometry import normalize_rect
from glyphscope.core.pdf.document import PdfDocument, visible_box_of
from glyphscope.core.view.page_geometry import PageGeometry, display_size
from glyphscope.inspector.worker_child import WorkerOwned

# Above this many pixels a render is made at a lower scale and the view magnifies it: a
# 800 % zoom of an A0 poster would otherwise ask pdfium for gigabytes.
MAX_RENDER_PIXELS = 24_000_000
BLANK_PAPER = 0xFFE8E8E8


@dataclass(frozen=True, slots=True)
class RenderedBitmap:
    """A rendered page as the worker sends it: BGRx pixels (QImage.Format_RGB32 layout)."""

    index: int
    geometry: PageGeometry
    width: int
    height: int
    stride: int
    pixels: np.ndarray | None  # uint8 rows of `stride` bytes; None: blank paper
    scale: float  # image pixels per display point
    note: str = ""  # something the user should know about how the page is shown
    rendered: bool = True  # False: pdfium drew nothing, the page is blank paper
    # Where pixel (0, 0) lies on the page, in display points: (0, 0) but for render_area's.
    origin: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class RenderedPage:
    index: int
    geometry: PageGeometry
    image: QImage
    scale: float  # image pixels per display point
    note: str = ""  # something the user should know about how the page is shown
    rendered: bool = True  # False: the page image is unavailable (see note)
    pixels: np.ndarray | None = None  # what `image` reads from, kept alive with it


def rendered_page(bitmap: RenderedBitmap) -> RenderedPage:
    """The window's side of a render: the bitmap as a QImage over the pixels that came from
    the worker (not copied: the view copies them once, into its pixmap)."""
    if bitmap.pixels is not None:
        image = QImage(
            bitmap.pixels.data,
            bitmap.width,
            bitmap.height,
            bitmap.stride,
            QImage.Format.Format_RGB32,
        )
    else:
        image = QImage(bitmap.width, bitmap.height, QImage.Format.Format_RGB32)
        image.fill(BLANK_PAPER)
    return RenderedPage(
        bitmap.index,
        bitmap.geometry,
        image,
        bitmap.scale,
        bitmap.note,
        bitmap.rendered,
        bitmap.pixels,
    )


class PdfiumOwner(WorkerOwned):
    """The pdfium document; every method runs in the render worker process only."""

    def __init__(self) -> None:
        self._document: pdfium.PdfDocument | None = None
        self._path: str | None = None
        self._password: str | None = None
        self._boxes: PdfDocument | None = None  # the engine's reading of the same file
        # Why the engine could not read it, so a file it refuses is not re-read every render.
        self._boxes_error: GlyphscopeError | None = None
        self._unrendered = ""  # why pdfium cannot show this document, when it cannot

    @property
    def document(self) -> pdfium.PdfDocument | None:
        """The open pdfium document, for other jobs running in the render worker."""
        return self._document

    def open(self, path: str, password: str | None) -> int:
        self.close()
        try:
            document = pdfium.PdfDocument(path, password=password or None)
        except pdfium.PdfiumError as exc:
            raise _typed_error(exc, path, password) from None
        self._document, self._path, self._password = document, path, password
        return len(document)

    def open_unrendered(self, path: str, password: str | None, reason: str) -> int:
        """Open a file pdfium refused (or died on) for blank pages laid out from the engine's
        boxes; raises the engine's typed error when the engine cannot read it either."""
        self.close()
        self._path, self._password = path, password
        self._unrendered = reason
        return self._engine_document().page_count

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        if self._boxes is not None:
            self._boxes.close()
        self._document = self._boxes = self._boxes_error = None
        self._unrendered = ""

    def render(self, index: int, scale: float) -> RenderedBitmap:
        if self._unrendered:
            return self.blank(index, scale, self._unrendered)
        if self._document is None:
            raise DamagedPdfError("no document is open")
        page = self._document[index]
        try:
            geometry = self._geometry(page, index)
            # pdfium draws CropBox ∩ MediaBox and nothing at all where that is empty.
            left, bottom, right, top = page.get_bbox()
            if right <= left or top <= bottom:
                return _empty_visible_box(geometry, scale)
            width, height = display_size(geometry.visible_box, geometry.rotate, geometry.user_unit)
            return _bitmap(page, geometry, capped_scale(scale, width, height))
        finally:
            page.close()

    def _geometry(self, page: pdfium.PdfPage, index: int) -> PageGeometry:
        media_box = normalize_rect(page.get_mediabox())
        crop_box = normalize_rect(page.get_cropbox())
        return PageGeometry(
            index=index,
            media_box=media_box,
            crop_box=crop_box,
            # The engine's visible box (§14.11.2), decided once in core for both.
            visible_box=visible_box_of(crop_box, media_box),
            rotate=page.get_rotation(),
            user_unit=self._user_unit(index),
        )

    def render_area(
        self, index: int, scale: float, area: tuple[float, float, float, float]
    ) -> RenderedBitmap:
        """The part of page `index` inside `area` (left, top, right, bottom in display points,
        the page view's scene), rendered at `scale` pixels per display point for an export:
        only that part is drawn, its pixels on the whole page's pixel grid at that scale (the
        bitmap's `origin` says where it starts), so an export composes it unscaled. Capped at
        MAX_RENDER_PIXELS like the view's renders. Blank paper when pdfium cannot show the
        page, as `render` is."""
        if self._unrendered:
            return self.blank(index, scale, self._unrendered)
        if self._document is None:
            raise DamagedPdfError("no document is open")
        left, top, right, bottom = area
        page = self._document[index]
        try:
            geometry = self._geometry(page, index)
            user_unit = geometry.user_unit
            # pdfium's page size is in points: /UserUnit (§14.11.2) scales it to display points.
            width, height = page.get_width() * user_unit, page.get_height() * user_unit
            left, top = max(left, 0.0), max(top, 0.0)
            right, bottom = min(right, width), min(bottom, height)
            if right <= left or bottom <= top:
                raise DamagedPdfError(f"page {index + 1}: the area exported misses the page")
            scale = capped_scale(scale, right - left, bottom - top)
            pixel_scale = scale * user_unit  # pixels per pdfium point
            # page.render's whole-page size and crop, in pixels, as it rounds them (ceil).
            page_wide = math.ceil(page.get_width() * pixel_scale)
            page_high = math.ceil(page.get_height() * pixel_scale)
            x0 = min(max(math.floor(left * scale), 0), page_wide - 1)
            y0 = min(max(math.floor(top * scale), 0), page_high - 1)
            x1 = max(min(math.ceil(right * scale), page_wide), x0 + 1)
            y1 = max(min(math.ceil(bottom * scale), page_high), y0 + 1)
            # Crop in points, a hair under the whole pixels so that ceil() gives them back.
            crop = tuple(
                max(pixels - 1e-3, 0.0) / pixel_scale
                for pixels in (x0, page_high - y1, page_wide - x1, y0)
            )
            return _bitmap(page, geometry, scale, crop, (x0 / scale, y0 / scale))
        finally:
            page.close()

    def page_sizes(self) -> list[tuple[float, float]]:
        """Every page's shown size in display points, for continuous scrolling's layout,
        without loading any page's content: pdfium reads the visible box and /Rotate alone
        (FPDF_GetPageSizeByIndexF; 10 ms for 2,000 pages). It ignores /UserUnit, and gives
        (0, 0) for an empty visible box: the render of such a page corrects its size."""
        if self._unrendered:
            document = self._engine_document()
            return [self._engine_page_size(document, i) for i in range(document.page_count)]
        if self._document is None:
            raise DamagedPdfError("no document is open")
        document = self._document
        return [_page_size(document, index) for index in range(len(document))]

    @staticmethod
    def _engine_page_size(document: PdfDocument, index: int) -> tuple[float, float]:
        try:
            boxes = document.page(index).boxes
        except GlyphscopeError:  # the page's render will say what is wrong with it
            return (0.0, 0.0)
        return display_size(boxes.visible_box, boxes.rotate, boxes.user_unit)

    def blank(self, index: int, scale: float, reason: str) -> RenderedBitmap:
        """Blank paper the size of page `index` as the engine reads its boxes (§14.11.2), so
        the analysis can be drawn where pdfium drew nothing; `reason` says why."""
        boxes = self._engine_document().page(index).boxes
        geometry = PageGeometry(
            index=index,
            media_box=boxes.media_box,
            crop_box=boxes.crop_box,
            visible_box=boxes.visible_box,
            rotate=boxes.rotate,
            user_unit=boxes.user_unit,
        )
        note = (
            f"Page {index + 1}: the page image is unavailable ({reason}). The engine's "
            "analysis is drawn on blank paper of the page's size."
        )
        return _blank_bitmap(geometry, scale, note)

    def _engine_document(self) -> PdfDocument:
        if self._boxes_error is not None:
            raise self._boxes_error
        if self._boxes is None:
            if self._path is None:
                raise DamagedPdfError("no document is open")
            try:
                self._boxes = PdfDocument.open(self._path, self._password)
            except GlyphscopeError as exc:
                self._boxes_error = exc
                raise
        return self._boxes

    def _user_unit(self, index: int) -> float:
        # pdfium has no accessor for /UserUnit (§14.11.2); the engine reads it for this page
        # alone, so opening a long file does no per-page work.
        try:
            return self._engine_document().page(index).user_unit
        except GlyphscopeError:  # a file pdfium reads and the engine does not: the default
            return 1.0


def _page_size(document: pdfium.PdfDocument, index: int) -> tuple[float, float]:
    try:
        return document.get_page_size(index)
    except pdfium.PdfiumError:  # a page pdfium cannot find: laid out as a default page
        return (0.0, 0.0)


def _blank_bitmap(geometry: PageGeometry, scale: float, note: str) -> RenderedBitmap:
    width, height = display_size(geometry.visible_box, geometry.rotate, geometry.user_unit)
    scale = capped_scale(scale, max(width, 1.0), max(height, 1.0))
    pixels_wide, pixels_high = max(int(width * scale), 1), max(int(height * scale), 1)
    return RenderedBitmap(
        geometry.index, geometry, pixels_wide, pixels_high, 0, None, scale, note, rendered=False
    )


def _empty_visible_box(geometry: PageGeometry, scale: float) -> RenderedBitmap:
    """A page whose CropBox misses its MediaBox has nothing for pdfium to show (§14.11.2);
    lay out its visible box (the engine's: the MediaBox, core.pdf.document.visible_box_of)
    as blank paper instead, so the glyphs can still be drawn over it."""
    box = " ".join(f"{v:g}" for v in geometry.crop_box)
    note = (
        f"Page {geometry.index + 1}: its CropBox [{box}] lies outside its MediaBox, so pdfium "
        "renders nothing. Showing the MediaBox as blank paper; the engine reads that case as "
        "a MediaBox-sized visible box too (see the boxes layer)."
    )
    # pdfium rendered the page correctly as nothing: not a failure to render.
    return replace(_blank_bitmap(geometry, scale, note), rendered=True)


def _bitmap(
    page: pdfium.PdfPage,
    geometry: PageGeometry,
    scale: float,
    crop: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0),
    origin: tuple[float, float] = (0.0, 0.0),
) -> RenderedBitmap:
    """pdfium's render of `page` at `scale` pixels per display point, `crop` (points, left,
    bottom, right, top) cut off its edges; `origin`, where its pixel (0, 0) lies."""
    # pdfium lays pages out in points and ignores /UserUnit, so scale it in here.
    bitmap = page.render(
        scale=scale * geometry.user_unit,
        crop=crop,
        prefer_bgrx=True,
        may_draw_forms=True,
        draw_annots=True,
    )
    try:
        # A numpy copy travels to the window out of band (inspector.worker_child._send).
        pixels = np.ctypeslib.as_array(bitmap.buffer).copy()
        return RenderedBitmap(
            geometry.index,
            geometry,
            bitmap.width,
            bitmap.height,
            bitmap.stride,
            pixels,
            scale,
            origin=origin,
        )
    finally:
        bitmap.close()


def capped_scale(scale: float, width: float, height: float, most: int = MAX_RENDER_PIXELS) -> float:
    """`scale`, made smaller where `width` × `height` points would take more than `most`
    pixels at it."""
    pixels = width * height * scale * scale
    if pixels > most and pixels > 0:
        return scale * (most / pixels) ** 0.5
    return scale


def _typed_error(exc: pdfium.PdfiumError, path: str, password: str | None) -> Exception:
    code = getattr(exc, "err_code", None)
    if code == pdfium_c.FPDF_ERR_PASSWORD:
        if password:
            return WrongPasswordError(f"{Path(path).name}: the password is wrong")
        return PasswordRequiredError(f"{Path(path).name} is encrypted; a password is needed")
    if code == pdfium_c.FPDF_ERR_FILE:
        return OSError(f"{path}: cannot read the file")
    if code == pdfium_c.FPDF_ERR_FORMAT:
        return NotAPdfError(f"{Path(path).name} is not a PDF or is damaged beyond repair")
    return DamagedPdfError(f"{Path(path).name}: {exc}")
