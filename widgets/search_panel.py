"""Search the document's extracted text (glyphscope.core.qa.search); hits listed by page."""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.qa.search import SearchHit


class SearchPanel(QWidget):
    searchRequested = Signal(str, bool)  # query, case sensitive
    hitChosen = Signal(int, tuple)  # page index, glyph indices

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("search_panel")
        self.query = QLineEdit()
        self.query.setObjectName("search_query")
        self.query.setPlaceholderText("Search the extracted text (reading order)")
        self.query.setClearButtonEnabled(True)
        self.query.returnPressed.connect(self.request)
        self.case = QCheckBox("Aa")
        self.case.setToolTip("Match case")
        find = QPushButton("Find")
        find.clicked.connect(self.request)
        self.status = QLabel("")
        self.status.setObjectName("search_status")
        self.hits = QTreeWidget()
        self.hits.setObjectName("search_hits")
        self.hits.setHeaderLabels(["page / hit"])
        self.hits.itemClicked.connect(self._on_item)
        row = QHBoxLayout()
        row.addWidget(self.query, 1)
        row.addWidget(self.case)
        row.addWidget(find)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.hits, 1)
        self.results: list[SearchHit] = []

    def focus_query(self) -> None:
        self.query.setFocus()
        self.query.selectAll()

    def request(self) -> None:
        text = self.query.text()
        if text.strip():
            self.status.setText("Searching…")
            self.searchRequested.emit(text, self.case.isChecked())

    def show_hits(self, query: str, hits: list[SearchHit], pages: int) -> None:
        self.results = list(hits)
        self.hits.clear()
        by_page: dict[int, list[SearchHit]] = defaultdict(list)
        for hit in hits:
            by_page[hit.page_index].append(hit)
        for page_index in sorted(by_page):
            page_hits = by_page[page_index]
            top = QTreeWidgetItem([f"Page {page_index + 1} ({len(page_hits)} hits)"])
            top.setData(0, Qt.ItemDataRole.UserRole, (page_index, _all_glyphs(page_hits)))
            for hit in page_hits:
                child = QTreeWidgetItem([hit.context])
                child.setData(0, Qt.ItemDataRole.UserRole, (page_index, hit.glyphs))
                top.addChild(child)
            self.hits.addTopLevelItem(top)
            top.setExpanded(len(by_page) <= 10)
        self.status.setText(
            f"“{query}”: {len(hits)} hits on {len(by_page)} of {pages} pages"
            if hits
            else f"“{query}”: no hits in {pages} pages"
        )

    def page_hits(self, page_index: int) -> tuple[int, ...]:
        return _all_glyphs([h for h in self.results if h.page_index == page_index])

    def _on_item(self, item: QTreeWidgetItem, _column: int) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if data:
            page_index, glyphs = data
            self.hitChosen.emit(int(page_index), tuple(glyphs))


def _all_glyphs(hits) -> tuple[int, ...]:
    return tuple(dict.fromkeys(i for hit in hits for i in hit.glyphs))
