"""Shared test setup: headless Qt, an isolated QSettings, and the ../shared corpus."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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
