"""Glyph extraction speed on the corpus beside pdfminer.six, pdfplumber and qpdf's tokenizer.

    python3 tests/bench/bench_glyphs.py [--pages-per-file 5] [--files N]

For every page, in one process: our `Page.glyphs()` (a fresh Document per file, so font
loading is counted), `pikepdf.parse_content_stream` alone on the same page, pdfminer.six's
LTChar objects and pdfplumber's `page.chars`. Prints pages per second and the ratios of the
per-page times (median over pages where every tool succeeded).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import pikepdf  # noqa: E402

from glyphscope.core.document import Document  # noqa: E402
from glyphscope.core.errors import GlyphscopeError  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402


def _ours(data: bytes, password: str | None, index: int) -> float:
    start = time.perf_counter()
    document = Document.open(data, password=password)
    document.page(index).glyphs()
    return time.perf_counter() - start


def _qpdf_tokens(data: bytes, password: str | None, index: int) -> float:
    start = time.perf_counter()
    with pikepdf.open(io.BytesIO(data), password=password or "") as pdf:
        for instruction in pikepdf.parse_content_stream(pdf.pages[index]):
            instruction.operands  # noqa: B018 - touch operands as the interpreter does
    return time.perf_counter() - start


def _pdfminer(data: bytes, password: str | None, index: int) -> float:
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LTChar, LTContainer

    def walk(item):
        if isinstance(item, LTChar):
            yield item
        elif isinstance(item, LTContainer):
            for child in item:
                yield from walk(child)

    start = time.perf_counter()
    for layout in extract_pages(io.BytesIO(data), password=password or "", page_numbers=[index]):
        sum(1 for _ in walk(layout))
    return time.perf_counter() - start


def _pdfplumber(data: bytes, password: str | None, index: int) -> float:
    import pdfplumber

    start = time.perf_counter()
    with pdfplumber.open(io.BytesIO(data), password=password or "") as pdf:
        len(pdf.pages[index].chars)
    return time.perf_counter() - start


TOOLS = {"ours": _ours, "qpdf": _qpdf_tokens, "pdfminer": _pdfminer, "pdfplumber": _pdfplumber}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages-per-file", type=int, default=5)
    parser.add_argument("--files", type=int, default=0, help="limit the number of files")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    import logging

    logging.disable(logging.CRITICAL)
    times: dict[str, list[float]] = {name: [] for name in TOOLS}
    rows = 0
    files = corpus_files()[: args.files or None]
    for entry in files:
        data = entry.path.read_bytes()
        try:
            count = Document.open(data, password=entry.password).page_count
        except GlyphscopeError:
            continue
        for index in range(min(count, args.pages_per_file)):
            sample = {}
            for name, tool in TOOLS.items():
                try:
                    sample[name] = tool(data, entry.password, index)
                except Exception:  # noqa: BLE001 - a peer failing on a page just skips it
                    break
            if len(sample) == len(TOOLS):
                rows += 1
                for name, value in sample.items():
                    times[name].append(value)
    print(f"pages measured (all tools succeeded): {rows} from {len(files)} files")
    for name, values in times.items():
        total = sum(values)
        median_ms = statistics.median(values) * 1e3
        print(f"{name:>10}: {rows / total:8.1f} pages/s  median {median_ms:7.2f} ms")
    for peer in ("pdfminer", "pdfplumber", "qpdf"):
        ratios = [p / o for p, o in zip(times[peer], times["ours"], strict=True) if o > 0]
        print(
            f"median per-page {peer}/ours: {statistics.median(ratios):6.2f}x"
            f"   total {sum(times[peer]) / sum(times['ours']):6.2f}x"
        )


if __name__ == "__main__":
    main()
