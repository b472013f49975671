"""The Objects panel (COS browser, pytest-qt): the tree from the trailer, references followed
by expanding, a stream as text and hex, Go to object, and links from Provenance and Fonts."""

from __future__ import annotations

from PySide6.QtCore import QUrl

from tests.qa_support import TIMEOUT_MS, glyph_indices, open_and_wait, qa_window
from tests.test_gui_qa_compare import pages_pdf

__all__ = ["qa_window"]


def expand(qtbot, panel, *keys):
    """Expand the items down `keys` from the trailer as a user would, waiting for each."""
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0, timeout=TIMEOUT_MS)
    for depth in range(len(keys) + 1):
        item = panel.item_at(*keys[:depth])
        assert item is not None, keys[:depth]
        item.setExpanded(True)
        qtbot.waitUntil(lambda item=item: item.childCount() > 0, timeout=TIMEOUT_MS)
    return panel.item_at(*keys)


def opened(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    features.docks["objects"].show()
    features.docks["objects"].raise_()
    return window, features, features.cos_panel


def test_the_tree_starts_at_the_trailer_and_follows_references(qtbot, qa_window, tmp_path):
    _window, _features, panel = opened(qtbot, qa_window, tmp_path)
    kids = expand(qtbot, panel, "/Root", "/Pages", "/Kids")
    assert [kids.child(i).text(0) for i in range(kids.childCount())] == ["[0]", "[1]", "[2]"]
    assert "→ dictionary /Page" in kids.child(0).text(1)


def test_a_content_stream_shows_as_text_and_as_hex(qtbot, qa_window, tmp_path):
    _window, _features, panel = opened(qtbot, qa_window, tmp_path)
    page = expand(qtbot, panel, "/Root", "/Pages", "/Kids", "[0]")
    contents = next(
        page.child(i) for i in range(page.childCount()) if page.child(i).text(0) == "/Contents"
    )
    panel.tree.setCurrentItem(contents)
    qtbot.waitUntil(lambda: panel.stream_view.toPlainText() != "", timeout=TIMEOUT_MS)
    assert panel.stream_view.toPlainText() == "BT /F1 20 Tf 20 100 Td (Page 1 text) Tj ET"
    assert "decoded" in panel.stream_note.text()
    panel.view_mode.setCurrentText("hex")
    assert panel.stream_view.toPlainText().startswith("00000000  42 54 20 2f 46 31")


def test_go_to_object_opens_it_at_the_top(qtbot, qa_window, tmp_path):
    _window, features, panel = opened(qtbot, qa_window, tmp_path)
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(features.cosShown, timeout=TIMEOUT_MS) as blocker:
        qtbot.keyClicks(panel.goto, "1 0")
        qtbot.keyClick(panel.goto, "\r")
    assert blocker.args[0].summary.startswith("dictionary /Catalog")
    assert panel.tree.currentItem().text(0) == "1 0 R"


def test_provenance_links_to_the_glyphs_font_dictionary(qtbot, qa_window, tmp_path):
    window, features, panel = opened(qtbot, qa_window, tmp_path)
    window.selection.set(glyph_indices(window, "Page")[:1], "page")
    assert "Show the font dictionary in Objects" in features.provenance.toPlainText()
    with qtbot.waitSignal(features.cosShown, timeout=TIMEOUT_MS) as blocker:
        features.provenance.anchorClicked.emit(QUrl("cos:font"))
    node = blocker.args[0]
    assert node.key == "font /F1, page 1"
    assert "→ dictionary /Font" in node.summary
    current = panel.tree.currentItem()
    assert current.text(0) == "font /F1, page 1"
    qtbot.waitUntil(lambda: current.childCount() > 0, timeout=TIMEOUT_MS)
    keys = {current.child(i).text(0): current.child(i).text(1) for i in range(current.childCount())}
    assert keys["/BaseFont"] == "/Helvetica"


def test_double_clicking_a_font_opens_it_in_objects(qtbot, qa_window, tmp_path):
    _window, features, _panel = opened(qtbot, qa_window, tmp_path)
    item = features.fonts_panel.tree.topLevelItem(0)
    with qtbot.waitSignal(features.cosShown, timeout=TIMEOUT_MS) as blocker:
        features.fonts_panel.tree.itemDoubleClicked.emit(item, 0)
    assert blocker.args[0].key == "font /F1, page 1"


def test_double_clicking_a_structure_element_opens_its_object(qtbot, qa_window, tmp_path):
    from tests.test_gui_qa_provenance import tagged_pdf

    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "tagged.pdf"))
    (item,) = features.structure_panel.find_items("P")
    with qtbot.waitSignal(features.cosShown, timeout=TIMEOUT_MS) as blocker:
        features.structure_panel.tree.itemDoubleClicked.emit(item, 0)
    node = blocker.args[0]
    assert node.summary.startswith("dictionary /StructElem")
