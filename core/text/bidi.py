"""Right-to-left text in logical order: the Unicode bidirectional algorithm (UAX #9) per line.

PDF shows glyphs where they are painted, so Arabic and Hebrew usually arrive in visual order
(left to right on the page). Reading a line's visual string through UAX #9's resolution and
reordering (rules W1–I2, L1–L2; python-bidi) gives its logical order, as PDFBox does; mirrored
characters (brackets) are swapped inside right-to-left runs (L4), because a producer that
paints "(" at the left end of a Hebrew run meant the closing one.

Two refinements beyond the plain algorithm:
- the paragraph direction comes from the line's strong characters by majority
  (`rules.bidi_rtl_base_ratio`): in visual order the first strong character of a Hebrew line
  with an English word at its left end is English, which P2 alone would take for an LTR line;
- a line whose right-to-left glyphs were painted right to left (origins decreasing along the
  baseline, in output order) is already in logical order and is left alone.

Characters written by one glyph (a lam-alef ligature folded to two letters, a base letter and
its merged accent) keep their order: they are already logical inside the glyph.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules

_RTL_CHARS = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
# Layout text pads between runs with spaces of its own; two or more in a row end a run.
_LAYOUT_PADDING = 2

VISUAL = "visual"
LOGICAL = "logical"


class BidiRun(NamedTuple):
    """One level run of a line that holds right-to-left text. `glyphs` are the run's owning
    glyph indices in output order before reordering; `level` its UAX #9 embedding level (odd is
    right to left); `drawn` VISUAL or LOGICAL (the line's painting order, from its RTL glyphs'
    origins); `reordered` whether the line was turned into logical order."""

    glyphs: tuple[int, ...]
    direction: str
    level: int
    base_level: int
    drawn: str
    reordered: bool


def has_rtl(text: str) -> bool:
    return _RTL_CHARS.search(text) is not None


def logical_order(
    text: str,
    char_glyphs: Sequence[int],
    glyphs: Sequence[Glyph],
    rules: Rules,
    *,
    layout: bool = False,
) -> tuple[str, tuple[int, ...], tuple[BidiRun, ...]]:
    """Text and owners (a TextResult's fields) with every line (layout: every run of a line)
    holding right-to-left text put in logical order, and the level runs of those lines."""
    if not rules.bidi_reorder or not has_rtl(text):
        return text, tuple(char_glyphs), ()
    chars = list(text)
    owners = list(char_glyphs)
    runs: list[BidiRun] = []
    for start, end in _segments(chars, owners, layout):
        if not has_rtl("".join(chars[start:end])):
            continue
        new_chars, new_owners, segment_runs = _reorder(
            chars[start:end], owners[start:end], glyphs, rules
        )
        chars[start:end], owners[start:end] = new_chars, new_owners
        runs.extend(segment_runs)
    return "".join(chars), tuple(owners), tuple(runs)


def _segments(chars: list[str], owners: list[int], layout: bool) -> list[tuple[int, int]]:
    """[start, end) of each line, or in layout text of each run between paddings."""
    segments: list[tuple[int, int]] = []
    start = 0
    padding = 0
    for position, char in enumerate(chars):
        if char == "\n":
            segments.append((start, position))
            start, padding = position + 1, 0
        elif layout and char == " " and owners[position] < 0:
            padding += 1
        else:
            if layout and padding >= _LAYOUT_PADDING:
                segments.append((start, position - padding))
                start = position
            padding = 0
    segments.append((start, len(chars)))
    return [(s, e) for s, e in segments if e > s]


def _base_level(chars: Sequence[str], rules: Rules) -> int:
    rtl = ltr = 0
    for char in chars:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            rtl += 1
        elif kind == "L":
            ltr += 1
    return 1 if rtl and rtl >= rules.bidi_rtl_base_ratio * (rtl + ltr) else 0


# The classes python-bidi's reference algorithm (UAX #9 before Unicode 6.3) has no rule for:
# the isolate controls LRI RLI FSI PDI, and "" (unicodedata's class of an unassigned code point
# or a noncharacter). Each would reach I1/I2 unresolved and fail the line; they are read as
# Other Neutrals, which N1/N2 resolve from their neighbours (an isolate then acts as a plain
# neutral mark, and the character itself is kept in the text).
_UNHANDLED_CLASSES = frozenset({"LRI", "RLI", "FSI", "PDI", ""})


def bidi_class(char: str) -> str:
    """The bidirectional class the reordering reads for `char`."""
    kind = unicodedata.bidirectional(char)
    return "ON" if kind in _UNHANDLED_CLASSES else kind


def _levels(chars: Sequence[str], base_level: int) -> dict:
    """python-bidi's storage after UAX #9 resolution (X1–I2): one record per character, each
    tagged with its position in `chars` so the reordering can be followed."""
    # python-bidi is imported by the lines that need it, not with the module: most documents
    # have no right-to-left line, and a one-file process need not load it.
    from bidi import algorithm as uax9

    storage = uax9.get_empty_storage()
    storage["base_level"] = base_level
    storage["base_dir"] = ("L", "R")[base_level]
    storage["chars"] = [
        {"ch": char, "level": base_level, "type": kind, "orig": kind, "position": position}
        for position, char in enumerate(chars)
        for kind in (bidi_class(char),)
    ]
    uax9.explicit_embed_and_overrides(storage)
    uax9.resolve_weak_types(storage, False)
    uax9.resolve_neutral_types(storage, False)
    uax9.resolve_implicit_levels(storage, False)
    return storage


def _drawn(
    level_runs: list[tuple[int, list[int]]], owners: Sequence[int], glyphs: Sequence[Glyph]
) -> str:
    """LOGICAL when the right-to-left glyphs mostly step backwards along their baseline."""
    forward = backward = 0
    for level, positions in level_runs:
        if level % 2 == 0:
            continue
        previous = None
        for position in positions:
            owner = owners[position]
            if owner < 0 or owner == previous:
                continue
            if previous is not None:
                before, glyph = glyphs[previous], glyphs[owner]
                ux, uy = _direction(before)
                step = (glyph.origin[0] - before.origin[0]) * ux + (
                    glyph.origin[1] - before.origin[1]
                ) * uy
                if step > 0:
                    forward += 1
                elif step < 0:
                    backward += 1
            previous = owner
    return LOGICAL if backward > forward else VISUAL


def _direction(glyph: Glyph) -> tuple[float, float]:
    (x0, y0), (x1, y1) = glyph.quad[0], glyph.quad[1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    return ((x1 - x0) / length, (y1 - y0) / length) if length else (1.0, 0.0)


def _reorder(
    chars: list[str], owners: list[int], glyphs: Sequence[Glyph], rules: Rules
) -> tuple[list[str], list[int], list[BidiRun]]:
    base_level = _base_level(chars, rules)
    storage = _levels(chars, base_level)
    records = storage["chars"]
    level_runs: list[tuple[int, list[int]]] = []
    for record in records:
        if level_runs and level_runs[-1][0] == record["level"]:
            level_runs[-1][1].append(record["position"])
        else:
            level_runs.append((record["level"], [record["position"]]))
    drawn = _drawn(level_runs, owners, glyphs)
    reordered = drawn == VISUAL
    runs = [
        BidiRun(
            glyphs=tuple(dict.fromkeys(owners[p] for p in positions if owners[p] >= 0)),
            direction="rtl" if level % 2 else "ltr",
            level=level,
            base_level=base_level,
            drawn=drawn,
            reordered=reordered,
        )
        for level, positions in level_runs
    ]
    if not reordered:
        return chars, owners, runs
    from bidi import algorithm as uax9

    uax9.reorder_resolved_levels(storage, False)
    uax9.apply_mirroring(storage, False)
    new_chars = [record["ch"] for record in records]
    positions = [record["position"] for record in records]
    _keep_glyph_order(new_chars, positions, owners)
    return new_chars, [owners[p] for p in positions], runs


def _keep_glyph_order(new_chars: list[str], positions: list[int], owners: Sequence[int]) -> None:
    """Put the characters of one glyph back in their own order after a run was reversed."""
    start = 0
    while start < len(positions):
        end = start + 1
        owner = owners[positions[start]]
        while owner >= 0 and end < len(positions) and owners[positions[end]] == owner:
            end += 1
        if end - start > 1:
            group = sorted(zip(positions[start:end], new_chars[start:end], strict=True))
            positions[start:end] = [p for p, _ in group]
            new_chars[start:end] = [c for _, c in group]
        start = end
