"""µs per glyph of the text stages (spec §4–§9) on issue 9's eight files, CPU time.

Run: python3 tests/bench/bench_stages.py [--records] [--rounds 3]

Every page is interpreted first (not timed); its glyphs are then held as GlyphColumns (as the
interpreter hands them over) or, with --records, as Glyph records, and frozen out of the
garbage collector (gc.freeze) so that collections of long-lived data do not land on a stage.
Each stage is timed on every page in turn, best of `--rounds`: the visible-box filter with
the finite-geometry test, duplicate removal, the whole visible stage, hidden text (render
mode, clipping, tiny glyphs, without the pixel test), prepared glyphs
(replacement text, accents), reading order with its decision log (the analysis) and
without it (text mode), layout, columns (handed the layout and the reading text, as the
analysis does) and structure order (the tree walk included). Before each stage the columns'
list cache is emptied, so that a stage pays for any record it makes as it would on a fresh
page, and before each page its columns' distinct texts, so that the first stage to need them
pays for them every round.
"""

from __future__ import annotations

import argparse
import gc
import time
from pathlib import Path

from glyphscope.core import analysis
from glyphscope.core.geometry import normalize_rect
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret.interpreter import extract_page
from glyphscope.core.pdf.document import PdfDocument
from glyphscope.core.rules import Rules
from glyphscope.core.text import visible
from glyphscope.core.text.columns import columns_text
from glyphscope.core.text.hidden import hidden_glyphs
from glyphscope.core.text.layout import layout
from glyphscope.core.text.prepared import prepare_glyphs
from glyphscope.core.text.reading import reading_order

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
EIGHT = (
    "pdfjs__tracemonkey",
    "pdfjs__pdkids",
    "pdfjs__tamreview",
    "pdfplumber__ca-warn-report",
    "pdfplumber__federal-register-2020-17221",
    "pdfplumber__issue-67-example",
    "pdfpig__capas",
    "pypdf__geobase_nhnc1_data_model_uml_en",
)
STAGES = (
    "box",
    "duplicates",
    "visible",
    "hidden",
    "prepared",
    "reading+log",
    "reading text",
    "layout",
    "columns",
    "structure",
)


def _pages(records: bool, rules: Rules) -> list[tuple]:
    pages = []
    for name in EIGHT:
        document = PdfDocument.open(CORPUS / f"{name}.pdf")
        for index in range(document.page_count):
            page = document.page(index)
            extraction = extract_page(page, rules)
            if not extraction.readable:
                continue
            glyphs = tuple(extraction.glyphs)
            held = glyphs if records else GlyphColumns.from_glyphs(glyphs)
            pages.append((page, held, extraction.replacements, extraction.clips))
        document.extraction_cache.clear()
    return pages


def _round(pages: list[tuple], rules: Rules) -> dict[str, float]:
    spent = dict.fromkeys(STAGES, 0.0)

    def timed(stage: str, work, glyphs, *args, **kwargs):
        if isinstance(glyphs, GlyphColumns):
            glyphs._listed.clear()  # as a fresh page: records are made by the stage's time
        start = time.process_time()
        result = work(glyphs, *args, **kwargs)
        spent[stage] += time.process_time() - start
        return result

    for page, glyphs, spans, clips in pages:
        # The text column's distinct texts, made once per page (since i9-full2): paid by
        # the first stage that reads them in every round.
        getattr(glyphs, "_text_ids", []).clear()
        visible_box = page.visible_box
        inside, _ = timed("box", visible._box_filter, glyphs, normalize_rect(visible_box))
        timed("duplicates", visible._duplicates, glyphs, inside, rules)
        shown = timed("visible", visible.visible_glyphs, glyphs, visible_box, rules)
        timed("hidden", hidden_glyphs, glyphs, clips, shown.dropped, rules)
        prepared = timed("prepared", prepare_glyphs, glyphs, shown.visible, spans, rules)
        text_glyphs, order = prepared.glyphs, prepared.order
        timed("reading+log", reading_order, text_glyphs, order, rules)
        text = timed("reading text", reading_order, text_glyphs, order, rules, decisions=False)
        grid = timed("layout", layout, text_glyphs, order, rules)
        timed("columns", columns_text, text_glyphs, order, rules, grid=grid, reading=text.text)
        timed("structure", _structure, text_glyphs, page, order, rules)
    return spent


def _structure(glyphs, page, order, rules: Rules):
    return analysis._structure(page, glyphs, order, rules, [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", action="store_true", help="hold the pages as records")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rules = Rules()
    pages = _pages(args.records, rules)
    glyph_count = sum(len(glyphs) for _, glyphs, _, _ in pages)
    held = "records" if args.records else "GlyphColumns"
    print(f"{len(pages)} pages, {glyph_count} glyphs held as {held}")
    gc.collect()
    gc.freeze()
    best = dict.fromkeys(STAGES, float("inf"))
    for _ in range(args.rounds):
        for stage, seconds in _round(pages, rules).items():
            best[stage] = min(best[stage], seconds)
    for stage in STAGES:
        print(f"{stage:14} {best[stage] * 1e6 / glyph_count:7.3f} µs/glyph")


if __name__ == "__main__":
    main()
