"""`--scheduler tcp://HOST:PORT`: documents as tasks on an existing Dask distributed cluster.

Each task runs its document in an `IsolatedWorker` owned by the Dask worker thread, so a
document that crashes, hangs or blows its memory costs that child process, not the Dask worker;
results stream back to this process, the one SQLite writer. Should a Dask worker die anyway
(the scheduler gives up on a task as KilledWorker), the task is submitted once more, since a
dying worker costs every task it held; a second KilledWorker is the document's crash.
Needs the `cluster` extra (`pip install 'glyphscope[cluster]'`); local sweeps never import it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable

from glyphscope.sweep.isolation import IsolatedWorker
from glyphscope.sweep.jobs import CRASH, DocumentJob, DocumentResult

Done = Callable[[object, DocumentResult], None]

_local = threading.local()
KILLED_WORKER_ATTEMPTS = 2


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

    def submit(self, token: object, job: DocumentJob, done: Done, attempt: int = 0) -> None:
        future = self.client.submit(
            run_isolated, job, self.timeout, self.memory_limit_mb, pure=False
        )
        with self._lock:
            self._futures.add(future)

        def finished(future) -> None:
            with self._lock:
                self._futures.discard(future)
                closing = self._closing
            if future.cancelled() or closing:
                return
            result = _result(future)
            if result is None and attempt < KILLED_WORKER_ATTEMPTS - 1:
                # A dying Dask worker takes every task it held with it, not only the one that
                # killed it: each gets another go, and only a repeat offender is a crash.
                self.submit(token, job, done, attempt + 1)
                return
            done(token, result or DocumentResult(CRASH, _killed_message(future)))

        future.add_done_callback(finished)

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
