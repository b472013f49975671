"""The graphics and text state that text extraction tracks (§8.4.1, §9.3) and the text
state and positioning operators (§9.3, §9.4.2), as small functions over one state object."""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsFloat

from glyphscope.core.fonts.loader import Font
from glyphscope.core.geometry import Matrix, multiply, translate

# The largest integer a glyph column (int64) holds: render mode and MCID stay within it.
INT64_MAX = 2**63 - 1


class GraphicsState:
    """Graphics state entries that text extraction needs (§8.4.1 Table 52, §9.3.1 Table 104)."""

    __slots__ = (
        "ctm",
        "font",
        "font_key",
        "font_size",
        "character_spacing",
        "word_spacing",
        "horizontal_scaling",
        "leading",
        "render_mode",
        "text_rise",
        "clip",
    )

    def __init__(self, ctm: Matrix) -> None:
        self.ctm = ctm
        self.font: Font | None = None
        self.font_key = ""
        self.font_size = 0.0
        self.character_spacing = 0.0
        self.word_spacing = 0.0
        self.horizontal_scaling = 1.0
        self.leading = 0.0
        self.render_mode = 0
        self.text_rise = 0.0
        # The clipping region as a user-space box (core.interpret.clipping), None: the page.
        self.clip: tuple[float, float, float, float] | None = None

    def copy(self) -> GraphicsState:
        # Field by field (q runs this once per save, thousands of times on a page); a test
        # holds that it copies every slot.
        clone = GraphicsState.__new__(GraphicsState)
        clone.ctm, clone.font, clone.font_key = self.ctm, self.font, self.font_key
        clone.font_size, clone.character_spacing = self.font_size, self.character_spacing
        clone.word_spacing, clone.horizontal_scaling = self.word_spacing, self.horizontal_scaling
        clone.leading, clone.render_mode = self.leading, self.render_mode
        clone.text_rise, clone.clip = self.text_rise, self.clip
        return clone


def matrix_operand(operands: Iterable[SupportsFloat]) -> Matrix:
    values = [float(v) for v in operands]
    if len(values) != 6:
        raise ValueError(f"a matrix takes 6 numbers, not {len(values)}")
    return (values[0], values[1], values[2], values[3], values[4], values[5])


def set_text_state(operator: str, operands: list, state: GraphicsState) -> None:
    value = float(operands[0])
    if operator == "Tc":
        state.character_spacing = value
    elif operator == "Tw":
        state.word_spacing = value
    elif operator == "Tz":
        state.horizontal_scaling = value / 100.0  # §9.3.4: Tz is a percentage
    elif operator == "TL":
        state.leading = value
    elif operator == "Ts":
        state.text_rise = value
    else:
        mode = int(value)
        if not -INT64_MAX - 1 <= mode <= INT64_MAX:
            # §9.3.6 knows modes 0 to 7; one beyond any integer a glyph column holds is
            # malformed (the operator is skipped, as a Tr with no number is).
            raise ValueError(f"render mode {value} out of range")
        state.render_mode = mode


def position_text(
    operator: str, operands: list, state: GraphicsState, line_matrix: Matrix
) -> tuple[Matrix, Matrix]:
    """§9.4.2 Table 108: Td, TD, Tm and T* set both the text and the text line matrix."""
    if operator == "Tm":
        matrix = matrix_operand(operands)
        return matrix, matrix
    if operator == "T*":
        tx, ty = 0.0, -state.leading
    else:
        tx, ty = float(operands[0]), float(operands[1])
        if operator == "TD":
            state.leading = -ty
    matrix = multiply(translate(tx, ty), line_matrix)
    return matrix, matrix
