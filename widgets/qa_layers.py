"""Overlay layers the QA tools fill from outside: rule changes, pdfium differences, search hits.

Each is one `OverlayLayer` holding named groups of glyph indices, each group drawn in its own
colour and listed in the legend with its count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_base import SYNC_GLYPHS, LegendEntry, OverlayLayer, on_page
from glyphscope.widgets.overlay_shapes import Stroke, quads_shape


@dataclass(frozen=True, slots=True)
class MarkedGroup:
    label: str
    color: str
    glyphs: tuple[int, ...]


class MarkedGlyphsLayer(OverlayLayer):
    """Glyph groups set by a panel; `set_groups` replaces them and redraws."""

    def __init__(
        self, layer_id: str, title: str, tip: str, z: float, palette: tuple[tuple[str, str], ...]
    ) -> None:
        super().__init__()
        self.layer_id = layer_id
        self.title = title
        self.tip = tip
        self.z = z
        self.setZValue(z)
        self.groups: tuple[MarkedGroup, ...] = ()
        # (label, colour) of every group the layer can show, for the legend before any data.
        self._palette = palette

    def set_groups(self, groups: Iterable[MarkedGroup]) -> None:
        self.groups = tuple(groups)
        self.invalidate()

    def builds_quickly(self, model: PageModel) -> bool:
        return sum(len(group.glyphs) for group in self.groups) <= SYNC_GLYPHS

    def marked(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(i for group in self.groups for i in group.glyphs))

    def strokes(self, model: PageModel) -> list[Stroke]:
        strokes = []
        for group in self.groups:
            indices = on_page(model, group.glyphs)
            if indices:
                strokes.append(Stroke(quads_shape(model.quads[indices]), group.color, 2.0, 70))
        return strokes

    def legend(self) -> list[LegendEntry]:
        if self.groups:
            return [LegendEntry(f"{g.label} ({len(g.glyphs)})", g.color) for g in self.groups]
        return [LegendEntry(label, color) for label, color in self._palette]


def rule_changes_layer() -> MarkedGlyphsLayer:
    return MarkedGlyphsLayer(
        "rule_changes",
        "Rule changes",
        "Glyphs whose decisions changed with the rules (Rules panel): spaces, lines, drops.",
        65.0,
        RULE_CHANGE_COLOURS,
    )


def pdfium_diff_layer() -> MarkedGlyphsLayer:
    return MarkedGlyphsLayer(
        "pdfium_diff",
        "Differences from pdfium",
        "Our words that pdfium reads differently (Compare panel).",
        62.0,
        DIFF_COLOURS,
    )


def search_hits_layer() -> MarkedGlyphsLayer:
    return MarkedGlyphsLayer(
        "search_hits",
        "Search hits",
        "Glyphs of the search hits on this page (Ctrl+F).",
        70.0,
        SEARCH_COLOURS,
    )


# The ids of the layers above, for command lines that name layers before any window exists.
QA_LAYER_IDS = ("rule_changes", "pdfium_diff", "search_hits")

RULE_CHANGE_COLOURS = (
    ("spaces gained", "#00a651"),
    ("spaces lost", "#d62728"),
    ("lines split", "#c2185b"),
    ("lines joined", "#00897b"),
    ("glyphs newly dropped", "#ff6f00"),
    ("glyphs newly kept", "#1565c0"),
)
DIFF_COLOURS = (
    ("replaced", "#d62728"),
    ("only ours", "#ff7f0e"),
)
SEARCH_COLOURS = (("search hit", "#ff00ff"),)
