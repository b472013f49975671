"""Spec §6 over consecutive pairs: the numbers behind every line break and word gap of reading
order, computed at once for a whole order as arrays (core.text.arrays).

Pair k is the move from position k of the order to position k + 1. Every pair gets its numbers;
reading_order uses those of pairs of two horizontal glyphs, and of consecutive glyphs of a
vertical column (word gaps only), and makes decision records of them only when the caller
keeps the log. pair_numbers_in_python is the rule's reference (the fallback and the oracle of
the compiled loop, _pairs.pyx).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import writing_direction
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.records import Glyph, StrEnum
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, quad_heights, writing_directions
from glyphscope.core.text.chars import is_resolved_whitespace_text, output_text, text_classes


class GapReason(StrEnum):
    """Why the word-gap rule (spec §6) decided as it did between two glyphs on one line."""

    ABOVE_THRESHOLD = "above_threshold"  # the one reason for a space
    BELOW_THRESHOLD = "below_threshold"
    NEGATIVE_GAP = "negative_gap"  # a backward move: out-of-order fragments join
    BLANK_SIDE = "blank_side"  # a drawn space on either side already separates the words
    CJK_PAIR = "cjk_pair"  # CJK text has no word spaces


# ReadingPairs.reason holds positions in this tuple.
REASONS = tuple(GapReason)
_ABOVE, _BELOW, _NEGATIVE, _BLANK, _CJK = range(len(REASONS))


class ReadingPairs(NamedTuple):
    """Per position of the order: `glyphs` the glyph index, `vertical` writing mode 1,
    `outputs` what it writes (chars.output_text), `blanks` whether it is a drawn blank (which
    TextBuilder collapses). Per pair, the line break's `projection`, `break_threshold` and
    `broke`, and the word gap's `gap`, `gap_threshold`, `space` and `reason` (positions in
    REASONS), as pair_numbers_in_python defines them."""

    glyphs: list[int]
    vertical: np.ndarray
    outputs: list[str]
    blanks: list[bool]
    projection: np.ndarray
    break_threshold: np.ndarray
    broke: np.ndarray
    gap: np.ndarray
    gap_threshold: np.ndarray
    space: np.ndarray
    reason: np.ndarray


def reading_pairs(
    glyphs: Sequence[Glyph], order: Sequence[int] | np.ndarray, rules: Rules
) -> ReadingPairs:
    """The numbers of every consecutive pair of `order` (indices into glyphs, a sequence or
    an integer array)."""
    rows = GlyphRows(glyphs, order)
    # Character classes per distinct text: a page has far fewer texts than glyphs.
    ids, distinct = rows.text_ids()
    # Whitespace, first and last character CJK (the CJK test is reached only when neither
    # side is whitespace, so never for "").
    classes = np.array([text_classes(t)[:3] for t in distinct], dtype=bool).reshape(-1, 3)[ids]
    outputs = np.array([output_text(text, rules) for text in distinct], dtype=object)
    blanks = np.fromiter(map(is_resolved_whitespace_text, distinct), bool, len(distinct))

    projection, break_threshold, broke, gap, gap_threshold, reason = _pair_numbers(
        rows, classes, rules
    )
    return ReadingPairs(
        glyphs=rows.index.tolist(),
        vertical=rows.numbers("writing_mode") == 1,
        outputs=outputs[ids].tolist(),
        blanks=blanks[ids].tolist(),
        projection=projection,
        break_threshold=break_threshold,
        broke=broke,
        gap=gap,
        gap_threshold=gap_threshold,
        space=reason == _ABOVE,
        reason=reason,
    )


def pair_numbers_in_python(
    rows: GlyphRows, classes: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """ReadingPairs' projection, break_threshold, broke, gap, gap_threshold and reason of the
    pairs of consecutive rows, over arrays; `classes` holds each row's whitespace, first and
    last character CJK (chars.text_classes) as its three columns.

    Line break: a new line when the origin move across the previous writing direction exceeds
    line_break_ratio × the larger box height. Projecting on the direction's normal makes
    rotated runs behave like horizontal ones; the larger height keeps a superscript (Ts,
    §9.3.7) and a small caption beside a big word on the line.

    Word space: the gap starts at the previous glyph END (its own advance, §9.4.4 w0 × Tfs ×
    Th) rather than the pen position, so a negative Tc given back through TJ is no gap
    ("95后"); the threshold scales with the box height rather than Tf, so `1 Tf` under a scaled
    Tm works. A zero-height box never makes a space (the seed tests Height > 0)."""
    whitespace, cjk_first, cjk_last = classes[:, 0], classes[:, 1], classes[:, 2]
    origin, glyph_end = rows.points("origin"), rows.points("glyph_end")
    ux, uy = writing_directions(rows)
    height = quad_heights(rows.quads())
    # The direction and glyph end are the previous glyph's.
    x0, y0, x1, y1 = origin[:-1, 0], origin[:-1, 1], origin[1:, 0], origin[1:, 1]
    end_x, end_y, ux, uy = glyph_end[:-1, 0], glyph_end[:-1, 1], ux[:-1], uy[:-1]
    before, after = height[:-1], height[1:]
    with np.errstate(all="ignore"):  # inf and nan as Python's floats make them, unwarned
        projection = (y1 - y0) * ux - (x1 - x0) * uy  # geometry.across
        # max(before, after) as Python takes it: `after` only when strictly larger.
        break_threshold = rules.line_break_ratio * np.where(after > before, after, before)
        broke = np.abs(projection) > break_threshold
        gap = (x1 - end_x) * ux + (y1 - end_y) * uy  # geometry.along
        gap_threshold = rules.space_gap_ratio * after
        above = (after > 0.0) & (gap > gap_threshold)
        negative = gap < 0.0
    # The first condition that holds gives the reason, in this order (one np.where per
    # condition: np.select costs several times more on a page's pairs).
    reason = np.where(
        whitespace[:-1] | whitespace[1:],
        _BLANK,
        np.where(
            cjk_last[:-1] & cjk_first[1:],
            _CJK,
            np.where(negative, _NEGATIVE, np.where(above, _ABOVE, _BELOW)),
        ),
    )
    return projection, break_threshold, broke, gap, gap_threshold, reason


def _compiled_pair_numbers(
    rows: GlyphRows, classes: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """pair_numbers_in_python in one compiled loop (_pairs.pyx); the points of columns are
    read in place."""
    glyphs = rows.glyphs
    if isinstance(glyphs, GlyphColumns):
        points = (glyphs.origin, glyphs.glyph_end, glyphs.quad)
        at = rows.index
    else:
        points = (rows.points("origin"), rows.points("glyph_end"), rows.quads())
        at = np.arange(len(rows), dtype=np.intp)
    origin, glyph_end, quads = (np.ascontiguousarray(v, dtype=np.float64) for v in points)
    return _pairs.pair_numbers(  # type: ignore[union-attr]  # called only when built
        origin,
        glyph_end,
        quads,
        at,
        np.ascontiguousarray(classes, dtype=np.uint8),
        rules.line_break_ratio,
        rules.space_gap_ratio,
        lambda k: writing_direction(rows.record(k)),
    )


# pair_numbers_in_python compiled (_pairs.pyx), when the extension was built.
_pairs = compiled.load("glyphscope.core.text._pairs")
_pair_numbers = pair_numbers_in_python if _pairs is None else _compiled_pair_numbers
