"""The GUI-thread watchdog the stall tests share (issue 11: the window never blocks longer
than 50 ms), and `settle`, which waits until the window's workers are idle.

A stall is a late beat of a 10 ms timer on the GUI thread. What it costs is wall time; why it
happened is what the report tells: the GUI thread's own innermost frames (its work), the other
threads' (one of them held the GIL, or the machine's scheduler ran something else), and the
garbage collections inside it (a full one walks every object and stops every thread)."""

from __future__ import annotations

import collections
import gc
import sys
import threading
import time
import traceback
from pathlib import Path

# The Python frames that show a thread waiting, not running: it holds no GIL there (an idle
# pool thread waits in C under concurrent.futures' thread.py).
IDLE_FILES = frozenset({"threading.py", "queue.py", "selectors.py", "connection.py", "thread.py"})


def _where(frame, depth: int) -> str:
    stack = traceback.extract_stack(frame)[-depth:]
    return " < ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in stack)


class Watchdog:
    """The longest time the GUI thread went without running its event loop: a 10 ms timer
    whose late beats are the stalls. `longest` is wall time (what the user waits, load
    included); `longest_cpu` the GUI thread's own CPU time within that longest beat gap
    (what the same stall costs on an idle machine, GIL waits aside). In the longest stall,
    `seen` counts what a sampling thread found the GUI thread doing (its innermost Python
    frames), `others` what every other thread was running (its innermost frame, waits left
    out), and `collections` the garbage collections (thread, generation, seconds) that ran
    inside it."""

    INTERVAL_MS = 10
    # The sampler looks at the threads this often once a beat is this late.
    SAMPLE_S = 0.002
    LATE_S = 0.015

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self._gui_thread = threading.get_ident()
        # The samples and collections, filled off the GUI thread too; reentrant, as a
        # collection (and its callback) may start inside any allocation under the lock.
        self._lock = threading.RLock()
        self.reset()
        self._collection_started: dict[int, tuple[int, float]] = {}
        gc.callbacks.append(self._collected)
        self._timer = QTimer()
        self._timer.setInterval(self.INTERVAL_MS)
        self._timer.timeout.connect(self._beat)
        self._timer.start()
        self._stopped = threading.Event()
        self._sampler = threading.Thread(target=self._sample, name="watchdog sampler", daemon=True)
        self._sampler.start()

    def reset(self) -> None:
        with self._lock:
            self.longest = self.longest_cpu = 0.0
            self.seen: collections.Counter[str] = collections.Counter()
            self.others: collections.Counter[str] = collections.Counter()
            self.collections: list[tuple[str, int, float]] = []
            self._samples: list[str] = []
            self._other_samples: list[str] = []
            self._collected_now: list[tuple[str, int, float]] = []
            self._last, self._last_cpu = time.perf_counter(), time.thread_time()

    def _beat(self) -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        late = now - self._last - self.INTERVAL_MS / 1000
        with self._lock:
            samples, self._samples = self._samples, []
            others, self._other_samples = self._other_samples, []
            collected, self._collected_now = self._collected_now, []
            if late > self.longest:
                self.longest, self.longest_cpu = late, cpu - self._last_cpu
                self.seen = collections.Counter(samples)
                self.others = collections.Counter(others)
                self.collections = collected
            self._last, self._last_cpu = now, cpu

    def _collected(self, phase: str, info: dict) -> None:
        thread = threading.get_ident()
        if phase == "start":
            self._collection_started[thread] = (info["generation"], time.perf_counter())
            return
        generation, started = self._collection_started.pop(thread, (info["generation"], 0.0))
        if started:
            took = time.perf_counter() - started
            with self._lock:
                self._collected_now.append((threading.current_thread().name, generation, took))

    def _sample(self) -> None:
        names = {}
        while not self._stopped.wait(self.SAMPLE_S):
            if time.perf_counter() - self._last < self.LATE_S:
                continue
            frames = sys._current_frames()
            if len(names) != len(frames):
                names = {thread.ident: thread.name for thread in threading.enumerate()}
            gui = frames.pop(self._gui_thread, None)
            frames.pop(threading.get_ident(), None)
            others, frame = [], None
            for ident, frame in frames.items():
                if Path(frame.f_code.co_filename).name in IDLE_FILES:
                    continue
                others.append(f"{names.get(ident, ident)}: {_where(frame, 1)}")
            where = _where(gui, 3) if gui is not None else ""
            # The threads' objects must not be kept alive from this thread.
            del frames, gui, frame
            with self._lock:
                self._samples.append(where or "(no Python frame)")
                self._other_samples += others

    def report(self) -> str:
        """What the GUI thread, the other threads and the collector did in the longest stall,
        most samples first."""
        lines = [f"      {count} × {where}\n" for where, count in self.seen.most_common(4)]
        lines += [f"      other {n} × {where}\n" for where, n in self.others.most_common(3)]
        # The passes that took a while (a young generation's take well under a millisecond).
        passes = [(name, g, took) for name, g, took in self.collections if took > 0.002]
        if passes:
            told = ", ".join(f"{name} gen {g} {took * 1000:.1f} ms" for name, g, took in passes)
            lines.append(f"      collections: {told}\n")
        return "".join(lines)

    def stop(self) -> None:
        self._timer.stop()
        self._stopped.set()
        self._sampler.join()
        gc.callbacks.remove(self._collected)


# The window has settled when no worker had a job for this long after the scenario's signal.
SETTLED_MS = 600


def settle(qtbot, workers, timeout_s: float = 120.0) -> None:
    """Run the event loop until every worker has been idle for SETTLED_MS: what follows a
    page (its details, comparisons, the pixel test, the panels they fill) counts too."""
    started = calm = time.monotonic()
    while time.monotonic() - started < timeout_s:
        qtbot.wait(20)
        if not all(worker.idle for worker in workers):
            calm = time.monotonic()
        elif time.monotonic() - calm > SETTLED_MS / 1000:
            return
