"""The one place a compiled extension is chosen over its Python reference.

Every compiled loop (the `_*.pyx` modules, built by `pip install` where a C compiler is) has a
Python reference beside it, in the module that uses it: the fallback where nothing was compiled
and the oracle the property tests compare the loop with. `GLYPHSCOPE_PURE_PYTHON=1` in the
environment (read once, at import) runs every reference, compiled or not."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE_PYTHON = os.environ.get("GLYPHSCOPE_PURE_PYTHON", "") not in ("", "0")


def load(name: str) -> ModuleType | None:
    """The compiled module `name` (e.g. "glyphscope.core.text._grid"), or None when it was
    not built or PURE_PYTHON asks for the references."""
    if PURE_PYTHON:
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
