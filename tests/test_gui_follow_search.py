"""The page follows the selection, and search answers page by page (pytest-qt)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, Qt

from tests.pdfbuilder import PdfBuilder
from tests.qa_support import TIMEOUT_MS, glyph_indices, open_and_wait, qa_window

__all__ = ["qa_window"]


def letter_pages(path: Path, pages: int = 3) -> Path:
    """Letter-size pages saying "Page n" at the top; the last also says "target" near its
    bottom right corner (off screen when the top of a page is shown zoomed in)."""
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for number in range(1, pages + 1):
        content = b"BT /F1 20 Tf 40 740 Td (Page %d words) Tj ET" % number
        if number == pages:
            content += b"\nBT /F1 12 Tf 480 60 Td (target) Tj ET"
        b.add_page(content, fonts={"F1": helv})
    b.save(path)
    return path


def search(qtbot, features, query: str) -> int:
    panel = features.search_panel
    with qtbot.waitSignal(features.searchFinished, timeout=TIMEOUT_MS) as blocker:
        panel.query.setText(query)
        panel.request()
    return blocker.args[1]


def in_view(window, glyphs) -> bool:
    x0, y0, x1, y1 = window.model.glyph_rect(glyphs)
    return window.view.visible_user_rect().contains(QRectF(x0, y0, x1 - x0, y1 - y0))


def test_a_search_hit_off_screen_on_another_page_is_scrolled_into_view(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, letter_pages(tmp_path / "letter.pdf"))
    window.view.set_zoom(4.0)
    window.view.centerOn(0, 0)
    assert search(qtbot, features, "target") == 1
    hit = features.search_panel.hits.topLevelItem(0).child(0)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        features.search_panel.hits.itemClicked.emit(hit, 0)
    qtbot.waitUntil(lambda: window.selection.indices != (), timeout=TIMEOUT_MS)
    assert window.page_index == 2
    target = glyph_indices(window, "target")
    qtbot.waitUntil(lambda: in_view(window, target), timeout=TIMEOUT_MS)
    assert window.view.flashing


def test_a_selection_from_a_panel_zooms_out_when_the_glyphs_do_not_fit(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, letter_pages(tmp_path / "letter.pdf", 1))
    window.view.set_zoom(8.0)
    glyphs = glyph_indices(window, "Page 1 words")
    features.select(glyphs, "fonts_panel")
    assert window.view.zoom < 8.0
    assert in_view(window, glyphs)


def test_a_click_on_the_page_leaves_the_view_where_it_is(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, letter_pages(tmp_path / "letter.pdf", 1))
    window.view.set_zoom(4.0)
    window.view.centerOn(0, 0)
    before = window.view.visible_user_rect()
    window.selection.set(glyph_indices(window, "target"), "page")
    assert window.view.visible_user_rect() == before


def many_pages(path: Path, pages: int) -> Path:
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for number in range(1, pages + 1):
        b.add_page(b"BT /F1 20 Tf 20 100 Td (Page %d text) Tj ET" % number, fonts={"F1": helv})
    b.save(path)
    return path


def test_hits_are_listed_batch_by_batch_with_a_progress_count(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 30))
    panel = features.search_panel
    progress: list[str] = []
    original = panel.show_progress
    panel.show_progress = lambda *args: (original(*args), progress.append(panel.status.text()))
    assert search(qtbot, features, "text") == 30
    assert len(progress) > 1
    assert progress[0].startswith("“text”: 8 hits on 8 pages so far — 8 of 30 pages searched")
    assert panel.status.text() == "“text”: 30 hits on 30 of 30 pages"


def test_search_keeps_hits_not_page_texts(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    search(qtbot, features, "text")
    assert not hasattr(features.searching, "texts")
    assert len(features.searching.hits) == 3


def test_cancel_stops_the_search_before_the_last_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 300))
    panel = features.search_panel
    panel.query.setText("text")
    panel.request()
    qtbot.waitUntil(lambda: features.searching.pages_done > 0, timeout=TIMEOUT_MS)
    qtbot.mouseClick(panel.find, Qt.MouseButton.LeftButton)  # reads "Cancel" while running
    qtbot.wait(300)
    assert not features.searching.running
    assert panel.find.text() == "Find"
    assert "cancelled after" in panel.status.text()
    assert len(panel.results) < 300


def test_f3_and_shift_f3_walk_the_hits_across_pages(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    search(qtbot, features, "text")
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key.Key_F3)  # page 1's hit: already shown
    assert window.selection.indices == tuple(glyph_indices(window, "text"))
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.view, Qt.Key.Key_F3)
    qtbot.waitUntil(lambda: window.selection.indices != (), timeout=TIMEOUT_MS)
    assert window.page_index == 1
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        qtbot.keyClick(window.view, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert window.page_index == 0


def test_enter_searches_then_moves_to_the_next_hit_and_shift_enter_back(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    features.focus_search()
    query = features.search_panel.query
    qtbot.keyClicks(query, "text")
    with qtbot.waitSignal(features.searchFinished, timeout=TIMEOUT_MS):
        qtbot.keyClick(query, Qt.Key.Key_Return)
    qtbot.keyClick(query, Qt.Key.Key_Return)
    assert window.selection.indices == tuple(glyph_indices(window, "text"))
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        qtbot.keyClick(query, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert window.page_index == 2  # wrapped back to the last hit


def test_the_arrow_keys_in_the_hit_list_move_the_page_to_the_hit(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    search(qtbot, features, "text")
    tree = features.search_panel.hits
    tree.setFocus()
    tree.setCurrentItem(tree.topLevelItem(0).child(0))
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        qtbot.keyClick(tree, Qt.Key.Key_Down)  # page 2's heading
    assert window.page_index == 1


def test_whole_word_option_from_the_panel(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    features.search_panel.whole_word.setChecked(True)
    assert search(qtbot, features, "tex") == 0
    features.search_panel.regex.setChecked(True)
    assert search(qtbot, features, r"te\w+") == 3


def test_a_bad_regex_says_so_and_searches_nothing(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, many_pages(tmp_path / "many.pdf", 3))
    panel = features.search_panel
    panel.regex.setChecked(True)
    panel.query.setText("(")
    panel.request()
    assert panel.status.text().startswith("Not a regular expression:")
    assert not features.searching.running
