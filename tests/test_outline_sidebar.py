"""The outline (core.pdf.outline) and the sidebar of thumbnails and bookmarks (pytest-qt)."""

from __future__ import annotations

import pikepdf
import pytest
from PySide6.QtCore import Qt

from glyphscope.core.pdf.document import PdfDocument
from glyphscope.core.pdf.outline import OutlineEntry, outline_entries
from glyphscope.inspector.main_window import MainWindow
from tests.qa_support import TIMEOUT_MS
from tests.test_gui_app import open_and_wait
from tests.test_gui_pdfs import text_pages_pdf


def outlined_pdf(path) -> None:
    """Three pages; bookmarks "Intro" → page 1 with a child "Detail" → page 3, a named
    destination "end" → page 3 and one with no destination."""
    text_pages_pdf(path, 3)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        pdf.Root.Dests = pikepdf.Dictionary(end=pikepdf.Array([pdf.pages[2].obj, pikepdf.Name.Fit]))
        with pdf.open_outline() as outline:
            intro = pikepdf.OutlineItem("Intro", 0)
            intro.children.append(pikepdf.OutlineItem("Detail", 2))
            outline.root.append(intro)
            outline.root.append(pikepdf.OutlineItem("Named", pikepdf.Name("/end")))
            outline.root.append(pikepdf.OutlineItem("Nowhere"))
        pdf.save(path)


def test_outline_entries_give_title_depth_and_page(tmp_path):
    outlined_pdf(tmp_path / "outlined.pdf")
    with PdfDocument.open(tmp_path / "outlined.pdf") as document:
        assert outline_entries(document.pdf) == [
            OutlineEntry("Intro", 0, 0),
            OutlineEntry("Detail", 1, 2),
            OutlineEntry("Named", 0, 2),
            OutlineEntry("Nowhere", 0, None),
        ]


def test_a_file_without_an_outline_has_no_entries(tmp_path):
    text_pages_pdf(tmp_path / "plain.pdf", 1)
    with PdfDocument.open(tmp_path / "plain.pdf") as document:
        assert outline_entries(document.pdf) == []


@pytest.fixture
def window(qtbot):
    win = MainWindow(persist=False)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    yield win
    win.shutdown()


def test_the_sidebar_lists_bookmarks_and_a_click_turns_to_their_page(qtbot, window, tmp_path):
    outlined_pdf(tmp_path / "outlined.pdf")
    open_and_wait(qtbot, window, tmp_path / "outlined.pdf")
    tree = window.sidebar.sidebar.outline
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 3, timeout=TIMEOUT_MS)
    intro = tree.topLevelItem(0)
    assert (intro.text(0), intro.text(1), intro.child(0).text(0)) == ("Intro", "1", "Detail")
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        tree.setCurrentItem(intro.child(0))
    assert window.page_index == 2


def test_thumbnails_are_rendered_and_a_click_turns_the_page(qtbot, window, tmp_path):
    text_pages_pdf(tmp_path / "three.pdf", 3)
    open_and_wait(qtbot, window, tmp_path / "three.pdf")
    window.panels["sidebar"].raise_()  # its tab chosen after the file opened
    sidebar = window.sidebar.sidebar
    assert sidebar.pages.count() == 3
    qtbot.waitUntil(lambda: all(sidebar.has_thumbnail(i) for i in range(3)), timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        sidebar.pages.setCurrentRow(1)
    assert window.page_index == 1
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    assert sidebar.pages.currentRow() == 2  # the sidebar follows the page shown


def test_a_document_without_bookmarks_says_so_in_the_outline_tab(qtbot, window, tmp_path):
    from glyphscope.inspector.sidebar import NO_OUTLINE

    text_pages_pdf(tmp_path / "plain.pdf", 2)
    open_and_wait(qtbot, window, tmp_path / "plain.pdf")
    sidebar = window.sidebar.sidebar
    tree = sidebar.outline
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 1, timeout=TIMEOUT_MS)
    note = tree.topLevelItem(0)
    assert note.text(0) == NO_OUTLINE
    assert sidebar.tabText(1) == "Outline"
    # Clicking the note is not a bookmark: the page stays.
    tree.setCurrentItem(note)
    qtbot.mouseClick(
        tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualItemRect(note).center()
    )
    assert window.page_index == 0 and tree.currentItem() is None
    # A document with bookmarks shows them, not the note.
    outlined_pdf(tmp_path / "outlined.pdf")
    open_and_wait(qtbot, window, tmp_path / "outlined.pdf")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 3, timeout=TIMEOUT_MS)
    assert tree.topLevelItem(0).text(0) == "Intro"


def test_a_landscape_thumbnail_has_its_number_just_below_it_as_a_portrait_one(
    qtbot, window, tmp_path
):
    from tests.pdfbuilder import PdfBuilder

    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    b.add_page(b"BT /F1 24 Tf 72 500 Td (Wide) Tj ET", media_box=(0, 0, 792, 612))
    b.add_page(b"BT /F1 24 Tf 72 700 Td (Tall) Tj ET", fonts={"F1": helv})
    b.save(tmp_path / "mixed.pdf")
    open_and_wait(qtbot, window, tmp_path / "mixed.pdf")
    window.panels["sidebar"].raise_()
    sidebar = window.sidebar.sidebar
    qtbot.waitUntil(lambda: all(sidebar.has_thumbnail(i) for i in range(2)), timeout=TIMEOUT_MS)
    # Every icon has the view's icon size (the page centred in it): before, the landscape
    # page's shorter icon left the rest of its item to its number, a tall blue block when
    # it was the current page.
    for row in range(2):
        sizes = sidebar.pages.item(row).icon().availableSizes()
        assert sizes == [sidebar.pages.iconSize()], row
