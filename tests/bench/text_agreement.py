"""Word-level agreement of reading-order text with pdftotext, beside pdfminer.six and pdfplumber.

    python3 tests/bench/text_agreement.py [--files N] [--only NAME] [--worst K] [--all]
                                          [--timeout S] [--refresh]

For every corpus file whose `ref_ok` is "ok", all pages: our reading-order text (what
`glyphscope-extract --mode text` writes, glyphscope.core.output.write_document_text), pdfminer.six's
`high_level.extract_text` (default LAParams) and pdfplumber's `page.extract_text()` per page
joined by form feeds, each compared with `refs/<file>.pdftotext.txt`.

Normalisation, the same on every side: Unicode NFKC (this expands the presentation-form
ligatures U+FB00–FB06 to their letters and folds full-width and compatibility forms); the
bidirectional format characters U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 removed
(pdftotext wraps right-to-left runs in them); every Han, kana and CJK-punctuation character made
a word of its own (those scripts put no spaces between words, so where an extractor happens to
break a run would otherwise decide the score; Hangul is spaced by words and left alone); then
`str.split()` on any Unicode white space (form feeds included). Case and punctuation are kept;
hyphenated line ends are not rejoined. Each side is a multiset of these tokens:
precision = |ours ∩ ref| / |ours|, recall = |ours ∩ ref| / |ref| (multiset intersection),
F1 their harmonic mean. An empty side counts as precision (or recall) 1.

Every tool runs per file in a child process with a time limit, so a crash, a hang or a
memory blow-up is reported in the table, never fatal. Peers are skipped on files over
100 pages unless --all. Peer outputs (and peer failures) are cached in tests/bench/out/
(gitignored) and reused until --refresh; our text is always recomputed and written to
tests/bench/out/ours/<file>.txt for reading by eye (out/ours+NAME=VALUE/ when --rule
overrides a threshold of glyphscope.core.rules.Rules, as the CLI's option does; --reuse-ours scores
those texts again without extracting, e.g. after a change to the normalisation).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import unicodedata
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.corpus import corpus_files  # noqa: E402

OUT = Path(__file__).resolve().parent / "out"
TOOLS = ("ours", "pdfminer", "pdfplumber")
PEER_PAGE_LIMIT = 100


BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"), None)
BIDI_CONTROLS.update(dict.fromkeys(range(0x2066, 0x206A), None))
# Han (with extensions and compatibility ideographs), kana, CJK symbols and punctuation, CJK
# compatibility forms and what NFKC leaves of the half/full-width block.
UNSPACED_SCRIPT = re.compile(
    "([\u3000-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff])"
)


def tokens(text: str) -> Counter:
    """The multiset of normalised words (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).translate(BIDI_CONTROLS)
    return Counter(UNSPACED_SCRIPT.sub(r" \1 ", text).split())


class Agreement(NamedTuple):
    common: int
    ours: int
    ref: int

    @property
    def precision(self) -> float:
        return self.common / self.ours if self.ours else 1.0

    @property
    def recall(self) -> float:
        return self.common / self.ref if self.ref else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def agreement(text: str, reference: Counter) -> Agreement:
    words = tokens(text)
    common = sum((words & reference).values())
    return Agreement(common, sum(words.values()), sum(reference.values()))


# -- tool runners (executed in a child process by --worker) ----------------------------------


def _ours_text(path: str, password: str | None, overrides: dict) -> str:
    import io

    from glyphscope.core.document import Document
    from glyphscope.core.output import write_document_text
    from glyphscope.core.rules import Rules

    stream = io.BytesIO()
    with Document.open(path, password=password) as document:
        write_document_text(document, stream, rules=Rules().with_values(**overrides))
    return stream.getvalue().decode("utf-8")


def _pdfminer_text(path: str, password: str | None, overrides: dict) -> str:
    from pdfminer.high_level import extract_text

    return extract_text(path, password=password or "")


def _pdfplumber_text(path: str, password: str | None, overrides: dict) -> str:
    import pdfplumber

    pages = []
    with pdfplumber.open(path, password=password or "") as pdf:
        for page in pdf.pages:
            pages.append(page.extract_text() or "")
            page.close()  # drop the page's object cache, as a long document needs
    return "\f".join(pages)


RUNNERS = {"ours": _ours_text, "pdfminer": _pdfminer_text, "pdfplumber": _pdfplumber_text}


def _worker(tool: str, path: str, password: str, overrides: str, out: str) -> None:
    import logging
    import warnings

    warnings.simplefilter("ignore")
    logging.disable(logging.CRITICAL)
    text = RUNNERS[tool](path, password or None, json.loads(overrides))
    Path(out).write_text(text, encoding="utf-8")


# -- driver ----------------------------------------------------------------------------------


class Outcome(NamedTuple):
    text: str | None
    error: str  # "" on success; else a one-line reason (crash, timeout, skipped)


def run_tool(tool: str, entry, args) -> Outcome:
    """One tool's text of one file; ours goes to out/ours (out/ours+NAME=VALUE,... under --rule)."""
    overrides = dict(item.split("=", 1) for item in args.rule) if tool == "ours" else {}
    folder = OUT / "+".join([tool, ",".join(sorted(args.rule))] if overrides else [tool])
    folder.mkdir(parents=True, exist_ok=True)
    text_path = folder / f"{entry.name}.txt"
    error_path = folder / f"{entry.name}.error"
    cached = (tool != "ours" or args.reuse_ours) and not args.refresh
    if cached and text_path.exists():
        return Outcome(text_path.read_text(encoding="utf-8"), "")
    if cached and error_path.exists():
        return Outcome(None, error_path.read_text(encoding="utf-8"))
    text_path.unlink(missing_ok=True)
    error_path.unlink(missing_ok=True)
    command = [sys.executable, __file__, "--worker", tool, str(entry.path), entry.password or ""]
    command.append(json.dumps(overrides))
    try:
        done = subprocess.run(
            [*command, str(text_path)], capture_output=True, text=True, timeout=args.timeout
        )
        error = "" if done.returncode == 0 else _last_line(done.stderr, done.returncode)
    except subprocess.TimeoutExpired:
        error = f"timeout after {args.timeout:.0f} s"
    if error or not text_path.exists():
        error = error or "no output"
        error_path.write_text(error, encoding="utf-8")
        return Outcome(None, error)
    return Outcome(text_path.read_text(encoding="utf-8"), "")


def _last_line(stderr: str, returncode: int) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return (lines[-1] if lines else f"exit status {returncode}")[:160]


def measure(entry, args) -> dict:
    reference = tokens(entry.reference_text or "")
    pages = int(entry.row.get("pages") or 0)
    row = {"file": entry.name, "pages": pages, "ref_words": sum(reference.values())}
    for tool in TOOLS:
        if tool != "ours" and pages > PEER_PAGE_LIMIT and not args.all:
            row[tool] = {"error": f"skipped: {pages} pages > {PEER_PAGE_LIMIT} (use --all)"}
            continue
        outcome = run_tool(tool, entry, args)
        if outcome.text is None:
            row[tool] = {"error": outcome.error}
        else:
            score = agreement(outcome.text, reference)
            row[tool] = {**score._asdict(), "p": score.precision, "r": score.recall}
            row[tool]["f1"] = score.f1
    return row


def _cell(result: dict) -> str:
    if "error" in result:
        return f"{'(' + result['error'][:22] + ')':>23}"
    return f"{result['p']:7.3f}{result['r']:8.3f}{result['f1']:8.3f}"


def summarise(rows: list[dict], label: str) -> None:
    print(f"\n{label}")
    print(
        f"{'tool':>10} {'files':>5} {'micro P':>8} {'micro R':>8} {'micro F1':>8}"
        f" {'macro P':>8} {'macro R':>8} {'macro F1':>8}"
    )
    for tool in TOOLS:
        results = [row[tool] for row in rows if "error" not in row[tool]]
        if not results:
            print(f"{tool:>10} {0:>5}")
            continue
        total = Agreement(*(sum(r[k] for r in results) for k in ("common", "ours", "ref")))
        n = len(results)
        macro = [sum(r[k] for r in results) / n for k in ("p", "r", "f1")]
        print(
            f"{tool:>10} {n:>5} {total.precision:8.3f} {total.recall:8.3f} {total.f1:8.3f}"
            f" {macro[0]:8.3f} {macro[1]:8.3f} {macro[2]:8.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=0, help="only the first N corpus files")
    parser.add_argument("--only", default="", help="only files whose name contains NAME")
    parser.add_argument("--worst", type=int, default=0, help="table of the K lowest our-F1 files")
    parser.add_argument("--all", action="store_true", help="run peers on files over 100 pages")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per tool per file")
    parser.add_argument("--refresh", action="store_true", help="ignore cached peer outputs")
    parser.add_argument(
        "--reuse-ours", action="store_true", help="score the texts of out/ours/ left by a last run"
    )
    parser.add_argument("--jobs", type=int, default=1, help="files measured at once")
    parser.add_argument("--json", type=Path, help="also write the per-file rows as JSON")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="override our rule"
    )
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(*args.worker)
        return
    entries = [e for e in corpus_files() if e.row.get("ref_ok") == "ok" and args.only in e.name]
    entries = entries[: args.files or None]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda entry: measure(entry, args), entries))
    shown = rows
    if args.worst:
        shown = sorted(rows, key=lambda row: row["ours"].get("f1", -1.0))[: args.worst]
    header = "".join(f"{tool + ' P/R/F1':>23}" for tool in TOOLS)
    print(f"{'file':<58}{'pages':>5}{'words':>7}{header}")
    for row in shown:
        cells = "".join(_cell(row[tool]) for tool in TOOLS)
        print(f"{row['file'][:58]:<58}{row['pages']:>5}{row['ref_words']:>7}{cells}")
    summarise(rows, f"each tool on every file it read ({len(rows)} files)")
    common = [row for row in rows if all("error" not in row[tool] for tool in TOOLS)]
    summarise(common, f"files every tool read ({len(common)} files)")
    failures = [
        (row["file"], t, row[t]["error"]) for row in rows for t in TOOLS if "error" in row[t]
    ]
    if failures:
        print("\nnot measured:")
        for name, tool, error in failures:
            print(f"  {tool:>10}  {name}: {error}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
