"""A sortable, filterable table of the page's glyph records (model/view)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import (
    QIdentityProxyModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
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

from glyphscope.core.text.visible import GlyphStatus
from glyphscope.core.view.explain import char_label
from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.clipboard import RowCopier
from glyphscope.widgets.table_model import TitledTableModel

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
COLUMN_WIDTHS = (48, 110, 70, 50, 50, 64, 64, 110, 48, 70, 50, 120)
HEADER_PADDING = 28  # the sort indicator and the section's margins

SCOPES = ("painted (page + forms)", "visible only", "page stream only (all glyphs, §3)")
ALL = "any"


class GlyphTableModel(TitledTableModel):
    """Rows are glyphs in `order`: the glyph indices the sort and the filters leave, a numpy
    array over the page model's columns; cells are formatted only when the view asks."""

    column_titles = COLUMNS

    sorted = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model: PageModel | None = None
        self.order = np.zeros(0, dtype=np.int64)
        self._sorted = np.zeros(0, dtype=np.int64)  # every glyph, in the sort's order
        self._accepted: np.ndarray | None = None  # which glyphs pass the filters (None: all)
        self._rows = np.zeros(0, dtype=np.int64)  # glyph → its row, -1 when filtered out
        self._keys: list[np.ndarray] = []

    def set_page_model(
        self,
        model: PageModel | None,
        column: int = 0,
        order=Qt.SortOrder.AscendingOrder,
        accepted: np.ndarray | None = None,
    ) -> None:
        """Show another page's glyphs, already sorted by `column` and filtered by the mask
        `accepted` (one reset)."""
        self.beginResetModel()
        self.model = model
        self._keys = _sort_keys(model) if model is not None else []
        self._sorted = (
            _permutation(self._keys, column, order)
            if model is not None
            else np.zeros(0, dtype=np.int64)
        )
        self._accepted = accepted
        self._apply()
        self.endResetModel()

    def set_accepted(self, accepted: np.ndarray | None) -> None:
        """Show only the glyphs the mask lets through (numpy, not a call per row)."""
        self.beginResetModel()
        self._accepted = accepted
        self._apply()
        self.endResetModel()

    def _apply(self) -> None:
        order = self._sorted
        if self._accepted is not None and len(self._accepted) == len(order):
            order = order[self._accepted[order]]
        self.order = order
        self._rows = np.full(len(self._sorted), -1, dtype=np.int64)
        self._rows[order] = np.arange(len(order))

    def glyph_at(self, row: int) -> int:
        return int(self.order[row])

    def rows_of(self, glyphs) -> np.ndarray:
        """The rows showing the given glyphs (those filtered out or off the page left out)."""
        wanted = np.asarray([int(g) for g in glyphs], dtype=np.int64)
        wanted = wanted[(wanted >= 0) & (wanted < len(self._rows))]
        rows = self._rows[wanted]
        return rows[rows >= 0]

    def row_total(self) -> int:
        return len(self.order)

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        """A stable numpy sort on precomputed keys: no Python comparison per pair of rows."""
        if self.model is None or not 0 <= column < len(self._keys):
            return
        self.beginResetModel()
        self._sorted = _permutation(self._keys, column, order)
        self._apply()
        self.endResetModel()
        self.sorted.emit()

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or self.model is None:
            return None
        glyph_index = int(self.order[index.row()])
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return _display(self.model, glyph_index, column)
        if (
            role == Qt.ItemDataRole.ForegroundRole
            and self.model.status[glyph_index] != GlyphStatus.VISIBLE
        ):
            return QColor("#b00020")
        return None


def _display(model: PageModel, index: int, column: int) -> str:
    glyph = model.glyphs[index]
    if column == 0:
        return str(index)
    if column == 1:
        return char_label(glyph.text)
    if column == 2:
        return f"0x{glyph.code:0{glyph.code_length * 2}X}"
    if column == 3:
        return glyph.font_key
    if column == 4:
        return f"{glyph.font_size:.2f}"
    if column == 5:
        return f"{glyph.origin[0]:.2f}"
    if column == 6:
        return f"{glyph.origin[1]:.2f}"
    if column == 7:
        return glyph.decode_source
    if column == 8:
        return "" if glyph.mcid is None else str(glyph.mcid)
    if column == 9:
        return str(glyph.form_depth)
    if column == 10:
        return str(glyph.token_index)
    return model.status[index].replace("_", " ")


def _permutation(keys: list[np.ndarray], column: int, order) -> np.ndarray:
    if not 0 <= column < len(keys):
        column = 0
    values = keys[column]
    if order == Qt.SortOrder.DescendingOrder:
        # Reverse the key order but keep ties in glyph order (stable both ways).
        return np.lexsort((np.arange(len(values)), -values)).astype(np.int64)
    return np.argsort(values, kind="stable").astype(np.int64)


def _sort_keys(model: PageModel) -> list[np.ndarray]:
    """One sortable integer or float array per column (labels as their sorted codes)."""
    a = model.arrays
    return [
        np.arange(model.count),
        a.text.codes,
        a.code,
        a.font_key.codes,
        a.font_size,
        a.origins[:, 0],
        a.origins[:, 1],
        a.decode_source.codes,
        a.mcid,
        a.form_depth,
        a.token_index,
        a.status.codes,
    ]


class GlyphFilterProxy(QIdentityProxyModel):
    """The table's filters. They are applied by the source model from a numpy mask: a
    QSortFilterProxyModel would call Python once per row (20,000 calls on a dense page)
    at every page, sort and filter change."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.scope = SCOPES[0]
        self.dropped_only = False
        self.unresolved_only = False
        self.font = ALL
        self.mcid = ALL

    def set_filter(self, **values) -> None:
        for name, value in values.items():
            setattr(self, name, value)
        source = self.sourceModel()
        source.set_accepted(self.mask(source.model))

    def mask(self, model: PageModel | None) -> np.ndarray | None:
        """Which glyphs pass the filters, for all rows at once (None: no page)."""
        if model is None:
            return None
        a = model.arrays
        mask = np.ones(model.count, dtype=bool)
        if self.scope == SCOPES[1]:
            mask &= a.visible
        elif self.scope == SCOPES[2]:
            mask &= a.form_depth == 0
        if self.dropped_only:
            mask &= ~a.visible
        if self.unresolved_only:
            mask &= a.unresolved
        if self.font != ALL:
            labels = a.font_key.labels
            mask &= a.font_key.codes == (labels.index(self.font) if self.font in labels else -1)
        if self.mcid != ALL:
            mask &= a.mcid == int(self.mcid)
        return mask


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
        self.copier = RowCopier(self.view)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(20)
        header = self.view.horizontalHeader()
        header.setStretchLastSection(True)
        # Fixed starting widths: resizeColumnsToContents would read every row of every page.
        # Never narrower than the title itself ("form depth" was shown as "orm depth").
        metrics = header.fontMetrics()
        for column, width in enumerate(COLUMN_WIDTHS):
            title = metrics.horizontalAdvance(COLUMNS[column]) + HEADER_PADDING
            header.resizeSection(column, max(width, title))
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
        # Two rows of filters, so the table fits a dock on a 1024-pixel-wide screen.
        scope_row = QHBoxLayout()
        for widget in (self.scope, self.dropped_only, self.unresolved_only):
            scope_row.addWidget(widget)
        scope_row.addStretch(1)
        key_row = QHBoxLayout()
        key_row.addWidget(QLabel("font"))
        key_row.addWidget(self.font)
        key_row.addWidget(QLabel("MCID"))
        key_row.addWidget(self.mcid)
        key_row.addStretch(1)
        key_row.addWidget(self.count)
        # The scope's few fixed choices are shown whole ("painted (page" was all one read);
        # font names and MCIDs, as long as a file makes them, start short.
        self.scope.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for combo in (self.font, self.mcid):
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(8)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(scope_row)
        layout.addLayout(key_row)
        layout.addWidget(self.view)
        self._quiet = False
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self._selected: tuple[int, ...] = ()
        self.source.sorted.connect(lambda: self.set_selected(self._selected))

    def set_page_model(self, model: PageModel | None) -> None:
        previous = self.source.model
        self._quiet = True
        try:
            for combo, values in (
                (self.font, model.fonts if model else ()),
                (self.mcid, [str(m) for m in model.mcids] if model else ()),
            ):
                combo.blockSignals(True)
                combo.clear()
                combo.addItem(ALL)
                combo.addItems(list(values))
                combo.blockSignals(False)
            self.proxy.font = self.proxy.mcid = ALL
            header = self.view.horizontalHeader()
            self.source.set_page_model(
                model,
                header.sortIndicatorSection(),
                header.sortIndicatorOrder(),
                self.proxy.mask(model),
            )
        finally:
            self._quiet = False
        # Another page starts at its first row (the last page's scroll position showed its
        # rows 3,503 on, an arbitrary place); the same page analysed again stays where it was.
        if model is None or previous is None or previous.page_index != model.page_index:
            self.view.scrollToTop()
        self._update_count()

    def _filter(self, **values) -> None:
        self.proxy.set_filter(**values)
        self.set_selected(self._selected)  # the rows still shown stay selected
        self._update_count()

    def _update_count(self) -> None:
        total = self.source.model.count if self.source.model is not None else 0
        self.count.setText(f"{self.proxy.rowCount()} of {total} glyphs")

    def visible_rows(self) -> list[int]:
        """Glyph indices of the rows that pass the filters, in the shown order."""
        return self.source.order.tolist()

    def set_selected(self, indices) -> None:
        self._selected = tuple(indices)
        self._quiet = True
        try:
            # One selection range per run of adjacent rows, not one per glyph.
            rows = np.unique(self.source.rows_of(indices))
            selection = QItemSelection()
            if len(rows):
                breaks = np.flatnonzero(np.diff(rows) != 1) + 1
                last = self.proxy.columnCount() - 1
                for run in np.split(rows, breaks):
                    top = self.proxy.index(int(run[0]), 0)
                    selection.select(top, self.proxy.index(int(run[-1]), last))
            flags = (
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows
            )
            self.view.selectionModel().select(selection, flags)
            if not selection.isEmpty():
                self.view.scrollTo(self.proxy.index(int(rows[0]), 0))
        finally:
            self._quiet = False

    def _on_selection(self, *_args) -> None:
        if self._quiet:
            return
        ranges = self.view.selectionModel().selection()
        rows = [np.arange(r.top(), r.bottom() + 1) for r in ranges if r.isValid()]
        if not rows:
            return
        glyphs = np.unique(self.source.order[np.concatenate(rows)]).tolist()
        self._selected = tuple(glyphs)
        self.glyphsSelected.emit(glyphs)
