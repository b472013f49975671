"""`--scheduler local --jobs N`: N isolated worker processes fed from a thread each.

Chosen over a `distributed.LocalCluster` because it needs no extra dependency, adds no
scheduler hop per document, and its workers are the same `IsolatedWorker`s a Dask task uses,
so limits and crash outcomes are identical on both paths. The threads only wait on pipes.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

from glyphscope.sweep.isolation import IsolatedWorker
from glyphscope.sweep.jobs import DocumentJob, DocumentResult

Done = Callable[[object, DocumentResult], None]


class LocalBackend:
    def __init__(self, jobs: int, timeout: float, memory_limit_mb: int | None) -> None:
        self.slots = max(1, jobs)
        self._workers = [IsolatedWorker(timeout, memory_limit_mb) for _ in range(self.slots)]
        self._idle: queue.SimpleQueue[IsolatedWorker] = queue.SimpleQueue()
        for worker in self._workers:
            self._idle.put(worker)
        self._executor = ThreadPoolExecutor(self.slots, thread_name_prefix="sweep-worker")

    def submit(self, token: object, job: DocumentJob, done: Done) -> None:
        future = self._executor.submit(self._run, job)
        future.add_done_callback(lambda f: _deliver(f, token, done))

    def close(self, cancel: bool = False) -> None:
        if cancel:
            for worker in self._workers:
                worker.stop()  # a thread waiting on it sees end of stream and returns
        self._executor.shutdown(wait=True, cancel_futures=cancel)
        for worker in self._workers:
            worker.stop()

    def _run(self, job: DocumentJob) -> DocumentResult:
        worker = self._idle.get()
        try:
            return worker.run(job)
        finally:
            self._idle.put(worker)


def _deliver(future: Future, token: object, done: Done) -> None:
    if not future.cancelled():
        done(token, future.result())
