"""The sweep: skip what is done, hand the rest to a backend, write every result as it comes.

The main thread is the only SQLite writer; backends deliver results into a queue from their
own threads. Ctrl+C (KeyboardInterrupt) stops handing out documents, kills the workers and
keeps every document already written; a killed sweep loses only the documents in flight.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from glyphscope.sweep.isolation import hooks_from_environment
from glyphscope.sweep.jobs import (
    ERROR,
    DocumentJob,
    DocumentResult,
    SweepSettings,
    engine_version,
)
from glyphscope.sweep.progress import Progress, Tally
from glyphscope.sweep.sources import file_digest
from glyphscope.sweep.store import ResultStore

POLL_SECONDS = 0.25
IN_FLIGHT_PER_SLOT = 2  # keeps every worker busy without hashing the whole corpus up front


class Backend(Protocol):
    slots: int

    def submit(self, token: object, job: DocumentJob, done) -> None: ...
    def close(self, cancel: bool = False) -> None: ...


@dataclass(frozen=True, slots=True)
class Pending:
    path: str
    size: int
    sha256: str


@dataclass(frozen=True, slots=True)
class SweepOutcome:
    tally: Tally
    stopped: bool
    summary: str


def sweep(
    paths: Sequence[Path],
    database: str | Path,
    settings: SweepSettings,
    backend: Backend,
    *,
    passwords: tuple[str, ...] = (),
    send_bytes: bool = False,
    retry: tuple[str, ...] = (),
    command: str = "",
    progress_stream=None,
    progress_interval: float = 10.0,
    quiet: bool = False,
) -> SweepOutcome:
    store = ResultStore(database)
    version = engine_version()
    rules_hash = settings.digest()
    run_id = store.start_run(settings, version, command)
    done = store.done(rules_hash, version, retry)
    hooks = hooks_from_environment()
    tally = Tally(total=len(paths))
    progress = Progress(tally, progress_stream, progress_interval, quiet)
    results: queue.SimpleQueue[tuple[Any, DocumentResult]] = queue.SimpleQueue()
    remaining = iter(paths)
    in_flight = 0
    stopped = False

    def deliver(token: object, result: DocumentResult) -> None:
        results.put((token, result))

    def fill() -> bool:
        """Submit until the backend has enough in flight; False when no paths are left."""
        nonlocal in_flight
        while in_flight < backend.slots * IN_FLIGHT_PER_SLOT:
            path = next(remaining, None)
            if path is None:
                return False
            try:
                size, sha256 = file_digest(path)
            except OSError as exc:  # gone or unreadable since discovery: recorded, not fatal
                unreadable = DocumentResult(ERROR, f"UnreadableFileError: {exc}")
                store.record(run_id, str(path), 0, "", rules_hash, version, unreadable)
                progress.document(unreadable)
                continue
            if (str(path), sha256) in done:
                tally.skipped += 1
                continue
            job = DocumentJob(
                path=str(path),
                settings=settings,
                passwords=passwords,
                data=path.read_bytes() if send_bytes else None,
                hook=next((hook for name, hook in hooks if name in path.name), ""),
            )
            backend.submit(Pending(str(path), size, sha256), job, deliver)
            in_flight += 1
        return True

    try:
        more = fill()
        while in_flight or more:
            try:
                pending, result = results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                progress.tick()
                continue
            in_flight -= 1
            started = time.perf_counter()
            store.record(
                run_id, pending.path, pending.size, pending.sha256, rules_hash, version, result
            )
            tally.writer_seconds += time.perf_counter() - started
            progress.document(result)
            more = more and fill()
    except KeyboardInterrupt:
        stopped = True
    finally:
        backend.close(cancel=stopped or in_flight > 0)
        store.finish_run(run_id, stopped=stopped)
        store.close()
    return SweepOutcome(tally, stopped, progress.finish(stopped))
