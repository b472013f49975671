"""Where the time goes in the whole pipeline: µs per glyph per stage, on issue 9's eight files.

    python3 tests/bench/bench_pipeline.py [--engine NAME=PYTHON ...] [--rounds 3] [--records]
                                          [--cpu] [--json FILE]

Per page, each stage is called as core.analysis.analyse_page calls it (on the interpreter's
GlyphColumns; with --records on a tuple of Glyph records made first), on a Document opened
for the round (fonts are loaded by the first page that uses them, as in the CLI), and timed
alone: interpretation (extract_page after emptying its cache: decoding, tokenising, fonts,
glyphs), of which decoding and tokenising (the content module's _decode, _scan and
_tokenise, whichever the engine has, timed where the interpreter calls them), the visible box
and duplicates, preparation (ActualText, accents), reading order, layout, columns, structure,
the decision log (to_json and json.dumps of the whole analysis; and the same text by
to_json_text, written from the columns, where the engine has it), and text mode as the CLI
runs it (page_text "text" after the extraction cache was emptied, so interpretation
included). Each stage's total over all pages is divided by the glyph count; the median of
the rounds is printed. With --engine, each engine runs this file in its own python, round by
round interleaved.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_text import EIGHT, bench_environment  # noqa: E402

from tests.corpus import corpus_files  # noqa: E402

# Wall time by default; process (CPU) time with --cpu, which a loaded machine distorts less.
_clock = time.perf_counter

STAGES = (
    "interpretation",
    "  decoding + tokenising",
    "visible box + duplicates",
    "prepare (ActualText, accents)",
    "reading order",
    "layout",
    "columns",
    "structure",
    "decision log (to_json + dumps)",
    "decision log as text (to_json_text)",
    "text mode (page_text, interpretation included)",
)


def _tokenising_timer(totals: dict[str, float]) -> None:
    """Time the content module's decoding and tokenising where the interpreter calls them."""
    from glyphscope.core.interpret import content

    def timed(function):
        def wrapper(*args, **kwargs):
            start = _clock()
            try:
                return function(*args, **kwargs)
            finally:
                totals[STAGES[1]] += _clock() - start

        return wrapper

    for name in ("_decode", "_scan", "_tokenise"):
        if hasattr(content, name):
            setattr(content, name, timed(getattr(content, name)))


def _decision_log(analysis) -> str:
    return json.dumps(analysis.to_json())


def _decision_log_text(analysis) -> str:
    """The same characters, written from the columns; by json in an engine before it."""
    if hasattr(analysis, "to_json_text"):
        return analysis.to_json_text()
    return json.dumps(analysis.to_json())


def one_round(records: bool) -> dict:
    """Seconds per stage and the glyph count over the eight files, in this python's engine."""
    import warnings

    import glyphscope
    from glyphscope.core import analysis as analysis_module
    from glyphscope.core.analysis import analyse_page
    from glyphscope.core.interpret.interpreter import extract_page
    from glyphscope.core.output import page_text
    from glyphscope.core.rules import Rules
    from glyphscope.core.text.columns import columns_text
    from glyphscope.core.text.layout import layout
    from glyphscope.core.text.prepared import prepare_glyphs
    from glyphscope.core.text.reading import reading_order
    from glyphscope.core.text.visible import visible_glyphs

    warnings.simplefilter("ignore")
    totals = dict.fromkeys(STAGES, 0.0)
    _tokenising_timer(totals)
    rules, glyph_count = Rules(), 0

    def timed(stage: str, function, *args):
        start = _clock()
        result = function(*args)
        totals[stage] += _clock() - start
        return result

    for corpus_file in (f for f in corpus_files() if f.name in EIGHT):
        document = glyphscope.open(corpus_file.path, password=corpus_file.password)
        for page in document.pages:
            document.extraction_cache.clear()  # interpreted here, then read from the cache
            extraction = timed(STAGES[0], extract_page, page, rules)
            glyphs = extraction.glyphs if extraction.readable else ()
            if records:
                glyphs = tuple(glyphs)
            glyph_count += len(glyphs)
            visible = timed(STAGES[2], visible_glyphs, glyphs, page.visible_box, rules)
            prepared = timed(
                STAGES[3], prepare_glyphs, glyphs, visible.visible, extraction.replacements, rules
            )
            order = (prepared.glyphs, prepared.order, rules)
            reading = timed(STAGES[4], reading_order, *order)
            grid = timed(STAGES[5], layout, *order)
            start = _clock()
            columns_text(*order, grid=grid, reading=reading.text)
            totals[STAGES[6]] += _clock() - start
            if extraction.readable:
                timed(STAGES[7], analysis_module._structure, page, *order[:2], rules, [])
            whole = analyse_page(page, rules)  # the extraction cached: its stages timed above
            timed(STAGES[8], _decision_log, whole)
            timed(STAGES[9], _decision_log_text, whole)
            document.extraction_cache.clear()
            timed(STAGES[10], page_text, page, "text", rules)
    return {"seconds": totals, "glyphs": glyph_count}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=PYTHON")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--records", action="store_true", help="stages read Glyph records")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--cpu", action="store_true", help="process time instead of wall time")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu:
        global _clock
        _clock = time.process_time
    if args.worker:
        print(json.dumps(one_round(args.records)))
        return
    engines = {}
    for spec in args.engine:
        name, _, python = spec.partition("=")
        engines[name] = os.path.abspath(python)  # a venv's python: symlinks kept
    engines = engines or {"this": sys.executable}
    runs: dict[str, list[dict]] = {name: [] for name in engines}
    for round_number in range(args.rounds):
        for name, python in engines.items():
            command = [python, str(Path(__file__).resolve()), "--worker"]
            if args.records:
                command.append("--records")
            if args.cpu:
                command.append("--cpu")
            done = subprocess.run(
                command, capture_output=True, text=True, env=bench_environment(), cwd=ROOT.parent
            )
            if done.returncode:
                sys.exit(f"{name}: {done.stderr}")
            runs[name].append(json.loads(done.stdout))
        print(f"  round {round_number + 1}/{args.rounds} done", file=sys.stderr)
    glyphs = {name: results[0]["glyphs"] for name, results in runs.items()}
    clock = "CPU" if args.cpu else "wall"
    print(
        f"\n## µs per glyph per stage ({clock} time), issue 9's eight files "
        f"(median of {args.rounds} rounds)"
    )
    print(f"glyphs: {', '.join(f'{name} {count:,}' for name, count in glyphs.items())}\n")
    print("| stage | " + " | ".join(engines) + " |")
    print("|---|" + "---|" * len(engines))
    table = {}
    for stage in STAGES:
        cells = []
        for name, results in runs.items():
            seconds = statistics.median(r["seconds"][stage] for r in results)
            table.setdefault(name, {})[stage] = seconds / max(glyphs[name], 1) * 1e6
            cells.append(f"{table[name][stage]:.1f}")
        print(f"| {stage} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps({"glyphs": glyphs, "us_per_glyph": table}, indent=1))


if __name__ == "__main__":
    main()
