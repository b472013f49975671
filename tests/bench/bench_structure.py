"""Structure order and the full analysis against the page count (issue 27: linear, not
quadratic): ms per page on synthetic tagged documents of 10, 300 and 1,000 pages.

    python3 tests/bench/bench_structure.py [--pages 10,300,1000] [--glyphs 1000]
                                           [--modes text,structure,full] [--rounds 3]
                                           [--engine NAME=PYTHON ...]

Each document is tagged the way word processors write it (ISO 32000-1 §14.7): a /Document
element whose kids are one /P per paragraph, each with its page in /Pg and its MCID as /K,
a /ParentTree with one flat /Nums array (§14.7.4.4) and a /StructParents on every page; a
page holds `--glyphs` glyphs of Helvetica in paragraphs of 50, each a marked-content sequence
(BDC /P <</MCID n>>). Per document and mode the whole document is read in one process (open
included) and divided by its page count; each (document, mode) keeps the best of its rounds.
With --engine, each engine's python runs the same measurement (interleaved per round) so a
before/after pair meets the same load. Printed: ms/page and the ratio of the largest
document's ms/page to the smallest's (linear in the page count is 1.0).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PARAGRAPH = 50  # glyphs per marked-content sequence
WORDS = "tagged structure order walks the tree once per document and each page reads its index"


def tagged_document(pages: int, glyphs: int) -> bytes:
    """A tagged PDF of `pages` pages, `glyphs` glyphs each (see the module docstring)."""
    import pikepdf

    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    struct_root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
    document = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document, P=struct_root)
    )
    paragraphs = pikepdf.Array()
    nums = pikepdf.Array()
    text = (WORDS * (PARAGRAPH // len(WORDS) + 1))[:PARAGRAPH]
    for number in range(pages):
        pdf.add_blank_page(page_size=(612, 792))
        page = pdf.pages[number]
        page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.obj.StructParents = number
        lines = [b"BT /F1 9 Tf 11 TL 36 760 Td"]
        parents = pikepdf.Array()
        for mcid in range(glyphs // PARAGRAPH):
            lines.append(b"/P <</MCID %d>> BDC (%s) ' EMC" % (mcid, text.encode()))
            paragraph = pdf.make_indirect(
                pikepdf.Dictionary(
                    Type=pikepdf.Name.StructElem,
                    S=pikepdf.Name.P,
                    P=document,
                    Pg=page.obj,
                    K=mcid,
                )
            )
            paragraphs.append(paragraph)
            parents.append(paragraph)
        lines.append(b"ET")
        page.obj.Contents = pdf.make_stream(b"\n".join(lines))
        nums.extend([number, parents])
    document.K = paragraphs
    struct_root.K = document
    struct_root.ParentTree = pdf.make_indirect(pikepdf.Dictionary(Nums=nums))
    pdf.Root.StructTreeRoot = struct_root
    pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    out = tempfile.SpooledTemporaryFile()
    pdf.save(out)
    out.seek(0)
    return out.read()


def read_document(path: str, mode: str) -> float:
    """Seconds to read the whole document in `mode` (open included)."""
    import glyphscope
    from glyphscope.core.output import page_text
    from glyphscope.core.rules import Rules

    rules = Rules()
    start = time.perf_counter()
    document = glyphscope.open(path)
    for page in document.pages:
        if mode == "full":
            json.dumps(page.analysis(rules).to_json())
        else:
            page_text(page, mode, rules)
    return time.perf_counter() - start


def _worker() -> None:
    """Worker mode: `bench_structure.py --worker PATH MODE` prints the seconds."""
    print(read_document(sys.argv[2], sys.argv[3]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default="10,300,1000")
    parser.add_argument("--glyphs", type=int, default=1000)
    parser.add_argument("--modes", default="text,structure,full")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=PYTHON")
    args = parser.parse_args()
    engines = dict(entry.split("=", 1) for entry in args.engine) or {"": sys.executable}
    counts = [int(count) for count in args.pages.split(",")]
    modes = args.modes.split(",")
    with tempfile.TemporaryDirectory() as folder:
        paths = {}
        for count in counts:
            paths[count] = os.path.join(folder, f"tagged-{count}.pdf")
            Path(paths[count]).write_bytes(tagged_document(count, args.glyphs))
        best: dict[tuple[str, str, int], float] = {}
        for _ in range(args.rounds):
            for count in counts:
                for mode in modes:
                    for name, python in engines.items():
                        run = subprocess.run(
                            [python, __file__, "--worker", paths[count], mode],
                            capture_output=True,
                            text=True,
                            cwd=ROOT,
                        )
                        key = (name, mode, count)
                        if run.returncode:
                            tail = run.stderr.strip().splitlines()[-1:]
                            print(f"{name} {mode} {count}: failed {tail}", file=sys.stderr)
                            best.setdefault(key, float("nan"))
                            continue
                        seconds = float(run.stdout)
                        best[key] = min(best.get(key, float("inf")), seconds / count)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.glyphs} glyphs a page; ms/page")
    header = "engine     mode       " + "".join(f"{count:>9}" for count in counts) + "  ratio"
    print(header)
    for name in engines:
        for mode in modes:
            cells = [best[(name, mode, count)] * 1000 for count in counts]
            ratio = cells[-1] / cells[0]  # nan when a run failed
            row = "".join(f"{cell:9.2f}" for cell in cells)
            print(f"{name or 'this':<10} {mode:<10} {row}  {ratio:5.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        _worker()
    else:
        main()
