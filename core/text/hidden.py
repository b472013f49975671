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

from bisect import bisect_right
from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

from glyphscope.core.geometry import quad_bounds, quad_centre, quad_height
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.chars import is_whitespace_text
from glyphscope.core.text.visible import DroppedGlyph

INVISIBLE_RENDER_MODE = "invisible_render_mode"
CLIPPED = "clipped"
NO_INK = "no_ink"
TINY = "tiny"
OUTSIDE_VISIBLE_BOX = "outside_visible_box"
REASONS = (INVISIBLE_RENDER_MODE, CLIPPED, NO_INK, TINY, OUTSIDE_VISIBLE_BOX)

INCLUDE, EXCLUDE, ONLY = "include", "exclude", "only"
SELECTIONS = (INCLUDE, EXCLUDE, ONLY)

Clip = tuple[float, float, float, float] | None


class HiddenGlyph(NamedTuple):
    """Glyph index `glyph` and why a reader would not see it (REASONS order)."""

    glyph: int
    reasons: tuple[str, ...]


class HiddenRun(NamedTuple):
    """Consecutive hidden glyphs (drawing order) with the same reasons; `box` their bounds."""

    glyphs: tuple[int, ...]
    text: str
    reasons: tuple[str, ...]
    box: tuple[float, float, float, float]


def hidden_glyphs(
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, Clip]],
    dropped: Iterable[DroppedGlyph],
    rules: Rules,
    no_ink: Collection[int] = (),
) -> tuple[HiddenGlyph, ...]:
    """Every non-blank, non-duplicate glyph a reader would not see, with its reasons."""
    outside = {d.index for d in dropped if d.reason == OUTSIDE_VISIBLE_BOX}
    duplicates = {d.index for d in dropped if d.reason != OUTSIDE_VISIBLE_BOX}
    starts = [start for start, _ in clips]
    found: list[HiddenGlyph] = []
    for index, glyph in enumerate(glyphs):
        if index in duplicates or (glyph.text and is_whitespace_text(glyph.text)):
            continue
        reasons = []
        if glyph.render_mode in (3, 7):
            reasons.append(INVISIBLE_RENDER_MODE)
        slot = bisect_right(starts, index) - 1
        clip = clips[slot][1] if slot >= 0 else None
        if clip is not None and not _inside(quad_centre(glyph.quad), clip):
            reasons.append(CLIPPED)
        if index in no_ink:
            reasons.append(NO_INK)
        if quad_height(glyph.quad) < rules.hidden_tiny_height:
            reasons.append(TINY)
        if index in outside:
            reasons.append(OUTSIDE_VISIBLE_BOX)
        if reasons:
            found.append(HiddenGlyph(index, tuple(reasons)))
    return tuple(found)


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def select_hidden(
    visible: Sequence[int],
    hidden: Sequence[HiddenGlyph],
    selection: str,
) -> list[int]:
    """The glyphs text modes read: the visible ones (INCLUDE, the spec), the visible ones
    that are not hidden (EXCLUDE), or the hidden ones in drawing order (ONLY)."""
    if selection == INCLUDE:
        return list(visible)
    indices = {h.glyph for h in hidden}
    if selection == EXCLUDE:
        return [index for index in visible if index not in indices]
    if selection == ONLY:
        return sorted(indices)
    raise ValueError(f"hidden selection {selection!r} is not one of {', '.join(SELECTIONS)}")


def hidden_runs(glyphs: Sequence[Glyph], hidden: Sequence[HiddenGlyph]) -> list[HiddenRun]:
    """Hidden glyphs grouped into runs: consecutive indices with the same reasons."""
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
