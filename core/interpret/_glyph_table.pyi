# Types of the compiled glyph columns (_glyph_table.pyx), for type checkers.

from array import array

import numpy as np

def glyph_columns(
    table: list,
    rows: array,
    pens: array,
    run_numbers: array,
    run_integers: array,
    run_counts: array,
    run_strings: array,
    strings: list,
    elements: array,
    element_counts: array,
) -> dict: ...
def gathered(values: list, rows: np.ndarray) -> list: ...
def row_index(rows: list | tuple) -> np.ndarray: ...
