"""Fonts (§9.5–§9.10): loading simple and composite fonts, encodings, font programs, CMaps."""

# Exported on first use (core.lazy): loading a font imports only what that font needs, so the
# font-program reader and the CMap parser stay unloaded until a font asks for them.
from glyphscope.core.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.fonts.composite": ("load_composite",),
        "glyphscope.core.fonts.dicts": (
            "Font",
            "FontGlyph",
            "FontInfo",
            "GlyphDecoder",
            "LazyProgram",
            "descriptor_extent",
            "font_details",
            "read_stream",
            "sane_extent",
            "to_unicode_cmap",
        ),
        "glyphscope.core.fonts.embedded": ("LimitNote", "embedded_program_type"),
        "glyphscope.core.fonts.encodings": (
            "Encoding",
            "base_encoding",
            "glyph_name_to_unicode",
            "standard14_name",
            "standard14_widths",
        ),
        "glyphscope.core.fonts.loader": ("load_font",),
        "glyphscope.core.fonts.program": ("FontProgramUnicode", "font_program_unicode"),
        "glyphscope.core.fonts.simple": ("broken_font", "load_simple"),
    },
)
