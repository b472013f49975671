"""Sweep results in the inspector: File › Open sweep results…, `glyphscope --sweep FILE`, and the
Corpus panel whose rows open their page with the layers that explain them.

A row of a --compare run loads both rule sets: the page is analysed with the sweep's first set,
then with the second, and the Rules panel compares against the previous rules, so the
Rule-changes layer draws exactly the decisions the sweep counted.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu

from glyphscope.core.qa.diffing import changed_rules
from glyphscope.core.rules import Rules
from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.qa.features import qa_features_of
from glyphscope.sweep.ranking import RankedPage, latest_rules_hash, ranked_pages
from glyphscope.sweep.store import connect
from glyphscope.widgets.corpus_panel import CorpusPanel
from glyphscope.widgets.rules_panel import COMPARE_PREVIOUS

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow


class CorpusFeature(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("corpus_feature")
        self.window = window
        self.panel = CorpusPanel()
        self.dock = window.add_panel(
            "corpus", "Corpus", self.panel, Qt.DockWidgetArea.BottomDockWidgetArea, "F12"
        )
        if "text" in window.panels:  # the full width of the bottom, beside the text panes
            window.tabifyDockWidget(window.panels["text"], self.dock)
            window.panels["text"].raise_()
        self.results: str | None = None
        self.rules = Rules()
        self.compare_rules: Rules | None = None
        # (page index, second rule set) waiting for the first set's analysis of that page.
        self._pending: tuple[int, Rules] | None = None
        self.action = QAction("Open s&weep results…", window)
        self.action.setObjectName("action_open_sweep")
        self.action.triggered.connect(self._open_dialog)
        _file_menu_insert(window, self.action)
        self.panel.pageRequested.connect(self.open_row)
        window.analysisReady.connect(self._on_analysis)

    def open_results(self, path: str | Path) -> None:
        """Show a results file's ranked pages (a SchemaError for anything else)."""
        connection = connect(path)
        try:
            rules_hash = latest_rules_hash(connection)
            rows = ranked_pages(connection, rules_hash)
            run = connection.execute(
                "SELECT rules, compare_rules FROM runs WHERE rules_hash = ? ORDER BY id DESC",
                (rules_hash,),
            ).fetchone()
        finally:
            connection.close()
        self.results = str(path)
        self.rules = Rules.from_json(run[0]) if run else Rules()
        self.compare_rules = Rules.from_json(run[1]) if run and run[1] else None
        compared = ""
        if self.compare_rules is not None:
            change = changed_rules(self.rules, self.compare_rules)
            compared = "; compared: " + ", ".join(f"{n} {a} → {b}" for n, a, b in change)
        changed = sum(1 for row in rows if row.changed)
        self.panel.set_rows(
            rows,
            f"{Path(path).name}: {len(rows)} pages of {len({r.path for r in rows})} documents"
            + (f", {changed} changed" if self.compare_rules is not None else "")
            + compared,
        )
        self.dock.show()
        self.dock.raise_()

    def open_page(self, path: str, page: int) -> bool:
        """Open the row of `path` page `page` (1-based) if the results have it."""
        target = str(Path(path).resolve())
        for row in self.panel.model.rows:
            if row.path == target and row.page == page:
                self.open_row(row)
                return True
        return False

    def open_row(self, row: RankedPage) -> None:
        window = self.window
        index = row.page - 1
        window.set_layers(row.layers())
        if "pdfium_diff" in row.layers():
            compare = window.panels.get("compare")
            if compare is not None:
                compare.show()
                compare.raise_()
        self._pending = None
        if row.changed and self.compare_rules is not None:
            self._pending = (index, self.compare_rules)
            qa = qa_features_of(window)
            if qa is not None:
                qa.rules_panel.compare.setCurrentText(COMPARE_PREVIOUS)
        window.set_rules(self.rules)
        if window.path != row.path:
            window.open_file(row.path, None, index)
        elif window.page_index != index:
            window.go_to_page(index)
        elif self._pending is not None and window.model is not None:
            self._on_analysis(index, window.model)

    def _on_analysis(self, index: int, model: PageModel) -> None:
        pending = self._pending
        if pending is None or pending[0] != index or model.analysis.rules != self.rules:
            return
        self._pending = None
        self.window.set_rules(pending[1])

    def _open_dialog(self) -> None:
        start = str(Path(self.results).parent) if self.results else ""
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Open sweep results", start, "Sweep results (*.sqlite *.db);;All (*)"
        )
        if path:
            try:
                self.open_results(path)
            except Exception as exc:  # a file that is not a results file: say so, keep going
                self.window.show_error(f"{Path(path).name}: {exc}")


def _file_menu_insert(window: MainWindow, action: QAction) -> None:
    """Put the action in the File menu after Open Recent (before Close)."""
    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        if isinstance(menu, QMenu) and menu_action.text() == "&File":
            close = window.actions_by_name.get("close")
            menu.insertAction(close, action) if close is not None else menu.addAction(action)
            return
    window.menuBar().addAction(action)


def install_corpus(window: MainWindow) -> CorpusFeature:
    return CorpusFeature(window)
