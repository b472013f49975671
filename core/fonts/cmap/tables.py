"""The CMap record (ISO 32000-1 §9.7.5, §9.10.3): codespaces, mapping tables and lookups.

`CMapBuilder` collects codespace ranges and bf/cid/notdef mappings, a later one overriding
earlier ones; `build()` freezes them into a `CMap` that splits shown strings into codes
(§9.7.6.2) and answers Unicode and CID lookups, falling back to the CMap it uses (usecmap).
Ranges stay ranges (a 65536-code bfrange is one entry), looked up by bisection; single
mappings live in dicts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from typing import Generic, NamedTuple, TypeVar

_Value = TypeVar("_Value")


def utf16_text(data: bytes) -> str:
    """§9.10.3: bf destinations are UTF-16BE; surrogate pairs recombine on decoding, and a lone
    surrogate is kept as one (see `is_text`)."""
    if len(data) % 2:
        data = b"\x00" + data  # a one-byte destination written by a careless producer
    return data.decode("utf-16-be", "surrogatepass")


# What no text holds: U+0000, lone surrogates and the noncharacters (U+FDD0–FDEF and the last
# two code points of every plane, Unicode §23.7).
_NOT_TEXT = re.compile(
    "[\x00\ud800-\udfff\ufdd0-\ufdef"
    + "".join(chr((plane << 16) | 0xFFFE) + chr((plane << 16) | 0xFFFF) for plane in range(17))
    + "]"
)


def is_text(text: str) -> bool:
    """False for a destination holding a character no text holds: a ToUnicode step that maps
    a code to one has not decoded it (§9.10.2), and the next step of the chain is asked."""
    return _NOT_TEXT.search(text) is None


class _RangeTable(Generic[_Value]):
    """Non-overlapping code ranges sorted by low code; a later range overrides earlier ones."""

    __slots__ = ("lows", "highs", "origins", "values")

    def __init__(self) -> None:
        self.lows: list[int] = []
        self.highs: list[int] = []
        self.origins: list[int] = []
        self.values: list[_Value] = []

    def __len__(self) -> int:
        return len(self.lows)

    def add(self, low: int, high: int, value: _Value) -> None:
        lows, highs, origins, values = self.lows, self.highs, self.origins, self.values
        if not lows or low > highs[-1]:
            lows.append(low)
            highs.append(high)
            origins.append(low)
            values.append(value)
            return
        start = bisect_right(lows, low) - 1
        if start < 0 or highs[start] < low:
            start += 1
        end = bisect_right(lows, high)
        pieces = []
        if start < end and lows[start] < low:
            pieces.append((lows[start], low - 1, origins[start], values[start]))
        pieces.append((low, high, low, value))
        if start < end and highs[end - 1] > high:
            pieces.append((high + 1, highs[end - 1], origins[end - 1], values[end - 1]))
        lows[start:end] = [piece[0] for piece in pieces]
        highs[start:end] = [piece[1] for piece in pieces]
        origins[start:end] = [piece[2] for piece in pieces]
        values[start:end] = [piece[3] for piece in pieces]

    def find(self, code: int) -> tuple[int, _Value] | None:
        """(offset of `code` from the start of its original range, that range's value)."""
        index = bisect_right(self.lows, code) - 1
        if index >= 0 and code <= self.highs[index]:
            return code - self.origins[index], self.values[index]
        return None

    def items(self) -> Iterator[tuple[int, int, int, _Value]]:
        return zip(self.lows, self.highs, self.origins, self.values, strict=True)


class Codespace(NamedTuple):
    """One codespace range (§9.7.6.2): per-byte bounds, so <8140> <9FFC> is a rectangle."""

    lows: bytes
    highs: bytes


class CMap:
    """A parsed CMap. Immutable after construction; build one with `CMapBuilder`."""

    __slots__ = (
        "name",
        "writing_mode",
        "ordering",
        "codespaces",
        "code_lengths",
        "has_unicode",
        "has_cids",
        "problems",
        "cut_destinations",
        "not_text_destinations",
        "parent",
        "usecmap",
        "_bf_chars",
        "_bf_ranges",
        "_cid_chars",
        "_cid_ranges",
        "_notdef_chars",
        "_notdef_ranges",
        "_by_first_byte",
        "_uniform_length",
        "_shortest",
    )

    def __init__(self, builder: CMapBuilder) -> None:
        parent = builder.parent
        self.name = builder.name
        self.writing_mode = builder.writing_mode
        self.ordering: str = builder.ordering or (parent.ordering if parent else "")
        self.problems = tuple(builder.problems)
        self.cut_destinations = builder.cut_destinations
        self.not_text_destinations = builder.not_text_destinations
        self.parent = parent
        self.usecmap = builder.usecmap
        self._bf_chars = builder.bf_chars
        self._bf_ranges = builder.bf_ranges
        self._cid_chars = builder.cid_chars
        self._cid_ranges = builder.cid_ranges
        self._notdef_chars = builder.notdef_chars
        self._notdef_ranges = builder.notdef_ranges
        self.has_unicode: bool = bool(self._bf_chars or self._bf_ranges) or bool(
            parent and parent.has_unicode
        )
        self.has_cids: bool = bool(
            self._cid_chars or self._cid_ranges or self._notdef_chars or self._notdef_ranges
        ) or bool(parent and parent.has_cids)
        codespaces = list(builder.codespaces)
        if parent:
            codespaces += [c for c in parent.codespaces if c not in codespaces]
        if not codespaces:
            codespaces = builder.inferred_codespaces(self.has_cids)
        self.codespaces: tuple[Codespace, ...] = tuple(codespaces)
        self.code_lengths = frozenset(len(c.lows) for c in codespaces)
        self._shortest = min(self.code_lengths)
        self._uniform_length = _uniform_length(self.codespaces)
        # A uniform codespace is split by slicing: no table to look codes up in.
        self._by_first_byte = () if self._uniform_length else _first_byte_table(self.codespaces)

    def __repr__(self) -> str:
        return f"CMap({self.name!r}, writing_mode={self.writing_mode})"

    def split(self, data: bytes) -> list[tuple[int, int]]:
        """Cut a shown string into (code, byte length) pairs following the codespace (§9.7.6.2).

        Bytes are matched against 1-byte ranges, then 2-byte ranges, and so on; the first full
        match wins. Bytes matching no range are an invalid code (§9.7.6.3): it takes the length
        of the shortest range whose first byte matches, else of the shortest range at all.
        """
        size = len(data)
        if self._uniform_length:
            n = self._uniform_length
            return [
                (int.from_bytes(data[i : i + n], "big"), min(n, size - i))
                for i in range(0, size, n)
            ]
        codes = []
        table = self._by_first_byte
        i = 0
        while i < size:
            candidates = table[data[i]]
            length = 0
            for n, rectangles in candidates:
                if i + n > size:
                    continue
                tail = data[i + 1 : i + n]
                for lows, highs in rectangles:
                    if all(lo <= b <= hi for b, lo, hi in zip(tail, lows, highs, strict=True)):
                        length = n
                        break
                if length:
                    break
            if not length:
                length = min(candidates[0][0] if candidates else self._shortest, size - i)
            codes.append((int.from_bytes(data[i : i + length], "big"), length))
            i += length
        return codes

    def unicode(self, code: int) -> str | None:
        """The bfchar/bfrange destination for `code` (§9.10.3), own mappings before usecmap's."""
        text = self._bf_chars.get(code)
        if text is not None:
            return text if is_text(text) else None
        hit = self._bf_ranges.find(code) if self._bf_ranges else None
        if hit is not None:
            offset, (base, size) = hit
            # The destination counts up as one big-endian number: <00FF> then <0100>.
            value = (base + offset) & ((1 << (8 * size)) - 1)
            text = utf16_text(value.to_bytes(size, "big"))
            return text if is_text(text) else None
        return self.parent.unicode(code) if self.parent else None

    def cid(self, code: int) -> int | None:
        """The CID for `code`: cidchar/cidrange, else notdefchar/notdefrange (§9.7.6.3)."""
        mapped = self._mapped_cid(code)
        return mapped if mapped is not None else self._notdef_cid(code)

    def _mapped_cid(self, code: int) -> int | None:
        cid = self._cid_chars.get(code)
        if cid is not None:
            return cid
        hit = self._cid_ranges.find(code) if self._cid_ranges else None
        if hit is not None:
            return hit[0] + hit[1]
        return self.parent._mapped_cid(code) if self.parent else None

    def _notdef_cid(self, code: int) -> int | None:
        cid = self._notdef_chars.get(code)
        if cid is not None:
            return cid
        hit = self._notdef_ranges.find(code) if self._notdef_ranges else None
        if hit is not None:
            return hit[1]  # every code of a notdefrange maps to the same CID
        return self.parent._notdef_cid(code) if self.parent else None

    def cid_ranges(self) -> Iterator[tuple[int, int, int]]:
        """Own code → CID mappings as (low code, high code, CID of low), for the asset builder."""
        for code, cid in self._cid_chars.items():
            yield code, code, cid
        for low, high, origin, cid in self._cid_ranges.items():
            yield low, high, cid + (low - origin)

    def notdef_ranges(self) -> Iterator[tuple[int, int, int]]:
        for code, cid in self._notdef_chars.items():
            yield code, code, cid
        for low, high, _origin, cid in self._notdef_ranges.items():
            yield low, high, cid


def _first_byte_table(
    codespaces: tuple[Codespace, ...],
) -> tuple[tuple[tuple[int, tuple[tuple[bytes, bytes], ...]], ...], ...]:
    """For each first byte: (code length, rectangles of the following bytes), shortest first."""
    by_byte: list[dict[int, list[tuple[bytes, bytes]]]] = [{} for _ in range(256)]
    for space in codespaces:
        rectangle = (space.lows[1:], space.highs[1:])
        for byte in range(space.lows[0], space.highs[0] + 1):
            by_byte[byte].setdefault(len(space.lows), []).append(rectangle)
    return tuple(
        tuple((n, tuple(by_length[n])) for n in sorted(by_length)) for by_length in by_byte
    )


def _uniform_length(codespaces: tuple[Codespace, ...]) -> int:
    """n when every n-byte string is a code (<0000> <FFFF>): split by slicing, 0 otherwise."""
    lengths = {len(space.lows) for space in codespaces}
    if len(lengths) != 1:
        return 0
    n = lengths.pop()
    full = Codespace(b"\x00" * n, b"\xff" * n)
    return n if full in codespaces else 0


class CMapBuilder:
    """Collects CMap records; `build()` freezes them. Later records override earlier ones.

    A bf destination longer than `max_destination` code points is cut to that length (a range
    destination to that many UTF-16 code units) and counted in `cut_destinations`. Destinations
    that are not text (`is_text`: single ones, and ranges that start on one) are counted in
    `not_text_destinations`; lookups answer None for them."""

    def __init__(self, name: str = "", max_destination: int | None = None) -> None:
        self.name = name
        self.max_destination = max_destination
        self.cut_destinations = 0
        self.not_text_destinations = 0
        self.writing_mode = 0
        self.ordering = ""
        self.parent: CMap | None = None
        self.usecmap = ""  # the name written before `usecmap`, resolved or not
        self.problems: list[str] = []
        self.codespaces: list[Codespace] = []
        self.bf_chars: dict[int, str] = {}
        # bfrange destination as (big-endian number, byte length), counted up per code.
        self.bf_ranges: _RangeTable[tuple[int, int]] = _RangeTable()
        self.cid_chars: dict[int, int] = {}
        self.cid_ranges: _RangeTable[int] = _RangeTable()
        self.notdef_chars: dict[int, int] = {}
        self.notdef_ranges: _RangeTable[int] = _RangeTable()
        # Source-code shapes seen in mappings, for a CMap that forgot its codespace.
        self._source_first_bytes: dict[int, set[int]] = {}

    def add_codespace(self, low: bytes, high: bytes) -> None:
        if len(low) == len(high) and 1 <= len(low) <= 4:
            self.codespaces.append(Codespace(low, high))

    def map_unicode(self, code: int, text: str, length: int = 2) -> None:
        self._note_source(code, code, length)
        cap = self.max_destination
        if cap is not None and len(text) > cap:
            text = text[:cap]
            self.cut_destinations += 1
        if not is_text(text):
            self.not_text_destinations += 1
        self.bf_chars[code] = text

    def map_unicode_range(self, low: int, high: int, destination: bytes, length: int = 2) -> None:
        self._note_source(low, high, length)
        cap = self.max_destination
        if cap is not None and len(destination) > 2 * cap:
            destination = destination[: 2 * cap]
            self.cut_destinations += 1
        if not is_text(utf16_text(destination)):
            self.not_text_destinations += 1
        self._drop_chars(self.bf_chars, low, high)
        self.bf_ranges.add(low, high, (int.from_bytes(destination, "big"), len(destination)))

    def map_cid(self, code: int, cid: int, length: int = 2) -> None:
        self._note_source(code, code, length)
        self.cid_chars[code] = cid

    def map_cid_range(self, low: int, high: int, cid: int, length: int = 2) -> None:
        self._note_source(low, high, length)
        self._drop_chars(self.cid_chars, low, high)
        self.cid_ranges.add(low, high, cid)

    def map_notdef(self, code: int, cid: int) -> None:
        self.notdef_chars[code] = cid

    def map_notdef_range(self, low: int, high: int, cid: int) -> None:
        self._drop_chars(self.notdef_chars, low, high)
        self.notdef_ranges.add(low, high, cid)

    def build(self) -> CMap:
        return CMap(self)

    @staticmethod
    def _drop_chars(chars: dict, low: int, high: int) -> None:
        """A later range overrides earlier single mappings inside it."""
        if not chars:
            return
        if high - low < len(chars):
            for code in range(low, high + 1):
                chars.pop(code, None)
        else:
            for code in [c for c in chars if low <= c <= high]:
                del chars[code]

    def _note_source(self, low: int, high: int, length: int) -> None:
        shift = 8 * (length - 1)
        self._source_first_bytes.setdefault(length, set()).update(
            range((low >> shift) & 0xFF, ((high >> shift) & 0xFF) + 1)
        )

    def inferred_codespaces(self, has_cids: bool) -> list[Codespace]:
        """No codespacerange: split the way the mappings' source codes suggest.

        With no mappings either, 1 byte for a ToUnicode CMap, 2 for a CID (Identity-like) one.
        """
        shapes = self._source_first_bytes
        if not shapes:
            n = 2 if has_cids or self.name.startswith("Identity") else 1
            return [Codespace(b"\x00" * n, b"\xff" * n)]
        if len(shapes) == 1:
            n = next(iter(shapes))
            return [Codespace(b"\x00" * n, b"\xff" * n)]
        return [
            Codespace(bytes((first,)) + b"\x00" * (n - 1), bytes((first,)) + b"\xff" * (n - 1))
            for n, firsts in sorted(shapes.items())
            for first in sorted(firsts)
        ]
