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

from typing import TYPE_CHECKING

from glyphscope.core.lazy import lazy_exports

if TYPE_CHECKING:  # the names as type checkers see them; at run time they load on first use
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document, Page, open
    from glyphscope.core.pdf.document import PageBoxes
    from glyphscope.core.records import DecodeSource, Glyph
    from glyphscope.core.rules import Rules

    __version__: str

_getattr, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.document": ("Document", "Page", "open"),
        "glyphscope.core.analysis": ("PageAnalysis",),
        "glyphscope.core.pdf.document": ("PageBoxes",),
        "glyphscope.core.records": ("DecodeSource", "Glyph"),
        "glyphscope.core.rules": ("Rules",),
    },
)
__all__ = sorted([*__all__, "__version__"])


def __getattr__(name: str) -> object:
    if name == "__version__":
        # importlib.metadata costs a tenth of a second of start-up: read on first use.
        from glyphscope.core.version import package_version

        return package_version()
    return _getattr(name)
