"""A worker process that owns a library handle and runs jobs on it in order, for the window.

The API is the one the window's owner threads had: `submit(kind, job, *args)` returns the job's
generation; a job that a newer job of the same kind superseded before it started is skipped,
and receivers drop results whose generation is no longer the latest (`is_latest`). Results and
failures arrive as `jobFinished` / `jobFailed` on the GUI thread.

What a process adds: jobs, their arguments and results are pickled (an owner's bound method
pickles as a reference to the worker's own owner, see inspector.worker_child); the worker runs
under an address-space cap; a worker that dies (pdfium aborts on decompression bombs), runs
out of memory or overruns its time is killed if needed and replaced, the job in flight fails
with `WorkerStopped` saying why, and the jobs that set the worker up (`replay` kinds, e.g. the
last "open") run again in the new worker before anything else. A stale job that keeps the
worker busy (the user turned the page past a slow render) is abandoned the same way.

The GUI thread only appends to a queue: a dispatcher thread sends one job at a time, waits
for its reply and unpickles it, so no pipe write or read can block the window.

As with any multiprocessing program, a script that opens the window must keep its top level
behind `if __name__ == "__main__":` (each worker imports the main module).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal

from glyphscope.core.contained import signal_name
from glyphscope.inspector.worker_child import receive, serve

# The engine's measured targets: a worker process stays under 2 GB (issue 10). The
# environment variable sets another cap, in MiB (0: none), e.g. to see a bomb hit it.
DEFAULT_MEMORY_LIMIT = int(os.environ.get("GLYPHSCOPE_WORKER_MEMORY_MB", "2048")) * 2**20
# A job that runs longer than this is taken for a hang (issue 10: no timeouts at 30 s).
DEFAULT_JOB_TIMEOUT_S = 30.0
# A job superseded while it runs is left to finish this long before its worker is replaced.
STALE_GRACE_S = 1.5
_POLL_S = 0.05
# Jobs whose timings are kept (WorkerProcess.timings), newest last.
KEPT_TIMINGS = 256
# Imported once by the fork server, so a new worker starts in milliseconds, not seconds.
_PRELOAD = [
    "glyphscope.inspector.worker_child",
    "glyphscope.inspector.workers.analysis",
    "glyphscope.inspector.workers.render",
    "glyphscope.inspector.workers.qa",
    "glyphscope.core.analysis",
    # Imported on first use by numpy.unique and by the panes' UTF-16 offsets
    # (core.view.page_model): else a new worker's first page pays for them.
    "numpy.ma",
    "encodings.utf_32_le",
]
# The start method of the workers: GLYPHSCOPE_START_METHOD names one (spawn, as macOS and
# Windows start processes, forkserver, fork); else forkserver where the platform has it.
START_METHOD_VARIABLE = "GLYPHSCOPE_START_METHOD"
_context_lock = threading.Lock()
_context = None


class WorkerStopped(RuntimeError):
    """The worker process running a job died, ran out of memory or time, and was replaced."""


@dataclass(slots=True)
class JobTiming:
    """When one job was submitted, sent to the worker and back (time.perf_counter seconds),
    and the steps it took: "job" (its run in the worker) and the steps it timed itself
    (worker_child.timed_step), "pickle" in the worker, "transfer" and "unpickle" here."""

    kind: str
    generation: int
    submitted: float
    dispatched: float = 0.0  # taken from the queue: a new worker starts between it and sent
    sent: float = 0.0
    received: float = 0.0
    steps: dict[str, float] = field(default_factory=dict)


def start_method() -> str:
    """'forkserver': workers fork from a clean, single-threaded server that has the engine
    imported, never from the window's process with its Qt threads; 'spawn' where there is no
    fork server (Windows), each worker a fresh interpreter importing the engine itself."""
    chosen = os.environ.get(START_METHOD_VARIABLE)
    if chosen:
        return chosen
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _multiprocessing_context():
    global _context
    with _context_lock:
        if _context is None:
            _context = multiprocessing.get_context(start_method())
            if _context.get_start_method() == "forkserver":
                _context.set_forkserver_preload(_PRELOAD)
        return _context


class WorkerProcess(QObject):
    # kind, generation, result
    jobFinished = Signal(str, int, object)
    # kind, generation, exception
    jobFailed = Signal(str, int, object)
    # why the worker was replaced (after the failed job's jobFailed)
    workerRestarted = Signal(str)

    def __init__(
        self,
        name: str,
        parent: QObject | None = None,
        *,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        job_timeout_s: float = DEFAULT_JOB_TIMEOUT_S,
        replay: tuple[str, ...] = ("open",),
    ) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.name = name
        self.memory_limit = memory_limit
        self.job_timeout_s = job_timeout_s
        self._replay_kinds = replay
        self._counter = itertools.count(1)
        self._latest: dict[str, int] = {}
        self._jobs: deque = deque()
        # The generations of the jobs that failed last (for `submit(after=…)`).
        self._failed_jobs: deque[int] = deque(maxlen=KEPT_TIMINGS)
        # generation → its JobTiming, for the jobs submitted last (KEPT_TIMINGS of them).
        self.timings: OrderedDict[int, JobTiming] = OrderedDict()
        self._wake = threading.Condition()
        self._stopping = False
        self._busy = False
        self._dispatcher: threading.Thread | None = None
        # Touched by the dispatcher thread only:
        self._process = None
        self._connection = None
        self._setup: dict[str, tuple] = {}  # replay kind → (job, args) the worker ran last
        self.restarts = 0

    # -- the window's side ----------------------------------------------------------------------
    def submit(self, kind: str, job: Callable[..., object], *args: object, after: int = 0) -> int:
        """Queue `job(*args)` for the worker process; returns the job's generation. With
        `after` (a generation), the job is skipped, like a stale one, if that job failed."""
        with self._wake:
            if self._stopping:
                return -1
            generation = next(self._counter)
            self._latest[kind] = generation
            self._jobs.append((kind, generation, job, args, after))
            self.timings[generation] = JobTiming(kind, generation, time.perf_counter())
            while len(self.timings) > KEPT_TIMINGS:
                self.timings.popitem(last=False)
            self._wake.notify()
        if self._dispatcher is None:
            self._dispatcher = threading.Thread(
                target=self._dispatch, name=f"{self.name}-dispatch", daemon=True
            )
            self._dispatcher.start()
        return generation

    def invalidate(self, kind: str) -> None:
        """Make every job of `kind` already submitted stale (e.g. the document changed)."""
        with self._wake:
            self._latest[kind] = next(self._counter)

    def is_latest(self, kind: str, generation: int) -> bool:
        with self._wake:
            return self._latest.get(kind) == generation

    @property
    def idle(self) -> bool:
        """No job is queued or running."""
        with self._wake:
            return not self._busy and not self._jobs

    def isRunning(self) -> bool:
        return self._dispatcher is not None and self._dispatcher.is_alive()

    def stop(self, final: Callable[[], object] | None = None, timeout_ms: int = 2_000) -> None:
        """Drop the queued jobs and end the worker: it exits by itself when idle (after
        `final`, e.g. closing its document) and is killed when busy or slow to exit. Never
        waits longer than `timeout_ms`; safe to call twice."""
        with self._wake:
            if self._stopping:
                return
            self._stopping = True
            self._latest = {}
            self._jobs.clear()
            busy = self._busy
            if final is not None and not busy:
                self._jobs.append(("final", -1, final, (), 0))
            self._wake.notify_all()
        process = self._process
        if busy and process is not None:
            process.kill()  # a long job would keep the window from closing
        dispatcher = self._dispatcher
        if dispatcher is not None:
            dispatcher.join(timeout_ms / 1000)

    # -- the dispatcher thread ------------------------------------------------------------------
    def _dispatch(self) -> None:
        while True:
            item = self._next_job()
            if item is None:
                break
            kind, generation, job, args = item
            try:
                outcome = self._run(kind, generation, job, args)
            except Exception as exc:  # the dispatcher must outlive any job: report it instead
                self._end_process(timeout_s=0.0)
                outcome = (False, WorkerStopped(f"the {self.name} worker failed: {exc}"))
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()
            if not outcome[0]:
                with self._wake:
                    self._failed_jobs.append(generation)  # its `after` jobs are skipped
            if generation < 0:
                continue  # the final job of stop(): nobody listens any more
            ok, value = outcome
            self._emit(self.jobFinished if ok else self.jobFailed, kind, generation, value)
            if isinstance(value, WorkerStopped):
                self._emit(self.workerRestarted, str(value))
        self._end_process(timeout_s=1.0)

    def _next_job(self):
        with self._wake:
            while True:
                while self._jobs:
                    kind, generation, job, args, after = self._jobs.popleft()
                    if after and after in self._failed_jobs:
                        continue
                    if generation < 0 or self._latest.get(kind) == generation:
                        self._busy = True
                        return kind, generation, job, args
                if self._stopping:
                    return None
                self._wake.wait()

    def _run(self, kind: str, generation: int, job, args) -> tuple[bool, object]:
        with self._wake:
            timing = self.timings.get(generation)
        if timing is not None:
            timing.dispatched = time.perf_counter()
        try:
            message = pickle.dumps((generation, job, args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # a job that cannot cross to the worker is a bug to show
            return False, TypeError(f"job {kind} cannot be sent to the worker: {exc}")
        if generation < 0 and (self._process is None or not self._process.is_alive()):
            return True, None  # stop()'s final job: a worker that is gone has nothing open
        try:
            self._ensure_process()
        except Exception as exc:  # e.g. a script without a __main__ guard (see the module doc)
            self._end_process(timeout_s=0.0)
            return False, WorkerStopped(f"the {self.name} worker could not be started: {exc}")
        ok, value = self._exchange(kind, generation, message)
        if kind in self._replay_kinds and not isinstance(value, WorkerStopped):
            self._setup[kind] = (job, args)
        return ok, value

    def _exchange(self, kind: str, generation: int, message: bytes) -> tuple[bool, object]:
        """Send one job and wait for its reply, watching for death, overrun and staleness."""
        started = time.monotonic()
        with self._wake:
            timing = self.timings.get(generation) if generation >= 0 else None
        if timing is not None:
            timing.sent = time.perf_counter()
        try:
            self._connection.send_bytes(message)
            while not self._connection.poll(_POLL_S):
                if not self._process.is_alive():
                    return False, self._replace(self._death_reason())
                elapsed = time.monotonic() - started
                if elapsed > self.job_timeout_s:
                    return False, self._replace(
                        f"it ran for more than {self.job_timeout_s:.0f} s and was stopped"
                    )
                if (
                    elapsed > STALE_GRACE_S
                    and generation >= 0
                    and not self._wanted(kind, generation)
                ):
                    return False, self._replace("the job was no longer needed and was abandoned")
            (_generation, ok, value), steps = receive(self._connection)
            if timing is not None:
                timing.received, timing.steps = time.perf_counter(), steps
        except (EOFError, OSError):
            self._process.join(1.0)
            return False, self._replace(self._death_reason())
        except Exception as exc:  # a result the window cannot unpickle is the job's failure
            return False, TypeError(f"the {kind} result could not be read: {exc}")
        if not ok and isinstance(value, MemoryError):
            # The worker exits after a MemoryError (its heap may be torn): wait for it.
            self._end_process(timeout_s=2.0)
            self.restarts += 1
        return ok, value

    def _wanted(self, kind: str, generation: int) -> bool:
        with self._wake:
            return not self._stopping and self._latest.get(kind) == generation

    def _ensure_process(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        self._end_process(timeout_s=0.0)
        context = _multiprocessing_context()
        ours, theirs = context.Pipe(duplex=True)
        process = context.Process(
            target=serve, args=(theirs, self.memory_limit), name=self.name, daemon=True
        )
        process.start()
        theirs.close()
        self._process, self._connection = process, ours
        # A new worker knows nothing: open again what the last one had open.
        for kind in self._replay_kinds:
            setup = self._setup.get(kind)
            if setup is None:
                continue
            job, args = setup
            ok, value = self._exchange(kind, -1, pickle.dumps((-1, job, args)))
            if isinstance(value, WorkerStopped):
                # Setting up kills the worker: give up on it until the window sets up anew,
                # and start one that has nothing open (its jobs then fail on their own).
                self._setup.clear()
                self._ensure_process()
                return

    def _replace(self, reason: str) -> WorkerStopped:
        self._end_process(timeout_s=0.0)
        self.restarts += 1
        return WorkerStopped(f"the {self.name} worker {reason}; a new one was started")

    def _death_reason(self) -> str:
        process = self._process
        if process is None:
            return "stopped"
        process.join(0.5)
        code = process.exitcode
        limit = f"{self.memory_limit / 2**30:.1f} GiB"
        if code is None:
            return "stopped answering"
        if code == 3:
            return f"ran out of memory (its limit is {limit})"
        if code < 0:
            name = signal_name(-code)
            return f"died ({name}; a library aborts like this when it exceeds the {limit} limit)"
        return f"exited with status {code}"

    def _end_process(self, timeout_s: float) -> None:
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if connection is not None:
            try:
                if timeout_s > 0 and process is not None and process.is_alive():
                    connection.send_bytes(b"")
            except OSError:
                pass  # the worker is gone already
            connection.close()
        if process is None:
            return
        process.join(timeout_s)
        if process.is_alive():
            process.kill()
            process.join(1.0)

    def _emit(self, signal_, *args: object) -> None:
        try:
            signal_.emit(*args)
        except RuntimeError:
            pass  # the window was destroyed while the job ran: nobody to tell


def worker_pid(worker: WorkerProcess) -> int | None:
    """The worker's process id while one runs (tests kill it to check recovery)."""
    process = worker._process
    return process.pid if process is not None and process.is_alive() else None
