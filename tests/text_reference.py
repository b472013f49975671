"""The rules that have one implementation in the package (over arrays) and this second one,
glyph by glyph, as they were before issue 9 put them over arrays: the page's dominant
rotation, structure order's MCID buckets and hidden text. A rule with a compiled path is
tested against the package's own Python reference instead (tests/reference_paths.py)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Collection, Sequence

from glyphscope.core.geometry import quad_centre, quad_height, writing_direction
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.structure import order
from glyphscope.core.structure.tree import McidKey, ObjGen
from glyphscope.core.text import hidden, lines
from glyphscope.core.text.chars import is_whitespace_text
from glyphscope.core.text.visible import DroppedGlyph


def dominant_rotation(glyphs: Sequence[Glyph], order: Sequence[int]) -> int:
    """The multiple of 90° most horizontal-mode glyphs are written in (0 when none)."""
    counts = [0, 0, 0, 0]
    for index in order:
        glyph = glyphs[index]
        ux, uy = writing_direction(glyph)
        if glyph.writing_mode == 0 and not (math.isnan(ux) or math.isnan(uy)):
            counts[round(math.degrees(math.atan2(uy, ux)) / 90.0) % 4] += 1
    return 90 * counts.index(max(counts))


# Structure order's buckets (§9) glyph by glyph, as before they were filled from the MCID
# column.


def order_glyphs(
    mcid_keys: Sequence[McidKey],
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None = None,
) -> order.StructureOrder:
    """Replay `visible` glyphs in the walk's MCID order, then the untagged geometric tail.

    `form_chain(form_path)` gives the objgens of the forms on a glyph's form path, innermost
    first; needed only when some key names a form (MCR /Stm).
    """
    stm_forms = {form for form, _ in mcid_keys if form is not None}
    buckets: dict[McidKey, list[int]] = {key: [] for key in mcid_keys}
    tail: list[int] = []
    for index in visible:
        glyph = glyphs[index]
        key = _glyph_key(glyph, stm_forms, form_chain)
        bucket = buckets.get(key) if key is not None else None
        if bucket is None:
            tail.append(index)
        else:
            bucket.append(index)
    glyph_order: list[int] = []
    spans: dict[int, tuple[int, int]] = {}
    form_spans: dict[tuple[ObjGen, int], tuple[int, int]] = {}
    for key in mcid_keys:
        start = len(glyph_order)
        glyph_order.extend(sorted(buckets[key], key=lambda i: glyphs[i].draw_order))
        form, mcid = key
        if form is None:
            spans[mcid] = (start, len(glyph_order))
        else:
            form_spans[(form, mcid)] = (start, len(glyph_order))
    # The tail is read in baseline lines, in the frame layout text uses for the whole page:
    # on a page drawn turned it follows the page's lines rather than crossing them.
    rotation = dominant_rotation(glyphs, visible) if tail else 0
    untagged = lines.line_order(glyphs, tail, rotation, rules)
    return order.StructureOrder(
        glyph_order=tuple(glyph_order + untagged),
        mcid_order=tuple(mcid for form, mcid in mcid_keys if form is None),
        spans=spans,
        untagged=tuple(untagged),
        total=len(visible),
        form_spans=form_spans,
    )


def _glyph_key(
    glyph: Glyph,
    stm_forms: set[ObjGen],
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None,
) -> McidKey | None:
    if glyph.mcid is None:
        return None
    if glyph.form_path and stm_forms and form_chain is not None:
        for form in form_chain(glyph.form_path):
            if form in stm_forms:
                return (form, glyph.mcid)
    return (None, glyph.mcid)


# Hidden text (core.text.hidden) glyph by glyph, as before it ran over arrays.


def hidden_glyphs(
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, tuple[float, float, float, float] | None]],
    dropped: Sequence[DroppedGlyph],
    rules: Rules,
    no_ink: Collection[int] = (),
) -> tuple[hidden.HiddenGlyph, ...]:
    outside = {d.index for d in dropped if d.reason == hidden.HiddenReason.OUTSIDE_VISIBLE_BOX}
    duplicates = {d.index for d in dropped if d.reason != hidden.HiddenReason.OUTSIDE_VISIBLE_BOX}
    starts = [start for start, _ in clips]
    found: list[hidden.HiddenGlyph] = []
    for index, glyph in enumerate(glyphs):
        if index in duplicates or (glyph.text and is_whitespace_text(glyph.text)):
            continue
        reasons = []
        if glyph.render_mode in (3, 7):
            reasons.append(hidden.HiddenReason.INVISIBLE_RENDER_MODE)
        slot = bisect.bisect_right(starts, index) - 1
        clip = clips[slot][1] if slot >= 0 else None
        if clip is not None:
            x, y = quad_centre(glyph.quad)
            if not (clip[0] <= x <= clip[2] and clip[1] <= y <= clip[3]):
                reasons.append(hidden.HiddenReason.CLIPPED)
        if index in no_ink:
            reasons.append(hidden.HiddenReason.NO_INK)
        if quad_height(glyph.quad) < rules.hidden_tiny_height:
            reasons.append(hidden.HiddenReason.TINY)
        if index in outside:
            reasons.append(hidden.HiddenReason.OUTSIDE_VISIBLE_BOX)
        if reasons:
            found.append(hidden.HiddenGlyph(index, tuple(reasons)))
    return tuple(found)
