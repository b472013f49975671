"""Reading-order text (spec §6, `ExtractLoadedPageText`): the visible glyphs in content-stream
order, word spaces and line breaks rebuilt from geometry, vertical runs read in columns.

Decisions (one per consecutive pair) are recorded with the numbers behind them:
- a pair first gets a LineBreakDecision; a pair that broke the line gets no GapDecision,
  because the newline already separates the words. A line break combined with a large backward
  move (the next line starting at the left margin) is therefore just a newline;
- a pair on one line gets a GapDecision. A backward move on one baseline (out-of-order
  fragments) is a negative gap and joins without a space: the spec's honest edge;
- a run of consecutive writing-mode-1 glyphs (§9.7.4.3) is read as VerticalColumns; pairs
  inside a column get GapDecisions (along the vertical direction, CJK pairs never spaced),
  column changes and the edges of the run are newlines without a LineBreakDecision.

The numbers of the horizontal pairs are computed for the whole order at once over arrays
(core.text.pairs); the decision records are made from them only when the caller keeps the
log (`decisions=True`, the analysis), never in text mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import quad_centre, quad_height, writing_direction
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.bidi import BidiRun, logical_order
from glyphscope.core.text.decisions import (
    GapColumns,
    GapDecision,
    LineBreakColumns,
    LineBreakDecision,
)
from glyphscope.core.text.pairs import GapReason, ReadingPairs, reading_pairs

__all__ = [
    "GapDecision",
    "GapReason",
    "LineBreakDecision",
    "ReadingResult",
    "TextBuilder",
    "TextResult",
    "VerticalColumn",
    "reading_order",
    "vertical_columns",
]


@dataclass(frozen=True, slots=True)
class VerticalColumn:
    """One column of writing-mode-1 glyphs, in reading order (top to bottom); x_centre is the
    mean of the glyphs' quad centres, top/bottom the extreme quad y values."""

    glyphs: tuple[int, ...]
    x_centre: float
    top: float
    bottom: float


@dataclass(frozen=True, slots=True)
class TextResult:
    """Text and, for each of its characters, the glyph index that wrote it (-1 for inserted
    spaces, newlines and layout padding)."""

    text: str
    char_glyphs: tuple[int, ...]

    def glyph_spans(self, index: int) -> list[tuple[int, int]]:
        """Half-open character ranges [start, end) of the text written by glyph `index`."""
        spans: list[tuple[int, int]] = []
        start = -1
        for position, owner in enumerate(self.char_glyphs):
            if owner == index:
                if start < 0:
                    start = position
            elif start >= 0:
                spans.append((start, position))
                start = -1
        if start >= 0:
            spans.append((start, len(self.char_glyphs)))
        return spans


@dataclass(frozen=True, slots=True)
class ReadingResult:
    text: TextResult
    # With decisions, GapColumns and LineBreakColumns: the records as arrays (a Sequence of
    # records, made when asked for); without, empty tuples.
    gaps: Sequence[GapDecision]
    line_breaks: Sequence[LineBreakDecision]
    vertical_columns: tuple[VerticalColumn, ...]
    # Lines holding right-to-left text, their level runs and whether they were reordered.
    bidi_runs: tuple[BidiRun, ...] = ()


# TextBuilder.run separators: what comes between a glyph and the one before it.
NOTHING, SPACE, NEWLINE = 0, 1, 2


class TextBuilder:
    """Accumulates output characters with their glyph owners.

    Blank glyphs (a drawn space) collapse: they write nothing at a line start or after other
    white space, and trailing ones are trimmed at each line end. Fake-bold passes leave their
    spaces behind (blanks are never duplicate candidates, spec §5), and this keeps them from
    doubling the word space. Unresolved glyphs always write their space (spec §1)."""

    __slots__ = ("_chars", "_owners", "_blank_tail")

    def __init__(self) -> None:
        self._chars: list[str] = []
        self._owners: list[int] = []
        self._blank_tail = 0

    def glyph(self, index: int, text: str, blank: bool) -> None:
        chars = self._chars
        if blank:
            if not chars or chars[-1] == "\n" or chars[-1].isspace():
                return
            self._blank_tail += len(text)
        else:
            self._blank_tail = 0
        chars.extend(text)
        self._owners.extend([index] * len(text))

    def run(
        self,
        indices: list[int],
        texts: list[str],
        blanks: list[bool],
        separators: list[int],
    ) -> None:
        """glyph(index, text, blank) for each glyph of a run in turn, each after a space() when
        its separator is SPACE, a newline() when NEWLINE: the same characters, in one loop
        (compiled when the extension is built)."""
        self._blank_tail = _run(
            self._chars, self._owners, self._blank_tail, indices, texts, blanks, separators
        )

    def space(self) -> None:
        self._chars.append(" ")
        self._owners.append(-1)
        self._blank_tail = 0

    def newline(self) -> None:
        self._trim()
        if self._chars and self._chars[-1] != "\n":
            self._chars.append("\n")
            self._owners.append(-1)

    def result(self) -> TextResult:
        self._trim()
        while self._chars and self._chars[-1] == "\n":
            self._chars.pop()
            self._owners.pop()
        return TextResult(text="".join(self._chars), char_glyphs=tuple(self._owners))

    def _trim(self) -> None:
        if self._blank_tail:
            del self._chars[-self._blank_tail :]
            del self._owners[-self._blank_tail :]
            self._blank_tail = 0


def run_in_python(
    chars: list[str],
    owners: list[int],
    tail: int,
    indices: list[int],
    texts: list[str],
    blanks: list[bool],
    separators: list[int],
) -> int:
    """TextBuilder.run on the builder's lists, its blank tail `tail` before the run: the
    characters and owners written, and the blank tail after it."""
    for index, text, blank, separator in zip(indices, texts, blanks, separators, strict=True):
        if separator == SPACE:
            chars.append(" ")
            owners.append(-1)
            tail = 0
        elif separator == NEWLINE:
            if tail:
                del chars[-tail:]
                del owners[-tail:]
                tail = 0
            if chars and chars[-1] != "\n":
                chars.append("\n")
                owners.append(-1)
        if blank:
            if not chars or chars[-1] == "\n" or chars[-1].isspace():
                continue
            tail += len(text)
        else:
            tail = 0
        if len(text) == 1:
            chars.append(text)
            owners.append(index)
        else:
            chars.extend(text)
            owners.extend([index] * len(text))
    return tail


# run_in_python compiled (_builder.pyx), when the extension was built.
_builder = compiled.load("glyphscope.core.text._builder")
_run = run_in_python if _builder is None else _builder.run


def reading_order(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    rules: Rules,
    *,
    decisions: bool = True,
    pairs: ReadingPairs | None = None,
) -> ReadingResult:
    """Assemble `order` (indices into glyphs, normally the visible glyphs in drawing order).
    With `decisions` False the result holds the text and the vertical columns only (no gap or
    line-break records): what text mode and the text-only callers need. `pairs` are
    reading_pairs(glyphs, order, rules) when the caller has them (columns text's with a line
    broken wherever one of its groups ends)."""
    if pairs is None:
        pairs = reading_pairs(glyphs, order, rules)
    builder = TextBuilder()
    # The decisions of each run in turn: rows of the pairs' columns, or a vertical run's
    # columns' own.
    gaps: list[GapColumns] = []
    breaks: list[LineBreakColumns] = []
    columns: list[VerticalColumn] = []
    count = len(pairs.glyphs)
    separators = np.where(pairs.broke, NEWLINE, np.where(pairs.space, SPACE, NOTHING)).tolist()
    log = _decisions(pairs) if decisions else None
    for start, stop, vertical in _runs(pairs.vertical):
        if vertical:
            builder.newline()
            run_columns, run_gaps = _read_vertical(glyphs, pairs.glyphs[start:stop], rules, builder)
            columns.extend(run_columns)
            gaps.extend(run_gaps)
            if stop < count:
                builder.newline()
            continue
        builder.run(
            pairs.glyphs[start:stop],
            pairs.outputs[start:stop],
            pairs.blanks[start:stop],
            [NOTHING, *separators[start : stop - 1]],
        )
        if log is not None:
            # Pairs start .. stop-2 join the run's glyphs; a broken line has no gap decision.
            breaks.append(log[0].rows(start, stop - 1))
            gaps.append(log[1].rows(log[2][start], log[2][stop - 1]))
    visual = builder.result()
    text, owners, bidi_runs = logical_order(visual.text, visual.char_glyphs, glyphs, rules)
    return ReadingResult(
        text=visual if text is visual.text else TextResult(text, owners),
        gaps=GapColumns.joined(gaps) if log is not None else (),
        line_breaks=LineBreakColumns.joined(breaks) if log is not None else (),
        vertical_columns=tuple(columns),
        bidi_runs=bidi_runs,
    )


def _runs(vertical: np.ndarray) -> list[tuple[int, int, bool]]:
    """The order cut into runs [start, stop) of horizontal and of vertical glyphs."""
    edges = (np.flatnonzero(vertical[1:] != vertical[:-1]) + 1).tolist()
    starts, stops = [0, *edges], [*edges, len(vertical)]
    return [(a, b, bool(vertical[a])) for a, b in zip(starts, stops, strict=True) if b > a]


def _decisions(pairs: ReadingPairs) -> tuple[LineBreakColumns, GapColumns, list[int]]:
    """Every pair's line-break decision; the gap decisions of the pairs that did not break
    the line; and for each pair k, how many of those come before it (slice bounds per run)."""
    glyphs = np.asarray(pairs.glyphs, dtype=np.int64)
    previous, current = glyphs[:-1], glyphs[1:]
    breaks = LineBreakColumns(
        previous, current, pairs.projection, pairs.break_threshold, pairs.broke
    )
    kept = np.flatnonzero(~pairs.broke)
    gaps = GapColumns(
        previous[kept],
        current[kept],
        pairs.gap[kept],
        pairs.gap_threshold[kept],
        pairs.space[kept],
        pairs.reason[kept].astype(np.uint8),
    )
    before = np.concatenate(([0], np.cumsum(~pairs.broke))).tolist()
    return breaks, gaps, before


def _read_vertical(
    glyphs: Sequence[Glyph], run: list[int], rules: Rules, builder: TextBuilder
) -> tuple[list[VerticalColumn], list[GapColumns]]:
    """Spec §6 / §9.7.4.3: writing-mode-1 glyphs grouped into columns, read right to left,
    each top to bottom, a line break at each column change. Every pair inside a column gets
    a gap decision, from the same pair numbers as horizontal text (the CJK pair rule keeps
    vertical CJK unspaced); the columns and those decisions, a GapColumns per column."""
    columns = vertical_columns(glyphs, run, rules)
    gaps: list[GapColumns] = []
    for number, column in enumerate(columns):
        if number:
            builder.newline()
        pairs = reading_pairs(glyphs, column.glyphs, rules)
        separators = np.where(pairs.space, SPACE, NOTHING).tolist()
        builder.run(pairs.glyphs, pairs.outputs, pairs.blanks, [NOTHING, *separators])
        indices = np.asarray(pairs.glyphs, dtype=np.int64)
        gaps.append(
            GapColumns(
                indices[:-1],
                indices[1:],
                pairs.gap,
                pairs.gap_threshold,
                pairs.space,
                pairs.reason.astype(np.uint8),
            )
        )
    return columns, gaps


def vertical_columns(
    glyphs: Sequence[Glyph], run: Sequence[int], rules: Rules
) -> list[VerticalColumn]:
    """Group a vertical run into columns. In the frame of the run's first glyph (along = its
    writing direction, down the page; across = the normal, rightwards), glyphs sorted by
    across-position from the right start a new column when their centre moves more than
    line_break_ratio × the larger box width (quad 0→3) from the previous one: the same rule as a
    horizontal line break, turned a quarter."""
    ux, uy = writing_direction(glyphs[run[0]])
    nx, ny = -uy, ux
    placed = []
    for index in run:
        quad = glyphs[index].quad
        cx, cy = quad_centre(quad)
        origin = glyphs[index].origin
        placed.append((-(cx * nx + cy * ny), index, origin[0] * ux + origin[1] * uy, cx, quad))
    placed.sort(key=lambda item: item[0])
    groups: list[list[tuple]] = []
    last_across, last_height = 0.0, 0.0
    for item in placed:
        height = quad_height(item[4])
        threshold = rules.line_break_ratio * max(height, last_height)
        if not groups or item[0] - last_across > threshold:
            groups.append([])
        groups[-1].append(item)
        last_across, last_height = item[0], height
    columns = []
    for group in groups:
        group.sort(key=lambda item: item[2])
        ys = [point[1] for item in group for point in item[4]]
        columns.append(
            VerticalColumn(
                glyphs=tuple(item[1] for item in group),
                x_centre=sum(item[3] for item in group) / len(group),
                top=max(ys),
                bottom=min(ys),
            )
        )
    return columns
