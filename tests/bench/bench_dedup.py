"""Time duplicate removal and reading order on synthetic glyphs (spec §5: near n log n).

Run: python3 tests/bench/bench_dedup.py

Duplicate removal (`visible_glyphs`) on 50,000 and 500,000 glyphs of text (as records, and as
the GlyphColumns the interpreter hands the stage, with and without the dropped records that
text mode does not read), on issue 10's grid of 1,000 × 1,000 glyphs sharing text and x, and
on a column of one digit; each beside the pair-by-pair scan (`_scan_duplicates`, the
implementation before the arrays) where that ends in reasonable time. Times are CPU seconds
(process time), so a loaded machine inflates less.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_visible import make_glyph  # noqa: E402

from glyphscope.core.glyph_table import GlyphColumns  # noqa: E402
from glyphscope.core.rules import Rules  # noqa: E402
from glyphscope.core.text import visible as visible_module  # noqa: E402
from glyphscope.core.text.reading import reading_order  # noqa: E402
from glyphscope.core.text.visible import visible_glyphs, visible_rows  # noqa: E402

COUNT = 50_000


def page_of_text(count: int, fake_bold_share: float) -> list:
    """Lines of random lowercase words in 6 pt type; a share of glyphs drawn twice 0.2 pt right."""
    rng = random.Random(7)
    glyphs = []
    x, y = 10.0, 780.0
    while len(glyphs) < count:
        char = rng.choice("abcdefghijklmnopqrstuvwxyz      ")
        glyphs.append(make_glyph(char, x, y, size=6.0, advance=3.0))
        if char != " " and rng.random() < fake_bold_share:
            glyphs.append(make_glyph(char, x + 0.2, y, size=6.0, advance=3.0))
        x += 3.0
        if x > 600.0:
            x, y = 10.0, y - 7.0
            if y < 10.0:
                y = 780.0 - rng.random() * 3.0  # overlay a second layer of lines
    return [g._replace(draw_order=i) for i, g in enumerate(glyphs)]


def column_of_one_digit(count: int) -> list:
    """Worst case for the (Unicode, x) scan: the same digit at one x on every line. Every pair
    in the column shares the window, so the scan is quadratic in the rows (about 1 µs a pair);
    a real page holds a few hundred rows at most."""
    return [make_glyph("0", 100.0, 780.0 - i * 7.0, size=6.0) for i in range(count)]


def aligned_grid(lines: int, columns: int) -> list:
    """Issue 10: the same character on every line at the same x, in many columns."""
    glyphs = [
        make_glyph("1", 5.0 * column, 12.0 * line, size=10.0)
        for line in range(lines)
        for column in range(columns)
    ]
    return [g._replace(draw_order=i) for i, g in enumerate(glyphs)]


def timed(label: str, function, *args) -> object:
    start = time.process_time()
    result = function(*args)
    print(f"{label}: {time.process_time() - start:.3f} s")
    return result


def scalar(glyphs, rules) -> list:
    scan = [i for i, g in enumerate(glyphs) if g.text.strip()]
    scan.sort(key=lambda i: (glyphs[i].text, glyphs[i].origin[0]))
    return visible_module._scan_duplicates(glyphs, scan, rules)


def main() -> None:
    rules = Rules()
    box = (0.0, 0.0, 612.0, 792.0)
    for count in (COUNT, 10 * COUNT):
        glyphs = page_of_text(count, 0.1)
        label = f"visible_glyphs, {len(glyphs)} glyphs of text"
        visible = timed(label, visible_glyphs, glyphs, box, rules)
        print(f"  dropped {len(visible.dropped)}")
        dropped = timed("  the pair-by-pair scan on the same glyphs", scalar, glyphs, rules)
        assert len(dropped) == len(visible.dropped)
        # What the engine hands the stage: the interpreter's columns, not records.
        columns = GlyphColumns.from_glyphs(glyphs)
        label = "  visible_glyphs over GlyphColumns (as the interpreter gives them)"
        assert timed(label, visible_glyphs, columns, box, rules) == visible
        label = "  visible_rows over GlyphColumns (text mode: no dropped records)"
        assert timed(label, visible_rows, columns, box, rules) == visible.visible
    timed("reading_order on the visible glyphs", reading_order, glyphs, visible.visible, rules)
    column = column_of_one_digit(2_000)
    tall = (0.0, -40_000.0, 612.0, 792.0)
    label = "visible_glyphs, 2000 identical digits at one x (quadratic for the scan)"
    timed(label, visible_glyphs, column, tall, rules)
    timed("  the pair-by-pair scan on the same glyphs", scalar, column, rules)
    grid = aligned_grid(1000, 1000)
    label = "visible_glyphs, 1000 × 1000 glyphs sharing text and x (issue 10)"
    timed(label, visible_glyphs, grid, (-1e6, -1e6, 1e6, 1e6), rules)


if __name__ == "__main__":
    main()
