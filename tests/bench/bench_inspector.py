"""Open every corpus PDF in the inspector offscreen and visit every page with all layers on.

Reports failures (crashes must be 0; errors must be shown, not raised), the longest time the
GUI thread was blocked (a 5 ms QTimer heartbeat; the largest gap between two beats), the
time from asking for a page to the end of the page view's first paint that shows its image
and every overlay (median, 95th percentile; the panes may still be filling: "panes" is the
time to them too), and that time broken down per
step (inspector.workers.page_timing): the first page's open, each worker
job's wait in its queue, a new worker's start, its run (the analysis split into the engine's
analyse_page, the page model and the hidden-text request), its pickling, the transfer and
unpickling in the window's process, its wait for the GUI thread, the GUI thread's work on
the image, the overlays and the panes, and the painting ("paint": from the page shown, its
image and overlays' model in the window, to that paint's end).

The window paints by itself, as it does for a user: the bench forces no paint (a forced
`repaint()` before and after the overlays, as the bench did until i9-insp5, added paints of
the whole view that the window does not make).

    python3 tests/bench/bench_inspector.py [--corpus DIR] [--max-pages N] [--files GLOB]
                                           [--dwell MS] [--json FILE]

`--dwell MS` keeps each painted page on screen that long before turning to the next (a user
reading it), so work done ahead in idle time shows; 0 (the default) turns at once.
"""

from __future__ import annotations

import argparse
import collections
import csv
import fnmatch
import json
import os
import statistics
import sys
import threading
import time
import traceback
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from glyphscope.inspector.main_window import MainWindow  # noqa: E402
from glyphscope.inspector.workers.page_timing import page_steps  # noqa: E402

PAGE_TIMEOUT_MS = 120_000
HEARTBEAT_MS = 5
LATE_S = 0.2  # a beat this late makes the watchdog sample the GUI thread's stack


class Heartbeat:
    """Measures how long the GUI thread went without running its event loop, and samples
    what the GUI thread was doing when a beat is late (a watchdog thread)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.where = ""
        self.label = ""
        self.samples: collections.Counter[str] = collections.Counter()
        self._last = time.perf_counter()
        self._gui_thread = threading.get_ident()
        self._timer = QTimer()
        self._timer.setInterval(HEARTBEAT_MS)
        self._timer.timeout.connect(self._beat)
        self._timer.start()
        self._stop = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _beat(self) -> None:
        now = time.perf_counter()
        gap = now - self._last - HEARTBEAT_MS / 1000
        if gap > self.longest:
            self.longest, self.where = gap, self.label
        self._last = now

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            if time.perf_counter() - self._last > LATE_S:
                frame = sys._current_frames().get(self._gui_thread)
                frames = traceback.extract_stack(frame)[-3:] if frame is not None else []
                # A frame held here would keep the GUI thread's objects alive until this
                # thread lets go of them, and Qt objects must die on the GUI thread.
                del frame
                where = " < ".join(
                    f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in reversed(frames)
                )
                self.samples[where or "(no Python frame: Qt or the GIL)"] += 1

    def stop(self) -> None:
        self._stop.set()


def wait_for(window: MainWindow, signals, timeout_ms: int) -> str:
    """Run the event loop until one of `signals` fires; returns its name or "timeout"."""
    loop = QEventLoop()
    fired: list[str] = []
    connections = []
    for name, signal in signals:

        def quit_with(*_args, _name=name) -> None:
            fired.append(_name)
            loop.quit()

        signal.connect(quit_with)
        connections.append((signal, quit_with))
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    for signal, slot in connections:
        signal.disconnect(slot)
    return fired[0] if fired else "timeout"


class PaintWatch(QObject):
    """Sees every paint of the page view's viewport: a Paint event's filter queues a
    zero-time timer, which fires once that paint has returned (the next turn of the event
    loop), and there asks whether the page and every overlay were on the screen it drew."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window
        self.armed = False
        self.loop: QEventLoop | None = None
        self.ended = 0.0
        self.paints = 0
        window.view.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if self.armed and event.type() == QEvent.Type.Paint:
            self.paints += 1
            QTimer.singleShot(0, self._painted)
        return False

    def _painted(self) -> None:
        if not self.armed or not overlays_complete(self.window):
            return
        self.ended = time.perf_counter()
        self.armed = False
        if self.loop is not None:
            self.loop.quit()

    def wait(self) -> tuple[float, int]:
        """Run the event loop until a paint of the view has drawn the page and every overlay
        (as the window paints by itself: the bench forces no paint); (its end, the paints)."""
        self.ended, self.paints, self.armed = 0.0, 0, True
        # Merges with the paint the shown page already asked for; asks for one if it did not.
        self.window.view.viewport().update()
        self.loop = QEventLoop()
        QTimer.singleShot(PAGE_TIMEOUT_MS, self.loop.quit)
        self.loop.exec()
        self.loop, self.armed = None, False
        return (self.ended or time.perf_counter()), self.paints


def overlays_complete(window: MainWindow) -> bool:
    """After a paint of the view: every shown overlay was in it. A layer painted directly
    was; a layer the layer painter's thread paints was if its image for the current data
    covered what the view showed (else that paint asked for a new one: `pending`)."""
    try:
        from glyphscope.widgets.layer_painter import layer_painter
    except ImportError:  # an engine whose overlays are painted by the paint itself
        return True
    if not layer_painter().idle:
        return False
    view = window.view
    shown = view.viewport().rect()
    for layer in window.layers.values():
        if not layer.isVisible() or layer.model is None:
            continue
        if layer.pending:
            return False
        if layer.background and layer.painted_image is None:
            # No image: only right if the view shows nothing of the layer (it asks for none).
            drawn = view.mapFromScene(layer.mapToScene(layer.boundingRect())).boundingRect()
            if drawn.intersects(shown):
                return False
    return True


def passwords(corpus: Path) -> dict[str, str]:
    index = corpus / "index.csv"
    if not index.exists():
        return {}
    with index.open(newline="", encoding="utf-8") as handle:
        return {row["file"]: row["password"] for row in csv.DictReader(handle) if row["password"]}


def dwell(milliseconds: int) -> None:
    """Let the window idle (its event loop running) for `milliseconds`."""
    if milliseconds > 0:
        loop = QEventLoop()
        QTimer.singleShot(milliseconds, loop.quit)
        loop.exec()


def cpu_clocks() -> list[int]:
    """The CPU-time clocks of the GUI thread and of the layer painter's thread (if any)."""
    clocks = [time.CLOCK_THREAD_CPUTIME_ID]
    try:
        from glyphscope.widgets.layer_painter import layer_painter
    except ImportError:
        return clocks
    return [*clocks, time.pthread_getcpuclockid(layer_painter()._thread.ident)]


def painted(window: MainWindow, watch: PaintWatch) -> dict[str, float]:
    """Wait for the page view's first paint that shows the page and every overlay (painted
    there, or by the layer painter's thread for a dense page), wait for the panes, and
    return the page's steps in ms: "total" from the request to the end of that paint,
    "panes" to the panes filled too."""
    clocks = cpu_clocks()
    cpu_before = [time.clock_gettime(clock) for clock in clocks]
    start = time.perf_counter()
    end, paints = watch.wait()
    cpu = [time.clock_gettime(c) - before for c, before in zip(clocks, cpu_before, strict=True)]
    timing = window.page_timing
    if not window.page_is_ready:
        wait_for(window, [("ready", window.pageReady)], PAGE_TIMEOUT_MS)
    if timing is None:
        return {"total": 0.0}
    steps = page_steps(timing, window.render_worker, window.analysis_worker)
    steps["paint"] = (end - start) * 1000
    steps["paint cpu, gui thread"] = cpu[0] * 1000
    if len(cpu) > 1:
        steps["paint cpu, painter thread"] = cpu[1] * 1000
    steps["view paints (count)"] = float(paints)
    steps["total"] = (end - timing.requested) * 1000
    # What the page waited for last: its image or its overlays' model.
    last = "image" if timing.image_shown >= timing.overlays_shown else "overlays"
    steps[f"last: {last}"] = 1.0
    steps[f"image from {timing.render_source or '-'}"] = 1.0
    steps[f"model from {timing.analysis_source or '-'}"] = 1.0
    return steps


def visit(
    window: MainWindow,
    heartbeat: Heartbeat,
    watch: PaintWatch,
    path: Path,
    password: str | None,
    max_pages: int,
    dwell_ms: int,
):
    """Yield (page, steps in ms, error shown or "") for every page of one file."""
    heartbeat.label = f"{path.name} open"
    started = time.perf_counter()
    window.hide_error()
    window.open_file(str(path), password or None)
    outcome = wait_for(
        window, [("ready", window.pageShown), ("failed", window.documentFailed)], PAGE_TIMEOUT_MS
    )
    if outcome != "ready":
        total = (time.perf_counter() - started) * 1000
        yield 0, {"total": total}, window.banner.text() or outcome
        return
    steps = painted(window, watch)
    yield 1, steps, window.banner.text() if window.banner.isVisible() else ""
    for index in range(1, min(window.page_count, max_pages)):
        dwell(dwell_ms)
        heartbeat.label = f"{path.name} page {index + 1}"
        window.go_to_page(index)  # a page made ahead of time is shown when this returns
        outcome = "ready"
        if not window.page_is_shown:
            outcome = wait_for(window, [("ready", window.pageShown)], PAGE_TIMEOUT_MS)
        steps = painted(window, watch)
        error = window.banner.text() if window.banner.isVisible() else ""
        yield index + 1, steps, error or ("" if outcome == "ready" else outcome)


def breakdown(visits: list[dict[str, float]]) -> None:
    """Per step: on how many pages it happened, its median, p95 and mean over them, and its
    share of the summed totals."""
    total = sum(v.get("total", 0.0) for v in visits) or 1.0
    names: dict[str, list[float]] = collections.defaultdict(list)
    for steps in visits:
        for name, ms in steps.items():
            names[name].append(ms)
    counted = sorted(n for n in names if n.startswith(("last:", "image from", "model from")))
    print("\nper step (ms, over the pages that took it):")
    print(f"  {'step':<28} {'pages':>6} {'median':>8} {'p95':>8} {'mean':>8} {'share':>7}")
    for name in sorted(set(names) - set(counted), key=lambda n: -sum(names[n])):
        values = sorted(names[name])
        p95 = values[int(0.95 * (len(values) - 1))]
        share = sum(values) / total * 100
        print(
            f"  {name:<28} {len(values):>6} {statistics.median(values):>8.1f} {p95:>8.1f} "
            f"{statistics.mean(values):>8.1f} {share:>6.1f}%"
        )
    print("  (steps of the workers overlap: render and analysis run at once; share is of time)")
    for name in counted:
        print(f"  {name}: {len(names[name])} pages")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--max-pages", type=int, default=10_000)
    parser.add_argument("--files", default="*.pdf")
    parser.add_argument("--dwell", type=int, default=0, metavar="MS")
    parser.add_argument("--json", type=Path, help="every page's steps")
    args = parser.parse_args()
    corpus = Path(args.corpus)
    files = sorted(p for p in corpus.glob("*.pdf") if fnmatch.fnmatch(p.name, args.files))
    known = passwords(corpus)

    app = QApplication.instance() or QApplication([])
    window = MainWindow(persist=False)
    window.password_provider = lambda _path, _wrong: None  # unknown passwords: shown, skipped
    window.resize(1400, 900)
    window.show()
    window.set_layers([layer_id for layer_id in window.layers])
    heartbeat = Heartbeat()
    watch = PaintWatch(window)
    crashes: list[str] = []
    errors: list[str] = []
    timings: list[float] = []
    slowest: list[tuple[float, str]] = []
    visits: list[dict[str, float]] = []
    labels: list[str] = []
    pages = 0
    for path in files:
        try:
            for page, steps, error in visit(
                window, heartbeat, watch, path, known.get(path.name), args.max_pages, args.dwell
            ):
                pages += 1
                seconds = steps["total"] / 1000
                timings.append(seconds)
                visits.append(steps)
                labels.append(f"{path.name} p{page}")
                slowest.append((seconds, f"{path.name} p{page}"))
                if error:
                    errors.append(f"{path.name} p{page}: {error[:140]}")
        except Exception:  # the app must never raise; record it as a crash
            crashes.append(f"{path.name}: {traceback.format_exc(limit=3)}")
        app.processEvents()
    window.shutdown()
    heartbeat.stop()

    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))] if timings else 0.0
    print(f"files {len(files)}, pages visited {pages}")
    print(f"crashes {len(crashes)}")
    for crash in crashes:
        print("  CRASH", crash)
    print(f"errors shown (not raised) {len(errors)}")
    for error in errors:
        print("  ", error)
    print(f"longest GUI-thread block {heartbeat.longest * 1000:.0f} ms ({heartbeat.where})")
    for where, count in heartbeat.samples.most_common(6):
        print(f"  GUI thread while late ({count} × 50 ms): {where}")
    if timings:
        print(
            f"time to rendered page + overlays: median {statistics.median(timings) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {timings[-1] * 1000:.0f} ms"
        )
    for seconds, page in sorted(slowest, reverse=True)[:8]:
        print(f"  slow: {seconds * 1000:.0f} ms {page}")
    # A file's first page pays its open; the others are page turns.
    for name, chosen in (
        ("first pages (open included)", [v for v in visits if "open" in v]),
        ("pages turned to", [v for v in visits if "open" not in v]),
    ):
        totals = sorted(v["total"] for v in chosen)
        if totals:
            print(
                f"  {name}: {len(totals)}, median {statistics.median(totals):.0f} ms, "
                f"p95 {totals[int(0.95 * (len(totals) - 1))]:.0f} ms"
            )
    breakdown(visits)
    if args.json:
        args.json.write_text(json.dumps(dict(zip(labels, visits, strict=True)), indent=1))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
