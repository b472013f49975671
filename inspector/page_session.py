"""Document and page life cycle of the main window: opening (with passwords), turning pages,
and the results of the render and analysis workers. A mixin of `MainWindow`, which owns the
widgets it updates; split out so each module keeps to one concern.

A file pdfium refuses (or dies on) still opens when the engine reads it: its pages are blank
paper of the right size under the engine's analysis, with a banner saying why. A page whose
render or analysis failed is recorded in `page_failures`, so `glyphscope --screenshot` can
say so in its exit status."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QInputDialog, QLineEdit

from glyphscope.core.errors import PasswordRequiredError, WrongPasswordError
from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.hidden_ink import (
    HIDDEN_JOB,
    INK_JOB,
    apply_hidden,
    apply_ink,
    request_ink,
    status_text,
)
from glyphscope.inspector.render_worker import RenderedBitmap, rendered_page
from glyphscope.inspector.settings import add_recent_file

# Analysed pages kept for going back and forth without re-analysing.
MODEL_CACHE_PAGES = 8


class PageSession:
    """Needs on `self`: the MainWindow attributes set in its __init__ (threads, owners, view,
    panes, banner, state label, signals)."""

    # -- documents ----------------------------------------------------------------------------
    def open_file(self, path: str, password: str | None = None, page: int = 0) -> None:
        """Open `path` (asynchronously); the page shows first, its analysis follows."""
        self._close_document()
        self.path = str(path)
        self.password = password
        self._pending_page = page
        self._pdfium_refusal = ""
        self.setWindowTitle(f"{Path(path).name} — Glyphscope")
        self.state_label.setText("opening…")
        self.render_thread.submit("open", self._pdfium.open, self.path, password)

    def _close_document(self) -> None:
        # Results still on their way belong to the previous document: drop them.
        self.render_thread.invalidate("render")
        self.analysis_thread.invalidate("analyse")
        self.path = None
        self.page_count = 0
        self.model = None
        self.rendered = None
        self._models.clear()
        self._waiting.clear()
        self._unrenderable = {}
        self.page_failures = {}
        self.hide_error()
        self.view.clear_page()
        self._show_model(None)
        self._update_page_controls()

    @Slot()
    def close_document(self) -> None:
        self._close_document()
        self.render_thread.submit("open", self._pdfium.close)
        self.analysis_thread.submit("open", self._core.close)
        self.setWindowTitle("Glyphscope")

    def _ask_password(self, path: str, wrong: bool) -> str | None:
        prompt = (
            f"The password for {Path(path).name} is wrong. Try again:"
            if wrong
            else f"{Path(path).name} is encrypted. Password:"
        )
        text, ok = QInputDialog.getText(self, "Password", prompt, QLineEdit.EchoMode.Password)
        return text if ok else None

    # -- pages --------------------------------------------------------------------------------
    def go_to_page(self, index: int) -> None:
        if not self.page_count:
            return
        index = max(0, min(index, self.page_count - 1))
        self.page_index = index
        self.selection.clear("page-change")
        self.page_failures = {}
        self.hide_error()
        self._waiting = {"render", "analysis"}
        self._update_page_controls()
        self._submit_render(index, self.view.render_scale())
        cached = self._models.get((index, self.rules))
        if cached is not None:
            self._models.move_to_end((index, self.rules))
            self._apply_model(cached)
        else:
            self._show_model(None)
            self._request_analysis(index)
        self.pageChanged.emit(index)

    def _request_analysis(self, index: int) -> None:
        self._waiting.add("analysis")
        self.state_label.setText(f"analysing page {index + 1}…")
        self.analysis_thread.submit("analyse", self._core.analyse, index, self.rules)

    def next_page(self) -> None:
        self.go_to_page(self.page_index + 1)

    def previous_page(self) -> None:
        self.go_to_page(self.page_index - 1)

    def first_page(self) -> None:
        self.go_to_page(0)

    def last_page(self) -> None:
        self.go_to_page(self.page_count - 1)

    def _rerender(self, scale: float) -> None:
        if self.page_count and self.path:
            self._submit_render(self.page_index, scale)

    def _submit_render(self, index: int, scale: float) -> None:
        # A page pdfium failed on is not tried again (a bomb costs the worker seconds).
        reason = self._unrenderable.get(index)
        if reason is None:
            job, args = self._pdfium.render, (index, scale)
        else:
            job, args = self._pdfium.blank, (index, scale, reason)
        self._render_generation = self.render_thread.submit("render", job, *args)

    @property
    def render_idle(self) -> bool:
        """No render is queued or running, and the view has no zoom re-render pending."""
        return self._render_generation == self._shown_generation and not self.view.render_pending

    # -- worker results -------------------------------------------------------------------------
    @Slot(str, int, object)
    def _on_render_job(self, kind: str, generation: int, result: object) -> None:
        if not self.render_thread.is_latest(kind, generation):
            return
        if kind == "open" and isinstance(result, int):
            self._on_pdfium_opened(result)
        elif kind == "render" and isinstance(result, RenderedBitmap):
            if result.index != self.page_index:
                return
            result = rendered_page(result)
            if not result.rendered:
                self.page_failures["render"] = result.note
            self.rendered = result
            self._shown_generation = generation
            self.view.set_geometry(result.geometry)
            self.view.set_image(result.image)
            if result.note:
                self.show_error(result.note)
            self._done("render")
        elif kind == INK_JOB and isinstance(result, tuple):
            apply_ink(self, result)

    def _on_pdfium_opened(self, page_count: int) -> None:
        if page_count <= 0:
            name = Path(self.path or "").name
            self._refuse(f"Could not open {name}: the file has no pages")
            return
        self.page_count = page_count
        if self.persist:
            add_recent_file(self.settings, self.path)
        self._core_error = ""
        self.analysis_thread.submit("open", self._core.open, self.path, self.password)
        self.documentOpened.emit(self.path, page_count)
        self.go_to_page(self._pending_page)

    @Slot(str, int, object)
    def _on_render_failed(self, kind: str, generation: int, error: object) -> None:
        if not self.render_thread.is_latest(kind, generation):
            return
        if kind == "open":
            if isinstance(error, PasswordRequiredError):
                wrong = isinstance(error, WrongPasswordError)
                path = self.path
                password = self.password_provider(path, wrong)
                if password is not None:
                    self.open_file(path, password, self._pending_page)
                    return
                self.show_error(f"{Path(path).name} is encrypted and was not opened.")
            elif not self._pdfium_refusal:
                # pdfium refused the file (or died on it): the engine may still read it.
                self._pdfium_refusal = _message(error) or "pdfium cannot read the file"
                reason = f"pdfium cannot read this file: {self._pdfium_refusal}"
                self.render_thread.submit(
                    "open", self._pdfium.open_unrendered, self.path, self.password, reason
                )
                return
            else:
                # No part of the engine reads it: refuse it with the engine's typed error.
                name = Path(self.path or "").name
                message = _message(error).replace(str(self.path), name)
                self.show_error(f"Could not open {name}: {message}")
            self._refuse(None)
            return
        if kind != "render":
            return  # another panel's job on this thread: its submitter reports it
        self._shown_generation = generation
        first = self._unrenderable.get(self.page_index)
        message = f"Page {self.page_index + 1} could not be rendered: {first or _message(error)}"
        if first is not None:
            message += f" (nor laid out as blank paper: {_message(error)})"
        self.page_failures["render"] = message
        self.show_error(message)
        if first is None:
            # Blank paper of the page's size, so the analysis still has a page to lie on.
            self._unrenderable[self.page_index] = _message(error)
            self._submit_render(self.page_index, self.view.render_scale())
            return
        self._done("render")

    def _refuse(self, message: str | None) -> None:
        """The file is not opened: say why (`message`, or the banner already shown)."""
        if message is not None:
            self.show_error(message)
        self.path = None
        self.state_label.setText("")
        self.setWindowTitle("Glyphscope")
        self.documentFailed.emit(self.banner.text())

    @Slot(str, int, object)
    def _on_analysis_job(self, kind: str, generation: int, result: object) -> None:
        if kind == HIDDEN_JOB and isinstance(result, tuple):
            apply_hidden(self, result)
            return
        if kind != "analyse" or not self.analysis_thread.is_latest(kind, generation):
            return
        if not isinstance(result, PageModel):
            return
        rules = result.analysis.rules
        self._models[(result.page_index, rules)] = result
        while len(self._models) > MODEL_CACHE_PAGES:
            self._models.popitem(last=False)
        if result.page_index == self.page_index and rules == self.rules:
            self._apply_model(result)

    @Slot(str, int, object)
    def _on_analysis_failed(self, kind: str, generation: int, error: object) -> None:
        if not self.analysis_thread.is_latest(kind, generation):
            return
        if kind == "open":
            self._core_error = f"Text analysis is unavailable for this file: {_message(error)}"
            self.show_error(self._core_error)
            return
        if kind != "analyse":
            return  # another panel's job on this thread: its submitter reports it
        if self._core_error:
            self.page_failures["analysis"] = self._core_error
            self.show_error(self._core_error)
        else:
            message = (
                f"Page {self.page_index + 1} could not be analysed: {_message(error)}. "
                "The rest of the document is still usable."
            )
            self.page_failures["analysis"] = message
            self.show_error(message)
        self.state_label.setText("analysis failed")
        self._done("analysis")

    def _apply_model(self, model: PageModel) -> None:
        self._show_model(model)
        warnings = "; ".join(model.warnings[:3])
        self.state_label.setText(status_text(model))
        request_ink(self, model)
        if warnings:
            self.statusBar().showMessage(warnings, 8000)
        self.analysisReady.emit(model.page_index, model)
        self._done("analysis")

    def _show_model(self, model: PageModel | None) -> None:
        self.model = model
        for layer in self.layers.values():
            layer.set_model(model)
        for overlay in (self.selection_layer, self.hover_layer):
            overlay.set_model(model)
            overlay.set_selected(())
        self.text_panes.set_panes(model.panes if model else None)
        self.glyph_table.set_page_model(model)
        self.details.show_selection(model, ())
        self.layers_panel.refresh_legend("glyphs", model)
        self.layers_panel.refresh_legend("gaps", model)
        if model is not None:
            self.view.set_content_bounds(model.bounds, model.text_bounds)

    def _done(self, what: str) -> None:
        if what not in self._waiting:
            return  # a zoom re-render or a re-analysis of a page already shown
        self._waiting.discard(what)
        if not self._waiting:
            self.pageReady.emit(self.page_index)

    @property
    def model_or_error_shown(self) -> bool:
        return self.model is not None or self.banner.isVisible()

    @property
    def page_is_ready(self) -> bool:
        return self.page_count > 0 and not self._waiting


def _message(error: object) -> str:
    text = str(error).strip()
    return text or type(error).__name__
