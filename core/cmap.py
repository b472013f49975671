"""CMap parsing (ISO 32000-1 §9.7.5, §9.10.3): ToUnicode CMaps and CID-keyed encoding CMaps.

A CMap is PostScript, not a content stream, so it has its own small regex lexer here. The
parser never raises: records it cannot read are skipped and noted in `CMap.problems`, and a
corrupted tail loses only the tail. Ranges stay ranges (a 65536-code bfrange is one entry),
looked up by bisection; single mappings live in dicts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from itertools import pairwise
from typing import NamedTuple

# §9.7.5: a usecmap chain may be long but must end; cycles (A uses B uses A) are cut by
# remembering which CMaps are being resolved in the current call stack. The value is reset on
# return, so nothing outlives a call.
_RESOLVING: ContextVar[tuple[str, ...]] = ContextVar("glyphscope_usecmap_chain", default=())
_MAX_USECMAP_DEPTH = 16

_TOKEN = re.compile(
    rb"%[^\r\n]*"  # comment
    rb"|<<|>>"
    rb"|<[0-9A-Fa-f\x00\t\n\x0c\r ]*>"  # hex string §7.3.4.3
    rb"|\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)"  # literal string, one nesting level
    rb"|/[^\x00\t\n\x0c\r /\[\]<>(){}%]*"  # name
    rb"|[\[\]{}]"
    # Block keywords first, so one glued to its neighbour by a careless producer
    # (`endcodespacerange4 beginbfchar`, `endbfcharendcmap`) still ends its block.
    rb"|(?:begin|end)(?:codespacerange|bfchar|bfrange|cidchar|cidrange|notdefchar|notdefrange)"
    rb"|[^\x00\t\n\x0c\r /\[\]<>(){}%]+",  # number or keyword
    re.S,
)
_INTEGER = re.compile(rb"[+-]?[0-9]+")
_REAL = re.compile(rb"[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+)")
_LITERAL_ESCAPES = re.compile(rb"\\([0-7]{1,3}|\r\n|.)", re.S)
_ESCAPED = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}

# Token kinds.
_HEX, _LIT, _NAME, _NUM, _OP, _ARRAY, _DELIM = range(7)


class _Token(NamedTuple):
    kind: int
    value: object


class _Hex(NamedTuple):
    """A hex string: its bytes and, for 1–4 byte codes, the big-endian integer."""

    data: bytes
    number: int


def _literal(raw: bytes) -> bytes:
    def unescape(match: re.Match[bytes]) -> bytes:
        escaped = match.group(1)
        if escaped[:1].isdigit():
            return bytes((int(escaped, 8) & 0xFF,))
        if escaped in (b"\r\n", b"\n", b"\r"):
            return b""
        return _ESCAPED.get(escaped, escaped)

    return _LITERAL_ESCAPES.sub(unescape, raw[1:-1])


def _tokens(data: bytes) -> Iterator[_Token]:
    for match in _TOKEN.finditer(data):
        raw = match.group()
        first = raw[:1]
        if first == b"%":
            continue
        if first == b"<" and raw != b"<<":
            digits = raw[1:-1].translate(None, b"\x00\t\n\x0c\r ")
            if len(digits) % 2:
                digits += b"0"  # §7.3.4.3: a missing final digit is 0
            value = bytes.fromhex(digits.decode("ascii"))
            yield _Token(_HEX, _Hex(value, int.from_bytes(value, "big")))
        elif first == b"(":
            yield _Token(_LIT, _literal(raw))
        elif first == b"/":
            yield _Token(_NAME, raw[1:].decode("latin-1"))
        elif raw in (b"[", b"]", b"{", b"}", b"<<", b">>"):
            yield _Token(_DELIM, raw.decode("ascii"))
        elif _INTEGER.fullmatch(raw):
            yield _Token(_NUM, int(raw))
        elif _REAL.fullmatch(raw):
            yield _Token(_NUM, float(raw))  # /CMapVersion 11.006: an operand, never an operator
        else:
            yield _Token(_OP, raw.decode("latin-1"))


def _utf16(data: bytes) -> str:
    """§9.10.3: bf destinations are UTF-16BE; surrogate pairs recombine on decoding."""
    if len(data) % 2:
        data = b"\x00" + data  # a one-byte destination written by a careless producer
    return data.decode("utf-16-be", "replace")


class _RangeTable:
    """Non-overlapping code ranges sorted by low code; a later range overrides earlier ones."""

    __slots__ = ("lows", "highs", "origins", "values")

    def __init__(self) -> None:
        self.lows: list[int] = []
        self.highs: list[int] = []
        self.origins: list[int] = []
        self.values: list[object] = []

    def __len__(self) -> int:
        return len(self.lows)

    def add(self, low: int, high: int, value: object) -> None:
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

    def find(self, code: int) -> tuple[int, object] | None:
        """(offset of `code` from the start of its original range, that range's value)."""
        index = bisect_right(self.lows, code) - 1
        if index >= 0 and code <= self.highs[index]:
            return code - self.origins[index], self.values[index]
        return None

    def items(self) -> Iterator[tuple[int, int, int, object]]:
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
        self.ordering = builder.ordering or (parent.ordering if parent else "")
        self.problems = tuple(builder.problems)
        self.parent = parent
        self.usecmap = builder.usecmap
        self._bf_chars = builder.bf_chars
        self._bf_ranges = builder.bf_ranges
        self._cid_chars = builder.cid_chars
        self._cid_ranges = builder.cid_ranges
        self._notdef_chars = builder.notdef_chars
        self._notdef_ranges = builder.notdef_ranges
        self.has_unicode = bool(self._bf_chars or self._bf_ranges) or bool(
            parent and parent.has_unicode
        )
        self.has_cids = bool(
            self._cid_chars or self._cid_ranges or self._notdef_chars or self._notdef_ranges
        ) or bool(parent and parent.has_cids)
        codespaces = list(builder.codespaces)
        if parent:
            codespaces += [c for c in parent.codespaces if c not in codespaces]
        if not codespaces:
            codespaces = builder.inferred_codespaces(self.has_cids)
        self.codespaces = tuple(codespaces)
        self.code_lengths = frozenset(len(c.lows) for c in codespaces)
        self._shortest = min(self.code_lengths)
        self._by_first_byte = _first_byte_table(self.codespaces)
        self._uniform_length = _uniform_length(self.codespaces)

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
            return text
        hit = self._bf_ranges.find(code) if self._bf_ranges else None
        if hit is not None:
            offset, (base, size) = hit
            # The destination counts up as one big-endian number: <00FF> then <0100>.
            value = (base + offset) & ((1 << (8 * size)) - 1)
            return _utf16(value.to_bytes(size, "big"))
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
    table = []
    for byte in range(256):
        by_length: dict[int, list[tuple[bytes, bytes]]] = {}
        for space in codespaces:
            if space.lows[0] <= byte <= space.highs[0]:
                by_length.setdefault(len(space.lows), []).append((space.lows[1:], space.highs[1:]))
        table.append(tuple((n, tuple(by_length[n])) for n in sorted(by_length)))
    return tuple(table)


def _uniform_length(codespaces: tuple[Codespace, ...]) -> int:
    """n when every n-byte string is a code (<0000> <FFFF>): split by slicing, 0 otherwise."""
    lengths = {len(space.lows) for space in codespaces}
    if len(lengths) != 1:
        return 0
    n = lengths.pop()
    full = Codespace(b"\x00" * n, b"\xff" * n)
    return n if full in codespaces else 0


class CMapBuilder:
    """Collects CMap records; `build()` freezes them. Later records override earlier ones."""

    def __init__(self, name: str = "") -> None:
        self.name = name
        self.writing_mode = 0
        self.ordering = ""
        self.parent: CMap | None = None
        self.usecmap = ""  # the name written before `usecmap`, resolved or not
        self.problems: list[str] = []
        self.codespaces: list[Codespace] = []
        self.bf_chars: dict[int, str] = {}
        self.bf_ranges = _RangeTable()
        self.cid_chars: dict[int, int] = {}
        self.cid_ranges = _RangeTable()
        self.notdef_chars: dict[int, int] = {}
        self.notdef_ranges = _RangeTable()
        # Source-code shapes seen in mappings, for a CMap that forgot its codespace.
        self._source_first_bytes: dict[int, set[int]] = {}

    def add_codespace(self, low: bytes, high: bytes) -> None:
        if len(low) == len(high) and 1 <= len(low) <= 4:
            self.codespaces.append(Codespace(low, high))

    def map_unicode(self, code: int, text: str, length: int = 2) -> None:
        self._note_source(code, code, length)
        self.bf_chars[code] = text

    def map_unicode_range(self, low: int, high: int, destination: bytes, length: int = 2) -> None:
        self._note_source(low, high, length)
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


# §9.7.5 / Adobe TN 5014: block operator → (closing operator, operands per record). The count
# written before `beginbfchar` is ignored: files with wrong counts exist, the end keyword rules.
_BLOCKS = {
    "begincodespacerange": ("endcodespacerange", 2),
    "beginbfchar": ("endbfchar", 2),
    "beginbfrange": ("endbfrange", 3),
    "begincidchar": ("endcidchar", 2),
    "begincidrange": ("endcidrange", 3),
    "beginnotdefchar": ("endnotdefchar", 2),
    "beginnotdefrange": ("endnotdefrange", 3),
}
_MAX_OPERANDS = 64


def parse_cmap(data: bytes, resolve_usecmap: Callable[[str], CMap | None] | None = None) -> CMap:
    """Parse a CMap stream or file. Never raises: what cannot be read is skipped and noted.

    `resolve_usecmap(name)` supplies the CMap named by `usecmap` (§9.7.5); the chain is
    followed cycle-safely, and this CMap's own mappings win over the used one's.
    """
    builder = CMapBuilder()
    try:
        _parse_into(builder, bytes(data), resolve_usecmap)
    except Exception as error:  # a malformed CMap keeps what was read so far
        builder.problems.append(f"parsing stopped: {type(error).__name__}: {error}")
    return builder.build()


def _parse_into(
    builder: CMapBuilder, data: bytes, resolve: Callable[[str], CMap | None] | None
) -> None:
    tokens = list(_tokens(data))
    operands: list[_Token] = []
    system_info: dict[str, str] = {}
    index, count = 0, len(tokens)
    while index < count:
        token = tokens[index]
        index += 1
        if token.kind != _OP:
            operands.append(token)
            if len(operands) > _MAX_OPERANDS:
                del operands[:-_MAX_OPERANDS]
            continue
        block = _BLOCKS.get(token.value)
        if block:
            index = _read_block(builder, tokens, index, token.value, *block)
        elif token.value == "usecmap" and operands and operands[-1].kind == _NAME:
            _use_cmap(builder, operands[-1].value, resolve)
        elif token.value == "def":
            _define(builder, operands, system_info)
        operands.clear()
    if "Registry" in system_info and "Ordering" in system_info:
        builder.ordering = f"{system_info['Registry']}-{system_info['Ordering']}"


def _define(builder: CMapBuilder, operands: list[_Token], system_info: dict[str, str]) -> None:
    if len(operands) >= 2 and operands[-2].kind == _NAME:
        key, value = operands[-2].value, operands[-1]
        if key == "CMapName" and value.kind == _NAME:
            builder.name = value.value
        elif key == "WMode" and value.kind == _NUM:
            builder.writing_mode = 1 if value.value == 1 else 0
    # /CIDSystemInfo is written either as `3 dict dup begin /Registry (Adobe) def …` or as a
    # `<< /Registry (Adobe) /Ordering (Japan1) >>` operand of one def.
    for key, value in pairwise(operands):
        if key.kind == _NAME and key.value in ("Registry", "Ordering") and value.kind == _LIT:
            system_info[key.value] = value.value.decode("latin-1")


def _use_cmap(
    builder: CMapBuilder, name: str, resolve: Callable[[str], CMap | None] | None
) -> None:
    builder.usecmap = name
    chain = _RESOLVING.get()
    if resolve is None:
        builder.problems.append(f"usecmap /{name}: no resolver given")
        return
    if name in chain or len(chain) >= _MAX_USECMAP_DEPTH:
        builder.problems.append(f"usecmap /{name}: cycle or chain too deep, ignored")
        return
    reset = _RESOLVING.set((*chain, name))
    try:
        parent = resolve(name)
    except Exception as error:  # a failing resolver loses only the used CMap
        builder.problems.append(f"usecmap /{name}: {type(error).__name__}: {error}")
        parent = None
    finally:
        _RESOLVING.reset(reset)
    if parent is None:
        builder.problems.append(f"usecmap /{name}: not found")
    else:
        builder.parent = parent


def _read_block(
    builder: CMapBuilder, tokens: list[_Token], index: int, begin: str, end: str, arity: int
) -> int:
    """Read records up to `end`; return the index after it. A stray operator ends the block."""
    record: list[_Token] = []
    count = len(tokens)
    while index < count:
        token = tokens[index]
        if token.kind == _OP:
            if token.value == end:
                return index + 1
            builder.problems.append(f"{begin}: {token.value} before {end}")
            return index
        index += 1
        if token.kind == _DELIM and token.value == "[":
            items = []
            while index < count and tokens[index].kind in (_HEX, _LIT):
                value = tokens[index].value
                items.append(value.data if isinstance(value, _Hex) else value)
                index += 1
            if index < count and tokens[index] == (_DELIM, "]"):
                index += 1
            token = _Token(_ARRAY, items)
        record.append(token)
        if len(record) == arity:
            if _apply(builder, begin, record):
                record.clear()
            else:
                builder.problems.append(f"{begin}: skipped unreadable operand {record[0].value!r}")
                del record[0]
    builder.problems.append(f"{begin}: data ended before {end}")
    return index


def _code(token: _Token) -> _Hex | None:
    if token.kind == _HEX and 1 <= len(token.value.data) <= 4:
        return token.value
    return None


def _apply(builder: CMapBuilder, begin: str, record: list[_Token]) -> bool:
    """Apply one record; False when its operands have the wrong types."""
    source = _code(record[0])
    if source is None:
        return False
    low, length = source.number, len(source.data)
    if begin == "begincodespacerange":
        high_code = _code(record[1])
        if high_code is None or len(high_code.data) != length:
            return False
        builder.add_codespace(source.data, high_code.data)
        return True
    destination = record[-1]
    if len(record) == 3:
        high_code = _code(record[1])
        if high_code is None:
            return False
        high = high_code.number
        if high < low:
            builder.problems.append(f"{begin}: range {low:#x}..{high:#x} is empty")
            return True
    if begin == "beginbfchar":
        if destination.kind in (_HEX, _LIT):
            builder.map_unicode(low, _utf16(_bytes(destination)), length)
        return destination.kind in (_HEX, _LIT, _NAME)  # a glyph-name destination is legal
    if begin == "beginbfrange":
        if destination.kind in (_HEX, _LIT):
            builder.map_unicode_range(low, high, _bytes(destination), length)
        elif destination.kind == _ARRAY:
            for offset, text in enumerate(destination.value[: high - low + 1]):
                builder.map_unicode(low + offset, _utf16(text), length)
        else:
            return False
        return True
    if destination.kind != _NUM or not isinstance(destination.value, int) or destination.value < 0:
        return False
    if begin == "begincidchar":
        builder.map_cid(low, destination.value, length)
    elif begin == "begincidrange":
        builder.map_cid_range(low, high, destination.value, length)
    elif begin == "beginnotdefchar":
        builder.map_notdef(low, destination.value)
    else:
        builder.map_notdef_range(low, high, destination.value)
    return True


def _bytes(token: _Token) -> bytes:
    return token.value.data if token.kind == _HEX else token.value
