# Types of layout text's compiled loops (_grid.pyx), for type checkers.

from collections.abc import Sequence
from typing import Any

import numpy as np

def line_starts(ys: np.ndarray, heights: np.ndarray, ratio: float) -> list[int]: ...
def grid_text(
    lengths: np.ndarray,
    line_ys: list[float],
    cell_height: float,
    targets: np.ndarray,
    first_capped: int,
    block: np.ndarray,
    space: np.ndarray,
    texts: list[str],
    owners_of: list[int],
    padding: Any,
) -> tuple[str, list[int]]: ...
def line_inks(
    x0: np.ndarray, x1: np.ndarray, bounds: np.ndarray, distance: float
) -> list[list[tuple[float, float]]]: ...
def band_extents(
    columns: np.ndarray,
    column_count: int,
    x0: np.ndarray,
    x1: np.ndarray,
    y0: np.ndarray,
    y1: np.ndarray,
) -> tuple[tuple[tuple[float, float], ...], float, float]: ...
def rows_by_line(
    ordered: np.ndarray, bounds: np.ndarray, x: np.ndarray, glyph: np.ndarray
) -> np.ndarray: ...
def rows_top_down(y: np.ndarray, x: np.ndarray, glyph: np.ndarray) -> np.ndarray: ...
def merge_ink(
    extents: Sequence[tuple[float, float]], distance: float
) -> list[tuple[float, float]]: ...
