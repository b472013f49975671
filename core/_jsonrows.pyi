# Types of the compiled row writer (_jsonrows.pyx), for type checkers.

import numpy as np

def join_rows(
    between: list[str], fields: list, count: int, separator: str, replaced: dict[int, str]
) -> str: ...
def float_table(
    values: np.ndarray, nan: str, infinity: str, negative_infinity: str
) -> tuple[np.ndarray, list[str]]: ...
