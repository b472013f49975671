"""Glyphscope: PDF text extraction in which every glyph and every decision can be inspected.

    import glyphscope

    with glyphscope.open("file.pdf", password=None) as document:
        page = document.pages[0]                   # lazy, 0-based
        page.text()                                # reading order; "layout", "columns", "structure"
        page.visible_glyphs()                      # Glyph records, drawing order
        page.analysis(glyphscope.Rules(space_gap_ratio=0.2)).to_json()   # the decision log
        page.boxes.visible_box

Errors are the typed exceptions of `glyphscope.errors`; the engine lives in `glyphscope.core`,
the inspector's widgets in `glyphscope.widgets` and the application in `glyphscope.inspector`.
"""

from glyphscope.core import (
    Document,
    Glyph,
    Page,
    PageAnalysis,
    PageBoxes,
    Rules,
    open,
)
from glyphscope.core.records import DecodeSource
from glyphscope.core.version import package_version

__version__ = package_version()

__all__ = [
    "DecodeSource",
    "Document",
    "Glyph",
    "Page",
    "PageAnalysis",
    "PageBoxes",
    "Rules",
    "__version__",
    "open",
]
