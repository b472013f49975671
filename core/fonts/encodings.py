"""Built-in data of simple fonts: base encodings (Annex D), glyph names, standard 14 metrics.

Each base encoding is a 256-entry tuple of glyph names (None where the code is unassigned).
They are built from well-kept sources instead of typed tables: fontTools' StandardEncoding and
MacRoman lists, Python's cp1252 codec with the Adobe Glyph List's reverse mapping for WinAnsi
(stored with the AGL's text of each name in assets/fonts/glyph_list.json by its generator),
and the URW AFMs (assets/fonts/standard14.json) for the Symbol and ZapfDingbats built-ins.
fontTools.agl is imported only for a glyph name with a "uni" or "u" component the stored list
does not hold (uniXXXX, u1F600) and for ZapfDingbats names: importing it builds its tables
from the list's text, which would cost most documents' processes a noticeable share of their
start-up.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path

import glyphscope.assets.fonts

Encoding = tuple["str | None", ...]

STANDARD_14 = (
    "Courier",
    "Courier-Bold",
    "Courier-Oblique",
    "Courier-BoldOblique",
    "Helvetica",
    "Helvetica-Bold",
    "Helvetica-Oblique",
    "Helvetica-BoldOblique",
    "Times-Roman",
    "Times-Bold",
    "Times-Italic",
    "Times-BoldItalic",
    "Symbol",
    "ZapfDingbats",
)


def standard_encoding_names() -> list[str]:
    """Adobe StandardEncoding as fontTools lists it: 256 glyph names, ".notdef" where the code
    is unassigned (the form a font program's built-in encoding is read in)."""
    return [name or ".notdef" for name in _glyph_list()["encodings"]["StandardEncoding"]]


def asset_json(file_name: str) -> dict:
    """One of glyphscope.assets.fonts' JSON files, parsed."""
    # Read beside the package's own file, as core.fonts.cmap.predefined reads its tables:
    # importlib.resources would load zipfile and its readers into every process that decodes
    # a simple font (a few milliseconds of start-up) for files that are never zipped.
    path = Path(glyphscope.assets.fonts.__file__).parent / file_name
    return json.loads(path.read_text("ascii"))


@cache
def _glyph_list() -> dict:
    return asset_json("glyph_list.json")


def _stored_encoding(name: str) -> Encoding:
    return tuple(_glyph_list()["encodings"][name])


@cache
def _standard14_data() -> dict:
    return asset_json("standard14.json")


def _builtin_encoding(font: str) -> Encoding:
    codes = _standard14_data()["builtin_encodings"][font]
    return tuple(codes.get(str(code)) for code in range(256))


_BUILDERS = {
    "StandardEncoding": lambda: _stored_encoding("StandardEncoding"),
    "WinAnsiEncoding": lambda: _stored_encoding("WinAnsiEncoding"),
    "MacRomanEncoding": lambda: _stored_encoding("MacRomanEncoding"),
    "Symbol": lambda: _builtin_encoding("Symbol"),
    "ZapfDingbats": lambda: _builtin_encoding("ZapfDingbats"),
}


@cache
def base_encoding(name: str) -> Encoding | None:
    """A base encoding by its PDF name (§9.6.6.1), or the built-in encoding of Symbol or
    ZapfDingbats; None for any other name (MacExpertEncoding is not shipped)."""
    builder = _BUILDERS.get(name)
    return builder() if builder else None


@lru_cache(maxsize=4096)
def glyph_name_to_unicode(name: str, zapf_dingbats: bool = False) -> str | None:
    """Unicode text of a glyph name by the Adobe Glyph List specification (uniXXXX,
    uXXXX[XX], f_f_i ligatures, .suffixes dropped) as fontTools.agl reads it; the ZapfDingbats names
    (a1…a191) count only for that font, as the AGL specification requires. None when nothing
    matches."""
    if not zapf_dingbats:
        # A name of the list itself: the text fontTools.agl.toUnicode gives it, stored.
        agl = _glyph_list()["agl"]
        text = agl.get(name)
        if text is not None:
            return text
        # AGL specification §2: the name up to its first period, split at underscores; a
        # component of the list maps to its text, one neither in the list nor of the "uni"
        # or "u" forms (both begin with "u") to nothing. Such names (a subset font's g18,
        # .notdef, A.sc) are read here: fontTools.agl builds its tables from the list's text
        # at import, a noticeable share of a small file's process.
        components = name.split(".", 1)[0].split("_")
        if all(part in agl or not part.startswith("u") for part in components):
            return "".join([agl.get(part, "") for part in components]) or None
    from fontTools.agl import toUnicode

    return toUnicode(name, zapf_dingbats) or None


_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_FAMILIES = {
    "Helvetica": "Helvetica",
    "Arial": "Helvetica",
    "ArialMT": "Helvetica",
    "Times": "Times",
    "TimesNewRoman": "Times",
    "TimesNewRomanPS": "Times",
    "TimesNewRomanPSMT": "Times",
    "Courier": "Courier",
    "CourierNew": "Courier",
    "CourierNewPS": "Courier",
    "CourierNewPSMT": "Courier",
    "Symbol": "Symbol",
    "SymbolMT": "Symbol",
    "ZapfDingbats": "ZapfDingbats",
    "Dingbats": "ZapfDingbats",
}
_STYLE_WORDS = re.compile(r"Bold|Italic|Oblique|Roman|Regular|MT|PS|[,-]")
_SEPARATOR = re.compile(r"[,-]")


@lru_cache(maxsize=512)
def standard14_name(base_font: str) -> str | None:
    """The standard 14 font a /BaseFont names (§9.6.2.2), through the usual aliases (Arial →
    Helvetica, TimesNewRoman → Times-Roman, CourierNew → Courier, ',Bold' / '-BoldMT' style
    suffixes, subset prefixes); None for any other font."""
    name = _SUBSET_PREFIX.sub("", base_font).replace(" ", "")
    if name in STANDARD_14:
        return name
    # The family ends at the first ',' or '-': "Arial,Bold", "Times-Roman,Bold".
    family, style = name, ""
    separator = _SEPARATOR.search(name)
    if separator:
        family, style = name[: separator.start()], name[separator.end() :]
    base = _FAMILIES.get(family)
    if base is None or _STYLE_WORDS.sub("", style):
        return None
    if base in ("Symbol", "ZapfDingbats"):
        return base
    bold = "Bold" in style
    slanted = "Italic" in style or "Oblique" in style
    if base == "Times":
        style_name = ("Bold" if bold else "") + ("Italic" if slanted else "")
        return f"Times-{style_name or 'Roman'}"
    style_name = ("Bold" if bold else "") + ("Oblique" if slanted else "")
    return f"{base}-{style_name}" if style_name else base


@cache
def standard14_widths(font: str) -> dict[str, int]:
    """Glyph name → advance width (glyph space, 1/1000 em) of a standard 14 font."""
    data = _standard14_data()
    return {
        glyph: width
        for glyph, width in zip(data["glyph_names"], data["widths"][font], strict=True)
        if width is not None
    }
