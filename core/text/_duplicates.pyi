# Types of the visible stage's compiled loops (_duplicates.pyx), for type checkers.

from collections.abc import Callable

import numpy as np

def find_copies(
    order: np.ndarray,
    index: np.ndarray,
    origins: np.ndarray,
    sizes: np.ndarray,
    texts: np.ndarray,
    modes: np.ndarray,
    quads: np.ndarray,
    quad_rows: np.ndarray,
    window: float,
    radius: float,
    along_limit: float,
    across_limit: float,
    size_tolerance: float,
    direct_limit: int,
    band_order: Callable[[], tuple[np.ndarray, np.ndarray] | None],
    degenerate_direction: Callable[[int], tuple[float, float]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def box_rows(
    font_size: np.ndarray,
    origin: np.ndarray,
    glyph_end: np.ndarray,
    baseline_end: np.ndarray,
    quads: np.ndarray,
    llx: float,
    lly: float,
    urx: float,
    ury: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
