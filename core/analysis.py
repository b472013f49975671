"""One page analysed end to end, every decision kept: the record the inspector draws and
`glyphscope-extract --mode explain` prints (shape: core.serialize, documented in the README).

painted glyphs (core.interpret.interpreter) → visible glyphs (§4 box, §5 duplicates) → reading order
(§6), layout (§7), columns (§8), structure order (§9, glyphscope.core.structure.order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from glyphscope.core.interpret.interpreter import extract_page
from glyphscope.core.records import Glyph, LazyJsonList, finite_json
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import analysis_json
from glyphscope.core.structure.order import NoStructure, StructureResult, structure_outcome
from glyphscope.core.text.columns import ColumnsResult, columns_text
from glyphscope.core.text.layout import LayoutResult, layout
from glyphscope.core.text.reading import (
    GapDecision,
    LineBreakDecision,
    TextResult,
    VerticalColumn,
    reading_order,
)
from glyphscope.core.text.visible import DroppedGlyph, visible_glyphs

if TYPE_CHECKING:
    from glyphscope.core.pdf.document import PdfPage

Rect = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class PageAnalysis:
    page_number: int
    glyphs: tuple[Glyph, ...]
    visible: tuple[int, ...]
    dropped: tuple[DroppedGlyph, ...]
    gaps: tuple[GapDecision, ...]
    line_breaks: tuple[LineBreakDecision, ...]
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

    def to_json(self) -> dict:
        """The decision log of the page (shape: core.serialize.analysis_json)."""
        return analysis_json(self)

    def streamed_json(self) -> dict:
        """The same record for a streaming writer: every list that grows with the glyph count
        is a LazyJsonList, converted item by item as it is written, and non-finite numbers
        are null (finite_json), so `json` can write it with allow_nan=False."""
        return finite_json(analysis_json(self, LazyJsonList))  # type: ignore[return-value]


def analyse_page(page: PdfPage, rules: Rules) -> PageAnalysis:
    """Analyse a page with the given rules: every stage, with its decisions."""
    extraction = extract_page(page, rules)
    glyphs = tuple(extraction.glyphs) if extraction.readable else ()
    warnings = list(extraction.warnings)
    visible = visible_glyphs(glyphs, page.visible_box, rules)
    reading = reading_order(glyphs, visible.visible, rules)
    grid = layout(glyphs, visible.visible, rules)
    warnings.extend(grid.capped)
    warnings.extend(grid.capped)
    structure_result, structure_reason = None, "the page has no readable content stream"
    if extraction.readable:
        structure_result, structure_reason = _structure(
            page, glyphs, visible.visible, rules, warnings
        )
    return PageAnalysis(
        page_number=page.number,
        glyphs=glyphs,
        visible=visible.visible,
        dropped=visible.dropped,
        gaps=reading.gaps,
        line_breaks=reading.line_breaks,
        vertical_columns=reading.vertical_columns,
        reading=reading.text,
        layout=grid.text,
        columns=columns_text(glyphs, visible.visible, rules, grid=grid, reading=reading.text),
        structure=structure_result,
        structure_reason=structure_reason,
        media_box=tuple(page.media_box),
        crop_box=tuple(page.crop_box),
        visible_box=tuple(page.visible_box),
        readable=extraction.readable,
        truncated=extraction.truncated,
        warnings=tuple(warnings),
        rules=rules,
        layout_grid=grid,
    )


def _structure(
    page: PdfPage,
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
    warnings: list[str],
) -> tuple[StructureResult | None, str]:
    """The structure order and "", or None and why there is none (spec §9)."""
    try:
        outcome = structure_outcome(page, glyphs, visible, rules)
    except Exception as exc:  # a damaged structure tree must not cost the page its text
        warnings.append(f"structure order failed: {type(exc).__name__}: {exc}")
        return None, f"structure order failed: {exc}"
    if isinstance(outcome, NoStructure):
        return None, outcome.reason
    return outcome, ""
