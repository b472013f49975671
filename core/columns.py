"""Columns text (spec §8, `ExtractLoadedPageTextColumns`): the page split into columns where
the projection of the glyph boxes onto x leaves a gap wider than columns_gap_multiple × the
median glyph advance; each column is read in turn, in reading order (§6) inside it.

Duplicates are already gone: the caller passes the visible glyphs (seed 003: the duplicate
filter runs before the split). Every visible glyph takes part in the projection, as the spec
says, so a heading or a watermark spanning the gutter joins the columns into one: the rule's
honest edge. A glyph belongs to the column holding its quad centre; columns are separated by
one newline.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from core.geometry import quad_bounds, quad_centre
from core.ligatures import is_whitespace_text
from core.reading import TextResult, reading_order
from core.records import Glyph
from core.rules import Rules


@dataclass(frozen=True, slots=True)
class ColumnsResult:
    """`columns`: (x0, x1) user-space extents, left to right. `median_advance` and `threshold`
    (= columns_gap_multiple × median_advance) are the numbers behind the split; `gaps` the
    (x0, x1) of each gap that split."""

    text: TextResult
    columns: tuple[tuple[float, float], ...]
    median_advance: float = 0.0
    threshold: float = 0.0
    gaps: tuple[tuple[float, float], ...] = ()


def columns_text(glyphs: Sequence[Glyph], order: Sequence[int], rules: Rules) -> ColumnsResult:
    if not order:
        return ColumnsResult(text=TextResult(text="", char_glyphs=()), columns=())
    median = median_advance(glyphs, order)
    threshold = rules.columns_gap_multiple * median
    extents = sorted(quad_bounds(glyphs[i].quad)[0::2] for i in order)
    columns: list[list[float]] = [list(extents[0])]
    gaps: list[tuple[float, float]] = []
    for x0, x1 in extents[1:]:
        column = columns[-1]
        if median > 0.0 and x0 - column[1] > threshold:
            gaps.append((column[1], x0))
            columns.append([x0, x1])
        elif x1 > column[1]:
            column[1] = x1
    starts = [column[0] for column in columns]
    members: list[list[int]] = [[] for _ in columns]
    for index in order:
        centre_x = quad_centre(glyphs[index].quad)[0]
        members[max(0, bisect.bisect_right(starts, centre_x) - 1)].append(index)
    chars: list[str] = []
    owners: list[int] = []
    for column_glyphs in members:
        text = reading_order(glyphs, column_glyphs, rules).text
        if chars and text.text:
            chars.append("\n")
            owners.append(-1)
        chars.extend(text.text)
        owners.extend(text.char_glyphs)
    return ColumnsResult(
        text=TextResult(text="".join(chars), char_glyphs=tuple(owners)),
        columns=tuple((column[0], column[1]) for column in columns),
        median_advance=median,
        threshold=threshold,
        gaps=tuple(gaps),
    )


def median_advance(glyphs: Sequence[Glyph], order: Sequence[int]) -> float:
    """Median own advance (origin to glyph end) of the non-blank glyphs that have one."""
    advances = []
    for index in order:
        glyph = glyphs[index]
        if is_whitespace_text(glyph.text):
            continue
        advance = math.hypot(
            glyph.glyph_end[0] - glyph.origin[0], glyph.glyph_end[1] - glyph.origin[1]
        )
        if advance > 0.0:
            advances.append(advance)
    return statistics.median(advances) if advances else 0.0
