"""The `glyphscope` command and `python -m glyphscope`: the inspector, when Qt is installed.

The engine, `glyphscope-extract` and `glyphscope-sweep` never import Qt, so PySide6 is the
`gui` extra (`pip install 'glyphscope[gui]'`); this launcher is the one piece of the command
that loads without it, to say so in one line instead of a traceback.
"""

from __future__ import annotations

import sys
from importlib.util import find_spec

# The distributions the inspector imports that the engine does not need.
QT_MODULES = ("PySide6", "shiboken6")
GUI_HINT = "pip install 'glyphscope[gui]'"


def missing_qt() -> list[str]:
    """The Qt modules that are not installed (found without importing them)."""
    return [name for name in QT_MODULES if find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    missing = missing_qt()
    if missing:
        sys.stderr.write(
            f"glyphscope: the inspector needs Qt ({', '.join(missing)} not installed): {GUI_HINT}\n"
        )
        return 1
    from glyphscope.inspector.app import main as inspector_main

    return inspector_main(argv)
