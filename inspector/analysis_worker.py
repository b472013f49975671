"""Core analysis of one page at a time, on the thread that owns the core Document (pikepdf)."""

from __future__ import annotations

from core.rules import Rules
from widgets.page_model import PageModel, build_page_model


class AnalysisUnavailableError(RuntimeError):
    """The engine's per-page analysis could not be imported (a broken installation)."""


class CoreOwner:
    """The core `Document`; every method runs on the analysis thread only."""

    def __init__(self) -> None:
        self._document = None

    @property
    def document(self):
        """The open core.document.Document, for other jobs on the analysis thread."""
        return self._document

    def open(self, path: str, password: str | None) -> int:
        from core.document import Document

        self.close()
        self._document = Document.open(path, password=password)
        return self._document.page_count

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        self._document = None

    def analyse(self, index: int, rules: Rules) -> PageModel:
        try:
            from core.analysis import analyse_page
        except ImportError as exc:
            raise AnalysisUnavailableError(f"the analysis engine is not available: {exc}") from None
        if self._document is None:
            raise AnalysisUnavailableError("the document could not be opened for analysis")
        from core.document import Page

        self._document.page(index)  # raises the typed PageIndexError for a bad index
        # A Page of our own, not the Document's cached one: a cached Page keeps every
        # extraction it made, and a long document visited page by page would keep all its
        # glyphs alive, making each garbage collection (which holds the GIL) slower.
        page = Page(self._document, index)
        analysis = analyse_page(page, rules)
        # The arrays, spatial index and decision lookups are built here, off the GUI thread.
        return build_page_model(index, analysis, _no_structure_reason(page, analysis, rules))


def _no_structure_reason(page, analysis, rules: Rules) -> str:
    """Why the page has no structure order (the analysis keeps only None)."""
    if analysis.structure is not None or not analysis.readable:
        return "" if analysis.readable else "the page has no readable content stream"
    try:
        from core.structure import NoStructure, structure_outcome
    except ImportError:
        return ""
    outcome = structure_outcome(page, analysis.glyphs, analysis.visible, rules)
    return outcome.reason if isinstance(outcome, NoStructure) else ""
