"""Search (Ctrl+F) across the document's reading-order text: texts are read on the QA thread in
batches and kept while the rules stay the same; hits are listed by page and drawn."""

from __future__ import annotations

from glyphscope.core.qa.search import search_pages
from glyphscope.core.rules import Rules
from glyphscope.core.text.reading import TextResult
from glyphscope.inspector.qa_worker import JobFailure
from glyphscope.widgets.qa_layers import SEARCH_COLOURS, MarkedGroup

SEARCH_BATCH_PAGES = 50


class SearchController:
    """The search half of glyphscope.inspector.qa_features.QaFeatures (`features`)."""

    def __init__(self, features) -> None:
        self.features = features
        self.texts: dict[int, TextResult] = {}  # page → reading-order text under texts_rules
        self.texts_rules: Rules | None = None
        self.query: tuple[str, bool] | None = None
        self.pending: tuple[int, tuple[int, ...]] | None = None  # hit to select on arrival

    def reset(self) -> None:
        self.texts.clear()
        self.texts_rules = None
        self.pending = None

    def search(self, query: str, case_sensitive: bool = False) -> None:
        window = self.features.window
        self.query = (query, case_sensitive)
        if self.texts_rules != window.rules:
            self.texts.clear()
            self.texts_rules = window.rules
        self._next_batch()

    def _next_batch(self) -> None:
        features = self.features
        page_count = features.window.page_count
        missing = [i for i in range(page_count) if i not in self.texts]
        if not missing:
            self._finish()
            return
        features.search_panel.status.setText(
            f"Reading text… {len(self.texts)} of {page_count} pages"
        )
        batch = missing[:SEARCH_BATCH_PAGES]
        features.thread.submit("search", features.core.reading_texts, batch, self.texts_rules)

    def on_texts(self, results) -> None:
        for index, text in results:
            self.texts[index] = text
        if self.query is not None:
            self._next_batch()

    def _finish(self) -> None:
        features = self.features
        query, case_sensitive = self.query
        texts = [(i, t) for i, t in sorted(self.texts.items()) if not isinstance(t, JobFailure)]
        hits = search_pages(texts, query, case_sensitive)
        features.search_panel.show_hits(query, hits, features.window.page_count)
        model = features.window.model
        if model is not None:
            features.search_layer.set_groups(self.groups(model.page_index))
        features.mark_panes()
        features.searchFinished.emit(query, len(hits))

    def groups(self, index: int) -> list[MarkedGroup]:
        glyphs = self.features.search_panel.page_hits(index)
        label, colour = SEARCH_COLOURS[0]
        return [MarkedGroup(label, colour, glyphs)] if glyphs else []

    def show_hit(self, page_index: int, glyphs: tuple) -> None:
        window = self.features.window
        if page_index == window.page_index and window.model is not None:
            self.features.select(glyphs, "search")
        else:
            self.pending = (page_index, tuple(glyphs))
            window.go_to_page(page_index)

    def on_analysis(self, index: int) -> None:
        """A page's analysis arrived: draw its hits, select the hit chosen from another page."""
        self.features.search_layer.set_groups(self.groups(index))
        if self.pending is not None and self.pending[0] == index:
            glyphs, self.pending = self.pending[1], None
            self.features.select(glyphs, "search")
