"""A long-lived child that runs the engine on one input after another, under an address-space
cap, so a campaign pays Python's start-up once per few hundred inputs, not once per input.

Protocol: the parent writes one line per input, `PATH\\tMODES`; the child answers one JSON
line {"kind", "detail", "seconds", "peak_bytes"}. A child that hangs is killed by the parent
(`Worker.run` has a timeout); one that dies is restarted.
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


def _child() -> None:
    from glyphscope.core import cli

    for line in sys.stdin:
        path, _, modes = line.rstrip("\n").partition("\t")
        start = time.monotonic()
        kind, detail = "clean", ""
        with open(os.devnull, "wb") as out:
            for mode in modes.split(","):
                try:
                    cli.run(cli.build_parser().parse_args(["--mode", mode, path]), out)
                except cli.GlyphscopeError:
                    pass
                except MemoryError:
                    kind, detail = "memory", f"{mode}: MemoryError"
                    break
                except BaseException as exc:
                    kind = "traceback"
                    detail = f"{mode}: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
                    break
        peak = _peak_resident()
        answer = {
            "kind": kind,
            "detail": detail[-4000:],
            "seconds": time.monotonic() - start,
            "peak_bytes": peak,
        }
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if kind == "memory":
            return  # the interpreter's state after a MemoryError is not to be trusted


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

    def _start(self) -> subprocess.Popen:
        self.runs = 0
        return subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            preexec_fn=lambda: _limit(self.address_space),
        )

    def run(self, path: str, modes: tuple[str, ...] = MODES, timeout: float = 30.0) -> Outcome:
        if self.process is None or self.process.poll() is not None or self.runs >= self.recycle:
            self.stop()
            self.process = self._start()
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        start = time.monotonic()
        self.runs += 1
        try:
            process.stdin.write(f"{path}\t{','.join(modes)}\n")
            process.stdin.flush()
        except BrokenPipeError:
            self.stop()
            return Outcome("crash", 0.0, 0, "worker gone before the input")
        ready, _, _ = select.select([process.stdout], [], [], timeout)
        line = process.stdout.readline() if ready else ""
        seconds = time.monotonic() - start
        if not ready:
            self.stop()
            return Outcome("timeout", seconds, 0, f"no answer in {timeout} s")
        if not line:
            code = process.wait()
            self.stop()
            return Outcome("crash", seconds, 0, f"worker died, status {code}")
        answer = json.loads(line)
        return Outcome(answer["kind"], answer["seconds"], answer["peak_bytes"], answer["detail"])

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.process = None


if __name__ == "__main__":
    _child()
