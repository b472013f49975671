"""Jobs tests send to the inspector's worker processes (module-level, so they pickle), and a
spy on what the window asks of them."""

from __future__ import annotations

import os
import time
from pathlib import Path

from glyphscope.core.rules import Rules
from glyphscope.inspector.worker_child import worker_owner
from glyphscope.inspector.workers.analysis import CoreOwner


def analyse_failing_on(failing_index: int, index: int, rules: Rules):
    """The analysis worker's analyse, except that page `failing_index` raises."""
    if index == failing_index:
        raise ValueError("content stream exploded")
    return worker_owner(CoreOwner).analyse(index, rules)


def analyse_when_released(release: str, index: int, rules: Rules):
    """The analysis, once the file `release` exists (at most 10 s later)."""
    deadline = time.monotonic() + 10
    while not Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return worker_owner(CoreOwner).analyse(index, rules)


def view_when_released(release: str, index: int, rules: Rules):
    """The view model (analyse_view), once the file `release` exists (at most 10 s later)."""
    deadline = time.monotonic() + 10
    while not Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    return worker_owner(CoreOwner).analyse_view(index, rules)


def analyse_by_aborting(_index: int, _rules: Rules):
    """A library that aborts its process (pdfium on a decompression bomb)."""
    os.abort()


def abort_if_exists(flag: str) -> str:
    """A set-up job that works until the file `flag` appears, then aborts its worker."""
    if Path(flag).exists():
        os.abort()
    return "opened"


def sleep_forever(*_args) -> None:
    time.sleep(3600)


def allocate(size: int) -> int:
    """More memory than the worker's address-space cap allows."""
    return len(bytearray(size))


def fail(_value) -> None:
    raise RuntimeError("a QA job failed")


def echo(value):
    return value


def pid() -> int:
    return os.getpid()


def record_submissions(worker, kind: str) -> list:
    """The first argument of every `kind` job submitted to `worker` from now on."""
    seen: list = []
    submit = worker.submit

    def spy(job_kind, job, *args, **options):
        if job_kind == kind:
            seen.append(args[0])
        return submit(job_kind, job, *args, **options)

    worker.submit = spy
    return seen


def abort_when_released(release: str, _index: int, _rules: Rules):
    """Aborts its worker once the file `release` exists (at most 10 s later)."""
    deadline = time.monotonic() + 10
    while not Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    os.abort()


def view_failing(_index: int, _rules: Rules):
    """An analysis whose first part (the view model) raises."""
    raise ValueError("content stream exploded")


def analyse_leaving_mark(mark: str, index: int, rules: Rules):
    """The analysis, leaving the file `mark`-`index` behind to say it ran."""
    Path(f"{mark}-{index}").touch()
    return worker_owner(CoreOwner).analyse(index, rules)


def timed_sleep(seconds: float) -> str:
    """Sleeps inside a step it times (worker_child.timed_step)."""
    from glyphscope.inspector.worker_child import timed_step

    with timed_step("sleeping"):
        time.sleep(seconds)
    return "slept"
