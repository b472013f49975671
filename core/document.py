"""Opening documents and reading page geometry (§7.7.3, §14.11.2).

Pages are wrapped on demand: opening a 1000-page file walks the page tree once (qpdf) and
parses no content stream until a page's glyphs are asked for.
"""

from __future__ import annotations

import io
import os
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pikepdf

from core.errors import (
    DamagedPdfError,
    NotAPdfError,
    PageIndexError,
    PasswordRequiredError,
    UnreadableFileError,
    WrongPasswordError,
)
from core.geometry import intersect_rect, normalize_rect
from core.records import Glyph
from core.rules import Rules

Rect = tuple[float, float, float, float]

EXTRACTIONS_KEPT = 8

# §14.11.2: when MediaBox is missing or unusable, readers fall back to US Letter.
_LETTER: Rect = (0.0, 0.0, 612.0, 792.0)


class Document:
    """An open PDF. Use `Document.open`; close it (or use `with`) to release the file."""

    def __init__(self, pdf: pikepdf.Pdf, source: str) -> None:
        self.pdf = pdf
        self.source = source
        self._pages: dict[int, Page] = {}
        self.font_cache: dict = {}  # font dictionary objgen → core.fonts.Font, per document
        # The last few page extractions, so re-analysing a page with new thresholds does not
        # re-interpret it; bounded, so visiting every page of a long file does not keep them all.
        self.extraction_cache: OrderedDict[tuple, object] = OrderedDict()

    @classmethod
    def open(
        cls, path_or_bytes: str | os.PathLike | bytes, password: str | None = None
    ) -> Document:
        """Open a PDF from a path or bytes, with a user or owner password (§7.6.3.3/4).

        Raises the typed errors of core.errors, never a pikepdf exception.
        """
        if isinstance(path_or_bytes, (bytes, bytearray, memoryview)):
            source, data = "<bytes>", bytes(path_or_bytes)
        else:
            source = str(path_or_bytes)
            try:
                data = Path(source).read_bytes()
            except OSError as exc:
                raise UnreadableFileError(f"cannot read {source}: {exc.strerror or exc}") from None
        if not data.strip():
            raise NotAPdfError(f"{source} is empty")
        if b"%PDF" not in data[:1024] and b"%FDF" not in data[:1024]:
            raise NotAPdfError(f"{source} is not a PDF file (no %PDF header)")
        try:
            with warnings.catch_warnings():
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
            len(pdf.pages)
        except (pikepdf.PdfError, RuntimeError, ValueError) as exc:
            raise DamagedPdfError(f"{source} has no readable page tree: {exc}") from None
        return cls(pdf, source)

    @property
    def page_count(self) -> int:
        return len(self.pdf.pages)

    @property
    def is_encrypted(self) -> bool:
        return bool(self.pdf.is_encrypted)

    @property
    def is_tagged(self) -> bool:
        """§14.8.1: tagged when the catalog has /MarkInfo /Marked true and a structure tree."""
        root = self.pdf.Root
        mark_info = root.get("/MarkInfo")
        marked = isinstance(mark_info, pikepdf.Dictionary) and bool(mark_info.get("/Marked", False))
        return marked and "/StructTreeRoot" in root

    def page(self, index: int) -> Page:
        """The page at a 0-based index."""
        if not 0 <= index < self.page_count:
            raise PageIndexError(f"page {index + 1} is outside 1–{self.page_count}")
        page = self._pages.get(index)
        if page is None:
            page = self._pages[index] = Page(self, index)
        return page

    def pages(self) -> Iterator[Page]:
        """Every page, wrapped as it is reached."""
        return (self.page(i) for i in range(self.page_count))

    def close(self) -> None:
        self._pages.clear()
        self.font_cache.clear()
        self.extraction_cache.clear()
        self.pdf.close()

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True, slots=True)
class OperatorRecord:
    """One operator of a content stream, for the inspector's content-stream pane."""

    form_path: str
    index: int
    operator: str
    operands: str


class Page:
    """One page: its boxes and, on demand, its glyphs."""

    def __init__(self, document: Document, index: int) -> None:
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
        """CropBox clipped to MediaBox (§14.11.2.1): the region a viewer shows.

        A CropBox that misses the MediaBox entirely is unusable, and viewers then show the
        MediaBox; so do we, rather than dropping every glyph of the page.
        """
        x0, y0, x1, y1 = intersect_rect(self.crop_box, self.media_box)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else self.media_box

    @cached_property
    def rotate(self) -> int:
        """/Rotate normalised to 0, 90, 180 or 270 (§7.7.3.3: a multiple of 90, inheritable)."""
        value = inherited_attribute(self.pdf_page, "/Rotate")
        try:
            return (int(value) // 90 * 90) % 360 if value is not None else 0
        except (TypeError, ValueError):
            return 0

    @cached_property
    def user_unit(self) -> float:
        """§14.11.2.2 UserUnit: the size of a user-space unit in 1/72 inch (default 1)."""
        try:
            value = float(self.pdf_page.obj.get("/UserUnit", 1.0))
        except (TypeError, ValueError):
            return 1.0
        return value if value > 0 else 1.0

    def extract(self, rules: Rules | None = None):
        """All painted glyphs (page and forms) with the interpreter's findings; cached."""
        from core.interpreter import extract_page

        rules = rules or Rules()
        key = (
            self.index,
            rules.form_depth,
            rules.max_stream_bytes,
            rules.max_page_operators,
            rules.max_page_glyphs,
        )
        cache = self.document.extraction_cache
        extraction = cache.get(key)
        if extraction is None:
            extraction = cache[key] = extract_page(self, rules)
            if len(cache) > EXTRACTIONS_KEPT:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return extraction

    def glyphs(self, rules: Rules | None = None) -> list[Glyph] | None:
        """Glyphs the page content stream paints, form glyphs excluded (spec §3 "all glyphs").

        None ("no result") when the page has no readable content stream.
        """
        extraction = self.extract(rules)
        if not extraction.readable:
            return None
        return [g for g in extraction.glyphs if g.form_depth == 0]

    def operators(self, rules: Rules | None = None) -> tuple[OperatorRecord, ...]:
        """The page stream's operators, then each form's, formatted for display."""
        from core.content import list_operators

        return list_operators(self, rules or Rules())


def inherited_attribute(page: pikepdf.Page, key: str) -> object | None:
    """An inheritable page attribute (§7.7.3.4), looked up the /Parent chain, cycle-safe."""
    node, seen = page.obj, set()
    while isinstance(node, pikepdf.Dictionary) and node.objgen not in seen:
        if node.objgen != (0, 0):
            seen.add(node.objgen)
        if key in node:
            return node.get(key)
        node = node.get("/Parent")
    return None


def _box(page: pikepdf.Page, key: str) -> Rect | None:
    value = inherited_attribute(page, key)
    try:
        numbers = [float(v) for v in value]  # type: ignore[union-attr]
    except (TypeError, ValueError):
        return None
    if len(numbers) != 4:
        return None
    rect = normalize_rect((numbers[0], numbers[1], numbers[2], numbers[3]))
    return rect if rect[2] > rect[0] and rect[3] > rect[1] else None
