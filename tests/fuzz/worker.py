"""A long-lived child that runs the engine on one input after another, under an address-space
cap, so a campaign pays Python's start-up once per few hundred inputs, not once per input.

Protocol: the child writes `ready` once it has imported the engine; then the parent writes
one line per input, `PATH\\tMODES`, and the child writes a line `MODE SECONDS` as each mode
ends, then one JSON line {"kind", "detail", "seconds", "peak_bytes", "refused"}. The time
limit is per mode, as a user running one command would see it (start-up is not counted): a
child that gives no line within it is killed by the parent; one that dies is restarted. The
peak resident set is reset before each input (/proc/self/clear_refs), so `peak_bytes` is
that input's own peak, not the largest of every input the child ran before.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
import traceback

from tests.fuzz.bounded import GIGABYTE, MODES, Outcome, _limit

STARTUP_TIMEOUT = 600.0


def _child() -> None:
    # Everything an input needs is imported before the child says it is ready: the parent's
    # clock for an input starts when it sends it, and on a loaded machine the imports alone
    # can take longer than the time limit.
    import glyphscope.core.analysis  # noqa: F401
    import glyphscope.core.cli  # noqa: F401
    import glyphscope.core.text.ink  # noqa: F401

    sys.stdout.write("ready\n")
    sys.stdout.flush()
    for line in sys.stdin:
        path, _, modes = line.rstrip("\n").partition("\t")
        _reset_peak_resident()
        start = time.monotonic()
        kind, detail, refused = _run_modes(path, modes.split(","))
        answer = {
            "kind": kind,
            "detail": detail[-4000:],
            "seconds": time.monotonic() - start,
            "peak_bytes": _peak_resident(),
            "refused": refused,
        }
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if kind == "memory":
            return  # the interpreter's state after a MemoryError is not to be trusted


def _run_modes(path: str, modes: list[str]) -> tuple[str, str, str]:
    """(kind, detail, refused) of every CLI mode on one document, opened once (as the CLI
    opens it) so the modes share its page cache; a line `MODE SECONDS` as each mode ends."""
    from glyphscope.core import cli
    from glyphscope.core.document import Document

    document, refused = None, ""
    try:
        with open(os.devnull, "wb") as out:
            for mode in modes:
                mode_start = time.monotonic()
                try:
                    if document is None:
                        document = Document.open(path)
                    cli.run_on(document, cli.build_parser().parse_args(["--mode", mode, path]), out)
                except cli.GlyphscopeError as exc:
                    # A typed refusal is a clean outcome; the first one is named in the table.
                    refused = refused or type(exc).__name__
                    if document is None:  # every mode would be refused the same
                        return "clean", "", refused
                except MemoryError:
                    return "memory", f"{mode}: MemoryError", ""
                except BaseException as exc:
                    detail = f"{mode}: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
                    return "traceback", detail, ""
                sys.stdout.write(f"{mode} {time.monotonic() - mode_start:.3f}\n")
                sys.stdout.flush()
    finally:
        if document is not None:
            document.close()
    return "clean", "", refused


def _reset_peak_resident() -> None:
    """Writing 5 to clear_refs sets VmHWM back to the current resident set (Linux 4.0+)."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")


def _peak_resident() -> int:
    """VmHWM: this process's peak resident set since exec (ru_maxrss counts the parent's)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM"):
                return int(line.split()[1]) * 1024
    return 0


class Worker:
    """The parent's handle on one child; `run` restarts it after a hang or a death."""

    def __init__(self, address_space: int = GIGABYTE, recycle: int = 200) -> None:
        self.address_space = address_space
        self.recycle = recycle
        self.process: subprocess.Popen | None = None
        self.runs = 0
        self.pending = b""  # what the child wrote past the last whole line read

    def _line(self, timeout: float) -> str | None:
        """The child's next line ("" when it died), None when none came within `timeout`.
        Read from the raw pipe: a buffered reader could hold a second line that select
        would then never report."""
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, left))
            if not ready:
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                return ""
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode()

    def _start(self) -> None:
        """A new child, once it has imported the engine (not timed as any input's)."""
        self.runs, self.pending = 0, b""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=lambda: _limit(self.address_space),
        )
        if self._line(STARTUP_TIMEOUT) != "ready":
            self.stop()

    def run(self, path: str, modes: tuple[str, ...] = MODES, timeout: float = 30.0) -> Outcome:
        if self.process is None or self.process.poll() is not None or self.runs >= self.recycle:
            self.stop()
            self._start()
        process = self.process
        if process is None:
            return Outcome("crash", 0.0, 0, f"worker did not start within {STARTUP_TIMEOUT} s")
        assert process.stdin is not None
        start = time.monotonic()
        self.runs += 1
        try:
            process.stdin.write(f"{path}\t{','.join(modes)}\n".encode())
            process.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return Outcome("crash", 0.0, 0, "worker gone before the input")
        slowest_mode, running = ("", 0.0), ""
        for mode in modes:
            running = mode
            line = self._line(timeout)
            if line is None or line == "":
                break
            if line.startswith("{"):  # a mode failed: the answer comes at once
                return self._outcome(line, slowest_mode)
            name, _, seconds = line.partition(" ")
            slowest_mode = max(slowest_mode, (name, float(seconds)), key=lambda item: item[1])
        else:
            line = self._line(timeout)
        seconds = time.monotonic() - start
        if line is None:
            self.stop()
            return Outcome("timeout", seconds, 0, f"{running}: no answer in {timeout} s")
        if not line:
            code = process.wait()
            self.stop()
            return Outcome("crash", seconds, 0, f"{running}: worker died, status {code}")
        return self._outcome(line, slowest_mode)

    @staticmethod
    def _outcome(line: str, slowest_mode: tuple[str, float]) -> Outcome:
        answer = json.loads(line)
        return Outcome(
            answer["kind"],
            answer["seconds"],
            answer["peak_bytes"],
            answer["detail"],
            answer["refused"],
            slowest_mode,
        )

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.process = None


if __name__ == "__main__":
    _child()
