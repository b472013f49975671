"""The document's objects as a browsable tree (ISO 32000-1 §7.3, §7.5): what a COS object
browser shows, computed without Qt so it is tested without a display.

A node is addressed by a root (the trailer, or an indirect object's number and generation) and
the keys (dictionary names, array indices) walked from it; indirect references on the way are
followed, as a reader resolves them (§7.3.10). Children are listed one level at a time, so a
tree over a 2,000-page file costs only what is expanded. Streams are decoded through
glyphscope.core.pdf.streams with a size cap, never whole. Objects qpdf repaired while reading
(its warnings name "object N G") and references to objects absent from the file (read as null)
are labelled.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from typing import NamedTuple, SupportsFloat

import pikepdf

from glyphscope.core.pdf.streams import decode_stream

ObjGen = tuple[int, int]
Key = str | int
TRAILER = "trailer"
# Stream bytes shown at most (decoded), and the summary length of a string value.
MAX_STREAM_BYTES = 256 * 1024
SUMMARY_CHARS = 80
_WARNING_OBJECT = re.compile(r"\(object (\d+) (\d+)(?:, offset \d+)?\):\s*(.*)")
_PRINTABLE = set(string.printable) - set("\x0b\x0c")


class CosAddress(NamedTuple):
    root: str | ObjGen  # TRAILER or an indirect object's (number, generation)
    keys: tuple[Key, ...] = ()

    def child(self, key: Key) -> CosAddress:
        return CosAddress(self.root, (*self.keys, key))

    def label(self) -> str:
        root = self.root if self.root == TRAILER else f"{self.root[0]} {self.root[1]} R"
        return " ".join([root, *(f"[{k}]" if isinstance(k, int) else k for k in self.keys)])


class CosNode(NamedTuple):
    """One entry of a dictionary or array (or a root), as the tree shows it."""

    key: str  # "/Type", "[3]", or the root's name
    kind: str  # dictionary, array, stream, name, string, integer, real, boolean, null
    summary: str  # the value in one line: "/Page", "(Hello)", "12 0 R → dictionary /Page"
    address: CosAddress  # where its children are listed
    objgen: ObjGen | None  # the indirect object it is or refers to
    expandable: bool
    note: str = ""  # repaired / missing, in words


class CosStream(NamedTuple):
    data: bytes  # decoded (or raw, when decoding failed), at most the cap
    decoded: bool
    truncated: bool
    raw_length: int
    filters: tuple[str, ...]
    problem: str


class CosError(Exception):
    """An address that does not lead to an object (a stale path after a reload)."""


class RepairLog:
    """qpdf's warnings about one Pdf, kept: `Pdf.get_warnings()` hands each warning out once,
    and qpdf only warns about an object when it first parses it (lazily, on access)."""

    def __init__(self, pdf: pikepdf.Pdf, earlier: Sequence[str] = ()) -> None:
        """`earlier`: the warnings already handed out (PdfDocument.opening_warnings)."""
        self.pdf = pdf
        self.warnings: list[str] = list(earlier)

    def notes(self) -> dict[ObjGen | None, list[str]]:
        """The warnings so far by the object they name (None: the file as a whole)."""
        self.warnings.extend(self.pdf.get_warnings())
        notes: dict[ObjGen | None, list[str]] = {}
        for warning in self.warnings:
            match = _WARNING_OBJECT.search(warning)
            if match:
                key = (int(match.group(1)), int(match.group(2)))
                notes.setdefault(key, []).append(f"repaired by qpdf: {match.group(3)}")
            else:
                text = warning.split(": ", 1)[-1] if ": " in warning else warning
                notes.setdefault(None, []).append(f"qpdf: {text}")
        return notes


def resolve(pdf: pikepdf.Pdf, address: CosAddress) -> object:
    """The object at `address`, references followed."""
    root = address.root
    obj: object
    if isinstance(root, tuple):
        obj = pdf.get_object(root)
    elif root == TRAILER:
        obj = pdf.trailer
    else:
        raise CosError(f"{address.label()}: not the trailer nor an object number")
    for key in address.keys:
        if not isinstance(obj, pikepdf.Object):  # a number, boolean or null has no entries
            raise CosError(f"{address.label()}: no {key!r} (a {kind_of(obj)} has no entries)")
        try:
            obj = obj[key]
        except (KeyError, IndexError, TypeError, ValueError, pikepdf.PdfError) as exc:
            raise CosError(f"{address.label()}: no {key!r} ({exc})") from None
    return obj


def roots(log: RepairLog) -> list[CosNode]:
    """The trailer (§7.5.5), from which every object the document uses is reached."""
    pdf = log.pdf
    notes = log.notes().get(None, [])
    return [
        CosNode(
            "trailer",
            "dictionary",
            f"{_counted(len(pdf.trailer.keys()), 'entry', 'entries')}, "
            f"{_counted(len(pdf.objects), 'object', 'objects')} in the file",
            CosAddress(TRAILER),
            None,
            True,
            "; ".join(notes),
        )
    ]


def children(log: RepairLog, address: CosAddress, limit: int = 2000) -> list[CosNode]:
    """The entries of the dictionary, array or stream dictionary at `address` (the first
    `limit` of a long array, then one node saying how many more there are)."""
    pdf = log.pdf
    obj = resolve(pdf, address)
    values = _entries(obj, limit)
    notes = log.notes()  # after reading the entries: parsing them is what makes qpdf warn
    xref = _xref(pdf)
    if values is None:
        return []
    items, more = values
    nodes = [_node(label, address.child(key), value, notes, xref) for label, key, value in items]
    if more > 0:
        nodes.append(CosNode("…", "null", f"{more} more entries not listed", address, None, False))
    return nodes


def _entries(obj: object, limit: int) -> tuple[list[tuple[str, Key, object]], int] | None:
    """(label, key, value) of the first `limit` entries, and how many more there are."""
    if isinstance(obj, pikepdf.Array):
        items: list[tuple[str, Key, object]] = [
            (f"[{i}]", i, obj[i]) for i in range(min(len(obj), limit))
        ]
        return items, len(obj) - limit
    if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
        keys = sorted(obj.keys())
        return [(key, key, obj.get(key)) for key in keys[:limit]], len(keys) - limit
    return None


def _xref(pdf: pikepdf.Pdf) -> set[ObjGen] | None:
    try:
        return set(pdf.get_xref_table())
    except (pikepdf.PdfError, RuntimeError, AttributeError):
        return None


def _node(
    label: str,
    address: CosAddress,
    value: object,
    notes: dict[ObjGen | None, list[str]],
    xref: set[ObjGen] | None,
) -> CosNode:
    objgen = _objgen(value)
    kind = kind_of(value)
    summary = summarise(value)
    note = "; ".join(notes.get(objgen, ())) if objgen else ""
    if objgen is not None:
        summary = f"{objgen[0]} {objgen[1]} R → {kind}" + (f" {summary}" if summary else "")
        if kind == "null" and xref is not None and objgen not in xref:
            note = "missing: the reference names no object in the file (read as null, §7.3.10)"
        # Children of a referenced object are listed under its own number, so every path to
        # it shows the same node and a cycle (/Parent) only goes as deep as the user expands.
        address = CosAddress(objgen)
    expandable = kind in ("dictionary", "array", "stream") and _has_entries(value)
    return CosNode(label, kind, summary, address, objgen, expandable, note)


def _objgen(value: object) -> ObjGen | None:
    if isinstance(value, pikepdf.Object) and value.is_indirect:
        objgen = value.objgen
        return objgen if objgen != (0, 0) else None
    return None


def _has_entries(value: object) -> bool:
    try:
        if isinstance(value, pikepdf.Array):
            return len(value) > 0
        if isinstance(value, (pikepdf.Dictionary, pikepdf.Stream)):
            return len(value.keys()) > 0
    except (pikepdf.PdfError, TypeError):
        pass
    return False


def kind_of(value: object) -> str:
    if isinstance(value, pikepdf.Stream):
        return "stream"
    if isinstance(value, pikepdf.Dictionary):
        return "dictionary"
    if isinstance(value, pikepdf.Array):
        return "array"
    if isinstance(value, pikepdf.Name):
        return "name"
    if isinstance(value, (pikepdf.String, str, bytes)):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if value is None:
        return "null"
    return "real"


def _counted(number: int, one: str, many: str) -> str:
    """ "1 entry", "2 entries" ("1 entries" was shown of a one-key dictionary)."""
    return f"{number:,} {one if number == 1 else many}"


def summarise(value: object) -> str:
    """The value in one line, as PDF syntax where it is short (§7.3). The cases are tested
    in kind_of's order (a stream is tested before a dictionary, a boolean before an integer)."""
    if isinstance(value, pikepdf.Stream):
        return f"{_type_of(value)}{_counted(_raw_length(value), 'byte', 'bytes')}".strip()
    if isinstance(value, pikepdf.Dictionary):
        return f"{_type_of(value)}{_counted(len(value.keys()), 'entry', 'entries')}".strip()
    if isinstance(value, pikepdf.Array):
        if len(value) <= 6 and all(kind_of(v) in ("integer", "real", "name") for v in value):
            return "[" + " ".join(summarise(v) for v in value) + "]"
        return _counted(len(value), "item", "items")
    if isinstance(value, pikepdf.Name):
        return str(value)
    if isinstance(value, str):  # text, not PDF bytes: shown as its UTF-8 encoding
        return "(" + _shown(value.encode())[:SUMMARY_CHARS] + ")"
    if isinstance(value, (pikepdf.String, bytes)):
        return "(" + _shown(bytes(value))[:SUMMARY_CHARS] + ")"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if value is None:
        return "null"
    # pikepdf reads a real as a Decimal (§7.3.3); anything else float() takes is shown alike.
    return f"{float(value):g}" if isinstance(value, SupportsFloat) else str(value)


def _type_of(value: pikepdf.Dictionary | pikepdf.Stream) -> str:
    kind = value.get("/Type") or value.get("/Subtype")
    return f"{kind} " if isinstance(kind, pikepdf.Name) else ""


def _raw_length(stream: pikepdf.Stream) -> int:
    try:
        return len(stream.read_raw_bytes())
    except (pikepdf.PdfError, RuntimeError):
        return 0


def _shown(data: bytes) -> str:
    """Bytes as text: printable ASCII kept, everything else as a \\ooo escape (§7.3.4.2)."""
    return "".join(
        chr(b) if chr(b) in _PRINTABLE and b not in (0x0D,) else f"\\{b:03o}" for b in data
    )


def stream_at(
    pdf: pikepdf.Pdf, address: CosAddress, max_bytes: int = MAX_STREAM_BYTES
) -> CosStream:
    """The stream at `address`, decoded up to `max_bytes` (the raw bytes when it cannot be)."""
    obj = resolve(pdf, address)
    if not isinstance(obj, pikepdf.Stream):
        raise CosError(f"{address.label()} is a {kind_of(obj)}, not a stream")
    raw = obj.read_raw_bytes()
    filters = obj.get("/Filter")
    names = (
        tuple(str(f) for f in filters)
        if isinstance(filters, pikepdf.Array)
        else ((str(filters),) if filters is not None else ())
    )
    decoded = decode_stream(obj, max_bytes)
    if decoded.problem and not decoded.data:
        return CosStream(
            raw[:max_bytes], False, len(raw) > max_bytes, len(raw), names, decoded.problem
        )
    return CosStream(decoded.data, True, decoded.truncated, len(raw), names, decoded.problem)


def as_text(data: bytes) -> str:
    """Stream bytes as text lines (content streams, CMaps): non-printable bytes escaped."""
    return "\n".join(_shown(line) for line in data.replace(b"\r\n", b"\n").split(b"\n"))


def hex_dump(data: bytes, width: int = 16) -> str:
    """Offset, hex bytes and their printable characters, `width` bytes a line."""
    lines = []
    for offset in range(0, len(data), width):
        chunk = data[offset : offset + width]
        hexes = " ".join(f"{b:02x}" for b in chunk).ljust(width * 3 - 1)
        text = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{offset:08x}  {hexes}  {text}")
    return "\n".join(lines)


def page_address(pdf: pikepdf.Pdf, page_index: int) -> CosAddress:
    page = pdf.pages[page_index].obj
    return CosAddress(page.objgen) if page.is_indirect else CosAddress(TRAILER, ())


def font_address(pdf: pikepdf.Pdf, page_index: int, form_path: str, font_key: str) -> CosAddress:
    """Where the font a glyph was drawn with lives: the page's (or its form XObject's, from
    Glyph.form_path "/Fm1/Fm2") /Resources /Font /key (§7.8.3)."""
    address = page_address(pdf, page_index)
    for name in [f"/{part}" for part in form_path.split("/") if part]:
        address = CosAddress(address.root, (*address.keys, "/Resources", "/XObject", name))
    key = font_key if font_key.startswith("/") else f"/{font_key}"
    candidate = CosAddress(address.root, (*address.keys, "/Resources", "/Font", key))
    try:
        resolve(pdf, candidate)
    except CosError:
        # A form without /Resources uses its page's (§7.8.3, a deprecated but common case).
        base = page_address(pdf, page_index)
        return CosAddress(base.root, ("/Resources", "/Font", key))
    return candidate


def node_at(log: RepairLog, address: CosAddress, label: str) -> CosNode:
    """The node of the object at `address`, named `label` (a link from another panel)."""
    value = resolve(log.pdf, address)
    notes = log.notes()
    node = _node(label, address, value, notes, _xref(log.pdf))
    return node if node.objgen is not None else node._replace(address=address)


def object_node(log: RepairLog, objgen: Sequence[int]) -> CosNode:
    """Indirect object `objgen` (number, generation) as a node of its own (Go to object);
    a panel's signal may hand it over as a list, so it is made a tuple here."""
    key: ObjGen = (objgen[0], objgen[1])
    try:
        value = log.pdf.get_object(key)
    except (pikepdf.PdfError, ValueError, TypeError) as exc:
        raise CosError(f"no object {key[0]} {key[1]}: {exc}") from None
    address = CosAddress(key)
    kind = kind_of(value)
    note = "; ".join(log.notes().get(key, ()))
    xref = _xref(log.pdf)
    if kind == "null" and xref is not None and key not in xref:
        note = "missing: no such object in the file (read as null, §7.3.10)"
    expandable = kind in ("dictionary", "array", "stream") and _has_entries(value)
    summary = f"{kind} {summarise(value)}"
    return CosNode(f"{key[0]} {key[1]} R", kind, summary, address, key, expandable, note)
