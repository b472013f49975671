"""Column widths of the panels' trees and tables, chosen so that a dock of a 1024×700 window
shows every column without a horizontal scroll bar."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QTableView, QTreeView

# Qt stretches a view's last column over the room the others leave, but never below the
# width it had before (by default 100 pixels, which pushed the Structure and Compare trees
# past their docks): given this width first, the last column shrinks down to it.
LAST_COLUMN_PX = 40


def fit_columns(view: QTreeView | QTableView, widths: Sequence[int]) -> None:
    """Give the first columns `widths` (the user may still drag them) and let the last one
    take the room left, down to LAST_COLUMN_PX."""
    header = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
    header.setStretchLastSection(True)
    for column, width in enumerate(widths):
        view.setColumnWidth(column, width)
    view.setColumnWidth(header.count() - 1, LAST_COLUMN_PX)
