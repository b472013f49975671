"""Overlay layers for the reader-facing text decisions of issue 12: right-to-left runs,
merged accents, ActualText spans, annotation glyphs and hidden text with its reasons.

Each draws records that core.analysis.PageAnalysis already holds (`reading_bidi`, `accents`,
`replacements`, `annotations`, `hidden`); nothing here decides anything.
"""

from __future__ import annotations

import numpy as np

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_base import (
    PALETTE,
    LegendEntry,
    OverlayLayer,
    filled_quads,
    on_page,
)
from glyphscope.widgets.overlay_layers import LAYER_TYPES
from glyphscope.widgets.overlay_shapes import Stroke, quads_shape, rects_shape, segments_shape

RTL_REORDERED = "#c2185b"
RTL_LOGICAL = "#00897b"
ACCENT_COLOUR = "#f57c00"
BASE_COLOUR = "#1565c0"
ACTUAL_TEXT_COLOUR = "#7b4fd6"
ANNOTATION_COLOUR = "#2e7d32"
# One colour per hidden-text reason (core.text.hidden.REASONS), the first reason wins.
HIDDEN_COLOURS = {
    "invisible_render_mode": "#d50000",
    "clipped": "#6a1b9a",
    "no_ink": "#ff6d00",
    "tiny": "#0091ea",
    "outside_visible_box": "#757575",
}


def _bounds(model: PageModel, indices) -> tuple[float, float, float, float] | None:
    chosen = on_page(model, indices)
    if not chosen:
        return None
    bounds = model.grid.bounds[chosen]
    return (
        float(bounds[:, 0].min()),
        float(bounds[:, 1].min()),
        float(bounds[:, 2].max()),
        float(bounds[:, 3].max()),
    )


def _analysis_field(model: PageModel, name: str) -> tuple:
    return tuple(getattr(model.analysis, name, ()) or ())


class BidiRunsLayer(OverlayLayer):
    layer_id = "bidi_runs"
    title = "Right-to-left runs"
    tip = (
        "Runs of reading-order lines holding right-to-left text (UAX #9): magenta when the "
        "line was painted in visual order and reordered, teal when already logical."
    )
    z = 40.0

    def _runs(self, model: PageModel):
        for run in _analysis_field(model, "reading_bidi"):
            if run.direction != "rtl":
                continue
            box = _bounds(model, run.glyphs)
            if box is not None:
                yield run, box

    def strokes(self, model: PageModel) -> list[Stroke]:
        strokes = []
        for reordered, colour in ((True, RTL_REORDERED), (False, RTL_LOGICAL)):
            boxes = [box for run, box in self._runs(model) if run.reordered == reordered]
            if boxes:
                strokes.append(Stroke(rects_shape(boxes), colour, 1.0, fill_alpha=30))
        return strokes

    def labels(self, model: PageModel):
        return [
            (box[2], box[3], "← RTL" if run.reordered else "← RTL (logical)", RTL_REORDERED)
            for run, box in self._runs(model)
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("RTL run, reordered to logical", RTL_REORDERED, "box"),
            LegendEntry("RTL run, painted in logical order", RTL_LOGICAL, "box"),
        ]


class AccentsLayer(OverlayLayer):
    layer_id = "accents"
    title = "Merged accents"
    tip = "Spacing accents merged into the base letter below them: accent → base, composed text."
    z = 42.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        merges = [m for m in _analysis_field(model, "accents") if m.accent < model.count]
        if not merges:
            return []
        accents = np.asarray([m.accent for m in merges])
        bases = np.asarray([m.base for m in merges])
        centres = model.grid.centres
        return [
            *filled_quads(model, accents, ACCENT_COLOUR, 90),
            Stroke(quads_shape(model.quads[bases]), BASE_COLOUR, 1.0),
            Stroke(segments_shape(centres[accents], centres[bases]), ACCENT_COLOUR, 2.0),
        ]

    def labels(self, model: PageModel):
        return [
            (*model.quads[m.base][3].tolist(), m.text, BASE_COLOUR)
            for m in _analysis_field(model, "accents")
            if m.base < model.count
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("accent glyph → its base", ACCENT_COLOUR),
            LegendEntry("base letter (writes the composed text)", BASE_COLOUR, "box"),
        ]


class ActualTextLayer(OverlayLayer):
    layer_id = "actual_text"
    title = "ActualText spans"
    tip = "Marked content with /ActualText (§14.9.4) or /E: the glyphs and the text read instead."
    z = 44.0

    def _spans(self, model: PageModel):
        for replacement in _analysis_field(model, "replacements"):
            box = _bounds(model, replacement.glyphs)
            if box is not None:
                yield replacement, box

    def strokes(self, model: PageModel) -> list[Stroke]:
        boxes = [box for _, box in self._spans(model)]
        if not boxes:
            return []
        return [Stroke(rects_shape(boxes), ACTUAL_TEXT_COLOUR, 1.0, fill_alpha=35, dash=True)]

    def labels(self, model: PageModel):
        return [
            (box[0], box[3], f"“{r.text}”" if r.text else "(empty)", ACTUAL_TEXT_COLOUR)
            for r, box in self._spans(model)
        ]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("glyphs read as their ActualText", ACTUAL_TEXT_COLOUR, "dash")]


class AnnotationGlyphsLayer(OverlayLayer):
    layer_id = "annotation_glyphs"
    title = "Annotation glyphs"
    tip = (
        "Glyphs of annotation and form-field appearances (§12.5.5), read after the page "
        "content when annotations are on (View › Read annotations)."
    )
    z = 36.0

    def _spans(self, model: PageModel):
        for span in _analysis_field(model, "annotations"):
            indices = range(span.start, min(span.end, model.count))
            if len(indices):
                yield span, np.asarray(indices)

    def strokes(self, model: PageModel) -> list[Stroke]:
        strokes = []
        for number, (_span, indices) in enumerate(self._spans(model)):
            strokes += filled_quads(model, indices, PALETTE[number % len(PALETTE)], 60)
        return strokes

    def labels(self, model: PageModel):
        return [
            (*model.quads[int(indices[0])][0].tolist(), f"{span.subtype} #{span.object_number}",
             ANNOTATION_COLOUR)
            for span, indices in self._spans(model)
        ]  # fmt: skip

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("glyph of an annotation appearance", ANNOTATION_COLOUR)]


class HiddenTextLayer(OverlayLayer):
    layer_id = "hidden_text"
    title = "Hidden text"
    tip = (
        "Glyphs a reader cannot see, coloured by the first reason: render mode 3/7, clipped, "
        "no ink on the rendered page, tiny, outside the visible box."
    )
    z = 65.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        by_reason: dict[str, list[int]] = {}
        for item in _analysis_field(model, "hidden"):
            if item.glyph < model.count:
                by_reason.setdefault(item.reasons[0], []).append(item.glyph)
        strokes = []
        for reason, indices in by_reason.items():
            colour = HIDDEN_COLOURS.get(reason, PALETTE[0])
            strokes += filled_quads(model, np.asarray(indices), colour, 110, dash=True)
        return strokes

    def labels(self, model: PageModel):
        labels = []
        previous: tuple[str, ...] = ()
        for item in _analysis_field(model, "hidden"):
            if item.glyph < model.count and item.reasons != previous:
                colour = HIDDEN_COLOURS.get(item.reasons[0], PALETTE[0])
                quad = model.quads[item.glyph]
                labels.append((*quad[3].tolist(), ", ".join(item.reasons), colour))
            previous = item.reasons
        return labels

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry(reason, colour, "dash") for reason, colour in HIDDEN_COLOURS.items()]


TEXT_LAYER_TYPES: list[type[OverlayLayer]] = [
    BidiRunsLayer,
    AccentsLayer,
    ActualTextLayer,
    AnnotationGlyphsLayer,
    HiddenTextLayer,
]

# Every layer the inspector builds: the engine-decision layers, then these.
ALL_LAYER_TYPES: list[type[OverlayLayer]] = [*LAYER_TYPES, *TEXT_LAYER_TYPES]
