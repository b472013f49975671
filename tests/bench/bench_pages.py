"""Whole-page text timing on the corpus: ours beside pdfminer.six and pdfplumber, as ratios.

    python3 tests/bench/bench_pages.py [--pages-per-file 10] [--files N] [--only NAME]
                                       [--timeout 30]

Per corpus page, in one process, one tool after the other:
- every module is imported before the first page is timed;
- ours: the Document is opened once per file (not timed); per page `Page.extract(rules)` +
  `visible_glyphs` + `reading_order`, i.e. what `glyphscope-extract --mode text` does. The
  first page of a file pays for loading its fonts, as it would in the CLI;
- pdfminer.six: `high_level.extract_text(file, page_numbers=[i])`. Its public API has no
  open-once form, so each call also parses the file's trailer and page tree (mostly cheap
  next to its layout analysis; the figure is pdfminer's cost of "the text of page i");
- pdfplumber: opened once per file (not timed); per page `page.extract_text()` then
  `page.close()`.

Pages where every tool succeeded within --timeout seconds are compared: per page the ratio
peer time / our time, summarised as median and p95 (and p5, the pages where we gain least),
and pages per second over those pages. A tool that raises or times out on a page is reported
and the page left out, never fatal. Timeouts use SIGALRM, so a long call inside C code
(qpdf) is interrupted only when it returns.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import signal
import statistics
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pdfplumber  # noqa: E402
from pdfminer.high_level import extract_text  # noqa: E402

import glyphscope.core.interpret.interpreter  # noqa: E402, F401 - Page.extract imports it lazily; keep that out of page 1
from glyphscope.core.document import Document  # noqa: E402
from glyphscope.core.errors import GlyphscopeError  # noqa: E402
from glyphscope.core.rules import Rules  # noqa: E402
from glyphscope.core.text.reading import reading_order  # noqa: E402
from glyphscope.core.text.visible import visible_glyphs  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402

TOOLS = ("ours", "pdfminer", "pdfplumber")


class PageTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise PageTimeout


def _ours(document: Document, index: int, rules: Rules) -> str:
    page = document.page(index)
    extraction = page.extract(rules)
    if not extraction.readable:
        return ""
    visible = visible_glyphs(extraction.glyphs, page.visible_box, rules).visible
    return reading_order(extraction.glyphs, visible, rules).text.text


def _pdfminer(data: bytes, password: str | None, index: int) -> str:
    return extract_text(io.BytesIO(data), password=password or "", page_numbers=[index])


def _pdfplumber(pdf, index: int) -> str:
    page = pdf.pages[index]
    text = page.extract_text()
    page.close()
    return text


def timed(function, *args, timeout: int) -> float:
    """Seconds the call took; raises PageTimeout past `timeout`."""
    signal.alarm(timeout)
    try:
        start = time.perf_counter()
        function(*args)
        return time.perf_counter() - start
    finally:
        signal.alarm(0)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure_file(entry, pages_per_file: int, timeout: int, failures: Counter) -> list[dict]:
    data = entry.path.read_bytes()
    rules = Rules()
    try:
        document = Document.open(data, password=entry.password)
    except GlyphscopeError as exc:
        failures[f"ours: open: {type(exc).__name__}"] += 1
        return []
    try:
        plumber = pdfplumber.open(io.BytesIO(data), password=entry.password or "")
    except Exception as exc:  # noqa: BLE001 - a peer failing to open is reported, not fatal
        failures[f"pdfplumber: open: {type(exc).__name__}"] += 1
        plumber = None
    rows = []
    count = document.page_count if pages_per_file <= 0 else min(document.page_count, pages_per_file)
    calls = {
        "ours": lambda i: timed(_ours, document, i, rules, timeout=timeout),
        "pdfminer": lambda i: timed(_pdfminer, data, entry.password, i, timeout=timeout),
        "pdfplumber": lambda i: timed(_pdfplumber, plumber, i, timeout=timeout),
    }
    for index in range(count):
        sample = {}
        for tool in TOOLS:
            if tool == "pdfplumber" and plumber is None:
                break
            try:
                sample[tool] = calls[tool](index)
            except PageTimeout:
                failures[f"{tool}: timeout > {timeout} s"] += 1
                break
            except Exception as exc:  # noqa: BLE001 - a tool failing on a page skips the page
                failures[f"{tool}: {type(exc).__name__}"] += 1
                break
        if len(sample) == len(TOOLS):
            rows.append({"file": entry.name, "page": index + 1, **sample})
    if plumber is not None:
        plumber.close()
    document.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages-per-file", type=int, default=10, help="0 = every page")
    parser.add_argument("--files", type=int, default=0, help="only the first N corpus files")
    parser.add_argument("--only", default="", help="only files whose name contains NAME")
    parser.add_argument("--timeout", type=int, default=30, help="seconds per tool per page")
    parser.add_argument("--slowest", type=int, default=5, help="list our K slowest pages")
    parser.add_argument("--json", type=Path, help="also write the per-page times as JSON")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    signal.signal(signal.SIGALRM, _alarm)
    entries = [e for e in corpus_files() if args.only in e.name][: args.files or None]
    failures: Counter = Counter()
    rows: list[dict] = []
    for entry in entries:
        rows.extend(measure_file(entry, args.pages_per_file, args.timeout, failures))
    if not rows:
        print("no page measured")
        return
    print(f"pages measured (every tool succeeded): {len(rows)} from {len(entries)} files")
    for tool in TOOLS:
        times = [row[tool] for row in rows]
        print(
            f"{tool:>10}: {len(times) / sum(times):8.1f} pages/s"
            f"  median {statistics.median(times) * 1e3:8.2f} ms"
            f"  p95 {percentile(times, 0.95) * 1e3:8.2f} ms  total {sum(times):7.1f} s"
        )
    for peer in TOOLS[1:]:
        ratios = [row[peer] / row["ours"] for row in rows if row["ours"] > 0]
        print(
            f"{peer}/ours per page: median {statistics.median(ratios):6.2f}x"
            f"  p95 {percentile(ratios, 0.95):6.2f}x  p5 {percentile(ratios, 0.05):6.2f}x"
            f"  total {sum(row[peer] for row in rows) / sum(row['ours'] for row in rows):6.2f}x"
        )
    print(f"\nour {args.slowest} slowest pages:")
    for row in sorted(rows, key=lambda row: -row["ours"])[: args.slowest]:
        peers = "  ".join(f"{tool} {row[tool] * 1e3:8.1f} ms" for tool in TOOLS)
        print(f"  {row['file']} p{row['page']}: {peers}")
    print(f"\n{args.slowest} pages where pdfminer.six gains most on us (lowest pdfminer/ours):")
    for row in sorted(rows, key=lambda row: row["pdfminer"] / row["ours"])[: args.slowest]:
        peers = "  ".join(f"{tool} {row[tool] * 1e3:8.1f} ms" for tool in TOOLS)
        print(f"  {row['file']} p{row['page']}: {peers}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if failures:
        print("\npages left out:")
        for reason, count in failures.most_common():
            print(f"  {count:5d}  {reason}")


if __name__ == "__main__":
    main()
