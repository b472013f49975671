"""Headroom for a PySide6 reference-count bug that would otherwise abort the process.

The PySide6 6.12 wheels return None from void C++ methods (setText, lineTo, setValue, …)
and True from a signal's emit() without taking a reference to it. On Python ≥ 3.12 these
objects are immortal and nothing happens; on 3.10/3.11 every such call lowers the reference
count by one, and after a few thousand calls the interpreter aborts with "none_dealloc:
deallocating None" (or "bool_dealloc" at exit). None, True and False are static objects that
are never freed, so until a fixed wheel is installed we lend them a large reference count,
as 3.12 does (PEP 683), and top it up should it ever run low.

Evidence (re-checked 2026-11-30, Python 3.11.7, PySide6 6.12.0, offscreen, without this guard):
500 calls each of QLabel.setText, QPainterPath.lineTo and QProgressBar.setValue each lowered
sys.getrefcount(None) by exactly 500, 500 emits of a Signal(int) lowered sys.getrefcount(True)
by 500 (QObject.blockSignals(False) left all three unchanged), the interpreter aborted at exit
with "bool_dealloc", and 100 000 emits aborted mid-run. With the guard the same 100 000 calls
each run to the end.
"""

from __future__ import annotations

import ctypes
import sys

LOW_WATER = 1 << 40
LENT = 1 << 50


def affected() -> bool:
    return sys.version_info < (3, 12)


def ensure_headroom() -> None:
    """Give None, True and False reference counts no session can exhaust (idempotent)."""
    if not affected():
        return
    for singleton in (None, True, False):
        # ob_refcnt is the first field of every PyObject (Include/object.h, non-debug builds).
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        if refcount.value < LOW_WATER:
            refcount.value += LENT
