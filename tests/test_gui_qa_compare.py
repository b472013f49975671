"""Compare with pdfium (page word diff linked to glyphs, document ranking) and Search (Ctrl+F)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from glyphscope.core.qa.diffing import WordDiff
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import TIMEOUT_MS, glyph_indices, open_and_wait, qa_window, tj_pdf

__all__ = ["qa_window"]


def pages_pdf(path: Path) -> Path:
    """Three pages; page 2 also has "SLUG" above its CropBox, which pdfium reads and we drop
    (spec §4), so it is the one page where the two disagree."""
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for number in (1, 2, 3):
        content = b"BT /F1 20 Tf 20 100 Td (Page %d text) Tj ET" % number
        if number == 2:
            content += b"\nBT /F1 8 Tf 20 180 Td (SLUG) Tj ET"
        b.add_page(
            content, media_box=(0, 0, 200, 200), crop_box=(0, 0, 200, 160), fonts={"F1": helv}
        )
    b.save(path)
    return path


def compare_page(qtbot, features) -> WordDiff:
    with qtbot.waitSignal(features.pageCompared, timeout=TIMEOUT_MS) as blocker:
        features.compare_page()
    return blocker.args[1]


def reanalyse(qtbot, window, rules: Rules) -> None:
    with qtbot.waitSignal(window.analysisReady, timeout=TIMEOUT_MS):
        window.set_rules(rules)


# -- compare this page ------------------------------------------------------------------------


def test_pdfium_and_we_agree_on_the_tj_page_under_the_spec_rules(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    diff = compare_page(qtbot, features)
    assert diff.differences == ()
    assert (diff.our_words, diff.their_words) == (4, 4)


def test_a_lost_space_is_a_word_difference_linked_to_our_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    reanalyse(qtbot, window, Rules().with_values(space_gap_ratio=0.7))
    diff = compare_page(qtbot, features)
    assert [(d.kind, d.ours, d.theirs, d.glyphs) for d in diff.differences] == [
        ("replace", "TJspaced", "TJ spaced", tuple(glyph_indices(window, "TJspaced")))
    ]


def test_the_difference_is_drawn_on_the_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    reanalyse(qtbot, window, Rules().with_values(space_gap_ratio=0.7))
    compare_page(qtbot, features)
    assert [(g.label, g.glyphs) for g in features.diff_layer.groups] == [
        ("replaced", tuple(glyph_indices(window, "TJspaced")))
    ]


def test_clicking_a_difference_selects_its_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    reanalyse(qtbot, window, Rules().with_values(space_gap_ratio=0.7))
    compare_page(qtbot, features)
    tree = features.compare_panel.differences
    tree.itemClicked.emit(tree.topLevelItem(0), 0)
    assert window.selection.indices == tuple(glyph_indices(window, "TJspaced"))


def test_text_only_pdfium_reads_is_listed_as_only_pdfium(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"), page=1)
    diff = compare_page(qtbot, features)
    assert [(d.kind, d.ours, d.theirs, d.glyphs) for d in diff.differences] == [
        ("missing", "", "SLUG", ())
    ]
    assert features.compare_panel.differences.topLevelItem(0).text(0) == "only pdfium"


# -- compare every page -----------------------------------------------------------------------


def test_document_comparison_ranks_the_disagreeing_page_first(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    with qtbot.waitSignal(features.documentCompared, timeout=TIMEOUT_MS) as blocker:
        features.compare_document()
    assert blocker.args == [3]
    assert features.compare_panel.ranked_pages()[0] == 1
    first = features.compare_panel.pages.topLevelItem(0)
    assert (first.text(0), first.text(1), first.text(2)) == ("2", "14.3%", "1")  # 1 of 3 + 4 words


def test_clicking_a_ranked_page_shows_it(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    with qtbot.waitSignal(features.documentCompared, timeout=TIMEOUT_MS):
        features.compare_document()
    pages = features.compare_panel.pages
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        pages.itemClicked.emit(pages.topLevelItem(0), 0)
    assert window.page_index == 1


# -- search -----------------------------------------------------------------------------------


def search(qtbot, features, query: str) -> int:
    with qtbot.waitSignal(features.searchFinished, timeout=TIMEOUT_MS) as blocker:
        features.search_panel.query.setText(query)
        features.search_panel.request()
    return blocker.args[1]


def test_search_finds_hits_on_every_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    assert search(qtbot, features, "text") == 3
    assert [(h.page_index, h.start, h.end) for h in features.search_panel.results] == [
        (0, 7, 11),
        (1, 7, 11),
        (2, 7, 11),
    ]
    tree = features.search_panel.hits
    assert [tree.topLevelItem(i).text(0) for i in range(3)] == [
        "Page 1 (1 hits)",
        "Page 2 (1 hits)",
        "Page 3 (1 hits)",
    ]


def test_search_hits_on_the_shown_page_are_drawn(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    search(qtbot, features, "page 1")
    assert [g.glyphs for g in features.search_layer.groups] == [
        tuple(glyph_indices(window, "Page 1"))
    ]


def test_choosing_a_hit_on_another_page_turns_to_it_and_selects_it(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    search(qtbot, features, "3 text")
    page = features.search_panel.hits.topLevelItem(0)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        features.search_panel.hits.itemClicked.emit(page.child(0), 0)
    qtbot.waitUntil(lambda: window.selection.indices != (), timeout=TIMEOUT_MS)
    assert window.page_index == 2
    assert window.selection.indices == tuple(glyph_indices(window, "3 text"))


def test_a_query_with_no_hits_says_so(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    assert search(qtbot, features, "SLUG") == 0
    assert features.search_panel.status.text() == "“SLUG”: no hits in 3 pages"


def test_ctrl_f_shows_the_search_panel_with_the_query_focused(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    features.docks["search"].hide()
    window.activateWindow()
    qtbot.keyClick(window.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert features.docks["search"].isVisible()
    assert QApplication.focusWidget() is features.search_panel.query


def test_a_cancelled_document_comparison_adds_no_more_pages(qtbot, qa_window, tmp_path):
    window, features = qa_window
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for number in range(25):
        b.add_page(b"BT /F1 20 Tf 20 100 Td (Page %d) Tj ET" % number, fonts={"F1": helv})
    b.save(tmp_path / "many.pdf")
    open_and_wait(qtbot, window, tmp_path / "many.pdf")
    with qtbot.waitSignal(
        features.worker.jobFinished,
        timeout=TIMEOUT_MS,
        check_params_cb=lambda kind, _generation, _result: kind == "compare-document",
    ):
        features.compare_document()
        features.compare_panel.run_button.click()  # the button reads "Cancel" while running
    assert features.compare_panel.pages.topLevelItemCount() == 0
    assert features.compare_panel.progress.text() == "cancelled after 0 of 25 pages"
    assert features.compare_panel.run_button.text() == "Compare every page"
