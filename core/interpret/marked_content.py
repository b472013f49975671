"""Replacement text of marked content (§14.9.4 /ActualText, §14.9.5 /E) as glyph ranges.

The interpreter appends glyphs in drawing order, so the glyphs shown between a `BDC` and its
`EMC` are one contiguous range of indices, whether the sequence spans several text objects or
draws a form. The tracker keeps one entry per open marked-content sequence (a `BMC` or a `BDC`
without replacement text pushes an empty one, so `EMC` always pops the matching sequence) and
records a span when a sequence carrying /ActualText or /E closes. Nested spans are all kept;
text assembly reads only the outermost one (§14.9.4: the outer replacement text stands for
everything inside it).
"""

from __future__ import annotations

from typing import NamedTuple

import pikepdf


class ReplacementSpan(NamedTuple):
    """Glyphs [start, end) in drawing order carry `actual_text` (None when absent) and
    `expansion` (/E, None when absent). `depth` is the nesting depth, 0 outermost."""

    start: int
    end: int
    actual_text: str | None
    expansion: str | None
    depth: int


def replacement_entries(properties: object) -> tuple[str | None, str | None]:
    """(/ActualText, /E) of a property list, each None when absent or not a text string.
    The property list is qpdf's dictionary or the scanner's plain one (strings as bytes)."""
    if isinstance(properties, dict):
        return _plain_text_entry(properties, "/ActualText"), _plain_text_entry(properties, "/E")
    if not isinstance(properties, pikepdf.Dictionary):
        return None, None
    return _text_entry(properties, "/ActualText"), _text_entry(properties, "/E")


def _plain_text_entry(dictionary: dict, key: str) -> str | None:
    value = dictionary.get(key)
    # The same bytes as qpdf's string object, decoded by pikepdf as there (§7.9.2.2).
    return str(pikepdf.String(value)) if isinstance(value, bytes) else None


def _text_entry(dictionary: pikepdf.Dictionary, key: str) -> str | None:
    if key not in dictionary:
        return None  # asked first: pikepdf's get of a missing key costs several times more
    value = dictionary.get(key)
    if isinstance(value, pikepdf.String):
        # §7.9.2.2: a text string is PDFDocEncoding or UTF-16BE with a BOM; pikepdf decodes both.
        return str(value)
    return None


class MarkedContentTracker:
    """Open marked-content sequences and the replacement spans closed so far."""

    __slots__ = ("_open", "_replacing", "spans")

    def __init__(self) -> None:
        self._open: list[tuple[int, str | None, str | None]] = []
        # How many open sequences carry replacement text: a closing span's depth, kept
        # counted rather than recounted on every EMC (nested spans 100,000 deep).
        self._replacing = 0
        self.spans: list[ReplacementSpan] = []

    @property
    def depth(self) -> int:
        return len(self._open)

    def begin(self, properties: object, glyph_count: int) -> None:
        actual_text, expansion = replacement_entries(properties)
        self._open.append((glyph_count, actual_text, expansion))
        if actual_text is not None or expansion is not None:
            self._replacing += 1

    def end(self, glyph_count: int) -> None:
        if not self._open:
            return
        start, actual_text, expansion = self._open.pop()
        if actual_text is not None or expansion is not None:
            self._replacing -= 1
            span = ReplacementSpan(start, glyph_count, actual_text, expansion, self._replacing)
            self.spans.append(span)

    def close_to(self, depth: int, glyph_count: int) -> None:
        """Close sequences left open by a stream (a form's unbalanced BDC ends with the form)."""
        while len(self._open) > depth:
            self.end(glyph_count)
