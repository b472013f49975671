"""Pages made ahead of the user: while the window is idle, the next and the previous page are
analysed and rendered in the workers, so turning to them shows them at once; and the renders
made are kept, so going back to a page shows its image without asking pdfium again. The
page shown's own idle-time work, its hidden-text pixel test (inspector.workers.hidden_ink), starts
first.

A page is analysed ahead in the two jobs a page turned to is (inspector.workers.analysis):
its view model first (`JobKind.AHEAD_VIEW`), then its text modes, which complete that model
(`JobKind.AHEAD`). A page turned to while its text modes are still on their way shows its
overlays from the view model at once (`view_model`), and its panes when they arrive.

Work ahead never delays what the user asked for: it starts only when the page shown is
complete and the window has been idle for AHEAD_DELAY_MS, one job per worker at a time, and
the window cancels it when it asks for another page or changes the rules (a job cancelled
while it runs is abandoned by its worker, inspector.worker_process). A page whose work ahead
failed is not tried ahead again; turning to it analyses or renders it the usual way, which
shows its error. The window (inspector.session.page) asks `model_job` / `render_job` whether
what it needs is on its way, and is handed each result through `_model_arrived` /
`_render_arrived` (and a view model made ahead through `_show_view`).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.workers.analysis import TextModes
from glyphscope.inspector.workers.hidden_ink import start_pixel_test
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.render import RenderedBitmap

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

# Idle time after a page is complete before work ahead starts (a user turning pages quickly
# is not made to wait behind pages they skip).
AHEAD_DELAY_MS = 200
# Rendered pixels kept for pages shown or rendered ahead (the newest first).
RENDER_CACHE_BYTES = 96 * 2**20


class PageAhead(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(AHEAD_DELAY_MS)
        self._timer.timeout.connect(self._idle_long_enough)
        # The window has been idle AHEAD_DELAY_MS since the page shown was complete: work
        # ahead may start, and each job done starts the next (until a page is asked for).
        self._idle = False
        # (index, requested scale) → the render, newest last.
        self._renders: OrderedDict[tuple[int, float], RenderedBitmap] = OrderedDict()
        # The jobs out on each worker: ((view generation, text generation), key) for the
        # analysis worker, (generation, key) for the render worker, or None.
        self._model_job: tuple[tuple[int, int], tuple] | None = None
        self._render_job: tuple[int, tuple[int, float]] | None = None
        # The view model of the page analysed ahead, until its text modes complete it.
        self._view: PageModel | None = None
        self._failed: set[tuple[str, tuple]] = set()
        self._hidden_tested: tuple | None = None  # (index, rules) whose pixel test started
        window.analysis_worker.jobFinished.connect(self._on_analysis)
        window.analysis_worker.jobFailed.connect(self._on_analysis_failed)
        window.render_worker.jobFinished.connect(self._on_render)
        window.render_worker.jobFailed.connect(self._on_render_failed)

    # -- the window's side ------------------------------------------------------------------
    def schedule(self) -> None:
        """The page shown is complete: work ahead once the window has been idle a while."""
        self._hidden_tested = None
        self._idle = False
        self._timer.start()

    def _idle_long_enough(self) -> None:
        self._idle = True
        self.work()

    def clear(self) -> None:
        """Forget everything made ahead (the document closes)."""
        self._timer.stop()
        self._idle = False
        self.cancel_model()
        self.cancel_render()
        self._renders.clear()
        self._failed.clear()

    def cancel_model(self) -> None:
        if self._model_job is not None:
            self.window.analysis_worker.invalidate(JobKind.AHEAD_VIEW)
            self.window.analysis_worker.invalidate(JobKind.AHEAD)
            self._model_job = None
        self._view = None

    def cancel_render(self) -> None:
        if self._render_job is not None:
            self.window.render_worker.invalidate(JobKind.AHEAD_RENDER)
            self._render_job = None

    def model_job(self, key: tuple) -> tuple[int, int] | None:
        """The generations of the jobs ahead analysing (index, rules), its view model and its
        text modes, if they are out."""
        job = self._model_job
        return job[0] if job is not None and job[1] == key else None

    def view_model(self, key: tuple) -> PageModel | None:
        """The view model of (index, rules) made ahead, its text modes still on their way."""
        view = self._view
        if view is None or self._model_job is None or self._model_job[1] != key:
            return None
        return view

    def render_job(self, key: tuple) -> int | None:
        """The generation of the job ahead rendering (index, scale), if one is out."""
        job = self._render_job
        return job[0] if job is not None and job[1] == key else None

    def render(self, index: int, scale: float) -> RenderedBitmap | None:
        """A kept render of page `index` asked for at `scale`."""
        bitmap = self._renders.get((index, scale))
        if bitmap is not None:
            self._renders.move_to_end((index, scale))
        return bitmap

    def keep_render(self, index: int, scale: float, bitmap: RenderedBitmap) -> None:
        self._renders[(index, scale)] = bitmap
        while len(self._renders) > 1 and _pixel_bytes(self._renders) > RENDER_CACHE_BYTES:
            self._renders.popitem(last=False)

    # -- work ahead ---------------------------------------------------------------------------
    def open_page(self, index: int) -> None:
        """A document is opening on page `index`: analyse and render it behind the workers'
        open jobs, as if ahead of the user. Asked for once pdfium's answer had reached the
        window (`go_to_page`), the page waited that round trip and the GUI thread's turn, 10
        to 20 ms; `go_to_page` finds these jobs on their way, as it finds a page made ahead."""
        window = self.window
        self._analyse((index, window.rules))
        if not self._continuous():
            self._render((index, window.view.render_scale()))

    def work(self) -> None:
        """Start the page shown's pixel test, then the next job ahead on each idle worker:
        the next page, then the previous. Not before the window has been idle AHEAD_DELAY_MS
        (a job that completes the page shown, such as one of `open_page`, calls this too)."""
        window = self.window
        if not self._idle or not window.page_count or not window.path or window._waiting:
            return
        model = window.model
        if model is not None and self._hidden_tested != (model.page_index, model.analysis.rules):
            self._hidden_tested = (model.page_index, model.analysis.rules)
            start_pixel_test(window, model)
        index = window.page_index
        neighbours = [i for i in (index + 1, index - 1) if 0 <= i < window.page_count]
        if self._model_job is None:
            for neighbour in neighbours:
                key = (neighbour, window.rules)
                if key not in window._models and ("model", key) not in self._failed:
                    self._analyse(key)
                    break
        if self._render_job is None and not self._continuous():
            scale = window.view.render_scale()
            for neighbour in neighbours:
                render_key = (neighbour, scale)
                if (
                    neighbour not in window._unrenderable
                    and render_key not in self._renders
                    and ("render", render_key) not in self._failed
                ):
                    self._render(render_key)
                    break

    def _analyse(self, key: tuple) -> None:
        """Analyse (index, rules) `key` in the two jobs of a page turned to."""
        thread = self.window.analysis_worker
        view = thread.submit(JobKind.AHEAD_VIEW, self.window.core.analyse_view, *key)
        # Skipped if the view job fails (which then reports the page's failure).
        text = thread.submit(JobKind.AHEAD, self.window.core.analyse, *key, after=view)
        self._model_job = ((view, text), key)
        self._view = None

    def _render(self, key: tuple[int, float]) -> None:
        """Render (index, scale) `key`."""
        generation = self.window.render_worker.submit(
            JobKind.AHEAD_RENDER, self.window.pdfium.render, *key
        )
        self._render_job = (generation, key)

    def _continuous(self) -> bool:
        """Continuous scrolling renders the pages itself (inspector.session.continuous)."""
        continuous = getattr(self.window, "continuous", None)
        return continuous is not None and continuous.enabled

    def _on_analysis(self, kind: str, generation: int, result: object) -> None:
        job = self._model_job
        if job is None or (kind, generation) not in _kinds(job[0]):
            return
        window = self.window
        if kind == JobKind.AHEAD_VIEW:
            if isinstance(result, PageModel):
                self._view = result
                if window.awaits_view(result):
                    window._show_view(result)
            return
        self._model_job = None
        view, self._view = self._view, None
        if isinstance(result, TextModes):
            if view is not None and (view.page_index, view.analysis.rules) == job[1]:
                result = result.complete(view)
            elif window.awaits_model(job[1]):
                # Its view model never arrived (the worker restarted between the two
                # jobs): the page shown asks for its analysis the usual way.
                window._request_analysis(job[1][0])
        if isinstance(result, PageModel):
            window._model_arrived(result)
        self.work()

    def _on_analysis_failed(self, kind: str, generation: int, error: object) -> None:
        job = self._model_job
        if job is None or (kind, generation) not in _kinds(job[0]):
            return
        # A failed view job skips the text job queued after it: both are over.
        self._model_job = None
        self._view = None
        self._failed.add(("model", job[1]))
        self.window._model_failed(job[1], generation, error)
        self.work()

    def _on_render(self, kind: str, generation: int, result: object) -> None:
        job = self._render_job
        if kind != JobKind.AHEAD_RENDER or job is None or job[0] != generation:
            return
        self._render_job = None
        if isinstance(result, RenderedBitmap):
            self.keep_render(*job[1], result)
            self.window._render_arrived(result, generation)
        self.work()

    def _on_render_failed(self, kind: str, generation: int, error: object) -> None:
        job = self._render_job
        if kind != JobKind.AHEAD_RENDER or job is None or job[0] != generation:
            return
        self._render_job = None
        self._failed.add(("render", job[1]))
        self.window._render_failed_ahead(job[1], generation)
        self.work()


def _kinds(generations: tuple[int, int]) -> tuple[tuple[str, int], tuple[str, int]]:
    """The (kind, generation) of the view job and the text job ahead."""
    return (JobKind.AHEAD_VIEW, generations[0]), (JobKind.AHEAD, generations[1])


def _pixel_bytes(renders: OrderedDict[tuple[int, float], RenderedBitmap]) -> int:
    return sum(b.pixels.nbytes for b in renders.values() if b.pixels is not None)
