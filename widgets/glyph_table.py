"""A sortable, filterable table of the page's glyph records (model/view)."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from widgets.explain import char_label
from widgets.page_model import VISIBLE, PageModel

COLUMNS = (
    "#",
    "text",
    "code",
    "font",
    "size",
    "x",
    "y",
    "decode source",
    "MCID",
    "form depth",
    "token",
    "status",
)
SORT_ROLE = Qt.ItemDataRole.UserRole + 1

SCOPES = ("painted (page + forms)", "visible only", "page stream only (all glyphs, §3)")
ALL = "any"


class GlyphTableModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model: PageModel | None = None

    def set_page_model(self, model: PageModel | None) -> None:
        self.beginResetModel()
        self.model = model
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() or self.model is None else self.model.count

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def _value(self, row: int, column: int):
        glyph = self.model.glyphs[row]
        return (
            row,
            glyph.text,
            glyph.code,
            glyph.font_key,
            round(glyph.font_size, 2),
            round(glyph.origin[0], 2),
            round(glyph.origin[1], 2),
            glyph.decode_source,
            -1 if glyph.mcid is None else glyph.mcid,
            glyph.form_depth,
            glyph.token_index,
            self.model.status[row],
        )[column]

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.model is None:
            return None
        row, column = index.row(), index.column()
        if role == SORT_ROLE:
            return self._value(row, column)
        if role == Qt.ItemDataRole.DisplayRole:
            value = self._value(row, column)
            if column == 1:
                return char_label(value)
            if column == 2:
                return f"0x{value:0{self.model.glyphs[row].code_length * 2}X}"
            if column == 8 and value < 0:
                return ""
            if column == 11:
                return value.replace("_", " ")
            return str(value)
        if role == Qt.ItemDataRole.ForegroundRole and self.model.status[row] != VISIBLE:
            return QColor("#b00020")
        return None


class GlyphFilterProxy(QSortFilterProxyModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.scope = SCOPES[0]
        self.dropped_only = False
        self.unresolved_only = False
        self.font = ALL
        self.mcid = ALL

    def set_filter(self, **values) -> None:
        # Qt ≥ 6.10 replaces invalidateFilter() with a begin/end pair around the change.
        self.beginFilterChange()
        for name, value in values.items():
            setattr(self, name, value)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:
        model = self.sourceModel().model
        if model is None:
            return False
        glyph = model.glyphs[row]
        status = model.status[row]
        if self.scope == SCOPES[1] and status != VISIBLE:
            return False
        if self.scope == SCOPES[2] and glyph.form_depth > 0:
            return False
        if self.dropped_only and status == VISIBLE:
            return False
        if self.unresolved_only and not model.is_unresolved(row):
            return False
        if self.font != ALL and glyph.font_key != self.font:
            return False
        if self.mcid != ALL and str(glyph.mcid) != self.mcid:
            return False
        return True


class GlyphTable(QWidget):
    glyphsSelected = Signal(list)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.source = GlyphTableModel(self)
        self.proxy = GlyphFilterProxy(self)
        self.proxy.setSourceModel(self.source)
        self.view = QTableView()
        self.view.setObjectName("glyph_table")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.scope = QComboBox()
        self.scope.addItems(SCOPES)
        self.dropped_only = QCheckBox("dropped only")
        self.unresolved_only = QCheckBox("unresolved only")
        self.font = QComboBox()
        self.mcid = QComboBox()
        self.count = QLabel()
        self.scope.currentTextChanged.connect(lambda v: self._filter(scope=v))
        self.dropped_only.toggled.connect(lambda v: self._filter(dropped_only=v))
        self.unresolved_only.toggled.connect(lambda v: self._filter(unresolved_only=v))
        self.font.currentTextChanged.connect(lambda v: self._filter(font=v or ALL))
        self.mcid.currentTextChanged.connect(lambda v: self._filter(mcid=v or ALL))
        controls = QHBoxLayout()
        for widget in (self.scope, self.dropped_only, self.unresolved_only):
            controls.addWidget(widget)
        controls.addWidget(QLabel("font"))
        controls.addWidget(self.font)
        controls.addWidget(QLabel("MCID"))
        controls.addWidget(self.mcid)
        controls.addStretch(1)
        controls.addWidget(self.count)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(controls)
        layout.addWidget(self.view)
        self._quiet = False
        self.view.selectionModel().selectionChanged.connect(self._on_selection)

    def set_page_model(self, model: PageModel | None) -> None:
        self._quiet = True
        try:
            self.source.set_page_model(model)
            for combo, values in (
                (self.font, model.fonts if model else ()),
                (self.mcid, [str(m) for m in model.mcids] if model else ()),
            ):
                combo.blockSignals(True)
                combo.clear()
                combo.addItem(ALL)
                combo.addItems(list(values))
                combo.blockSignals(False)
            self.proxy.set_filter(font=ALL, mcid=ALL)
            self.view.resizeColumnsToContents()
        finally:
            self._quiet = False
        self._update_count()

    def _filter(self, **values) -> None:
        self.proxy.set_filter(**values)
        self._update_count()

    def _update_count(self) -> None:
        self.count.setText(f"{self.proxy.rowCount()} of {self.source.rowCount()} glyphs")

    def visible_rows(self) -> list[int]:
        """Source rows (glyph indices) that pass the filters, in the shown order."""
        return [
            self.proxy.mapToSource(self.proxy.index(r, 0)).row()
            for r in range(self.proxy.rowCount())
        ]

    def set_selected(self, indices) -> None:
        self._quiet = True
        try:
            selection = QItemSelection()
            for row in indices:
                source_index = self.source.index(row, 0)
                proxy_index = self.proxy.mapFromSource(source_index)
                if proxy_index.isValid():
                    selection.select(proxy_index, proxy_index)
            flags = (
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows
            )
            self.view.selectionModel().select(selection, flags)
            if not selection.isEmpty():
                self.view.scrollTo(selection.indexes()[0])
        finally:
            self._quiet = False

    def _on_selection(self, *_args) -> None:
        if self._quiet:
            return
        rows = sorted(
            {self.proxy.mapToSource(i).row() for i in self.view.selectionModel().selectedRows()}
        )
        if rows:
            self.glyphsSelected.emit(rows)
