"""CMap parsing (ISO 32000-1 §9.7.5, §9.10.3): ToUnicode CMaps and CID-keyed encoding CMaps.

A CMap is PostScript, not a content stream, so it has its own small regex lexer here. The
parser never raises: records it cannot read are skipped and noted in `CMap.problems`, and a
corrupted tail loses only the tail. The record it fills, `CMap`, lives in core/cmap_tables.py
and is re-exported here with `CMapBuilder` and `Codespace`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from itertools import pairwise
from typing import NamedTuple

from glyphscope.core.fonts.cmap.tables import CMap, CMapBuilder, Codespace, utf16_text

__all__ = ["CMap", "CMapBuilder", "Codespace", "parse_cmap"]

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
    """A lexed token; `value` is a `_Hex` (_HEX), bytes (_LIT), str (_NAME, _OP, _DELIM), an
    int or float (_NUM), or a list of string bytes (_ARRAY)."""

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


def parse_cmap(
    data: bytes,
    resolve_usecmap: Callable[[str], CMap | None] | None = None,
    max_destination: int | None = None,
) -> CMap:
    """Parse a CMap stream or file. Never raises: what cannot be read is skipped and noted.

    `resolve_usecmap(name)` supplies the CMap named by `usecmap` (§9.7.5); the chain is
    followed cycle-safely, and this CMap's own mappings win over the used one's.
    `max_destination` caps a bf destination's length in code points (counted in
    `CMap.cut_destinations`); None leaves them whole.
    """
    builder = CMapBuilder(max_destination=max_destination)
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
        operator = _word(token, _OP)
        if operator is None:
            operands.append(token)
            if len(operands) > _MAX_OPERANDS:
                del operands[:-_MAX_OPERANDS]
            continue
        block = _BLOCKS.get(operator)
        if block:
            index = _read_block(builder, tokens, index, operator, *block)
        elif (
            operator == "usecmap" and operands and (name := _word(operands[-1], _NAME)) is not None
        ):
            _use_cmap(builder, name, resolve)
        elif operator == "def":
            _define(builder, operands, system_info)
        operands.clear()
    if "Registry" in system_info and "Ordering" in system_info:
        builder.ordering = f"{system_info['Registry']}-{system_info['Ordering']}"


def _define(builder: CMapBuilder, operands: list[_Token], system_info: dict[str, str]) -> None:
    if len(operands) >= 2 and operands[-2].kind == _NAME:
        key, value = operands[-2].value, operands[-1]
        if key == "CMapName" and (name := _word(value, _NAME)) is not None:
            builder.name = name
        elif key == "WMode" and value.kind == _NUM:
            builder.writing_mode = 1 if value.value == 1 else 0
    # /CIDSystemInfo is written either as `3 dict dup begin /Registry (Adobe) def …` or as a
    # `<< /Registry (Adobe) /Ordering (Japan1) >>` operand of one def.
    for key, value in pairwise(operands):
        if key.kind == _NAME and key.value in ("Registry", "Ordering"):
            if isinstance(value.value, bytes):  # a literal string
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
            while index < count and (data := _string_bytes(tokens[index])) is not None:
                items.append(data)
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


def _word(token: _Token, kind: int) -> str | None:
    """The text of a name, operator or delimiter token of `kind`; None for any other token."""
    value = token.value
    return value if token.kind == kind and isinstance(value, str) else None


def _string_bytes(token: _Token) -> bytes | None:
    """The bytes of a hex or literal string token (§7.3.4), None for any other token."""
    value = token.value
    if isinstance(value, _Hex):
        return value.data
    return value if isinstance(value, bytes) else None


def _code(token: _Token) -> _Hex | None:
    value = token.value
    if isinstance(value, _Hex) and 1 <= len(value.data) <= 4:
        return value
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
        data = _string_bytes(destination)
        if data is not None:
            builder.map_unicode(low, utf16_text(data), length)
        return data is not None or destination.kind == _NAME  # a glyph-name destination is legal
    if begin == "beginbfrange":
        data = _string_bytes(destination)
        if data is not None:
            builder.map_unicode_range(low, high, data, length)
        elif isinstance(destination.value, list):  # an _ARRAY of destinations
            for offset, text in enumerate(destination.value[: high - low + 1]):
                builder.map_unicode(low + offset, utf16_text(text), length)
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
