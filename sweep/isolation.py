"""One document at a time in a worker process of its own, with a timeout and a memory limit.

The worker is a separate Python (`python -m glyphscope.sweep.child`), started once and reused
for document after document; jobs and results cross its stdin and stdout as pickled frames. A
plain subprocess rather than multiprocessing, so the same isolation works inside a Dask worker
(whose processes are daemonic and may not have multiprocessing children).

Outcomes the parent decides, because the worker cannot report them itself:
- the worker's stdout closes (it died: a segfault or abort in a native library, an exit):
  "crash", with the signal or exit status;
- no answer within the timeout: the worker is killed, "timeout";
the worker reports "memory" itself when an allocation fails under its RLIMIT_AS.
A worker that died, timed out or ran out of memory is replaced before the next document.

POSIX only: the parent waits on the worker's pipe with select (Windows selects sockets only)
and the limit is RLIMIT_AS; elsewhere IsolatedWorker says so when made, not at import.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
from typing import BinaryIO

from glyphscope.errors import GlyphscopeError
from glyphscope.sweep.jobs import CRASH, MEMORY, TIMEOUT, DocumentJob, DocumentResult

HEADER = struct.Struct("!Q")
# A test seam: "NAME=HOOK[,NAME=HOOK…]" makes the worker misbehave on files whose name contains
# NAME (see DocumentJob.hook). Read by the sweep that builds the jobs, never by the worker.
TEST_HOOK_VARIABLE = "GLYPHSCOPE_SWEEP_TEST_HOOKS"


def write_frame(stream: BinaryIO, value: object) -> None:
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(HEADER.pack(len(body)))
    stream.write(body)
    stream.flush()


def read_frame(stream: BinaryIO) -> object | None:
    """The next value, or None at end of stream."""
    header = _read_exactly(stream, HEADER.size)
    if header is None:
        return None
    body = _read_exactly(stream, HEADER.unpack(header)[0])
    return None if body is None else pickle.loads(body)


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    chunks, remaining = [], size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


class IsolatedWorker:
    """A reusable worker process; `run` never raises for anything a document does."""

    def __init__(self, timeout: float, memory_limit_mb: int | None) -> None:
        if os.name != "posix":
            raise GlyphscopeError(
                "glyphscope-sweep isolates documents on POSIX systems only (Linux, macOS): "
                "it waits on its workers' pipes with select and caps them with RLIMIT_AS"
            )
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        self._process: subprocess.Popen | None = None

    def run(self, job: DocumentJob) -> DocumentResult:
        to_worker, from_worker = self._ensure_started()
        started = time.perf_counter()
        try:
            write_frame(to_worker, job)
        except (BrokenPipeError, OSError):
            return self._died(started)
        ready, _, _ = select.select([from_worker], [], [], self.timeout)
        if not ready:
            self.stop()
            return DocumentResult(
                TIMEOUT, f"no result within {self.timeout:g} s", seconds=self._since(started)
            )
        # The worker writes a frame in one go once it has the result, so after the first byte
        # the rest follows; a worker that dies mid-frame reads as end of stream.
        result = read_frame(from_worker)
        if result is None:
            return self._died(started)
        assert isinstance(result, DocumentResult)
        if result.outcome == MEMORY:
            self.stop()  # a failed allocation may leave the heap in no state to go on
        return result

    def stop(self) -> None:
        """Kill the worker (it ignores SIGINT, so only its parent ends it)."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass  # a broken pipe to a dead worker has nothing left to flush

    def _ensure_started(self) -> tuple[BinaryIO, BinaryIO]:
        """The running worker's stdin and stdout, starting one if there is none."""
        process = self._process
        if process is None or process.poll() is not None:
            process = self._start()
        assert process.stdin is not None and process.stdout is not None
        return process.stdin, process.stdout  # type: ignore[return-value]

    def _start(self) -> subprocess.Popen:
        self.stop()
        command = [sys.executable, "-m", "glyphscope.sweep.child"]
        if self.memory_limit_mb:
            command += ["--memory-limit", str(self.memory_limit_mb)]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True
        )
        return self._process

    def _died(self, started: float) -> DocumentResult:
        process = self._process
        code = process.wait() if process is not None else None
        self.stop()
        return DocumentResult(CRASH, describe_exit(code), seconds=self._since(started))

    @staticmethod
    def _since(started: float) -> float:
        return round(time.perf_counter() - started, 4)


def describe_exit(code: int | None) -> str:
    if code is None:
        return "worker process lost"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        note = " (the kernel's out-of-memory killer sends this too)" if -code == 9 else ""
        return f"worker killed by {name}{note}"
    return f"worker exited with status {code}"


def hooks_from_environment() -> list[tuple[str, str]]:
    value = os.environ.get(TEST_HOOK_VARIABLE, "")
    pairs = [item.partition("=") for item in value.split(",") if "=" in item]
    return [(name, hook) for name, _, hook in pairs]
