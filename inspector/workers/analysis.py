"""Core analysis of one page at a time, in the worker process that owns the core Document.

qpdf holds the GIL inside one call and a hostile page can take seconds and gigabytes, so the
engine runs in a worker process (inspector.worker_process); the PageModel it builds is pickled
back whole (arrays and spatial index; its decision lookups are rebuilt on arrival from the
decision columns, core.view.page_model), so the window does no per-glyph work.

A page the window turns to is analysed in two jobs queued back to back: `analyse_view`, the
stages up to the reading order (core.analysis.read_page), which is all the page view's
overlays draw, and `analyse`, which completes it with layout, columns and structure (the
panes' text) from the stages the first job kept, and sends only what the view model lacked
(`TextModes`); a page analysed ahead (inspector.workers.page_ahead) comes in the same two jobs.
`analyse` called alone (a rule change) sends the whole model. The hidden-text pixel test's
request is a job of its own (`ink_request`), after them.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

from glyphscope.core.analysis import PageAnalysis, ReadPage
from glyphscope.core.rules import Rules
from glyphscope.core.text.hidden import HiddenGlyph
from glyphscope.core.text.ink import InkRequest, InkTest
from glyphscope.core.view.page_model import PageModel, PaneText, build_page_model, page_panes
from glyphscope.inspector.worker_child import WorkerOwned, timed_step

# Analyses kept in the worker after they were sent (a dense page's is tens of megabytes).
RECENT_ANALYSES = 4


class AnalysisUnavailableError(RuntimeError):
    """The engine's per-page analysis could not be imported (a broken installation)."""


@dataclass(frozen=True, slots=True)
class TextModes:
    """What `analyse` adds to the view model `analyse_view` sent of the same page and rules:
    the complete analysis's text-mode fields and the panes (`complete` makes the model)."""

    page_index: int
    rules: Rules
    analysis_fields: dict[str, object]
    panes: dict[str, PaneText]
    warnings: tuple[str, ...]

    def complete(self, model: PageModel) -> PageModel:
        """`model` (the view model of this page and rules), completed in place: the layers
        holding it keep drawing it unchanged."""
        model.analysis = replace(model.analysis, **self.analysis_fields)
        model.panes = self.panes
        model.warnings = self.warnings
        return model


class CoreOwner(WorkerOwned):
    """The core `Document`; every method runs in the analysis worker process only."""

    def __init__(self) -> None:
        self._document = None
        # The last analyses made, for the jobs that refine them (the hidden-text pixel test).
        self._recent: OrderedDict[tuple[int, Rules], PageAnalysis] = OrderedDict()
        # The page and rules whose view model was sent last, and its reading stages, until
        # the `analyse` job queued after it completes them.
        self._viewed: tuple[tuple[int, Rules], ReadPage] | None = None

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
        self._viewed = None

    def analyse_view(self, index: int, rules: Rules) -> PageModel:
        """The page analysed up to its reading order, as a model the page view draws (its
        layout, columns and structure empty: `analyse` sends them next)."""
        from glyphscope.core.analysis import finish_analysis, read_page

        page = self._page(index)
        with timed_step("read_page"):
            read = read_page(page, rules)
        self._viewed = ((index, rules), read)
        with timed_step("page model"):
            return build_page_model(index, finish_analysis(read, text_modes=False))

    def analyse(self, index: int, rules: Rules) -> PageModel | TextModes:
        """The page's complete model; only its text modes (`TextModes`) when the job before
        this one sent the view model of the same page and rules."""
        from glyphscope.core.analysis import TEXT_MODE_FIELDS

        viewed, self._viewed = self._viewed, None
        if viewed is not None and viewed[0] == (index, rules):
            analysis = self._analysis(index, rules, viewed[1])
            fields = {name: getattr(analysis, name) for name in TEXT_MODE_FIELDS}
            with timed_step("panes"):
                panes = page_panes(analysis, analysis.structure_reason)
            return TextModes(index, rules, fields, panes, analysis.warnings)
        analysis = self._analysis(index, rules)
        # The arrays, spatial index and decision lookups are built here, in the worker.
        with timed_step("page model"):
            return build_page_model(index, analysis, analysis.structure_reason)

    def ink_request(
        self, index: int, rules: Rules
    ) -> tuple[int, Rules, InkRequest | InkTest | None]:
        """The pikepdf half of the page's hidden-text pixel test (core.text.ink): the page
        copies pdfium renders on the render thread (inspector.workers.hidden_ink)."""
        from glyphscope.core.text.ink import ink_candidates, ink_request

        analysis = self._analysis(index, rules)
        candidates = ink_candidates(analysis.glyphs, analysis.visible)
        return index, rules, ink_request(self._page(index), analysis.glyphs, candidates, rules)

    def _page(self, index: int):
        if self._document is None:
            raise AnalysisUnavailableError("the document could not be opened for analysis")
        # Raises the typed PageIndexError for a bad index; the document keeps only the last
        # few extractions, so visiting a long file page by page does not keep every glyph.
        return self._document.page(index)

    def _analysis(self, index: int, rules: Rules, read: ReadPage | None = None) -> PageAnalysis:
        """The page's complete analysis: one made lately, or made now (from `read`, its
        reading stages, when given)."""
        from glyphscope.core.analysis import finish_analysis, read_page

        analysis = self._recent.get((index, rules))
        if analysis is not None:
            self._recent.move_to_end((index, rules))
            return analysis
        if read is None:
            page = self._page(index)
            with timed_step("read_page"):
                read = read_page(page, rules)
        with timed_step("text modes"):
            analysis = finish_analysis(read)
        self._recent[(index, rules)] = analysis
        while len(self._recent) > RECENT_ANALYSES:
            self._recent.popitem(last=False)
        return analysis

    def hidden_with_ink(
        self, index: int, rules: Rules, ink: InkTest
    ) -> tuple[int, Rules, InkTest, tuple[HiddenGlyph, ...]]:
        """The page's hidden glyphs once the pixel test has answered (PageAnalysis.with_ink):
        re-deriving them walks every glyph, so it runs here and not in the window."""
        analysis = self._analysis(index, rules)
        return index, rules, ink, analysis.with_ink(ink).hidden
