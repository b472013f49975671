"""Core analysis of one page at a time, on the thread that owns the core Document (pikepdf)."""

from __future__ import annotations

from glyphscope.core.rules import Rules
from glyphscope.core.view.page_model import PageModel, build_page_model


class AnalysisUnavailableError(RuntimeError):
    """The engine's per-page analysis could not be imported (a broken installation)."""


class CoreOwner:
    """The core `Document`; every method runs on the analysis thread only."""

    def __init__(self) -> None:
        self._document = None

    @property
    def document(self):
        """The open glyphscope.core.document.Document, for other jobs on the analysis thread."""
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

    def analyse(self, index: int, rules: Rules) -> PageModel:
        from glyphscope.core.analysis import analyse_page
        from glyphscope.core.text.ink import ink_candidates, ink_request

        if self._document is None:
            raise AnalysisUnavailableError("the document could not be opened for analysis")
        # Raises the typed PageIndexError for a bad index; the document keeps only the last
        # few extractions, so visiting a long file page by page does not keep every glyph.
        page = self._document.page(index)
        analysis = analyse_page(page, rules)
        # The arrays, spatial index and decision lookups are built here, off the GUI thread.
        model = build_page_model(index, analysis, analysis.structure_reason)
        # The hidden-text pixel test: the page copies are made here (pikepdf, this thread's
        # document); pdfium renders them on the render thread (inspector.hidden_ink).
        candidates = ink_candidates(analysis.glyphs, analysis.visible)
        model.ink_request = ink_request(page, analysis.glyphs, candidates, rules)
        return model
