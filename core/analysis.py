"""One page analysed end to end, every decision kept: the record the inspector draws and
`glyphscope-extract --mode explain` prints (shape: analysis_json, from core.serialize's records;
documented in the README).

painted glyphs (core.interpret.interpreter) → visible glyphs (§4 box, §5 duplicates) → reading order
(§6), layout (§7), columns (§8), structure order (§9, glyphscope.core.structure.order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from glyphscope.core.geometry import Rect
from glyphscope.core.interpret.annotations import AnnotationSpan
from glyphscope.core.interpret.interpreter import PageExtraction, extract_page
from glyphscope.core.jsontext import dumps
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import (
    DecisionJson,
    GlyphJson,
    Listing,
    bidi_json,
    columns_json,
    dropped_json,
    ink_json,
    json_rows,
    layout_json,
    listed,
    rules_json,
    structure_json,
    text_json,
    vertical_column_json,
)
from glyphscope.core.stages import guarded, without_bidi
from glyphscope.core.structure.order import NoStructure, StructureResult, structure_outcome
from glyphscope.core.text.accents import AccentMerge
from glyphscope.core.text.bidi import BidiRun
from glyphscope.core.text.columns import ColumnsResult, columns_text
from glyphscope.core.text.hidden import Clip, HiddenGlyph, hidden_glyphs
from glyphscope.core.text.ink import InkTest, page_hidden
from glyphscope.core.text.layout import LayoutResult, layout_with_arrays
from glyphscope.core.text.packed import (
    pack_dropped,
    pack_gaps,
    pack_glyphs,
    pack_line_breaks,
    unpack,
)
from glyphscope.core.text.prepared import PreparedGlyphs, Replacement, prepare_glyphs
from glyphscope.core.text.reading import (
    GapDecision,
    LineBreakDecision,
    ReadingResult,
    TextResult,
    VerticalColumn,
    reading_order,
)
from glyphscope.core.text.visible import DroppedGlyph, VisibleResult, visible_glyphs

if TYPE_CHECKING:
    from glyphscope.core.pdf.document import PdfPage


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    page_number: int
    # The interpreter's GlyphColumns (a Sequence[Glyph]: records made on demand).
    glyphs: Sequence[Glyph]
    visible: tuple[int, ...]
    dropped: tuple[DroppedGlyph, ...]
    # core.text.decisions' GapColumns and LineBreakColumns (Sequences of the records, made
    # on demand; the log is written from their arrays).
    gaps: Sequence[GapDecision]
    line_breaks: Sequence[LineBreakDecision]
    vertical_columns: tuple[VerticalColumn, ...]
    reading: TextResult
    layout: TextResult
    columns: ColumnsResult
    structure: StructureResult | None
    media_box: Rect
    crop_box: Rect
    visible_box: Rect
    readable: bool
    truncated: bool
    warnings: tuple[str, ...]
    rules: Rules
    layout_grid: LayoutResult
    # Why `structure` is None (spec §9 "no result"): "" when there is a structure order.
    structure_reason: str = ""
    # Beyond the spec (issue 12, core.text.prepared and core.text.bidi): replacement text
    # read, accents merged, and the level runs of right-to-left lines in reading and layout.
    replacements: tuple[Replacement, ...] = ()
    accents: tuple[AccentMerge, ...] = ()
    reading_bidi: tuple[BidiRun, ...] = ()
    layout_bidi: tuple[BidiRun, ...] = ()
    # With rules.annotations: glyph ranges [start, end) painted by annotation appearances.
    annotations: tuple[AnnotationSpan, ...] = ()
    # Glyphs a reader cannot see, with reasons (core.text.hidden); no_ink only when the
    # pixel test ran (`ink`, its cost in `ink.seconds`).
    hidden: tuple[HiddenGlyph, ...] = ()
    ink: InkTest | None = None
    # The clipping box in force per glyph range (core.interpret.clipping), for re-deriving
    # `hidden` once a pixel test run elsewhere (the inspector's render thread) has answered.
    clips: tuple[tuple[int, Clip], ...] = ()

    def __reduce__(self) -> tuple[Callable[[dict], PageAnalysis], tuple[dict]]:
        # The inspector sends analyses between processes: the per-glyph and per-decision
        # records travel as columns (core.text.packed), not as one pickled object each.
        values = {name: getattr(self, name) for name in _FIELD_NAMES}
        for name, pack in _PACKERS.items():
            values[name] = pack(values[name])
        return (_restore_analysis, (values,))

    def with_ink(self, ink: InkTest) -> PageAnalysis:
        """A copy whose hidden glyphs include the `no_ink` answers of `ink`."""
        hidden = hidden_glyphs(self.glyphs, self.clips, self.dropped, self.rules, ink.no_ink)
        return replace(self, hidden=hidden, ink=ink)

    def to_json(self) -> dict:
        """The decision log of the page (shape: analysis_json)."""
        return self.decision_log()

    def decision_log(self, sequence: Listing = listed) -> dict:
        """analysis_json(self, sequence) under the stage guard: a log that cannot be made is
        the page's number, warnings (the failure named) and texts."""
        warnings = list(self.warnings)
        return guarded(
            "decision log",
            warnings,
            lambda: analysis_json(self, sequence),
            lambda: {
                "page": self.page_number,
                "readable": self.readable,
                "truncated": self.truncated,
                "warnings": warnings,
                "reading": {"text": self.reading.text},
                "layout": {"text": self.layout.text},
                "columns": {"text": self.columns.text.text},
            },
        )

    def to_json_text(self, indent: bool = False) -> str:
        """The decision log as strict JSON text (core.jsontext: orjson's spelling, nan and
        ±inf as null), written from the glyph and decision columns without their
        dictionaries; `indent`: two spaces a level."""
        return dumps(self.decision_log(json_rows), indent).decode("utf-8")


def analysis_json(analysis: PageAnalysis, sequence: Listing = listed) -> dict:
    """One page's decision log: every stage, every decision with its numbers. `sequence`
    makes the lists that grow with the glyph count (json_rows for core.jsontext, which writes
    the glyphs and decisions from their columns). Its record shapes are core.serialize's."""
    number = analysis.page_number
    glyphs = analysis.glyphs
    structure = analysis.structure
    return {
        "page": number,
        "readable": analysis.readable,
        "truncated": analysis.truncated,
        "warnings": list(analysis.warnings),
        "media_box": list(analysis.media_box),
        "crop_box": list(analysis.crop_box),
        "visible_box": list(analysis.visible_box),
        "rules": rules_json(analysis.rules),
        "glyphs": sequence(GlyphJson(glyphs, number, indexed=True)),
        "visible": sequence(analysis.visible),
        "dropped": sequence(analysis.dropped, dropped_json),
        "gaps": sequence(DecisionJson(analysis.gaps)),
        "line_breaks": sequence(DecisionJson(analysis.line_breaks)),
        "vertical_columns": [vertical_column_json(c) for c in analysis.vertical_columns],
        "reading": text_json(analysis.reading, sequence),
        "layout": layout_json(analysis.layout, analysis.layout_grid, sequence),
        "columns": columns_json(analysis.columns, sequence),
        "structure": None if structure is None else structure_json(structure, sequence),
        "structure_reason": analysis.structure_reason,
        # Beyond the spec (issue 12): see the README's "Beyond the spec".
        "replacements": [
            {**r._asdict(), "glyphs": list(r.glyphs), "span": list(r.span)}
            for r in analysis.replacements
        ],
        "accents": [merge._asdict() for merge in analysis.accents],
        "annotations": [span._asdict() for span in analysis.annotations],
        "hidden": [
            {"index": item.glyph, "reasons": list(item.reasons)} for item in analysis.hidden
        ],
        "ink_test": None if analysis.ink is None else ink_json(analysis.ink),
        "bidi": {
            "reading": [bidi_json(run) for run in analysis.reading_bidi],
            "layout": [bidi_json(run) for run in analysis.layout_bidi],
        },
    }


_FIELD_NAMES = tuple(field.name for field in fields(PageAnalysis))
_PACKERS: dict[str, Callable[[Any], object]] = {
    "glyphs": pack_glyphs,
    "dropped": pack_dropped,
    "gaps": pack_gaps,
    "line_breaks": pack_line_breaks,
}


def _restore_analysis(values: dict) -> PageAnalysis:
    for name in _PACKERS:
        values[name] = unpack(values[name])
    return PageAnalysis(**values)


def analyse_page(page: PdfPage, rules: Rules, *, ink: bool = False) -> PageAnalysis:
    """Analyse a page with the given rules: every stage, with its decisions. `ink` runs the
    hidden-text pixel test (two pdfium renders; core.text.ink)."""
    return finish_analysis(read_page(page, rules, ink=ink))


@dataclass(frozen=True, slots=True)
class ReadPage:
    """A page analysed up to its reading order (§4 box, §5 duplicates, §6 reading order, and
    the hidden glyphs): what `finish_analysis` completes with layout, columns and structure.
    Split out so the inspector can draw a page's glyphs and decisions before its other text
    modes are ready."""

    page: PdfPage
    rules: Rules
    extraction: PageExtraction
    visible: VisibleResult
    hidden: tuple[HiddenGlyph, ...]
    ink: InkTest | None
    prepared: PreparedGlyphs
    reading: ReadingResult
    warnings: tuple[str, ...]


def read_page(page: PdfPage, rules: Rules, *, ink: bool = False) -> ReadPage:
    """The stages of `analyse_page` up to the reading order."""
    extraction = extract_page(page, rules)
    # The interpreter's columns themselves: each stage reads records (or arrays) from them.
    glyphs = extraction.glyphs
    warnings = list(extraction.warnings)
    visible = visible_glyphs(glyphs, page.visible_box, rules)
    hidden, ink_test = page_hidden(
        page, glyphs, extraction.clips, visible, rules, ink=ink, warnings=warnings
    )
    prepared = guarded(
        "replacement text and accents",
        warnings,
        lambda: prepare_glyphs(glyphs, visible.visible, extraction.replacements, rules),
        lambda: PreparedGlyphs(glyphs, visible.visible),
    )
    reading = guarded(
        "bidi",
        warnings,
        lambda: reading_order(prepared.glyphs, prepared.order, rules),
        lambda: reading_order(prepared.glyphs, prepared.order, without_bidi(rules)),
    )
    return ReadPage(
        page, rules, extraction, visible, hidden, ink_test, prepared, reading, tuple(warnings)
    )


# The PageAnalysis fields that finish_analysis(text_modes=False) leaves empty and the complete
# analysis fills in: what the inspector sends once a page's reading stages are drawn.
TEXT_MODE_FIELDS = (
    "layout",
    "columns",
    "structure",
    "structure_reason",
    "layout_grid",
    "layout_bidi",
    "warnings",
)


def finish_analysis(read: ReadPage, *, text_modes: bool = True) -> PageAnalysis:
    """The page's analysis from its reading stages. With `text_modes` False the layout,
    columns and structure stages are left out (empty texts, no structure order, the reason
    saying so): a partial analysis for drawing the reading stages first, never to print."""
    page, rules, extraction, prepared = read.page, read.rules, read.extraction, read.prepared
    text_glyphs, text_order = prepared.glyphs, prepared.order
    reading = read.reading
    warnings = list(read.warnings)
    if text_modes:
        grid, grid_arrays = guarded(
            "layout grid",
            warnings,
            lambda: guarded(
                "bidi",
                warnings,
                lambda: layout_with_arrays(text_glyphs, text_order, rules),
                lambda: layout_with_arrays(text_glyphs, text_order, without_bidi(rules)),
            ),
            lambda: (LayoutResult(reading.text, 0, 0.0, 0.0, 0.0, (), ()), None),
        )
        warnings.extend(grid.capped)
        columns = guarded(
            "columns",
            warnings,
            lambda: columns_text(
                text_glyphs,
                text_order,
                rules,
                grid=grid if grid_arrays is not None else None,
                reading=reading.text,
                arrays=grid_arrays,
            ),
            lambda: ColumnsResult(reading.text, ()),
        )
        structure_result, structure_reason = None, "the page has no readable content stream"
        if extraction.readable:
            structure_result, structure_reason = _structure(
                page, text_glyphs, text_order, rules, warnings
            )
    else:
        empty = TextResult("", ())
        grid = LayoutResult(empty, 0, 0.0, 0.0, 0.0, (), ())
        columns = ColumnsResult(empty, ())
        structure_result, structure_reason = None, "not analysed yet"
    return PageAnalysis(
        page_number=page.number,
        glyphs=extraction.glyphs,
        visible=read.visible.visible,
        dropped=read.visible.dropped,
        gaps=reading.gaps,
        line_breaks=reading.line_breaks,
        vertical_columns=reading.vertical_columns,
        reading=reading.text,
        layout=grid.text,
        columns=columns,
        structure=structure_result,
        structure_reason=structure_reason,
        media_box=page.media_box,
        crop_box=page.crop_box,
        visible_box=page.visible_box,
        readable=extraction.readable,
        truncated=extraction.truncated,
        warnings=tuple(warnings),
        rules=rules,
        layout_grid=grid,
        replacements=prepared.replacements,
        accents=prepared.accents,
        reading_bidi=reading.bidi_runs,
        layout_bidi=grid.bidi_runs,
        annotations=extraction.annotations,
        hidden=read.hidden,
        ink=read.ink,
        clips=extraction.clips,
    )


def _structure(
    page: PdfPage,
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
    warnings: list[str],
) -> tuple[StructureResult | None, str]:
    """The structure order and "", or None and why there is none (spec §9)."""
    failed = len(warnings)
    outcome = guarded(
        "structure order",
        warnings,
        lambda: structure_outcome(page, glyphs, visible, rules),
        lambda: None,
    )
    if outcome is None:
        return None, warnings[failed]
    if isinstance(outcome, NoStructure):
        return None, outcome.reason
    return outcome, ""
