"""Document and page life cycle of the main window: opening (with passwords), turning pages,
and the results of the render worker (the analysis worker's: inspector.session.analysis). A
mixin of `MainWindow`, which owns the widgets it updates; split out so each module keeps to
one concern.

A page turned to shows in steps, each as soon as it can: its image (the render worker) and,
at the same time, its overlays (the analysis worker's first job): `pageShown`; then its panes:
`pageReady`. The next and previous pages are made ahead while the window is idle
(inspector.workers.page_ahead), and renders and analyses are kept per page (and scale, or rules), so
turning to one of them shows it whole at once.

A file pdfium refuses (or dies on) still opens when the engine reads it: its pages are blank
paper of the right size under the engine's analysis, with a banner saying why. A page whose
render or analysis failed is recorded in `page_failures`, so `glyphscope --screenshot` can
say so in its exit status."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from PySide6.QtCore import QTimer, Slot
from PySide6.QtWidgets import QInputDialog, QLineEdit

from glyphscope.core.errors import GlyphscopeError, PasswordRequiredError, WrongPasswordError
from glyphscope.core.pdf.document import check_file_start
from glyphscope.inspector.session.analysis import AnalysisSession, error_message
from glyphscope.inspector.settings import add_recent_file
from glyphscope.inspector.workers.hidden_ink import apply_ink
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.page_timing import (
    FROM_CACHE,
    FROM_PREFETCH,
    FROM_WORKER,
    PageTiming,
)
from glyphscope.inspector.workers.render import RenderedBitmap, rendered_page


class PageSession(AnalysisSession):
    """Needs on `self`: the MainWindow attributes set in its __init__ (threads, owners, view,
    panes, banner, state label, signals)."""

    # -- documents ----------------------------------------------------------------------------
    def open_file(self, path: str, password: str | None = None, page: int = 0) -> None:
        """Open `path` (asynchronously); the page shows first, its analysis follows. A file
        that its first bytes show no part of the engine can read (empty, unreadable, no
        header) is refused at once, and the document open stays."""
        try:
            check_file_start(path)
        except GlyphscopeError as error:
            # Before, the workers' answer took seconds under load, the window said "opening…"
            # meanwhile, and the document that was open had been closed.
            message = self._not_opened(str(path), error)
            self.show_error(message)
            # Told on the next event turn, as the workers' refusals are: `--screenshot` quits
            # its event loop on it, which must be running by then.
            QTimer.singleShot(0, partial(self.documentFailed.emit, message))
            return
        self._close_document()
        self.path = str(path)
        self.password = password
        self._pending_page = page
        self._open_started = time.perf_counter()
        self._pdfium_refusal = ""
        self._core_error = ""
        self.setWindowTitle(f"{Path(path).name} — Glyphscope")
        self.state_label.setText("opening…")
        self.render_worker.submit(JobKind.OPEN, self._pdfium.open, self.path, password)
        # The engine opens the file at the same time, so the first page's analysis does not
        # wait for pdfium's answer (its failure is told once pdfium has answered).
        self.analysis_worker.submit(JobKind.OPEN, self._core.open, self.path, password)
        # Nor does the page itself: it is analysed and rendered right behind the two opens.
        self.ahead.open_page(page)

    def _close_document(self) -> None:
        # Results still on their way belong to the previous document: drop them.
        self.render_worker.invalidate(JobKind.RENDER)
        self.analysis_worker.invalidate(JobKind.ANALYSE_VIEW)
        self.analysis_worker.invalidate(JobKind.ANALYSE)
        self.ahead.clear()
        self.path = None
        self.page_count = 0
        self.model = self._view_model = None
        self._release_panes()
        self.rendered = None
        self._models.clear()
        self._waiting.clear()
        self._unrenderable = {}
        self.page_failures = {}
        self.hide_error()
        self.view.clear_page()
        self._show_overlays(None)
        self._show_panes(None)
        self._update_page_controls()

    @Slot()
    def close_document(self) -> None:
        self._close_document()
        self.render_worker.submit(JobKind.OPEN, self._pdfium.close)
        self.analysis_worker.submit(JobKind.OPEN, self._core.close)
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
        self._release_panes()  # the page left no longer fills them
        self.selection.clear("page-change")
        self.page_failures = {}
        self.hide_error()
        # The pixel test of the page left is not waited for (it runs again if it comes back).
        self.analysis_worker.invalidate(JobKind.INK_REQUEST)
        self.render_worker.invalidate(JobKind.INK)
        self._waiting = {"render", "overlays", "analysis"}
        self.page_timing = PageTiming(index, time.perf_counter())
        self._update_page_controls()
        self._show_render(index, self.view.render_scale())
        key = (index, self.rules)
        cached = self._models.get(key)
        if cached is not None:
            self._models.move_to_end(key)
            self.page_timing.analysis_source = FROM_CACHE
            self._apply_model(cached)
        else:
            self._view_model = None
            self._show_overlays(None)
            self._show_panes(None)
            ahead = self.ahead.model_job(key)
            if ahead is not None:
                # Being analysed ahead: its overlays show from its view model (at once if it
                # is here), its panes once its text modes complete it (_model_arrived).
                timing = self.page_timing
                timing.analysis_source = FROM_PREFETCH
                timing.analysis_generation, timing.panes_generation = ahead
                self.state_label.setText(f"analysing page {index + 1}…")
                view = self.ahead.view_model(key)
                if view is not None:
                    self._show_view(view)
            else:
                self._request_analysis(index, view_first=True)
        self.pageChanged.emit(index)

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
            self._show_render(self.page_index, scale)

    def _show_render(self, index: int, scale: float) -> None:
        """Show page `index` rendered at `scale`: kept, on its way ahead, or asked for now."""
        kept = self.ahead.render(index, scale)
        if kept is not None:
            self._render_generation = self._shown_generation
            if self.page_timing is not None and not self.page_timing.image_shown:
                self.page_timing.render_source = FROM_CACHE
            self._apply_render(kept)
            return
        ahead = self.ahead.render_job((index, scale))
        if ahead is not None:
            self._render_generation = ahead  # shown when it arrives (_render_arrived)
            timing = self.page_timing
            if timing is not None and timing.index == index and not timing.image_shown:
                timing.render_source = FROM_PREFETCH
                timing.render_generation = ahead
            return
        self._submit_render(index, scale)

    def _submit_render(self, index: int, scale: float) -> None:
        self.ahead.cancel_render()
        # A page pdfium failed on is not tried again (a bomb costs the worker seconds).
        reason = self._unrenderable.get(index)
        if reason is None:
            job, args = self._pdfium.render, (index, scale)
        else:
            job, args = self._pdfium.blank, (index, scale, reason)
        self._render_generation = self.render_worker.submit(JobKind.RENDER, job, *args)
        self._render_request = (index, scale)
        timing = self.page_timing
        if timing is not None and timing.index == index and not timing.image_shown:
            timing.render_source = FROM_WORKER
            timing.render_generation = self._render_generation

    @property
    def render_idle(self) -> bool:
        """No render is queued or running, and the view has no zoom re-render pending."""
        return self._render_generation == self._shown_generation and not self.view.render_pending

    # -- render results -------------------------------------------------------------------------
    @Slot(str, int, object)
    def _on_render_job(self, kind: str, generation: int, result: object) -> None:
        if not self.render_worker.is_latest(kind, generation):
            return
        if kind == JobKind.OPEN and isinstance(result, int):
            self._on_pdfium_opened(result)
        elif kind == JobKind.RENDER and isinstance(result, RenderedBitmap):
            index, scale = self._render_request
            if result.rendered and result.index == index:
                self.ahead.keep_render(index, scale, result)
            if result.index != self.page_index:
                return
            self._shown_generation = generation
            self._apply_render(result)
        elif kind == JobKind.INK and isinstance(result, tuple):
            apply_ink(self, result)

    def _render_arrived(self, bitmap: RenderedBitmap, generation: int) -> None:
        """A render made ahead arrived (inspector.workers.page_ahead): shown if it is awaited."""
        if generation == self._render_generation and bitmap.index == self.page_index:
            self._shown_generation = generation
            self._apply_render(bitmap)

    def _render_failed_ahead(self, key: tuple[int, float], generation: int) -> None:
        """A render made ahead failed: if the page shown awaits it, render it the usual way
        (which says why, and lays the page out as blank paper)."""
        if generation == self._render_generation and key[0] == self.page_index:
            self._submit_render(*key)

    def _apply_render(self, bitmap: RenderedBitmap) -> None:
        start = time.perf_counter()
        result = rendered_page(bitmap)
        if not result.rendered:
            self.page_failures["render"] = result.note
        self.rendered = result
        self.view.set_geometry(result.geometry)
        self.view.set_image(result.image)
        self._paint_overlays_ahead()
        if result.note:
            self.show_error(result.note)
        timing = self.page_timing
        if timing is not None and timing.index == result.index and not timing.image_shown:
            timing.image_shown = time.perf_counter()
            timing.gui["image"] = timing.image_shown - start
        self._done("render")

    def _on_pdfium_opened(self, page_count: int) -> None:
        if page_count <= 0:
            name = Path(self.path or "").name
            self._refuse(f"Could not open {name}: the file has no pages")
            return
        self.page_count = page_count
        if self.persist:
            add_recent_file(self.settings, self.path)
        self.documentOpened.emit(self.path, page_count)
        self.go_to_page(self._pending_page)
        if self._core_error:  # the engine's open failed before pdfium answered
            self.show_error(self._core_error)
        # The first page's time counts from open_file: pdfium's open is part of it.
        self.page_timing.requested = self._open_started
        self.page_timing.opened = time.perf_counter()

    @Slot(str, int, object)
    def _on_render_failed(self, kind: str, generation: int, error: object) -> None:
        if not self.render_worker.is_latest(kind, generation):
            return
        if kind == JobKind.OPEN:
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
                self._pdfium_refusal = error_message(error) or "pdfium cannot read the file"
                reason = f"pdfium cannot read this file: {self._pdfium_refusal}"
                self.render_worker.submit(
                    JobKind.OPEN, self._pdfium.open_unrendered, self.path, self.password, reason
                )
                return
            else:
                # No part of the engine reads it: refuse it with the engine's typed error.
                self.show_error(self._not_opened(self.path or "", error))
            self._refuse(None)
            return
        if kind != JobKind.RENDER:
            return  # another panel's job on this thread: its submitter reports it
        self._shown_generation = generation
        first = self._unrenderable.get(self.page_index)
        message = (
            f"Page {self.page_index + 1} could not be rendered: {first or error_message(error)}"
        )
        if first is not None:
            message += f" (nor laid out as blank paper: {error_message(error)})"
        self.page_failures["render"] = message
        self.show_error(message)
        if first is None:
            # Blank paper of the page's size, so the analysis still has a page to lie on.
            self._unrenderable[self.page_index] = error_message(error)
            self._submit_render(self.page_index, self.view.render_scale())
            return
        self._done("render")

    @staticmethod
    def _not_opened(path: str, error: object) -> str:
        """The banner of a file refused with the engine's error (its path shown as its name,
        and not twice: "Could not open a.pdf: empty file")."""
        name = Path(path).name
        reason = error_message(error).replace(path, name).removeprefix(f"{name}: ")
        return f"Could not open {name}: {reason}"

    def _refuse(self, message: str | None) -> None:
        """The file is not opened: say why (`message`, or the banner already shown)."""
        if message is not None:
            self.show_error(message)
        self.path = None
        self.state_label.setText("")
        self.setWindowTitle("Glyphscope")
        self.documentFailed.emit(self.banner.text())

    def _done(self, what: str) -> None:
        if what not in self._waiting:
            return  # a zoom re-render or a re-analysis of a page already shown
        self._waiting.discard(what)
        if what in ("render", "overlays") and not self._waiting & {"render", "overlays"}:
            self.pageShown.emit(self.page_index)
        if not self._waiting:
            if self.page_timing is not None:
                self.page_timing.ready = time.perf_counter()
            self.pageReady.emit(self.page_index)
            self.ahead.schedule()

    @property
    def model_or_error_shown(self) -> bool:
        return self.model is not None or self.banner.isVisible()

    @property
    def page_is_shown(self) -> bool:
        """The page's image and overlays are drawn (its panes may still be on their way)."""
        return self.page_count > 0 and not self._waiting & {"render", "overlays"}

    @property
    def page_is_ready(self) -> bool:
        return self.page_count > 0 and not self._waiting
