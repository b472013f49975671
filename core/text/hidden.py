"""Text a reader cannot see, with the reason (beyond the spec, issue 12).

The contract's visible box (§4) is a box test, not a visibility test: text painted in render
mode 3, clipped away, white on white, under an image or in 0.1-pt type is still read. This
module names, for every painted glyph, why a reader would not see it:

- `invisible_render_mode`: text render mode 3 or 7 (§9.3.6, neither filled nor stroked);
- `clipped`: the glyph's quad centre lies outside the clipping box in force
  (core.interpret.clipping);
- `no_ink`: the rendered page does not change inside the glyph's quad when text is taken away
  (core.text.ink, a pdfium pixel test run only when asked: it costs two renders);
- `tiny`: box height (quad 0→3) under `rules.hidden_tiny_height` user-space units;
- `outside_visible_box`: dropped by §4.

Blank glyphs paint nothing anyway and are never listed; duplicates (§5) are not hidden text.
Text modes keep reading the visible glyphs; `select_hidden` narrows them for the CLI's
`--hidden exclude|only`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

import numpy as np

from glyphscope.core.geometry import quad_bounds
from glyphscope.core.records import Glyph, HiddenSelection, StrEnum
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import GlyphRows, few_records, quad_heights
from glyphscope.core.text.chars import is_resolved_whitespace_text
from glyphscope.core.text.visible import DroppedGlyph


class HiddenReason(StrEnum):
    """Why a reader would not see a glyph."""

    INVISIBLE_RENDER_MODE = "invisible_render_mode"  # Tr 3 or 7 (§9.3.6)
    CLIPPED = "clipped"  # quad centre outside the clip (§8.5.4)
    NO_INK = "no_ink"  # the pixel test: drawing it changes no pixel (core.text.ink)
    TINY = "tiny"  # box under hidden_tiny_height
    OUTSIDE_VISIBLE_BOX = "outside_visible_box"  # §14.11.2, dropped by the visible stage


REASONS = tuple(HiddenReason)

Clip = tuple[float, float, float, float] | None


class HiddenGlyph(NamedTuple):
    """Glyph index `glyph` and why a reader would not see it (REASONS order)."""

    glyph: int
    reasons: tuple[HiddenReason, ...]


class HiddenRun(NamedTuple):
    """Consecutive hidden glyphs (drawing order) with the same reasons; `box` their bounds."""

    glyphs: tuple[int, ...]
    text: str
    reasons: tuple[HiddenReason, ...]
    box: tuple[float, float, float, float]


def hidden_glyphs(
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, Clip]],
    dropped: Iterable[DroppedGlyph],
    rules: Rules,
    no_ink: Collection[int] = (),
) -> tuple[HiddenGlyph, ...]:
    """Every non-blank, non-duplicate glyph a reader would not see, with its reasons.

    Over the glyphs' arrays (GlyphColumns, or records read once): each reason is a mask,
    computed with the float operations of the record functions (geometry.quad_centre,
    quad_height through math.hypot), so a glyph is hidden for exactly the reasons it was
    when the glyphs were looked at one by one."""
    count = len(glyphs)
    if not count:
        return ()
    rows = GlyphRows(glyphs)
    # A page has far fewer distinct texts than glyphs: each classified once (the page's
    # distinct texts, numbered once for every stage: GlyphColumns.text_ids).
    blank = rows.per_text(is_resolved_whitespace_text)
    # Bit k of a glyph's code set when REASONS[k] holds for it.
    bit = {reason: 1 << k for k, reason in enumerate(REASONS)}
    codes = np.zeros(count, dtype=np.intp)
    render_mode = rows.numbers("render_mode")
    codes[(render_mode == 3) | (render_mode == 7)] |= bit[HiddenReason.INVISIBLE_RENDER_MODE]
    quads = rows.quads()
    codes[_clipped(quads, clips)] |= bit[HiddenReason.CLIPPED]
    codes[_rows(no_ink, count)] |= bit[HiddenReason.NO_INK]
    codes[quad_heights(quads) < rules.hidden_tiny_height] |= bit[HiddenReason.TINY]
    outside: list[int] = []
    duplicates: list[int] = []
    for item in dropped:
        off_box = item.reason == HiddenReason.OUTSIDE_VISIBLE_BOX
        (outside if off_box else duplicates).append(item.index)
    codes[_rows(outside, count)] |= bit[HiddenReason.OUTSIDE_VISIBLE_BOX]
    codes[_rows(duplicates, count)] = 0
    codes[blank] = 0
    found = np.flatnonzero(codes)
    reasons = map(_REASON_SETS.__getitem__, codes[found].tolist())
    return tuple(map(HiddenGlyph, found.tolist(), reasons))


# The reasons of each code (bit k: REASONS[k]), in REASONS order.
_REASON_SETS = tuple(
    tuple(reason for bit, reason in enumerate(REASONS) if code >> bit & 1)
    for code in range(1 << len(REASONS))
)


def _rows(indices: Collection[int], count: int) -> np.ndarray:
    """The glyph rows among `indices` (a set or sequence of glyph indices), as an index array."""
    found = np.fromiter(indices, dtype=np.int64, count=len(indices))
    return found[(found >= 0) & (found < count)]


def _clipped(quads: np.ndarray, clips: Sequence[tuple[int, Clip]]) -> np.ndarray:
    """Per glyph, whether its quad centre lies outside the clipping box in force: the box of
    the last clip whose start is at or before the glyph (as bisect_right finds it; the
    interpreter records clips in drawing order), none before the first."""
    count = len(quads)
    if not clips:
        return np.zeros(count, dtype=bool)
    starts = np.fromiter((start for start, _ in clips), dtype=np.int64, count=len(clips))
    # Slot 0 stands for "no clip": before the first clip, and every clip of None.
    boxes = np.zeros((len(clips) + 1, 4), dtype=np.float64)
    clipping = np.zeros(len(clips) + 1, dtype=bool)
    for slot, (_, clip) in enumerate(clips, start=1):
        if clip is not None:
            boxes[slot], clipping[slot] = clip, True
    slots = np.searchsorted(starts, np.arange(count), side="right")
    box = boxes[slots]
    with np.errstate(all="ignore"):  # inf and nan as Python's floats make them, unwarned
        x = (quads[:, 0, 0] + quads[:, 2, 0]) * 0.5
        y = (quads[:, 0, 1] + quads[:, 2, 1]) * 0.5
        inside = (box[:, 0] <= x) & (x <= box[:, 2]) & (box[:, 1] <= y) & (y <= box[:, 3])
    return clipping[slots] & ~inside


def select_hidden(
    visible: Sequence[int],
    hidden: Sequence[HiddenGlyph],
    selection: str,
) -> list[int]:
    """The glyphs text modes read (a HiddenSelection): the visible ones (INCLUDE, the spec),
    the visible ones that are not hidden (EXCLUDE), or the hidden ones in drawing order
    (ONLY)."""
    if selection == HiddenSelection.INCLUDE:
        return list(visible)
    indices = {h.glyph for h in hidden}
    if selection == HiddenSelection.EXCLUDE:
        return [index for index in visible if index not in indices]
    if selection == HiddenSelection.ONLY:
        return sorted(indices)
    raise ValueError(f"hidden selection {selection!r} is not one of {', '.join(HiddenSelection)}")


def hidden_runs(glyphs: Sequence[Glyph], hidden: Sequence[HiddenGlyph]) -> list[HiddenRun]:
    """Hidden glyphs grouped into runs: consecutive indices with the same reasons."""
    glyphs = few_records(glyphs)  # the hidden glyphs' records only, not the page's
    runs: list[HiddenRun] = []
    group: list[HiddenGlyph] = []
    for item in hidden:
        if group and (item.glyph != group[-1].glyph + 1 or item.reasons != group[-1].reasons):
            runs.append(_run(glyphs, group))
            group = []
        group.append(item)
    if group:
        runs.append(_run(glyphs, group))
    return runs


def _run(glyphs: Sequence[Glyph], group: list[HiddenGlyph]) -> HiddenRun:
    bounds = [quad_bounds(glyphs[item.glyph].quad) for item in group]
    box = (
        min(b[0] for b in bounds),
        min(b[1] for b in bounds),
        max(b[2] for b in bounds),
        max(b[3] for b in bounds),
    )
    text = "".join(glyphs[item.glyph].text or " " for item in group)
    return HiddenRun(tuple(item.glyph for item in group), text, group[0].reasons, box)
