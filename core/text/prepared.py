"""The glyphs every text mode reads, after replacement text and accent merging.

Between the visible glyphs (§4, §5) and the text assemblers sit two steps that change what a
glyph writes without changing what was painted:
- marked content with /ActualText (§14.9.4), or /E (§14.9.5) when `rules.use_expansion`:
  the span's first visible glyph writes the replacement and stands, for geometry, for the
  span's glyphs on its line; the span's other glyphs write nothing. Nested spans are read by
  their outermost replacement. An empty replacement removes the span's glyphs from the text;
- spacing accents merged into their base letters (core.text.accents).

The result keeps the glyphs' length and indices: a glyph whose text changed is a copy of its
record with the new text (decode source "actual_text" for replacements), so char_glyphs still
index `PageAnalysis.glyphs`, which keeps the records as painted. A page where nothing changed
is handed on as it came (GlyphColumns stay columns, records are not copied); one where some
glyphs changed is a copy of the same kind with those rows replaced.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from glyphscope.core.geometry import quad_height, writing_direction
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret.marked_content import ReplacementSpan
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.accents import AccentMerge, merge_accents
from glyphscope.core.text.arrays import few_records

ACTUAL_TEXT = "actual_text"
EXPANSION = "expansion"


class Replacement(NamedTuple):
    """One replacement read: `glyphs` the span's visible glyphs in reading order (the first
    writes `text`), `source` ACTUAL_TEXT or EXPANSION, `span` the painted range [start, end)."""

    glyphs: tuple[int, ...]
    text: str
    source: str
    span: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PreparedGlyphs:
    glyphs: Sequence[Glyph]
    order: tuple[int, ...]
    replacements: tuple[Replacement, ...] = ()
    accents: tuple[AccentMerge, ...] = ()


def prepare_glyphs(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    spans: Sequence[ReplacementSpan],
    rules: Rules,
) -> PreparedGlyphs:
    """The glyphs and order the text assemblers read (see the module docstring)."""
    texts: dict[int, str] = {}
    extents: dict[int, int] = {}
    replacements = _read_replacements(glyphs, order, spans, rules, texts, extents)
    order, accents = merge_accents(glyphs, _without_folded(order, replacements), texts, rules)
    return _prepared(glyphs, order, texts, extents, replacements, accents)


def _read_replacements(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    spans: Sequence[ReplacementSpan],
    rules: Rules,
    texts: dict[int, str],
    extents: dict[int, int],
) -> list[Replacement]:
    chosen: list[tuple[ReplacementSpan, str, str]] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if rules.use_expansion and span.expansion is not None:
            text, source = span.expansion, EXPANSION
        elif span.actual_text is not None:
            text, source = span.actual_text, ACTUAL_TEXT
        else:
            continue
        if chosen and span.end <= chosen[-1][0].end and span.start < chosen[-1][0].end:
            continue  # inside an outer replacement, which stands for it (§14.9.4)
        if span.end > span.start:
            chosen.append((span, text, source))
    if not chosen:
        return []
    position = {index: place for place, index in enumerate(order)}
    groups = [
        (
            sorted(
                (i for i in range(span.start, span.end) if i in position),
                key=position.__getitem__,
            ),
            text,
            source,
            (span.start, span.end),
        )
        for span, text, source in chosen
    ]
    return _replace(glyphs, order, position, groups, rules, texts, extents)


def replace_groups(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    groups: Sequence[tuple[list[int], str, str, tuple[int, int]]],
    rules: Rules,
) -> PreparedGlyphs:
    """Replacement text for groups of glyphs in `order` (members in order, text, source, the
    range it came from): a structure element's /ActualText in structure order (§14.9.4)."""
    texts: dict[int, str] = {}
    extents: dict[int, int] = {}
    position = {index: place for place, index in enumerate(order)}
    replacements = _replace(glyphs, order, position, groups, rules, texts, extents)
    return _prepared(glyphs, _without_folded(order, replacements), texts, extents, replacements)


def _replace(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    position: dict[int, int],
    groups: Sequence[tuple[list[int], str, str, tuple[int, int]]],
    rules: Rules,
    texts: dict[int, str],
    extents: dict[int, int],
) -> list[Replacement]:
    replacements: list[Replacement] = []
    for members, text, source, span in groups:
        if not members:
            continue
        first = members[0]
        last = _last_on_line(glyphs, first, members, rules)
        if text:
            texts[first], extents[first] = text, last
        else:
            # Nothing written: the glyph before the span, when on its line, reaches over it,
            # so the span's width is no word gap ("co-op" with an empty hyphen is "coop").
            before = order[position[first] - 1] if position[first] else -1
            if before >= 0 and _last_on_line(glyphs, before, [before, first], rules) == first:
                texts.setdefault(before, few_records(glyphs)[before].text)
                extents[before] = last
        replacements.append(Replacement(tuple(members), text, source, span))
    return replacements


def _without_folded(order: Sequence[int], replacements: Sequence[Replacement]) -> list[int]:
    if not replacements:
        return list(order)
    folded = {index for r in replacements for index in r.glyphs[1:]}
    folded |= {r.glyphs[0] for r in replacements if r.text == ""}
    return [index for index in order if index not in folded]


def _prepared(
    glyphs: Sequence[Glyph],
    order: Sequence[int],
    texts: dict[int, str],
    extents: dict[int, int],
    replacements: Sequence[Replacement],
    accents: Sequence[AccentMerge] = (),
) -> PreparedGlyphs:
    if not texts:
        return PreparedGlyphs(glyphs, tuple(order), tuple(replacements), tuple(accents))
    replaced = {r.glyphs[0]: r.source for r in replacements}
    records = few_records(glyphs)
    changed: dict[int, Glyph] = {}
    for index, text in texts.items():
        glyph = records[index]
        last = records[extents.get(index, index)]
        changed[index] = glyph._replace(
            text=text,
            decode_source=replaced.get(index, glyph.decode_source),
            glyph_end=last.glyph_end,
            baseline_end=last.baseline_end,
            quad=(glyph.quad[0], last.quad[1], last.quad[2], glyph.quad[3]),
        )
    prepared: Sequence[Glyph]
    if isinstance(glyphs, GlyphColumns):
        prepared = glyphs.with_records(changed)
    else:
        records = list(glyphs)
        for index, glyph in changed.items():
            records[index] = glyph
        prepared = tuple(records)
    return PreparedGlyphs(prepared, tuple(order), tuple(replacements), tuple(accents))


def _last_on_line(glyphs: Sequence[Glyph], first: int, members: list[int], rules: Rules) -> int:
    """The last member on the first member's line (spec §6 line-break rule), whose end the
    replacement takes so the next word gap is measured from the span's end."""
    ux, uy = writing_direction(few_records(glyphs)[first])
    x0, y0, height, mode = _line_geometry(glyphs, first)
    last = first
    for index in members[1:]:
        x1, y1, other_height, other_mode = _line_geometry(glyphs, index)
        across = (y1 - y0) * ux - (x1 - x0) * uy
        along = (x1 - x0) * ux + (y1 - y0) * uy
        limit = rules.line_break_ratio * max(height, other_height)
        if other_mode != mode or abs(across) > limit:
            break
        if along >= 0:
            last = index
    return last


def _line_geometry(glyphs: Sequence[Glyph], index: int) -> tuple[float, float, float, int]:
    """(origin x, origin y, quad height, writing mode) of one glyph, read from its row of
    the columns: a record would list every column of the page (GlyphColumns.record)."""
    if isinstance(glyphs, GlyphColumns):
        x, y = glyphs.origin[index].tolist()
        height = quad_height(glyphs.quad[index].tolist())
        return x, y, height, int(glyphs.writing_mode[index])
    glyph = glyphs[index]
    return glyph.origin[0], glyph.origin[1], quad_height(glyph.quad), glyph.writing_mode
