"""Stored reference output of the engine on a corpus sample (tests/test_corpus_reference.py).

    python tests/reference/regenerate.py [--only NAME ...]

Run it with the python of the engine that is to be the reference (the engine before a change
that must not alter output, e.g. `/path/to/main/.venv/bin/python tests/reference/regenerate.py`):
it imports whatever `glyphscope` that python has. For each file of SAMPLE it writes
tests/reference/corpus/<file>.json.xz holding, for each sampled page, `page_record`:

    extraction  every field of every glyph the interpreter produced (page and forms, drawing
                order), as one list per Glyph field, with `readable` and `truncated`
    analysis    analyse_page(page, Rules()).to_json(): the decision log (glyphs as the CLI's
                JSON writes them, the visible set, dropped records, gaps, line breaks, the
                texts of reading, layout, columns and structure with their char_glyphs,
                warnings, hidden text…), without `rules`: the defaults in force, which grow
                with every new rule, are configuration rather than output
    text        page_text(page, mode, Rules()) for each of the four modes: what
                `glyphscope-extract --mode MODE` writes (text mode takes its own, shorter path)

A page (or a document) that raises has {"error": class name, "message": text} instead. Lists
of records are stored as columns (`{"$columns": {key: [values]}}`, decode() restores them)
and compressed with xz: about 3× smaller than gzip of the plain JSON, so dense pages fit.
Floats are written by repr and so read back bit for bit.
"""

from __future__ import annotations

import argparse
import json
import lzma
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.corpus import CORPUS, corpus_files  # noqa: E402

REFERENCE = Path(__file__).resolve().parent / "corpus"
MODES = ("text", "layout", "columns", "structure")

# File → 1-based pages (None: every page). Chosen for what each exercises, so that the sample
# covers the producers (pdfTeX, dvipdfmx, Word, Excel, Quartz, cairo, Ghostscript, Distiller,
# LibreOffice, iText, TCPDF…), font kinds and page features the corpus has; the last eight
# are issue 9's benchmark files (the first page and a dense one each).
SAMPLE: dict[str, tuple[int, ...] | None] = {
    # pdfTeX Type 1 without ToUnicode (TeX glyph names, ligatures), a damaged xref
    "pdfbox__cweb.pdf": (1, 2),
    # Type 3 fonts: pdf.js' minimal one, matplotlib's, accented Type 3, emoji clusters
    "pdfjs__simpletype3font.pdf": None,
    "pdfminer__matplotlib.pdf": None,
    "pdfjs__french_diacritics.pdf": None,
    "pdfpig__grapheme-clusters-emoji.pdf": None,
    "pdfpig__ghostscript-697234-0.pdf": (1,),
    # Type 0 / CID: a predefined CJK CMap, CID TrueType Arabic, duplicate CJK overlaps
    "pdfjs__90ms_rksj_h_sample.pdf": None,
    "pdfjs__arabiccidtruetype.pdf": None,
    "pdfplumber__issue-71-duplicate-chars.pdf": None,
    # vertical writing (WMode 1): pdfium's, pdf.js' three pages, Japanese, a vfont
    "pdfium__vertical_text.pdf": None,
    "pdfjs__vertical.pdf": None,
    "pdfminer__jo.pdf": None,
    "pdfbox__pdfbox-3127-rau4g6qmovrybisju7r6movzcrfuo7p4-vfont.pdf": None,
    # right-to-left: bidi sample, mirrored Hebrew, LibreOffice Arabic
    "pdfbox__bidisample.pdf": None,
    "pdfium__hebrew_mirrored.pdf": None,
    "sample-files__habibi.pdf": None,
    # tagged structure: marked content, a Word 365 tree, a tree with nothing else
    "pdfium__tagged_marked_content.pdf": None,
    "pdfplumber__word365_structure.pdf": None,
    "pdfplumber__hello_structure.pdf": None,
    # rotated pages and text, crop boxes
    "pdfbox__pdfbox-2984-rotations.pdf": None,
    "pdfjs__hello_world_rotated.pdf": None,
    "pdfpig__cropped-and-rotated.pdf": None,
    "pdfium__cropped_text.pdf": None,
    # forms, form fields and annotation appearances, standard 14 fonts, symbol fonts
    "qpdf__boxes.pdf": None,
    "pdfjs__annotation-text-widget.pdf": None,
    "pdfminer__acroform_test.pdf": None,
    "pdfjs__standard_fonts.pdf": (1, 2),
    "pdfjs__zapfdingbats.pdf": None,
    # encryption (AES-256 R6, RC4 40-bit from LibreOffice, a user password), ligatures
    "pdfium__encrypted_hello_world_r6.pdf": None,
    "pdfminer__rc4-40.pdf": None,
    "pdfplumber__password-example.pdf": (1,),
    "pdfjs__copy_paste_ligatures.pdf": None,
    # multiple columns, PDF 2.0 with UTF-8 strings
    "sample-files__multicolumn.pdf": (1,),
    "pdf20examples__pdf20-utf8-test.pdf": None,
    # issue 9's eight files
    "pdfjs__tracemonkey.pdf": (1, 7),
    "pdfjs__pdkids.pdf": (1, 30),
    "pdfjs__tamreview.pdf": (1, 12),
    "pdfplumber__ca-warn-report.pdf": (1, 9),
    "pdfplumber__federal-register-2020-17221.pdf": (1, 8),
    "pdfplumber__issue-67-example.pdf": (1, 11),
    "pdfpig__capas.pdf": (1, 10),
    "pypdf__geobase_nhnc1_data_model_uml_en.pdf": (1, 10),
}


def _error(error: Exception) -> dict:
    return {"error": type(error).__name__, "message": str(error)}


def page_record(page: object) -> dict:
    """What the reference holds for one page of a glyphscope Document, as plain JSON data."""
    from glyphscope.core.analysis import analyse_page
    from glyphscope.core.output import page_text
    from glyphscope.core.records import Glyph
    from glyphscope.core.rules import Rules

    record: dict = {}
    try:
        extraction = page.extract(Rules())  # type: ignore[attr-defined]
        glyphs = [tuple(glyph) for glyph in extraction.glyphs]
        record["extraction"] = {
            "readable": extraction.readable,
            "truncated": extraction.truncated,
            "glyphs": {
                field: [glyph[i] for glyph in glyphs] for i, field in enumerate(Glyph._fields)
            },
        }
    except Exception as error:  # noqa: BLE001 - recorded: a reference of a failure is one too
        record["extraction"] = _error(error)
    try:
        analysis = analyse_page(page, Rules()).to_json()
        analysis.pop("rules")
        record["analysis"] = analysis
    except Exception as error:  # noqa: BLE001
        record["analysis"] = _error(error)
    texts = {}
    for mode in MODES:
        try:
            texts[mode] = list(page_text(page, mode, Rules()))
        except Exception as error:  # noqa: BLE001
            texts[mode] = _error(error)
    record["text"] = texts
    # Through JSON and back: tuples become lists, exactly as the stored reference reads.
    return json.loads(json.dumps(record))


def document_record(path: Path, password: str | None, pages: tuple[int, ...] | None) -> dict:
    """{"pages": {"N": page_record}} for the chosen pages, or {"document_error": …}."""
    import glyphscope

    try:
        document = glyphscope.open(path, password=password)
    except Exception as error:  # noqa: BLE001
        return {"document_error": _error(error)}
    with document:
        numbers = pages or tuple(range(1, len(document.pages) + 1))
        return {"pages": {str(n): page_record(document.pages[n - 1]) for n in numbers}}


def encode(value: object) -> object:
    """A list of dicts sharing their keys (in order) becomes {"$columns": {key: [values]}}."""
    if isinstance(value, dict):
        return {key: encode(item) for key, item in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(item, dict) for item in value):
            keys = list(value[0])
            if keys and all(list(item) == keys for item in value):
                return {"$columns": {key: encode([item[key] for item in value]) for key in keys}}
        return [encode(item) for item in value]
    return value


def decode(value: object) -> object:
    """The inverse of encode."""
    if isinstance(value, dict):
        if list(value) == ["$columns"]:
            columns = {key: decode(items) for key, items in value["$columns"].items()}
            rows = zip(*columns.values(), strict=True)
            return [dict(zip(columns, row, strict=True)) for row in rows]
        return {key: decode(item) for key, item in value.items()}
    if isinstance(value, list):
        return [decode(item) for item in value]
    return value


def read_reference(path: Path) -> dict:
    return decode(json.loads(lzma.decompress(path.read_bytes())))  # type: ignore[return-value]


def _engine() -> dict:
    import glyphscope

    source = Path(glyphscope.__file__).resolve().parent
    commit = subprocess.run(
        ["git", "-C", str(source), "log", "-1", "--format=%H %s"], capture_output=True, text=True
    ).stdout.strip()
    return {"glyphscope": str(source), "commit": commit, "python": sys.version.split()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="file-name substring")
    args = parser.parse_args()
    if not CORPUS.exists():
        sys.exit(f"no corpus at {CORPUS}")
    files = {f.name: f for f in corpus_files()}
    REFERENCE.mkdir(exist_ok=True)
    engine = _engine()
    print(f"engine: {engine['commit']} ({engine['glyphscope']})")
    for name, pages in SAMPLE.items():
        if args.only and not any(part in name for part in args.only):
            continue
        corpus_file = files[name]
        record = {"file": name, "engine": engine}
        record.update(document_record(corpus_file.path, corpus_file.password, pages))
        data = json.dumps(encode(record), ensure_ascii=False, sort_keys=False).encode()
        target = REFERENCE / f"{name}.json.xz"
        target.write_bytes(lzma.compress(data, preset=9))
        count = len(record.get("pages", {}))
        print(f"{target.stat().st_size // 1024:6d} KB  {count:3d} pages  {name}", flush=True)


if __name__ == "__main__":
    main()
