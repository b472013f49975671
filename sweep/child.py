"""The worker process of `isolation.IsolatedWorker`: read a job, run it, write the result.

Started as `python -m glyphscope.sweep.child [--memory-limit MB]`. The protocol owns the
original stdout; anything a library prints goes to stderr instead, so it cannot corrupt a frame.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time

from glyphscope.core.contained import cap_address_space
from glyphscope.sweep.extract import run_document
from glyphscope.sweep.isolation import read_frame, write_frame
from glyphscope.sweep.jobs import MEMORY, DocumentJob, DocumentResult


def main() -> int:
    parser = argparse.ArgumentParser(prog="glyphscope.sweep.child")
    parser.add_argument("--memory-limit", type=int, default=0, metavar="MB")
    args = parser.parse_args()
    # Ctrl+C reaches the whole process group; the sweep decides what happens to its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    protocol_in = sys.stdin.buffer
    if args.memory_limit:
        cap_address_space(args.memory_limit * 1024 * 1024)
    while True:
        job = read_frame(protocol_in)
        if job is None:
            return 0
        assert isinstance(job, DocumentJob)
        try:
            if job.hook:
                misbehave(job.hook)
            result = run_document(job)
        except MemoryError:
            result = DocumentResult(MEMORY, "MemoryError inside the memory limit")
        write_frame(protocol_out, result)


def die_with_parent() -> None:
    """A sweep killed outright (SIGKILL) cannot stop its workers; one stuck in a document would
    never read the closed stdin. Linux's PR_SET_PDEATHSIG ends it with its parent instead."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pr_set_pdeathsig = 1
    libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:  # the parent died before the call: nobody is waiting for us
        os._exit(0)


def misbehave(hook: str) -> None:
    """The failures a sweep must survive, on demand (tests only)."""
    if hook == "abort":
        os.abort()
    if hook == "segfault":
        import ctypes

        ctypes.string_at(0)  # reads address 0: SIGSEGV in native code
    if hook == "exit":
        os._exit(3)
    if hook == "hang":
        while True:
            time.sleep(60)
    if hook == "memory":
        import numpy

        hoard = []
        while True:  # until RLIMIT_AS refuses: MemoryError, reported as the "memory" outcome
            # numpy.empty reserves address space without touching it: fast, however loaded
            # the machine is.
            hoard.append(numpy.empty(256 * 1024 * 1024, dtype=numpy.uint8))


if __name__ == "__main__":
    sys.exit(main())
