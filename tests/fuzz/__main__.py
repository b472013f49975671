"""The long fuzz campaign: `python -m tests.fuzz --minutes N [--seed S] [--max-inputs K]`.

Each input is a mutation of a seed (tests/fuzz/mutate.py) or a hostile kind at full size,
run through every CLI mode in a worker capped at 1 GB of address space and 30 s. A failing
input (traceback, crash, timeout, MemoryError) is minimised by deleting chunks while it still
fails the same way, and saved in tests/fuzz/regressions/, which the default test run replays.
The table printed at the end: runs, clean, errors by kind, slowest inputs, peak memory.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from tests import hostile
from tests.fuzz import mutate
from tests.fuzz.bounded import GIGABYTE, Outcome
from tests.fuzz.worker import Worker

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
TIMEOUT = 30.0
MINIMISE_TRIES = 48


def minimise(
    data: bytes, kind: str, worker: Worker, scratch: Path, modes: tuple[str, ...]
) -> bytes:
    """Delete ever smaller chunks while the input still fails with the same kind (a bounded
    number of tries, and none for a timeout, where every try costs the whole time limit)."""
    chunk, tries = max(1, len(data) // 2), 0 if kind != "timeout" else MINIMISE_TRIES
    while chunk >= 1 and tries < MINIMISE_TRIES:
        position, shrunk = 0, False
        while position < len(data) and tries < MINIMISE_TRIES:
            candidate = data[:position] + data[position + chunk :]
            scratch.write_bytes(candidate)
            tries += 1
            if worker.run(str(scratch), modes, TIMEOUT).kind == kind:
                data, shrunk = candidate, True
            else:
                position += chunk
        if not shrunk:
            chunk //= 2
    return data


def save_regression(data: bytes, kind: str) -> Path:
    REGRESSIONS.mkdir(exist_ok=True)
    path = REGRESSIONS / f"{kind}-{hashlib.sha1(data).hexdigest()[:12]}.pdf"
    path.write_bytes(data)
    return path


def campaign(
    minutes: float, seed: int, max_inputs: int, modes: tuple[str, ...], workers: int
) -> None:
    """Hostile kinds first, then mutations, shared out to `workers` child processes."""
    rng = random.Random(seed)
    seeds = mutate.built_seeds() + mutate.corpus_seeds()
    kinds = [(name, build) for name, build in hostile.KINDS.items() if name != "200000_glyphs"]
    outcomes: list[tuple[str, Outcome]] = []
    saved: list[Path] = []
    deadline = time.monotonic() + minutes * 60
    lock = threading.Lock()
    counter = iter(range(max_inputs))

    def next_input() -> tuple[str, bytes] | None:
        with lock:
            index = next(counter, None)
            if index is None or time.monotonic() > deadline:
                return None
            if index < len(kinds):
                return f"hostile:{kinds[index][0]}", kinds[index][1]()
            return f"mutation:{index}", mutate.mutate(rng.choice(seeds), rng)

    def drive(folder: Path) -> None:
        worker = Worker(GIGABYTE)
        scratch, minimising = folder / "input.pdf", folder / "minimise.pdf"
        while (item := next_input()) is not None:
            label, data = item
            scratch.write_bytes(data)
            outcome = worker.run(str(scratch), modes, TIMEOUT)
            with lock:
                outcomes.append((label, outcome))
                if len(outcomes) % 250 == 0:
                    print(f"{len(outcomes)} inputs", flush=True)
            if outcome.kind != "clean":
                print(f"{label}: {outcome.kind} {outcome.detail[:300]!r}", flush=True)
                small = minimise(data, outcome.kind, worker, minimising, modes)
                with lock:
                    saved.append(save_regression(small, outcome.kind))
        worker.stop()

    with tempfile.TemporaryDirectory() as folder:
        threads = []
        for number in range(workers):
            own = Path(folder) / str(number)
            own.mkdir()
            threads.append(threading.Thread(target=drive, args=(own,)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    report(outcomes, saved)


def report(outcomes: list[tuple[str, Outcome]], saved: list[Path]) -> None:
    kinds = Counter(outcome.kind for _, outcome in outcomes)
    slowest = sorted(outcomes, key=lambda item: -item[1].seconds)[:5]
    peak = max((outcome.peak_bytes for _, outcome in outcomes), default=0)
    print("\n| runs | clean | traceback | crash | timeout | memory | peak memory |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {len(outcomes)} | {kinds['clean']} | {kinds['traceback']} | {kinds['crash']} "
        f"| {kinds['timeout']} | {kinds['memory']} | {peak / 2**20:.0f} MB |"
    )
    print("\nslowest:")
    for label, outcome in slowest:
        print(f"  {outcome.seconds:6.2f} s  {label}  ({outcome.kind})")
    hostile_rows = [(label, o) for label, o in outcomes if label.startswith("hostile:")]
    if hostile_rows:
        print("\n| hostile kind | outcome | seconds | worker peak RSS |")
        print("|---|---|---:|---:|")
        for label, outcome in hostile_rows:
            peak_mb = outcome.peak_bytes / 2**20
            print(f"| {label[8:]} | {outcome.kind} | {outcome.seconds:.1f} | {peak_mb:.0f} MB |")
    for path in saved:
        print(f"saved {path}")


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-inputs", type=int, default=10**9)
    parser.add_argument(
        "--modes",
        default="explain",
        help="CLI modes per input, comma-separated (explain runs every stage of the analysis)",
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    modes = tuple(args.modes.split(","))
    campaign(args.minutes, args.seed, args.max_inputs, modes, args.workers)


if __name__ == "__main__":
    main()
