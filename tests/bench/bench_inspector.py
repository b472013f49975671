"""Open every corpus PDF in the inspector offscreen and visit every page with all layers on.

Reports failures (crashes must be 0; errors must be shown, not raised), the longest time the
GUI thread was blocked (a 5 ms QTimer heartbeat; the largest gap between two beats), and the
time from asking for a page to its image and overlays painted (median, 95th percentile).

    python3 tests/bench/bench_inspector.py [--corpus DIR] [--max-pages N] [--files GLOB]
"""

from __future__ import annotations

import argparse
import collections
import csv
import fnmatch
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

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from glyphscope.inspector.main_window import MainWindow  # noqa: E402

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


def passwords(corpus: Path) -> dict[str, str]:
    index = corpus / "index.csv"
    if not index.exists():
        return {}
    with index.open(newline="", encoding="utf-8") as handle:
        return {row["file"]: row["password"] for row in csv.DictReader(handle) if row["password"]}


def visit(
    window: MainWindow, heartbeat: Heartbeat, path: Path, password: str | None, max_pages: int
):
    """Yield (page, seconds, error shown or "") for every page of one file."""
    heartbeat.label = f"{path.name} open"
    started = time.perf_counter()
    window.hide_error()
    window.open_file(str(path), password or None)
    outcome = wait_for(
        window, [("ready", window.pageReady), ("failed", window.documentFailed)], PAGE_TIMEOUT_MS
    )
    if outcome != "ready":
        yield 0, time.perf_counter() - started, window.banner.text() or outcome
        return
    window.view.viewport().repaint()  # the overlays are built and painted here
    yield (
        1,
        time.perf_counter() - started,
        window.banner.text() if window.banner.isVisible() else "",
    )
    for index in range(1, min(window.page_count, max_pages)):
        heartbeat.label = f"{path.name} page {index + 1}"
        started = time.perf_counter()
        window.go_to_page(index)
        outcome = wait_for(window, [("ready", window.pageReady)], PAGE_TIMEOUT_MS)
        window.view.viewport().repaint()
        error = window.banner.text() if window.banner.isVisible() else ""
        yield (
            index + 1,
            time.perf_counter() - started,
            error or ("" if outcome == "ready" else outcome),
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--max-pages", type=int, default=10_000)
    parser.add_argument("--files", default="*.pdf")
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
    crashes: list[str] = []
    errors: list[str] = []
    timings: list[float] = []
    slowest: list[tuple[float, str]] = []
    pages = 0
    for path in files:
        try:
            for page, seconds, error in visit(
                window, heartbeat, path, known.get(path.name), args.max_pages
            ):
                pages += 1
                timings.append(seconds)
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
    for seconds, where in sorted(slowest, reverse=True)[:8]:
        print(f"  slow: {seconds * 1000:.0f} ms {where}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
