"""Page rendering with pypdfium2, entirely on one owner thread (pdfium is not thread-safe)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
from glyphscope.core.pdf.document import PdfDocument
from glyphscope.widgets.page_geometry import PageGeometry, display_size

# Above this many pixels a render is made at a lower scale and the view magnifies it: a
# 800 % zoom of an A0 poster would otherwise ask pdfium for gigabytes.
MAX_RENDER_PIXELS = 24_000_000


@dataclass(frozen=True, slots=True)
class RenderedPage:
    index: int
    geometry: PageGeometry
    image: QImage
    scale: float  # image pixels per display point
    note: str = ""  # something the user should know about how the page is shown


class PdfiumOwner:
    """The pdfium document; every method runs on the render thread only."""

    def __init__(self) -> None:
        self._document: pdfium.PdfDocument | None = None
        self._path: str | None = None
        self._password: str | None = None
        # Core's view of the same file, for what pdfium does not read (/UserUnit), opened on
        # first need on this thread: a pikepdf Pdf must not be shared with the analysis thread.
        self._boxes: PdfDocument | None = None
        self._boxes_failed = False

    @property
    def document(self) -> pdfium.PdfDocument | None:
        """The open pdfium document, for other jobs running on the render thread."""
        return self._document

    def open(self, path: str, password: str | None) -> int:
        self.close()
        try:
            document = pdfium.PdfDocument(path, password=password or None)
        except pdfium.PdfiumError as exc:
            raise _typed_error(exc, path, password) from None
        self._document, self._path, self._password = document, path, password
        return len(document)

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        self._document = None
        if self._boxes is not None:
            self._boxes.close()
        self._boxes, self._boxes_failed = None, False

    def render(self, index: int, scale: float) -> RenderedPage:
        if self._document is None:
            raise DamagedPdfError("no document is open")
        page = self._document[index]
        try:
            media_box = tuple(page.get_mediabox())
            geometry = PageGeometry(
                index=index,
                media_box=media_box,
                crop_box=tuple(page.get_cropbox()),
                # pdfium shows CropBox ∩ MediaBox, the visible box of §14.11.2.
                visible_box=tuple(page.get_bbox()),
                rotate=page.get_rotation(),
                user_unit=self._user_unit(index),
            )
            width, height = display_size(geometry.visible_box, geometry.rotate, geometry.user_unit)
            if width <= 0 or height <= 0:
                return _empty_visible_box(geometry, scale)
            scale = _capped_scale(scale, width, height)
            # pdfium lays pages out in points and ignores /UserUnit, so scale it in here.
            bitmap = page.render(
                scale=scale * geometry.user_unit,
                prefer_bgrx=True,
                may_draw_forms=True,
                draw_annots=True,
            )
            image = _to_qimage(bitmap)
        finally:
            page.close()
        return RenderedPage(index=index, geometry=geometry, image=image, scale=scale)

    def _user_unit(self, index: int) -> float:
        """The page's /UserUnit (§14.11.2.2) as core reads it; pdfium has no accessor for it."""
        if self._boxes is None and not self._boxes_failed and self._path is not None:
            try:
                self._boxes = PdfDocument.open(self._path, self._password)
            except GlyphscopeError:
                self._boxes_failed = True  # pdfium shows the page; it is drawn at 1/72 inch
        if self._boxes is None:
            return 1.0
        try:
            return self._boxes.page(index).boxes.user_unit
        except GlyphscopeError:
            return 1.0


def _empty_visible_box(geometry: PageGeometry, scale: float) -> RenderedPage:
    """A page whose CropBox misses its MediaBox has nothing for pdfium to show (§14.11.2);
    lay out the MediaBox as blank paper instead, so the glyphs can still be drawn over it."""
    shown = PageGeometry(
        index=geometry.index,
        media_box=geometry.media_box,
        crop_box=geometry.crop_box,
        visible_box=geometry.media_box,
        rotate=geometry.rotate,
        user_unit=geometry.user_unit,
    )
    width, height = display_size(shown.visible_box, shown.rotate, shown.user_unit)
    scale = _capped_scale(scale, max(width, 1.0), max(height, 1.0))
    image = QImage(
        max(int(width * scale), 1), max(int(height * scale), 1), QImage.Format.Format_RGB32
    )
    image.fill(0xFFE8E8E8)
    box = " ".join(f"{v:g}" for v in geometry.crop_box)
    note = (
        f"Page {geometry.index + 1}: its CropBox [{box}] lies outside its MediaBox, so pdfium "
        "renders nothing. Showing the MediaBox as blank paper; the engine reads that case as "
        "a MediaBox-sized visible box too (see the boxes layer)."
    )
    return RenderedPage(index=geometry.index, geometry=shown, image=image, scale=scale, note=note)


def _capped_scale(scale: float, width: float, height: float) -> float:
    pixels = width * height * scale * scale
    if pixels > MAX_RENDER_PIXELS and pixels > 0:
        return scale * (MAX_RENDER_PIXELS / pixels) ** 0.5
    return scale


def _to_qimage(bitmap: pdfium.PdfBitmap) -> QImage:
    # BGRx bytes in memory are exactly QImage.Format_RGB32 on little-endian machines; copy() so
    # the image owns its pixels after the pdfium bitmap is freed.
    image = QImage(
        bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, QImage.Format.Format_RGB32
    )
    return image.copy()


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
