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


class SearchQuery(NamedTuple):
    """What to look for and how: `regex` takes `text` as a Python regular expression,
    `whole_word` only matches where a word begins and ends."""

    text: str
    case_sensitive: bool = False
    whole_word: bool = False
    regex: bool = False

    def pattern(self) -> re.Pattern | None:
        """The compiled query (None: nothing to look for); a bad regex raises re.error.
        Outside regex mode white space in the query matches any run of white space, so a
        phrase broken over two lines is still found."""
        if not self.text.strip():
            return None
        if self.regex:
            source = self.text
        else:
            source = r"\s+".join(re.escape(part) for part in self.text.split())
        if self.whole_word:
            source = rf"(?<!\w)(?:{source})(?!\w)"
        return re.compile(source, 0 if self.case_sensitive else re.IGNORECASE)


def search_text(
    page_index: int,
    text: TextResult,
    query: str | SearchQuery,
    case_sensitive: bool = False,
) -> list[SearchHit]:
    """Every non-overlapping occurrence of `query` in one page's text (a plain string is a
    SearchQuery with `case_sensitive`)."""
    if isinstance(query, str):
        query = SearchQuery(query, case_sensitive)
    pattern = query.pattern()
    if pattern is None:
        return []
    return _hits(page_index, text, pattern)


def _hits(page_index: int, text: TextResult, pattern: re.Pattern) -> list[SearchHit]:
    hits = []
    for match in pattern.finditer(text.text):
        start, end = match.span()
        if start == end:
            continue  # a regex that matches the empty string finds nothing to show
        before = text.text[max(0, start - CONTEXT_BEFORE) : start]
        after = text.text[end : end + CONTEXT_AFTER]
        context = " ".join(f"{before}[{match.group()}]{after}".split())
        glyphs = tuple(dict.fromkeys(i for i in text.char_glyphs[start:end] if i >= 0))
        hits.append(SearchHit(page_index, start, end, context, glyphs))
    return hits


def search_pages(
    texts: Iterable[tuple[int, TextResult]],
    query: str | SearchQuery,
    case_sensitive: bool = False,
) -> list[SearchHit]:
    """Hits of every page, in page order."""
    hits: list[SearchHit] = []
    for page_index, text in texts:
        hits.extend(search_text(page_index, text, query, case_sensitive))
    return hits
