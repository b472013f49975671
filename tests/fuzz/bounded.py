"""Run the engine on one input in a child process with an address-space cap and a time limit.

The child is the engine's own command line (`glyphscope.core.cli`, every mode asked for one
after the other in one process), so a crash, an abort, a MemoryError or a hang is seen as
what a user would see. Peak memory is the child's maximum resident set size.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from glyphscope.core import cli

GIGABYTE = 1 << 30
# What the child runs: each mode of the CLI on the file, output thrown away, and a last line
# telling which mode raised what if one did.
_CHILD = """
import sys, traceback
from glyphscope.core import cli
path, modes = sys.argv[1], sys.argv[2].split(",")
status = 0
with open("/dev/null", "wb") as out:
    for mode in modes:
        try:
            cli.run(cli.build_parser().parse_args(["--mode", mode, path]), out)
        except cli.GlyphscopeError:
            pass
        except BaseException as exc:
            print(f"TRACEBACK {mode} {type(exc).__name__}", file=sys.stderr)
            traceback.print_exc()
            status = 70
            break
peak = [line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM")]
print(f"PEAK {peak[0]}", file=sys.stderr)
sys.exit(status)
"""
MODES = cli.MODES


@dataclass(frozen=True)
class Outcome:
    """How one run ended. kind: "clean", "traceback", "crash" (signal or exit status),
    "timeout" or "memory" (a MemoryError: the address-space cap was reached). `refused`
    names the typed error a clean run ended with (NotAPdfError…), empty when it read;
    `slowest_mode` the mode that took longest and its seconds (the worker's runs only)."""

    kind: str
    seconds: float
    peak_bytes: int
    detail: str
    refused: str = ""
    slowest_mode: tuple[str, float] = ("", 0.0)


def _limit(address_space: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_bounded(
    path: str | Path,
    modes: tuple[str, ...] = MODES,
    timeout: float = 30.0,
    address_space: int = GIGABYTE,
) -> Outcome:
    """Every mode of the CLI on `path` in a child limited to `address_space` bytes and
    `timeout` seconds."""
    start = time.monotonic()
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), ",".join(modes)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: _limit(address_space),
        env=env,
    )
    try:
        _, stderr = process.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        process.kill()
        _, stderr = process.communicate()
        timed_out = True
    seconds = time.monotonic() - start
    text = stderr.decode("utf-8", "replace")
    peak = _peak_bytes(text)
    tail = text[-2000:]
    if timed_out:
        return Outcome("timeout", seconds, peak, tail)
    code = process.returncode
    if code == 0:
        return Outcome("clean", seconds, peak, "")
    tail = "\n".join(line for line in tail.splitlines() if not line.startswith("PEAK "))
    if "MemoryError" in tail or "bad_alloc" in tail:
        return Outcome("memory", seconds, peak, tail)
    if code == 70:
        return Outcome("traceback", seconds, peak, tail)
    return Outcome("crash", seconds, peak, f"exit {code}: {tail}")


def _peak_bytes(stderr: str) -> int:
    """The child's own peak resident set (VmHWM, kilobytes: unlike ru_maxrss it starts
    afresh at exec, not from the forking parent's size)."""
    for line in reversed(stderr.splitlines()):
        if line.startswith("PEAK "):
            return int(line[5:]) * 1024
    return 0
