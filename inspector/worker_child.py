"""The inside of a worker process: the job loop, its memory limit, and the library owners.

pdfium aborts the whole process on some decompression bombs and qpdf holds the GIL for seconds
inside one call, so neither may run in the window's process. Each worker process owns one
instance of each owner class (`WorkerOwned`): the window holds a stand-in of the same class,
and a job such as `window.core.analyse` pickles as "this method of the worker's own instance".
Nothing here imports Qt.
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

from glyphscope.core.contained import cap_address_space

_Owner = TypeVar("_Owner", bound="WorkerOwned")

# One instance per owner class in this process, made on first use.
_OWNERS: dict[type, object] = {}
# Seconds per named step of the job running now (`timed_step`), sent back with its reply.
_STEPS: dict[str, float] = {}


@contextmanager
def timed_step(name: str) -> Iterator[None]:
    """Time a step of the running job; the window reads it in WorkerProcess.timings (the
    inspector's benchmark breaks a page's time down with it)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        _STEPS[name] = _STEPS.get(name, 0.0) + time.perf_counter() - start


def worker_owner(owner_class: type[_Owner]) -> _Owner:
    """This process's instance of `owner_class` (the one every job of a worker shares)."""
    owner = _OWNERS.get(owner_class)
    if owner is None:
        owner = _OWNERS[owner_class] = owner_class()
    return owner  # type: ignore[return-value]


class WorkerOwned:
    """A library owner that lives in a worker process. Pickling any instance (or one of its
    bound methods) names the class only; unpickled in the worker it is the worker's instance,
    so the window can submit `owner.method` while the handle it works on never leaves the
    worker."""

    def __reduce__(self):
        return (worker_owner, (type(self),))


@dataclass(frozen=True, slots=True)
class ReplyFailure:
    """A job's exception that could not be pickled back as itself."""

    message: str

    def __str__(self) -> str:
        return self.message


def serve(connection, memory_limit: int) -> None:
    """The worker process's main loop: run each job sent, send back (generation, ok, value).

    A message is (generation, job, args) pickled; b"" ends the loop. The address-space cap
    (RLIMIT_AS) makes a runaway decoder fail here, inside the worker, instead of taking the
    machine's memory; the window notices a worker that died and starts another.
    """
    # Ctrl+C in the terminal is for the window, which stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_limit > 0:
        _limit_address_space(memory_limit)
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        if message == b"":
            return
        generation = -1
        _STEPS.clear()
        start = time.perf_counter()
        try:
            generation, job, args = pickle.loads(message)
            reply = (generation, True, job(*args))
        except MemoryError:
            # The heap may be half-torn now: answer, then let the window start a fresh worker.
            failure = MemoryError(_out_of_memory(memory_limit))
            _send(connection, (generation, False, failure), {})
            os._exit(3)
        except Exception as exc:  # every failure goes back to the window, which shows it
            reply = (generation, False, exc)
        _send(connection, reply, {"job": time.perf_counter() - start, **_STEPS})


def _send(connection, reply: tuple, steps: dict[str, float]) -> None:
    """Send a reply as a header message (the count of buffers, then the pickle) followed by
    its out-of-band buffers (pickle protocol 5: numpy arrays such as a page's pixels and
    quads), which the window unpickles without copying them while holding the GIL, and by
    the job's timed steps (JSON, the pickling's own time among them)."""
    generation, ok, value = reply
    buffers: list[pickle.PickleBuffer] = []
    start = time.perf_counter()
    try:
        data = pickle.dumps(reply, protocol=5, buffer_callback=buffers.append)
    except Exception as exc:  # an unpicklable result or exception: say so instead
        what = "result" if ok else f"error {type(value).__name__}: {value}"
        failure = ReplyFailure(f"the worker's {what} could not be sent back ({exc})")
        buffers = []
        data = pickle.dumps((generation, False, failure), protocol=5)
    steps = {**steps, "pickle": time.perf_counter() - start}
    connection.send_bytes(len(buffers).to_bytes(4, "little") + data)
    for buffer in buffers:
        connection.send_bytes(buffer.raw())
    connection.send_bytes(json.dumps(steps).encode())


def receive(connection) -> tuple[tuple, dict[str, float]]:
    """The window's side of `_send`: (generation, ok, value) and the job's timed steps, with
    this side's reading of the buffers ("transfer") and unpickling ("unpickle")."""
    header = connection.recv_bytes()
    start = time.perf_counter()
    count = int.from_bytes(header[:4], "little")
    buffers = [connection.recv_bytes() for _ in range(count)]
    # A page arrives as some 10^5 small records (core.text.packed rebuilds them); the cyclic
    # collector would walk them over and over while they are made, tripling the time this
    # thread holds the window process's GIL. None of them is part of a cycle.
    collecting = gc.isenabled()
    gc.disable()
    unpickling = time.perf_counter()
    try:
        reply = pickle.loads(memoryview(header)[4:], buffers=buffers)
    finally:
        if collecting:
            gc.enable()
    steps = json.loads(connection.recv_bytes())
    steps["transfer"] = unpickling - start
    steps["unpickle"] = time.perf_counter() - unpickling
    return reply, steps


def _limit_address_space(limit: int) -> None:
    if not cap_address_space(limit):
        sys.stderr.write(
            "glyphscope: this platform has no RLIMIT_AS; the inspector's workers run without "
            "their memory cap\n"
        )


def _out_of_memory(limit: int) -> str:
    return f"out of memory: the job needed more than the worker's {limit / 2**30:.1f} GiB"
