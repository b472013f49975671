"""Search (Ctrl+F) across the document's reading-order text, page by page on the QA thread:
each batch's hits are listed as they arrive with a progress count, and only hits are kept (a
2,000-page search holds its hits, not the pages' texts). Cancel stops it; F3 / Shift+F3 and
Enter / Shift+Enter walk the hits."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from glyphscope.core.qa.search import SearchHit, SearchQuery
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.widgets.qa_layers import SEARCH_COLOURS, MarkedGroup

if TYPE_CHECKING:
    from glyphscope.inspector.qa.features import QaFeatures

# Pages per job: small, so the first hits show at once and Cancel stops within a batch.
SEARCH_BATCH_PAGES = 8
# Hits kept at most; a search past it stops and says so (a regex like "." on a large file).
MAX_HITS = 50_000


class SearchController:
    """The search half of glyphscope.inspector.qa.features.QaFeatures (`features`)."""

    def __init__(self, features: QaFeatures) -> None:
        self.features = features
        self.query: SearchQuery | None = None
        self.hits: list[SearchHit] = []
        self.rules = None
        self.next_page = 0  # the first page no batch has been asked for yet
        self.pages_done = 0
        self.failed_pages = 0
        self.running = False
        self.pending: tuple[int, tuple[int, ...]] | None = None  # hit to select on arrival

    def reset(self) -> None:
        self.cancel(quiet=True)
        self.hits = []
        self.query = None
        self.pending = None
        self.features.search_panel.clear()

    def search(self, query: str | SearchQuery, case_sensitive: bool = False) -> None:
        if isinstance(query, str):
            query = SearchQuery(query, case_sensitive)
        panel = self.features.search_panel
        try:
            if query.pattern() is None:
                return
        except re.error as exc:
            panel.status.setText(f"Not a regular expression: {exc}")
            return
        self.cancel(quiet=True)
        window = self.features.window
        self.query = query
        self.rules = window.rules
        self.hits = []
        self.next_page = self.pages_done = self.failed_pages = 0
        self.running = True
        panel.start(query.text)
        self._next_batch()

    def cancel(self, quiet: bool = False) -> None:
        if not self.running:
            return
        self.features.worker.invalidate(JobKind.SEARCH)
        self.running = False
        panel = self.features.search_panel
        panel.set_running(False)
        if not quiet:
            panel.status.setText(
                f"“{self.query.text}”: cancelled after {self.pages_done} of "
                f"{self.features.window.page_count} pages, {len(self.hits)} hits"
            )

    def _next_batch(self) -> None:
        features = self.features
        page_count = features.window.page_count
        if self.next_page >= page_count or len(self.hits) >= MAX_HITS:
            self._finish()
            return
        batch = list(range(self.next_page, min(self.next_page + SEARCH_BATCH_PAGES, page_count)))
        self.next_page = batch[-1] + 1
        features.worker.submit(
            JobKind.SEARCH, features.core.search_pages, batch, self.rules, self.query
        )

    def on_batch(self, result) -> None:
        if not self.running:
            return
        pages, hits, failures = result
        self.pages_done += len(pages)
        self.failed_pages += len(failures)
        room = MAX_HITS - len(self.hits)
        hits = hits[:room]
        self.hits.extend(hits)
        features = self.features
        features.search_panel.add_hits(hits)
        features.search_panel.show_progress(
            self.query.text, len(self.hits), self.pages_done, features.window.page_count
        )
        model = features.window.model
        if model is not None and any(h.page_index == model.page_index for h in hits):
            features.search_layer.set_groups(self.groups(model.page_index))
            features.mark_panes()
        self._next_batch()

    def _finish(self) -> None:
        features = self.features
        self.running = False
        capped = len(self.hits) >= MAX_HITS
        features.search_panel.finish(
            self.query.text, features.window.page_count, self.failed_pages, capped
        )
        model = features.window.model
        if model is not None:
            features.search_layer.set_groups(self.groups(model.page_index))
        features.mark_panes()
        features.searchFinished.emit(self.query.text, len(self.hits))

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
