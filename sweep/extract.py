"""The engine on one document, as a worker runs it: every page's figures, texts and marks.

Only the library API is used (`glyphscope.open`, `Page.analysis`), so a sweep measures what a
user of the library gets. Typed errors become the "error" outcome; anything else escaping the
engine is recorded as an internal error of the document, never raised into the worker loop.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

import glyphscope
from glyphscope.core.analysis import PageAnalysis
from glyphscope.core.glyph_table import GlyphColumns, dictionary_encoded
from glyphscope.core.qa.diffing import RuleChanges
from glyphscope.core.records import DecodeSource
from glyphscope.errors import GlyphscopeError, PasswordRequiredError, WrongPasswordError
from glyphscope.sweep.agreement import pdfium_page_texts, word_f1
from glyphscope.sweep.compare import decision_changes, words_changed
from glyphscope.sweep.jobs import ERROR, MEMORY, OK, DocumentJob, DocumentResult, PageResult

MAX_MARKS = 400  # per page: enough to see where, small enough for the report
UNRESOLVED: str = DecodeSource.UNRESOLVED.value


def run_document(job: DocumentJob) -> DocumentResult:
    started = time.perf_counter()
    try:
        result = _read(job)
    except GlyphscopeError as exc:
        result = DocumentResult(ERROR, f"{type(exc).__name__}: {exc}")
    except MemoryError:
        result = DocumentResult(MEMORY, "MemoryError inside the memory limit")
    except RecursionError as exc:
        result = DocumentResult(ERROR, f"internal RecursionError: {exc}")
    except Exception as exc:  # an engine bug: recorded against this document, sweep goes on
        result = DocumentResult(ERROR, f"internal {type(exc).__name__}: {exc}")
    return _with_seconds(result, time.perf_counter() - started)


def _read(job: DocumentJob) -> DocumentResult:
    settings = job.settings
    rules = glyphscope.Rules.from_json(settings.rules)
    other = None if settings.compare is None else glyphscope.Rules.from_json(settings.compare)
    source = job.data if job.data is not None else job.path
    document, password = _open(source, job.passwords)
    with document:
        pdfium_texts = pdfium_page_texts(source, password) if settings.pdfium else None
        pages = []
        for page in document.pages:
            analysis = page.analysis(rules)
            compared = None if other is None else page.analysis(other)
            pdfium_text = None
            if pdfium_texts is not None and page.index < len(pdfium_texts):
                pdfium_text = pdfium_texts[page.index]
            pages.append(_page_result(page, analysis, compared, settings.modes, pdfium_text))
        pdf = document.pdf
        return DocumentResult(
            OK,
            page_count=document.page_count,
            producer=str(pdf.docinfo.get("/Producer", "")).strip() if pdf.docinfo else "",
            tagged=_tagged(pdf),
            encrypted=bool(pdf.is_encrypted),
            pages=tuple(pages),
        )


def _open(
    source: str | bytes, passwords: tuple[str, ...]
) -> tuple[glyphscope.Document, str | None]:
    """Open with no password (an empty user password, §7.6.3.3), then each one given."""
    try:
        return glyphscope.open(source), None
    except PasswordRequiredError:
        if not passwords:
            raise
    for password in passwords:
        try:
            return glyphscope.open(source, password), password
        except WrongPasswordError:
            continue
    raise WrongPasswordError(f"none of the {len(passwords)} passwords given opens the document")


def _page_result(
    page: glyphscope.Page,
    analysis: PageAnalysis,
    compared: PageAnalysis | None,
    modes: tuple[str, ...],
    pdfium_text: str | None,
) -> PageResult:
    glyphs = analysis.glyphs
    columns = glyphs if isinstance(glyphs, GlyphColumns) else GlyphColumns.from_glyphs(glyphs)
    visible = np.asarray(analysis.visible, dtype=np.intp)
    sources, unresolved = _decode_sources(columns, visible)
    off_box = [d.index for d in analysis.dropped if d.reason == "outside_visible_box"]
    duplicates = [d.index for d in analysis.dropped if d.reason == "duplicate"]
    structure = analysis.structure
    marked = [("unresolved", unresolved), ("duplicate", duplicates), ("off_box", off_box)]
    marks = _marks(columns, marked)
    result = PageResult(
        page=page.number,
        glyphs=len(glyphs),
        visible=len(visible),
        dropped_off_box=len(off_box),
        dropped_duplicates=len(duplicates),
        unresolved=len(unresolved),
        unresolved_fonts=tuple(
            sorted({columns.font_name[i] or columns.font_key[i] for i in unresolved.tolist()})
        ),
        decode_sources=sources,
        truncated=analysis.truncated,
        warnings=analysis.warnings,
        structure_trusted=None if structure is None else structure.trusted,
        untagged=0 if structure is None else len(structure.untagged),
        structure_total=0 if structure is None else structure.total,
        texts=_texts(analysis, modes),
        crop_box=tuple(page.crop_box),
        rotate=page.rotate,
    )
    extra: dict = {}
    if pdfium_text is not None:
        extra["pdfium_f1"], extra["pdfium_words"] = word_f1(analysis.reading.text, pdfium_text)
    if compared is not None:
        changes, counts = decision_changes(analysis, compared)
        marks += _change_marks(changes, compared)
        extra["compare_texts"] = _texts(compared, modes)
        extra["changes"] = counts
        extra["words_changed"] = words_changed(analysis.reading.text, compared.reading.text)
    return replace(result, marks=tuple(marks[:MAX_MARKS]), **extra)


def _decode_sources(columns: GlyphColumns, visible: np.ndarray) -> tuple[dict, np.ndarray]:
    """How many visible glyphs each decode source gave (keys in order of first appearance
    among the visible glyphs) and the rows of the unresolved ones, from the columns: no
    record per glyph on the sweep's path."""
    codes, distinct = dictionary_encoded(columns.decode_source)
    codes = codes[visible]
    present, first = np.unique(codes, return_index=True)
    counts = np.bincount(codes, minlength=len(distinct))
    sources = {distinct[code]: int(counts[code]) for code in present[np.argsort(first)].tolist()}
    unresolved = visible[codes == distinct.index(UNRESOLVED)] if UNRESOLVED in distinct else []
    return sources, np.asarray(unresolved, dtype=np.intp)


def _marks(columns: GlyphColumns, marked: list[tuple[str, Sequence[int]]]) -> list:
    """The first MAX_MARKS marks, kind by kind: only the glyphs kept are read."""
    marks: list = []
    for kind, rows in marked:
        rows = list(rows[: MAX_MARKS - len(marks)])
        marks += [_mark(kind, quad) for quad in columns.quad[rows].tolist()]
    return marks


def _texts(analysis: PageAnalysis, modes: tuple[str, ...]) -> dict[str, str]:
    texts = {
        "reading": analysis.reading.text,
        "layout": analysis.layout.text,
        "columns": analysis.columns.text.text,
    }
    if analysis.structure is not None:
        texts["structure"] = analysis.structure.text.text
    return {mode: text for mode, text in texts.items() if mode in modes}


def _change_marks(changes: RuleChanges, after: PageAnalysis) -> list:
    if not changes.comparable:
        return []
    return [
        _mark("changed", after.glyphs[index].quad)
        for _, indices in changes.categories()
        for index in indices
    ]


def _mark(kind: str, quad) -> tuple[str, float, float, float, float]:
    xs = [point[0] for point in quad]
    ys = [point[1] for point in quad]
    return (kind, round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2))


def _tagged(pdf) -> bool:
    """A structure tree (§14.7.2) is what structure order reads, MarkInfo or not."""
    return "/StructTreeRoot" in pdf.Root


def _with_seconds(result: DocumentResult, seconds: float) -> DocumentResult:
    return replace(result, seconds=round(seconds, 4))
