"""Every threshold of the extraction rules (spec §4–§9) in one immutable object.

Each field's default is the spec's; the inspector and the CLI (`--rule NAME=VALUE`,
`--rules FILE`) replace them. Every function that decides takes a `Rules`; no module
reads a constant of its own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, SupportsFloat, SupportsIndex

from glyphscope.core.errors import RuleError


@dataclass(frozen=True, slots=True)
class Rules:
    # §6 word spaces: gap after the preceding glyph end > ratio × current box height.
    space_gap_ratio: float = 0.15
    # §6 line breaks: origin move across the writing direction > ratio × larger box height.
    line_break_ratio: float = 0.5
    # §5 duplicates: size tolerance, offsets along/across the baseline (× size), scan window.
    duplicate_size_tolerance: float = 0.05
    duplicate_along: float = 0.1
    duplicate_across: float = 0.2
    duplicate_scan_window: float = 0.25
    # §8 columns: a horizontal gap wider than this multiple of the median advance splits.
    columns_gap_multiple: float = 3.0
    # §8 columns: a later line of a band may narrow a gutter to this fraction of its opening
    # width (or to the gap threshold, whichever is less) and the gutter survives; from its
    # right edge only by less than this fraction (core.text.columns.narrow_gutters). Ratio.
    columns_gutter_keep_ratio: float = 0.5
    # §2 nested form XObjects; §9 structure tree depth.
    form_depth: int = 12
    structure_depth: int = 128
    # §9 structure order is trusted when untagged ≤ ratio × total glyphs.
    structure_trust_ratio: float = 0.25
    # Ligatures U+FB00–FB06 expanded in text output (after duplicate removal).
    expand_ligatures: bool = True
    # Beyond the spec (issue 12). Right-to-left lines put in logical order by UAX #9; a line's
    # paragraph direction is right to left when its RTL strong characters are at least this
    # fraction of its strong characters.
    bidi_reorder: bool = True
    bidi_rtl_base_ratio: float = 0.5
    # Arabic presentation forms (U+FB50–FDFF, U+FE70–FEFF) folded to base letters in text.
    fold_presentation_forms: bool = True
    # A spacing accent glyph merges into the base glyph that covers at least this fraction
    # of its width (above 1 turns merging off).
    accent_overlap_ratio: float = 0.5
    # §14.9.5: read /E (expansion of an abbreviation) instead of the glyphs; /ActualText
    # (§14.9.4) is always read.
    use_expansion: bool = False
    # Annotation appearances (§12.5.5) read after the page content; the contract reads page
    # content only, so off by default (CLI --annotations).
    annotations: bool = False
    # Hidden text (core.text.hidden): a box under this height is "tiny"; the pixel test renders
    # at a scale where the median glyph is this many pixels tall, and a glyph whose box
    # changes by no more than the tolerance (0-255 per channel) without text leaves no ink.
    # A page whose rendering would exceed the pixel cap is not tested (a warning says so):
    # 25 million pixels is an A0 poster at the median scale, and 75 MB for each of the two
    # renders, where a billion-unit MediaBox would ask for petabytes.
    hidden_tiny_height: float = 1.0
    hidden_ink_pixels: float = 6.0
    hidden_ink_tolerance: float = 24.0
    hidden_ink_max_pixels: int = 25_000_000
    # Resource limits: decoded size of one stream, operators and glyphs of one page, and
    # the depth of q nesting in one stream (§8.4.2; Annex C.2 gives 28 as a typical limit).
    max_stream_bytes: int = 64 * 1024 * 1024
    max_page_operators: int = 2_000_000
    max_page_glyphs: int = 1_000_000
    max_q_depth: int = 256
    # Font limits: decoded size of a font program (FontFile, FontFile2, FontFile3) and of a
    # CMap-like font stream (ToUnicode, embedded CMaps, CIDToGIDMap); code points of one
    # ToUnicode destination (§9.10.3), generous for ligatures and ActualText-like maps.
    max_font_program_bytes: int = 16 * 1024 * 1024
    max_font_cmap_bytes: int = 16 * 1024 * 1024
    max_unicode_destination: int = 32
    # §7 layout grid: the farthest column a glyph is padded to, the blank lines between two
    # lines, and the padding (spaces and newlines) of one page in all. Far above real pages
    # (the corpus peaks at a 517-space gap, 111 blank lines, 30,000 characters of layout).
    layout_max_columns: int = 2000
    layout_max_blank_lines: int = 200
    layout_max_padding: int = 1_000_000
    # §7 layout grid: a gap on a line (§6, glyph end to origin) wider than this many grid
    # cells separates two blocks (table cells, columns, a tab stop): the second goes to its
    # own grid column; narrower gaps are word spaces. Cells (the grid's cell width).
    layout_block_gap_cells: float = 2.0
    # §7 layout grid: blocks of at least this many glyphs are measured to narrow the cell so
    # that blocks fit the room they have (layout._fitted_cell_width). Glyphs.
    layout_fit_block_glyphs: int = 8
    # §7 layout grid: a glyph is placed on the grid when its writing direction, in the grid's
    # frame, turns from the grid's by at most this (the sine of the angle: 0.0523 is about
    # 3°); any other glyph is off the grid and read after it in reading order.
    layout_direction_tolerance: float = 0.0523
    # Beyond the spec (issue 26), §6 word spaces on real documents; each field's other value
    # named below gives the spec's behaviour back.
    # The word-space threshold's height (spec: the current glyph's box, ascent to descent) is
    # capped at space_height_cap × the font size as drawn (user-space units per em): fonts
    # with a tall box (Linux Libertine, Church Slavonic and Quran fonts, 1.25-1.7 em) pushed
    # real word spaces under 0.15 × box, while ordinary fonts' boxes (0.9-1.2 em) stay under
    # the cap and keep the spec's threshold. The cap applies only to a box at most
    # space_height_cap_limit × the size: a taller one says the size is no em of the font (a
    # Type 3 /FontMatrix in other units, §9.6.5) and the box is kept. A cap at or above the
    # limit (inf; 3 in the inspector's Rules panel) never applies: the spec's box.
    space_height_cap: float = 1.2
    space_height_cap_limit: float = 3.0
    # A backward move on one line that leaves the current glyph wholly behind the previous
    # glyph's origin, apart from it by more than the word-space threshold, is a word boundary
    # (a margin line number, a table cell, a fragment drawn out of order); glyphs that
    # overlap (a kern, an accent placed back, glyphs set right to left) still join.
    # False: the spec's join of every negative gap.
    backward_jump_spaces: bool = True
    # Consecutive glyphs on one line whose writing directions differ by more than this many
    # degrees are a word boundary (a rotated axis label beside a paragraph). 180: the spec.
    direction_change_degrees: float = 45.0
    # A drawn blank that the next glyph moves back over, when the gap left between the blank's
    # neighbours is no word space by §6 (groff through Ghostscript kerns so: "VA T"), is
    # kerning and writes nothing. False: the spec's blank, written.
    kerned_blanks_join: bool = True
    # An unresolved glyph (spec §1: written as a space) with no advance, or a neighbour on its
    # line covering more than half of its advance, is a mark on that neighbour (a Hebrew
    # point, a Devanagari sign), not a letter beside it: it writes nothing, and the word gap
    # after it is measured from the glyph before it. The unresolved count is unchanged.
    # False: the spec's space.
    unresolved_marks_join: bool = True

    def with_values(self, **values: object) -> Rules:
        """A copy with some fields replaced, values coerced to the field's type."""
        # Any: each value has its own field's type, which one dict value type cannot say.
        changes: dict[str, Any] = {name: _coerce(name, value) for name, value in values.items()}
        return replace(self, **changes)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            values = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RuleError(f"rules file is not JSON: {exc}") from None
        if not isinstance(values, dict):
            raise RuleError("rules file must hold a JSON object of NAME: VALUE")
        return cls().with_values(**values)

    @classmethod
    def load(cls, path: str | Path) -> Rules:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Rules))


_FIELD_TYPES: dict[str, type] = {f.name: type(f.default) for f in fields(Rules)}


def _coerce(name: str, value: object) -> float | int | bool:
    kind = _FIELD_TYPES.get(name)
    if kind is None:
        raise RuleError(f"unknown rule {name!r}; known rules: {', '.join(Rules.names())}")
    if kind is bool:
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise RuleError(f"rule {name} takes true or false, not {value!r}")
        return bool(value)
    # What float() accepts; anything else is no number.
    if not isinstance(value, (str, bytes, SupportsFloat, SupportsIndex)):
        raise RuleError(f"rule {name} takes a number, not {value!r}")
    try:
        coerced = kind(float(value)) if kind is int else kind(value)
    except (TypeError, ValueError):
        raise RuleError(f"rule {name} takes a number, not {value!r}") from None
    if coerced < 0:
        raise RuleError(f"rule {name} must not be negative")
    return coerced
