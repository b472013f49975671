"""The Corpus panel: a sweep's ranked pages as a sortable, filterable table.

Rows are `glyphscope.sweep.ranking.RankedPage` records; double-clicking (or Enter on) a row
emits `pageRequested(row)`, and the application opens that page with the row's layers.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from glyphscope.sweep.ranking import RankedPage
from glyphscope.widgets.column_widths import fit_columns
from glyphscope.widgets.table_model import TitledTableModel

COLUMNS = (
    "#",
    "suspicion",
    "document",
    "page",
    "producer",
    "unresolved",
    "pdfium F1",
    "duplicates",
    "off-box",
    "words changed",
    "why",
)
COLUMN_WIDTHS = (44, 70, 220, 44, 140, 70, 70, 70, 60, 104)  # the last column takes the rest
SORT_ROLE = Qt.ItemDataRole.UserRole


class CorpusModel(TitledTableModel):
    column_titles = COLUMNS

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[RankedPage] = []

    def set_rows(self, rows: list[RankedPage]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def row_total(self) -> int:
        return len(self.rows)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        values = (
            index.row() + 1,
            row.suspicion,
            Path(row.path).name,
            row.page,
            row.producer,
            row.unresolved,
            row.pdfium_f1,
            row.dropped_duplicates,
            row.dropped_off_box,
            row.words_changed,
            "; ".join(row.reasons()),
        )
        value = values[index.column()]
        if role == SORT_ROLE:
            return -1.0 if value is None else value
        if role == Qt.ItemDataRole.DisplayRole:
            if value is None:
                return ""
            return f"{value:.2f}" if isinstance(value, float) else str(value)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 2:
            return row.path
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ChangedFilter(QSortFilterProxyModel):
    """Text filter over every column, plus "changed pages only" for a --compare run."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.changed_only = False
        self.setSortRole(SORT_ROLE)
        self.setFilterKeyColumn(-1)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex) -> bool:
        if self.changed_only and not self.sourceModel().rows[source_row].changed:
            return False
        return super().filterAcceptsRow(source_row, source_parent)

    def set_changed_only(self, on: bool) -> None:
        begin = getattr(self, "beginFilterChange", None)  # Qt 6.9 on; invalidateFilter before
        if begin is None:
            self.changed_only = on
            self.invalidateFilter()
            return
        begin()
        self.changed_only = on
        self.endFilterChange()


class CorpusPanel(QWidget):
    pageRequested = Signal(object)  # RankedPage

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("corpus_panel")
        self.summary = QLabel("No sweep results open (File › Open sweep results…).")
        self.summary.setWordWrap(True)
        self.filter = QLineEdit()
        self.filter.setObjectName("corpus_filter")
        self.filter.setPlaceholderText("Filter: document, producer, reason…")
        self.changed_only = QCheckBox("changed pages only")
        self.model = CorpusModel(self)
        self.proxy = ChangedFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setObjectName("corpus_table")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        fit_columns(self.table, COLUMN_WIDTHS)
        controls = QHBoxLayout()
        controls.addWidget(self.filter, 1)
        controls.addWidget(self.changed_only)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(controls)
        layout.addWidget(self.table, 1)
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.changed_only.toggled.connect(self.proxy.set_changed_only)
        # Qt's "activated": a double-click, or Enter on the current row.
        self.table.activated.connect(self._on_activated)

    def set_rows(self, rows: list[RankedPage], summary: str) -> None:
        self.model.set_rows(rows)
        self.summary.setText(summary)
        self.changed_only.setEnabled(any(row.changed is not None for row in rows))
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # ranked order

    def visible_rows(self) -> list[RankedPage]:
        """The rows as shown, filtered and sorted."""
        return [
            self.model.rows[self.proxy.mapToSource(self.proxy.index(i, 0)).row()]
            for i in range(self.proxy.rowCount())
        ]

    def _on_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.pageRequested.emit(self.model.rows[self.proxy.mapToSource(index).row()])
