"""Plain data records shared by every stage of the engine.

`Glyph` is built once per shown glyph on the hot path, so it is a NamedTuple (cheap to
create, immutable, picklable for the inspector's worker threads).
"""

from __future__ import annotations

import math
from enum import Enum
from typing import NamedTuple

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]


class StrEnum(str, Enum):
    """A string-valued enum (`enum.StrEnum`, which Python 3.10 lacks): a member compares and
    hashes as its value, and str(), f-strings and json write the value, so records holding
    members serialise exactly as if they held the strings."""

    def __str__(self) -> str:
        return str.__str__(self)


class TextMode(StrEnum):
    """The four text modes (spec §6–§9), as the library, the sweep and the decision log name
    them. The command line and core.output call reading order "text" (`command_name`)."""

    READING = "reading"  # §6
    LAYOUT = "layout"  # §7
    COLUMNS = "columns"  # §8
    STRUCTURE = "structure"  # §9

    @property
    def command_name(self) -> str:
        """The name `glyphscope-extract --mode` and core.output take."""
        return "text" if self is TextMode.READING else self.value


class HiddenSelection(StrEnum):
    """What text modes read of the text a reader cannot see (core.text.hidden, the CLI's
    `--hidden`): everything visible by §4 (the spec), all but the hidden text, or only it. Named
    here so that text mode's default reaches the CLI and core.output without loading the
    hidden-text search."""

    INCLUDE = "include"
    EXCLUDE = "exclude"
    ONLY = "only"


class DecodeSource(StrEnum):
    """The step of the fallback chain (spec §1) that turned a code into Unicode.

    `Glyph.decode_source` holds the value, a plain string: the decoders bind the values once
    (core.fonts.dicts) and every reader compares against the members.
    """

    TO_UNICODE = "tounicode"  # §9.10.3 embedded /ToUnicode CMap
    ENCODING_CMAP = "encoding_cmap"  # Type0 /Encoding: embedded CMap stream or a named CMap
    DIFFERENCES = "differences"  # simple font /Encoding /Differences glyph name
    PREDEFINED_CMAP = "predefined_cmap"  # Adobe-GB1/CNS1/Japan1/Korea1 CID → Unicode table
    BUILTIN_ENCODING = "builtin_encoding"  # WinAnsi, MacRoman, Standard, Symbol, ZapfDingbats
    FONT_PROGRAM = "font_program"  # the embedded font program's own cmap or glyph names
    # A glyph name that is a prefix plus a number (dvips' /a65, /g18, /C0041) taken as the
    # character code, as poppler does; only when no other step answered. A guess, labelled so.
    GLYPH_NAME_NUMBER = "glyph_name_number"
    # A TeX font without /ToUnicode: its encoding (OT1, T1, OML, OMS, TS1) identified from the
    # font name or its codes, or a TeX glyph name outside the AGL (core.fonts.tex).
    TEX_ENCODING = "tex_encoding"
    # Text from marked content /ActualText (§14.9.4) or /E (§14.9.5), in text output only.
    ACTUAL_TEXT = "actual_text"
    UNRESOLVED = "unresolved"  # no step answered; text is ""


class Glyph(NamedTuple):
    """One shown glyph (spec §3), all geometry in default user space (§8.3.2.3).

    quad: points 0..3, 0→1 along the writing direction (baseline for horizontal text),
    0→3 up the glyph (ascent side). `font_size` is the size as drawn: the Tf operand scaled
    by the text rendering matrix (§9.4.4), in user-space units.
    """

    text: str
    code: int
    code_length: int
    font_key: str
    font_name: str
    font_size: float
    origin: Point
    glyph_end: Point
    baseline_end: Point
    quad: Quad
    writing_mode: int
    render_mode: int
    mcid: int | None
    token_index: int
    form_depth: int
    decode_source: str
    draw_order: int
    # Provenance: the showing operator inside the stream that painted the glyph (the page's
    # or the form's), the element of a TJ array (0 for Tj ' "), and the chain of form
    # XObject names ("" on the page stream, "/Fm1/Fm2" nested).
    operator_index: int
    element_index: int
    form_path: str


def has_finite_geometry(glyph: Glyph) -> bool:
    """True when the size, origin, ends and quad are all finite numbers (a huge Tm or a
    1e308 operand overflows them to inf, and inf − inf makes nan)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = glyph.quad
    total = glyph.font_size + sum(glyph.origin) + sum(glyph.glyph_end) + sum(glyph.baseline_end)
    total += x0 + y0 + x1 + y1 + x2 + y2 + x3 + y3
    if math.isfinite(total):
        return True
    # The sum of finite values can still overflow: look at each one.
    numbers = (glyph.font_size, *glyph.origin, *glyph.glyph_end, *glyph.baseline_end)
    return all(map(math.isfinite, (*numbers, x0, y0, x1, y1, x2, y2, x3, y3)))


def finite_json(value: object) -> object:
    """A JSON value with every non-finite float (nan, ±inf) written as null: JSON has no
    such numbers, and `json.dumps(allow_nan=False)` refuses them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_json(item) for item in value]
    return value
