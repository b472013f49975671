"""`--scheduler tcp://HOST:PORT`: documents as tasks on an existing Dask distributed cluster.

Each task runs its document in an `IsolatedWorker` owned by the Dask worker thread, so a
document that crashes, hangs or blows its memory costs that child process, not the Dask worker;
results stream back to this process, the one SQLite writer. Should a Dask worker die anyway
(the scheduler gives up on a task as KilledWorker), every task it held dies with it, not only
the one that killed it. So a task lost that way is not charged at once: once nothing else is in
flight it runs again alone, and only a task that kills its worker while running alone is the
document's crash. Fresh tasks wait meanwhile; a worker's death is rare and the wait is short.
Needs the `cluster` extra (`pip install 'glyphscope[cluster]'`); local sweeps never import it.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Callable

from glyphscope.sweep.isolation import IsolatedWorker
from glyphscope.sweep.jobs import CRASH, DocumentJob, DocumentResult

Done = Callable[[object, DocumentResult], None]
Task = tuple[object, DocumentJob, Done]

_local = threading.local()


def run_isolated(job: DocumentJob, timeout: float, memory_limit_mb: int | None) -> DocumentResult:
    """The task: runs on a Dask worker, reusing that thread's worker process."""
    if job.hook == "kill_dask_worker":  # test seam: a failure isolation cannot catch
        os._exit(9)
    worker = getattr(_local, "worker", None)
    if worker is None or (worker.timeout, worker.memory_limit_mb) != (timeout, memory_limit_mb):
        if worker is not None:
            worker.stop()
        worker = _local.worker = IsolatedWorker(timeout, memory_limit_mb)
    return worker.run(job)


class MissingClusterExtra(RuntimeError):
    """--scheduler tcp://… without the distributed package."""


class DaskBackend:
    def __init__(self, address: str, timeout: float, memory_limit_mb: int | None) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise MissingClusterExtra(
                "--scheduler tcp://… needs Dask distributed: pip install 'glyphscope[cluster]'"
            ) from None
        self.client = Client(address, timeout="30s")
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        threads = sum(self.client.nthreads().values())
        self.slots = max(1, threads)
        self._futures: set = set()
        self._lock = threading.Lock()
        self._closing = False
        self._running = 0  # tasks sent to Dask whose result has not come back
        self._alone = False  # a task lost with its worker is running again by itself
        self._lost: deque[Task] = deque()  # lost with a worker, waiting to run alone
        self._waiting: deque[Task] = deque()  # fresh tasks held back while the lost ones run

    def submit(self, token: object, job: DocumentJob, done: Done) -> None:
        with self._lock:
            if self._alone or self._lost:
                self._waiting.append((token, job, done))
                return
            self._running += 1
        self._send((token, job, done), alone=False)

    def _send(self, task: Task, alone: bool) -> None:
        token, job, done = task
        future = self.client.submit(
            run_isolated, job, self.timeout, self.memory_limit_mb, pure=False
        )
        with self._lock:
            self._futures.add(future)

        def finished(future) -> None:
            with self._lock:
                self._futures.discard(future)
                self._running -= 1
                self._alone = self._alone and not alone
                if future.cancelled() or self._closing:
                    return
            result = _result(future)
            if result is None and not alone:
                with self._lock:
                    self._lost.append(task)
            else:
                done(token, result or DocumentResult(CRASH, _killed_message(future)))
            self._send_next()

        future.add_done_callback(finished)

    def _send_next(self) -> None:
        """Once nothing is in flight: the next lost task alone, or when none is left, the tasks
        that waited."""
        with self._lock:
            if self._running or self._alone:
                return
            if self._lost:
                tasks, alone = [self._lost.popleft()], True
                self._alone = True
            else:
                tasks, alone = list(self._waiting), False
                self._waiting.clear()
            self._running += len(tasks)
        for task in tasks:
            self._send(task, alone)

    def close(self, cancel: bool = False) -> None:
        with self._lock:
            pending = list(self._futures)
            self._closing = True
        if cancel and pending:
            self.client.cancel(pending)
        self.client.close()


def _result(future) -> DocumentResult | None:
    """The task's result; None when its Dask worker died (KilledWorker)."""
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker:
        return None
    except Exception as exc:  # the task, not the sweep, failed: recorded against the document
        return DocumentResult(CRASH, f"dask task failed: {type(exc).__name__}: {exc}")


def _killed_message(future) -> str:
    try:
        future.result()
    except Exception as exc:
        return f"dask task failed: {type(exc).__name__}: {exc}"
    return "dask task failed: its worker died"
