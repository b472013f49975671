"""Issue 9's dense page: the full analysis with its log's text against text mode, CPU time.

Run: python3 tests/bench/bench_dense.py [--file NAME] [--page N] [--rounds 7]

The page (federal-register page 2 by default, 9,407 glyphs) is read from a fresh Document
each time, so interpretation is in both figures: text mode is `page_text(page, "text")`,
the full analysis `page.analysis(rules).to_json_text()` (every mode and the decision log);
`analysis` alone is printed too. Best of `--rounds`, process time, in ms, and the ratio of
full to text (the issue's target: within 3x). Run it with each engine's python in turn.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import glyphscope
from glyphscope.core.output import page_text
from glyphscope.core.rules import Rules

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def best(function: Callable[[], object], rounds: int) -> float:
    """The least process time of `rounds` calls, in ms."""
    least = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        function()
        least = min(least, time.process_time() - start)
    return least * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default="pdfplumber__federal-register-2020-17221")
    parser.add_argument("--page", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    data = (CORPUS / f"{args.file}.pdf").read_bytes()
    rules = Rules()

    def page() -> glyphscope.Page:
        return glyphscope.open(data).pages[args.page - 1]

    page().analysis(rules).to_json_text()  # imports and first-use caches out of the figures
    text = best(lambda: page_text(page(), "text", rules), args.rounds)
    analysis = best(lambda: page().analysis(rules), args.rounds)
    full = best(lambda: page().analysis(rules).to_json_text(), args.rounds)
    print(
        f"{args.file} page {args.page}: text {text:.1f} ms, analysis {analysis:.1f} ms, "
        f"full with the log's text {full:.1f} ms: {full / text:.2f}x text mode"
    )


if __name__ == "__main__":
    main()
