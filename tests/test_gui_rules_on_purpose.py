"""Rules you change on purpose: the wheel needs the focus, the panel fits its dock, the text
before and after a change side by side, old and new numbers of each changed decision, and a
change list walked with the keyboard (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QLineEdit, QPushButton

from tests.qa_support import TIMEOUT_MS, glyph_indices, open_and_wait, qa_window, send_wheel, tj_pdf
from tests.test_gui_qa_rules import change_rule

__all__ = ["qa_window"]


def wheel(widget, steps: int = -1) -> None:
    """One notch of the mouse wheel over the middle of `widget`."""
    send_wheel(widget, steps)


def test_the_wheel_over_an_unfocused_rule_leaves_its_value(qtbot, qa_window):
    window, features = qa_window
    features.docks["rules"].show()
    features.docks["rules"].raise_()
    editor = features.rules_panel.editors["columns_gap_multiple"]
    window.view.setFocus()
    wheel(editor)
    assert editor.value() == 3.0
    assert not features.rules_panel.editing


def test_the_wheel_over_a_focused_rule_changes_it(qtbot, qa_window):
    window, features = qa_window
    features.docks["rules"].show()
    features.docks["rules"].raise_()
    editor = features.rules_panel.editors["columns_gap_multiple"]
    window.activateWindow()
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus, timeout=2000)
    wheel(editor)
    assert editor.value() == 2.75


def test_the_rules_panel_fits_its_dock_with_its_buttons_in_view(qtbot, qa_window):
    window, features = qa_window
    dock = features.docks["rules"]
    dock.show()
    dock.raise_()
    window.resize(1024, 700)
    qtbot.wait(50)
    panel = features.rules_panel
    save = next(b for b in panel.findChildren(QPushButton) if b.text() == "Save…")
    marker = panel.markers["max_stream_bytes"]
    for widget in (save, marker):
        right = widget.mapTo(panel, QPoint(widget.width(), 0)).x()
        assert right <= panel.width()


def test_the_text_before_and_after_a_change_is_shown_line_by_line(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    panel = features.rules_panel
    panel.tabs.setCurrentIndex(2)
    for mode in range(panel.text_mode.count()):
        panel.text_mode.setCurrentIndex(mode)
        shown = panel.text_diff.toPlainText()
        if panel.text_mode.currentData() == "structure":
            assert "same before and after" in shown  # the page is not tagged
            continue
        assert "TJ·spaced" in shown  # the lost space, marked
        assert "TJspaced" in shown


def test_a_changed_decision_lists_its_old_and_new_numbers(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    top = features.rules_panel.changes.topLevelItem(1)
    assert top.text(0) == "spaces lost: 1"
    # TJ -600 at 10 pt is a 6 pt gap; 0.15 and 0.7 × the 10 pt box height are the thresholds.
    assert (
        top.child(0).text(0) == "“J” → “s”:\ngap 6.00 vs 1.50 → space,\nnow 6.00 vs 7.00 → no space"
    )


def test_the_arrow_keys_walk_the_change_list_and_select_each_change(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    tree = features.rules_panel.changes
    tree.setFocus()
    tree.setCurrentItem(tree.topLevelItem(0))
    qtbot.keyClick(tree, Qt.Key.Key_Down)  # "spaces lost: 1"
    qtbot.keyClick(tree, Qt.Key.Key_Down)  # its one pair
    assert window.selection.indices == tuple(glyph_indices(window, "Js"))
    qtbot.waitUntil(lambda: window.selection.indices != (), timeout=TIMEOUT_MS)


def dense_tj_pdf(path, lines: int = 110):
    """`lines` lines of two ten-letter TJ strings 600 thousandths of an em apart: 2,200
    glyphs, more than the inspector compares on the GUI thread."""
    from tests.pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    text = b"".join(b"[(abcdefghij) -600 (klmnopqrst)] TJ 0 -6 Td " for _ in range(lines))
    builder.add_page(
        b"BT /F1 5 Tf 20 760 Td " + text + b" ET",
        fonts={"F1": builder.standard_font("Helvetica")},
    )
    builder.save(path)
    return path


def test_a_dense_pages_rule_changes_are_listed_from_the_comparison_thread(
    qtbot, qa_window, tmp_path
):
    from glyphscope.inspector.qa.features import SYNC_COMPARE_GLYPHS

    window, features = qa_window
    open_and_wait(qtbot, window, dense_tj_pdf(tmp_path / "dense.pdf"))
    assert window.model.count > SYNC_COMPARE_GLYPHS
    # TJ -600 at 5 pt is a 3 pt gap: a space under 0.15 × the 5 pt box height, none under 0.7.
    changes = change_rule(qtbot, features, space_gap_ratio=0.7)
    assert features.changes is changes and len(changes.spaces_lost) == 110
    top = features.rules_panel.changes.topLevelItem(1)
    assert top.text(0) == "spaces lost: 110"
    assert top.child(0).text(0) == (
        "“j” → “k”:\ngap 3.00 vs 0.75 → space,\nnow 3.00 vs 3.50 → no space"
    )
    assert features.rule_layer.groups[0].label == "spaces lost"


def test_a_comparison_that_returns_after_the_page_changed_is_not_shown(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, dense_tj_pdf(tmp_path / "dense.pdf"))
    changes = change_rule(qtbot, features, space_gap_ratio=0.7)
    shown = features.rules_panel.summary.text()
    features._compare_token = object()  # a newer comparison is awaited
    stale = object()
    features._on_compared(stale, (None, window.model, "the previous rules"))
    assert features.changes is changes and features.rules_panel.summary.text() == shown


def drag_over(qtbot, window, glyphs) -> None:
    """Drag a rectangle on the page around `glyphs`, as a user selects them."""
    quads = [window.model.glyphs[i].quad for i in glyphs]
    x0 = min(q[0][0] for q in quads) - 1
    x1 = max(q[2][0] for q in quads) + 1
    y0 = min(q[0][1] for q in quads) - 1
    y1 = max(q[2][1] for q in quads) + 1
    viewport = window.view.viewport()
    start, end = window.view.view_point(x0, y1), window.view.view_point(x1, y0)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + (end - start) * (step / 5))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def test_a_rule_change_keeps_the_selection_shown_and_copyable(qtbot, qa_window, tmp_path):
    from PySide6.QtGui import QGuiApplication

    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    plain = glyph_indices(window, "Plain words")
    drag_over(qtbot, window, plain)
    assert list(window.selection.indices) == plain
    change_rule(qtbot, features, space_gap_ratio=0.7)
    # The page analysed again still shows the same glyphs selected everywhere.
    assert list(window.selection.indices) == plain
    assert window.selection_layer.selected == tuple(plain)
    assert f"{len(plain)} glyphs selected" in window.details.toPlainText()
    rows = window.glyph_table.view.selectionModel().selectedRows()
    assert len(rows) == len(plain)
    window.activateWindow()
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus, timeout=2000)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(window.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "Plain words"


def test_a_rule_change_in_fit_width_keeps_the_place_on_the_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, dense_tj_pdf(tmp_path / "tj.pdf", lines=20))
    view = window.view
    window.actions_by_name["fit_width"].trigger()
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0  # a Letter page is taller than the view at its width
    for _ in range(3):
        wheel(view.viewport())
    top = view.mapToScene(0, 0).y()  # the page's line at the view's top edge
    assert bar.value() > bar.minimum()
    change_rule(qtbot, features, space_gap_ratio=0.7)
    assert view.fit_mode == "width"
    # Before, the new analysis re-fitted the width and scrolled back to the top of the page.
    assert abs(view.mapToScene(0, 0).y() - top) < 1.0


def click_tab(qtbot, tabs, title: str) -> None:
    """Click the tab whose title starts with `title` (the titles count the changes)."""
    bar = tabs.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i).startswith(title))
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert tabs.currentIndex() == index


def shown_lines(browser) -> list[str]:
    """The lines of `browser` inside its viewport, as they are on screen."""
    viewport = browser.viewport()
    top = browser.cursorForPosition(QPoint(4, 2))
    bottom = browser.cursorForPosition(QPoint(4, viewport.height() - 2))
    top.setPosition(bottom.position(), top.MoveMode.KeepAnchor)
    return top.selectedText().replace("\u2029", "\n").splitlines()


@pytest.fixture
def small_rules(qtbot, qa_window, tmp_path):
    """The Rules dock in front in a 1024×700 window, on 20 lines each losing a space under
    space_gap_ratio 0.7."""
    window, features = qa_window
    open_and_wait(qtbot, window, dense_tj_pdf(tmp_path / "lines.pdf", lines=20))
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: window.width() == 1024, timeout=2000)
    features.docks["rules"].show()
    features.docks["rules"].raise_()
    qtbot.wait(50)
    return window, features


def type_rule(qtbot, features, name: str, text: str) -> None:
    """Click a rule's spin box, select its text, type `text` and press Enter, as a user does,
    and wait for the changes to be listed."""
    panel = features.rules_panel
    editor = panel.editors[name]
    line = editor.findChild(QLineEdit)
    panel.window().activateWindow()
    qtbot.mouseClick(line, Qt.MouseButton.LeftButton, pos=line.rect().center())
    qtbot.waitUntil(editor.hasFocus, timeout=2000)
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    with qtbot.waitSignal(
        features.ruleChangesShown,
        timeout=TIMEOUT_MS,
        check_params_cb=lambda changes: bool(changes.changed_rules),
    ):
        qtbot.keyClicks(line, text)
        qtbot.keyClick(line, Qt.Key.Key_Return)


def test_at_1024_by_700_the_text_diff_of_a_typed_rule_shows_its_lines(qtbot, small_rules):
    window, features = small_rules
    panel = features.rules_panel
    assert panel.editors["space_gap_ratio"].isVisible()  # the Rules tab is in front
    type_rule(qtbot, features, "space_gap_ratio", "0.7")
    assert panel.editors["space_gap_ratio"].value() == 0.7
    assert panel.tabs.tabText(2) == "Text diff (20)"  # counted, seen from the Rules tab
    click_tab(qtbot, panel.tabs, "Text diff")
    lines = shown_lines(panel.text_diff)
    # Before, a splitter under the editors left the diff three lines of a 320-pixel dock.
    assert len(lines) >= 6, lines
    assert "− abcdefghij·klmnopqrst" in lines and "+ abcdefghijklmnopqrst" in lines


def test_at_1024_by_700_the_keys_walk_the_decisions_and_show_each_ones_glyphs(qtbot, small_rules):
    window, features = small_rules
    panel = features.rules_panel
    type_rule(qtbot, features, "space_gap_ratio", "0.7")
    click_tab(qtbot, panel.tabs, "Decisions")
    tree = panel.changes
    assert tree.isVisible() and tree.viewport().height() >= 100
    lost = tree.topLevelItem(1)
    assert lost.text(0) == "spaces lost: 20" and lost.isExpanded()
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(lost).center()
    )
    window.view.set_zoom(4.0)  # the page's last lines out of view
    seen = []
    for number in range(3):
        qtbot.keyClick(tree, Qt.Key.Key_Down)
        pair = tuple(lost.child(number).data(0, Qt.ItemDataRole.UserRole))
        assert tree.currentItem() is lost.child(number)
        assert window.selection.indices == pair
        assert [window.model.glyphs[i].text for i in pair] == ["j", "k"]
        seen.append(pair)
        rect = window.model.glyph_rect(pair)
        shown = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
        centre = window.view.overlay_root.mapToScene(
            QPointF((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
        )
        assert shown.contains(centre)
    assert len(set(seen)) == 3


def test_at_1024_by_700_a_decisions_old_and_new_numbers_fit_the_dock(qtbot, small_rules):
    _window, features = small_rules
    panel = features.rules_panel
    type_rule(qtbot, features, "space_gap_ratio", "0.7")
    click_tab(qtbot, panel.tabs, "Decisions")
    tree = panel.changes
    entry = tree.topLevelItem(1).child(0)
    text = entry.text(0)
    assert "gap 3.00 vs 0.75 → space" in text and "now 3.00 vs 3.50 → no space" in text
    shown = tree.visualItemRect(entry)
    # Every line of it inside the tree's viewport: before, the one line was about 400
    # pixels wide in a 200-pixel column and the new numbers were cut off.
    metrics = tree.fontMetrics()
    widest = max(metrics.horizontalAdvance(line) for line in text.splitlines())
    assert shown.left() + widest <= tree.viewport().width()
    assert shown.height() >= len(text.splitlines()) * metrics.lineSpacing()
