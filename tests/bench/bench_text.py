"""Text extraction speed beside the peers, in one process, interleaved (issue 9's table).

    python3 tests/bench/bench_text.py [--set eight|corpus|both] [--rounds 3] [--timeout 120]
                                      [--tools a,b,...] [--whole-process] [--json FILE]
                                      [--engine NAME=PYTHON ...] [--max-pages N]
                                      [--memory-limit GIB]

Per file and tool, the whole file is read in process (open included) and its time divided by
its page count; the rounds are interleaved (round r runs every file with every tool, the tool
order rotated per file) and each (file, tool) keeps the median of its rounds. Printed per tool:
the median over files of ms/page, the total ms/page (sum of times / sum of pages), and both as
a ratio against pdfminer.six. Only files every selected tool finished enter the table; the
failures (error, timeout, memory) are listed per file and tool.

"In process" means in the tool's own worker process (this file in worker mode, one per tool,
started and its tool imported before any timing): the time is taken there around the same
call, so the figures are those of an in-process call, while a peer's runaway allocation in C
(where SIGALRM cannot reach) meets the worker's address-space cap (`--memory-limit`, 4 GiB)
instead of the machine's OOM killer, and a worker silent past the timeout is killed and
replaced.

Tools: `text` (Glyphscope `page_text(mode="text")`, the CLI's default), `full` (Glyphscope
`Page.analysis().to_json()`: visible, reading, layout, columns, structure and the decision
log, `json.dumps` of it), `fulltext` (the same analysis and the same JSON characters by
`to_json_text()`, written from the columns; an engine without it uses `json.dumps(to_json())`),
`pdfminer` (`extract_text`), `pdfplumber` (`page.chars`), `pymupdf` (`get_text`),
`pdfium` (pypdfium2 `get_text_range`), `pdftotext` (poppler, a subprocess per file, start-up
included) and `qpdf` (`pikepdf.parse_content_stream` alone over every page stream and every
form stream the pages reach, each once, operands touched).

`--engine NAME=PYTHON` (repeatable) measures the Glyphscope tools of another venv's engine, e.g.
`--engine before=/work/baseline/.venv/bin/python --engine after=.venv/bin/python` for a
before/after pair under the same load: each engine's `text`, `full` and `fulltext` run in
worker processes of that python, listed as `text@NAME`, `full@NAME` and `fulltext@NAME` and
interleaved with the peers, whose workers run this python.

`--whole-process` adds one process per file (how a shell user runs it) for
`glyphscope-extract --mode text` (each engine's, with --engine), pdfminer.six's `pdf2txt.py`
and `pdftotext`, and prints the import time of the text path.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import select
import shutil
import signal
import statistics
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.corpus import CORPUS, corpus_files  # noqa: E402

EIGHT = (
    "pdfjs__tracemonkey.pdf",
    "pdfjs__pdkids.pdf",
    "pdfjs__tamreview.pdf",
    "pdfplumber__ca-warn-report.pdf",
    "pdfplumber__federal-register-2020-17221.pdf",
    "pdfplumber__issue-67-example.pdf",
    "pdfpig__capas.pdf",
    "pypdf__geobase_nhnc1_data_model_uml_en.pdf",
)


def _text(path: Path, data: bytes, password: str | None) -> None:
    import glyphscope
    from glyphscope.core.output import page_text
    from glyphscope.core.rules import Rules

    rules = Rules()
    for page in glyphscope.open(data, password=password).pages:
        page_text(page, "text", rules)


def _full(path: Path, data: bytes, password: str | None) -> None:
    import glyphscope
    from glyphscope.core.rules import Rules

    rules = Rules()
    for page in glyphscope.open(data, password=password).pages:
        json.dumps(page.analysis(rules).to_json())


def _full_text(path: Path, data: bytes, password: str | None) -> None:
    import glyphscope
    from glyphscope.core.rules import Rules

    rules = Rules()
    for page in glyphscope.open(data, password=password).pages:
        analysis = page.analysis(rules)
        if hasattr(analysis, "to_json_text"):  # the log's text written from the columns
            analysis.to_json_text()
        else:  # an engine before it: the same characters by json
            json.dumps(analysis.to_json())


def _pdfminer(path: Path, data: bytes, password: str | None) -> None:
    from pdfminer.high_level import extract_text

    extract_text(io.BytesIO(data), password=password or "")


def _pdfplumber(path: Path, data: bytes, password: str | None) -> None:
    import pdfplumber

    with pdfplumber.open(io.BytesIO(data), password=password or "") as pdf:
        for page in pdf.pages:
            len(page.chars)
            page.close()


def _pymupdf(path: Path, data: bytes, password: str | None) -> None:
    import pymupdf

    document = pymupdf.open(stream=data, filetype="pdf")
    if password:
        document.authenticate(password)
    for page in document:
        page.get_text()
    document.close()


def _pdfium(path: Path, data: bytes, password: str | None) -> None:
    import pypdfium2

    document = pypdfium2.PdfDocument(data, password=password)
    for page in document:
        page.get_textpage().get_text_range()
    document.close()


def _pdftotext(path: Path, data: bytes, password: str | None) -> None:
    command = ["pdftotext", *(["-upw", password] if password else []), str(path), "-"]
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def _qpdf(path: Path, data: bytes, password: str | None) -> None:
    import pikepdf

    with pikepdf.open(io.BytesIO(data), password=password or "") as pdf:
        seen: set[tuple[int, int]] = set()

        def tokenise(stream_owner: object, resources: object) -> None:
            for instruction in pikepdf.parse_content_stream(stream_owner):
                instruction.operands  # noqa: B018 - touch operands as the interpreter does
            xobjects = (
                resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
            )
            if not isinstance(xobjects, pikepdf.Dictionary):
                return
            for _, xobject in xobjects.items():
                if (
                    isinstance(xobject, pikepdf.Stream)
                    and xobject.get("/Subtype") == "/Form"
                    and xobject.objgen not in seen
                ):
                    seen.add(xobject.objgen)
                    try:
                        tokenise(xobject, xobject.get("/Resources", resources))
                    except pikepdf.PdfError:
                        pass

        for page in pdf.pages:
            try:
                tokenise(page, page.obj.get("/Resources"))
            except pikepdf.PdfError:
                pass


TOOLS: dict[str, Callable[[Path, bytes, str | None], None]] = {
    "text": _text,
    "full": _full,
    "fulltext": _full_text,
    "pdfminer": _pdfminer,
    "pdfplumber": _pdfplumber,
    "pymupdf": _pymupdf,
    "pdfium": _pdfium,
    "pdftotext": _pdftotext,
    "qpdf": _qpdf,
}
LABELS = {
    "text": "Glyphscope text mode",
    "full": "Glyphscope full analysis (all modes + log)",
    "fulltext": "Glyphscope full analysis, the log's text from the columns",
    "pdfminer": "pdfminer.six extract_text",
    "pdfplumber": "pdfplumber page.chars",
    "pymupdf": "PyMuPDF get_text",
    "pdfium": "pypdfium2 get_text_range",
    "pdftotext": "pdftotext (subprocess per file)",
    "qpdf": "pikepdf.parse_content_stream alone (page + form streams)",
}


GLYPHSCOPE_TOOLS = ("text", "full", "fulltext")
# Bytecode of every engine's modules, written here rather than beside their sources: a venv
# whose checkout must stay untouched (or a shell with PYTHONDONTWRITEBYTECODE) would otherwise
# compile every module in every process it starts, and start-up would measure the compiler.
PYCACHE = ROOT / "tests" / "bench" / "out" / "pycache"


def bench_environment() -> dict[str, str]:
    """The environment of every process the benchmarks start: no PYTHONPATH (a venv's engine,
    not this worktree's folders), bytecode cached under PYCACHE."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONPROFILEIMPORTTIME")
    }
    environment["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return environment


class _Timeout(Exception):
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise _Timeout


# The modules each tool imports, loaded when its worker starts, so that neither the start-up
# nor the first import is timed (the first file of the first round paid them in process).
IMPORTS = {
    "text": ("glyphscope", "glyphscope.core.output", "glyphscope.core.rules"),
    "full": ("glyphscope", "glyphscope.core.rules"),
    "fulltext": ("glyphscope", "glyphscope.core.rules"),
    "pdfminer": ("pdfminer.high_level",),
    "pdfplumber": ("pdfplumber",),
    "pymupdf": ("pymupdf",),
    "pdfium": ("pypdfium2",),
    "pdftotext": (),
    "qpdf": ("pikepdf",),
}
GIB = 1 << 30
# A worker that holds more than this after a call is replaced before the next one: a peer's
# freed heap is rarely given back to the system, and eight idle workers must fit in memory.
RECYCLE_RESIDENT = 1 * GIB
# How long past the timeout a worker may stay silent (SIGALRM did not reach it: stuck in C)
# before it is killed.
GRACE_SECONDS = 10


def _limit_memory(limit: int) -> None:
    """Cap this process's address space: an allocation past it fails (MemoryError, or the
    peer's C library gives up) instead of the kernel's OOM killer ending the benchmark."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _resident() -> int:
    """This process's resident set in bytes (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


class _Worker:
    """One tool timed in a worker process of a python (this file in worker mode, `--worker`),
    its address space capped at `memory_limit`: one request a line (file, password, timeout
    as JSON), one answer a line (seconds or the failure, and the worker's resident size). The
    timing is taken in the worker around the same call as in process, after the worker has
    started and imported the tool. A worker that does not answer within the timeout (stuck in
    C code, where SIGALRM cannot reach it) is killed; one that died, ran out of memory or grew
    past RECYCLE_RESIDENT is replaced before its next file."""

    def __init__(self, tool: str, python: Path, memory_limit: int) -> None:
        self.tool, self.python, self.memory_limit = tool, python, memory_limit
        self.process: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            command = [str(self.python), str(Path(__file__).resolve()), "--worker", self.tool]
            self.process = subprocess.Popen(
                [*command, "--memory-limit", repr(self.memory_limit / GIB)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,  # the peers' warnings; failures come back as answers
                text=True,
                cwd=ROOT.parent,  # not the worktree: its folders must not shadow the venv's
                env=bench_environment(),
            )
            assert self.process.stdout is not None
            self.process.stdout.readline()  # "ready": started and the tool imported
        return self.process

    def timed(self, path: Path, password: str | None, timeout: int) -> tuple[float | None, str]:
        """Seconds the tool took on the file, or None and why it failed."""
        process = self._start()
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps([str(path), password, timeout]) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            return None, self._ended()
        ready, _, _ = select.select([process.stdout], [], [], timeout + GRACE_SECONDS)
        if not ready:
            self.close()
            return None, f"killed after {timeout + GRACE_SECONDS} s"
        line = process.stdout.readline()
        if not line:
            return None, self._ended()
        answer = json.loads(line)
        if answer["failure"] == "MemoryError" or answer["resident"] > RECYCLE_RESIDENT:
            self.close()
        return answer["seconds"], answer["failure"]

    def _ended(self) -> str:
        assert self.process is not None
        code = self.process.wait()
        self.process = None
        if code < 0:
            return f"worker killed by {signal.Signals(-code).name}"
        return f"worker exited with {code}"

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def _worker(tool: str, memory_limit: int) -> None:
    """The worker side of _Worker: one tool of this python, timed as in process."""
    import importlib

    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _on_alarm)
    _limit_memory(memory_limit)
    for module in IMPORTS[tool]:
        importlib.import_module(module)
    print("ready", flush=True)
    for line in sys.stdin:
        path, password, timeout = json.loads(line)
        data = Path(path).read_bytes()
        seconds, failure = _timed(tool, Path(path), data, password, timeout)
        answer = {"seconds": seconds, "failure": failure, "resident": _resident()}
        print(json.dumps(answer), flush=True)


def _timed(
    tool: str, path: Path, data: bytes, password: str | None, timeout: int
) -> tuple[float | None, str]:
    signal.alarm(timeout)
    try:
        start = time.perf_counter()
        TOOLS[tool](path, data, password)
        return time.perf_counter() - start, ""
    except _Timeout:
        return None, f"timed out after {timeout} s"
    except MemoryError:
        return None, "MemoryError"
    except Exception as error:  # noqa: BLE001 - a peer failing on a file leaves the file out
        return None, f"{type(error).__name__}: {str(error)[:80]}"
    finally:
        signal.alarm(0)


def _files(which: str, max_pages: int | None) -> list[tuple[Path, str | None, int]]:
    rows = corpus_files()
    chosen = [f for f in rows if f.name in EIGHT] if which == "eight" else rows
    files = [(f.path, f.password, int(f.row.get("pages") or 0)) for f in chosen]
    if which == "corpus" and max_pages is not None:
        files = [(path, password, pages) for path, password, pages in files if pages <= max_pages]
    return files


def _measure(files, tools: list[str], rounds: int, timeout: int, workers: dict) -> dict:
    """Each (file, tool)'s seconds per round (None when the tool failed) and its failures."""
    times: dict[tuple[str, str], list[float | None]] = {}
    failures: dict[tuple[str, str], str] = {}
    for round_number in range(rounds):
        for position, (path, password, _) in enumerate(files):
            shift = (position + round_number) % len(tools)
            for tool in tools[shift:] + tools[:shift]:
                seconds, failure = workers[tool].timed(path, password, timeout)
                times.setdefault((path.name, tool), []).append(seconds)
                if failure:
                    failures[(path.name, tool)] = failure
        print(f"  round {round_number + 1}/{rounds} done", file=sys.stderr)
    return {"times": times, "failures": failures}


def _table(title: str, files, tools: list[str], measured: dict) -> dict:
    times, failures = measured["times"], measured["failures"]
    medians: dict[str, dict[str, float]] = {tool: {} for tool in tools}
    kept = []
    for path, _, pages in files:
        runs = {tool: times[(path.name, tool)] for tool in tools}
        if pages and all(None not in values for values in runs.values()):
            kept.append((path.name, pages))
            for tool, values in runs.items():
                medians[tool][path.name] = statistics.median(values)
    total_pages = sum(pages for _, pages in kept)
    print(f"\n## {title}: {len(kept)} of {len(files)} files, {total_pages} pages")
    if failures:
        print("\nleft out (a tool failed, timed out or ran out of memory on the file):")
        for (name, tool), failure in sorted(failures.items()):
            print(f"- {name}: {_label(tool)}: {failure}")
    summary = {}
    for tool in tools:
        per_page = [medians[tool][name] / pages * 1000 for name, pages in kept]
        total = sum(medians[tool].values()) / max(total_pages, 1) * 1000
        summary[tool] = {"median": statistics.median(per_page) if per_page else 0, "total": total}
    base = summary.get("pdfminer")
    print("\n| tool | median ms/page | total ms/page | vs pdfminer (median / total) |")
    print("|---|---|---|---|")
    for tool in sorted(tools, key=lambda t: summary[t]["total"]):
        row = summary[tool]
        ratio = ""
        if base and row["median"] and row["total"]:
            ratio = f"{base['median'] / row['median']:.2f}× / {base['total'] / row['total']:.2f}×"
        print(f"| {_label(tool)} | {row['median']:.1f} | {row['total']:.1f} | {ratio} |")
    qpdf = summary.get("qpdf")
    for tool in tools:
        if tool.partition("@")[0] == "text" and qpdf and qpdf["median"] and qpdf["total"]:
            print(
                f"\n{_label(tool)} / qpdf tokenizer: median "
                f"{summary[tool]['median'] / qpdf['median']:.2f}×, total "
                f"{summary[tool]['total'] / qpdf['total']:.2f}×"
            )
    return {
        "files": kept,
        "summary": summary,
        "medians": medians,
        "failures": [[name, tool, failure] for (name, tool), failure in failures.items()],
    }


def _label(tool: str) -> str:
    base, _, engine = tool.partition("@")
    return f"{LABELS[base]} [{engine}]" if engine else LABELS[base]


def _whole_process(files, rounds: int, extracts: dict[str, Path], memory_limit: int) -> None:
    python = sys.executable
    bin_dir = Path(python).parent
    commands = {
        f"glyphscope-extract --mode text{f' [{name}]' if name else ''}": (
            lambda p, extract=extract: [str(extract), "--mode", "text", str(p)]
        )
        for name, extract in extracts.items()
    }
    commands["pdfminer pdf2txt.py"] = lambda p: [python, str(bin_dir / "pdf2txt.py"), str(p)]
    commands["pdftotext"] = lambda p: ["pdftotext", str(p), "-"]
    if not shutil.which("pdftotext"):
        del commands["pdftotext"]
    totals = {name: [] for name in commands}
    pages = sum(n for _, _, n in files)
    environment = bench_environment()

    def run(command: list[str]) -> None:
        quiet = subprocess.DEVNULL
        subprocess.run(
            command,
            stdout=quiet,
            stderr=quiet,
            env=environment,
            cwd=ROOT.parent,
            preexec_fn=lambda: _limit_memory(memory_limit),
        )

    for command in commands.values():
        run(command(files[0][0]))  # warm-up: bytecode written, files in the page cache
    for _ in range(rounds):
        for name, command in commands.items():
            start = time.perf_counter()
            for path, _, _ in files:
                run(command(path))
            totals[name].append(time.perf_counter() - start)
    print(f"\n## Whole process, one file per process: {len(files)} files, {pages} pages")
    print("\n| command | total s (median of rounds) | vs pdfminer |")
    print("|---|---|---|")
    base = statistics.median(totals["pdfminer pdf2txt.py"])
    for name, values in totals.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.2f} | {base / median:.2f}× |")
    start_up: dict[str, list[float]] = {name: [] for name in extracts}
    for _ in range(3):
        for name, extract in extracts.items():
            start = time.perf_counter()
            command = [extract.parent / "python", "-c", _TEXT_PATH_IMPORT]
            subprocess.run(command, check=True, env=environment, cwd=ROOT.parent)
            start_up[name].append(time.perf_counter() - start)
    for name, values in start_up.items():
        print(
            f"\nimport of the CLI's text path{f' [{name}]' if name else ''} "
            f"(python -c '{_TEXT_PATH_IMPORT}'), median of 3: "
            f"{statistics.median(values):.3f} s"
        )


# What `glyphscope-extract --mode text` imports before it reads a page: the CLI, the document
# and the text stages (a CLI that imports the engine only when a mode runs loads the last two
# then, not with the CLI).
_TEXT_PATH_IMPORT = "import glyphscope.core.cli, glyphscope.core.document, glyphscope.core.output"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=("eight", "corpus", "both"), default="eight")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per tool and file")
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument(
        "--max-pages", type=int, help="corpus set: leave out files of more pages (time bound)"
    )
    parser.add_argument("--whole-process", action="store_true")
    parser.add_argument(
        "--glyphscope-extract", type=Path, help="the CLI to time (another venv's, for a before)"
    )
    parser.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=PYTHON",
        help="time the Glyphscope tools of that venv's python too (repeatable)",
    )
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=4,
        metavar="GIB",
        help="address space of each tool's worker process (RLIMIT_AS), GiB",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", metavar="TOOL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    memory_limit = int(args.memory_limit * GIB)
    if args.worker:
        _worker(args.worker, memory_limit)
        return
    if not CORPUS.exists():
        sys.exit(f"no corpus at {CORPUS}")
    tools = [t for t in args.tools.split(",") if t]
    if "pdftotext" in tools and not shutil.which("pdftotext"):
        print("pdftotext missing (apt-get install -y poppler-utils): left out", file=sys.stderr)
        tools.remove("pdftotext")
    engines = {}
    for spec in args.engine:
        name, _, python = spec.partition("=")
        engines[name] = Path(python).absolute()
    if engines:
        # Each engine's Glyphscope tools replace the in-process ones.
        tools = [
            f"{tool}@{name}" if tool in GLYPHSCOPE_TOOLS else tool
            for tool in tools
            for name in (engines if tool in GLYPHSCOPE_TOOLS else [""])
        ]
        extracts = {name: python.parent / "glyphscope-extract" for name, python in engines.items()}
    else:
        extracts = {
            "": args.glyphscope_extract or Path(sys.executable).parent / "glyphscope-extract"
        }
    workers = {}
    for tool in tools:
        base, _, engine = tool.partition("@")
        python = engines[engine] if engine else Path(sys.executable)
        workers[tool] = _Worker(base, python, memory_limit)
    results = {}
    try:
        for which in ("eight", "corpus") if args.set == "both" else (args.set,):
            files = _files(which, args.max_pages)
            measured = _measure(files, tools, args.rounds, args.timeout, workers)
            title = "The eight files of issue 9" if which == "eight" else "Whole corpus"
            results[which] = _table(title, files, tools, measured)
            if args.whole_process and which == "eight":
                _whole_process(files, args.rounds, extracts, memory_limit)
    finally:
        for worker in workers.values():
            worker.close()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
