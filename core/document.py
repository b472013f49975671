"""The library's document and page: a PDF file joined to the engine that reads it.

    import glyphscope

    with glyphscope.open("file.pdf") as document:
        page = document.pages[0]
        print(page.text())                     # reading order (spec §6)
        print(page.text("layout"))             # also "columns", "structure"
        for glyph in page.visible_glyphs():    # records, in drawing order
            print(glyph.text, glyph.origin, glyph.decode_source)
        log = page.analysis().to_json()        # every decision with its numbers

Pages are wrapped as they are reached and interpret nothing until asked; a page's
interpretation is cached (`core.interpret.interpreter.extract_page`), so asking one page for
several texts interprets it once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from glyphscope.core.interpret.content import OperatorRecord, list_operators
from glyphscope.core.interpret.interpreter import PageExtraction, extract_page, page_glyphs
from glyphscope.core.pdf.document import PdfDocument, PdfPage
from glyphscope.core.records import Glyph, TextMode
from glyphscope.core.rules import Rules
from glyphscope.core.text.visible import visible_rows

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis

TEXT_MODES = tuple(TextMode)


class Document(PdfDocument):
    """An open PDF whose pages answer glyphs, texts and decision logs.

    Open it with `glyphscope.open` (or `Document.open`); close it, or use `with`.
    """

    @property
    def pages(self) -> Pages:
        """The pages, a lazy 0-based sequence."""
        return Pages(self)

    def page(self, index: int) -> Page:
        """The page at a 0-based index (PageIndexError outside the document)."""
        page = super().page(index)
        assert isinstance(page, Page)
        return page

    def _wrap_page(self, index: int) -> Page:
        return Page(self, index)


class Pages(Sequence["Page"]):
    """A document's pages, wrapped only as they are reached."""

    def __init__(self, document: Document) -> None:
        self._document = document

    def __len__(self) -> int:
        return self._document.page_count

    @overload
    def __getitem__(self, index: int) -> Page: ...
    @overload
    def __getitem__(self, index: slice) -> list[Page]: ...
    def __getitem__(self, index: int | slice) -> Page | list[Page]:
        if isinstance(index, slice):
            return [self._document.page(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        return self._document.page(index)

    def __iter__(self) -> Iterator[Page]:
        return (self._document.page(i) for i in range(len(self)))


class Page(PdfPage):
    """One page: its boxes (`boxes`, `visible_box`, …) and, on demand, what its content paints."""

    document: Document

    def extract(self, rules: Rules | None = None) -> PageExtraction:
        """All painted glyphs (page and forms) with the interpreter's findings; cached."""
        return extract_page(self, rules or Rules())

    def glyphs(self, rules: Rules | None = None) -> list[Glyph] | None:
        """Glyphs the page content stream paints, form glyphs excluded (spec §3 "all glyphs").

        None ("no result") when the page has no readable content stream.
        """
        return page_glyphs(self, rules or Rules())

    def visible_glyphs(self, rules: Rules | None = None) -> list[Glyph]:
        """The glyphs every text mode reads (spec §4, §5: inside the visible box, duplicates
        dropped), page and form glyphs in drawing order; empty when nothing is readable."""
        rules = rules or Rules()
        extraction = extract_page(self, rules)
        if not extraction.readable:
            return []
        visible = visible_rows(extraction.glyphs, self.visible_box, rules)
        return [extraction.glyphs[i] for i in visible]

    def text(self, mode: str = "reading", rules: Rules | None = None) -> str:
        """The page's text in `mode`: "reading" (spec §6), "layout" (§7), "columns" (§8) or
        "structure" (§9, reading order when the page has no trusted structure tree)."""
        # Imported on use, as analysis below: a program that only reads glyphs loads neither.
        from glyphscope.core.output import page_text

        return page_text(
            self, TextMode.READING if mode == "reading" else mode, rules or Rules()
        ).text

    def analysis(self, rules: Rules | None = None) -> PageAnalysis:
        """Every stage of the page with its decisions (`.to_json()` is the decision log)."""
        from glyphscope.core.analysis import analyse_page

        return analyse_page(self, rules or Rules())

    def operators(self, rules: Rules | None = None) -> tuple[OperatorRecord, ...]:
        """The page stream's operators, then each form's, formatted for display."""
        return list_operators(self, rules or Rules())


def open(path_or_bytes: str | os.PathLike | bytes, password: str | None = None) -> Document:  # noqa: A001
    """Open a PDF from a path or bytes, with a user or owner password (§7.6.3.3/4).

    Raises the typed errors of `glyphscope.errors`, never a pikepdf exception.
    """
    return Document.open(path_or_bytes, password)
