"""Unresolved-glyph rate of our decoder beside the share of characters pdftotext left unmapped.

    python3 tests/bench/unresolved_rate.py [--worst 15]

Ours: glyphs whose decode chain found no Unicode ÷ all glyphs the pages paint (forms too).
pdftotext's: characters of its reference text (../shared/corpus/refs) that are U+FFFD, a
private-use code point or a C0 control other than tab, newline and form feed ÷ its
non-whitespace characters. The two are not the same measure (pdftotext drops some glyphs
silently), so the table is a guide to which files to read by eye.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from glyphscope.core.document import Document  # noqa: E402
from glyphscope.core.errors import GlyphscopeError  # noqa: E402
from tests.corpus import corpus_files  # noqa: E402


def _unmapped(char: str) -> bool:
    code = ord(char)
    return char == "\ufffd" or 0xE000 <= code <= 0xF8FF or (code < 32 and char not in "\t\n\f\r")


def reference_rate(text: str) -> float:
    chars = [c for c in text if not c.isspace()]
    return sum(map(_unmapped, chars)) / len(chars) if chars else 0.0


def our_rate(entry) -> tuple[int, int, Counter]:
    total, unresolved, sources = 0, 0, Counter()
    with Document.open(entry.path, password=entry.password) as document:
        for page in document.pages:
            for glyph in page.extract().glyphs:
                total += 1
                sources[glyph.decode_source] += 1
                unresolved += not glyph.text
    return total, unresolved, sources


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worst", type=int, default=15)
    args = parser.parse_args()
    rows, all_sources = [], Counter()
    grand_total = grand_unresolved = 0
    ref_chars = ref_unmapped = 0
    for entry in corpus_files():
        reference = entry.reference_text
        try:
            total, unresolved, sources = our_rate(entry)
        except GlyphscopeError:
            continue
        all_sources.update(sources)
        grand_total += total
        grand_unresolved += unresolved
        ref_rate = reference_rate(reference) if reference is not None else float("nan")
        if reference is not None:
            chars = [c for c in reference if not c.isspace()]
            ref_chars += len(chars)
            ref_unmapped += sum(map(_unmapped, chars))
        rows.append((unresolved / total if total else 0.0, ref_rate, total, entry.name))
    print(
        f"ours: {grand_unresolved} of {grand_total} glyphs unresolved "
        f"({100 * grand_unresolved / max(grand_total, 1):.2f} %)"
    )
    print(
        f"pdftotext: {ref_unmapped} of {ref_chars} characters unmapped "
        f"({100 * ref_unmapped / max(ref_chars, 1):.2f} %)"
    )
    print("decode sources:", ", ".join(f"{k}={v}" for k, v in all_sources.most_common()))
    print(f"\nfiles where we are worse than pdftotext (top {args.worst}):")
    print(f"{'ours %':>8} {'pdftotext %':>12} {'glyphs':>8}  file")
    worse = sorted((r for r in rows if r[0] > (r[1] if r[1] == r[1] else 0)), reverse=True)
    for ours, ref, total, name in worse[: args.worst]:
        print(f"{100 * ours:8.2f} {100 * ref:12.2f} {total:8d}  {name}")


if __name__ == "__main__":
    main()
