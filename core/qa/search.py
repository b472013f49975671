"""Search the extracted text of a document's pages; every hit names the glyphs behind it.

Texts are `TextResult`s (reading order, spec §6), so a hit maps straight back to glyph indices
through `char_glyphs` and can be drawn on its page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from glyphscope.core.text.reading import TextResult

# Characters of context shown before and after a hit (short before, so a narrow list shows it).
CONTEXT_BEFORE = 16
CONTEXT_AFTER = 40


class SearchHit(NamedTuple):
    page_index: int  # 0-based
    start: int  # [start, end) in the page's text
    end: int
    context: str  # the hit with some text either side, on one line
    glyphs: tuple[int, ...]


def search_text(
    page_index: int, text: TextResult, query: str, case_sensitive: bool = False
) -> list[SearchHit]:
    """Every non-overlapping occurrence of `query` in one page's text. White space in the
    query matches any run of white space, so a phrase broken over two lines is still found."""
    if not query.strip():
        return []
    parts = [re.escape(part) for part in query.split()]
    pattern = re.compile(r"\s+".join(parts), 0 if case_sensitive else re.IGNORECASE)
    hits = []
    for match in pattern.finditer(text.text):
        start, end = match.span()
        before = text.text[max(0, start - CONTEXT_BEFORE) : start]
        after = text.text[end : end + CONTEXT_AFTER]
        context = " ".join(f"{before}[{match.group()}]{after}".split())
        glyphs = tuple(dict.fromkeys(i for i in text.char_glyphs[start:end] if i >= 0))
        hits.append(SearchHit(page_index, start, end, context, glyphs))
    return hits


def search_pages(
    texts: Iterable[tuple[int, TextResult]], query: str, case_sensitive: bool = False
) -> list[SearchHit]:
    """Hits of every page, in page order."""
    hits: list[SearchHit] = []
    for page_index, text in texts:
        hits.extend(search_text(page_index, text, query, case_sensitive))
    return hits
