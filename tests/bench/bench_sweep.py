"""Sweep throughput on the corpus: pages per second with 1 and 2 local workers and through a
2-worker Dask LocalCluster, beside pdftotext in a loop and pdfminer.six in a process pool.

    python3 tests/bench/bench_sweep.py [--files N] [--max-pages P] [--all] [--timeout S]
                                       [--pdfium] [--json FILE]

- Files: corpus files with at most --max-pages pages (default 40), the first --files (default
  60) by name; --all takes every file. Encrypted files get their password from index.csv.
- Ours: `glyphscope.sweep.run.sweep` into a fresh SQLite file per configuration, every mode
  stored, pdfium agreement off unless --pdfium (the peers do not compute it either). Pages per
  second = pages recorded / wall time, worker start-up included (it is paid once per sweep).
  The SQLite writer's share is the main thread's time inside `ResultStore.record`.
- pdftotext (poppler) once per file in a loop, `-layout` off, output discarded.
- pdfminer.six `high_level.extract_text` per file in a `ProcessPoolExecutor` of 1 and 2
  processes (the same pool size as ours; per file, so a slow file holds one process).
Wall clock on a shared machine: run it alone and compare ratios, not absolute figures.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from glyphscope.core.rules import Rules  # noqa: E402
from glyphscope.sweep.jobs import SweepSettings  # noqa: E402
from glyphscope.sweep.local import LocalBackend  # noqa: E402
from glyphscope.sweep.run import sweep  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402


def chosen_files(args: argparse.Namespace) -> list:
    files = sorted(corpus_files(), key=lambda f: f.name)
    if not args.all:
        files = [f for f in files if 0 < int(f.row.get("pages") or 0) <= args.max_pages]
        files = files[: args.files]
    return files


def run_ours(label: str, files, backend, settings, passwords) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.sqlite"
        started = time.perf_counter()
        outcome = sweep(
            [f.path for f in files], database, settings, backend, passwords=passwords, quiet=True
        )
        wall = time.perf_counter() - started
    tally = outcome.tally
    return {
        "tool": label,
        "documents": tally.documents,
        "failed": tally.failures,
        "pages": tally.pages,
        "seconds": round(wall, 2),
        "pages_per_second": round(tally.pages / wall, 2),
        "writer_share": round(tally.writer_seconds / wall, 4),
    }


def run_pdftotext(files, pages: int, timeout: float) -> dict | None:
    if shutil.which("pdftotext") is None:
        return None
    started = time.perf_counter()
    failed = 0
    for f in files:
        command = ["pdftotext", "-q", str(f.path), "-"]
        if f.password:
            command[2:2] = ["-upw", f.password]
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout)
            failed += done.returncode != 0
        except subprocess.TimeoutExpired:
            failed += 1
    wall = time.perf_counter() - started
    return _peer("pdftotext (loop)", len(files), failed, pages, wall)


def _pdfminer_file(path: str, password: str) -> bool:
    from pdfminer.high_level import extract_text

    try:
        extract_text(path, password=password)
        return True
    except Exception:  # a peer's failure is counted, never fatal to the benchmark
        return False


def run_pdfminer(files, pages: int, jobs: int) -> dict | None:
    try:
        import pdfminer  # noqa: F401
    except ImportError:
        return None
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        results = list(pool.map(_pdfminer_file, [str(f.path) for f in files],
                                [f.password or "" for f in files]))  # fmt: skip
    wall = time.perf_counter() - started
    return _peer(f"pdfminer.six ×{jobs} processes", len(files), results.count(False), pages, wall)


def _peer(label: str, documents: int, failed: int, pages: int, wall: float) -> dict:
    return {
        "tool": label,
        "documents": documents,
        "failed": failed,
        "pages": pages,
        "seconds": round(wall, 2),
        "pages_per_second": round(pages / wall, 2),
        "writer_share": None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=60)
    parser.add_argument("--max-pages", type=int, default=40)
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--pdfium", action="store_true", help="agreement with pdfium on")
    parser.add_argument("--skip", action="append", default=[], help="skip a configuration")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    files = chosen_files(args)
    if not files:
        print("no corpus files (../shared/corpus)", file=sys.stderr)
        return 1
    passwords = tuple(sorted({f.password for f in files if f.password}))
    settings = SweepSettings(Rules().to_json(), pdfium=args.pdfium)
    print(f"{len(files)} files", file=sys.stderr)
    results = []
    for jobs in (1, 2):
        if f"ours{jobs}" in args.skip:
            continue
        backend = LocalBackend(jobs, args.timeout, 4096)
        results.append(run_ours(f"glyphscope-sweep --jobs {jobs}", files, backend, settings,
                                passwords))  # fmt: skip
        print(results[-1], file=sys.stderr)
    pages = max(r["pages"] for r in results) if results else 0
    if "dask" not in args.skip:
        try:
            from distributed import LocalCluster

            from glyphscope.sweep.dask_backend import DaskBackend
        except ImportError:
            print("distributed not installed: no LocalCluster figure", file=sys.stderr)
        else:
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                              host="127.0.0.1", dashboard_address=None,
                              silence_logs=40) as cluster:  # fmt: skip
                backend = DaskBackend(cluster.scheduler_address, args.timeout, 4096)
                results.append(run_ours("glyphscope-sweep LocalCluster ×2", files, backend,
                                        settings, passwords))  # fmt: skip
                print(results[-1], file=sys.stderr)
    for peer in (
        run_pdftotext(files, pages, args.timeout),
        run_pdfminer(files, pages, 1) if "pdfminer1" not in args.skip else None,
        run_pdfminer(files, pages, 2) if "pdfminer2" not in args.skip else None,
    ):
        if peer is not None:
            results.append(peer)
            print(peer, file=sys.stderr)
    print(f"{'tool':36} {'docs':>5} {'failed':>6} {'pages':>6} {'s':>8} {'pages/s':>8} writer")
    for r in results:
        writer = "" if r["writer_share"] is None else f"{r['writer_share']:.1%}"
        print(f"{r['tool']:36} {r['documents']:>5} {r['failed']:>6} {r['pages']:>6} "
              f"{r['seconds']:>8} {r['pages_per_second']:>8} {writer}")  # fmt: skip
    by_tool = {r["tool"]: r["pages_per_second"] for r in results}
    one, two = by_tool.get("glyphscope-sweep --jobs 1"), by_tool.get("glyphscope-sweep --jobs 2")
    dask = by_tool.get("glyphscope-sweep LocalCluster ×2")
    if one and two:
        print(f"2 workers / 1 worker: {two / one:.2f}×")
    if two and dask:
        print(f"LocalCluster / local pool (2 workers): {dask / two:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
