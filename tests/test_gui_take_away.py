"""Text a user can take away: Ctrl+C from every pane, the page selection and the glyph table,
Select all, the details text of several glyphs, no soft wrap, navigation keys in editors."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QPlainTextEdit

from tests.qa_support import glyph_indices
from tests.test_gui_app import open_and_wait, reading_text
from tests.test_gui_pdfs import text_pages_pdf

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def three_pages(qtbot, window, tmp_path):
    text_pages_pdf(tmp_path / "three.pdf", 3)
    open_and_wait(qtbot, window, tmp_path / "three.pdf")
    return window


def clipboard() -> str:
    return QGuiApplication.clipboard().text()


def focus(qtbot, widget) -> None:
    widget.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus, timeout=2000)


def test_ctrl_a_then_ctrl_c_in_a_pane_copies_the_whole_pane(qtbot, decisions):
    win = decisions
    editor = win.text_panes.panes["reading"].editor
    QGuiApplication.clipboard().clear()
    focus(qtbot, editor)
    qtbot.keyClick(editor, Qt.Key.Key_A, CTRL)
    # The selection lit every glyph; re-highlighting the panes kept this pane's selection.
    assert win.selection.indices
    assert editor.textCursor().selectedText().replace("\u2029", "\n") == reading_text(win)
    qtbot.keyClick(editor, Qt.Key.Key_C, CTRL)
    assert clipboard() == reading_text(win)


def test_a_keyboard_selection_in_a_pane_survives_the_highlight_and_copies(qtbot, decisions):
    win = decisions
    pane = win.text_panes.panes["layout"]
    focus(qtbot, pane.editor)
    start = pane.pane.text.index("Second")
    pane.select_chars(start, start)
    for _ in "Second line":
        qtbot.keyClick(pane.editor, Qt.Key.Key_Right, SHIFT)
    assert "".join(win.model.glyphs[i].text for i in win.selection.indices).strip() != ""
    assert pane.editor.textCursor().selectedText() == "Second line"
    qtbot.keyClick(pane.editor, Qt.Key.Key_C, CTRL)
    assert clipboard() == "Second line"


def test_edit_menu_copy_and_select_all_act_on_the_focused_pane(qtbot, decisions):
    win = decisions
    editor = win.text_panes.panes["columns"].editor
    focus(qtbot, editor)
    win.actions_by_name["select_all"].trigger()
    win.actions_by_name["copy"].trigger()
    assert clipboard() == win.text_panes.panes["columns"].pane.text
    assert win.actions_by_name["copy"].shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    edit = next(a for a in win.menuBar().actions() if a.text() == "&Edit")
    assert [a.text() for a in edit.menu().actions()][:2] == ["&Copy", "Select &all"]


def test_a_page_selection_copies_as_reading_order_text(qtbot, decisions):
    win = decisions
    glyphs = glyph_indices(win, "Second line here") + glyph_indices(win, "TJspaced")
    win.selection.set(glyphs, "band")
    focus(qtbot, win.view)
    qtbot.keyClick(win.view, Qt.Key.Key_C, CTRL)
    # The space the TJ adjustment inserted and the line break are part of the text (§6).
    assert clipboard() == "Second line here\nTJ spaced"


def test_glyphs_across_an_unselected_word_are_copied_with_one_space(qtbot, decisions):
    win = decisions
    glyphs = glyph_indices(win, "Second") + glyph_indices(win, "here")
    win.selection.set(glyphs, "band")
    focus(qtbot, win.view)
    win.actions_by_name["copy"].trigger()
    assert clipboard() == "Second here"


def test_the_glyph_table_copies_the_selected_rows_with_a_header(qtbot, decisions):
    win = decisions
    win.panels["glyphs"].raise_()
    table = win.glyph_table.view
    tagged = glyph_indices(win, "Tagged")
    win.glyph_table.set_selected(tagged[:2])
    focus(qtbot, table)
    qtbot.keyClick(table, Qt.Key.Key_C, CTRL)
    lines = clipboard().splitlines()
    assert lines[0].split("\t")[:3] == ["#", "text", "code"]
    assert [line.split("\t")[0] for line in lines[1:]] == [str(i) for i in tagged[:2]]
    assert lines[1].split("\t")[1] == "“T” U+0054"


def test_details_of_several_glyphs_show_their_text_with_spaces_and_breaks(qtbot, decisions):
    win = decisions
    win.selection.set(glyph_indices(win, "Second line here") + glyph_indices(win, "TJspaced"), "x")
    assert "Second line here\nTJ spaced" in win.details.toPlainText()


def test_details_say_how_many_glyphs_they_show_when_capped(qtbot, window, tmp_path):
    from tests.pdfbuilder import PdfBuilder

    b = PdfBuilder()
    line = b"(" + b"abcdefghij" * 10 + b") Tj 0 -10 Td "
    b.add_page(
        b"BT /F1 6 Tf 10 780 Td " + line * 25 + b"ET", fonts={"F1": b.standard_font("Helvetica")}
    )
    path = tmp_path / "many.pdf"
    b.save(path)
    open_and_wait(qtbot, window, path)
    window.actions_by_name["select_all"].trigger()
    assert window.selection.indices and len(window.selection.indices) == 2500
    assert "text of the first 2,000 of 2,500 glyphs" in window.details.toPlainText()


def test_text_panes_do_not_wrap_until_the_view_toggle_turns_wrapping_on(qtbot, decisions):
    win = decisions
    editors = [p.editor for p in win.text_panes.panes.values()]
    assert {e.lineWrapMode() for e in editors} == {QPlainTextEdit.LineWrapMode.NoWrap}
    win.actions_by_name["wrap"].trigger()
    assert {e.lineWrapMode() for e in editors} == {QPlainTextEdit.LineWrapMode.WidgetWidth}


def test_end_and_page_down_move_inside_a_focused_pane_not_the_page(qtbot, three_pages):
    win = three_pages
    editor = win.text_panes.panes["reading"].editor
    focus(qtbot, editor)
    qtbot.keyClick(editor, Qt.Key.Key_End)
    qtbot.keyClick(editor, Qt.Key.Key_PageDown)
    qtbot.wait(50)
    assert win.page_index == 0
    assert editor.textCursor().position() == len("Page 1")


def test_page_keys_turn_pages_when_the_page_view_has_focus(qtbot, three_pages):
    win = three_pages
    focus(qtbot, win.view)
    with qtbot.waitSignal(win.pageReady, timeout=30_000):
        qtbot.keyClick(win.view, Qt.Key.Key_End)
    assert win.page_index == 2


def test_the_glyph_table_of_a_page_turned_to_starts_at_its_first_row(qtbot, window, tmp_path):
    from tests.test_gui_background_exports import two_pages_pdf

    open_and_wait(qtbot, window, two_pages_pdf(tmp_path / "two.pdf"))
    window.panels["glyphs"].show()
    window.panels["glyphs"].raise_()
    view = window.glyph_table.view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: view.isVisible(), timeout=2000)
    for turn in (window.next_page, window.previous_page):  # page 1 again: its kept analysis
        qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=2000)  # laid out
        bar.setValue(bar.maximum())  # the scroll bar dragged to the page's last glyphs
        with qtbot.waitSignal(window.pageReady, timeout=30_000):
            turn()
        # Before, a page's table opened where the last page's was scrolled to.
        qtbot.wait(50)
        assert bar.value() == 0 and view.rowAt(0) == 0, turn
