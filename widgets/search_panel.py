"""Search the document's extracted text (glyphscope.core.qa.search); hits listed by page as
they are found, walked with F3 / Shift+F3, Enter / Shift+Enter and the arrow keys."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
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

from glyphscope.core.qa.search import SearchHit, SearchQuery

# Pages whose hits are shown expanded as they arrive; later pages start collapsed.
EXPANDED_PAGES = 10


class SearchPanel(QWidget):
    searchRequested = Signal(object)  # SearchQuery
    cancelRequested = Signal()
    hitChosen = Signal(int, tuple)  # page index, glyph indices

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("search_panel")
        self.query = QLineEdit()
        self.query.setObjectName("search_query")
        self.query.setPlaceholderText("Search the extracted text (reading order)")
        self.query.setClearButtonEnabled(True)
        self.query.setToolTip("Enter: search, then next hit; Shift+Enter: previous hit")
        self.query.installEventFilter(self)
        self.case = QCheckBox("Aa")
        self.case.setToolTip("Match case")
        self.whole_word = QCheckBox("Word")
        self.whole_word.setToolTip("Whole words only")
        self.regex = QCheckBox(".*")
        self.regex.setToolTip("Regular expression (Python syntax)")
        self.find = QPushButton("Find")
        self.find.setObjectName("search_find")
        self.find.clicked.connect(self._on_find_button)
        self.status = QLabel("")
        self.status.setObjectName("search_status")
        self.status.setWordWrap(True)
        self.hits = QTreeWidget()
        self.hits.setObjectName("search_hits")
        self.hits.setHeaderLabels(["page / hit"])
        self.hits.setUniformRowHeights(True)
        self.hits.itemClicked.connect(self._on_item)
        # The arrow keys move the current hit; the page follows it.
        self.hits.currentItemChanged.connect(lambda item, _old: item and self._on_item(item, 0))
        row = QHBoxLayout()
        row.addWidget(self.query, 1)
        row.addWidget(self.find)
        options = QHBoxLayout()
        for box in (self.case, self.whole_word, self.regex):
            options.addWidget(box)
        options.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(row)
        layout.addLayout(options)
        layout.addWidget(self.status)
        layout.addWidget(self.hits, 1)
        self.results: list[SearchHit] = []
        self._by_page: dict[int, list[SearchHit]] = {}
        self._page_items: dict[int, QTreeWidgetItem] = {}
        self._searched: SearchQuery | None = None
        self.running = False

    def focus_query(self) -> None:
        self.query.setFocus()
        self.query.selectAll()

    def current_query(self) -> SearchQuery:
        return SearchQuery(
            self.query.text(),
            self.case.isChecked(),
            self.whole_word.isChecked(),
            self.regex.isChecked(),
        )

    def request(self) -> None:
        query = self.current_query()
        if query.text.strip():
            self._searched = query
            self.searchRequested.emit(query)

    def _on_find_button(self) -> None:
        if self.running:
            self.cancelRequested.emit()
        else:
            self.request()

    def eventFilter(self, watched, event) -> bool:
        if (
            watched is self.query
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            backwards = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if self.current_query() == self._searched and self.results:
                self.step(-1 if backwards else 1)
            else:
                self.request()
            return True
        return super().eventFilter(watched, event)

    # -- results ----------------------------------------------------------------------------
    def clear(self) -> None:
        self.results = []
        self._by_page = {}
        self._page_items = {}
        self.hits.clear()
        self.status.setText("")
        self.set_running(False)

    def set_running(self, running: bool) -> None:
        self.running = running
        self.find.setText("Cancel" if running else "Find")

    def start(self, text: str) -> None:
        self.clear()
        self.set_running(True)
        self.status.setText(f"“{text}”: searching…")

    def add_hits(self, hits: list[SearchHit]) -> None:
        """Append hits of pages after those already listed (batches arrive in page order)."""
        self.results.extend(hits)
        touched = set()
        for hit in hits:
            self._by_page.setdefault(hit.page_index, []).append(hit)
            top = self._page_items.get(hit.page_index)
            if top is None:
                top = QTreeWidgetItem([""])
                self.hits.addTopLevelItem(top)
                top.setExpanded(len(self._page_items) < EXPANDED_PAGES)
                self._page_items[hit.page_index] = top
            child = QTreeWidgetItem([hit.context])
            child.setData(0, Qt.ItemDataRole.UserRole, (hit.page_index, hit.glyphs))
            top.addChild(child)
            touched.add(hit.page_index)
        for page_index in touched:
            page_hits = self._by_page[page_index]
            top = self._page_items[page_index]
            top.setText(0, f"Page {page_index + 1} ({len(page_hits)} hits)")
            top.setData(0, Qt.ItemDataRole.UserRole, (page_index, _all_glyphs(page_hits)))

    def show_progress(self, text: str, hits: int, done: int, pages: int) -> None:
        self.status.setText(
            f"“{text}”: {hits} hits on {len(self._by_page)} pages so far — {done} of {pages} "
            "pages searched"
        )

    def finish(self, text: str, pages: int, failed: int = 0, capped: bool = False) -> None:
        self.set_running(False)
        hits = len(self.results)
        message = (
            f"“{text}”: {hits} hits on {len(self._by_page)} of {pages} pages"
            if hits
            else f"“{text}”: no hits in {pages} pages"
        )
        if capped:
            message += f" (stopped at {hits:,} hits)"
        if failed:
            message += f"; {failed} pages could not be read"
        self.status.setText(message)

    def page_hits(self, page_index: int) -> tuple[int, ...]:
        return _all_glyphs(self._by_page.get(page_index, ()))

    def step(self, delta: int) -> None:
        """Make the next (+1) or previous (-1) hit current, wrapping; the page follows."""
        items = [
            self.hits.topLevelItem(t).child(c)
            for t in range(self.hits.topLevelItemCount())
            for c in range(self.hits.topLevelItem(t).childCount())
        ]
        if not items:
            return
        current = self.hits.currentItem()
        position = items.index(current) if current in items else (-1 if delta > 0 else 0)
        item = items[(position + delta) % len(items)]
        item.parent().setExpanded(True)
        self.hits.setCurrentItem(item)
        self.hits.scrollToItem(item)

    def _on_item(self, item: QTreeWidgetItem, _column: int) -> None:
        data = item.data(0, Qt.ItemDataRole.UserRole)
        if data:
            page_index, glyphs = data
            self.hitChosen.emit(int(page_index), tuple(glyphs))


def _all_glyphs(hits) -> tuple[int, ...]:
    return tuple(dict.fromkeys(i for hit in hits for i in hit.glyphs))
