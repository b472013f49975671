"""Start-up of the text path: what `glyphscope-extract --mode text` imports, and what it costs.

    python3 tests/bench/bench_startup.py [--engine NAME=PYTHON ...] [--runs 9] [--pdf FILE]

Per engine (a venv's python; default this one), interleaved run by run: a fresh interpreter
with `-X importtime` imports `glyphscope.core.cli` ("import") and then also runs it on one file
in text mode ("text run", by default assets/sample.pdf, output to /dev/null), and the venv's
`glyphscope-extract` console script does the same ("console script": what a shell user runs,
the process ended by the script itself); printed are the medians of the runs, in ms: the total
import time (the sum of every module's own time) and each big package's share (its modules'
own times), plus the wall time and the CPU time (user + sys) of the same commands without
-X importtime beside `python -c pass`. "import + numpy" is what the CLI's start-up becomes
once the text path needs numpy on every page (the columnar engine). Importing inflates under
load: compare the engines of one run, not runs on different days.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from bench_text import bench_environment

ROOT = Path(__file__).resolve().parents[2]
GROUPS = ("pikepdf", "numpy", "fontTools", "bidi", "glyphscope")
_LINE = re.compile(r"import time:\s+(\d+) \|\s+\d+ \| *(\S+)")


def _code(pdf: Path | None) -> str:
    code = "import glyphscope.core.cli as cli"
    if pdf is not None:
        code += f"; cli.main(['--mode', 'text', '-o', {os.devnull!r}, {str(pdf)!r}])"
    return code


def _shares(stderr: str) -> Counter:
    """Own import time per group in µs ("other" for the standard library and the rest)."""
    shares: Counter = Counter()
    for own, module in _LINE.findall(stderr):
        top = module.split(".")[0]
        shares[top if top in GROUPS else "other"] += int(own)
    return shares


def _environment() -> dict[str, str]:
    return {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONPROFILEIMPORTTIME")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=PYTHON")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--pdf", type=Path, default=ROOT / "assets" / "sample.pdf")
    args = parser.parse_args()
    engines = {}
    for spec in args.engine:
        name, _, python = spec.partition("=")
        engines[name] = os.path.abspath(python)  # a venv's python: symlinks kept
    engines = engines or {"this": sys.executable}
    pdf = str(args.pdf.resolve())

    def cases(python: str) -> dict[str, list[str]]:
        """Each case's command after the interpreter's own options."""
        script = str(Path(python).parent / "glyphscope-extract")
        return {
            "import": ["-c", _code(None)],
            "import + numpy": ["-c", _code(None) + "; import numpy"],
            "text run": ["-c", _code(args.pdf.resolve())],
            "console script": [script, "--mode", "text", "-o", os.devnull, pdf],
        }

    shares: dict[tuple[str, str], list[Counter]] = {}
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    env, cwd = bench_environment(), ROOT.parent  # not the worktree: no shadowing
    for python in engines.values():
        for command in cases(python).values():  # warm-up: bytecode written, outside the timing
            subprocess.run([python, *command], env=env, cwd=cwd, check=True)
    for _ in range(args.runs):
        for name, python in engines.items():
            for case, command in {**cases(python), "python -c pass": ["-c", "pass"]}.items():
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run([python, *command], env=env, cwd=cwd, check=True)
                walls.setdefault((name, case), []).append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                cpus.setdefault((name, case), []).append(cpu)
                if case != "python -c pass":
                    timed = [python, "-X", "importtime", *command]
                    done = subprocess.run(timed, env=env, cwd=cwd, capture_output=True, text=True)
                    shares.setdefault((name, case), []).append(_shares(done.stderr))
    columns = ["total", *GROUPS, "other"]
    print(f"\nmedian of {args.runs} runs, ms (own import time per package; -X importtime)\n")
    print("| engine | case | " + " | ".join(columns) + " | wall s | CPU s |")
    print("|---|---|" + "---|" * (len(columns) + 2))
    for (name, case), runs in shares.items():
        cells = [statistics.median(sum(r.values()) for r in runs) / 1000]
        cells += [statistics.median(r[group] for r in runs) / 1000 for group in columns[1:]]
        wall = statistics.median(walls[(name, case)])
        cpu = statistics.median(cpus[(name, case)])
        print(
            f"| {name} | {case} | "
            + " | ".join(f"{c:.0f}" for c in cells)
            + f" | {wall:.3f} | {cpu:.3f} |"
        )
    for name in engines:
        key = (name, "python -c pass")
        print(
            f"\n{name}: python -c pass {statistics.median(walls[key]):.3f} s wall, "
            f"{statistics.median(cpus[key]):.3f} s CPU"
        )


if __name__ == "__main__":
    main()
