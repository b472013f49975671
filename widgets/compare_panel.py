"""Our reading-order text against pdfium's (core.qa.diffing), for the page and the document.

The page part lists each word difference; clicking one emits the glyphs behind our words.
The document part ranks pages by how much the two disagree; clicking one emits the page.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.qa.diffing import WordDiff
from glyphscope.widgets.column_widths import fit_columns

KIND_COLOURS = {"replace": "#d62728", "extra": "#ff7f0e", "missing": "#9467bd"}
KIND_LABELS = {"replace": "differs", "extra": "only ours", "missing": "only pdfium"}


class _PageItem(QTreeWidgetItem):
    """Sorts numerically on every column but the first."""

    def __lt__(self, other: QTreeWidgetItem) -> bool:
        column = self.treeWidget().sortColumn() if self.treeWidget() else 0
        key = Qt.ItemDataRole.UserRole + 1
        mine, theirs = self.data(column, key), other.data(column, key)
        if mine is not None and theirs is not None:
            return mine < theirs
        return super().__lt__(other)


class ComparePanel(QWidget):
    glyphsChosen = Signal(tuple)
    pageChosen = Signal(int)
    documentRequested = Signal()
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_panel")
        self.page_summary = QLabel("No page compared yet.")
        self.page_summary.setObjectName("compare_summary")
        self.page_summary.setWordWrap(True)
        self.differences = QTreeWidget()
        self.differences.setObjectName("compare_differences")
        self.differences.setHeaderLabels(["kind", "ours", "pdfium"])
        self.differences.setRootIsDecorated(False)
        fit_columns(self.differences, [80, 160])
        self.differences.itemClicked.connect(self._on_difference)

        self.run_button = QPushButton("Compare every page")
        self.run_button.setObjectName("compare_document")
        self.run_button.clicked.connect(self._on_run)
        self.progress = QLabel("")
        self.pages = QTreeWidget()
        self.pages.setObjectName("compare_pages")
        self.pages.setHeaderLabels(["page", "disagreement", "differing words", "ours / pdfium"])
        self.pages.setRootIsDecorated(False)
        self.pages.setSortingEnabled(True)
        fit_columns(self.pages, [48, 100, 100])
        self.pages.itemClicked.connect(self._on_page)
        self.running = False

        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addWidget(QLabel("<b>This page</b> — reading order vs pdfium, word by word"))
        top_layout.addWidget(self.page_summary)
        top_layout.addWidget(self.differences, 1)
        bottom = QWidget()
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel("<b>Document</b>"))
        row.addWidget(self.run_button)
        row.addWidget(self.progress, 1)
        bottom_layout.addLayout(row)
        bottom_layout.addWidget(self.pages, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(bottom)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(splitter)

    # -- this page --------------------------------------------------------------------------
    def show_page_diff(self, page_number: int, diff: WordDiff | None, error: str = "") -> None:
        self.differences.clear()
        if diff is None:
            self.page_summary.setText(error or "Comparing…")
            return
        self.page_summary.setText(
            f"Page {page_number}: {diff.our_words} words ours, {diff.their_words} pdfium's; "
            f"{len(diff.differences)} differences ({diff.disagreement:.1%} of words)."
        )
        for difference in diff.differences:
            item = QTreeWidgetItem(
                [
                    KIND_LABELS.get(difference.kind, difference.kind),
                    difference.ours,
                    difference.theirs,
                ]
            )
            item.setForeground(0, QColor(KIND_COLOURS.get(difference.kind, "#333")))
            item.setData(0, Qt.ItemDataRole.UserRole, difference.glyphs)
            item.setToolTip(1, difference.ours)
            item.setToolTip(2, difference.theirs)
            self.differences.addTopLevelItem(item)

    def _on_difference(self, item: QTreeWidgetItem, _column: int) -> None:
        glyphs = item.data(0, Qt.ItemDataRole.UserRole)
        self.glyphsChosen.emit(tuple(glyphs or ()))

    # -- document ---------------------------------------------------------------------------
    def clear_document(self) -> None:
        self.pages.clear()
        self.progress.setText("")
        self.set_running(False)

    def set_running(self, running: bool) -> None:
        self.running = running
        self.run_button.setText("Cancel" if running else "Compare every page")

    def set_progress(self, done: int, total: int) -> None:
        self.progress.setText(f"{done} of {total} pages" + ("" if done < total else " — done"))

    def add_page_results(self, results) -> None:
        """`results`: (page index, WordDiff or an error message) pairs."""
        key = Qt.ItemDataRole.UserRole + 1
        self.pages.setSortingEnabled(False)
        for index, diff in results:
            if isinstance(diff, WordDiff):
                values = [
                    str(index + 1),
                    f"{diff.disagreement:.1%}",
                    str(diff.differing_words),
                    f"{diff.our_words} / {diff.their_words}",
                ]
                sort_keys = [index + 1, diff.disagreement, diff.differing_words, diff.our_words]
            else:
                values = [str(index + 1), "error", "", str(diff)]
                sort_keys = [index + 1, -1.0, -1, -1]
            item = _PageItem(values)
            for column, sort_key in enumerate(sort_keys):
                item.setData(column, key, sort_key)
            item.setData(0, Qt.ItemDataRole.UserRole, index)
            self.pages.addTopLevelItem(item)
        self.pages.setSortingEnabled(True)
        self.pages.sortItems(1, Qt.SortOrder.DescendingOrder)

    def ranked_pages(self) -> list[int]:
        """Page indices in the order shown (most disagreement first)."""
        return [
            self.pages.topLevelItem(row).data(0, Qt.ItemDataRole.UserRole)
            for row in range(self.pages.topLevelItemCount())
        ]

    def _on_run(self) -> None:
        if self.running:
            self.cancelRequested.emit()
        else:
            self.documentRequested.emit()

    def _on_page(self, item: QTreeWidgetItem, _column: int) -> None:
        self.pageChosen.emit(int(item.data(0, Qt.ItemDataRole.UserRole)))
