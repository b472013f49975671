# Types of the compiled step of duplicate removal (_duplicates.pyx), for type checkers.

import numpy as np

def decide(
    first: np.ndarray, second: np.ndarray, copy: np.ndarray, flags: bytearray
) -> np.ndarray: ...
