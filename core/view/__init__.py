"""What the inspector shows of an analysed page, prepared without Qt (napari's split: the Qt
layer only renders; everything it shows is computed here and tested without a display).

`build_page_model` turns a `PageAnalysis` into a `PageModel`: glyph and decision columns as
numpy arrays (`glyph_arrays`), a spatial index for hit tests (`spatial`), decisions filed under
the glyphs they touched, and each text pane's character → glyph map. widgets/ draw it and
inspector/ builds it on the analysis thread; neither is imported here.
"""

from glyphscope.core.view.glyph_arrays import (
    Categories,
    DecisionArrays,
    GlyphArrays,
    decision_arrays,
    glyph_arrays,
    group_bounds,
)
from glyphscope.core.view.page_model import (
    NO_STRUCTURE_NOTE,
    PANE_TITLES,
    DecisionsByGlyph,
    PageModel,
    PaneText,
    build_page_model,
    utf16_offsets,
)
from glyphscope.core.view.spatial import GlyphGrid

__all__ = [
    "NO_STRUCTURE_NOTE",
    "PANE_TITLES",
    "Categories",
    "DecisionArrays",
    "DecisionsByGlyph",
    "GlyphArrays",
    "GlyphGrid",
    "PageModel",
    "PaneText",
    "build_page_model",
    "decision_arrays",
    "glyph_arrays",
    "group_bounds",
    "utf16_offsets",
]
