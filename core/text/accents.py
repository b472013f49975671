"""Accents drawn as glyphs of their own, merged into the letter they sit on.

TeX (and some other producers) paint "ï" as a spacing diaeresis "¨" placed over a dotless
"ı". Read glyph by glyph that is "na¨ıve". A spacing diacritic (or a lone combining mark)
whose box overlaps a neighbouring glyph's box along the baseline by at least
`rules.accent_overlap_ratio` of the narrower box's width, becomes a combining mark of that base;
the base's text is then composed (NFC), with a dotless i or j under an accent above read as
i or j ("naïve"). The base glyph writes the composed text; the accent writes nothing, and the
decision links the two.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from glyphscope.core.geometry import quad_height, writing_direction
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, few_records
from glyphscope.core.text.chars import is_whitespace_text

# Spacing diacritics (Latin-1, Spacing Modifier Letters) and the combining mark each stands for.
SPACING_ACCENTS = {
    "\u00a8": "\u0308",  # ¨ diaeresis
    "\u00b4": "\u0301",  # ´ acute
    "\u0060": "\u0300",  # ` grave
    "\u02c6": "\u0302",  # ˆ circumflex
    "\u02dc": "\u0303",  # ˜ tilde
    "\u00b8": "\u0327",  # ¸ cedilla
    "\u02da": "\u030a",  # ˚ ring above
    "\u02c7": "\u030c",  # ˇ caron
    "\u02d8": "\u0306",  # ˘ breve
    "\u00af": "\u0304",  # ¯ macron
    "\u02c9": "\u0304",  # ˉ modifier macron
    "\u02ca": "\u0301",  # ˊ modifier acute
    "\u02cb": "\u0300",  # ˋ modifier grave
    "\u02d9": "\u0307",  # ˙ dot above
    "\u02dd": "\u030b",  # ˝ double acute
    "\u02db": "\u0328",  # ˛ ogonek
}
# Marks below the letter: a dotless i keeps its missing dot under them.
_BELOW = frozenset("\u0327\u0328")
_DOTLESS = {"\u0131": "i", "\u0237": "j"}


class AccentMerge(NamedTuple):
    """`accent` (glyph index) merged into `base`; `overlap` is the boxes' overlap along the
    base's baseline as a fraction of the narrower width, `text` the base's composed text."""

    accent: int
    base: int
    overlap: float
    text: str


def combining_mark(text: str) -> str | None:
    """The combining mark a glyph's text stands for, or None when it is no lone accent."""
    if len(text) != 1:
        return None
    if text in SPACING_ACCENTS:
        return SPACING_ACCENTS[text]
    return text if "\u0300" <= text <= "\u036f" else None


def compose(base_text: str, mark: str) -> str:
    if mark not in _BELOW and base_text and base_text[-1] in _DOTLESS:
        base_text = base_text[:-1] + _DOTLESS[base_text[-1]]
    return unicodedata.normalize("NFC", base_text + mark)


def merge_accents(
    glyphs: Sequence[Glyph], order: Sequence[int], texts: dict[int, str], rules: Rules
) -> tuple[list[int], list[AccentMerge]]:
    """The order without merged accents, and the merges. `texts` holds each glyph's text
    where it differs from the record (ActualText) and receives the composed texts."""
    if rules.accent_overlap_ratio > 1.0:
        return list(order), []
    # Only a glyph whose text is a lone accent can merge: find those by text (few on a page)
    # before any record is read.
    order_texts = GlyphRows(glyphs, order).texts()
    marks = {text: combining_mark(text) for text in set(order_texts)}
    if not any(marks.values()):
        return list(order), []
    records = few_records(glyphs)  # the records of the accents and their neighbours
    merged: set[int] = set()
    merges: list[AccentMerge] = []
    # Only the accents' positions are visited: every other glyph would be passed over.
    accents = [(p, mark) for p, text in enumerate(order_texts) if (mark := marks[text]) is not None]
    for position, mark in accents:
        index = order[position]
        if index in texts:
            continue
        glyph = records[index]
        if glyph.writing_mode == 1:
            continue
        best, best_overlap = -1, 0.0
        for neighbour in (position - 1, position + 1):
            if not 0 <= neighbour < len(order):
                continue
            base = order[neighbour]
            if base in merged or not _can_carry(records[base], texts.get(base)):
                continue
            overlap = _overlap(records[base], glyph)
            if overlap > best_overlap:
                best, best_overlap = base, overlap
        if best < 0 or best_overlap < rules.accent_overlap_ratio:
            continue
        text = compose(texts.get(best, records[best].text), mark)
        texts[best] = text
        merged.add(index)
        merges.append(AccentMerge(index, best, best_overlap, text))
    return [index for index in order if index not in merged], merges


def _can_carry(glyph: Glyph, replaced: str | None) -> bool:
    text = glyph.text if replaced is None else replaced
    return (
        glyph.writing_mode == 0
        and text != ""
        and not is_whitespace_text(text)
        and combining_mark(glyph.text) is None
    )


def _overlap(base: Glyph, accent: Glyph) -> float:
    """Overlap of the two boxes along the base's baseline as a fraction of the narrower one (a
    centred accent is usually wider than a dotless i); 0 when the boxes are more than a base
    height apart across the baseline."""
    ux, uy = writing_direction(base)
    height = quad_height(base.quad)

    def extent(glyph: Glyph, ax: float, ay: float) -> tuple[float, float]:
        values = [x * ax + y * ay for x, y in glyph.quad]
        return min(values), max(values)

    base_low, base_high = extent(base, -uy, ux)
    accent_low, accent_high = extent(accent, -uy, ux)
    if accent_low > base_high + height or accent_high < base_low - height:
        return 0.0
    b0, b1 = extent(base, ux, uy)
    a0, a1 = extent(accent, ux, uy)
    width = min(a1 - a0, b1 - b0)
    if width <= 0.0:
        return 1.0 if b0 <= a0 <= b1 else 0.0
    return max(0.0, min(a1, b1) - max(a0, b0)) / width
