"""Memory per glyph: a page's Glyph records against the same glyphs as GlyphColumns.

    python3 tests/bench/bench_memory.py

On every page of issue 9's eight files: the bytes reachable from the page's tuple of Glyph
records (each object counted once by identity, sys.getsizeof: the records, their nested
tuples of floats, the floats, ints and strings) against GlyphColumns.from_glyphs of the same
records (the arrays with their buffers and the string lists; strings are the records' own,
so shared ones count once on both sides), and the columns again once a record was asked for
(pages up to LISTED_GLYPHS keep Python lists of every column beside the arrays). Printed:
bytes per glyph over all pages, and for the densest page.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_text import EIGHT  # noqa: E402

from tests.corpus import corpus_files  # noqa: E402


def deep_size(root: object) -> int:
    """Bytes of every object reachable from root through tuples, lists, dicts and dataclass
    fields, each counted once."""
    seen: set[int] = set()
    stack, total = [root], 0
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(getattr(item, name) for name in item.__dataclass_fields__)
    return total


def main() -> None:
    import glyphscope
    from glyphscope.core.glyph_table import GlyphColumns
    from glyphscope.core.rules import Rules

    warnings.simplefilter("ignore")
    totals = {"records": 0, "columns": 0, "columns + lists": 0}
    glyph_count, densest = 0, (0, "", {})
    for corpus_file in (f for f in corpus_files() if f.name in EIGHT):
        for page in glyphscope.open(corpus_file.path, password=corpus_file.password).pages:
            glyphs = tuple(page.extract(Rules()).glyphs)
            if not glyphs:
                continue
            columns = GlyphColumns.from_glyphs(glyphs)
            sizes = {"records": deep_size(glyphs), "columns": deep_size(columns)}
            columns[0]  # noqa: B018 - a record asked for: the per-column lists are made
            sizes["columns + lists"] = deep_size(columns)
            for key, size in sizes.items():
                totals[key] += size
            glyph_count += len(glyphs)
            if len(glyphs) > densest[0]:
                densest = (len(glyphs), f"{corpus_file.name} page {page.number}", sizes)
    print(f"\n## Memory per glyph, issue 9's eight files ({glyph_count:,} glyphs)\n")
    print(f"| form | bytes/glyph, all pages | bytes/glyph, densest page ({densest[1]}) |")
    print("|---|---|---|")
    for key, size in totals.items():
        print(f"| {key} | {size / glyph_count:.0f} | {densest[2][key] / densest[0]:.0f} |")


if __name__ == "__main__":
    main()
