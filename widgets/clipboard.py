"""Copying what a view shows: the selected rows of a table or tree as tab-separated text."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView


def selected_rows_text(view: QAbstractItemView) -> str:
    """The header, then each selected row in the order shown, cells separated by tabs."""
    model = view.model()
    selection = view.selectionModel()
    if model is None or selection is None:
        return ""
    columns = range(model.columnCount())
    header = [
        str(model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) or "")
        for c in columns
    ]
    indexes = selection.selectedRows() or sorted(
        {i.siblingAtColumn(0) for i in selection.selectedIndexes()}, key=_row_key
    )
    lines = ["\t".join(header)]
    for index in sorted(indexes, key=_row_key):
        cells = [model.data(index.siblingAtColumn(c)) for c in columns]
        lines.append("\t".join("" if v is None else str(v).replace("\t", " ") for v in cells))
    return "\n".join(lines) + "\n" if len(lines) > 1 else ""


def _row_key(index: QModelIndex) -> tuple[int, ...]:
    # A tree's rows sort by their path from the root, a table's by their row.
    path = []
    while index.isValid():
        path.append(index.row())
        index = index.parent()
    return tuple(reversed(path))


def copy_selected_rows(view: QAbstractItemView) -> str:
    text = selected_rows_text(view)
    if text:
        QGuiApplication.clipboard().setText(text)
    return text


class RowCopier(QObject):
    """Makes Ctrl+C in an item view copy its selected rows (Qt copies the current cell)."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if (
            kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
            and isinstance(event, QKeyEvent)
            and event.matches(QKeySequence.StandardKey.Copy)
        ):
            event.accept()
            if kind == QEvent.Type.KeyPress:
                copy_selected_rows(self.view)
            return True
        return False
