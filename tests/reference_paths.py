"""Every compiled loop replaced by its Python reference for a block: the one way the tests
run the references they compare the compiled paths with (core/compiled.py chooses at import;
GLYPHSCOPE_PURE_PYTHON=1 runs the references for a whole session)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock

import glyphscope.core.interpret.interpreter as interpreter
import glyphscope.core.interpret.runs as runs
import glyphscope.core.text.arrays as arrays
import glyphscope.core.text.columns as columns
import glyphscope.core.text.layout as layout
import glyphscope.core.text.lines as lines
import glyphscope.core.text.pairs as pairs
import glyphscope.core.text.reading as reading
import glyphscope.core.text.visible as visible

# Each module's compiled loops and what stands in for them without the extension: a Python
# function, or None where the module then takes its reference path.
_REFERENCES = {
    interpreter: {"_loop": None},
    runs: {"_columns": None},
    arrays: {"_columns": None},
    layout: {"_grid_text": layout.grid_text_in_python},
    lines: {
        "_line_starts": lines.line_starts_in_python,
        "_rows_by_line": lines.rows_by_line_in_python,
        "_rows_top_down": lines.rows_top_down_in_python,
    },
    columns: {
        "_line_inks": columns.line_inks_in_python,
        "_band_extents": None,
        "_merge_ink": None,
    },
    pairs: {"_pair_numbers": pairs.pair_numbers_in_python},
    reading: {"_run": reading.run_in_python},
    visible: {"_box_rows": None, "_find_copies": None},
}


@contextmanager
def reference_paths() -> Iterator[None]:
    """The Python references in place of the compiled loops, for the block."""
    with ExitStack() as stack:
        for module, references in _REFERENCES.items():
            stack.enter_context(mock.patch.multiple(module, **references))
        yield
