"""The long fuzz campaign: `python -m tests.fuzz --minutes N [--seed S] [--max-inputs K]`.

Each input is a mutation of a seed (tests/fuzz/mutate.py) or a hostile kind at full size,
run through every CLI mode (the pdfium pixel test of `hidden` included) one after the other
in a warm worker process capped at 1 GB of address space and 30 s. A failing input
(traceback, crash, timeout, MemoryError) is minimised by deleting chunks while it still fails
the same way, and saved in tests/fuzz/regressions/, which the default test run replays.
A timeout is run again alone at the end, in a fresh worker with nothing else running, to tell
a machine under load from a slow input. The table printed at the end: runs, clean (read, or
refused with a typed error), errors by kind, slowest inputs, peak memory.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from glyphscope.core import cli
from tests import hostile, hostile_pdfs
from tests.fuzz import mutate
from tests.fuzz.bounded import GIGABYTE, Outcome
from tests.fuzz.worker import Worker

REGRESSIONS = Path(__file__).resolve().parent / "regressions"
# The inspector's bombs (images pdfium would decode to gigabytes, streams it would read whole)
# and a real one from the corpus.
INSPECTOR_BOMBS: dict[str, Callable[[Path], Path]] = {
    "flate_image_bomb": hostile_pdfs.flate_bomb_pdf,
    "run_length_image_bomb": hostile_pdfs.run_length_bomb_pdf,
    "huge_page": hostile_pdfs.huge_page_pdf,
    **hostile_pdfs.PDFIUM_BOMBS,
}
RUN_LENGTH_BOMB = mutate.CORPUS / "pdfpig__ghostscript-691770-0.pdf"
TIMEOUT = 30.0
MINIMISE_TRIES = 48


def _built_to_bytes(build: Callable[[Path], Path]) -> Callable[[], bytes]:
    def built() -> bytes:
        with tempfile.TemporaryDirectory() as folder:
            return build(Path(folder) / "built.pdf").read_bytes()

    return built


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
    minutes: float,
    seed: int,
    max_inputs: int,
    modes: tuple[str, ...],
    workers: int,
    hostile_first: bool = True,
) -> None:
    """Hostile kinds first (unless not `hostile_first`: a second campaign beside a first one),
    then mutations, shared out to `workers` child processes."""
    rng = random.Random(seed)
    seeds = mutate.built_seeds() + mutate.corpus_seeds()
    kinds = [(name, build) for name, build in hostile.KINDS.items() if name != "200000_glyphs"]
    kinds += [(name, _built_to_bytes(build)) for name, build in INSPECTOR_BOMBS.items()]
    if RUN_LENGTH_BOMB.is_file():
        kinds.append((RUN_LENGTH_BOMB.name, RUN_LENGTH_BOMB.read_bytes))
    if not hostile_first:
        kinds = []
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

    inputs: dict[str, bytes] = {}  # only the inputs that timed out, for the recheck

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
            if outcome.kind == "timeout":
                inputs[label] = data
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
        rechecks = recheck_timeouts(outcomes, inputs, Path(folder), modes)
    report(outcomes, saved, rechecks)


def recheck_timeouts(
    outcomes: list[tuple[str, Outcome]],
    inputs: dict[str, bytes],
    folder: Path,
    modes: tuple[str, ...],
) -> list[tuple[str, Outcome]]:
    """Each input that timed out, run again alone in a fresh worker (the campaign's workers
    have stopped): one that now finishes was slowed by the machine's load, not by itself."""
    rechecks = []
    scratch = folder / "recheck.pdf"
    for label, outcome in outcomes:
        if outcome.kind != "timeout":
            continue
        scratch.write_bytes(inputs[label])
        worker = Worker(GIGABYTE)
        rechecks.append((label, worker.run(str(scratch), modes, TIMEOUT)))
        worker.stop()
    return rechecks


def report(
    outcomes: list[tuple[str, Outcome]],
    saved: list[Path],
    rechecks: list[tuple[str, Outcome]],
) -> None:
    kinds = Counter(outcome.kind for _, outcome in outcomes)
    read = sum(1 for _, o in outcomes if o.kind == "clean" and not o.refused)
    refused = Counter(o.refused for _, o in outcomes if o.kind == "clean" and o.refused)
    slowest = sorted(outcomes, key=lambda item: -item[1].slowest_mode[1])[:5]
    peaks = sorted(outcome.peak_bytes for _, outcome in outcomes)
    peak = peaks[-1] if peaks else 0
    median = peaks[len(peaks) // 2] if peaks else 0
    print(
        "\n| runs | clean | of which read | of which refused (typed error) | traceback | crash "
        "| timeout | memory | median / peak memory per input |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {len(outcomes)} | {kinds['clean']} | {read} | {sum(refused.values())} "
        f"| {kinds['traceback']} | {kinds['crash']} | {kinds['timeout']} | {kinds['memory']} "
        f"| {median / 2**20:.0f} MB / {peak / 2**20:.0f} MB |"
    )
    if refused:
        print("\ntyped errors: " + ", ".join(f"{name} {n}" for name, n in refused.most_common()))
    print("\nslowest single modes (the time limit is per mode; all modes of the input):")
    for label, outcome in slowest:
        mode, seconds = outcome.slowest_mode
        print(f"  {seconds:6.2f} s {mode:9}  {label}  ({outcome.kind}, {outcome.seconds:.1f} s)")
    if rechecks:
        print("\ntimeouts run again alone:")
        for label, outcome in rechecks:
            print(f"  {label}: {outcome.kind} in {outcome.seconds:.1f} s")
    hostile_rows = [(label, o) for label, o in outcomes if label.startswith("hostile:")]
    if hostile_rows:
        print("\n| hostile kind | outcome | seconds, all modes | slowest mode | peak RSS |")
        print("|---|---|---:|---|---:|")
        for label, outcome in hostile_rows:
            mode, seconds = outcome.slowest_mode
            print(
                f"| {label[8:]} | {outcome.kind} {outcome.refused} | {outcome.seconds:.1f} "
                f"| {mode} {seconds:.1f} s | {outcome.peak_bytes / 2**20:.0f} MB |"
            )
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
        default=",".join(cli.MODES),
        help="CLI modes per input, comma-separated (default: every mode, one after the other)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--no-hostile", action="store_true", help="mutations only (the hostile kinds are not run)"
    )
    args = parser.parse_args()
    modes = tuple(args.modes.split(","))
    campaign(args.minutes, args.seed, args.max_inputs, modes, args.workers, not args.no_hostile)


if __name__ == "__main__":
    main()
