"""Fonts (§9.5–§9.10): loading simple and composite fonts, encodings, font programs, CMaps."""

from glyphscope.core.fonts.composite import load_composite
from glyphscope.core.fonts.dicts import (
    Font,
    FontGlyph,
    FontInfo,
    GlyphDecoder,
    LazyProgram,
    descriptor_extent,
    font_details,
    read_stream,
    sane_extent,
    to_unicode_cmap,
)
from glyphscope.core.fonts.encodings import (
    Encoding,
    base_encoding,
    glyph_name_to_unicode,
    standard14_name,
    standard14_widths,
)
from glyphscope.core.fonts.loader import load_font
from glyphscope.core.fonts.program import (
    FontProgramUnicode,
    embedded_program_type,
    font_program_unicode,
)
from glyphscope.core.fonts.simple import broken_font, load_simple

__all__ = [
    "Encoding",
    "Font",
    "FontGlyph",
    "FontInfo",
    "FontProgramUnicode",
    "GlyphDecoder",
    "LazyProgram",
    "base_encoding",
    "broken_font",
    "descriptor_extent",
    "embedded_program_type",
    "font_details",
    "font_program_unicode",
    "glyph_name_to_unicode",
    "load_composite",
    "load_font",
    "load_simple",
    "read_stream",
    "sane_extent",
    "standard14_name",
    "standard14_widths",
    "to_unicode_cmap",
]
