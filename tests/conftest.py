"""Shared test setup: headless Qt, an isolated QSettings, the ../shared corpus, and the GUI
tests skipped where Qt is not installed (an engine-only environment: `pip install glyphscope`
without the `gui` extra)."""

from __future__ import annotations

import importlib.abc
import os
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The modules only the inspector and its tests import (the `gui` extra and pytest-qt).
QT_MODULES = ("PySide6", "shiboken6", "pytestqt")
QT_MISSING = [name for name in QT_MODULES if find_spec(name) is None]
QT_SKIP_REASON = f"{', '.join(QT_MISSING)} not installed (pip install 'glyphscope[gui]')"


class _SkipQtImports(importlib.abc.MetaPathFinder):
    """Where Qt is missing, importing it skips the test (or the test module) that asked,
    instead of failing it: every GUI test, and every helper that imports Qt, skips cleanly
    whether it imports Qt at module level, in a fixture or in the test body."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        # An import statement reaches finders through importlib's _find_spec from its import
        # machinery; importlib.util.find_spec (a test asking whether Qt is there) through
        # find_spec itself, and is told "not found" as usual.
        probe = sys._getframe(2).f_code.co_name == "find_spec"
        if name.split(".")[0] in QT_MISSING and not probe:
            raise pytest.skip.Exception(QT_SKIP_REASON, allow_module_level=True)


if QT_MISSING:
    sys.meta_path.insert(0, _SkipQtImports())

    @pytest.fixture
    def qtbot():
        """pytest-qt's fixture, absent with Qt: the tests that ask for it skip."""
        pytest.skip(QT_SKIP_REASON)


SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "corpus"


@pytest.fixture
def corpus_dir() -> Path:
    if not (CORPUS / "index.csv").exists():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


@pytest.fixture(autouse=True)
def _isolated_qsettings(tmp_path_factory, monkeypatch):
    """Every test writes QSettings under a temporary folder, never the user's."""
    settings_dir = tmp_path_factory.mktemp("qsettings")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(settings_dir))
    monkeypatch.setenv("GLYPHSCOPE_SETTINGS_DIR", str(settings_dir))
    yield


# -- the inspector's window, for GUI tests ---------------------------------------------------


@pytest.fixture
def window(qtbot):
    """A shown main window that keeps no settings and fails the test on a password prompt."""
    from glyphscope.inspector.main_window import MainWindow

    win = MainWindow(persist=False)
    qtbot.addWidget(win)
    win.password_provider = lambda path, wrong: pytest.fail("unexpected password prompt")
    win.resize(1200, 800)
    win.show()
    yield win
    win.shutdown()


@pytest.fixture
def decisions(qtbot, window, tmp_path):
    """The window with tests.test_gui_pdfs.decisions_pdf open and its first page analysed."""
    from tests.test_gui_app import open_and_wait
    from tests.test_gui_pdfs import decisions_pdf

    decisions_pdf(tmp_path / "decisions.pdf")
    open_and_wait(qtbot, window, tmp_path / "decisions.pdf")
    return window
