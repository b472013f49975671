"""Unicode from an embedded font program: the decode step after the spec's chain (spec §1).

When a font has no /ToUnicode and its /Encoding names nothing useful (symbolic subsets,
Identity-H CIDFonts), the embedded font program (§9.9) may still tell which character a glyph
draws: a TrueType/OpenType Unicode cmap, glyph names in the post table or the CFF charset, or a
Type 1 font's built-in /Encoding. TrueType and OpenType programs are read through fontTools,
CFF programs by core.fonts.cff (through fontTools where it cannot read them as fontTools does),
Type 1 programs by pattern; every parse is guarded and what was skipped is recorded in
`problems`.
"""

from __future__ import annotations

import io
import re
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pikepdf

from glyphscope.core.fonts.embedded import LimitNote, embedded_program_type
from glyphscope.core.fonts.encodings import glyph_name_to_unicode, standard_encoding_names
from glyphscope.core.fonts.tex import tex_glyph_name_text
from glyphscope.core.pdf.streams import byte_size, decode_stream

if TYPE_CHECKING:
    from fontTools.ttLib import TTFont

# A font program larger than this is not read (the default of Rules.max_font_program_bytes):
# no real font needs more to name its glyphs, and a hostile stream must not cost unbounded
# memory.
MAX_FONT_PROGRAM_BYTES = 16 * 1024 * 1024


# What fontTools raises on damaged font data (with its own TTLibError, imported with the
# parser); anything else is a bug worth seeing.
_PARSE_ERRORS = (
    struct.error,
    ValueError,
    KeyError,
    IndexError,
    AssertionError,
    EOFError,
    TypeError,
    AttributeError,
    OverflowError,
    UnicodeDecodeError,
)

_CFF_PROGRAMS = ("FontFile3/Type1C", "FontFile3/CIDFontType0C")

# §9.6.6.4: a symbolic TrueType font's (3,0) cmap may place single-byte codes at
# 0xF000-0xF0FF (also seen at 0xF100/0xF200).
_SYMBOL_CMAP_OFFSETS = (0, 0xF000, 0xF100, 0xF200)


@dataclass(frozen=True, slots=True)
class FontProgramUnicode:
    """What an embedded font program says about Unicode.

    by_code: single-byte code → text, for simple fonts (code → glyph through the program's
    own cmap or built-in encoding, glyph → text through a Unicode cmap or its glyph name).
    by_glyph: glyph → text for CIDFonts: keyed by GID for TrueType (the caller applies
    /CIDToGIDMap, §9.7.4.2) and by CID for CFF (a non-CID-keyed CFF uses CIDs as GIDs).
    """

    program_type: str
    by_code: Mapping[int, str]
    by_glyph: Mapping[int, str]
    problems: tuple[str, ...]
    # The program's built-in encoding is StandardEncoding itself (a Type 1 `/Encoding
    # StandardEncoding def`, a CFF with encoding offset 0): by_code then restates a standard
    # table, which the decode chain records as such.
    standard_encoding: bool = False


EMPTY = FontProgramUnicode("", {}, {}, ())


def font_program_unicode(
    font_descriptor: pikepdf.Dictionary | None, subtype: str, max_bytes: int | None = None
) -> FontProgramUnicode:
    """Read the embedded program of a font (subtype: the font's /Subtype without the slash:
    Type1, MMType1, TrueType, CIDFontType0, CIDFontType2), decoding at most max_bytes
    (default MAX_FONT_PROGRAM_BYTES). Never raises."""
    program_type = embedded_program_type(font_descriptor)
    if font_descriptor is None or not program_type:
        return EMPTY
    key, _, _ = program_type.partition("/")
    cap = MAX_FONT_PROGRAM_BYTES if max_bytes is None else max_bytes
    stream = font_descriptor[f"/{key}"]
    if not isinstance(stream, pikepdf.Stream):  # embedded_program_type found a stream here
        return EMPTY
    data, problem = _read_program(stream, cap)
    if data is None:
        return FontProgramUnicode(program_type, {}, {}, (problem,))
    simple = not subtype.startswith("CIDFontType")
    standard = False
    by_glyph: dict[int, str]
    errors: tuple[type[Exception], ...] = _PARSE_ERRORS
    if program_type not in ("FontFile", *_CFF_PROGRAMS):
        # fontTools is imported by the first program it parses, not with this module: ttLib
        # and cffLib are a quarter of the text path's start-up, most fonts are read without
        # their program, a Type 1 program is read by pattern and a CFF by core.fonts.cff,
        # without fontTools (cffLib, where a CFF needs it, raises no TTLibError).
        from fontTools.ttLib import TTLibError

        errors = (TTLibError, *_PARSE_ERRORS)
    try:
        if program_type == "FontFile":
            (by_code, standard), by_glyph = _type1_unicode(data), {}
        elif program_type in _CFF_PROGRAMS:
            by_code, by_glyph, standard = _cff_unicode(data, simple)
        else:
            by_code, by_glyph = _sfnt_unicode(data, simple)
    except errors as error:
        problem = f"{program_type} unreadable: {type(error).__name__}: {error}"
        return FontProgramUnicode(program_type, {}, {}, (problem,))
    return FontProgramUnicode(program_type, by_code, by_glyph, (), standard)


def _read_program(stream: pikepdf.Stream, max_bytes: int) -> tuple[bytes | None, str]:
    decoded = decode_stream(stream, max_bytes)
    if decoded.truncated:
        return None, LimitNote(f"font program larger than {byte_size(max_bytes)} skipped")
    if decoded.problem:
        return None, f"font program stream unreadable: {decoded.problem}"
    return decoded.data, ""


def _text_by_name(names: Mapping[int, str]) -> dict[int, str]:
    result = {}
    for key, name in names.items():
        text = tex_glyph_name_text(name) or glyph_name_to_unicode(name)
        if text:
            result[key] = text
    return result


def _type1_unicode(data: bytes) -> tuple[dict[int, str], bool]:
    """§9.6.6.2: a Type 1 program's built-in encoding, its /Encoding in the clear-text part:
    `StandardEncoding`, or a 256-element array filled by `dup <code> /<name> put` entries.
    Read by pattern rather than by running the PostScript: dvips and pdfTeX subsets leave
    the array's other slots null, on which fontTools' interpreter fails."""
    if data[:2] == b"\x80\x01":
        data = data[6:]  # a PFB segment header some producers leave in /FontFile
    end = data.find(b"eexec")
    clear_text = data[:end] if end >= 0 else data
    start = clear_text.find(b"/Encoding")
    if start < 0:
        return {}, False
    if _TYPE1_STANDARD.match(clear_text, start):
        return _text_by_name(dict(enumerate(standard_encoding_names()))), True
    names = {}
    for entry in _TYPE1_ENCODING_ENTRY.finditer(clear_text, start):
        code = _ps_integer(entry.group(1))
        if code is not None and 0 <= code <= 255:
            names[code] = entry.group(2).decode("latin-1")  # a later put replaces, as in PostScript
    return _text_by_name({code: name for code, name in names.items() if name != ".notdef"}), False


_TYPE1_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def")
_TYPE1_ENCODING_ENTRY = re.compile(rb"dup\s+([0-9#A-Za-z]+)\s*/([^\s/\[\]{}()<>%]+)\s*put")


def _ps_integer(token: bytes) -> int | None:
    """A PostScript integer, decimal or radix (`8#101`), PLRM §3.2.2."""
    try:
        if b"#" in token:
            radix, _, digits = token.partition(b"#")
            return int(digits, int(radix))
        return int(token)
    except ValueError:
        return None


def _cff_unicode(data: bytes, simple: bool) -> tuple[dict[int, str], dict[int, str], bool]:
    from glyphscope.core.fonts import cff  # by the first CFF program, as fontTools was

    try:
        return _cff_names_unicode(cff.read_top_dict(data), simple)
    except cff.Unhandled:
        pass
    # What the reader does not read as fontTools does (CFF2, damage, an unusual operand) is
    # read by fontTools itself, so its result and its error text stay fontTools' own.
    from fontTools.cffLib import CFFFontSet

    fonts = CFFFontSet()
    fonts.decompile(io.BytesIO(data), None)
    return _cff_names_unicode(_FontToolsTopDict(fonts[fonts.fontNames[0]]), simple)


class _CffTopDict(Protocol):
    @property
    def cid_keyed(self) -> bool: ...

    @property
    def charset(self) -> Sequence[str]: ...

    @property
    def encoding(self) -> str | Sequence[str]: ...


class _FontToolsTopDict:
    """fontTools.cffLib's TopDict read as core.fonts.cff's (its attributes load on first use)."""

    def __init__(self, top: Any) -> None:
        self._top = top

    @property
    def cid_keyed(self) -> bool:
        return hasattr(self._top, "ROS")

    @property
    def charset(self) -> Sequence[str]:
        return self._top.charset

    @property
    def encoding(self) -> str | Sequence[str]:
        return self._top.Encoding


def _cff_names_unicode(
    top: _CffTopDict, simple: bool
) -> tuple[dict[int, str], dict[int, str], bool]:
    if top.cid_keyed:
        # CID-keyed CFF: glyph names are 'cidNNNNN' and say nothing about Unicode.
        return {}, {}, False
    # In fontTools' order (the Encoding, then the charset), which decides a damaged
    # program's error.
    if simple:
        encoding = top.encoding
        standard = encoding == "StandardEncoding"
        if isinstance(encoding, str):
            # ExpertEncoding names small caps and old-style figures: nothing plain text needs.
            encoding = standard_encoding_names() if standard else ()
        present = set(top.charset)
        names = {code: name for code, name in enumerate(encoding) if name in present}
        return _text_by_name(names), {}, standard
    return {}, _text_by_name(dict(enumerate(top.charset))), False


def _sfnt_unicode(data: bytes, simple: bool) -> tuple[dict[int, str], dict[int, str]]:
    """TrueType or OpenType: code → glyph through the cmap (§9.6.6.4), glyph → text through
    the reversed Unicode cmap, else the glyph's name."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(data), lazy=True, fontNumber=0)
    if not _has_glyph_names(font):
        # fontTools would name the glyphs from the cmap through fontTools.agl (whose import
        # parses the whole glyph list, a large share of a process's start-up); _glyph_text
        # never reads names such a font has, so the glyphs keep the numbered names fontTools
        # itself starts from.
        order = [f"glyph{gid:05d}" for gid in range(font.getGlyphCount())]
        order[0] = ".notdef"  # as fontTools does: a font of no glyphs fails here as there
        font.setGlyphOrder(order)
    glyph_order = font.getGlyphOrder()
    text_by_name = _glyph_text(font)
    if not simple:
        return {}, {
            gid: text_by_name[name] for gid, name in enumerate(glyph_order) if name in text_by_name
        }
    by_code = {}
    for code, name in _glyphs_by_code(font).items():
        if name in text_by_name:
            by_code[code] = text_by_name[name]
    return by_code, {}


def _has_glyph_names(font: TTFont) -> bool:
    """The program names its glyphs (a CFF charset or a post table other than format 3)."""
    return "CFF " in font or ("post" in font and font["post"].formatType != 3)


def _glyph_text(font: TTFont) -> dict[str, str]:
    text_by_name: dict[str, str] = {}
    # A format 3 post table has no names; fontTools then makes them up from the cmap.
    if _has_glyph_names(font):
        for name in font.getGlyphOrder():
            if name != ".notdef" and not name.startswith("glyph"):
                text = glyph_name_to_unicode(name)
                if text:
                    text_by_name[name] = text
    if "cmap" in font:
        # A Unicode cmap beats a glyph name; the lowest code point wins where several map to
        # one glyph (e.g. space and no-break space). The (3,0) symbol cmap is not Unicode.
        unicode_map: dict[int, str] = {}
        for table in font["cmap"].tables:
            if table.platformID == 0 or (table.platformID, table.platEncID) in ((3, 1), (3, 10)):
                unicode_map.update(table.cmap)
        for code_point, name in sorted(unicode_map.items(), reverse=True):
            text_by_name[name] = chr(code_point)
    return text_by_name


def _glyphs_by_code(font: TTFont) -> dict[int, str]:
    """Single-byte code → glyph name by §9.6.6.4: the (3,0) symbol cmap (at the code or
    0xF000 + code), then the (1,0) Macintosh cmap, then the (3,1) cmap read as if the code were
    Unicode."""
    if "cmap" not in font:
        return {}
    tables = {(t.platformID, t.platEncID): t.cmap for t in font["cmap"].tables}
    result: dict[int, str] = {}
    for code in range(256):
        symbol = tables.get((3, 0), {})
        for candidate in (
            *(symbol.get(code + offset) for offset in _SYMBOL_CMAP_OFFSETS),
            tables.get((1, 0), {}).get(code),
            tables.get((3, 1), {}).get(code),
        ):
            if candidate is not None:
                result[code] = candidate
                break
    return result
