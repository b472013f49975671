"""Opening PDF files and reading page geometry (§7.7.3, §14.11.2), below any interpretation.

`PdfDocument` opens a file with typed errors and wraps its pages on demand: opening a
1000-page file walks the page tree once (qpdf) and parses no content stream. `PdfPage` answers
the page's boxes. What a page's content paints is `core.interpret`'s work; the library objects
that join the two are `core.document.Document` and `Page`.
"""

from __future__ import annotations

import io
import math
import os
import re
import warnings
from collections import OrderedDict
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import pikepdf

from glyphscope.core.errors import (
    DamagedPdfError,
    NotAPdfError,
    PageIndexError,
    PasswordRequiredError,
    UnreadableFileError,
    WrongPasswordError,
)
from glyphscope.core.geometry import Rect, intersect_rect, normalize_rect
from glyphscope.core.pdf.objects import inherited_attribute, pdf_number, pdf_numbers
from glyphscope.core.pdf.qpdf_log import collect_qpdf_messages

if TYPE_CHECKING:  # the caches' types, of the layers above (no import at run time)
    from glyphscope.core.fonts.dicts import Font, FontLimits
    from glyphscope.core.interpret._loop import FontPieces
    from glyphscope.core.interpret.interpreter import PageExtraction

_Document = TypeVar("_Document", bound="PdfDocument")

# §14.11.2: when MediaBox is missing or unusable, readers fall back to US Letter.
_LETTER: Rect = (0.0, 0.0, 612.0, 792.0)


class PageBoxes(NamedTuple):
    """A page's boxes (§14.11.2) and how it is shown: /Rotate (§7.7.3.3), /UserUnit (§14.11.2.2)."""

    media_box: Rect
    crop_box: Rect
    visible_box: Rect
    rotate: int
    user_unit: float


# §7.5.2: the header starts the file; readers (pdfium, Acrobat) accept it anywhere within the
# first 1,024 bytes, after junk that a mailer or a web server put before it.
HEADER_WINDOW = 1024


def refuse_start(source: str, start: bytes, whole: bool) -> None:
    """Raise PdfDocument.open's NotAPdfError for a file that its first bytes `start` (the
    whole file when `whole`) show is none: empty, or no %PDF (or %FDF) header in its first
    HEADER_WINDOW bytes. A longer file whose start is blank is left to the whole file."""
    if whole and not start.strip():
        raise NotAPdfError(f"{source}: empty file")
    head = start[:HEADER_WINDOW]
    if b"%PDF" not in head and b"%FDF" not in head and (whole or head.strip()):
        raise NotAPdfError(f"{source} is not a PDF file (no %PDF header)")


def check_file_start(path: str | os.PathLike) -> None:
    """Raise the typed error PdfDocument.open would for a file that cannot be read or is no
    PDF by its first bytes, reading only those: a window refuses such a file at once."""
    source = str(path)
    try:
        with open(source, "rb") as file:
            start = file.read(HEADER_WINDOW + 1)
    except OSError as exc:
        raise _unreadable(source, exc) from None
    refuse_start(source, start, whole=len(start) <= HEADER_WINDOW)


def _unreadable(source: str, exc: OSError) -> UnreadableFileError:
    return UnreadableFileError(f"cannot read {source}: {exc.strerror or exc}")


# qpdf's message for an object it replaced by null because a number in it overflowed (an
# integer past 64 bits, §7.3.3 leaves integer range to the implementation, Annex C.2 says
# 2^31 - 1): the object's own offset, from where its text is read.
_NULLED_OBJECT = re.compile(
    r"offset (\d+)\): treating object as null because of error during parsing: overflow"
)
# qpdf's message for a kid of the page tree it could not read, and ours.
_LOST_PAGE = "Pages tree includes non-dictionary object"
_LOST_PAGES_NOTE = "page tree"
_LONG_INTEGER = re.compile(rb"(?<![\w.+-])([+-]?)(\d{19,})(?![\w.])")
_INTEGER_LIMIT = 2**63 - 1


def _clamp_overflowing_integers(data: bytes, messages: list[str]) -> bytes | None:
    """`data` with each integer past 64 bits inside the objects qpdf nulled for one (per
    `messages`) replaced by ±(2^63 - 1), padded with spaces to the same length so every
    offset of the file still holds; None when there is nothing to clamp."""
    offsets = [int(match.group(1)) for match in map(_NULLED_OBJECT.search, messages) if match]
    if not offsets:
        return None
    patched = bytearray(data)
    changed = False
    for offset in offsets:
        end = data.find(b"endobj", offset)
        end = len(data) if end < 0 else end
        for match in _LONG_INTEGER.finditer(data, offset, end):
            if int(match.group(2)) <= _INTEGER_LIMIT:
                continue
            text = (match.group(1) + str(_INTEGER_LIMIT).encode()).ljust(len(match.group(0)))
            patched[match.start() : match.end()] = text
            changed = True
    return bytes(patched) if changed else None


class PdfDocument:
    """An open PDF. Use `open`; close it (or use `with`) to release the file."""

    def __init__(self, pdf: pikepdf.Pdf, source: str, warnings: list[str] | None = None) -> None:
        self.pdf = pdf
        self.source = source
        # What qpdf logged while opening the file (repairs, ignored objects).
        self.warnings: list[str] = warnings or []
        # qpdf's warnings about the file read while opening it (Pdf.get_warnings hands each
        # out once): core.pdf.cos.RepairLog starts from them.
        self.opening_warnings: list[str] = []
        self._pages: dict[int, PdfPage] = {}
        # Per-document caches of the layers above (core.interpret), filled and read there only:
        # loaded fonts by font dictionary (its object number, or its bytes when direct) and
        # font limits, their shown strings decoded (one entry per loaded font, the compiled
        # loop's), and the last few page extractions by page and limits, so re-analysing a
        # page with new thresholds does not re-interpret it.
        self.font_cache: dict[tuple[tuple[int, int] | bytes, FontLimits], Font] = {}
        self.piece_cache: dict[Font, FontPieces] = {}
        self.extraction_cache: OrderedDict[tuple[object, ...], PageExtraction] = OrderedDict()

    @classmethod
    def open(
        cls: type[_Document], path_or_bytes: str | os.PathLike | bytes, password: str | None = None
    ) -> _Document:
        """Open a PDF from a path or bytes, with a user or owner password (§7.6.3.3/4).

        Raises the typed errors of glyphscope.core.errors, never a pikepdf exception.
        """
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            source, data = "<bytes>", bytes(path_or_bytes)
        else:
            source = str(path_or_bytes)
            try:
                data = Path(source).read_bytes()
            except OSError as exc:
                raise _unreadable(source, exc) from None
        refuse_start(source, data, whole=True)
        pdf, messages = cls._read(source, data, password)
        # qpdf keeps its parsing warnings on the document as well as logging some of them, and
        # hands each out once: those read here are kept for the Objects browser (RepairLog).
        opening = [str(warning) for warning in pdf.get_warnings()]
        clamped = _clamp_overflowing_integers(data, [*messages, *opening])
        if clamped is not None:
            # A page dictionary qpdf nulled for one integer past 64 bits would vanish from
            # the page tree; the same bytes with that integer clamped keep it (and its
            # content, which is intact).
            try:
                pdf, messages = cls._read(source, clamped, password)
                messages.append(
                    "integers beyond 64 bits clamped to ±(2^63 - 1) in the objects qpdf could "
                    "not read, so that they (and the pages among them) are kept"
                )
                opening = [str(warning) for warning in pdf.get_warnings()]
            except DamagedPdfError:
                pass  # the first reading stands, its warnings saying what was lost
        lost = sum(_LOST_PAGE in message for message in [*messages, *opening])
        if lost:
            messages.append(f"{_LOST_PAGES_NOTE}: {lost} page objects unreadable, left out")
        document = cls(pdf, source, messages)
        document.opening_warnings = opening
        return document

    @property
    def lost_pages(self) -> str:
        """The warning that pages the page tree lists could not be read, or ""."""
        return next((w for w in self.warnings if w.startswith(_LOST_PAGES_NOTE)), "")

    @staticmethod
    def _read(source: str, data: bytes, password: str | None) -> tuple[pikepdf.Pdf, list[str]]:
        """pikepdf's reading of `data` and its page tree, with qpdf's messages, or the typed
        error."""
        try:
            with warnings.catch_warnings(), collect_qpdf_messages() as messages:
                warnings.simplefilter("ignore")
                stream = io.BytesIO(data)
                pdf = pikepdf.open(stream, password=password or "")
        except pikepdf.PasswordError:
            if password:
                raise WrongPasswordError(f"wrong password for {source}") from None
            raise PasswordRequiredError(f"{source} is encrypted and needs a password") from None
        except (pikepdf.PdfError, RuntimeError, ValueError) as exc:
            reason = str(exc).replace(repr(stream), "").strip(" :") or type(exc).__name__
            raise DamagedPdfError(f"{source} is damaged beyond repair: {reason}") from None
        try:
            with collect_qpdf_messages() as tree_messages:
                len(pdf.pages)
        except (pikepdf.PdfError, RuntimeError, ValueError) as exc:
            raise DamagedPdfError(f"{source} has no readable page tree: {exc}") from None
        return pdf, messages + tree_messages

    @property
    def page_count(self) -> int:
        return len(self.pdf.pages)

    def page(self, index: int) -> PdfPage:
        """The page at a 0-based index."""
        if not 0 <= index < self.page_count:
            raise PageIndexError(f"page {index + 1} is outside 1–{self.page_count}")
        page = self._pages.get(index)
        if page is None:
            page = self._pages[index] = self._wrap_page(index)
        return page

    def _wrap_page(self, index: int) -> PdfPage:
        return PdfPage(self, index)

    def close(self) -> None:
        self._pages.clear()
        self.font_cache.clear()
        self.piece_cache.clear()
        self.extraction_cache.clear()
        self.pdf.close()

    def __enter__(self: _Document) -> _Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class PdfPage:
    """One page of a PdfDocument: its boxes."""

    def __init__(self, document: PdfDocument, index: int) -> None:
        self.document = document
        self.index = index
        self.pdf_page: pikepdf.Page = document.pdf.pages[index]

    @property
    def number(self) -> int:
        return self.index + 1

    @cached_property
    def media_box(self) -> Rect:
        return _box(self.pdf_page, "/MediaBox") or _LETTER

    @cached_property
    def crop_box(self) -> Rect:
        """§14.11.2: CropBox defaults to MediaBox (inheritable, §7.7.3.4)."""
        return _box(self.pdf_page, "/CropBox") or self.media_box

    @cached_property
    def visible_box(self) -> Rect:
        return visible_box_of(self.crop_box, self.media_box)

    @cached_property
    def rotate(self) -> int:
        """/Rotate normalised to 0, 90, 180 or 270 (§7.7.3.3: a multiple of 90, inheritable)."""
        rotate = pdf_number(inherited_attribute(self.pdf_page, "/Rotate"), 0)
        return (int(rotate) // 90 * 90) % 360 if math.isfinite(rotate) else 0

    @cached_property
    def user_unit(self) -> float:
        """§14.11.2.2 UserUnit: the size of a user-space unit in 1/72 inch (default 1)."""
        value = pdf_number(self.pdf_page.obj.get("/UserUnit"), 1.0)
        return value if value > 0 else 1.0

    @property
    def boxes(self) -> PageBoxes:
        return PageBoxes(
            self.media_box, self.crop_box, self.visible_box, self.rotate, self.user_unit
        )


def visible_box_of(crop_box: Rect, media_box: Rect) -> Rect:
    """CropBox clipped to MediaBox (§14.11.2.1): the region a viewer shows.

    A CropBox that misses the MediaBox entirely is unusable, and viewers then show the
    MediaBox; so do we, rather than dropping every glyph of the page.
    """
    x0, y0, x1, y1 = intersect_rect(crop_box, media_box)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else media_box


def _box(page: pikepdf.Page, key: str) -> Rect | None:
    numbers = pdf_numbers(inherited_attribute(page, key), 4)
    if numbers is None:
        return None
    rect = normalize_rect((numbers[0], numbers[1], numbers[2], numbers[3]))
    return rect if rect[2] > rect[0] and rect[3] > rect[1] else None
