"""Our reading-order text beside PyMuPDF and pdftotext on the corpus's right-to-left, accented
and TeX files (issue 12), scored against known text.

    python3 tests/bench/rtl_accent_tex.py [--out DIR]

Known text: written out below for the files whose pdftotext reference is itself wrong (the
second Hebrew word of pdfium__hebrew_mirrored.pdf is reversed there) or whose content is short
enough to state; otherwise pdftotext's reference text (../shared/corpus/refs), so on those
files pdftotext scores 1 by construction and the comparison that counts is ours against
PyMuPDF. Scores: word F1 of the normalised token multisets (text_agreement.tokens: NFKC, bidi
controls removed) and order, difflib's ratio of the two token sequences (1: same words in the
same order). pdftotext runs live when installed (poppler-utils), PyMuPDF when importable
(the bench extra).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.text_agreement import (  # noqa: E402
    BIDI_CONTROLS,
    UNSPACED_SCRIPT,
    agreement,
    tokens,
)
from tests.corpus import CORPUS  # noqa: E402

ARABIC_TITLE = "انواع الخطوط العربية"
KNOWN = {
    "pdfium__hebrew_mirrored.pdf": "בנימין\nבן",
    "pdfjs__arabiccidtruetype.pdf": "\n".join([ARABIC_TITLE] * 4),
}
GROUPS = {
    "rtl": [
        "pdfbox__bidisample.pdf",
        "pdfium__hebrew_mirrored.pdf",
        "pdfjs__arabiccidtruetype.pdf",
        "sample-files__habibi.pdf",
        "pdfjs__issue11656.pdf",
        "pdfjs__issue19971.pdf",
        "pdfjs__thuluthfeatures.pdf",
        "pdfpig__testpdf-1.pdf",
    ],
    "accents": ["pdfjs__tracemonkey.pdf", "pdfjs__french_diacritics.pdf"],
    "tex": [
        "pdfpig__mozilla-10372-2.pdf",
        "pdfpig__icml03-081.pdf",
        "pdfbox__cweb.pdf",
        "sample-files__pdflatex-4-pages.pdf",
        "pdfpig__2108.11480.pdf",
    ],
}
ORDER_TOKEN_LIMIT = 30_000
# pdftotext writes the T1 ligature and quote codes of this file's dvips fonts as C0 controls
# ("Di\x1berent"); its known text is the reference with those codes read through T1.
T1_REFERENCES = {"pdfpig__mozilla-10372-2.pdf"}


def ours(path: Path) -> str:
    import io

    from glyphscope.core.document import Document
    from glyphscope.core.output import write_document_text

    stream = io.BytesIO()
    with Document.open(path) as document:
        write_document_text(document, stream)
    return stream.getvalue().decode("utf-8")


def pymupdf_text(path: Path) -> str | None:
    try:
        import pymupdf
    except ImportError:
        return None
    with pymupdf.open(path) as document:
        return "\f".join(page.get_text() for page in document)


def pdftotext(path: Path) -> str | None:
    if shutil.which("pdftotext") is None:
        return None
    result = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, timeout=300
    )
    return result.stdout.decode("utf-8", errors="replace")


def order(text: str, known: str) -> float | None:
    ours_tokens, known_tokens = _sequence(text), _sequence(known)
    if max(len(ours_tokens), len(known_tokens)) > ORDER_TOKEN_LIMIT:
        return None
    return difflib.SequenceMatcher(None, ours_tokens, known_tokens, autojunk=False).ratio()


def _sequence(text: str) -> list[str]:
    """The tokens of text_agreement.tokens, in text order."""
    text = unicodedata.normalize("NFKC", text).translate(BIDI_CONTROLS)
    return UNSPACED_SCRIPT.sub(r" \1 ", text).split()


def _through_t1(text: str) -> str:
    # Loaded from this checkout's file, so an older engine (a "before" run) can be scored
    # against the same known text.
    import importlib.util

    spec = importlib.util.spec_from_file_location("tex_tables", ROOT / "core/fonts/tex.py")
    assert spec is not None and spec.loader is not None
    tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tables)
    T1 = tables.T1  # noqa: N806

    controls = {code: T1[code] for code in range(32) if code in T1 and chr(code) not in "\n\f"}
    return text.translate(controls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "bench" / "out" / "i12")
    parser.add_argument("--only", default="", help="only files whose name contains NAME")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"{'group':<8}{'file':<40}{'known':>9}" + "".join(f"{t:>22}" for t in TOOLS))
    for group, names in GROUPS.items():
        for name in names:
            if args.only not in name:
                continue
            path = CORPUS / name
            reference = CORPUS / "refs" / f"{name}.pdftotext.txt"
            known = KNOWN.get(name) or reference.read_text(encoding="utf-8", errors="replace")
            source = "stated" if name in KNOWN else "pdftotext"
            if name in T1_REFERENCES:
                known, source = _through_t1(known), "ref+T1"
            cells = []
            for tool, run in (("ours", ours), ("pymupdf", pymupdf_text), ("pdftotext", pdftotext)):
                text = run(path)
                if text is None:
                    cells.append(f"{'—':>22}")
                    continue
                (args.out / f"{name}.{tool}.txt").write_text(text, encoding="utf-8")
                f1 = agreement(text, tokens(known)).f1
                sequence = order(text, known)
                shown = "—" if sequence is None else f"{sequence:.3f}"
                cells.append(f"{f'F1 {f1:.3f} ord {shown}':>22}")
            print(f"{group:<8}{name[:39]:<40}{source:>9}" + "".join(cells))


TOOLS = ("ours", "pymupdf", "pdftotext")

if __name__ == "__main__":
    main()
