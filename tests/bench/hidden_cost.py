"""Cost per page of the hidden-text pixel test (core.text.ink) on the corpus, and what it finds.

    python3 tests/bench/hidden_cost.py [--pages-per-file 3] [--files N]

For the first pages of every corpus file: seconds spent in `no_ink_glyphs` (the page copy,
two pdfium renders, the per-glyph comparison), the render scale, glyphs tested and found
without ink, and the hidden glyphs by reason. Prints the median and 95th percentile of the
cost per page, and the pages with the most hidden glyphs for reading by eye.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from glyphscope.core.analysis import analyse_page  # noqa: E402
from glyphscope.core.document import Document  # noqa: E402
from glyphscope.core.errors import GlyphscopeError  # noqa: E402
from glyphscope.core.rules import Rules  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages-per-file", type=int, default=3)
    parser.add_argument("--files", type=int, default=0)
    args = parser.parse_args()
    rules = Rules()
    costs: list[float] = []
    reasons: Counter = Counter()
    pages: list[tuple[int, str, int, Counter]] = []
    entries = corpus_files()[: args.files or None]
    for entry in entries:
        try:
            document = Document.open(entry.path, password=entry.password)
        except GlyphscopeError:
            continue
        with document:
            for index in range(min(args.pages_per_file, document.page_count)):
                analysis = analyse_page(document.page(index), rules, ink=True)
                if analysis.ink is None:
                    continue
                costs.append(analysis.ink.seconds)
                found = Counter(reason for item in analysis.hidden for reason in item.reasons)
                reasons.update(found)
                pages.append((len(analysis.hidden), entry.name, index + 1, found))
    if not costs:
        print("no page measured")
        return
    ordered = sorted(costs)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"pages measured: {len(costs)}")
    print(f"pixel test per page: median {statistics.median(costs) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")  # fmt: skip
    print("hidden glyphs by reason:", ", ".join(f"{k}={v}" for k, v in reasons.most_common()))
    print("\npages with the most hidden glyphs:")
    for count, name, number, found in sorted(pages, reverse=True)[:15]:
        detail = ", ".join(f"{k}={v}" for k, v in found.most_common())
        print(f"{count:7d}  {name} p{number}: {detail}")


if __name__ == "__main__":
    main()
