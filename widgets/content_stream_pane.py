"""The page's content-stream operators (page stream, then each form XObject), model/view.

The showing operator of the selected glyph is highlighted and scrolled to; clicking an
operator emits it so the owner can light the glyphs it painted.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import QAbstractItemView, QLabel, QTableView, QVBoxLayout, QWidget

from glyphscope.core.interpret.content import OperatorRecord
from glyphscope.widgets.table_model import TitledTableModel

COLUMNS = ("stream", "#", "operator", "operands")
TEXT_OPERATORS = frozenset(("Tj", "TJ", "'", '"'))
HIGHLIGHT = QColor("#ffd400")
PAINTING = QColor("#fff4c2")


class OperatorModel(TitledTableModel):
    column_titles = COLUMNS

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.records: tuple[OperatorRecord, ...] = ()
        self.rows: dict[tuple[str, int], int] = {}
        self.highlighted: set[int] = set()
        self.painting: set[int] = set()  # operators that painted a selected glyph

    def set_records(self, records) -> None:
        self.beginResetModel()
        self.records = tuple(records)
        self.rows = {(r.form_path, r.index): row for row, r in enumerate(self.records)}
        self.highlighted = set()
        self.painting = set()
        self.endResetModel()

    def set_marks(self, highlighted: set[int], painting: set[int]) -> None:
        self.highlighted, self.painting = highlighted, painting
        if self.records:
            last = self.index(len(self.records) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def row_total(self) -> int:
        return len(self.records)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        record = self.records[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return (record.form_path or "page", record.index, record.operator, record.operands)[
                column
            ]
        if role == Qt.ItemDataRole.BackgroundRole:
            if row in self.highlighted:
                return HIGHLIGHT
            if row in self.painting:
                return PAINTING
        if role == Qt.ItemDataRole.ForegroundRole and column == 2:
            if record.operator in TEXT_OPERATORS:
                return QColor("#0d47a1")
        return None


class ContentStreamPane(QWidget):
    # form_path, operator index
    operatorChosen = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("content_stream")
        self.model = OperatorModel(self)
        self.table = QTableView()
        self.table.setObjectName("content_stream_table")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(18)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.table.clicked.connect(self._on_clicked)
        self.status = QLabel("No page.")
        self.status.setStyleSheet("color:#555; font-size:11px")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)

    def set_operators(self, records) -> None:
        self.model.set_records(records)
        forms = len({r.form_path for r in self.model.records if r.form_path})
        self.status.setText(
            f"{len(self.model.records)} operators"
            + (f" (page stream and {forms} form XObjects)" if forms else "")
        )
        for column, width in enumerate((120, 50, 70)):
            self.table.setColumnWidth(column, width)

    def row_of(self, form_path: str, index: int) -> int | None:
        return self.model.rows.get((form_path, index))

    def show_glyphs(self, glyphs, current=None) -> int | None:
        """Mark the operators that painted `glyphs`; highlight and scroll to the one that
        painted `current`. Returns that operator's row."""
        painting = {self.model.rows.get((g.form_path, g.operator_index)) for g in glyphs}
        painting.discard(None)
        row = None
        if current is not None:
            row = self.model.rows.get((current.form_path, current.operator_index))
        self.model.set_marks({row} if row is not None else set(), painting)
        if row is not None:
            self.table.scrollTo(
                self.model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )
        return row

    def highlighted_rows(self) -> set[int]:
        return set(self.model.highlighted)

    def choose_row(self, row: int) -> None:
        """Click operator `row` as a user would."""
        self._on_clicked(self.model.index(row, 0))

    def _on_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            record = self.model.records[index.row()]
            self.operatorChosen.emit(record.form_path, record.index)
