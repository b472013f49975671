"""Shared set-up of the QA GUI tests: a main window with the QA features installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from glyphscope.inspector.main_window import MainWindow
from glyphscope.inspector.qa.features import install_qa_features, qa_features_of
from tests.pdfbuilder import PdfBuilder

TIMEOUT_MS = 30_000

# "TJ" and "spaced" are 6 pt apart by a TJ adjustment only (-600/1000 × 10 pt); the box height
# is 10 pt, so the spec's threshold is 1.5 and space_gap_ratio 0.7 (7 pt) loses that space.
TJ_CONTENT = (
    b"BT /F1 10 Tf 20 125 Td [(TJ)-600(spaced)] TJ ET\nBT /F1 10 Tf 20 100 Td (Plain words) Tj ET"
)


def tj_pdf(path: Path) -> Path:
    b = PdfBuilder()
    b.add_page(TJ_CONTENT, media_box=(0, 0, 200, 160), fonts={"F1": b.standard_font("Helvetica")})
    b.save(path)
    return path


@pytest.fixture
def qa_window(qtbot):
    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.password_provider = lambda path, wrong: pytest.fail("unexpected password prompt")
    install_qa_features(window)
    features = qa_features_of(window)
    features.interactive = False
    window.resize(1400, 900)
    window.show()
    yield window, features
    features.shutdown()
    window.shutdown()


def open_and_wait(qtbot, window, path, **options) -> None:
    """Open a file and wait for the page and for the QA panels' details of it."""
    features = qa_features_of(window)
    with qtbot.waitSignals([window.pageReady, features.detailsShown], timeout=TIMEOUT_MS):
        window.open_file(str(path), **options)


def glyph_indices(window, word: str) -> list[int]:
    """The first run of visible glyphs, in drawing order, that spells `word`."""
    model = window.model
    visible = [i for i, s in enumerate(model.status) if s == "visible"]
    texts = [model.glyphs[i].text for i in visible]
    for start in range(len(texts)):
        if "".join(texts[start : start + len(word)]) == word:
            return visible[start : start + len(word)]
    raise AssertionError(f"{word!r} not on the page")


def send_wheel(widget, notches: int, at=None, modifiers=None) -> None:
    """Turn the mouse wheel `notches` (120 units each, negative towards the user) over `at`
    (a QPoint in widget coordinates; the middle by default), holding `modifiers`."""
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    where = QPointF(widget.rect().center() if at is None else at)
    event = QWheelEvent(
        where,
        QPointF(widget.mapToGlobal(where.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier if modifiers is None else modifiers,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def run_export(qtbot, features, action: str) -> str:
    """Trigger the QA export `action` and wait, as a user would, until it is over (its files
    are written off the GUI thread); the status bar's message then."""
    window = features.window
    window.statusBar().clearMessage()
    features.actions[action].trigger()
    qtbot.waitUntil(lambda: not features.page_exports, timeout=60_000)
    return window.statusBar().currentMessage()
