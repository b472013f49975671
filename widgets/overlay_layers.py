"""The overlay layers of the page view, one per decision the engine records (spec §1–§9).

`LAYER_TYPES` is the registry: the Layers panel lists it in order, settings persist it by
`layer_id`, and a later panel adds a layer by appending a subclass of `OverlayLayer`.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QRectF

from glyphscope.core.records import DecodeSource
from glyphscope.core.text.reading import GapReason
from glyphscope.core.view.glyph_arrays import group_bounds
from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_base import (
    BOX_LABELS_ROOM_PX,
    PALETTE,
    SYNC_GLYPHS,
    LegendEntry,
    OverlayLayer,
    filled_quads,
    on_page,
)
from glyphscope.widgets.overlay_shapes import (
    Stroke,
    polyline_shape,
    quads_shape,
    rects_shape,
    segments_shape,
)
from glyphscope.widgets.page_view import MIN_ZOOM, PIXELS_PER_POINT

# One colour per decode source, in the order of the decode chain (spec §1); the legend lists
# every source so a reader can tell what is absent from the page.
DECODE_SOURCE_COLOURS = {
    DecodeSource.TO_UNICODE.value: "#2e8b57",
    DecodeSource.ENCODING_CMAP.value: "#1f77b4",
    DecodeSource.DIFFERENCES.value: "#17becf",
    DecodeSource.PREDEFINED_CMAP.value: "#9467bd",
    DecodeSource.BUILTIN_ENCODING.value: "#ff7f0e",
    DecodeSource.FONT_PROGRAM.value: "#8c564b",
    DecodeSource.GLYPH_NAME_NUMBER.value: "#e377c2",
    DecodeSource.TEX_ENCODING.value: "#bcbd22",
    DecodeSource.ACTUAL_TEXT.value: "#7b4fd6",
    DecodeSource.UNRESOLVED.value: "#d62728",
}
UNKNOWN_SOURCE_COLOUR = "#7f7f7f"

COLOUR_BY = ("decode source", "font", "MCID", "form depth")

SPACE_COLOUR = "#00a651"
NO_SPACE_COLOUR = "#8a8a8a"
# Reasons the gap rule gave for not inserting a space; unknown reasons get palette colours.
REASON_COLOURS = {
    GapReason.BELOW_THRESHOLD.value: NO_SPACE_COLOUR,
    GapReason.BLANK_SIDE.value: "#1f77b4",
    GapReason.CJK_PAIR.value: "#9467bd",
    GapReason.NEGATIVE_GAP.value: "#e377c2",
    # Beyond the spec (issue 26): a kerned blank and an unresolved mark write nothing.
    GapReason.KERNED_BLANK.value: "#8c564b",
    GapReason.UNRESOLVED_MARK.value: "#bcbd22",
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

    def _categories(self, model: PageModel) -> tuple[np.ndarray, list[str], list[str]]:
        """Per-glyph category codes, each category's label and colour."""
        arrays = model.arrays
        if self.colour_by == "font":
            labels = list(arrays.font.labels)
            return arrays.font.codes, labels, [_palette(i) for i in range(len(labels))]
        if self.colour_by == "MCID":
            values, codes = np.unique(arrays.mcid, return_inverse=True)
            labels = ["no MCID" if v < 0 else f"MCID {v}" for v in values.tolist()]
            colours = [("#7f7f7f" if v < 0 else _palette(int(v))) for v in values.tolist()]
            return codes.reshape(-1), labels, colours
        if self.colour_by == "form depth":
            values, codes = np.unique(arrays.form_depth, return_inverse=True)
            labels = ["page stream" if v == 0 else f"form depth {v}" for v in values.tolist()]
            return codes.reshape(-1), labels, [_palette(i) for i in range(len(labels))]
        labels = list(arrays.decode_source.labels)
        colours = [DECODE_SOURCE_COLOURS.get(label, UNKNOWN_SOURCE_COLOUR) for label in labels]
        return arrays.decode_source.codes, labels, colours

    def strokes(self, model: PageModel) -> list[Stroke]:
        codes, labels, colours = self._categories(model)
        self._legend = [
            LegendEntry(label, colour) for label, colour in zip(labels, colours, strict=True)
        ]
        return [
            stroke
            for code in range(len(labels))
            for stroke in filled_quads(model, codes == code, colours[code], 40)
        ]

    def legend(self) -> list[LegendEntry]:
        if not self._legend or self.colour_by == COLOUR_BY[0]:
            return self.legend_for(None)
        return self._legend

    def legend_for(self, model: PageModel | None) -> list[LegendEntry]:
        """Decode sources: every source with its count on the page; else the page's keys."""
        if self.colour_by == COLOUR_BY[0]:
            return decode_source_legend(model)
        if model is None:
            return self._legend
        _codes, labels, colours = self._categories(model)
        return [LegendEntry(label, colour) for label, colour in zip(labels, colours, strict=True)]


def decode_source_legend(model: PageModel | None) -> list[LegendEntry]:
    """Every decode source, in chain order, with its glyph count when a page is given."""
    if model is None:
        return [LegendEntry(source, colour) for source, colour in DECODE_SOURCE_COLOURS.items()]
    categories = model.arrays.decode_source
    counts = np.bincount(categories.codes, minlength=len(categories.labels))
    on_page = dict(zip(categories.labels, counts.tolist(), strict=True))
    entries = [
        LegendEntry(f"{source} ({on_page.get(source, 0)})", colour)
        for source, colour in DECODE_SOURCE_COLOURS.items()
    ]
    entries += [
        LegendEntry(f"{label} ({count})", UNKNOWN_SOURCE_COLOUR)
        for label, count in on_page.items()
        if label not in DECODE_SOURCE_COLOURS
    ]
    return entries


class BaselinesLayer(OverlayLayer):
    layer_id = "baselines"
    title = "Baselines and reading order"
    tip = "Origin → glyph end of each visible glyph, and the path through them in reading order."
    z = 20.0
    default_on = False

    def strokes(self, model: PageModel) -> list[Stroke]:
        visible = model.arrays.visible
        order = np.asarray(model.reading_order, dtype=np.int64)
        order = order[(order >= 0) & (order < model.count)]
        path = polyline_shape(model.grid.centres[order])
        ends = model.arrays.glyph_ends[visible]
        return [
            Stroke(segments_shape(model.arrays.origins[visible], ends), "#0050d0", 1.0),
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
        d = model.decisions
        if not len(d.gap_current):
            return []
        # One colour per decision: green for a space, else the colour of the reason.
        reason_colours = [self._reason_colour(False, r) for r in d.gap_reason.labels]
        colour_of = np.where(d.gap_space, -1, d.gap_reason.codes)
        quads = model.quads[d.gap_current]
        strokes = []
        for code in np.unique(colour_of).tolist():
            chosen = colour_of == code
            colour = SPACE_COLOUR if code < 0 else reason_colours[code]
            # A tick across the current glyph's box (quad edge 0→3) at its origin.
            ticks = segments_shape(quads[chosen][:, 0], quads[chosen][:, 3])
            strokes.append(Stroke(ticks, colour, 1.0))
            # The gap itself, previous glyph end → current origin, where it is worth seeing:
            # inserted spaces and overlaps (negative gaps); the rest are hairline-short.
            shown = chosen & (d.gap_space | (d.gap_value < 0))
            if shown.any():
                ends = model.arrays.glyph_ends[d.gap_previous[shown]]
                origins = model.arrays.origins[d.gap_current[shown]]
                strokes.append(Stroke(segments_shape(ends, origins), colour, 3.0, line_alpha=170))
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
        d = model.decisions
        kept = ~d.break_broke & (np.abs(d.break_projection) > 1e-6)
        return [
            self._moves(model, d.break_broke, "#c2185b", True),
            self._moves(model, kept, "#00897b", False),
        ]

    @staticmethod
    def _moves(model: PageModel, chosen: np.ndarray, colour: str, dash: bool) -> Stroke:
        d = model.decisions
        starts = model.arrays.origins[d.break_previous[chosen]]
        ends = model.arrays.origins[d.break_current[chosen]]
        return Stroke(segments_shape(starts, ends), colour, 1.0, dash=dash)

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

    def boundingRect(self) -> QRectF:
        # The labels stand above the boxes at a fixed pixel size, and may be wider than a
        # narrow page: the item reaches as far as they do at the smallest zoom, or Qt repaints
        # only the part of them inside it (hiding the layer left the rest on screen). A
        # background layer's bounds grow to its painter-thread image, labels included.
        bounds = super().boundingRect()
        if bounds.isEmpty() or self.background:
            return bounds
        user_unit = math.sqrt(abs(self.sceneTransform().determinant())) or 1.0
        reach = 2 * BOX_LABELS_ROOM_PX / (MIN_ZOOM * PIXELS_PER_POINT * user_unit)
        return bounds.adjusted(-reach, -reach, reach, reach)

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [
            Stroke(rects_shape([model.media_box]), "#1f3fbf", 2.0),
            Stroke(rects_shape([model.crop_box]), "#ff7f0e", 1.6, dash=True),
            Stroke(rects_shape([model.visible_box]), "#2ca02c", 1.2),
        ]

    def image_key(self, model: PageModel) -> object:
        # Its strokes and labels are the three boxes': a document's pages share its image.
        return (model.media_box, model.crop_box, model.visible_box)

    def labels(self, model: PageModel):
        # Both above the top edge as shown (CropBox left, MediaBox right), for every /Rotate:
        # a label inside the page's bottom-left corner covered footers and slug lines.
        media, crop = model.media_box, model.crop_box
        return [
            (media[0], media[1], "MediaBox", "#1f3fbf", "box right", (media[2], media[3])),
            (crop[0], crop[1], "CropBox", "#ff7f0e", "box left", (crop[2], crop[3])),
        ]

    def legend(self) -> list[LegendEntry]:
        return [
            LegendEntry("MediaBox", "#1f3fbf", "box"),
            LegendEntry("CropBox", "#ff7f0e", "dash"),
            LegendEntry("visible box", "#2ca02c", "box"),
        ]


def crossed_quads(
    model: PageModel, chosen: np.ndarray, colour: str, fill_alpha: int, corners: tuple[int, ...]
) -> list[Stroke]:
    """Filled quads of the chosen glyphs, struck through from each given corner to the
    opposite one (corner k to k + 2)."""
    quads = model.quads[chosen]
    starts = np.concatenate([quads[:, k] for k in corners])
    ends = np.concatenate([quads[:, k + 2] for k in corners])
    return [
        *filled_quads(model, chosen, colour, fill_alpha),
        Stroke(segments_shape(starts, ends), colour, 1.0),
    ]


class DroppedOutsideLayer(OverlayLayer):
    layer_id = "dropped_outside"
    title = "Dropped: outside visible box"
    tip = "Glyphs whose quad centre lies outside the visible box (spec §4): not in any text."
    z = 50.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        return crossed_quads(model, model.arrays.outside, "#e00000", 90, corners=(0,))

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("dropped outside the visible box", "#e00000")]


class DuplicatesLayer(OverlayLayer):
    layer_id = "duplicates"
    title = "Duplicate pairs"
    tip = "Fake-bold and overprint copies (spec §5): the dropped copy, a line to the kept glyph."
    z = 55.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        arrays = model.arrays
        links = np.flatnonzero(arrays.duplicate & (arrays.kept >= 0))
        kept = arrays.kept[links]
        centres = model.grid.centres
        # Copies first, the kept glyphs' outlines over them, then the links on top.
        return [
            *filled_quads(model, arrays.duplicate, "#ff6f00", 90, dash=True),
            Stroke(quads_shape(model.quads[np.unique(kept)]), "#1565c0", 1.0),
            Stroke(segments_shape(centres[links], centres[kept]), "#ff6f00", 2.0),
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
        depth = model.arrays.form_depth
        return [
            stroke
            for d in np.unique(depth[depth > 0]).tolist()
            for stroke in filled_quads(model, depth == d, "#7b1fa2", 45 * min(d, 4))
        ]

    def labels(self, model: PageModel):
        # The form's name at the first glyph each form path drew.
        paths = model.arrays.form_path
        in_form = np.flatnonzero(model.arrays.form_depth > 0)
        _codes, first = np.unique(paths.codes[in_form], return_index=True)
        return [
            (*model.quads[i][3].tolist(), paths.labels[paths.codes[i]] or "form", "#7b1fa2")
            for i in in_form[first].tolist()
        ]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("glyph drawn by a form XObject", "#7b1fa2")]


class UnresolvedLayer(OverlayLayer):
    layer_id = "unresolved"
    title = "Unresolved glyphs"
    tip = "Codes no step of the decoding chain resolved (spec §1): Unicode 0, a space in text."
    z = 60.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        return crossed_quads(model, model.arrays.unresolved, "#ff0033", 130, corners=(0, 1))

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("unresolved code (no Unicode)", "#ff0033")]


class VerticalColumnsLayer(OverlayLayer):
    layer_id = "vertical_columns"
    title = "Vertical columns"
    tip = "WMode 1 glyphs grouped into columns, read right to left (spec §6)."
    z = 25.0

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [Stroke(rects_shape(self._boxes(model)), "#00838f", 1.0, fill_alpha=25)]

    def labels(self, model: PageModel):
        return [
            (x0, y1, f"col {n}", "#00838f")
            for n, (x0, _y0, _x1, y1) in enumerate(self._boxes(model), start=1)
        ]

    @staticmethod
    def _boxes(model: PageModel) -> list[tuple[float, float, float, float]]:
        boxes = []
        for column in model.analysis.vertical_columns:
            indices = on_page(model, column.glyphs)
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


class McidRegionsLayer(OverlayLayer):
    layer_id = "mcid"
    title = "MCID regions"
    tip = "Bounding boxes of each marked-content sequence with an MCID (§14.7.4)."
    z = 8.0
    default_on = False

    @staticmethod
    def _regions(model: PageModel):
        return group_bounds(model.arrays.mcid, model.grid.bounds)

    def strokes(self, model: PageModel) -> list[Stroke]:
        # One stroke per colour, not per region: a tagged page has hundreds of MCIDs, and each
        # stroke's fill, culling and dashed path cost more than its pixels (223 regions of
        # pdfplumber's pr-138 page: 90 ms painted one by one). Regions of one colour that
        # overlap are filled as their union, as the glyph quads are.
        by_colour: dict[str, list[tuple[float, ...]]] = {}
        for mcid, rect in self._regions(model):
            by_colour.setdefault(_palette(mcid), []).append(rect)
        return [
            Stroke(rects_shape(rects), colour, 1.0, fill_alpha=22, dash=True)
            for colour, rects in by_colour.items()
        ]

    def labels(self, model: PageModel):
        # The number just left of each region, where a line's start leaves it readable.
        return [
            (r[0], (r[1] + r[3]) / 2, str(mcid), _palette(mcid), "left")
            for mcid, r in self._regions(model)
        ]

    def legend(self) -> list[LegendEntry]:
        return [LegendEntry("region per MCID, numbered at its left", PALETTE[0], "dash")]


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

    def builds_quickly(self, model: PageModel) -> bool:
        return len(self.selected) <= SYNC_GLYPHS

    def strokes(self, model: PageModel) -> list[Stroke]:
        return filled_quads(model, on_page(model, self.selected), "#e6a800", 140)


class HoverLayer(SelectionLayer):
    """The glyph under the pointer (the one the tooltip describes): an outline only."""

    layer_id = "hover"
    title = "Hover"
    z = 110.0

    # One quad that changes with every pointer move: caching it would cost more.
    cached = False

    def strokes(self, model: PageModel) -> list[Stroke]:
        return [Stroke(quads_shape(model.quads[on_page(model, self.selected)]), "#0066ff", 1.0, 0)]


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
