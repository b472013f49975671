"""install_qa_features: what it adds to a main window, and the export dialogs."""

from __future__ import annotations

from PySide6.QtCore import Qt

from glyphscope.inspector.export.dialogs import LayersDialog, TextExportDialog
from glyphscope.inspector.main_window import MainWindow
from glyphscope.inspector.qa.corpus import install_corpus
from glyphscope.inspector.qa.features import install_qa_features, qa_features_of
from tests.qa_support import qa_window

__all__ = ["qa_window"]


def test_install_adds_the_qa_panels(qa_window):
    window, _features = qa_window
    assert {"rules", "provenance", "content_stream", "fonts", "structure", "compare", "search"} <= (
        set(window.panels)
    )


def test_install_adds_three_marking_layers(qa_window):
    window, _features = qa_window
    assert list(window.layers)[-3:] == ["rule_changes", "pdfium_diff", "search_hits"]
    assert "rule_changes" in window.layers_panel.checks


def test_the_qa_menu_lists_every_tool_with_its_shortcut(qa_window):
    _window, features = qa_window
    shortcuts = {name: action.shortcut().toString() for name, action in features.actions.items()}
    assert shortcuts == {
        "find": "Ctrl+F",
        "find_next": "F3",
        "find_previous": "Shift+F3",
        "compare_page": "Ctrl+D",
        "compare_document": "Ctrl+Shift+D",
        "reset_rules": "Ctrl+Shift+0",
        "export_png": "Ctrl+E",
        "export_svg": "Ctrl+Shift+E",
        "export_selection": "Ctrl+Alt+E",
        "export_bundle": "Ctrl+B",
        "export_text": "Ctrl+Shift+T",
        "regression_case": "Ctrl+Shift+R",
    }


def test_no_qa_shortcut_clashes_with_the_windows_own(qa_window):
    window, features = qa_window
    ours = {action for action in features.actions.values()}
    theirs = [
        action.shortcut().toString()
        for action in window.actions()
        if action not in ours and not action.shortcut().isEmpty()
    ]
    assert not {a.shortcut().toString() for a in ours} & set(theirs)


def window_after_rules_docked_right(qtbot) -> MainWindow:
    """A second window, QA features installed, after a first one saved its settings with the
    Rules dock on the right."""
    first = MainWindow()
    qtbot.addWidget(first)
    install_qa_features(first)
    first.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, qa_features_of(first).docks["rules"])
    first.save_settings()
    qa_features_of(first).shutdown()
    first.shutdown()
    second = MainWindow()
    qtbot.addWidget(second)
    install_qa_features(second)
    return second


def test_the_qa_docks_come_back_where_they_were_left(qtbot):
    second = window_after_rules_docked_right(qtbot)
    second.show()  # the first show restores the layout, the QA docks included
    try:
        area = second.dockWidgetArea(qa_features_of(second).docks["rules"])
        assert area == Qt.DockWidgetArea.RightDockWidgetArea
    finally:
        qa_features_of(second).shutdown()
        second.shutdown()


def test_the_layout_is_restored_once(qtbot):
    second = window_after_rules_docked_right(qtbot)
    second.restore_layout()
    second.addDockWidget(
        Qt.DockWidgetArea.LeftDockWidgetArea, qa_features_of(second).docks["rules"]
    )
    second.show()
    try:
        area = second.dockWidgetArea(qa_features_of(second).docks["rules"])
        assert area == Qt.DockWidgetArea.LeftDockWidgetArea
    finally:
        qa_features_of(second).shutdown()
        second.shutdown()


def test_the_layers_dialog_starts_from_the_visible_layers(qa_window):
    window, _features = qa_window
    window.set_layers(["glyphs", "boxes"])
    dialog = LayersDialog(window, "Export")
    assert dialog.chosen() == ["glyphs", "boxes"]


def test_the_text_dialog_refuses_a_page_range_outside_the_document(qa_window, tmp_path):
    window, _features = qa_window
    dialog = TextExportDialog(window, 3, str(tmp_path / "out.txt"))
    dialog.pages.setText("2-5")
    dialog._accept()
    assert dialog.result() == 0
    assert dialog.error.text() == "page range '2-5' is outside 1-3"


def test_the_text_dialog_reads_pages_and_a_custom_separator(qa_window, tmp_path):
    window, _features = qa_window
    dialog = TextExportDialog(window, 3, str(tmp_path / "out.txt"))
    dialog.pages.setText("3,1")
    dialog.separator.setCurrentText("custom")
    dialog.custom.setText("\\n=====\\n")
    assert dialog.page_indices() == [2, 0]
    assert dialog.separator_text() == "\n=====\n"


SCREENSHOT_WITH_QA = """
import sys
import glyphscope.inspector.app as app
import glyphscope.inspector.main_window as main_window
from glyphscope.inspector.qa.features import install_qa_features

class Window(main_window.MainWindow):
    def __init__(self, **options):
        super().__init__(**options)
        install_qa_features(self)

main_window.MainWindow = Window
sys.exit(app.main(["--screenshot", sys.argv[1], sys.argv[2]]))
"""


def test_screenshot_mode_with_the_qa_features_exits_cleanly(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from tests.qa_support import tj_pdf

    root = Path(__file__).resolve().parent.parent
    out = tmp_path / "shot.png"
    completed = subprocess.run(
        [sys.executable, "-c", SCREENSHOT_WITH_QA, str(out), str(tj_pdf(tmp_path / "tj.pdf"))],
        cwd=root,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert out.stat().st_size > 0


def test_every_shortcut_of_the_window_does_one_thing(qa_window):
    # Two actions on one key make Qt's shortcut ambiguous: the key then does nothing at all
    # (F12 toggled neither the Objects nor the Corpus panel).
    window, features = qa_window
    install_corpus(window)  # as the application does (inspector.app)
    actions = set(window.actions()) | set(features.actions.values())
    actions |= {dock.toggleViewAction() for dock in window.panels.values()}
    users: dict[str, set[str]] = {}
    for action in actions:
        for key in action.shortcuts():
            users.setdefault(key.toString(), set()).add(action.text())
    assert {key: names for key, names in users.items() if len(names) > 1} == {}
