"""Content streams as operator lists (§7.8.2): decoding, tokenising, resources, listing.

A page's /Contents may be one stream or an array of them, read as one stream;
`glyphscope.core.pdf.streams` bounds the decoding. The interpreter reads its operators through
`read_operators`: the compiled scanner (`_scanner.pyx`) when it was built, which hands any stream
it does not read exactly as qpdf does back to qpdf's tokenizer (`pikepdf.parse_content_stream`),
the only tokenizer when no C compiler was present at install.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from types import ModuleType
from typing import TypeVar

import pikepdf

from glyphscope.core.pdf.document import PdfPage
from glyphscope.core.pdf.objects import get_entry, inherited_attribute, name_key
from glyphscope.core.pdf.streams import decode_stream
from glyphscope.core.rules import Rules

_Resources = TypeVar("_Resources")  # what a form without /Resources inherits

_scanner: ModuleType | None
try:
    import glyphscope.core.interpret._scanner as _scanner
except ImportError:  # installed without a C compiler: qpdf tokenises every stream
    _scanner = None

_OPERAND_PREVIEW = 80

# ISO 32000-1 Annex A, Table A.1, less the inline image operators (BI ID EI): the scanner
# hands a stream holding them, or any other word, back to qpdf.
_PDF_OPERATORS = (
    "b B b* B* BDC BMC BT BX c cm CS cs d d0 d1 Do DP EMC ET EX f F f* G g gs h i j J K k l m M"
    " MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W*"
    " y ' \""
).split()

# Operand shapes (n number, s string, / name, a array of strings and numbers, p a property
# list: a name or an inline dictionary) in which the interpreter treats the scanner's plain
# values (int/float, bytes, str, list, dict) exactly as qpdf's objects; any other operator or
# shape gets qpdf's objects.
PLAIN_SHAPES = {
    **dict.fromkeys(("Tc", "Tw", "Tz", "TL", "Ts", "Tr"), "n"),
    **dict.fromkeys(("Td", "TD"), "nn"),
    **dict.fromkeys(("Tm", "cm"), "nnnnnn"),
    **dict.fromkeys(("T*", "BT", "ET", "q", "Q", "EMC"), ""),
    **dict.fromkeys(("Tj", "'"), "s"),
    '"': "nns",
    "TJ": "a",
    "Tf": "/n",
    "Do": "/",
    # §14.6.2: a tag and its property list, read for the MCID and replacement text.
    "BDC": "/p",
    # Path construction and painting, followed for the clipping box (core.interpret.clipping).
    **dict.fromkeys(("m", "l"), "nn"),
    **dict.fromkeys(("v", "y", "re"), "nnnn"),
    "c": "nnnnnn",
    **dict.fromkeys(("h", "S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n", "W", "W*"), ""),
}


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


@dataclass(slots=True)
class ParsedOperators:
    """The wanted operators of a stream as (index among all operators, name, operands) in
    stream order, and how many operators it holds; operators is None if it is unreadable.
    Operands are tuples (see _scanner._operands) of qpdf's objects, or of plain values
    (PLAIN_SHAPES) from the scanner. A stream
    holding more than the caller's operator budget is read only up to one operator past it
    (count is then budget + 1), so a small stream that expands cannot cost more."""

    operators: list | None
    count: int = 0
    truncated: bool = False
    warnings: list[str] = field(default_factory=list)


def parse_content(
    pdf: pikepdf.Pdf,
    streams: list[pikepdf.Stream],
    label: str,
    max_stream_bytes: int,
    max_operators: int | None = None,
) -> ParsedContent:
    """Decode streams, join them as one (§7.8.2) and tokenise; None when nothing is readable.
    With max_operators, tokenising stops one operator past it."""
    parsed = ParsedContent(None)
    data = _decode(pdf, streams, label, max_stream_bytes, parsed)
    if data is not None:
        read = _tokenise(pdf, data, label, parsed.warnings, max_operators)
        parsed.instructions = None if read is None else read[0]
    return parsed


def read_operators(
    pdf: pikepdf.Pdf,
    streams: list[pikepdf.Stream],
    label: str,
    max_stream_bytes: int,
    wanted: frozenset[str],
    max_operators: int,
) -> ParsedOperators:
    """The operators in `wanted` of streams joined as one (§7.8.2), for the interpreter."""
    parsed = ParsedOperators(None)
    data = _decode(pdf, streams, label, max_stream_bytes, parsed)
    if data is None:
        return parsed
    scanned = _scan(pdf, data, wanted, max_operators)
    if scanned is not None:
        parsed.operators, parsed.count, dangling = scanned
        if dangling:
            parsed.warnings.append(f"{label}: {_DANGLING_OPERANDS}")
        return parsed
    read = _tokenise(pdf, data, label, parsed.warnings, max_operators, wanted)
    if read is not None:
        parsed.operators, parsed.count = read
    return parsed


def _decode(
    pdf: pikepdf.Pdf,
    streams: list[pikepdf.Stream],
    label: str,
    max_stream_bytes: int,
    parsed: ParsedContent | ParsedOperators,
) -> bytes | None:
    """The decoded streams joined by newlines, None when none is readable."""
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
    return b"\n".join(chunks) if readable else None


@functools.lru_cache(maxsize=8)
def _operator_table(wanted: frozenset[str]) -> dict[bytes, tuple[str, bool, str | None]]:
    return {
        name.encode("ascii"): (name, name in wanted, PLAIN_SHAPES.get(name))
        for name in _PDF_OPERATORS
    }


# qpdf's warning for operands after the last operator (dropped), which the scanner repeats.
_DANGLING_OPERANDS = "Unexpected end of stream"


def _scan(
    pdf: pikepdf.Pdf, data: bytes, wanted: frozenset[str], max_operators: int
) -> tuple[list, int, bool] | None:
    """The scanner's reading of a stream and whether operands were left after its last
    operator; None when qpdf must tokenise it whole."""
    if _scanner is None:
        return None
    result = _scanner.scan(data, _operator_table(wanted), max_operators)
    if result is None:
        return None
    entries, spans, count, cut = result
    if spans and not _qpdf_operands(pdf, data, entries, spans):
        return None
    return entries, count, cut is None


def _qpdf_operands(pdf: pikepdf.Pdf, data: bytes, entries: list, spans: list) -> bool:
    """Fill in qpdf's operands for the spans the scanner left to it, in one qpdf call over
    the spans joined by newlines; False when qpdf reads them otherwise than one operator per
    span, or warns (the stream then goes to qpdf whole, so its warnings are its own)."""
    joined = b"\n".join(data[start:end] for _, start, end in spans)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            instructions = pikepdf.parse_content_stream(pikepdf.Stream(pdf, joined))
        except _QPDF_PARSE_ERRORS:
            return False
    if caught or len(instructions) != len(spans):
        return False
    for (position, _, _), instruction in zip(spans, instructions, strict=True):
        index, name, _ = entries[position]
        if operator_name(instruction.operator) != name:
            return False
        entries[position] = (index, name, tuple(instruction.operands))
    return True


# What qpdf's tokenizer raises on a damaged stream. IndexError: an inline image with nothing
# between BI and EI makes qpdf index an empty vector (std::out_of_range, passed on as such).
_QPDF_PARSE_ERRORS = (pikepdf.PdfError, RuntimeError, ValueError, TypeError, IndexError)


def _tokenise(
    pdf: pikepdf.Pdf,
    data: bytes,
    label: str,
    problems: list[str],
    max_operators: int | None,
    wanted: frozenset[str] | None = None,
) -> tuple[list, int] | None:
    """qpdf's reading of a stream and its operator count: every instruction as
    (instruction, name), or with `wanted` only those as (index, name, operands)."""
    items: list = []
    count = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            for chunk in _chunks(pdf, data, max_operators):
                for instruction in pikepdf.parse_content_stream(pikepdf.Stream(pdf, chunk)):
                    name = operator_name(instruction.operator)
                    if wanted is None:
                        items.append((instruction, name))
                    elif name in wanted:
                        # Operands are read for wanted operators only: most operators paint
                        # paths and colours, and converting their operands would be wasted.
                        items.append((count, name, tuple(instruction.operands)))
                    count += 1
        except _QPDF_PARSE_ERRORS as exc:
            problems.append(f"{label}: content stream unreadable: {type(exc).__name__}: {exc}")
            return None
    problems.extend(f"{label}: {warning.message}" for warning in caught[:3])
    return items, count


# A long stream goes to qpdf in pieces of this many operators, so that qpdf's objects for
# the operators nobody wants are dropped piece by piece.
_CHUNK_OPERATORS = 100_000


class _Counter(pikepdf.StreamParser):
    """Finds where every _CHUNK_OPERATORS-th of qpdf's operators ends (an inline image
    BI…ID…EI counts as one, as parse_content_stream groups it), and stops past `limit`."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.count, self.in_image = limit, 0, False
        self.ends: list[int] = []

    def handle_object(self, obj: pikepdf.Object, offset: int, length: int) -> None:
        if not isinstance(obj, pikepdf.Operator):
            return
        name = obj.unparse()
        if self.in_image:
            self.in_image = name != b"EI"
            if self.in_image:
                return
        elif name == b"BI":
            self.in_image = True
            return
        self.count += 1
        if self.count > self.limit:
            self.ends.append(offset + length)
            raise _Enough
        if self.count % _CHUNK_OPERATORS == 0:
            self.ends.append(offset + length)

    def handle_eof(self) -> None:
        pass


class _Enough(Exception):
    pass


def _chunks(pdf: pikepdf.Pdf, data: bytes, max_operators: int | None) -> list[bytes]:
    """data in pieces that end between operators, and not past operator max_operators + 1:
    qpdf then never tokenises more than the budget allows, nor holds it all at once. Only a
    stream that may hold more operators than a piece (_most_operators) is counted, by
    qpdf's own tokenizer."""
    if max_operators is None or _most_operators(data) <= min(max_operators, _CHUNK_OPERATORS):
        return [data]
    counter = _Counter(max_operators)
    try:
        pikepdf.Object._parse_stream(pikepdf.Stream(pdf, data), counter)
        ends = [*counter.ends, len(data)]
    except _Enough:
        ends = counter.ends
    return [data[start:end] for start, end in zip([0, *ends], ends, strict=False)]


# §7.2.2 Table 1 and 2: white-space and delimiter characters, the bytes that end a token.
_SEPARATORS = b"\x00\t\n\x0c\r ()<>[]{}/%"
_REGULAR = bytes(b for b in range(256) if b not in _SEPARATORS)


def _most_operators(data: bytes) -> int:
    """An upper bound of the operators in data, counted at C speed: every operator but the
    last is followed by a separator, so there are at most one more operators than separators
    (a stream of 64 MB of one regular byte holds one token, not 32 million)."""
    return len(data.translate(None, _REGULAR)) + 1


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


def contents_problem(page: PdfPage) -> str:
    """Why a page without a readable /Contents may have lost one: qpdf drops a key whose
    object it read as null (a /Length past 64 bits, an object it could not parse), so such a
    page looks blank; the document's qpdf messages say whether an object was nulled. ""
    when the page has a content stream or no object was."""
    if page_streams(page) is not None:
        return ""
    nulled = [str(w) for w in page.document.pdf.get_warnings() if _NULLED in str(w)]
    if not nulled:
        return ""
    return f"the content stream was lost: qpdf {nulled[0].split('): ', 1)[-1]}"


# qpdf's message for an object it replaced by null.
_NULLED = "treating object as null"


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
            form = parse_content(
                pdf, [xobject], path, rules.max_stream_bytes, rules.max_page_operators
            ).instructions
            if form:
                visit(form, form_resources(xobject, resources), path, depth + 1)

    streams = page_streams(page)
    if streams:
        instructions = parse_content(
            pdf, streams, "page", rules.max_stream_bytes, rules.max_page_operators
        ).instructions
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
