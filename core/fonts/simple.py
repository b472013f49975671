"""Simple fonts (§9.6): Type 1, TrueType and Type 3 fonts, one byte per code.

A code reads through /ToUnicode, the /Differences glyph name, the base encoding, the
embedded program, and last a glyph name that is its own code (spec §1); widths come from
/Widths, else the standard 14 metrics. Also the font that decodes nothing, for dictionaries
`load_font` cannot read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.fonts.dicts import (
    BUILTIN,
    DEFAULT_ASCENT,
    DEFAULT_DESCENT,
    DIFFERENCES,
    FONT_PROGRAM,
    GLYPH_NAME_NUMBER,
    TEX_ENCODING,
    TO_UNICODE,
    UNRESOLVED,
    Font,
    FontGlyph,
    FontLimits,
    LazyProgram,
    descriptor_extent,
    font_details,
    sane_extent,
    to_unicode_cmap,
)
from glyphscope.core.fonts.embedded import embedded_program_type
from glyphscope.core.fonts.encodings import (
    Encoding,
    base_encoding,
    glyph_name_to_unicode,
    standard14_name,
    standard14_widths,
)
from glyphscope.core.fonts.tex import ENCODINGS as TEX_ENCODINGS
from glyphscope.core.fonts.tex import (
    encoding_for_codes,
    encoding_for_font_name,
    tex_glyph_name_text,
)
from glyphscope.core.geometry import Matrix, apply, apply_vector
from glyphscope.core.pdf.objects import pdf_dictionary, pdf_name, pdf_number, pdf_numbers

if TYPE_CHECKING:
    from glyphscope.core.fonts.cmap.tables import CMap

# Width of every glyph of a font whose dictionary cannot be read: half an em keeps broken text
# advancing (and therefore readable in order) instead of piling up at one point.
BROKEN_FONT_WIDTH = 0.5
_GLYPH_SPACE = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)  # §9.2.4 for all but Type 3 fonts


class _SimpleDecoder:
    """Type 1, TrueType, Type 3 (§9.6): one byte per code, widths from /Widths."""

    is_composite = False

    def __init__(
        self,
        to_unicode: CMap | None,
        encoding: _SimpleEncoding,
        zapf_dingbats: bool,
        widths: tuple[int, list[float]] | None,
        standard_widths: dict[str, int] | None,
        missing_width: float,
        font_matrix: Matrix | None,
        program: LazyProgram,
        tex: dict[int, str] | None = None,
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
        # A TeX encoding (core.fonts.tex): for a font named as a TeX font it stands in for
        # the default base encoding; for a numbered-name font for the code-as-Latin-1 guess.
        self.tex = tex

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
                return text, TO_UNICODE
        name = self.differences.get(code)
        program_tried = False
        if name is not None:
            text = tex_glyph_name_text(name)
            if text:
                return text, TEX_ENCODING
            text = glyph_name_to_unicode(name, self.zapf_dingbats)
            if text:
                return text, DIFFERENCES
        else:
            if self.program_first:
                # Table 114: the implicit base encoding of an embedded program is its own.
                program_tried = True
                text, source = self._program_text(code)
                if text:
                    return text, source
            if self.tex is not None and not self.numbered_names:
                text = self.tex.get(code)
                if text:
                    return text, TEX_ENCODING
            if self.base is not None and self.base[code] is not None:
                text = glyph_name_to_unicode(self.base[code], self.zapf_dingbats)
                if text:
                    return text, BUILTIN
        if not program_tried:
            text, source = self._program_text(code)
            if text:
                return text, source
        if self.numbered_names and name is not None:
            if self.tex is not None:
                text = self.tex.get(code)
                if text:
                    return text, TEX_ENCODING
            text = _numbered_name_text(code, self.named_base)
            if text:
                return text, GLYPH_NAME_NUMBER
        return "", UNRESOLVED

    def _program_text(self, code: int) -> tuple[str | None, str]:
        program = self.program.get()
        # A program whose built-in encoding is StandardEncoding answers from a standard table.
        return program.by_code.get(code), BUILTIN if program.standard_encoding else FONT_PROGRAM

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


def load_simple(
    font_dict: pikepdf.Dictionary, name: str, subtype: str, problems: list, limits: FontLimits
) -> Font:
    is_type3 = subtype == "Type3"
    descriptor = pdf_dictionary(font_dict.get("/FontDescriptor"))
    standard = None if is_type3 else standard14_name(name)
    flags = int(pdf_number(descriptor.get("/Flags"), 0)) if descriptor is not None else 0
    # §9.8.2 Table 123: bit 3 Symbolic, bit 6 Nonsymbolic.
    symbolic = standard in ("Symbol", "ZapfDingbats") or bool(flags & 4 and not flags & 32)
    program_type = embedded_program_type(descriptor)
    encoding = _simple_encoding(
        font_dict.get("/Encoding"), subtype, standard, symbolic, program_type, problems
    )
    font_matrix = _font_matrix(font_dict.get("/FontMatrix"), problems) if is_type3 else None
    widths = _simple_widths(font_dict)
    standard_widths = standard14_widths(standard) if widths is None and standard else None
    missing_width = (
        pdf_number(descriptor.get("/MissingWidth"), 0.0) if descriptor is not None else 0.0
    )
    to_unicode = to_unicode_cmap(font_dict, problems, limits)
    tex = _tex_encoding(name, encoding)
    decoder = _SimpleDecoder(
        to_unicode,
        encoding,
        standard == "ZapfDingbats",
        widths,
        standard_widths,
        missing_width,
        font_matrix,
        LazyProgram(descriptor if program_type else None, subtype, problems, limits.program_bytes),
        None if tex is None else TEX_ENCODINGS[tex],
    )
    if font_matrix is not None:  # a Type 3 font
        ascent, descent = _type3_extent(font_dict.get("/FontBBox"), font_matrix)
    else:
        ascent, descent = descriptor_extent(descriptor)
    if widths is not None:
        widths_source = "Widths"
    elif standard_widths is not None:
        widths_source = f"standard14:{standard}"
    else:
        widths_source = "default"
    details = font_details(
        encoding.label if tex is None else f"{encoding.label} (TeX {tex})",
        widths_source,
        has_to_unicode=to_unicode is not None,
        embedded_program=program_type,
    )
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
        base_name = pdf_name(encoding)
    elif isinstance(encoding, pikepdf.Dictionary):
        base_name = pdf_name(encoding.get("/BaseEncoding"))
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
    base: Encoding | None
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


def _tex_encoding(name: str, encoding: _SimpleEncoding) -> str | None:
    """The TeX encoding of a font without a named base encoding: by its name, or for a
    numbered-name (dvips) font by the codes its /Differences uses."""
    if encoding.named_base is not None:
        return None
    if encoding.numbered_names:
        return encoding_for_codes(set(encoding.differences))
    return encoding_for_font_name(name)


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
            result[code] = pdf_name(item)
            code += 1
        elif isinstance(item, int):
            code = item
        else:
            problems.append("/Differences entry neither code nor name; rest ignored")
            break
    return result


def _simple_widths(font_dict: pikepdf.Dictionary) -> tuple[int, list[float]] | None:
    widths = font_dict.get("/Widths")
    if not isinstance(widths, pikepdf.Array):
        return None
    first_char = int(pdf_number(font_dict.get("/FirstChar"), 0))
    # One byte per code (§9.6.2.1): no entry past code 255 is ever read, however long the
    # array (ten million entries written for 95 codes).
    count = max(0, min(len(widths), 256 - max(first_char, 0)))
    values = [pdf_number(widths[index], 0.0) for index in range(count)]
    return first_char, values


def _font_matrix(array: object, problems: list) -> Matrix:
    """§9.6.5: a Type 3 font's /FontMatrix maps glyph space to text space."""
    numbers = pdf_numbers(array, 6)
    if numbers is None or numbers[0] * numbers[3] - numbers[1] * numbers[2] == 0:
        problems.append("/FontMatrix missing or singular; 0.001 scale used")
        return _GLYPH_SPACE
    a, b, c, d, e, f = numbers
    return (a, b, c, d, e, f)


def _type3_extent(bbox_array: object, font_matrix: Matrix) -> tuple[float, float]:
    """A Type 3 font's /FontBBox is in glyph space; its corners go through /FontMatrix."""
    bbox = pdf_numbers(bbox_array, 4)
    if bbox is None or not any(bbox):
        return DEFAULT_ASCENT, DEFAULT_DESCENT
    ys = [apply(font_matrix, x, y)[1] for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])]
    return sane_extent(max(ys), min(ys))


_NO_ENCODING = _SimpleEncoding({}, None, None, False, False, "unreadable")


def broken_font(name: str, subtype: str, problems: list) -> Font:
    decoder = _SimpleDecoder(
        None,
        _NO_ENCODING,
        False,
        None,
        None,
        BROKEN_FONT_WIDTH * 1000.0,
        None,
        LazyProgram(None, subtype, problems),
    )
    details = font_details(_NO_ENCODING.label, "default")
    return Font(name, subtype, 0, DEFAULT_ASCENT, DEFAULT_DESCENT, decoder, details, problems)
