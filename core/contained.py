"""Native code that may end the process (pdfium aborts where an allocation fails), run in a
process of its own.

`ContainedProcess.run(function, *args)` calls a module-level function in a spawned child,
capped at `memory_limit` bytes of address space and `timeout` seconds a call, and answers
(True, its result) or (False, why it has none): the child was ended by a signal, ran out of
memory or time, or the function raised. The child is started on first use and reused call
after call; one that died or overran is replaced by the next call. A caller that is itself a
contained worker (a daemonic process, as the inspector's are) cannot have children: the
function then runs in place, as contained as its caller already is.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

try:
    import resource  # POSIX: a process's address-space cap (RLIMIT_AS)
except ImportError:  # Windows has no RLIMIT_AS: callers run uncapped and say so
    resource = None  # type: ignore[assignment]

# The limits of the inspector's workers (issue 10).
MEMORY_LIMIT = 2 * 2**30
TIMEOUT_S = 30.0


class ContainedProcess:
    def __init__(self, memory_limit: int = MEMORY_LIMIT, timeout: float = TIMEOUT_S) -> None:
        self.memory_limit = memory_limit
        self.timeout = timeout
        self._connection: Connection | None = None
        self._process: Any = None

    def run(self, function: Callable[..., object], *args: object) -> tuple[bool, object]:
        if multiprocessing.current_process().daemon:
            try:
                return True, function(*args)
            except MemoryError:
                return False, "out of memory"
        connection = self._ensure_started()
        try:
            connection.send((function, args))
            if not connection.poll(self.timeout):
                self.stop()
                return False, f"no answer within {self.timeout:g} s"
            ok, value = connection.recv()
        except (EOFError, OSError):
            self._process.join(1.0)
            reason = _ended(self._process.exitcode)
            self.stop()
            return False, reason
        return ok, value

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join()
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _ensure_started(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._connection:
            return self._connection
        self.stop()
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(child, self.memory_limit), daemon=True, name="glyphscope-contained"
        )
        self._process.start()
        child.close()
        self._connection = parent
        return parent


def signal_name(number: int) -> str:
    """SIGABRT for 6; "signal N" for a number the platform does not name."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _ended(exit_code: int | None) -> str:
    if exit_code is not None and exit_code < 0:
        return f"its process was ended by {signal_name(-exit_code)}"
    return f"its process ended (exit status {exit_code})"


def cap_address_space(limit: int) -> bool:
    """Cap this process's address space at `limit` bytes (or the hard limit set from outside,
    when lower); False where the platform has no RLIMIT_AS. A tighter cap already in force
    stays. The one cap of every contained process: this module's children, the inspector's
    workers and the sweep's."""
    if resource is None:
        return False
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ValueError, OSError):
        pass  # a tighter cap set from outside stays in force
    return True


def _serve(connection: Connection, memory_limit: int) -> None:
    """The child: answer each (function, args) until the pipe closes."""
    cap_address_space(memory_limit)
    out_of_memory = (False, f"out of memory under the {memory_limit >> 20} MB cap")
    while True:
        try:
            # A message is read whole before it is unpickled: a failure there (importing the
            # function's module under the cap) leaves the pipe in step.
            function, args = connection.recv()
        except EOFError:
            return
        except MemoryError:
            connection.send(out_of_memory)
            continue
        try:
            answer: tuple[bool, object] = (True, function(*args))
        except MemoryError:
            answer = out_of_memory
        except Exception as error:  # the caller's to report: the child goes on
            answer = (False, f"{type(error).__name__}: {error}")
        connection.send(answer)
