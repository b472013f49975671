"""CMaps (§9.7.5, §9.10.3): the parser, code-space lookup tables, Adobe's predefined CMaps."""

# Exported on first use (core.lazy): a predefined CMap (Identity-H) needs the tables only, and
# the parser is loaded by the first CMap stream to parse.
from glyphscope.core.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.fonts.cmap.parser": ("parse_cmap",),
        "glyphscope.core.fonts.cmap.predefined": (
            "cid_to_unicode",
            "ordering_of",
            "predefined_cmap",
        ),
        "glyphscope.core.fonts.cmap.tables": ("CMap", "CMapBuilder", "Codespace", "utf16_text"),
    },
)
