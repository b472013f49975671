"""Composite fonts (§9.7): a Type 0 font and its descendant CIDFont.

The /Encoding CMap cuts shown strings into codes and maps them to CIDs; a code reads through
/ToUnicode, a Unicode-keyed encoding CMap, the character collection's CID table, and the
embedded program (spec §1). CIDs are measured by /W and /W2 (first written wins, spec §2),
else /DW and /DW2.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_right
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.fonts.cmap.predefined import cid_to_unicode, ordering_of, predefined_cmap
from glyphscope.core.fonts.dicts import (
    ENCODING_CMAP,
    FONT_PROGRAM,
    PREDEFINED,
    TO_UNICODE,
    UNRESOLVED,
    Font,
    FontGlyph,
    FontLimits,
    LazyProgram,
    descriptor_extent,
    font_details,
    parse_font_cmap,
    read_stream,
    to_unicode_cmap,
)
from glyphscope.core.fonts.embedded import embedded_program_type
from glyphscope.core.fonts.simple import broken_font
from glyphscope.core.pdf.objects import pdf_dictionary, pdf_name, pdf_number, pdf_text

if TYPE_CHECKING:
    from glyphscope.core.fonts.cmap.tables import CMap

DEFAULT_CID_WIDTH = 1000.0  # §9.7.4.3 /DW default
DEFAULT_VERTICAL = (880.0, -1000.0)  # §9.7.4.3 /DW2 default [vy w1y]

# §9.7.5.2 Table 118: the Unicode-keyed predefined CMaps, whose codes are Unicode themselves.
_UNICODE_CMAP = re.compile(r"-(UCS2|UTF16|UTF32|UTF8)-")
_UNICODE_CODECS = {"UCS2": "utf-16-be", "UTF16": "utf-16-be", "UTF32": "utf-32-be"}


_Metrics = tuple[float, ...]  # one CID's metrics: (w0,) from /W, (w1y, vx, vy) from /W2
_MetricsEntry = tuple[int, int, tuple[_Metrics, ...]]


class _Ranges:
    """CID metrics from /W or /W2 (§9.7.4.3) as disjoint ranges sorted by CID for bisection.

    Producers write entries out of CID order and sometimes overlapping. Each CID belongs to
    the first entry in file order that covers it: the same answer as a linear scan in file
    order (spec §2). One sweep over the entries' edges in CID order, with a heap of the
    entries covering the current CID keyed by file position, finds those owners in n log n.
    """

    __slots__ = ("starts", "ends", "owners", "entries", "sorted_on_read")

    def __init__(self, entries: list[_MetricsEntry]) -> None:
        # entries: (first CID, last CID, values) with one value per CID, or one for all.
        self.entries = entries
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.owners: list[int] = []
        self.sorted_on_read = any(
            entries[i][0] <= entries[i - 1][1] for i in range(1, len(entries))
        )
        self._sweep()

    def _sweep(self) -> None:
        by_first = sorted(
            (first, owner, last)
            for owner, (first, last, _) in enumerate(self.entries)
            if first <= last
        )
        edges = sorted({edge for first, _, last in by_first for edge in (first, last + 1)})
        covering: list[tuple[int, int]] = []  # (owner, last CID), smallest owner first
        starts, ends, owners = self.starts, self.ends, self.owners
        following = 0
        for start, stop in zip(edges, edges[1:], strict=False):
            while following < len(by_first) and by_first[following][0] <= start:
                _, owner, last = by_first[following]
                heapq.heappush(covering, (owner, last))
                following += 1
            while covering and covering[0][1] < start:
                heapq.heappop(covering)
            if not covering:
                continue
            owner = covering[0][0]
            if owners and owners[-1] == owner and ends[-1] == start - 1:
                ends[-1] = stop - 1
            else:
                starts.append(start)
                ends.append(stop - 1)
                owners.append(owner)

    def get(self, cid: int) -> _Metrics | None:
        index = bisect_right(self.starts, cid) - 1
        if index < 0 or cid > self.ends[index]:
            return None
        first, _, values = self.entries[self.owners[index]]
        return values[cid - first] if len(values) > 1 else values[0]


class _CompositeDecoder:
    """Type 0 (§9.7): codes cut by the /Encoding CMap, CIDs measured by /W /W2 of the CIDFont."""

    is_composite = True

    def __init__(
        self,
        cmap: CMap,
        unicode_codec: str | None,
        to_unicode: CMap | None,
        ordering: str,
        widths: _Ranges,
        default_width: float,
        vertical: _Ranges | None,
        default_vertical: tuple[float, float],
        cid_to_gid: bytes | None,
        program: LazyProgram,
    ) -> None:
        self.cmap = cmap
        self.unicode_codec = unicode_codec
        self.to_unicode = to_unicode
        self.ordering = ordering
        self.widths = widths
        self.default_width = default_width
        self.vertical = vertical
        self.default_vertical = default_vertical
        self.cid_to_gid = cid_to_gid
        self.program = program
        self.split = cmap.split

    def glyph(self, code: int, length: int) -> FontGlyph:
        cid = self.cmap.cid(code)
        if cid is None:
            cid = 0  # §9.7.6.3: an unmapped code selects CID 0 (.notdef)
        text, source = self.text(code, length, cid)
        width = self.widths.get(cid)
        w0 = (width[0] if width is not None else self.default_width) / 1000.0
        if self.vertical is None:
            return FontGlyph(
                code, length, text, source, w0, length == 1 and code == 32, 0.0, (0.0, 0.0)
            )
        # §9.7.4.3: position vector defaults to (w0 / 2, DW2[0]); displacement to DW2[1].
        metrics = self.vertical.get(cid)
        if metrics is None:
            vy, w1y = self.default_vertical
            vx = w0 * 500.0
        else:
            w1y, vx, vy = metrics
        return FontGlyph(
            code,
            length,
            text,
            source,
            w0,
            length == 1 and code == 32,
            w1y / 1000.0,
            (vx / 1000.0, vy / 1000.0),
        )

    def text(self, code: int, length: int, cid: int) -> tuple[str, str]:
        if self.to_unicode is not None:
            text = self.to_unicode.unicode(code)
            if text:
                return text, TO_UNICODE
        if self.unicode_codec is not None:
            text = _decode_unicode_code(code, length, self.unicode_codec)
            if text:
                return text, ENCODING_CMAP
        elif self.cmap.has_unicode:
            text = self.cmap.unicode(code)
            if text:
                return text, ENCODING_CMAP
        if self.ordering:
            text = cid_to_unicode(self.ordering, cid)
            if text:
                return text, PREDEFINED
        glyph = cid
        if self.cid_to_gid is not None:
            glyph = int.from_bytes(self.cid_to_gid[2 * cid : 2 * cid + 2], "big")
        text = self.program.get().by_glyph.get(glyph)
        if text:
            return text, FONT_PROGRAM
        return "", UNRESOLVED


def load_composite(
    font_dict: pikepdf.Dictionary, name: str, problems: list, limits: FontLimits
) -> Font:
    descendants = font_dict.get("/DescendantFonts")
    descendant = descendants[0] if isinstance(descendants, pikepdf.Array) and descendants else None
    if not isinstance(descendant, pikepdf.Dictionary):
        # The /Encoding and /ToUnicode still decode; widths fall back to the /DW default.
        problems.append("Type0 font without a descendant CIDFont")
        descendant = pikepdf.Dictionary()
    descendant_subtype = pdf_name(descendant.get("/Subtype"))
    cmap, cmap_label = _encoding_cmap(font_dict.get("/Encoding"), problems, limits)
    if cmap is None:
        cmap = predefined_cmap("Identity-H")
        cmap_label += " (unreadable; Identity-H used)"
        if cmap is None:
            return broken_font(name, "Type0", problems)
    writing_mode = 1 if cmap.writing_mode == 1 or cmap_label.endswith("-V") else 0
    registry, ordering = _cid_system_info(descendant.get("/CIDSystemInfo"))
    collection = ordering_of(registry, ordering) if registry or ordering else ""
    widths = _Ranges(_cid_metrics(descendant.get("/W"), 1, "/W", problems))
    default_width = pdf_number(descendant.get("/DW"), DEFAULT_CID_WIDTH)
    vertical = None
    default_vertical = DEFAULT_VERTICAL
    if writing_mode == 1:
        vertical = _Ranges(_cid_metrics(descendant.get("/W2"), 3, "/W2", problems))
        dw2 = descendant.get("/DW2")
        if isinstance(dw2, pikepdf.Array) and len(dw2) == 2:
            default_vertical = (pdf_number(dw2[0], 880.0), pdf_number(dw2[1], -1000.0))
    descriptor = pdf_dictionary(descendant.get("/FontDescriptor"))
    program_type = embedded_program_type(descriptor)
    cid_to_gid = None
    if descendant_subtype == "CIDFontType2":
        cid_to_gid = _cid_to_gid(descendant.get("/CIDToGIDMap"), problems, limits)
    to_unicode = to_unicode_cmap(font_dict, problems, limits)
    decoder = _CompositeDecoder(
        cmap,
        _unicode_codec(font_dict.get("/Encoding")),
        to_unicode,
        "" if ordering == "Identity" else collection,
        widths,
        default_width,
        vertical,
        default_vertical,
        cid_to_gid,
        LazyProgram(
            descriptor if program_type else None,
            descendant_subtype,
            problems,
            limits.program_bytes,
        ),
    )
    ascent, descent = descriptor_extent(descriptor)
    has_w = bool(widths.entries)
    details = font_details(
        cmap_label,
        f"W (sorted on read: {widths.sorted_on_read})" if has_w else "default",
        has_to_unicode=to_unicode is not None,
        w_sorted_on_read=widths.sorted_on_read,
        descendant_subtype=descendant_subtype,
        cid_system_info=collection,
        embedded_program=program_type,
    )
    return Font(name, "Type0", writing_mode, ascent, descent, decoder, details, problems)


def _encoding_cmap(encoding: object, problems: list, limits: FontLimits) -> tuple[CMap | None, str]:
    """The Type 0 /Encoding (§9.7.5): a predefined CMap's name or an embedded CMap stream."""
    if isinstance(encoding, pikepdf.Name):
        cmap_name = pdf_name(encoding)
        cmap = predefined_cmap(cmap_name)
        if cmap is None:
            problems.append(f"predefined CMap {cmap_name} unavailable")
        return cmap, cmap_name
    if isinstance(encoding, pikepdf.Stream):
        data = read_stream(encoding, "/Encoding CMap", problems, limits.cmap_bytes)
        if data is None:
            return None, "embedded CMap"
        # §9.7.5.3 Table 120: /UseCMap in the stream dictionary acts as a usecmap operator.
        use = encoding.get("/UseCMap")
        if isinstance(use, pikepdf.Name):
            data = b"/" + pdf_name(use).encode("latin-1") + b" usecmap\n" + data
        elif use is not None:
            problems.append("/UseCMap stream not followed")
        cmap = parse_font_cmap(data, "/Encoding CMap", problems, limits)
        if not cmap.has_cids:
            problems.append("embedded /Encoding CMap maps no CIDs")
            return None, "embedded CMap"
        return cmap, f"embedded CMap {cmap.name or '(unnamed)'}"
    problems.append("Type0 font without /Encoding")
    return None, "none"


def _unicode_codec(encoding: object) -> str | None:
    """The codec of a Unicode-keyed predefined CMap named by /Encoding (UniJIS-UCS2-H…)."""
    form = _UNICODE_CMAP.search(pdf_name(encoding)) if isinstance(encoding, pikepdf.Name) else None
    return _UNICODE_CODECS.get(form.group(1), "utf-8") if form else None


def _decode_unicode_code(code: int, length: int, codec: str) -> str | None:
    try:
        text = code.to_bytes(length, "big").decode(codec)
    except (UnicodeDecodeError, OverflowError):
        return None
    return text if text and text != "\x00" else None


def _cid_system_info(info: object) -> tuple[str, str]:
    if not isinstance(info, pikepdf.Dictionary):
        return "", ""
    return pdf_text(info.get("/Registry")), pdf_text(info.get("/Ordering"))


def _cid_metrics(array: object, group: int, key: str, problems: list) -> list[_MetricsEntry]:
    """/W (group 1) or /W2 (group 3) entries in file order (§9.7.4.3): `c [v …]` gives one
    group of values per CID from c, `cfirst clast v` one group for the whole range."""
    entries: list[_MetricsEntry] = []
    if not isinstance(array, pikepdf.Array):
        return entries
    items = list(array)
    index = 0
    try:
        while index < len(items):
            first = int(items[index])
            following = items[index + 1]
            if isinstance(following, pikepdf.Array):
                numbers = [float(value) for value in following]
                values = [
                    tuple(numbers[i : i + group]) for i in range(0, len(numbers) - group + 1, group)
                ]
                if values:
                    entries.append((first, first + len(values) - 1, tuple(values)))
                index += 2
            else:
                numbers = [float(value) for value in items[index + 2 : index + 2 + group]]
                if len(numbers) < group:
                    raise IndexError("range entry cut short")
                entries.append((first, int(following), (tuple(numbers),)))
                index += 2 + group
    except (TypeError, ValueError, IndexError) as error:
        problems.append(f"{key} malformed after {len(entries)} entries ({error}); rest ignored")
    return entries


def _cid_to_gid(mapping: object, problems: list, limits: FontLimits) -> bytes | None:
    """§9.7.4.2: /CIDToGIDMap /Identity (or absent) = None; a stream of 2-byte GIDs."""
    if isinstance(mapping, pikepdf.Stream):
        return read_stream(mapping, "/CIDToGIDMap", problems, limits.cmap_bytes)
    return None
