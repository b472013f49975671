"""Content streams as operator lists (§7.8.2): decoding, tokenising, resources, listing.

A page's /Contents may be one stream or an array of them, read as one stream; qpdf
tokenises (`pikepdf.parse_content_stream`) and `glyphscope.core.pdf.streams` bounds the decoding.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

import pikepdf

from glyphscope.core.pdf.document import PdfPage
from glyphscope.core.pdf.objects import get_entry, inherited_attribute, name_key
from glyphscope.core.pdf.streams import decode_stream
from glyphscope.core.rules import Rules

_Resources = TypeVar("_Resources")  # what a form without /Resources inherits

_OPERAND_PREVIEW = 80


@dataclass(frozen=True, slots=True)
class OperatorRecord:
    """One operator of a content stream, for the inspector's content-stream pane."""

    form_path: str
    index: int
    operator: str
    operands: str


@dataclass(slots=True)
class ParsedContent:
    """Instructions as (pikepdf instruction, operator name) pairs, or None if unreadable."""

    instructions: list | None
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)


def parse_content(
    pdf: pikepdf.Pdf, streams: list[pikepdf.Stream], label: str, max_stream_bytes: int
) -> ParsedContent:
    """Decode streams, join them as one (§7.8.2) and tokenise; None when nothing is readable."""
    parsed = ParsedContent(None)
    chunks, readable = [], False
    for stream in streams:
        if not isinstance(stream, pikepdf.Stream):
            continue
        decoded = decode_stream(stream, max_stream_bytes)
        if decoded.problem:
            parsed.warnings.append(f"{label}: {decoded.problem}")
        if decoded.truncated:
            parsed.truncated = True
            parsed.warnings.append(f"{label}: stream cut at {max_stream_bytes} decoded bytes")
        if decoded.data or not decoded.problem:
            readable = True
            chunks.append(decoded.data)
    if readable:
        parsed.instructions = _tokenise(pdf, b"\n".join(chunks), label, parsed.warnings)
    return parsed


def _tokenise(pdf: pikepdf.Pdf, data: bytes, label: str, problems: list[str]) -> list | None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            instructions = pikepdf.parse_content_stream(pikepdf.Stream(pdf, data))
        except (pikepdf.PdfError, RuntimeError, ValueError, TypeError) as exc:
            problems.append(f"{label}: content stream unreadable: {exc}")
            return None
    problems.extend(f"{label}: {warning.message}" for warning in caught[:3])
    # Operands are read lazily (instruction.operands): most operators paint paths and
    # colours, and converting their operands to Python would be wasted work.
    return [(i, operator_name(i.operator)) for i in instructions]


def operator_name(operator: pikepdf.Operator) -> str:
    """The operator's name; garbage bytes (not UTF-8) become an unknown Latin-1 name."""
    try:
        return str(operator)
    except UnicodeDecodeError:
        return operator.unparse().decode("latin-1")


def form_xobject(resources: object, name: object) -> pikepdf.Stream | None:
    """The form XObject (§8.10) a Do operand names in resources, or None for images and gaps.
    A name operand is looked up as the name object, so one that is not UTF-8 is found too."""
    key = name if isinstance(name, pikepdf.Name) else str(name)
    xobject = get_entry(get_entry(resources, "/XObject"), key)
    if isinstance(xobject, pikepdf.Stream) and xobject.get("/Subtype") == "/Form":
        return xobject
    return None


def form_resources(
    xobject: pikepdf.Stream, resources: _Resources
) -> pikepdf.Dictionary | _Resources:
    """§7.8.3: a form without /Resources uses those of the stream that paints it."""
    own = xobject.get("/Resources")
    return own if isinstance(own, pikepdf.Dictionary) else resources


def page_streams(page: PdfPage) -> list[pikepdf.Stream] | None:
    contents = page.pdf_page.obj.get("/Contents")
    if isinstance(contents, pikepdf.Stream):
        return [contents]
    if isinstance(contents, pikepdf.Array):
        return [s for s in contents if isinstance(s, pikepdf.Stream)] or None
    return None


def page_resources(page: PdfPage) -> pikepdf.Dictionary | None:
    """The page's /Resources, inherited through the page tree (§7.7.3.4)."""
    resources = inherited_attribute(page.pdf_page, "/Resources")
    return resources if isinstance(resources, pikepdf.Dictionary) else None


def list_operators(page: PdfPage, rules: Rules) -> tuple[OperatorRecord, ...]:
    """Every operator of the page stream, and of each form it draws once, in stream order."""
    pdf = page.document.pdf
    records: list[OperatorRecord] = []
    seen: set[tuple[int, int]] = set()

    def visit(instructions: list, resources: object, form_path: str, depth: int) -> None:
        for index, (instruction, operator) in enumerate(instructions):
            operands = instruction.operands
            text = " ".join(_preview(o) for o in operands)
            if len(text) > _OPERAND_PREVIEW:
                text = text[: _OPERAND_PREVIEW - 1] + "…"
            records.append(OperatorRecord(form_path, index, operator, text))
            if operator != "Do" or not operands or depth >= rules.form_depth:
                continue
            xobject = form_xobject(resources, operands[0])
            if xobject is None or xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            path = form_path + name_key(operands[0])
            form = parse_content(pdf, [xobject], path, rules.max_stream_bytes).instructions
            if form:
                visit(form, form_resources(xobject, resources), path, depth + 1)

    streams = page_streams(page)
    if streams:
        instructions = parse_content(pdf, streams, "page", rules.max_stream_bytes).instructions
        if instructions:
            visit(instructions, page_resources(page), "", 0)
    return tuple(records)


def _preview(operand: object) -> str:
    if isinstance(operand, pikepdf.Object):
        try:
            return operand.unparse().decode("latin-1")
        except (pikepdf.PdfError, AttributeError):
            return repr(operand)
    if isinstance(operand, (int, float, Decimal)):  # pikepdf gives a real as a Decimal
        return format(float(operand), "g")
    return str(operand)
