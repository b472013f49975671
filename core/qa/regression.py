"""Regression cases: one page frozen as a minimal PDF, the rules, and the exact text of each mode.

A case is a folder the core test suite (tests/test_regression_cases.py) runs:

    page.pdf              the page alone (with the structure tree when the source is tagged)
    rules.json            Rules.to_json(), the format `glyphscope-extract --rules FILE` reads
    expected/<mode>.txt   core.output.page_text for each mode of core.output.MODES, UTF-8
    case.json             where the page came from

The expected texts are computed from page.pdf itself, not from the source document, so a
case is self-contained; `write_case` reports where the single page reads differently from
the page in its source (a page that leaned on something outside itself).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pikepdf

from glyphscope.core.document import Document
from glyphscope.core.errors import RegressionCaseError
from glyphscope.core.output import MODES, page_text
from glyphscope.core.rules import Rules

PAGE_FILE = "page.pdf"
RULES_FILE = "rules.json"
CASE_FILE = "case.json"
EXPECTED_DIR = "expected"


@dataclass(frozen=True, slots=True)
class RegressionCase:
    folder: Path
    rules: Rules
    expected: dict[str, str]
    source: str = ""
    page_number: int = 0

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def pdf_path(self) -> Path:
        return self.folder / PAGE_FILE


def single_page_pdf(pdf: pikepdf.Pdf, index: int) -> bytes:
    """Page `index` of `pdf` alone in a new file (a direct structure tree root is made
    indirect in `pdf` first, in memory only). qpdf pushes inherited attributes (§7.7.3.4)
    down onto the copied page; the structure tree and /MarkInfo come along (§14.7.2, §14.7.1)
    so structure order can still be read, and qpdf maps the tree's /Pg to the copied page."""
    out = pikepdf.new()
    out.pages.append(pdf.pages[index])
    struct_root = pdf.Root.get("/StructTreeRoot")
    if isinstance(struct_root, pikepdf.Dictionary):
        if not struct_root.is_indirect:
            struct_root = pdf.make_indirect(struct_root)  # copy_foreign takes indirect objects
        out.Root.StructTreeRoot = out.copy_foreign(struct_root)
        mark_info = pdf.Root.get("/MarkInfo")
        if isinstance(mark_info, pikepdf.Dictionary):
            out.Root.MarkInfo = pikepdf.Dictionary(Marked=bool(mark_info.get("/Marked", False)))
    buffer = io.BytesIO()
    out.save(buffer, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return buffer.getvalue()


def expected_texts(document: Document, index: int, rules: Rules) -> dict[str, str]:
    """The text of page `index` in every mode, as the case will assert it."""
    page = document.page(index)
    return {mode: page_text(page, mode, rules).text for mode in MODES}


def case_name(text: str) -> str:
    """A folder name from free text: letters, digits, '-' and '_' only."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-_")
    return name[:80] or "case"


def write_case(
    root: str | Path,
    name: str,
    page_pdf: bytes,
    rules: Rules,
    source: str = "",
    page_number: int = 0,
    source_texts: dict[str, str] | None = None,
) -> tuple[RegressionCase, tuple[str, ...]]:
    """Write a case folder `root/name` (refusing to overwrite one) and return it with the
    modes whose text differs from `source_texts` (the page read inside its source file)."""
    folder = Path(root) / case_name(name)
    if folder.exists():
        raise RegressionCaseError(f"{folder} already exists")
    with Document.open(page_pdf) as document:
        expected = expected_texts(document, 0, rules)
    (folder / EXPECTED_DIR).mkdir(parents=True)
    (folder / PAGE_FILE).write_bytes(page_pdf)
    (folder / RULES_FILE).write_text(rules.to_json() + "\n", encoding="utf-8")
    for mode, text in expected.items():
        (folder / EXPECTED_DIR / f"{mode}.txt").write_bytes(text.encode("utf-8"))
    record = {"source": source, "page": page_number, "modes": list(MODES)}
    (folder / CASE_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    differing = tuple(
        mode
        for mode in MODES
        if source_texts is not None and source_texts.get(mode) != expected[mode]
    )
    return RegressionCase(folder, rules, expected, source, page_number), differing


def load_case(folder: str | Path) -> RegressionCase:
    folder = Path(folder)
    missing = [n for n in (PAGE_FILE, RULES_FILE, CASE_FILE) if not (folder / n).is_file()]
    if missing:
        raise RegressionCaseError(f"{folder} is not a regression case: no {', '.join(missing)}")
    record = json.loads((folder / CASE_FILE).read_text(encoding="utf-8"))
    expected = {}
    for mode in record.get("modes", MODES):
        path = folder / EXPECTED_DIR / f"{mode}.txt"
        if not path.is_file():
            raise RegressionCaseError(f"{folder}: no expected text for mode {mode}")
        expected[mode] = path.read_bytes().decode("utf-8")
    return RegressionCase(
        folder,
        Rules.load(folder / RULES_FILE),
        expected,
        str(record.get("source", "")),
        int(record.get("page", 0)),
    )


def discover_cases(root: str | Path) -> list[Path]:
    """Every case folder directly under `root` (those holding a case.json), sorted by name."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if (p / CASE_FILE).is_file())


def actual_texts(case: RegressionCase) -> dict[str, str]:
    """What the engine reads from the case's page today, for each mode the case holds."""
    with Document.open(case.pdf_path) as document:
        page = document.page(0)
        return {mode: page_text(page, mode, case.rules).text for mode in case.expected}
