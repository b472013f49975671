"""Compare with pdfium: this page's word diff, and a ranking of every page by disagreement.

pdfium's text is read on the window's render thread (the one thread that calls pdfium), one
batch of pages at a time so page renders queued meanwhile are not kept waiting; our text and
the diff are made on the QA thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from glyphscope.core.qa.diffing import WordDiff
from glyphscope.core.text.reading import TextResult
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.qa import JobFailure, PageComparison, compare_one, pdfium_texts
from glyphscope.widgets.qa_layers import DIFF_COLOURS, MarkedGroup

if TYPE_CHECKING:
    from glyphscope.inspector.qa.features import QaFeatures

COMPARE_BATCH_PAGES = 10


class CompareController:
    """The comparison half of glyphscope.inspector.qa.features.QaFeatures (`features`)."""

    def __init__(self, features: QaFeatures) -> None:
        self.features = features
        self.queue: list[int] = []
        self.total = 0
        self.done = 0
        self.compared: TextResult | None = None  # the reading order the page diff is made of

    def reset(self) -> None:
        self.queue = []
        self.features.compare_panel.clear_document()

    # -- this page ----------------------------------------------------------------------------
    def compare_page(self) -> None:
        window = self.features.window
        if window.model is None or not window.path:
            return
        self.features.compare_panel.show_page_diff(
            window.page_index + 1, None, "Comparing with pdfium…"
        )
        window.render_worker.submit(
            JobKind.QA_PDFIUM_PAGE, pdfium_texts, window.path, window.password, [window.page_index]
        )

    def on_pdfium_page(self, texts: dict) -> None:
        model = self.features.window.model
        if model is None or model.page_index not in texts:
            return
        # Only the reading order crosses to the QA worker, not the whole analysis.
        # The reading compared (the pixel test may replace the analysis record meanwhile;
        # it keeps the reading).
        self.compared = model.analysis.reading
        self.features.worker.submit(
            JobKind.COMPARE_PAGE,
            _compare,
            model.page_index,
            model.analysis.reading,
            texts[model.page_index],
        )

    def on_page_diff(self, result: tuple[int, WordDiff | JobFailure]) -> None:
        index, diff = result
        features = self.features
        model = features.window.model
        if (
            model is None
            or model.page_index != index
            or model.analysis.reading is not self.compared
        ):
            return  # a comparison of a reading no longer shown (the rules or page changed)
        if isinstance(diff, JobFailure):
            features.compare_panel.show_page_diff(index + 1, None, f"pdfium: {diff.message}")
        else:
            features.compare_panel.show_page_diff(index + 1, diff)
            features.diff_layer.set_groups(diff_groups(diff))
            features.mark_panes()
        features.pageCompared.emit(index, diff)

    # -- every page ---------------------------------------------------------------------------
    def compare_document(self) -> None:
        window = self.features.window
        if not window.path or not window.page_count:
            return
        panel = self.features.compare_panel
        panel.clear_document()
        panel.set_running(True)
        self.queue = list(range(window.page_count))
        self.total, self.done = window.page_count, 0
        self._next_batch()

    def cancel(self) -> None:
        self.queue = []
        panel = self.features.compare_panel
        panel.set_running(False)
        panel.progress.setText(f"cancelled after {self.done} of {self.total} pages")

    def _next_batch(self) -> None:
        features = self.features
        if not self.queue:
            features.compare_panel.set_running(False)
            features.documentCompared.emit(self.done)
            return
        batch, self.queue = self.queue[:COMPARE_BATCH_PAGES], self.queue[COMPARE_BATCH_PAGES:]
        window = features.window
        window.render_worker.submit(
            JobKind.QA_PDFIUM_BATCH, pdfium_texts, window.path, window.password, batch
        )

    def on_pdfium_batch(self, texts: dict) -> None:
        features = self.features
        features.worker.submit(
            JobKind.COMPARE_DOCUMENT, features.core.compare_pages, texts, features.window.rules
        )

    def on_document_batch(self, results: list[PageComparison | tuple[int, JobFailure]]) -> None:
        panel = self.features.compare_panel
        if not panel.running:
            return  # cancelled meanwhile
        rows: list[tuple[int, WordDiff | str]] = []
        for result in results:
            if isinstance(result, PageComparison):
                rows.append((result.page_index, result.diff))
            else:
                rows.append((result[0], result[1].message))
        panel.add_page_results(rows)
        self.done += len(rows)
        panel.set_progress(self.done, self.total)
        self._next_batch()


def _compare(index: int, reading: TextResult, theirs: str) -> tuple[int, WordDiff | JobFailure]:
    """QA-worker job: the word diff of one page's reading order (a TextResult)."""
    try:
        return index, compare_one(reading, theirs)
    except Exception as exc:  # shown in the Compare panel
        return index, JobFailure(str(exc))


def diff_groups(diff: WordDiff) -> list[MarkedGroup]:
    colours = dict(DIFF_COLOURS)
    replaced = [g for d in diff.differences if d.kind == "replace" for g in d.glyphs]
    extra = [g for d in diff.differences if d.kind == "extra" for g in d.glyphs]
    groups = [
        MarkedGroup("replaced", colours["replaced"], tuple(dict.fromkeys(replaced))),
        MarkedGroup("only ours", colours["only ours"], tuple(dict.fromkeys(extra))),
    ]
    return [g for g in groups if g.glyphs]
