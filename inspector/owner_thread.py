"""One thread that owns a non-thread-safe library handle and runs jobs on it in order.

pdfium is not thread-safe and a pikepdf `Pdf` must not be shared between threads, so each gets
one owner thread: every call into the library is a job submitted here, never run on the GUI
thread. Jobs carry a generation per kind; a job that a newer job of the same kind has
superseded before it started is skipped, and receivers drop results whose generation is no
longer the latest (the user has already turned the page).
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable

from PySide6.QtCore import QThread, Signal


class OwnerThread(QThread):
    # kind, generation, result
    jobFinished = Signal(str, int, object)
    # kind, generation, exception
    jobFailed = Signal(str, int, object)

    def __init__(self, name: str, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self._jobs: queue.Queue = queue.Queue()
        self._counter = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._lock = threading.Lock()

    def submit(self, kind: str, job: Callable[..., object], *args: object) -> int:
        """Queue `job(*args)` on the owner thread; returns the job's generation."""
        with self._lock:
            generation = next(self._counter)
            self._latest[kind] = generation
        self._jobs.put((kind, generation, job, args))
        if not self.isRunning():
            self.start()
        return generation

    def invalidate(self, kind: str) -> None:
        """Make every job of `kind` already submitted stale (e.g. the document changed)."""
        with self._lock:
            self._latest[kind] = next(self._counter)

    def is_latest(self, kind: str, generation: int) -> bool:
        with self._lock:
            return self._latest.get(kind) == generation

    def run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            kind, generation, job, args = item
            if not self.is_latest(kind, generation):
                continue
            try:
                result = job(*args)
            except Exception as exc:  # reported to the GUI, which shows it; never re-raised
                self.jobFailed.emit(kind, generation, exc)
            else:
                self.jobFinished.emit(kind, generation, result)

    def stop(self, final: Callable[[], object] | None = None, timeout_ms: int = 10_000) -> None:
        """Finish the running job, drop the queued ones, run `final` (closing the library
        handle on its own thread), and end the thread."""
        with self._lock:
            self._latest = {"final": -1}
        if final is not None and self.isRunning():
            self._jobs.put(("final", -1, final, ()))
        self._jobs.put(None)
        if self.isRunning():
            self.wait(timeout_ms)
