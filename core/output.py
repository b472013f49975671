"""Whole documents to a stream (spec §10, `ExtractLoadedPagesTextToStream`).

Pages are joined by the separator (form feed by default), so page n of the output is the
text between the (n-1)th and nth separators: an unreadable page is written as empty text and
still counted, keeping that alignment. Text is UTF-8, with a BOM first when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, BinaryIO

from core.columns import columns_text
from core.errors import GlyphscopeError
from core.layout import layout_text
from core.reading import reading_order
from core.rules import Rules
from core.visible import visible_glyphs

MODES = ("text", "layout", "columns", "structure")
UTF8_BOM = b"\xef\xbb\xbf"


class PageRangeError(GlyphscopeError, ValueError):
    """A page range that is not "N", "N-M", "N-" or a comma list of them, or that names a page
    outside the document."""


class TextModeError(GlyphscopeError, ValueError):
    """A text mode other than text, layout, columns or structure."""


def parse_page_range(text: str, page_count: int) -> list[int]:
    """1-based "1-3,7" → 0-based [0, 1, 2, 6]; "" means every page; "5-" runs to the end.
    Pages keep the order written, each once."""
    if not text.strip():
        return list(range(page_count))
    pages: list[int] = []
    seen: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            start = int(first)
            end = (int(last) if last.strip() else page_count) if dash else start
        except ValueError:
            raise PageRangeError(f"page range {part.strip()!r} is not N, N-M or N-") from None
        if not 1 <= start <= end <= page_count:
            raise PageRangeError(f"page range {part.strip()!r} is outside 1-{page_count}")
        for index in range(start - 1, end):
            if index not in seen:
                seen.add(index)
                pages.append(index)
    return pages


def page_text(page: Any, mode: str, rules: Rules) -> str:
    """One core.document.Page as text in `mode`; "" when the page has no readable content.
    "structure" falls back to reading order when the page has no trusted structure (§9)."""
    if mode not in MODES:
        raise TextModeError(f"text mode {mode!r} is not one of {', '.join(MODES)}")
    extraction = page.extract(rules)
    if not extraction.readable:
        return ""
    glyphs = extraction.glyphs
    visible = visible_glyphs(glyphs, page.visible_box, rules).visible
    if mode == "layout":
        return layout_text(glyphs, visible, rules).text
    if mode == "columns":
        return columns_text(glyphs, visible, rules).text.text
    if mode == "structure":
        from core.structure import structure_order, trusted_text

        result = structure_order(page, glyphs, visible, rules)
        return trusted_text(result, lambda: reading_order(glyphs, visible, rules).text.text)[0]
    return reading_order(glyphs, visible, rules).text.text


def write_document_text(
    document: Any,
    stream: BinaryIO,
    pages: Sequence[int] | None = None,
    mode: str = "text",
    separator: str = "\f",
    bom: bool = False,
    rules: Rules | None = None,
) -> int:
    """Write the text of `pages` (0-based; None or empty = every page) of a
    core.document.Document to a binary stream; return the number of pages written."""
    if mode not in MODES:
        raise TextModeError(f"text mode {mode!r} is not one of {', '.join(MODES)}")
    rules = rules or Rules()
    indices = list(pages) if pages else list(range(document.page_count))
    if bom:
        stream.write(UTF8_BOM)
    encoded_separator = separator.encode("utf-8")
    for written, index in enumerate(indices):
        if written:
            stream.write(encoded_separator)
        stream.write(page_text(document.page(index), mode, rules).encode("utf-8"))
    return len(indices)
