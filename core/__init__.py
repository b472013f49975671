"""Glyphscope's extraction engine: every shown glyph as a record, every decision explained.

A plain library with no Qt: open a document, take a page's glyphs, analyse the page.

    from core import Document, Rules, analyse_page

    with Document.open("file.pdf") as document:
        analysis = analyse_page(document.page(0), Rules())
        print(analysis.reading.text)
"""

from core.analysis import PageAnalysis, analyse_page
from core.document import Document, Page
from core.errors import (
    DamagedPdfError,
    GlyphscopeError,
    NotAPdfError,
    PageIndexError,
    PasswordRequiredError,
    RuleError,
    UnreadableFileError,
    WrongPasswordError,
)
from core.output import write_document_text
from core.records import DecodeSource, Glyph
from core.rules import Rules

__all__ = [
    "DamagedPdfError",
    "DecodeSource",
    "Document",
    "Glyph",
    "GlyphscopeError",
    "NotAPdfError",
    "Page",
    "PageAnalysis",
    "PageIndexError",
    "PasswordRequiredError",
    "RuleError",
    "Rules",
    "UnreadableFileError",
    "WrongPasswordError",
    "analyse_page",
    "write_document_text",
]
