"""Core analysis of one page at a time, in the worker process that owns the core Document.

qpdf holds the GIL inside one call and a hostile page can take seconds and gigabytes, so the
engine runs in a worker process (inspector.worker_process); the PageModel it builds is pickled
back whole (arrays, spatial index, decision lookups), so the window does no per-glyph work."""

from __future__ import annotations

from collections import OrderedDict

from glyphscope.core.analysis import PageAnalysis
from glyphscope.core.rules import Rules
from glyphscope.core.text.hidden import HiddenGlyph
from glyphscope.core.text.ink import InkTest
from glyphscope.core.view.page_model import PageModel, build_page_model
from glyphscope.inspector.worker_child import WorkerOwned

# Analyses kept in the worker after they were sent (a dense page's is tens of megabytes).
RECENT_ANALYSES = 4


class AnalysisUnavailableError(RuntimeError):
    """The engine's per-page analysis could not be imported (a broken installation)."""


class CoreOwner(WorkerOwned):
    """The core `Document`; every method runs in the analysis worker process only."""

    def __init__(self) -> None:
        self._document = None
        # The last analyses made, for the jobs that refine them (the hidden-text pixel test).
        self._recent: OrderedDict[tuple[int, Rules], PageAnalysis] = OrderedDict()

    @property
    def document(self):
        """The open glyphscope.core.document.Document, for other jobs in the analysis worker."""
        return self._document

    def open(self, path: str, password: str | None) -> int:
        from glyphscope.core.document import Document

        self.close()
        self._document = Document.open(path, password=password)
        return self._document.page_count

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        self._document = None
        self._recent.clear()

    def analyse(self, index: int, rules: Rules) -> PageModel:
        from glyphscope.core.analysis import analyse_page
        from glyphscope.core.text.ink import ink_candidates, ink_request

        if self._document is None:
            raise AnalysisUnavailableError("the document could not be opened for analysis")
        # Raises the typed PageIndexError for a bad index; the document keeps only the last
        # few extractions, so visiting a long file page by page does not keep every glyph.
        page = self._document.page(index)
        analysis = analyse_page(page, rules)
        self._recent[(index, rules)] = analysis
        while len(self._recent) > RECENT_ANALYSES:
            self._recent.popitem(last=False)
        # The arrays, spatial index and decision lookups are built here, in the worker.
        model = build_page_model(index, analysis, analysis.structure_reason)
        # The hidden-text pixel test: the page copies are made here (pikepdf, this thread's
        # document); pdfium renders them on the render thread (inspector.hidden_ink).
        candidates = ink_candidates(analysis.glyphs, analysis.visible)
        model.ink_request = ink_request(page, analysis.glyphs, candidates, rules)
        return model

    def hidden_with_ink(
        self, index: int, rules: Rules, ink: InkTest
    ) -> tuple[int, Rules, InkTest, tuple[HiddenGlyph, ...]]:
        """The page's hidden glyphs once the pixel test has answered (PageAnalysis.with_ink):
        re-deriving them walks every glyph, so it runs here and not in the window."""
        from glyphscope.core.analysis import analyse_page

        analysis = self._recent.get((index, rules))
        if analysis is None:
            if self._document is None:
                raise AnalysisUnavailableError("the document could not be opened for analysis")
            analysis = analyse_page(self._document.page(index), rules)
        return index, rules, ink, analysis.with_ink(ink).hidden
