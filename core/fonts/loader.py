"""Fonts (§9.5–§9.8): split shown strings into codes, decode them (spec §1), measure them.

`load_font` reads a font dictionary once into plain Python data and never raises: a font it
cannot read decodes nothing and records why in `Font.info().problems`. The one later read is
the embedded font program, parsed on the first code the earlier decode steps leave open, so
the document must stay open while its fonts are used. `Font.glyphs` is the hot path; it
caches per code and per string.
"""

from __future__ import annotations

import pikepdf

from glyphscope.core.fonts.composite import DEFAULT_CID_WIDTH, DEFAULT_VERTICAL, load_composite
from glyphscope.core.fonts.dicts import (
    DEFAULT_ASCENT,
    DEFAULT_DESCENT,
    Font,
    FontGlyph,
    FontInfo,
    FontLimits,
)
from glyphscope.core.fonts.simple import BROKEN_FONT_WIDTH, broken_font, load_simple
from glyphscope.core.pdf.objects import pdf_name
from glyphscope.core.rules import Rules

__all__ = [
    "BROKEN_FONT_WIDTH",
    "DEFAULT_ASCENT",
    "DEFAULT_CID_WIDTH",
    "DEFAULT_DESCENT",
    "DEFAULT_VERTICAL",
    "Font",
    "FontGlyph",
    "FontInfo",
    "load_font",
]


def load_font(font_dict: pikepdf.Dictionary, rules: Rules | None = None) -> Font:
    """Read a font dictionary (§9.5) under the font limits of the rules. Never raises: an
    unreadable font decodes nothing."""
    limits = FontLimits.of(rules or Rules())
    problems: list[str] = []
    name, subtype = "", ""
    if not isinstance(font_dict, pikepdf.Dictionary):
        problems.append("font is not a dictionary")
        return broken_font(name, subtype, problems)
    try:
        name = pdf_name(font_dict.get("/BaseFont")) or pdf_name(font_dict.get("/Name"))
        subtype = pdf_name(font_dict.get("/Subtype"))
        if subtype == "Type0":
            return load_composite(font_dict, name, problems, limits)
        if subtype not in ("Type1", "MMType1", "TrueType", "Type3"):
            problems.append(f"unknown font subtype {subtype or '(none)'}; read as Type1")
        return load_simple(font_dict, name, subtype or "Type1", problems, limits)
    except Exception as error:  # the public promise: a broken font never stops a page
        problems.append(f"font dictionary unreadable: {type(error).__name__}: {error}")
        return broken_font(name, subtype, problems)
