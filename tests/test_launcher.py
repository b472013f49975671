"""`glyphscope` and `python -m glyphscope`: the inspector when Qt is installed, one line saying
how to get it when it is not (the `gui` extra)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest

from glyphscope.launcher import missing_qt

# A fresh interpreter in which PySide6 cannot be found, as in `pip install glyphscope`.
_WITHOUT_QT = (
    "import sys, runpy; "
    "sys.modules['PySide6'] = None; "  # a None entry makes its import and find_spec fail
    "sys.argv[1:] = ['--version']; "
    "runpy.run_module('glyphscope', run_name='__main__')"
)


def test_without_qt_the_launcher_says_in_one_line_how_to_get_it():
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT_QT], capture_output=True, text=True, check=False
    )
    assert result.returncode == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "PySide6" in line and "pip install 'glyphscope[gui]'" in line


def test_python_dash_m_glyphscope_runs_the_inspectors_command_line():
    if missing_qt():
        pytest.skip("Qt is not installed: the line above is what this environment gets")
    result = subprocess.run(
        [sys.executable, "-m", "glyphscope", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.split() == ["glyphscope", version("glyphscope")]
