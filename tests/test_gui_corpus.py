"""The Corpus panel: a sweep's ranked pages, sortable and filterable; a double-click opens the
page with the layers and, for a --compare run, both rule sets (pytest-qt, offscreen)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from glyphscope.core.rules import Rules
from glyphscope.inspector.qa.corpus import install_corpus
from glyphscope.sweep.cli import main as sweep_main
from tests.qa_support import TIMEOUT_MS, qa_window
from tests.sweep_support import GAP_PAGE, PLAIN_PAGE, write_pdf

__all__ = ["qa_window"]

UNRESOLVED_PAGE = b"BT /F1 10 Tf 72 720 Td (ok) Tj 0 -20 Td <01> Tj ET"


@pytest.fixture
def results(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    write_pdf(folder / "gap.pdf", PLAIN_PAGE, GAP_PAGE)  # the change is on page 2
    write_pdf(folder / "unresolved.pdf", UNRESOLVED_PAGE)
    database = tmp_path / "results.sqlite"
    assert sweep_main([str(folder), "--db", str(database), "--quiet",
                       "--compare-rule", "space_gap_ratio=0.12"]) == 0  # fmt: skip
    return database


def _row_of(panel, name: str, page: int) -> int:
    for row in range(panel.proxy.rowCount()):
        document = panel.proxy.index(row, 2).data()
        if document == name and panel.proxy.index(row, 3).data() == str(page):
            return row
    raise AssertionError(f"{name} page {page} not listed")


def test_results_are_listed_ranked_and_can_be_sorted_and_filtered(qa_window, results):
    window, _features = qa_window
    corpus = install_corpus(window)
    corpus.open_results(results)
    panel = corpus.panel
    listed = [(r.path.rsplit("/", 1)[1], r.page) for r in panel.visible_rows()]
    assert listed == [("gap.pdf", 2), ("unresolved.pdf", 1), ("gap.pdf", 1)]
    assert "3 pages of 2 documents, 1 changed" in panel.summary.text()
    panel.table.sortByColumn(3, Qt.SortOrder.DescendingOrder)  # by page
    assert [r.page for r in panel.visible_rows()] == [2, 1, 1]
    panel.filter.setText("UNRESOLVED")
    assert [r.path.rsplit("/", 1)[1] for r in panel.visible_rows()] == ["unresolved.pdf"]
    panel.filter.setText("")
    panel.changed_only.setChecked(True)
    assert [(r.page, r.words_changed) for r in panel.visible_rows()] == [(2, 3)]


def test_double_click_opens_the_page_with_its_layers_and_both_rule_sets(qtbot, qa_window, results):
    window, features = qa_window
    corpus = install_corpus(window)
    corpus.open_results(results)
    panel = corpus.panel
    row = _row_of(panel, "gap.pdf", 2)
    rect = panel.table.visualRect(panel.proxy.index(row, 2))
    with qtbot.waitSignal(features.ruleChangesShown, timeout=TIMEOUT_MS,
                          check_params_cb=lambda c: bool(c.spaces_gained)):  # fmt: skip
        # A press-release first, as a real double-click starts with one.
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
        qtbot.mouseDClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.path.endswith("gap.pdf") and window.page_index == 1
    assert window.rules == Rules(space_gap_ratio=0.12)
    assert features.changes.spaces_gained and not features.changes.spaces_lost
    groups = {group.label: group.glyphs for group in features.rule_layer.groups}
    assert list(groups) == ["spaces gained"]
    shown = {layer_id for layer_id, layer in window.layers.items() if layer.isVisible()}
    assert {"glyphs", "rule_changes", "gaps", "pdfium_diff"} <= shown
    assert "unresolved" not in shown


def test_an_unresolved_row_opens_with_the_unresolved_layer(qtbot, qa_window, results):
    window, _features = qa_window
    corpus = install_corpus(window)
    corpus.open_results(results)
    panel = corpus.panel
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        panel.pageRequested.emit(panel.model.rows[_row_of(panel, "unresolved.pdf", 1)])
    assert window.path.endswith("unresolved.pdf") and window.page_index == 0
    assert window.layers["unresolved"].isVisible()
    assert window.rules == Rules()


def test_file_menu_offers_open_sweep_results(qa_window):
    window, _features = qa_window
    corpus = install_corpus(window)
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    assert corpus.action in file_menu.actions()


def test_the_reports_command_line_names_qa_layers_the_inspector_knows():
    from glyphscope.inspector.app import layer_choice, parse_args

    args = parse_args(["f.pdf", "--page", "2", "--layers", "glyphs,rule_changes,pdfium_diff",
                       "--sweep", "r.sqlite"])  # fmt: skip
    assert (args.sweep, args.page) == ("r.sqlite", 2)
    assert layer_choice(args.layers) == ["glyphs", "rule_changes", "pdfium_diff"]
