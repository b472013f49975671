"""The QA tools' own engine work, in a worker process of their own.

`QaCore` owns a second core `Document` of the open file and lives in its own worker process
(inspector.worker_process, so no engine call holds the window's GIL): reading-order texts
for search and comparison, analyses under the spec's rules, the single-page PDF of a
regression case. `page_details` (operators, fonts and structure tree of the page just
analysed) runs in the window's analysis worker instead, where that page's extraction is
already cached. pdfium's text (the comparison target) is read by `pdfium_texts` in the
window's render worker, which owns every pdfium call.

Every job returns a value, never raises: the window reports a failed job on its own workers
as a page that could not be rendered or analysed, which these are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from glyphscope.core.fonts.loader import FontInfo
from glyphscope.core.interpret.content import OperatorRecord
from glyphscope.core.pdf import cos
from glyphscope.core.qa.diffing import PdfiumText, WordDiff, word_diff
from glyphscope.core.qa.search import SearchHit, SearchQuery, search_text
from glyphscope.core.rules import Rules
from glyphscope.core.structure.tree import StructureNode
from glyphscope.core.text.prepared import prepare_glyphs
from glyphscope.core.text.reading import TextResult, reading_order
from glyphscope.core.text.visible import visible_glyphs
from glyphscope.inspector.worker_child import WorkerOwned

# Operands shown of one operator; the rest is counted, not sent to the window.
MAX_OPERAND_CHARS = 2_000


@dataclass(frozen=True, slots=True)
class JobFailure:
    message: str


@dataclass(frozen=True, slots=True)
class PageDetails:
    """What the provenance, content-stream, fonts and structure panels show of one page."""

    page_index: int
    rules: Rules
    operators: tuple[OperatorRecord, ...]
    fonts: dict[tuple[str, str], FontInfo]
    structure_root: StructureNode | None
    warnings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PageComparison:
    page_index: int
    diff: WordDiff


def failure(exc: Exception) -> JobFailure:
    return JobFailure(f"{type(exc).__name__}: {exc}".strip(": "))


class QaCore(WorkerOwned):
    """The QA tools' `core.document.Document`; every method runs in the QA worker only."""

    def __init__(self) -> None:
        self._document = None
        self._source: tuple[str, str | None] | None = None
        self._repairs: cos.RepairLog | None = None

    def open(self, path: str, password: str | None) -> int | JobFailure:
        from glyphscope.core.document import Document

        if self._source == (path, password) and self._document is not None:
            return self._document.page_count
        self.close()
        try:
            self._document = Document.open(path, password=password)
        except Exception as exc:  # reported in the QA panels, never raised into the worker
            return failure(exc)
        self._source = (path, password)
        return self._document.page_count

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        self._document = None
        self._source = None

    @property
    def document(self):
        return self._document

    def reading_text(self, index: int, rules: Rules) -> TextResult:
        """Reading-order text (spec §6) of one page, without the other modes."""
        page = self._document.page(index)
        extraction = page.extract(rules)
        if not extraction.readable:
            return TextResult("", ())
        visible = visible_glyphs(extraction.glyphs, page.visible_box, rules).visible
        prepared = prepare_glyphs(extraction.glyphs, visible, extraction.replacements, rules)
        return reading_order(prepared.glyphs, prepared.order, rules, decisions=False).text

    def reading_texts(
        self, indices: Sequence[int], rules: Rules
    ) -> list[tuple[int, TextResult | JobFailure]]:
        results: list[tuple[int, TextResult | JobFailure]] = []
        for index in indices:
            try:
                results.append((index, self.reading_text(index, rules)))
            except Exception as exc:
                results.append((index, failure(exc)))
        return results

    def search_pages(
        self, indices: Sequence[int], rules: Rules, query: SearchQuery
    ) -> tuple[Sequence[int], list[SearchHit], list[tuple[int, JobFailure]]]:
        """The hits of `query` on these pages; their texts are not kept (a 2,000-page search
        holds its hits, not 2,000 pages of text)."""
        hits: list[SearchHit] = []
        failures: list[tuple[int, JobFailure]] = []
        for index in indices:
            try:
                hits.extend(search_text(index, self.reading_text(index, rules), query))
            except Exception as exc:  # one unreadable page; the search goes on
                failures.append((index, failure(exc)))
        return indices, hits, failures

    # -- COS object browser (glyphscope.core.pdf.cos) ---------------------------------------
    def _cos_log(self) -> cos.RepairLog:
        pdf = self._document.pdf
        if self._repairs is None or self._repairs.pdf is not pdf:
            self._repairs = cos.RepairLog(pdf, self._document.opening_warnings)
        return self._repairs

    def cos_roots(self) -> list[cos.CosNode] | JobFailure:
        try:
            return cos.roots(self._cos_log())
        except Exception as exc:  # a damaged trailer: shown in the panel
            return failure(exc)

    def cos_children(self, address: cos.CosAddress):
        """(address, its children or the reason there are none)."""
        try:
            return address, cos.children(self._cos_log(), address)
        except Exception as exc:  # one unreadable object; the rest of the tree still works
            return address, f"unreadable: {exc}"

    def cos_stream(self, address: cos.CosAddress):
        try:
            return address, cos.stream_at(self._document.pdf, address)
        except Exception as exc:
            return address, f"unreadable stream: {exc}"

    def cos_link(self, what: str, *args):
        """The node a link from another panel leads to: ("object", objgen),
        ("font", page_index, form_path, font_key) or ("page", page_index)."""
        log = self._cos_log()
        pdf = self._document.pdf
        try:
            if what == "object":
                return cos.object_node(log, args[0])
            if what == "font":
                page_index, form_path, key = args
                address = cos.font_address(pdf, page_index, form_path, key)
                where = f" in {form_path}" if form_path else ""
                return cos.node_at(log, address, f"font /{key}{where}, page {page_index + 1}")
            return cos.node_at(log, cos.page_address(pdf, args[0]), f"page {args[0] + 1}")
        except Exception as exc:
            return failure(exc)

    def compare_pages(
        self, theirs: dict[int, str | JobFailure], rules: Rules
    ) -> list[PageComparison | tuple[int, JobFailure]]:
        """Word diffs of our reading order against pdfium's text, page by page."""
        results: list[PageComparison | tuple[int, JobFailure]] = []
        for index, text in sorted(theirs.items()):
            if isinstance(text, JobFailure):
                results.append((index, text))
                continue
            try:
                results.append(
                    PageComparison(index, word_diff(self.reading_text(index, rules), text))
                )
            except Exception as exc:
                results.append((index, failure(exc)))
        return results

    def analyse_defaults(self, index: int):
        """(index, the page's analysis under the spec's rules, or JobFailure)."""
        from glyphscope.core.analysis import analyse_page

        try:
            return index, analyse_page(self._document.page(index), Rules())
        except Exception as exc:  # shown in the Rules panel summary
            return index, JobFailure(str(exc))

    def single_page(self, index: int, rules: Rules):
        """(minimal PDF bytes, texts of each mode read in the source document)."""
        from glyphscope.core.qa.regression import expected_texts, single_page_pdf

        try:
            return single_page_pdf(self._document.pdf, index), expected_texts(
                self._document, index, rules
            )
        except Exception as exc:
            return failure(exc)


def page_details(core, index: int, rules: Rules) -> PageDetails | JobFailure:
    """What the provenance, content-stream, fonts and structure panels show of page `index`.
    A job for the window's analysis worker (`core` is its inspector.workers.analysis.CoreOwner):
    right after the page's analysis, `Page.extract` is a hit in the document's extraction
    cache, so the page is not interpreted a second time."""
    from glyphscope.core.structure.order import structure_tree

    try:
        document = core.document
        page = document.page(index)
        extraction = page.extract(rules)
        warnings = list(extraction.warnings)
        try:
            root = structure_tree(document.pdf, index, rules)
        except Exception as exc:  # a damaged tree must not cost the other panels
            root = None
            warnings.append(f"structure tree unreadable: {exc}")
        operators = tuple(_shortened(record) for record in page.operators(rules))
        return PageDetails(index, rules, operators, dict(extraction.fonts), root, tuple(warnings))
    except Exception as exc:
        return failure(exc)


def _shortened(record: OperatorRecord) -> OperatorRecord:
    """The record as a pane can show it: a hostile stream can make an operator or its
    operands megabytes long (a RunLength bomb's page parses as one 134 MB "operator"), which
    would cost the window half a second to receive and the pane far more to lay out."""
    if len(record.operator) <= MAX_OPERAND_CHARS and len(record.operands) <= MAX_OPERAND_CHARS:
        return record
    return replace(record, operator=_cut(record.operator), operands=_cut(record.operands))


def _cut(text: str) -> str:
    if len(text) <= MAX_OPERAND_CHARS:
        return text
    return f"{text[:MAX_OPERAND_CHARS]}… ({len(text):,} characters)"


def compare_one(ours: TextResult, theirs: str | JobFailure) -> WordDiff | JobFailure:
    if isinstance(theirs, JobFailure):
        return theirs
    return word_diff(ours, theirs)


def pdfium_texts(path: str, password: str | None, indices: Sequence[int]):
    """pdfium's text of some pages, {index: text or JobFailure}; runs in the render worker.
    The pdfium document is opened and closed within the job, so no handle outlives it."""
    source = PdfiumText()
    try:
        source.open(path, password)
    except Exception as exc:
        return {index: failure(exc) for index in indices}
    texts: dict[int, str | JobFailure] = {}
    try:
        for index in indices:
            try:
                texts[index] = source.page_text(index)
            except Exception as exc:
                texts[index] = failure(exc)
    finally:
        source.close()
    return texts
