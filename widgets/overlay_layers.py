"""The overlay layers of the page view, one per decision the engine records (spec §1–§9).

`LAYER_TYPES` is the registry: the Layers panel lists it in order, settings persist it by
`layer_id`, and a later panel adds a layer by appending a subclass of `OverlayLayer`.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from core.records import DecodeSource
from widgets.overlay_base import (
    PALETTE,
    LegendEntry,
    OverlayLayer,
    Stroke,
    quads_path,
    rect_path,
    segments_path,
)
from widgets.page_model import DUPLICATE, OUTSIDE_VISIBLE_BOX, PageModel
from widgets.qt_paths import path_from_polyline, path_from_rects

DECODE_SOURCE_COLOURS = {
    DecodeSource.TO_UNICODE.value: "#2e8b57",
    DecodeSource.ENCODING_CMAP.value: "#1f77b4",
    DecodeSource.DIFFERENCES.value: "#17becf",
    DecodeSource.PREDEFINED_CMAP.value: "#9467bd",
    DecodeSource.BUILTIN_ENCODING.value: "#ff7f0e",
    DecodeSource.FONT_PROGRAM.value: "#8c564b",
    DecodeSource.UNRESOLVED.value: "#d62728",
}

COLOUR_BY = ("decode source", "font", "MCID", "form depth")

SPACE_COLOUR = "#00a651"
NO_SPACE_COLOUR = "#8a8a8a"
# Reasons the gap rule gave for not inserting a space; unknown reasons get palette colours.
REASON_COLOURS = {
    "below_threshold": NO_SPACE_COLOUR,
    "blank_side": "#1f77b4",
    "cjk_pair": "#9467bd",
    "negative_gap": "#e377c2",
}


def _palette(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


class GlyphQuadsLayer(OverlayLayer):
    layer_id = "glyphs"
    title = "Glyph quads"
    tip = "Every painted glyph's ascent-to-descent box (spec §3), coloured by the chosen key."
    z = 10.0

    def __init__(self) -> None:
        super().__init__()
        self.colour_by = COLOUR_BY[0]
        self._legend: list[LegendEntry] = []

    def set_colour_by(self, key: str) -> None:
        if key in COLOUR_BY and key != self.colour_by:
            self.colour_by = key
            self.invalidate()

    def _categories(self, model: PageModel) -> tuple[list[str], dict[str, str]]:
        glyphs = model.glyphs
        if self.colour_by == "font":
            keys = [f"{g.font_key} {g.font_name}".strip() for g in glyphs]
            colours = {k: _palette(i) for i, k in enumerate(sorted(set(keys)))}
        elif self.colour_by == "MCID":
            keys = ["no MCID" if g.mcid is None else f"MCID {g.mcid}" for g in glyphs]
            ordered = sorted(set(keys), key=lambda k: (k == "no MCID", len(k), k))
            colours = {
                k: ("#7f7f7f" if k == "no MCID" else _palette(i)) for i, k in enumerate(ordered)
            }
        elif self.colour_by == "form depth":
            keys = [
                "page stream" if g.form_depth == 0 else f"form depth {g.form_depth}" for g in glyphs
            ]
            colours = {k: _palette(i) for i, k in enumerate(sorted(set(keys)))}
        else:
            keys = [g.decode_source for g in glyphs]
            colours = {k: DECODE_SOURCE_COLOURS.get(k, "#7f7f7f") for k in sorted(set(keys))}
        return keys, colours

    def strokes(self, model: PageModel) -> list[Stroke]:
        keys, colours = self._categories(model)
        groups: dict[str, list[int]] = defaultdict(list)
        for index, key in enumerate(keys):
            groups[key].append(index)
        self._legend = [LegendEntry(key, colours[key]) for key in colours]
        return [
            Stroke(quads_path(model.quads[indices]), colours[key], 1.0, fill_alpha=40)
            for key, indices in groups.items()
        ]

    def legend(self) -> list[LegendEntry]:
        if not self._legend:
            return [LegendEntry(k, c) for k, c in DECODE_SOURCE_COLOURS.items()]
        return self._legend

    def legend_for(self, model: PageModel | None) -> list[LegendEntry]:
        if model is None:
            return self.legend()
        _keys, colours = self._categories(model)
        return [LegendEntry(key, colours[key]) for key in colours]


class BaselinesLayer(OverlayLayer):
    layer_id = "baselines"
    title = "Baselines and reading order"
    tip = "Origin → glyph end of each visible glyph, and the path through them in reading order."
    z = 20.0
    default_on = False

    def strokes(self, model: PageModel) -> list[Stroke]:
        visible = [i for i, s in enumerate(model.status) if s == "visible"]
        origins = np.asarray([model.glyphs[i].origin for i in visible]).reshape(-1, 2)
        ends = np.asarray([model.glyphs[i].glyph_end for i in visible]).reshape(-1, 2)
        order = [i for i in model.reading_order if 0 <= i < model.count]
        path = path_from_polyline(model.grid.centres[order])
        return [
            Stroke(segments_path(origins, ends), "#0050d0", 1.0),
            Stroke(path, "#ff8c00", 1.0, line_alpha=150),
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("baseline (origin → glyph end)", "#0050d0", "line"),
            LegendEntry("reading-order path", "#ff8c00", "line"),
        ]


class WordGapsLayer(OverlayLayer):
    layer_id = "gaps"
    title = "Word gaps"
    tip = "Each gap decision (spec §6): a tick before the glyph, green when a space was inserted."
    z = 30.0

    def __init__(self) -> None:
        super().__init__()
        self._reasons: dict[str, str] = {}

    def _reason_colour(self, space: bool, reason: str) -> str:
        if space:
            return SPACE_COLOUR
        if reason not in self._reasons:
            self._reasons[reason] = REASON_COLOURS.get(
                reason, PALETTE[(len(self._reasons) + 4) % len(PALETTE)]
            )
        return self._reasons[reason]

    def strokes(self, model: PageModel) -> list[Stroke]:
        groups: dict[str, list] = defaultdict(list)
        for decision in model.gaps_before.values():
            colour = self._reason_colour(bool(decision.space), str(decision.reason))
            groups[colour].append(decision)
        strokes = []
        for colour, decisions in groups.items():
            current = np.asarray([model.glyphs[d.current].quad for d in decisions]).reshape(
                -1, 4, 2
            )
            # A tick across the current glyph's box (quad edge 0→3) at its origin.
            strokes.append(Stroke(segments_path(current[:, 0], current[:, 3]), colour, 1.0))
            # The gap itself, previous glyph end → current origin, where it is worth seeing:
            # inserted spaces and overlaps (negative gaps); the rest are hairline-short.
            shown = [d for d in decisions if d.space or d.gap < 0]
            if shown:
                ends = [model.glyphs[d.previous].glyph_end for d in shown]
                origins = [model.glyphs[d.current].origin for d in shown]
                strokes.append(Stroke(segments_path(ends, origins), colour, 3.0, line_alpha=170))
        return strokes

    def legend(self) -> list[LegendEntry]:
        entries = [LegendEntry("space inserted", SPACE_COLOUR, "line")]
        reasons = dict(REASON_COLOURS)
        reasons.update(self._reasons)
        entries += [LegendEntry(f"no space: {r}", c, "line") for r, c in reasons.items()]
        return entries


class LineBreaksLayer(OverlayLayer):
    layer_id = "line_breaks"
    title = "Line-break decisions"
    tip = "Origin moves across the writing direction (spec §6): broke a line, or kept on one."
    z = 40.0
    default_on = False

    def strokes(self, model: PageModel) -> list[Stroke]:
        broke = [d for d in model.breaks_before.values() if d.broke]
        kept = [d for d in model.breaks_before.values() if not d.broke and abs(d.projection) > 1e-6]
        return [
            self._moves(model, broke, "#c2185b", True),
            self._moves(model, kept, "#00897b", False),
        ]

    @staticmethod
    def _moves(model: PageModel, decisions, colour: str, dash: bool) -> Stroke:
        starts = np.asarray([model.glyphs[d.previous].origin for d in decisions]).reshape(-1, 2)
        ends = np.asarray([model.glyphs[d.current].origin for d in decisions]).reshape(-1, 2)
        return Stroke(segments_path(starts, ends), colour, 1.0, dash=dash)

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("new line (move > threshold)", "#c2185b", "dash"),
            LegendEntry("kept on the line (rise, wobble)", "#00897b", "line"),
        ]


class PageBoxesLayer(OverlayLayer):
    layer_id = "boxes"
    title = "MediaBox / CropBox / visible box"
    tip = "§14.11.2: the visible box is the CropBox clipped to the MediaBox."
    z = 5.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [
            Stroke(rect_path(model.media_box), "#1f3fbf", 2.0),
            Stroke(rect_path(model.crop_box), "#ff7f0e", 1.6, dash=True),
            Stroke(rect_path(model.visible_box), "#2ca02c", 1.2),
        ]

    def labels(self, model: PageModel):
        return [
            (model.media_box[0], model.media_box[1], "MediaBox", "#1f3fbf"),
            (model.crop_box[0], model.crop_box[3], "CropBox", "#ff7f0e"),
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("MediaBox", "#1f3fbf", "box"),
            LegendEntry("CropBox", "#ff7f0e", "dash"),
            LegendEntry("visible box", "#2ca02c", "box"),
        ]


class DroppedOutsideLayer(OverlayLayer):
    layer_id = "dropped_outside"
    title = "Dropped: outside visible box"
    tip = "Glyphs whose quad centre lies outside the visible box (spec §4): not in any text."
    z = 50.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        indices = [i for i, s in enumerate(model.status) if s == OUTSIDE_VISIBLE_BOX]
        quads = model.quads[indices]
        cross = segments_path(quads[:, 0], quads[:, 2])
        return [
            Stroke(quads_path(quads), "#e00000", 1.0, fill_alpha=90),
            Stroke(cross, "#e00000", 1.0),
        ]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("dropped outside the visible box", "#e00000")]


class DuplicatesLayer(OverlayLayer):
    layer_id = "duplicates"
    title = "Duplicate pairs"
    tip = "Fake-bold and overprint copies (spec §5): the dropped copy, a line to the kept glyph."
    z = 55.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        dropped = [i for i, s in enumerate(model.status) if s == DUPLICATE]
        kept = [model.dropped[i].kept for i in dropped if model.dropped[i].kept is not None]
        links = [i for i in dropped if model.dropped[i].kept is not None]
        centres = model.grid.centres
        # Copies first, the kept glyphs' outlines over them, then the links on top.
        return [
            Stroke(quads_path(model.quads[dropped]), "#ff6f00", 1.0, fill_alpha=90, dash=True),
            Stroke(quads_path(model.quads[sorted(set(kept))]), "#1565c0", 1.0),
            Stroke(segments_path(centres[links], centres[kept]), "#ff6f00", 2.0),
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("kept (first drawn)", "#1565c0", "box"),
            LegendEntry("dropped copy → kept", "#ff6f00"),
        ]


class FormGlyphsLayer(OverlayLayer):
    layer_id = "forms"
    title = "Form XObject glyphs"
    tip = "Glyphs painted inside form XObjects (§8.10), token index −1; deeper forms darker."
    z = 35.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        depths: dict[int, list[int]] = defaultdict(list)
        for index, glyph in enumerate(model.glyphs):
            if glyph.form_depth > 0:
                depths[glyph.form_depth].append(index)
        return [
            Stroke(quads_path(model.quads[indices]), "#7b1fa2", 1.0, fill_alpha=45 * min(depth, 4))
            for depth, indices in sorted(depths.items())
        ]

    def labels(self, model: PageModel):
        first: dict[str, int] = {}
        for index, glyph in enumerate(model.glyphs):
            if glyph.form_depth > 0 and glyph.form_path not in first:
                first[glyph.form_path] = index
        return [(*model.glyphs[i].quad[3], path or "form", "#7b1fa2") for path, i in first.items()]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("glyph drawn by a form XObject", "#7b1fa2")]


class UnresolvedLayer(OverlayLayer):
    layer_id = "unresolved"
    title = "Unresolved glyphs"
    tip = "Codes no step of the decoding chain resolved (spec §1): Unicode 0, a space in text."
    z = 60.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        indices = [i for i in range(model.count) if model.is_unresolved(i)]
        quads = model.quads[indices]
        cross = segments_path(
            np.concatenate([quads[:, 0], quads[:, 1]]), np.concatenate([quads[:, 2], quads[:, 3]])
        )
        return [
            Stroke(quads_path(quads), "#ff0033", 1.0, fill_alpha=130),
            Stroke(cross, "#ff0033", 1.0),
        ]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("unresolved code (no Unicode)", "#ff0033")]


class VerticalColumnsLayer(OverlayLayer):
    layer_id = "vertical_columns"
    title = "Vertical columns"
    tip = "WMode 1 glyphs grouped into columns, read right to left (spec §6)."
    z = 25.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [Stroke(path_from_rects(self._boxes(model)), "#00838f", 1.6, fill_alpha=25)]

    def labels(self, model: PageModel):
        return [
            (x0, y1, f"col {n}", "#00838f")
            for n, (x0, _y0, _x1, y1) in enumerate(self._boxes(model), start=1)
        ]

    @staticmethod
    def _boxes(model: PageModel) -> list[tuple[float, float, float, float]]:
        boxes = []
        for column in getattr(model.analysis, "vertical_columns", ()) or ():
            indices = column_glyphs(column)
            indices = [i for i in indices if 0 <= i < model.count]
            if not indices:
                continue
            bounds = model.grid.bounds[indices]
            boxes.append(
                (
                    float(bounds[:, 0].min()),
                    float(bounds[:, 1].min()),
                    float(bounds[:, 2].max()),
                    float(bounds[:, 3].max()),
                )
            )
        return boxes

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("column, numbered in reading order", "#00838f", "box")]


def column_glyphs(column) -> list[int]:
    """The glyph indices of one vertical column, whatever record carries them."""
    for name in ("glyphs", "indices", "glyph_indices"):
        value = getattr(column, name, None)
        if value is not None:
            return [int(i) for i in value]
    try:
        return [int(i) for i in column]
    except TypeError:
        return []


class McidRegionsLayer(OverlayLayer):
    layer_id = "mcid"
    title = "MCID regions"
    tip = "Bounding boxes of each marked-content sequence with an MCID (§14.7.4)."
    z = 8.0
    default_on = False

    def _regions(self, model: PageModel):
        members: dict[int, list[int]] = defaultdict(list)
        for index, glyph in enumerate(model.glyphs):
            if glyph.mcid is not None:
                members[glyph.mcid].append(index)
        regions = []
        for mcid, indices in sorted(members.items()):
            bounds = model.grid.bounds[indices]
            regions.append(
                (
                    mcid,
                    (
                        float(bounds[:, 0].min()),
                        float(bounds[:, 1].min()),
                        float(bounds[:, 2].max()),
                        float(bounds[:, 3].max()),
                    ),
                )
            )
        return regions

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [
            Stroke(rect_path(rect), _palette(mcid), 1.4, fill_alpha=22, dash=True)
            for mcid, rect in self._regions(model)
        ]

    def labels(self, model: PageModel):
        return [(r[0], r[3], f"MCID {mcid}", _palette(mcid)) for mcid, r in self._regions(model)]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("one colour per MCID", PALETTE[0], "dash")]


class SelectionLayer(OverlayLayer):
    """The selected glyphs; always shown, above every other layer."""

    layer_id = "selection"
    title = "Selection"
    z = 100.0

    def __init__(self) -> None:
        super().__init__()
        self.selected: tuple[int, ...] = ()

    def set_selected(self, indices) -> None:
        self.selected = tuple(indices)
        self.invalidate()

    def strokes(self, model: PageModel) -> list[Stroke]:
        indices = [i for i in self.selected if 0 <= i < model.count]
        return [Stroke(quads_path(model.quads[indices]), "#e6a800", 1.0, fill_alpha=140)]


LAYER_TYPES: list[type[OverlayLayer]] = [
    GlyphQuadsLayer,
    BaselinesLayer,
    WordGapsLayer,
    LineBreaksLayer,
    PageBoxesLayer,
    DroppedOutsideLayer,
    DuplicatesLayer,
    FormGlyphsLayer,
    UnresolvedLayer,
    VerticalColumnsLayer,
    McidRegionsLayer,
]
