# Types of reading order's compiled pair numbers (_pairs.pyx), for type checkers.

from collections.abc import Callable

import numpy as np

def pair_numbers(
    origin: np.ndarray,
    glyph_end: np.ndarray,
    quads: np.ndarray,
    rows: np.ndarray,
    classes: np.ndarray,
    font_size: np.ndarray,
    line_break_ratio: float,
    space_gap_ratio: float,
    space_height_cap: float,
    space_height_cap_limit: float,
    turn_limit: float,
    backward_jump_spaces: bool,
    degenerate_direction: Callable[[int], tuple[float, float]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...
