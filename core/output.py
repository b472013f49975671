"""Whole documents to a stream (spec §10, `ExtractLoadedPagesTextToStream`).

Pages are joined by the separator (form feed by default), so page n of the output is the
text between the (n-1)th and nth separators: an unreadable page is written as empty text and
still counted, keeping that alignment. Text is UTF-8, with a BOM first when asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from glyphscope.core.errors import PageRangeError, TextModeError
from glyphscope.core.interpret.content import contents_problem
from glyphscope.core.interpret.interpreter import extract_page
from glyphscope.core.records import HiddenSelection, TextMode
from glyphscope.core.rules import Rules
from glyphscope.core.stages import guarded, without_bidi
from glyphscope.core.text.prepared import PreparedGlyphs, prepare_glyphs
from glyphscope.core.text.reading import reading_order
from glyphscope.core.text.visible import visible_glyphs, visible_rows

if TYPE_CHECKING:
    from glyphscope.core.pdf.document import PdfDocument, PdfPage

# The text modes as `glyphscope-extract --mode` names them: "text", "layout", "columns",
# "structure".
MODES = tuple(mode.command_name for mode in TextMode)
UTF8_BOM = b"\xef\xbb\xbf"
# The interpreter's warning for a page without /Contents (a blank page: nothing to report).
BLANK = "page has no content stream"


def parse_page_range(text: str, page_count: int) -> list[int]:
    """1-based "1-3,7" → 0-based [0, 1, 2, 6]; "" means every page; "5-" runs to the end,
    "-3" from the first page. Pages keep the order written, each once."""
    if not text.strip():
        return list(range(page_count))
    pages: list[int] = []
    seen: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            start = int(first) if first.strip() else 1
            end = (int(last) if last.strip() else page_count) if dash else start
        except ValueError:
            raise PageRangeError(f"page range {part.strip()!r} is not N, N-M or N-") from None
        if not 1 <= start <= end <= page_count:
            raise PageRangeError(f"page range {part.strip()!r} is outside 1-{page_count}")
        for index in range(start - 1, end):
            if index not in seen:
                seen.add(index)
                pages.append(index)
    return pages


@dataclass(frozen=True, slots=True)
class WriteReport:
    """What `write_document_text` wrote: `pages`, the number of pages (spec §10), `notes`
    (one line each: a stage that failed on a page, a pixel test skipped, and in structure
    mode a page that fell back to reading order and why, or its untagged count) and
    `structured_pages` (0-based indices of the pages read in structure order)."""

    pages: int
    notes: tuple[str, ...] = ()
    structured_pages: tuple[int, ...] = ()


class PageText(NamedTuple):
    text: str
    structured: bool = False
    note: str = ""


def _text_mode(mode: str) -> TextMode:
    """The TextMode of a member, or of one of MODES (reading order is "text" here)."""
    if isinstance(mode, TextMode):
        return mode
    if mode not in MODES:
        raise TextModeError(f"text mode {mode!r} is not one of {', '.join(MODES)}")
    return TextMode.READING if mode == "text" else TextMode(mode)


def page_text(
    page: PdfPage,
    mode: str,
    rules: Rules,
    hidden: str = HiddenSelection.INCLUDE,
    failures: list[str] | None = None,
) -> PageText:
    """One page as text in `mode` (a TextMode, or one of MODES); "" when the page has no
    readable content.
    "structure" falls back to reading order when the page has no trusted structure (§9), and
    says why in `note`; a page read in structure order notes its untagged glyph count.
    `hidden` EXCLUDE or ONLY reads the visible glyphs without, or only, the hidden ones
    (core.text.hidden, with the pixel test); INCLUDE is the spec's box test alone.
    A stage that failed (core.stages) is left out, and `failures`, when given, gets a line
    naming the page and the stage."""
    warnings: list[str] = []
    text = _page_text(page, _text_mode(mode), rules, hidden, warnings)
    if failures is not None:
        failures.extend(f"page {page.number}: {line}" for line in warnings)
    return text


def _page_text(
    page: PdfPage, mode: TextMode, rules: Rules, hidden: str, warnings: list[str]
) -> PageText:
    """page_text, the failures of the guarded stages appended to `warnings`."""
    extraction = extract_page(page, rules)
    if not extraction.readable:
        # A blank page (no /Contents) is silent; a stream that could not be read says why,
        # on one line (in structure mode, the line that says the page has no structure).
        problems = [contents_problem(page)] + [w for w in extraction.warnings if w != BLANK]
        why = "; ".join(problem for problem in problems if problem)
        if mode is not TextMode.STRUCTURE:
            warnings.extend([why] if why else [])
            return PageText("")
        note = f"page {page.number}: no readable content stream" + (f" ({why})" if why else "")
        return PageText("", False, note)
    painted = extraction.glyphs
    visible_order: Sequence[int]
    if hidden == HiddenSelection.INCLUDE:
        visible_order = visible_rows(painted, page.visible_box, rules)
    else:
        from glyphscope.core.text.hidden import select_hidden
        from glyphscope.core.text.ink import page_hidden  # pypdfium2 and numpy

        visible_result = visible_glyphs(painted, page.visible_box, rules)
        found, _ = page_hidden(
            page, painted, extraction.clips, visible_result, rules, ink=True, warnings=warnings
        )
        visible_order = select_hidden(visible_result.visible, found, hidden)
    prepared = guarded(
        "replacement text and accents",
        warnings,
        lambda: prepare_glyphs(painted, visible_order, extraction.replacements, rules),
        lambda: PreparedGlyphs(painted, tuple(visible_order)),
    )
    glyphs, visible = prepared.glyphs, prepared.order

    def reading() -> str:
        return guarded(
            "bidi",
            warnings,
            lambda: reading_order(glyphs, visible, rules, decisions=False).text.text,
            lambda: reading_order(glyphs, visible, without_bidi(rules), decisions=False).text.text,
        )

    # Each mode imports its own stage, so that text mode loads no layout, columns or structure.
    if mode is TextMode.LAYOUT:
        from glyphscope.core.text.layout import layout_text

        return PageText(
            guarded(
                "layout grid",
                warnings,
                lambda: guarded(
                    "bidi",
                    warnings,
                    lambda: layout_text(glyphs, visible, rules).text,
                    lambda: layout_text(glyphs, visible, without_bidi(rules)).text,
                ),
                reading,
            )
        )
    if mode is TextMode.COLUMNS:
        from glyphscope.core.text.columns import columns_text

        return PageText(
            guarded(
                "columns", warnings, lambda: columns_text(glyphs, visible, rules).text.text, reading
            )
        )
    if mode is TextMode.READING:
        return PageText(reading())
    from glyphscope.core.structure.order import NoStructure, structure_outcome

    outcome = guarded(
        "structure order",
        warnings,
        lambda: structure_outcome(page, glyphs, visible, rules),
        lambda: NoStructure("structure order failed"),
    )
    if isinstance(outcome, NoStructure):
        note = f"page {page.number}: {outcome.reason}; reading order used"
    elif not outcome.trusted:
        note = (
            f"page {page.number}: {len(outcome.untagged)} of {outcome.total} glyphs untagged,"
            " structure not trusted; reading order used"
        )
    else:
        untagged = (
            f"page {page.number}: untagged: {len(outcome.untagged)} of {outcome.total} glyphs"
        )
        return PageText(outcome.text.text, True, untagged)
    return PageText(reading(), False, note)


def write_document_text(
    document: PdfDocument,
    stream: BinaryIO,
    pages: Sequence[int] | None = None,
    mode: str = "text",
    separator: str = "\f",
    bom: bool = False,
    rules: Rules | None = None,
    hidden: str = HiddenSelection.INCLUDE,
) -> WriteReport:
    """Write the text of `pages` (0-based; None or empty = every page) of a
    glyphscope.core.document.Document to a binary stream; report the number of pages written
    and what structure mode found."""
    mode = _text_mode(mode)
    rules = rules or Rules()
    indices = list(pages) if pages else list(range(document.page_count))
    if bom:
        stream.write(UTF8_BOM)
    encoded_separator = separator.encode("utf-8")
    notes: list[str] = []
    structured: list[int] = []
    for written, index in enumerate(indices):
        if written:
            stream.write(encoded_separator)
        result = page_text(document.page(index), mode, rules, hidden, notes)
        stream.write(result.text.encode("utf-8"))
        if result.note:
            notes.append(result.note)
        if result.structured:
            structured.append(index)
    return WriteReport(len(indices), tuple(notes), tuple(structured))
