"""The QA tools' own engine work, off the GUI thread.

`QaCore` owns a second core `Document` of the open file (a pikepdf `Pdf` is not shared between
threads) and runs on its own `OwnerThread`: reading-order texts for search and comparison,
analyses under the spec's rules, the single-page PDF of a regression case. `page_details`
(operators, fonts and structure tree of the page just analysed) runs on the window's analysis
thread instead, where that page's extraction is already cached. pdfium's text (the comparison
target) is read by `pdfium_texts` on the window's render thread, which owns every pdfium call.

Every job returns a value, never raises: the window reports a failed job on its own threads
as a page that could not be rendered or analysed, which these are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.fonts.loader import FontInfo
from glyphscope.core.interpret.content import OperatorRecord
from glyphscope.core.qa.diffing import PdfiumText, WordDiff, word_diff
from glyphscope.core.rules import Rules
from glyphscope.core.structure.tree import StructureNode
from glyphscope.core.text.prepared import prepare_glyphs
from glyphscope.core.text.reading import TextResult, reading_order
from glyphscope.core.text.visible import visible_glyphs


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


class QaCore:
    """The QA tools' `core.document.Document`; every method runs on the QA thread only."""

    def __init__(self) -> None:
        self._document = None
        self._source: tuple[str, str | None] | None = None

    def open(self, path: str, password: str | None) -> int | JobFailure:
        from glyphscope.core.document import Document

        if self._source == (path, password) and self._document is not None:
            return self._document.page_count
        self.close()
        try:
            self._document = Document.open(path, password=password)
        except Exception as exc:  # reported in the QA panels, never raised into the thread
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
        return reading_order(prepared.glyphs, prepared.order, rules).text

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
    A job for the window's analysis thread (`core` is its inspector.analysis_worker.CoreOwner):
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
        return PageDetails(
            index, rules, page.operators(rules), dict(extraction.fonts), root, tuple(warnings)
        )
    except Exception as exc:
        return failure(exc)


def compare_one(ours: TextResult, theirs: str | JobFailure) -> WordDiff | JobFailure:
    if isinstance(theirs, JobFailure):
        return theirs
    return word_diff(ours, theirs)


def pdfium_texts(path: str, password: str | None, indices: Sequence[int]):
    """pdfium's text of some pages, {index: text or JobFailure}; runs on the render thread.
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
