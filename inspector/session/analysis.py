"""The analysis half of a page's way to the screen (a mixin of `MainWindow`, under
inspector.session.page): the analysis worker's jobs for the page shown and their results.

A page turned to is analysed in two jobs queued back to back (inspector.workers.analysis):
`analyse_view`, its glyphs and reading-order decisions, which is all the overlays draw, shown
at once (`pageShown` once the image is there too); then `analyse`, its layout, columns and
structure, which completes the same model in place and fills the panes (`pageReady`). The
window's `model` (selection, hit tests, exports, the QA panels) is always a complete one. A
rule change re-analyses the page in one job, so the page stays as it was until the new
analysis is complete. A page made ahead (inspector.workers.page_ahead) comes in the same two jobs.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Slot

from glyphscope.core.records import Glyph
from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.workers.analysis import TextModes
from glyphscope.inspector.workers.hidden_ink import apply_hidden, apply_ink_request, status_text
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.page_timing import FROM_WORKER

# Analysed pages kept for going back and forth without re-analysing.
MODEL_CACHE_PAGES = 8
# The analysis worker's jobs for the page shown: its view model, then its text modes.
# The selection source of a selection kept over a new analysis of its page: no view moves.
KEPT_SELECTION = "reanalysed"
# The longest the panes wait for the page's overlays to be painted (their text modes arrived
# while the layer painter's thread painted the overlays).
PANES_HELD_MS = 300


class AnalysisSession:
    """Needs on `self`: the MainWindow attributes set in its __init__ (analysis thread, core
    owner, layers, panes, banner, state label, signals) and PageSession's `_done`."""

    def _request_analysis(self, index: int, *, view_first: bool = False) -> None:
        """Analyse page `index` with the current rules; `view_first` sends the overlays'
        part ahead of the panes' (a page turned to, which shows nothing yet)."""
        self._waiting.update(("overlays", "analysis"))
        self.ahead.cancel_model()  # the page the user wants comes first
        self.state_label.setText(f"analysing page {index + 1}…")
        self.analysis_worker.invalidate(JobKind.ANALYSE_VIEW)
        view = 0
        if view_first:
            view = self.analysis_worker.submit(
                JobKind.ANALYSE_VIEW, self._core.analyse_view, index, self.rules
            )
        # If the view job fails, the rest would fail the same way (or kill its worker
        # again): it is skipped.
        generation = self.analysis_worker.submit(
            JobKind.ANALYSE, self._core.analyse, index, self.rules, after=view
        )
        timing = self.page_timing
        if timing is not None and timing.index == index and not timing.overlays_shown:
            timing.analysis_source = FROM_WORKER
            timing.analysis_generation = view or generation
            timing.panes_generation = generation if view else 0

    @Slot(str, int, object)
    def _on_analysis_job(self, kind: str, generation: int, result: object) -> None:
        if kind == JobKind.INK_HIDDEN and isinstance(result, tuple):
            apply_hidden(self, result)
            return
        if kind == JobKind.INK_REQUEST and isinstance(result, tuple):
            apply_ink_request(self, result)
            return
        if kind not in (
            JobKind.ANALYSE_VIEW,
            JobKind.ANALYSE,
        ) or not self.analysis_worker.is_latest(kind, generation):
            return
        if kind == JobKind.ANALYSE_VIEW:
            if isinstance(result, PageModel) and self._is_shown(result):
                self._show_view(result)
            return
        if isinstance(result, TextModes):
            view = self._view_model
            if view is None or (view.page_index, view.analysis.rules) != (
                result.page_index,
                result.rules,
            ):
                # Its view model was never shown: ask for the whole model instead.
                self._request_analysis(result.page_index)
                return
            result = result.complete(view)
        if isinstance(result, PageModel):
            self._model_arrived(result)

    def _is_shown(self, model: PageModel) -> bool:
        """The model is of the page shown, under the current rules (none while a document
        opens: its first page's jobs are out before its pages are known)."""
        return (
            self.page_count > 0
            and model.page_index == self.page_index
            and model.analysis.rules == self.rules
        )

    def awaits_view(self, model: PageModel) -> bool:
        """The page shown waits for this view model's overlays (one made ahead)."""
        return self._is_shown(model) and "overlays" in self._waiting and self._view_model is None

    def awaits_model(self, key: tuple) -> bool:
        """The page shown, under the current rules, is (index, rules) `key` and waits for its
        analysis."""
        return key == (self.page_index, self.rules) and "analysis" in self._waiting

    def _model_arrived(self, model: PageModel) -> None:
        """A complete model (of the page shown, or made ahead): kept, and shown if it is the
        page shown under the current rules."""
        rules = model.analysis.rules
        self._models[(model.page_index, rules)] = model
        self._models.move_to_end((model.page_index, rules))
        while len(self._models) > MODEL_CACHE_PAGES:
            self._models.popitem(last=False)
        if self._is_shown(model):
            self._apply_model(model)

    @Slot(str, int, object)
    def _on_analysis_failed(self, kind: str, generation: int, error: object) -> None:
        if not self.analysis_worker.is_latest(kind, generation):
            return
        if kind == JobKind.OPEN:
            self._core_error = f"Text analysis is unavailable for this file: {error_message(error)}"
            if self.page_count:  # else pdfium's answer tells first (PageSession)
                self.show_error(self._core_error)
            return
        if kind == JobKind.ANALYSE_VIEW:
            self.analysis_worker.invalidate(JobKind.ANALYSE)  # skipped already (submit's after)
        elif kind != JobKind.ANALYSE:
            return  # another panel's job on this thread: its submitter reports it
        self._analysis_failed(error)

    def _model_failed(self, key: tuple, generation: int, error: object) -> None:
        """Analysing a page ahead failed (inspector.workers.page_ahead): if the page shown
        awaits it, that is its failure."""
        timing = self.page_timing
        if (
            self.awaits_model(key)
            and timing is not None
            and generation in (timing.analysis_generation, timing.panes_generation)
        ):
            self._analysis_failed(error)

    def _analysis_failed(self, error: object) -> None:
        if self._core_error:
            self.page_failures["analysis"] = self._core_error
            self.show_error(self._core_error)
        else:
            message = (
                f"Page {self.page_index + 1} could not be analysed: {error_message(error)}. "
                "The rest of the document is still usable."
            )
            self.page_failures["analysis"] = message
            self.show_error(message)
        self.state_label.setText("analysis failed")
        self._done("overlays")
        self._done("analysis")

    def _show_view(self, model: PageModel) -> None:
        """The page's overlays, before its panes (its text modes follow)."""
        self._view_model = model
        self._show_overlays(model)
        self._done("overlays")

    def _apply_model(self, model: PageModel, *, hold: bool = True) -> None:
        if hold and model is self._view_model and self._overlays_painting():
            # The text modes completed the model the overlays draw while the layer painter's
            # thread paints them: the panes wait for the view's paint that shows them. Filled
            # now, their text layout and paint (10 to 15 ms of the GUI thread on a dense
            # page) held up that painter (it waits while the GUI thread is busy, and PySide6
            # holds the GIL in QPainter's calls) and so the page the user waits for.
            self._held_model = model
            self.view.watch_paints(True)
            self._panes_timer.start(PANES_HELD_MS)
            return
        self._release_panes()
        shown = self.model if self.model is not None else self._view_model
        if model is not self._view_model:
            self._view_model = model
            self._show_overlays(model)
        self._show_panes(model)
        warnings = "; ".join(model.warnings[:3])
        self.state_label.setText(status_text(model))
        if warnings:
            self.statusBar().showMessage(warnings, 8000)
        self._keep_selection(shown, model)
        self.analysisReady.emit(model.page_index, model)
        self._done("overlays")
        self._done("analysis")

    def _overlays_painting(self) -> bool:
        """The view shows the page and some overlay of it in view is still being painted by
        the layer painter's thread (its image not there yet, or a newer one asked for)."""
        if not self.view.isVisible():
            return False
        return any(
            layer.isVisible() and layer.awaits_image(self.view) for layer in self.layers.values()
        )

    @Slot()
    def _panes_may_go(self) -> None:
        """After a paint of the view, or PANES_HELD_MS after the panes were held: fill them,
        unless the overlays are still painting (and the wait is not over)."""
        model = self._held_model
        if model is None:
            self._release_panes()
            return
        if self._panes_timer.isActive() and self._overlays_painting():
            return
        self._release_panes()
        if model is self._view_model and self._is_shown(model):
            self._apply_model(model, hold=False)

    def _release_panes(self) -> None:
        """No panes are held any more (filled, or their page left)."""
        self._held_model = None
        self._panes_timer.stop()
        self.view.watch_paints(False)

    def _keep_selection(self, shown: PageModel | None, model: PageModel) -> None:
        """The page analysed again (a rule changed) keeps the glyphs selected on it: the
        views just drew the new model unselected. A glyph the new analysis no longer has at
        that index (another form depth or annotations rule) leaves the selection."""
        indices = self.selection.indices
        if not indices or shown is None or shown.page_index != model.page_index:
            return
        kept = tuple(
            i
            for i in indices
            if i < model.count and i < shown.count and same_glyph(shown.glyphs[i], model.glyphs[i])
        )
        if kept == indices:
            self.selection.refresh(KEPT_SELECTION)
        else:
            self.selection.set(kept, KEPT_SELECTION)

    def _show_overlays(self, model: PageModel | None) -> None:
        """What the page view draws of the model: its layers and the scene's bounds."""
        start = time.perf_counter()
        for layer in self.layers.values():
            layer.set_model(model)
        for overlay in (self.selection_layer, self.hover_layer):
            overlay.set_model(model)
            overlay.set_selected(())
        self.layers_panel.refresh_legend("glyphs", model)
        self.layers_panel.refresh_legend("gaps", model)
        if model is not None:
            self.view.set_content_bounds(model.bounds, model.text_bounds)
            self._paint_overlays_ahead()
        timing = self.page_timing
        if model is not None and timing is not None and timing.index == model.page_index:
            timing.overlays_shown = time.perf_counter()
            timing.gui["overlays"] = timing.overlays_shown - start

    def _paint_overlays_ahead(self) -> None:
        """Start the layer painter's thread on the layers' images for what the view shows,
        once their model and its page's geometry (the render) are both there, whichever came
        last: not at the view's next paint, a turn of the event loop later."""
        geometry = self.view.geometry
        if geometry is None:
            return
        for layer in self.layers.values():
            model = layer.model
            if model is not None and model.page_index == geometry.index:
                # The zoom and scroll position are the page's now (set_geometry's fit).
                layer.paint_ahead(self.view)

    def _show_panes(self, model: PageModel | None) -> None:
        """The complete model everywhere else: the window's `model` (selection, hit tests,
        exports), the text panes, the glyph table and the details."""
        start = time.perf_counter()
        self.model = model
        self.text_panes.set_panes(model.panes if model else None)
        self.glyph_table.set_page_model(model)
        self.details.show_selection(model, ())
        timing = self.page_timing
        if model is not None and timing is not None and timing.index == model.page_index:
            timing.panes_shown = time.perf_counter()
            timing.gui["panes"] = timing.panes_shown - start


def same_glyph(a: Glyph, b: Glyph) -> bool:
    """The same painted glyph in two analyses of a page: drawn by the same operator of the
    same content stream, with the same code at the same place."""
    return (a.form_path, a.operator_index, a.code, a.origin) == (
        b.form_path,
        b.operator_index,
        b.code,
        b.origin,
    )


def error_message(error: object) -> str:
    text = str(error).strip()
    return text or type(error).__name__
