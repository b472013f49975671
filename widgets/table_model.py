"""A read-only table model whose header is a fixed tuple of column titles."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt


class TitledTableModel(QAbstractTableModel):
    """Subclasses set `column_titles` and implement `row_total()` and `data()`."""

    column_titles: tuple[str, ...] = ()

    def row_total(self) -> int:
        raise NotImplementedError

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self.row_total()

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.column_titles)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.column_titles[section]
        return None
