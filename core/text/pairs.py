"""Spec §6 over consecutive pairs: the numbers behind every line break and word gap of reading
order, computed at once for a whole order as arrays (core.text.arrays).

Pair k is the move from position k of the order to position k + 1. Every pair gets its numbers;
reading_order uses those of pairs of two horizontal glyphs, and of consecutive glyphs of a
vertical column (word gaps only), and makes decision records of them only when the caller
keeps the log. pair_numbers_in_python is the rule's reference (the fallback and the oracle of
the compiled loop, _pairs.pyx).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import writing_direction
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.records import Glyph, StrEnum
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, hypots, quad_heights, writing_directions
from glyphscope.core.text.chars import is_resolved_whitespace_text, output_text, text_classes


class GapReason(StrEnum):
    """Why the word-gap rule (spec §6) decided as it did between two glyphs on one line."""

    ABOVE_THRESHOLD = "above_threshold"  # the one reason for a space
    BELOW_THRESHOLD = "below_threshold"
    NEGATIVE_GAP = "negative_gap"  # a backward move: out-of-order fragments join
    BLANK_SIDE = "blank_side"  # a drawn space on either side already separates the words
    CJK_PAIR = "cjk_pair"  # CJK text has no word spaces
    # Beyond the spec (issue 26), each with the Rules field that gives the spec back:
    # a move back leaving the glyph clear behind the previous one (backward_jump_spaces);
    BACKWARD_JUMP = "backward_jump"
    # the writing direction turns (direction_change_degrees);
    DIRECTION_CHANGE = "direction_change"
    # a drawn blank moved back over is kerning and writes nothing (kerned_blanks_join);
    KERNED_BLANK = "kerned_blank"
    # an unresolved glyph that is a mark writes nothing (unresolved_marks_join): the pair into
    # it, and the pair out of it at a line start (the pair out of it elsewhere is decided from
    # the glyph before the mark: its gap, threshold and reason are that pair's).
    UNRESOLVED_MARK = "unresolved_mark"


# ReadingPairs.reason holds positions in this tuple.
REASONS = tuple(GapReason)
_ABOVE, _BELOW, _NEGATIVE, _BLANK, _CJK, _BACKWARD, _TURN, _KERNED, _MARK = range(len(REASONS))
# The reasons that insert a space.
SPACE_REASONS = frozenset(
    (GapReason.ABOVE_THRESHOLD, GapReason.BACKWARD_JUMP, GapReason.DIRECTION_CHANGE)
)


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
    ids, distinct = rows.text_ids()
    classes = _classes(rows)
    outputs = np.array([output_text(text, rules) for text in distinct], dtype=object)[ids]
    blanks = np.fromiter(map(is_resolved_whitespace_text, distinct), bool, len(distinct))[ids]

    projection, break_threshold, broke, gap, gap_threshold, reason = _pair_numbers(
        rows, classes, rules
    )
    vertical = rows.numbers("writing_mode") == 1
    if rules.kerned_blanks_join:
        _join_kerned_blanks(rows, blanks, vertical, broke, gap, reason, outputs, rules)
    if rules.unresolved_marks_join and "" in distinct:
        unresolved = np.array([text == "" for text in distinct], dtype=bool)[ids]
        numbers = (gap, gap_threshold, reason)
        _join_unresolved_marks(rows, unresolved, vertical, broke, numbers, outputs, rules)
    return ReadingPairs(
        glyphs=rows.index.tolist(),
        vertical=vertical,
        outputs=outputs.tolist(),
        blanks=blanks.tolist(),
        projection=projection,
        break_threshold=break_threshold,
        broke=broke,
        gap=gap,
        gap_threshold=gap_threshold,
        space=(reason == _ABOVE) | (reason == _BACKWARD) | (reason == _TURN),
        reason=reason,
    )


def _classes(rows: GlyphRows) -> np.ndarray:
    """Each row's whitespace, first and last character CJK (chars.text_classes), per distinct
    text: a page has far fewer texts than glyphs (the CJK test is reached only when neither
    side is whitespace, so never for "")."""
    ids, distinct = rows.text_ids()
    return np.array([text_classes(t)[:3] for t in distinct], dtype=bool).reshape(-1, 3)[ids]


def turn_limit(rules: Rules) -> float:
    """The dot product of two writing directions under which they differ by more than
    rules.direction_change_degrees; from 180 on, -2 (never: the dot product of two unit
    vectors can round just under -1)."""
    degrees = rules.direction_change_degrees
    return -2.0 if degrees >= 180.0 else math.cos(math.radians(degrees))


def skipped_pairs(
    glyphs: Sequence[Glyph], firsts: np.ndarray, seconds: np.ndarray, rules: Rules
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The word gap's gap, gap_threshold and reason (positions in REASONS) of glyph firsts[i]
    followed directly by glyph seconds[i] (glyph indices), the glyphs between them skipped:
    the pair rule itself (_pair_numbers) over the order firsts[0], seconds[0], firsts[1], …,
    of which every other pair is one asked for."""
    order = np.column_stack((firsts, seconds)).ravel()
    rows = GlyphRows(glyphs, order)
    _, _, _, gap, gap_threshold, reason = _pair_numbers(rows, _classes(rows), rules)
    return gap[::2], gap_threshold[::2], reason[::2]


def kerned_blanks(glyphs: Sequence[Glyph], triples: np.ndarray, rules: Rules) -> np.ndarray:
    """Per row (before, blank, after) of glyph indices, three glyphs of one line in turn,
    whether the drawn blank is kerning (kerned_blanks_join): the glyph after it moves back
    over more than half of it along the blank's direction (a negative Tc tracks every glyph,
    the blank too, by far less), neither neighbour is whitespace, and the pair from `before`
    straight to `after` is no word space by the pair rule."""
    rows = GlyphRows(glyphs, triples.ravel())
    whitespace = _classes(rows)[:, 0].reshape(-1, 3)
    origin = rows.points("origin").reshape(-1, 3, 2)
    glyph_end = rows.points("glyph_end").reshape(-1, 3, 2)
    ux, uy = (d.reshape(-1, 3)[:, 1] for d in writing_directions(rows))
    end, start, next_origin = glyph_end[:, 1], origin[:, 1], origin[:, 2]
    with np.errstate(all="ignore"):  # geometry.along, as Python's floats make it
        overlap = (end[:, 0] - next_origin[:, 0]) * ux + (end[:, 1] - next_origin[:, 1]) * uy
        advance = (end[:, 0] - start[:, 0]) * ux + (end[:, 1] - start[:, 1]) * uy
        kerned = (overlap > 0.0) & (overlap > 0.5 * advance)
    kerned &= ~whitespace[:, 0] & ~whitespace[:, 2]
    if kerned.any():
        pick = np.flatnonzero(kerned)
        reason = skipped_pairs(glyphs, triples[pick, 0], triples[pick, 2], rules)[2]
        kerned[pick] = (reason != _ABOVE) & (reason != _BACKWARD) & (reason != _TURN)
    return kerned


def _join_kerned_blanks(
    rows: GlyphRows,
    blanks: np.ndarray,
    vertical: np.ndarray,
    broke: np.ndarray,
    gap: np.ndarray,
    reason: np.ndarray,
    outputs: np.ndarray,
    rules: Rules,
) -> None:
    """Blanks that kerned_blanks finds kerning write nothing, their pair's reason KERNED_BLANK.
    The arrays first keep only blanks inside a horizontal line that the glyph after them moves
    back over by nearly half of their advance or more (a table's spaces under a negative Tc
    are many, its kerned blanks few)."""
    horizontal = ~vertical
    candidates = (
        np.flatnonzero(
            blanks[1:-1]
            & (gap[1:] < 0.0)
            & ~broke[:-1]
            & ~broke[1:]
            & horizontal[:-2]
            & horizontal[1:-1]
            & horizontal[2:]
        )
        + 1
    )
    if len(candidates):
        # The blank's advance along its direction is its length up to the last bit: 0.49
        # keeps every blank kerned_blanks could find kerning.
        advance = _advances(rows, candidates)
        with np.errstate(invalid="ignore"):
            candidates = candidates[-gap[candidates] > 0.49 * advance]
    if not len(candidates):
        return
    triples = rows.index[np.column_stack((candidates - 1, candidates, candidates + 1))]
    kerned = candidates[kerned_blanks(rows.glyphs, triples, rules)]
    reason[kerned] = _KERNED
    outputs[kerned] = ""


def _join_unresolved_marks(
    rows: GlyphRows,
    unresolved: np.ndarray,
    vertical: np.ndarray,
    broke: np.ndarray,
    numbers: tuple[np.ndarray, np.ndarray, np.ndarray],
    outputs: np.ndarray,
    rules: Rules,
) -> None:
    """Unresolved glyphs of horizontal lines that are marks (unresolved_marks_join) write
    nothing. A mark has no advance (its origin is its glyph end), or the glyph before or after
    it on its line covers more than half of its advance (minus the word gap into or out of
    it); a single-byte code 32 is the word space by §9.4.3 (Tw applies to it), never a mark,
    whatever its width. The pair into a mark gets UNRESOLVED_MARK, and the pair out of it the
    numbers of the glyph before the mark on its line straight to the glyph after it
    (skipped_pairs; UNRESOLVED_MARK at a line start). `numbers` are the pairs' gap,
    gap_threshold and reason, changed in place."""
    gap, gap_threshold, reason = numbers
    count = len(unresolved)
    horizontal = ~vertical
    # A pair joins two glyphs of one horizontal line.
    joined = ~broke & horizontal[:-1] & horizontal[1:]
    before, after = np.full(count, math.nan), np.full(count, math.nan)
    with np.errstate(all="ignore"):
        before[1:] = np.where(joined, -gap, math.nan)
        after[:-1] = np.where(joined, -gap, math.nan)
    candidates = np.flatnonzero(unresolved & horizontal)
    advance = _advances(rows, candidates)
    overlap_before, overlap_after = before[candidates], after[candidates]
    space_code = (rows.numbers("code")[candidates] == 32) & (
        rows.numbers("code_length")[candidates] == 1
    )
    with np.errstate(invalid="ignore"):
        covered = ((overlap_before > 0.0) & (overlap_before > 0.5 * advance)) | (
            (overlap_after > 0.0) & (overlap_after > 0.5 * advance)
        )
    marks = candidates[~space_code & ((advance == 0.0) | covered)].tolist()
    if not marks:
        return
    is_mark = np.zeros(count, dtype=bool)
    is_mark[marks] = True
    for k in marks:
        outputs[k] = ""
        if k and joined[k - 1]:
            reason[k - 1] = _MARK
    # The pairs out of marks, and the glyph before the marks of each on its line.
    outs: list[int] = []
    sources: list[int] = []
    for k in marks:
        if k + 1 >= count or not joined[k] or is_mark[k + 1]:
            continue
        source = k - 1
        while source >= 0 and joined[source] and is_mark[source]:
            source -= 1
        if source < 0 or not joined[source]:
            reason[k] = _MARK
            continue
        outs.append(k)
        sources.append(source)
    if outs:
        at = np.array(outs, dtype=np.intp)
        firsts, seconds = rows.index[np.array(sources, dtype=np.intp)], rows.index[at + 1]
        gap[at], gap_threshold[at], reason[at] = skipped_pairs(rows.glyphs, firsts, seconds, rules)


def _advances(rows: GlyphRows, positions: np.ndarray) -> np.ndarray:
    """geometry.distance(origin, glyph_end) of the rows at `positions`: their own advance."""
    origin, end = rows.points("origin")[positions], rows.points("glyph_end")[positions]
    with np.errstate(all="ignore"):
        return hypots(end[:, 0] - origin[:, 0], end[:, 1] - origin[:, 1])


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
    Tm works. A zero-height box never makes a space (the seed tests Height > 0).

    Beyond the spec (issue 26; Rules says why, and which value gives the spec back): the
    threshold's height is the current box capped at space_height_cap × the current size as
    drawn, when the box is at most space_height_cap_limit × that size; a turn of the writing
    direction by more than direction_change_degrees is a space (DIRECTION_CHANGE); a negative
    gap whose current glyph, origin and end, lies behind the previous origin by more than the
    threshold is a space when backward_jump_spaces (BACKWARD_JUMP)."""
    whitespace, cjk_first, cjk_last = classes[:, 0], classes[:, 1], classes[:, 2]
    origin, glyph_end = rows.points("origin"), rows.points("glyph_end")
    ux, uy = writing_directions(rows)
    height = quad_heights(rows.quads())
    size = rows.numbers("font_size").astype(np.float64)[1:]
    # The direction and glyph end are the previous glyph's.
    x0, y0, x1, y1 = origin[:-1, 0], origin[:-1, 1], origin[1:, 0], origin[1:, 1]
    end_x, end_y, next_end_x, next_end_y = (
        glyph_end[:-1, 0],
        glyph_end[:-1, 1],
        glyph_end[1:, 0],
        glyph_end[1:, 1],
    )
    ux, uy, next_ux, next_uy = ux[:-1], uy[:-1], ux[1:], uy[1:]
    before, after = height[:-1], height[1:]
    with np.errstate(all="ignore"):  # inf and nan as Python's floats make them, unwarned
        projection = (y1 - y0) * ux - (x1 - x0) * uy  # geometry.across
        # max(before, after) as Python takes it: `after` only when strictly larger.
        break_threshold = rules.line_break_ratio * np.where(after > before, after, before)
        broke = np.abs(projection) > break_threshold
        gap = (x1 - end_x) * ux + (y1 - end_y) * uy  # geometry.along
        cap = rules.space_height_cap * size
        capped = (cap > 0.0) & (cap < after) & (after <= rules.space_height_cap_limit * size)
        text_height = np.where(capped, cap, after)
        gap_threshold = rules.space_gap_ratio * text_height
        above = (text_height > 0.0) & (gap > gap_threshold)
        negative = gap < 0.0
        turned = ux * next_ux + uy * next_uy < turn_limit(rules)
        # How far the current glyph, origin and end, lies behind the previous origin.
        from_origin = (x0 - x1) * ux + (y0 - y1) * uy
        from_end = (x0 - next_end_x) * ux + (y0 - next_end_y) * uy
        behind = np.where(from_end < from_origin, from_end, from_origin)
        backward = (text_height > 0.0) & (behind > gap_threshold) & rules.backward_jump_spaces
    # The first condition that holds gives the reason, in this order (one np.where per
    # condition: np.select costs several times more on a page's pairs).
    reason = np.where(
        whitespace[:-1] | whitespace[1:],
        _BLANK,
        np.where(
            cjk_last[:-1] & cjk_first[1:],
            _CJK,
            np.where(
                turned,
                _TURN,
                np.where(
                    negative,
                    np.where(backward, _BACKWARD, _NEGATIVE),
                    np.where(above, _ABOVE, _BELOW),
                ),
            ),
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
        sizes = glyphs.font_size
        at = rows.index
    else:
        points = (rows.points("origin"), rows.points("glyph_end"), rows.quads())
        sizes = rows.numbers("font_size")
        at = np.arange(len(rows), dtype=np.intp)
    origin, glyph_end, quads = (np.ascontiguousarray(v, dtype=np.float64) for v in points)
    return _pairs.pair_numbers(  # type: ignore[union-attr]  # called only when built
        origin,
        glyph_end,
        quads,
        at,
        np.ascontiguousarray(classes, dtype=np.uint8),
        np.ascontiguousarray(sizes, dtype=np.float64),
        rules.line_break_ratio,
        rules.space_gap_ratio,
        rules.space_height_cap,
        rules.space_height_cap_limit,
        turn_limit(rules),
        rules.backward_jump_spaces,
        lambda k: writing_direction(rows.record(k)),
    )


# pair_numbers_in_python compiled (_pairs.pyx), when the extension was built.
_pairs = compiled.load("glyphscope.core.text._pairs")
_pair_numbers = pair_numbers_in_python if _pairs is None else _compiled_pair_numbers
