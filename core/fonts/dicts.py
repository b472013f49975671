"""What simple and composite fonts share (§9.5–§9.8): the glyph and font records, the `Font`
object `load_font` returns, the embedded program loaded on demand, and the readers both kinds
use (bounded streams, /ToUnicode, descriptor extents); PDF objects are read through
`glyphscope.core.pdf.objects`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

import pikepdf

from glyphscope.core.fonts.embedded import LimitNote
from glyphscope.core.pdf.objects import pdf_number, pdf_numbers
from glyphscope.core.pdf.streams import byte_size, decode_stream
from glyphscope.core.records import DecodeSource
from glyphscope.core.rules import Rules

# The CMap parser and the font-program reader are imported by the first font that needs
# them (a /ToUnicode or embedded CMap to parse, a program to read): a document of simple fonts
# with /ToUnicode never loads the program reader, one without any CMap stream not the parser.
if TYPE_CHECKING:
    from glyphscope.core.fonts.cmap.tables import CMap
    from glyphscope.core.fonts.program import FontProgramUnicode

DEFAULT_ASCENT = 0.8
DEFAULT_DESCENT = -0.2
_STRING_CACHE_LIMIT = 8192

# Decode-source values bound once: the decoders return them per code on the hot path.
TO_UNICODE = DecodeSource.TO_UNICODE.value
ENCODING_CMAP = DecodeSource.ENCODING_CMAP.value
DIFFERENCES = DecodeSource.DIFFERENCES.value
PREDEFINED = DecodeSource.PREDEFINED_CMAP.value
BUILTIN = DecodeSource.BUILTIN_ENCODING.value
FONT_PROGRAM = DecodeSource.FONT_PROGRAM.value
GLYPH_NAME_NUMBER = DecodeSource.GLYPH_NAME_NUMBER.value
TEX_ENCODING = DecodeSource.TEX_ENCODING.value
UNRESOLVED = DecodeSource.UNRESOLVED.value


class FontLimits(NamedTuple):
    """The font caps of the rules: decoded bytes of a font program and of a CMap-like stream
    (ToUnicode, embedded CMap, CIDToGIDMap), code points of one ToUnicode destination."""

    program_bytes: int
    cmap_bytes: int
    unicode_destination: int

    @classmethod
    def of(cls, rules: Rules) -> FontLimits:
        return cls(
            rules.max_font_program_bytes, rules.max_font_cmap_bytes, rules.max_unicode_destination
        )


DEFAULT_LIMITS = FontLimits.of(Rules())


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


class GlyphDecoder(Protocol):
    """What `Font` needs from a simple or composite decoder."""

    is_composite: bool

    def split(self, data: bytes) -> list[tuple[int, int]]: ...

    def glyph(self, code: int, length: int) -> FontGlyph: ...


class LazyProgram:
    """The embedded font program, parsed on the first code that needs it (most fonts never do)."""

    __slots__ = ("descriptor", "subtype", "problems", "program", "max_bytes")

    def __init__(
        self,
        descriptor: pikepdf.Dictionary | None,
        subtype: str,
        problems: list[str],
        max_bytes: int = DEFAULT_LIMITS.program_bytes,
    ):
        self.descriptor = descriptor
        self.subtype = subtype
        self.problems = problems
        self.max_bytes = max_bytes
        # Without a descriptor there is no program: font_program_unicode answers EMPTY.
        self.program: FontProgramUnicode | None = None

    def get(self) -> FontProgramUnicode:
        if self.program is None:
            from glyphscope.core.fonts.program import FontProgramUnicode, font_program_unicode

            try:
                self.program = font_program_unicode(self.descriptor, self.subtype, self.max_bytes)
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
        decoder: GlyphDecoder,
        details: dict,
        problems: list[str],
    ) -> None:
        self.name = name
        self.subtype = subtype
        self.writing_mode = writing_mode
        self.ascent = ascent
        self.descent = descent
        self.is_composite = decoder.is_composite
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
            glyph = self.glyph
            cached = tuple([glyph(code, length) for code, length in self._decoder.split(data)])
            if len(self._string_cache) >= _STRING_CACHE_LIMIT:
                self._string_cache.clear()
            self._string_cache[data] = cached
        return list(cached)

    def glyph(self, code: int, length: int) -> FontGlyph:
        """The glyph of one code of `length` bytes, decoded the first time the font meets it
        and the same object from then on."""
        key = (code, length)
        glyph = self._glyph_cache.get(key)
        if glyph is None:
            glyph = self._glyph_cache[key] = self._decoder.glyph(code, length)
        return glyph

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

    def limits_hit(self) -> list[str]:
        """The problems that are a cap of the rules reached (LimitNote), not damage."""
        return [problem for problem in self._problems if isinstance(problem, LimitNote)]

    def __repr__(self) -> str:
        return f"Font({self.name!r}, {self.subtype})"


def font_details(
    encoding: str,
    widths_source: str,
    *,
    has_to_unicode: bool = False,
    w_sorted_on_read: bool = False,
    descendant_subtype: str = "",
    cid_system_info: str = "",
    embedded_program: str = "",
) -> dict:
    """The `FontInfo` fields a loader answers (the rest come from `Font` itself)."""
    return {
        "encoding": encoding,
        "has_to_unicode": has_to_unicode,
        "widths_source": widths_source,
        "w_sorted_on_read": w_sorted_on_read,
        "descendant_subtype": descendant_subtype,
        "cid_system_info": cid_system_info,
        "embedded_program": embedded_program,
    }


def to_unicode_cmap(
    font_dict: pikepdf.Dictionary, problems: list, limits: FontLimits = DEFAULT_LIMITS
) -> CMap | None:
    """§9.10.3 /ToUnicode; a stream that cannot be read or maps nothing falls through."""
    stream = font_dict.get("/ToUnicode")
    if stream is None:
        return None
    if not isinstance(stream, pikepdf.Stream):
        problems.append("/ToUnicode is not a stream")
        return None
    data = read_stream(stream, "/ToUnicode", problems, limits.cmap_bytes)
    if data is None:
        return None
    cmap = parse_font_cmap(data, "/ToUnicode", problems, limits)
    if not cmap.has_unicode:
        problems.append("/ToUnicode maps nothing")
        return None
    return cmap


def parse_font_cmap(data: bytes, label: str, problems: list, limits: FontLimits) -> CMap:
    """A font's embedded CMap, its first problems and any destinations cut noted."""
    from glyphscope.core.fonts.cmap.parser import parse_cmap
    from glyphscope.core.fonts.cmap.predefined import predefined_cmap

    cmap = parse_cmap(data, predefined_cmap, limits.unicode_destination)
    problems.extend(f"{label}: {problem}" for problem in cmap.problems[:3])
    if cmap.cut_destinations:
        problems.append(
            LimitNote(
                f"{label}: {cmap.cut_destinations} destinations cut to "
                f"{limits.unicode_destination} code points"
            )
        )
    if cmap.not_text_destinations:
        problems.append(
            f"{label}: {cmap.not_text_destinations} destinations are not text (U+0000, a "
            "noncharacter or a lone surrogate); their codes are decoded by the next step"
        )
    return cmap


def read_stream(stream: pikepdf.Stream, label: str, problems: list, max_bytes: int) -> bytes | None:
    """A font stream decoded under its cap; None (and why in problems) when it cannot be read
    or decodes to more than max_bytes. A damaged tail keeps what came before it."""
    decoded = decode_stream(stream, max_bytes)
    if decoded.truncated:
        problems.append(LimitNote(f"{label} larger than {byte_size(max_bytes)} skipped"))
        return None
    if decoded.problem:
        problems.append(f"{label} unreadable: {decoded.problem}")
        if not decoded.data:
            return None
    return decoded.data


def descriptor_extent(descriptor: pikepdf.Dictionary | None) -> tuple[float, float]:
    """Ascent and descent in text space (§9.8.1): /Ascent /Descent, else /FontBBox."""
    ascent = descent = 0.0
    if descriptor is not None:
        ascent = pdf_number(descriptor.get("/Ascent"), 0.0) / 1000.0
        descent = pdf_number(descriptor.get("/Descent"), 0.0) / 1000.0
        bbox = pdf_numbers(descriptor.get("/FontBBox"), 4)
        if bbox is not None:
            ascent = ascent or max(bbox[1], bbox[3]) / 1000.0
            descent = descent or min(bbox[1], bbox[3]) / 1000.0
    return sane_extent(ascent, descent)


def sane_extent(ascent: float, descent: float) -> tuple[float, float]:
    if descent > 0:
        descent = -descent  # some producers write the descent's magnitude
    if not descent:
        descent = DEFAULT_DESCENT
    if ascent <= 0:
        ascent = DEFAULT_ASCENT
    return ascent, descent
