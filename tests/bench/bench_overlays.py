"""CPU time of building and painting each overlay layer of corpus pages, as the layer
painter's thread does it: `layer.strokes` and `labels` (the build), then `LayerJob.run`'s
paint into an image of the page at a fit-width zoom.

Thread CPU time (time.thread_time), best of `--rounds`, so the machine's load matters little.
Prints per layer the median and p95 over the pages and the sum, and the pages' totals.

    python3 tests/bench/bench_overlays.py [--corpus DIR] [--every K] [--pages N]
                                          [--width PX] [--rounds R] [--only SUBSTRING]
                                          [--json FILE]
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QRectF  # noqa: E402
from PySide6.QtGui import QTransform  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import glyphscope  # noqa: E402
from glyphscope.core.view.page_model import build_page_model  # noqa: E402
from glyphscope.widgets.layer_painter import LayerJob  # noqa: E402
from glyphscope.widgets.text_layers import ALL_LAYER_TYPES  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402


def page_models(every: int, pages: int, only: str):
    """(label, PageModel) of the first `pages` pages of every `every`-th corpus file."""
    files = [f for f in corpus_files() if only in f.name][::every]
    for corpus_file in files:
        try:
            document = glyphscope.open(str(corpus_file.path), password=corpus_file.password)
            for index in range(min(pages, len(document.pages))):
                analysis = document.pages[index].analysis()
                yield f"{corpus_file.name} p{index + 1}", build_page_model(index, analysis)
        except Exception as error:  # a file the engine refuses: the inspector shows an error
            print(f"  skipped {corpus_file.name}: {type(error).__name__}", file=sys.stderr)


def measure(layer, model, width_px: float, rounds: int) -> tuple[float, float]:
    """(build, paint) thread CPU seconds of one layer, best of `rounds` each."""
    x0, y0, x1, y1 = model.media_box
    scale = width_px / max(abs(x1 - x0), 1.0)
    linear = QTransform(scale, 0.0, 0.0, -scale, 0.0, 0.0)
    region = linear.mapRect(QRectF(x0, y0, x1 - x0, y1 - y0)).toAlignedRect()
    layer.set_model(model)
    build = paint = float("inf")
    strokes = labels = None
    for _ in range(rounds):
        started = time.thread_time()
        strokes = [s for s in layer.strokes(model) if not s.shape.empty]
        labels = layer.labels(model)
        build = min(build, time.thread_time() - started)
    for _ in range(rounds):
        job = LayerJob(layer, layer.generation, model, strokes, labels, linear, region)
        started = time.thread_time()
        job.run()
        paint = min(paint, time.thread_time() - started)
    return build, paint


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=4, help="every K-th corpus file")
    parser.add_argument("--pages", type=int, default=2, help="first N pages of each")
    parser.add_argument("--width", type=float, default=800.0, help="page width in pixels")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])  # noqa: F841 (QImage and fonts need it)
    layers = [layer_type() for layer_type in ALL_LAYER_TYPES]
    per_layer: dict[str, list[tuple[float, float]]] = collections.defaultdict(list)
    totals: list[tuple[float, str]] = []
    record: dict[str, dict[str, list[float]]] = {}
    for label, model in page_models(args.every, args.pages, args.only):
        page_total = 0.0
        record[label] = {}
        for layer in layers:
            build, paint = measure(layer, model, args.width, args.rounds)
            per_layer[layer.layer_id].append((build, paint))
            record[label][layer.layer_id] = [build * 1000, paint * 1000]
            page_total += build + paint
        totals.append((page_total, f"{label} ({model.count} glyphs)"))

    def row(name: str, values: list[float]) -> str:
        ms = sorted(v * 1000 for v in values)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        return f"  {name:<22} {statistics.median(ms):>8.2f} {p95:>8.2f} {sum(ms):>9.1f}"

    print(f"pages {len(totals)}; thread CPU ms, best of {args.rounds}; page {args.width:.0f} px")
    print(f"  {'layer: build / paint':<22} {'median':>8} {'p95':>8} {'sum':>9}")
    for layer_id, values in per_layer.items():
        print(row(f"{layer_id} build", [b for b, _ in values]))
        print(row(f"{layer_id} paint", [p for _, p in values]))
    print(row("every layer, a page", [t for t, _ in totals]))
    for seconds, label in sorted(totals, reverse=True)[:6]:
        print(f"  slow: {seconds * 1000:.1f} ms {label}")
    if args.json:
        args.json.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
