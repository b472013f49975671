"""CMaps (§9.7.5, §9.10.3): the parser, code-space lookup tables, Adobe's predefined CMaps."""

from glyphscope.core.fonts.cmap.parser import parse_cmap
from glyphscope.core.fonts.cmap.predefined import cid_to_unicode, ordering_of, predefined_cmap
from glyphscope.core.fonts.cmap.tables import CMap, CMapBuilder, Codespace, utf16_text

__all__ = [
    "CMap",
    "CMapBuilder",
    "Codespace",
    "cid_to_unicode",
    "ordering_of",
    "parse_cmap",
    "predefined_cmap",
    "utf16_text",
]
