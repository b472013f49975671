"""The PySide6 wheels we allow keep the reference counts of None and True.

PySide6 6.12.0 on Python 3.10/3.11 returns None from void C++ methods and True from a signal's
emit() without taking a reference: every call lowers the count by one and a long session aborts
with "none_dealloc". pyproject.toml excludes 6.12 below Python 3.12 (6.8–6.11.3 were measured
clean); these tests fail if a broken wheel is installed again.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QPainterPath
from PySide6.QtWidgets import QLabel

CALLS = 2000


class _Emitter(QObject):
    changed = Signal(int)


def _drift(singleton: object, call) -> int:
    call()  # warm up: the first call may cache a reference of its own
    before = sys.getrefcount(singleton)
    for _ in range(CALLS):
        call()
    return sys.getrefcount(singleton) - before


def test_void_methods_keep_none_alive(qtbot):
    label, path = QLabel(), QPainterPath()
    qtbot.addWidget(label)
    assert abs(_drift(None, lambda: label.setText("x"))) < CALLS // 10
    assert abs(_drift(None, lambda: path.lineTo(1.0, 2.0))) < CALLS // 10


def test_signal_emit_keeps_true_alive(qtbot):
    emitter, received = _Emitter(), []
    emitter.changed.connect(received.append)
    assert abs(_drift(True, lambda: emitter.changed.emit(1))) < CALLS // 10
    assert len(received) == CALLS + 1
