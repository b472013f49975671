"""Fonts (§9.5–§9.8): split shown strings into codes, decode them (spec §1), measure them.

`load_font` reads a font dictionary once into plain Python data and never raises: a font it
cannot read decodes nothing and records why in `Font.info().problems`. The one later read is
the embedded font program, parsed on the first code the earlier decode steps leave open, so
the document must stay open while its fonts are used. `Font.glyphs` is the hot path; it
caches per code and per string.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import NamedTuple

import pikepdf

from core.cmap import CMap, parse_cmap
from core.encodings import (
    Encoding,
    base_encoding,
    glyph_name_to_unicode,
    standard14_name,
    standard14_widths,
)
from core.fontprogram import (
    EMPTY,
    FontProgramUnicode,
    embedded_program_type,
    font_program_unicode,
)
from core.geometry import Matrix, apply, apply_vector
from core.predefined import cid_to_unicode, ordering_of, predefined_cmap
from core.records import DecodeSource

DEFAULT_ASCENT = 0.8
DEFAULT_DESCENT = -0.2
# Width of every glyph of a font whose dictionary cannot be read: half an em keeps broken text
# advancing (and therefore readable in order) instead of piling up at one point.
BROKEN_FONT_WIDTH = 0.5
DEFAULT_CID_WIDTH = 1000.0  # §9.7.4.3 /DW default
DEFAULT_VERTICAL = (880.0, -1000.0)  # §9.7.4.3 /DW2 default [vy w1y]
_GLYPH_SPACE = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)  # §9.2.4 for all but Type 3 fonts
_STRING_CACHE_LIMIT = 8192
_MAX_AUX_STREAM_BYTES = 16 * 1024 * 1024  # ToUnicode, embedded CMaps, CIDToGIDMap

_TO_UNICODE = DecodeSource.TO_UNICODE.value
_ENCODING_CMAP = DecodeSource.ENCODING_CMAP.value
_DIFFERENCES = DecodeSource.DIFFERENCES.value
_PREDEFINED = DecodeSource.PREDEFINED_CMAP.value
_BUILTIN = DecodeSource.BUILTIN_ENCODING.value
_FONT_PROGRAM = DecodeSource.FONT_PROGRAM.value
_GLYPH_NAME_NUMBER = DecodeSource.GLYPH_NAME_NUMBER.value
_UNRESOLVED = DecodeSource.UNRESOLVED.value

# §9.7.5.2 Table 118: the Unicode-keyed predefined CMaps, whose codes are Unicode themselves.
_UNICODE_CMAP = re.compile(r"-(UCS2|UTF16|UTF32|UTF8)-")
_UNICODE_CODECS = {"UCS2": "utf-16-be", "UTF16": "utf-16-be", "UTF32": "utf-32-be"}


class FontGlyph(NamedTuple):
    """One code of a shown string, decoded and measured (text-space units, §9.4.4)."""

    code: int
    code_length: int
    text: str
    decode_source: str
    width: float  # w0, horizontal displacement
    is_single_byte_space: bool  # §9.4.3: Tw applies to the single-byte code 32 only
    vertical_displacement: float  # w1y (writing mode 1), 0.0 otherwise
    position_vector: tuple[float, float]  # (vx, vy) §9.7.4.3, (0, 0) in writing mode 0


@dataclass(frozen=True, slots=True)
class FontInfo:
    """What the inspector's Fonts panel shows about a font, and where each answer came from."""

    base_font: str
    subtype: str
    encoding: str
    has_to_unicode: bool
    widths_source: str
    w_sorted_on_read: bool
    descendant_subtype: str
    cid_system_info: str
    embedded_program: str
    writing_mode: int
    problems: tuple[str, ...]


class _Ranges:
    """CID metrics from /W or /W2 (§9.7.4.3) as disjoint ranges sorted by CID for bisection.

    Producers write entries out of CID order and sometimes overlapping. Entries are taken in
    file order and each one only claims CIDs no earlier entry claimed, then kept sorted by
    CID: the one written first wins, the same answer as a linear scan in file order (spec §2).
    """

    __slots__ = ("starts", "ends", "owners", "entries", "sorted_on_read")

    def __init__(self, entries: list[tuple[int, int, tuple]]) -> None:
        # entries: (first CID, last CID, values) with one value per CID, or one for all.
        self.entries = entries
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.owners: list[int] = []
        self.sorted_on_read = any(
            entries[i][0] <= entries[i - 1][1] for i in range(1, len(entries))
        )
        for owner, (first, last, _) in enumerate(entries):
            self._claim(first, last, owner)

    def _claim(self, first: int, last: int, owner: int) -> None:
        starts, ends = self.starts, self.ends
        index = bisect_right(starts, first) - 1
        cursor = first
        if index >= 0 and ends[index] >= first:
            cursor = ends[index] + 1
        index += 1
        while cursor <= last:
            if index < len(starts) and starts[index] <= last:
                if starts[index] > cursor:
                    self._insert(index, cursor, starts[index] - 1, owner)
                    index += 1
                cursor = max(cursor, ends[index] + 1)
                index += 1
            else:
                self._insert(index, cursor, last, owner)
                break

    def _insert(self, index: int, first: int, last: int, owner: int) -> None:
        self.starts.insert(index, first)
        self.ends.insert(index, last)
        self.owners.insert(index, owner)

    def get(self, cid: int) -> tuple | None:
        index = bisect_right(self.starts, cid) - 1
        if index < 0 or cid > self.ends[index]:
            return None
        first, _, values = self.entries[self.owners[index]]
        return values[cid - first] if len(values) > 1 else values[0]


class _SimpleDecoder:
    """Type 1, TrueType, Type 3 (§9.6): one byte per code, widths from /Widths."""

    def __init__(
        self,
        to_unicode: CMap | None,
        encoding: _SimpleEncoding,
        zapf_dingbats: bool,
        widths: tuple[int, list[float]] | None,
        standard_widths: dict[str, int] | None,
        missing_width: float,
        font_matrix: Matrix | None,
        program: _LazyProgram,
    ) -> None:
        self.to_unicode = to_unicode
        self.differences = encoding.differences
        self.base = encoding.base
        self.program_first = encoding.program_first
        self.numbered_names = encoding.numbered_names
        self.named_base = encoding.named_base
        self.zapf_dingbats = zapf_dingbats
        self.widths = widths
        self.standard_widths = standard_widths
        self.missing_width = missing_width
        self.font_matrix = font_matrix
        self.program = program

    def split(self, data: bytes) -> list[tuple[int, int]]:
        return [(byte, 1) for byte in data]

    def glyph(self, code: int, length: int) -> FontGlyph:
        text, source = self.text(code)
        if self.font_matrix is None:
            width = self.glyph_width(code) / 1000.0
        else:
            # §9.6.5: Type 3 glyph space is mapped by /FontMatrix; the advance is (w0, 0) there.
            width = apply_vector(self.font_matrix, self.glyph_width(code), 0.0)[0]
        return FontGlyph(code, 1, text, source, width, code == 32, 0.0, (0.0, 0.0))

    def glyph_name(self, code: int) -> str | None:
        name = self.differences.get(code)
        if name is None and self.base is not None:
            name = self.base[code]
        return name

    def text(self, code: int) -> tuple[str, str]:
        if self.to_unicode is not None:
            text = self.to_unicode.unicode(code)
            if text:
                return text, _TO_UNICODE
        name = self.differences.get(code)
        program_tried = False
        if name is not None:
            text = glyph_name_to_unicode(name, self.zapf_dingbats)
            if text:
                return text, _DIFFERENCES
        else:
            if self.program_first:
                # Table 114: the implicit base encoding of an embedded program is its own.
                program_tried = True
                text, source = self._program_text(code)
                if text:
                    return text, source
            if self.base is not None and self.base[code] is not None:
                text = glyph_name_to_unicode(self.base[code], self.zapf_dingbats)
                if text:
                    return text, _BUILTIN
        if not program_tried:
            text, source = self._program_text(code)
            if text:
                return text, source
        if self.numbered_names and name is not None:
            text = _numbered_name_text(code, self.named_base)
            if text:
                return text, _GLYPH_NAME_NUMBER
        return "", _UNRESOLVED

    def _program_text(self, code: int) -> tuple[str | None, str]:
        program = self.program.get()
        # A program whose built-in encoding is StandardEncoding answers from a standard table.
        return program.by_code.get(code), _BUILTIN if program.standard_encoding else _FONT_PROGRAM

    def glyph_width(self, code: int) -> float:
        """Glyph-space width: /Widths (§9.6.2.1), else the standard 14 metrics (§9.6.2.2)."""
        if self.widths is not None:
            first_char, widths = self.widths
            if 0 <= code - first_char < len(widths):
                return widths[code - first_char]
            return self.missing_width
        if self.standard_widths is not None:
            name = self.glyph_name(code)
            if name is not None and name in self.standard_widths:
                return float(self.standard_widths[name])
        return self.missing_width


class _CompositeDecoder:
    """Type 0 (§9.7): codes cut by the /Encoding CMap, CIDs measured by /W /W2 of the CIDFont."""

    def __init__(
        self,
        cmap: CMap,
        unicode_codec: str | None,
        to_unicode: CMap | None,
        ordering: str,
        widths: _Ranges,
        default_width: float,
        vertical: _Ranges | None,
        default_vertical: tuple[float, float],
        cid_to_gid: bytes | None,
        program: _LazyProgram,
    ) -> None:
        self.cmap = cmap
        self.unicode_codec = unicode_codec
        self.to_unicode = to_unicode
        self.ordering = ordering
        self.widths = widths
        self.default_width = default_width
        self.vertical = vertical
        self.default_vertical = default_vertical
        self.cid_to_gid = cid_to_gid
        self.program = program
        self.split = cmap.split

    def glyph(self, code: int, length: int) -> FontGlyph:
        cid = self.cmap.cid(code)
        if cid is None:
            cid = 0  # §9.7.6.3: an unmapped code selects CID 0 (.notdef)
        text, source = self.text(code, length, cid)
        w0 = self.widths.get(cid)
        w0 = (w0 if w0 is not None else self.default_width) / 1000.0
        if self.vertical is None:
            return FontGlyph(
                code, length, text, source, w0, length == 1 and code == 32, 0.0, (0.0, 0.0)
            )
        # §9.7.4.3: position vector defaults to (w0 / 2, DW2[0]); displacement to DW2[1].
        metrics = self.vertical.get(cid)
        if metrics is None:
            vy, w1y = self.default_vertical
            vx = w0 * 500.0
        else:
            w1y, vx, vy = metrics
        return FontGlyph(
            code,
            length,
            text,
            source,
            w0,
            length == 1 and code == 32,
            w1y / 1000.0,
            (vx / 1000.0, vy / 1000.0),
        )

    def text(self, code: int, length: int, cid: int) -> tuple[str, str]:
        if self.to_unicode is not None:
            text = self.to_unicode.unicode(code)
            if text:
                return text, _TO_UNICODE
        if self.unicode_codec is not None:
            text = _decode_unicode_code(code, length, self.unicode_codec)
            if text:
                return text, _ENCODING_CMAP
        elif self.cmap.has_unicode:
            text = self.cmap.unicode(code)
            if text:
                return text, _ENCODING_CMAP
        if self.ordering:
            text = cid_to_unicode(self.ordering, cid)
            if text:
                return text, _PREDEFINED
        glyph = cid
        if self.cid_to_gid is not None:
            glyph = int.from_bytes(self.cid_to_gid[2 * cid : 2 * cid + 2], "big")
        text = self.program.get().by_glyph.get(glyph)
        if text:
            return text, _FONT_PROGRAM
        return "", _UNRESOLVED


class _LazyProgram:
    """The embedded font program, parsed on the first code that needs it (most fonts never do)."""

    __slots__ = ("descriptor", "subtype", "problems", "program")

    def __init__(self, descriptor: pikepdf.Dictionary | None, subtype: str, problems: list[str]):
        self.descriptor = descriptor
        self.subtype = subtype
        self.problems = problems
        self.program: FontProgramUnicode | None = None if descriptor is not None else EMPTY

    def get(self) -> FontProgramUnicode:
        if self.program is None:
            try:
                self.program = font_program_unicode(self.descriptor, self.subtype)
            except Exception as error:  # glyphs() must not raise on a hostile font program
                problem = f"font program skipped: {type(error).__name__}: {error}"
                self.program = FontProgramUnicode("", {}, {}, (problem,))
            self.problems.extend(self.program.problems)
            self.descriptor = None
        return self.program


class Font:
    """A loaded font: identity, vertical extent, and the decoder behind `glyphs`."""

    __slots__ = (
        "name",
        "subtype",
        "writing_mode",
        "ascent",
        "descent",
        "is_composite",
        "_decoder",
        "_details",
        "_problems",
        "_info",
        "_glyph_cache",
        "_string_cache",
    )

    def __init__(
        self,
        name: str,
        subtype: str,
        writing_mode: int,
        ascent: float,
        descent: float,
        decoder: _SimpleDecoder | _CompositeDecoder,
        details: dict,
        problems: list[str],
    ) -> None:
        self.name = name
        self.subtype = subtype
        self.writing_mode = writing_mode
        self.ascent = ascent
        self.descent = descent
        self.is_composite = isinstance(decoder, _CompositeDecoder)
        self._decoder = decoder
        self._details = details
        self._problems = problems
        self._info: FontInfo | None = None
        self._glyph_cache: dict[tuple[int, int], FontGlyph] = {}
        self._string_cache: dict[bytes, tuple[FontGlyph, ...]] = {}

    def glyphs(self, data: bytes) -> list[FontGlyph]:
        """The glyphs a shown string (Tj operand, TJ element) paints, in order."""
        cached = self._string_cache.get(data)
        if cached is None:
            glyph_cache = self._glyph_cache
            decoder = self._decoder
            glyphs = []
            for key in decoder.split(data):
                glyph = glyph_cache.get(key)
                if glyph is None:
                    glyph = glyph_cache[key] = decoder.glyph(*key)
                glyphs.append(glyph)
            if len(self._string_cache) >= _STRING_CACHE_LIMIT:
                self._string_cache.clear()
            cached = self._string_cache[data] = tuple(glyphs)
        return list(cached)

    def info(self) -> FontInfo:
        info = self._info
        if info is None or len(info.problems) != len(self._problems):
            info = self._info = FontInfo(
                base_font=self.name,
                subtype=self.subtype,
                writing_mode=self.writing_mode,
                problems=tuple(self._problems),
                **self._details,
            )
        return info

    def __repr__(self) -> str:
        return f"Font({self.name!r}, {self.subtype})"


def load_font(font_dict: pikepdf.Dictionary) -> Font:
    """Read a font dictionary (§9.5). Never raises: an unreadable font decodes nothing."""
    problems: list[str] = []
    name, subtype = "", ""
    if not isinstance(font_dict, pikepdf.Dictionary):
        problems.append("font is not a dictionary")
        return _broken_font(name, subtype, problems)
    try:
        name = _name(font_dict.get("/BaseFont")) or _name(font_dict.get("/Name"))
        subtype = _name(font_dict.get("/Subtype"))
        if subtype == "Type0":
            return _load_composite(font_dict, name, problems)
        if subtype not in ("Type1", "MMType1", "TrueType", "Type3"):
            problems.append(f"unknown font subtype {subtype or '(none)'}; read as Type1")
        return _load_simple(font_dict, name, subtype or "Type1", problems)
    except Exception as error:  # the public promise: a broken font never stops a page
        problems.append(f"font dictionary unreadable: {type(error).__name__}: {error}")
        return _broken_font(name, subtype, problems)


def _load_simple(font_dict: pikepdf.Dictionary, name: str, subtype: str, problems: list) -> Font:
    is_type3 = subtype == "Type3"
    descriptor = _dictionary(font_dict.get("/FontDescriptor"))
    standard = None if is_type3 else standard14_name(name)
    flags = int(_number(descriptor.get("/Flags"), 0)) if descriptor is not None else 0
    # §9.8.2 Table 123: bit 3 Symbolic, bit 6 Nonsymbolic.
    symbolic = standard in ("Symbol", "ZapfDingbats") or bool(flags & 4 and not flags & 32)
    program_type = embedded_program_type(descriptor) if descriptor is not None else ""
    encoding = _simple_encoding(
        font_dict.get("/Encoding"), subtype, standard, symbolic, program_type, problems
    )
    font_matrix = _font_matrix(font_dict.get("/FontMatrix"), problems) if is_type3 else None
    widths = _simple_widths(font_dict, problems)
    standard_widths = standard14_widths(standard) if widths is None and standard else None
    missing_width = _number(descriptor.get("/MissingWidth"), 0.0) if descriptor is not None else 0.0
    to_unicode = _to_unicode(font_dict, problems)
    decoder = _SimpleDecoder(
        to_unicode,
        encoding,
        standard == "ZapfDingbats",
        widths,
        standard_widths,
        missing_width,
        font_matrix,
        _LazyProgram(descriptor if program_type else None, subtype, problems),
    )
    if is_type3:
        ascent, descent = _type3_extent(font_dict.get("/FontBBox"), font_matrix)
    else:
        ascent, descent = _descriptor_extent(descriptor)
    if widths is not None:
        widths_source = "Widths"
    elif standard_widths is not None:
        widths_source = f"standard14:{standard}"
    else:
        widths_source = "default"
    details = {
        "encoding": encoding.label,
        "has_to_unicode": to_unicode is not None,
        "widths_source": widths_source,
        "w_sorted_on_read": False,
        "descendant_subtype": "",
        "cid_system_info": "",
        "embedded_program": program_type,
    }
    return Font(name, subtype, 0, ascent, descent, decoder, details, problems)


@dataclass(frozen=True, slots=True)
class _SimpleEncoding:
    """How a simple font's codes become glyph names (§9.6.6) before the font program speaks."""

    differences: dict[int, str]
    base: Encoding | None  # the table behind the codes /Differences leaves alone
    named_base: Encoding | None  # the base encoding /Encoding or /BaseEncoding names
    program_first: bool  # the embedded program's own encoding comes before `base`
    numbered_names: bool  # every /Differences name is a prefix and its own code (/a65)
    label: str


def _simple_encoding(
    encoding: object,
    subtype: str,
    standard: str | None,
    symbolic: bool,
    program_type: str,
    problems: list,
) -> _SimpleEncoding:
    """The encoding of a simple font (§9.6.6) and how the Fonts panel describes it."""
    is_type3 = subtype == "Type3"
    differences: dict[int, str] = {}
    base_name = ""
    if isinstance(encoding, pikepdf.Name):
        base_name = _name(encoding)
    elif isinstance(encoding, pikepdf.Dictionary):
        base_name = _name(encoding.get("/BaseEncoding"))
        differences = _differences(encoding.get("/Differences"), problems)
    elif encoding is not None:
        problems.append("/Encoding is neither a name nor a dictionary")
    named = base_encoding(base_name) if base_name else None
    if base_name and named is None:
        problems.append(f"unknown base encoding {base_name}")
    # Table 114: without a base encoding, an embedded program's built-in encoding is the
    # implicit base. §9.6.6.4 keeps StandardEncoding for a TrueType font that has an
    # /Encoding dictionary; one without /Encoding is read through its own cmap first.
    program_first = (
        named is None
        and bool(program_type)
        and not is_type3
        and (subtype != "TrueType" or encoding is None)
    )
    if named is not None:
        base, base_label = named, base_name
    elif standard in ("Symbol", "ZapfDingbats"):
        base, base_label = base_encoding(standard), f"built-in {standard}"
    elif is_type3 or symbolic:
        # §9.6.6.2/§9.6.6.4: the font program's own encoding, read at the font-program step.
        base, base_label = None, "font built-in"
    else:
        # §9.6.6.1: a nonsymbolic font without a base encoding uses StandardEncoding.
        base, base_label = base_encoding("StandardEncoding"), "StandardEncoding (default)"
    if program_first:
        base_label = "font program" + (f", then {base_label}" if base is not None else "")
    if isinstance(encoding, pikepdf.Dictionary):
        label = f"{base_label} + {len(differences)} Differences"
    else:
        label = base_label if encoding is not None else f"none: {base_label}"
    return _SimpleEncoding(
        differences, base, named, program_first, _numbered_glyph_names(differences), label
    )


# dvips and similar producers name each glyph of a Type 3 font by its own code: /a65.
_NUMBERED_NAME = re.compile(r"[A-Za-z]{1,2}([0-9]{1,4})")


def _numbered_glyph_names(differences: dict[int, str]) -> bool:
    """True when every /Differences name (.notdef aside) is one or two letters followed by
    the decimal code it is placed at. Only then does the number say anything: subset
    fonts also use /g18-style names, for glyph indices that are not character codes, and
    Founder's /G41 names carry codes of CJK glyphs, so hex names are never read."""
    named = [(code, name) for code, name in differences.items() if name != ".notdef"]
    for code, name in named:
        match = _NUMBERED_NAME.fullmatch(name)
        if match is None or int(match.group(1)) != code:
            return False
    return bool(named)


def _numbered_name_text(code: int, named_base: Encoding | None) -> str | None:
    """The last decode step (GLYPH_NAME_NUMBER): a glyph named by its own code reads as
    that code. As pdf.js does, a named base encoding's glyph for the code wins; otherwise,
    as poppler does, the code is taken as Latin-1. Control codes stay unresolved."""
    if named_base is not None and named_base[code] is not None:
        return glyph_name_to_unicode(named_base[code])
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return chr(code)
    return None


def _differences(array: object, problems: list) -> dict[int, str]:
    """§9.6.6.1: [code name name … code name …], each name taking the next code."""
    result: dict[int, str] = {}
    if not isinstance(array, pikepdf.Array):
        return result
    code = None
    for item in array:
        if isinstance(item, pikepdf.Name):
            if code is None or not 0 <= code <= 255:
                problems.append("/Differences name without a valid code; rest ignored")
                break
            result[code] = _name(item)
            code += 1
        elif isinstance(item, int):
            code = item
        else:
            problems.append("/Differences entry neither code nor name; rest ignored")
            break
    return result


def _simple_widths(font_dict: pikepdf.Dictionary, problems: list) -> tuple[int, list[float]] | None:
    widths = font_dict.get("/Widths")
    if not isinstance(widths, pikepdf.Array):
        return None
    first_char = int(_number(font_dict.get("/FirstChar"), 0))
    values = [_number(width, 0.0) for width in widths]
    return first_char, values


def _load_composite(font_dict: pikepdf.Dictionary, name: str, problems: list) -> Font:
    descendants = font_dict.get("/DescendantFonts")
    descendant = descendants[0] if isinstance(descendants, pikepdf.Array) and descendants else None
    if not isinstance(descendant, pikepdf.Dictionary):
        # The /Encoding and /ToUnicode still decode; widths fall back to the /DW default.
        problems.append("Type0 font without a descendant CIDFont")
        descendant = pikepdf.Dictionary()
    descendant_subtype = _name(descendant.get("/Subtype"))
    cmap, cmap_label = _encoding_cmap(font_dict.get("/Encoding"), problems)
    if cmap is None:
        cmap = predefined_cmap("Identity-H")
        cmap_label += " (unreadable; Identity-H used)"
        if cmap is None:
            return _broken_font(name, "Type0", problems)
    writing_mode = 1 if cmap.writing_mode == 1 or cmap_label.endswith("-V") else 0
    registry, ordering = _cid_system_info(descendant.get("/CIDSystemInfo"))
    collection = ordering_of(registry, ordering) if registry or ordering else ""
    widths = _Ranges(_cid_metrics(descendant.get("/W"), 1, "/W", problems))
    default_width = _number(descendant.get("/DW"), DEFAULT_CID_WIDTH)
    vertical = None
    default_vertical = DEFAULT_VERTICAL
    if writing_mode == 1:
        vertical = _Ranges(_cid_metrics(descendant.get("/W2"), 3, "/W2", problems))
        dw2 = descendant.get("/DW2")
        if isinstance(dw2, pikepdf.Array) and len(dw2) == 2:
            default_vertical = (_number(dw2[0], 880.0), _number(dw2[1], -1000.0))
    descriptor = _dictionary(descendant.get("/FontDescriptor"))
    program_type = embedded_program_type(descriptor) if descriptor is not None else ""
    cid_to_gid = None
    if descendant_subtype == "CIDFontType2":
        cid_to_gid = _cid_to_gid(descendant.get("/CIDToGIDMap"), problems)
    to_unicode = _to_unicode(font_dict, problems)
    decoder = _CompositeDecoder(
        cmap,
        _unicode_codec(font_dict.get("/Encoding")),
        to_unicode,
        "" if ordering == "Identity" else collection,
        widths,
        default_width,
        vertical,
        default_vertical,
        cid_to_gid,
        _LazyProgram(descriptor if program_type else None, descendant_subtype, problems),
    )
    ascent, descent = _descriptor_extent(descriptor)
    has_w = bool(widths.entries)
    details = {
        "encoding": cmap_label,
        "has_to_unicode": to_unicode is not None,
        "widths_source": f"W (sorted on read: {widths.sorted_on_read})" if has_w else "default",
        "w_sorted_on_read": widths.sorted_on_read,
        "descendant_subtype": descendant_subtype,
        "cid_system_info": collection,
        "embedded_program": program_type,
    }
    return Font(name, "Type0", writing_mode, ascent, descent, decoder, details, problems)


def _encoding_cmap(encoding: object, problems: list) -> tuple[CMap | None, str]:
    """The Type 0 /Encoding (§9.7.5): a predefined CMap's name or an embedded CMap stream."""
    if isinstance(encoding, pikepdf.Name):
        cmap_name = _name(encoding)
        cmap = predefined_cmap(cmap_name)
        if cmap is None:
            problems.append(f"predefined CMap {cmap_name} unavailable")
        return cmap, cmap_name
    if isinstance(encoding, pikepdf.Stream):
        data = _read_stream(encoding, "/Encoding CMap", problems)
        if data is None:
            return None, "embedded CMap"
        # §9.7.5.3 Table 120: /UseCMap in the stream dictionary acts as a usecmap operator.
        use = encoding.get("/UseCMap")
        if isinstance(use, pikepdf.Name):
            data = b"/" + _name(use).encode("latin-1") + b" usecmap\n" + data
        elif use is not None:
            problems.append("/UseCMap stream not followed")
        cmap = parse_cmap(data, predefined_cmap)
        problems.extend(f"/Encoding CMap: {problem}" for problem in cmap.problems[:3])
        if not cmap.has_cids:
            problems.append("embedded /Encoding CMap maps no CIDs")
            return None, "embedded CMap"
        return cmap, f"embedded CMap {cmap.name or '(unnamed)'}"
    problems.append("Type0 font without /Encoding")
    return None, "none"


def _unicode_codec(encoding: object) -> str | None:
    """The codec of a Unicode-keyed predefined CMap named by /Encoding (UniJIS-UCS2-H…)."""
    form = _UNICODE_CMAP.search(_name(encoding)) if isinstance(encoding, pikepdf.Name) else None
    return _UNICODE_CODECS.get(form.group(1), "utf-8") if form else None


def _decode_unicode_code(code: int, length: int, codec: str) -> str | None:
    try:
        text = code.to_bytes(length, "big").decode(codec)
    except (UnicodeDecodeError, OverflowError):
        return None
    return text if text and text != "\x00" else None


def _cid_system_info(info: object) -> tuple[str, str]:
    if not isinstance(info, pikepdf.Dictionary):
        return "", ""
    return _text(info.get("/Registry")), _text(info.get("/Ordering"))


def _cid_metrics(
    array: object, group: int, key: str, problems: list
) -> list[tuple[int, int, tuple]]:
    """/W (group 1) or /W2 (group 3) entries in file order (§9.7.4.3): `c [v …]` gives one
    value per CID from c, `cfirst clast v` one value for the whole range."""
    entries: list[tuple[int, int, tuple]] = []
    if not isinstance(array, pikepdf.Array):
        return entries
    items = list(array)
    index = 0
    try:
        while index < len(items):
            first = int(items[index])
            following = items[index + 1]
            if isinstance(following, pikepdf.Array):
                numbers = [float(value) for value in following]
                values = [
                    numbers[i] if group == 1 else tuple(numbers[i : i + group])
                    for i in range(0, len(numbers) - group + 1, group)
                ]
                if values:
                    entries.append((first, first + len(values) - 1, tuple(values)))
                index += 2
            else:
                numbers = [float(value) for value in items[index + 2 : index + 2 + group]]
                if len(numbers) < group:
                    raise IndexError("range entry cut short")
                value = numbers[0] if group == 1 else tuple(numbers)
                entries.append((first, int(following), (value,)))
                index += 2 + group
    except (TypeError, ValueError, IndexError) as error:
        problems.append(f"{key} malformed after {len(entries)} entries ({error}); rest ignored")
    return entries


def _cid_to_gid(mapping: object, problems: list) -> bytes | None:
    """§9.7.4.2: /CIDToGIDMap /Identity (or absent) = None; a stream of 2-byte GIDs."""
    if isinstance(mapping, pikepdf.Stream):
        return _read_stream(mapping, "/CIDToGIDMap", problems)
    return None


def _to_unicode(font_dict: pikepdf.Dictionary, problems: list) -> CMap | None:
    """§9.10.3 /ToUnicode; a stream that cannot be read or maps nothing falls through."""
    stream = font_dict.get("/ToUnicode")
    if stream is None:
        return None
    if not isinstance(stream, pikepdf.Stream):
        problems.append("/ToUnicode is not a stream")
        return None
    data = _read_stream(stream, "/ToUnicode", problems)
    if data is None:
        return None
    cmap = parse_cmap(data, predefined_cmap)
    problems.extend(f"/ToUnicode: {problem}" for problem in cmap.problems[:3])
    if not cmap.has_unicode:
        problems.append("/ToUnicode maps nothing")
        return None
    return cmap


def _read_stream(stream: pikepdf.Stream, label: str, problems: list) -> bytes | None:
    try:
        if _number(stream.get("/Length"), 0) > _MAX_AUX_STREAM_BYTES:
            problems.append(f"{label} larger than 16 MB skipped")
            return None
        data = stream.read_bytes()
    except pikepdf.PdfError as error:
        problems.append(f"{label} unreadable: {error}")
        return None
    if len(data) > _MAX_AUX_STREAM_BYTES:
        problems.append(f"{label} larger than 16 MB skipped")
        return None
    return data


def _font_matrix(array: object, problems: list) -> Matrix:
    """§9.6.5: a Type 3 font's /FontMatrix maps glyph space to text space."""
    numbers = _numbers(array, 6)
    if numbers is None or numbers[0] * numbers[3] - numbers[1] * numbers[2] == 0:
        problems.append("/FontMatrix missing or singular; 0.001 scale used")
        return _GLYPH_SPACE
    return tuple(numbers)


def _descriptor_extent(descriptor: pikepdf.Dictionary | None) -> tuple[float, float]:
    """Ascent and descent in text space (§9.8.1): /Ascent /Descent, else /FontBBox."""
    ascent = descent = 0.0
    if descriptor is not None:
        ascent = _number(descriptor.get("/Ascent"), 0.0) / 1000.0
        descent = _number(descriptor.get("/Descent"), 0.0) / 1000.0
        bbox = _numbers(descriptor.get("/FontBBox"), 4)
        if bbox is not None:
            ascent = ascent or max(bbox[1], bbox[3]) / 1000.0
            descent = descent or min(bbox[1], bbox[3]) / 1000.0
    return _sane_extent(ascent, descent)


def _type3_extent(bbox_array: object, font_matrix: Matrix) -> tuple[float, float]:
    """A Type 3 font's /FontBBox is in glyph space; its corners go through /FontMatrix."""
    bbox = _numbers(bbox_array, 4)
    if bbox is None or not any(bbox):
        return DEFAULT_ASCENT, DEFAULT_DESCENT
    ys = [apply(font_matrix, x, y)[1] for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])]
    return _sane_extent(max(ys), min(ys))


def _sane_extent(ascent: float, descent: float) -> tuple[float, float]:
    if descent > 0:
        descent = -descent  # some producers write the descent's magnitude
    if not descent:
        descent = DEFAULT_DESCENT
    if ascent <= 0:
        ascent = DEFAULT_ASCENT
    return ascent, descent


_NO_ENCODING = _SimpleEncoding({}, None, None, False, False, "unreadable")


def _broken_font(name: str, subtype: str, problems: list) -> Font:
    decoder = _SimpleDecoder(
        None,
        _NO_ENCODING,
        False,
        None,
        None,
        BROKEN_FONT_WIDTH * 1000.0,
        None,
        _LazyProgram(None, subtype, problems),
    )
    details = {
        "encoding": "unreadable",
        "has_to_unicode": False,
        "widths_source": "default",
        "w_sorted_on_read": False,
        "descendant_subtype": "",
        "cid_system_info": "",
        "embedded_program": "",
    }
    return Font(name, subtype, 0, DEFAULT_ASCENT, DEFAULT_DESCENT, decoder, details, problems)


def _name(obj: object) -> str:
    if not isinstance(obj, pikepdf.Name):
        return ""
    try:
        return str(obj)[1:]
    except UnicodeDecodeError:
        # §7.3.5: names are bytes; a non-UTF-8 one (e.g. a GBK font name) is shown #-escaped.
        return obj.unparse().decode("ascii")[1:]


def _text(obj: object) -> str:
    return str(obj) if isinstance(obj, (pikepdf.String, str)) else ""


def _dictionary(obj: object) -> pikepdf.Dictionary | None:
    return obj if isinstance(obj, pikepdf.Dictionary) else None


def _number(obj: object, default: float) -> float:
    try:
        return float(obj) if obj is not None else default
    except (TypeError, ValueError):
        return default


def _numbers(array: object, count: int) -> list[float] | None:
    if not isinstance(array, pikepdf.Array) or len(array) != count:
        return None
    try:
        return [float(value) for value in array]
    except (TypeError, ValueError):
        return None
