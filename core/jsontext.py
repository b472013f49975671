"""JSON text through orjson: strict JSON (RFC 8259), UTF-8, written a chunk of rows at a time.

`encoded(value, indent)` yields the UTF-8 JSON text of `value` in pieces, `dumps` joins them.
Values are what orjson takes (dicts with str keys, lists, tuples, str, int, float, bool, None,
str enums, numpy arrays and scalars) and row sources: a Converted list, or an object with a
`json_chunks(separator)` method yielding the text of its items a chunk at a time
(serialize.GlyphJson and DecisionJson write theirs from the glyph and decision columns, so a
page's million records never exist as dictionaries, nor its text at once: `join_rows` writes
a chunk's rows into the text of a record's template from a text per row of each column).

The spelling is orjson's, decided once (README, "The decision log"):
- a float is its shortest text that reads back as the same double, as `repr` finds it, but
  spelled as orjson spells it (`1e-05` is `0.00001`; orjson 3.9 writes `1e16` where 3.13 and
  `repr` write `1e+16`): the value every JSON reader parses is the same;
- nan and ±inf are null (strict JSON has no NaN or Infinity), wherever they are;
- non-ASCII characters are UTF-8, not escaped; with `indent`, two spaces a level, and a row
  source's records one a line (a glyph is one line, not forty);
- a str that is not Unicode text (a lone surrogate, which a ToUnicode CMap can map a code to)
  is written with the JSON escape of the surrogate (`"\\ud800"`, what `json.dumps` writes)
  instead of being refused as orjson refuses it: the value reads back as the same str;
- an int beyond 64 bits, which orjson refuses, is written in full too.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import repeat
from typing import Any, Protocol

import numpy as np
import orjson

# A row source's place in the text of what holds it, and a field's in a row's template: a raw
# NUL byte, which orjson never writes (it escapes every control character in a string).
_MARK = b"\x00"
SLOT = orjson.Fragment(_MARK)
POINT_SLOT = orjson.Fragment(b"[" + _MARK + b"]")
QUAD_SLOT = orjson.Fragment(b"[[" + _MARK + b"]]")

_OPTIONS = orjson.OPT_SERIALIZE_NUMPY


def dumps(value: object, indent: bool = False) -> bytes:
    """The UTF-8 JSON text of `value`, its row sources written in place."""
    return b"".join(encoded(value, indent))


def encoded(value: object, indent: bool = False, level: int = 0) -> Iterator[bytes]:
    """The UTF-8 JSON text of `value` in pieces: the text around its row sources, and their
    chunks as they are written. `level`: the spaces every line but the first is indented by
    (the text of an item nested in an indented array)."""
    sources: list[RowSource | Converted] = []
    pieces = _dumps(value, indent, sources).split(_MARK)
    for position, source in enumerate(sources):
        piece = pieces[position]
        yield _indented(piece, level)
        # An array's items are indented a level past the line it opens on.
        line = piece[piece.rfind(b"\n") + 1 :]
        inner = level + len(line) - len(line.lstrip(b" ")) + 2
        yield from _array(source, indent, inner)
    yield _indented(pieces[-1], level)


def quoted(text: str) -> bytes:
    """The JSON string of `text`."""
    return _dumps(text, False)


def column_field(values: np.ndarray) -> Field:
    """A column as a field of rows: the JSON text of each row of `values` (one value, or a
    point's or a quad's numbers: a row of a two- or three-dimensional array written without
    its outer brackets), written by one orjson call; a float's non-finite values are null.
    One text when every row is the same (most chunks have one writing mode, form depth, MCID
    or font): join_rows writes it into the template, with no text per row."""
    values = np.ascontiguousarray(values)
    if not len(values):
        return []
    # Compared by their bits: -0.0 is not written as 0.0 is.
    bits = values.view(np.int64) if values.dtype == np.float64 else values
    if (bits == bits[0]).all():
        return _row_texts(values[:1])[0]
    return _row_texts(values)


def string_field(texts: Sequence[str]) -> Field:
    """A column of strings as a field of rows, each distinct text quoted once."""
    distinct = {text: quoted(text) for text in set(texts)}
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    return list(map(distinct.__getitem__, texts))


def table_field(codes: np.ndarray, texts: Sequence[bytes]) -> Field:
    """texts[codes[r]] for each row r (a column held as codes into its distinct texts)."""
    table = np.empty(len(texts), dtype=object)
    table[:] = texts
    return table[codes].tolist()


def row_template(example: object) -> list[bytes]:
    """The texts between the fields of a record shaped as `example`, each field an SLOT in it
    (a point's an SLOT in brackets, POINT_SLOT; a quad's QUAD_SLOT): row r of a chunk is
    template[0], field 0's text of r, template[1], …, template[-1]."""
    return _dumps(example, False).split(_MARK)


# A field of rows: the same text on every row, or a text per row.
Field = bytes | Sequence[bytes]


def join_rows(
    template: list[bytes],
    fields: Sequence[Field],
    count: int,
    separator: bytes,
    replaced: dict[int, bytes] | None = None,
) -> bytes:
    """The text of `count` rows of `template` joined by `separator`: row r written with
    fields[i]'s text of r in the ith slot, or as replaced[r] where given."""
    # A field the same on every row is written into the texts around it, once.
    between = [template[0]]
    varying = []
    for field, text in zip(fields, template[1:], strict=True):
        if isinstance(field, bytes):
            between[-1] += field + text
        else:
            varying.append(field)
            between.append(text)
    pieces: list[Iterable[bytes]] = [repeat(between[0], count)]
    for field, text in zip(varying, between[1:], strict=True):
        pieces.extend((field, repeat(text, count)))
    rows = list(map(b"".join, zip(*pieces, strict=True)))
    for row, text in (replaced or {}).items():
        rows[row] = text
    return separator.join(rows)


class RowSource(Protocol):
    """A JSON array written a chunk of items at a time (serialize.GlyphJson, DecisionJson)."""

    def json_chunks(self, separator: bytes) -> Iterator[bytes]:
        """The text of the items, a chunk at a time: each chunk some items, each written
        without indent, joined by `separator`."""
        ...


class Converted:
    """An array of `convert(item)` for each of `items`, each converted as it is written: a
    long list's records (the explain report's pages) never exist at once."""

    __slots__ = ("convert", "items")

    def __init__(self, items: Iterable, convert: Callable[[Any], object]) -> None:
        self.items, self.convert = items, convert


def _array(source: RowSource | Converted, indent: bool, inner: int) -> Iterator[bytes]:
    """The JSON array of a row source, its items at indent `inner`: a Converted list's as
    orjson indents them, a RowSource's records one a line."""
    newline = b"\n" + b" " * inner if indent else b""
    separator = b"," + newline
    started = False
    if isinstance(source, Converted):
        for item in source.items:
            yield separator if started else b"[" + newline
            yield from encoded(source.convert(item), indent, inner)
            started = True
    else:
        for chunk in source.json_chunks(separator):
            if chunk:
                yield separator if started else b"[" + newline
                yield chunk
                started = True
    yield (newline[:-2] + b"]" if indent else b"]") if started else b"[]"


def _row_texts(values: np.ndarray) -> list[bytes]:
    depth = values.ndim
    text = orjson.dumps(values, option=_OPTIONS)
    return text[depth:-depth].split(b"]" * (depth - 1) + b"," + b"[" * (depth - 1))


def _indented(text: bytes, level: int) -> bytes:
    return text.replace(b"\n", b"\n" + b" " * level) if level else text


def _dumps(
    value: object, indent: bool, sources: list[RowSource | Converted] | None = None
) -> bytes:
    """orjson's text of `value`; with `sources`, each row source in it is written as a mark
    and appended to `sources`, in the order of the text."""
    option = _OPTIONS | orjson.OPT_INDENT_2 if indent else _OPTIONS
    default = None if sources is None else partial(_mark, sources)
    try:
        return orjson.dumps(value, default=default, option=option)
    except orjson.JSONEncodeError:
        # A lone surrogate or an int beyond 64 bits, which orjson refuses: written again with
        # those as fragments of their text (any other error is raised again).
        if sources is not None:
            sources.clear()
        return orjson.dumps(_as_fragments(value), default=default, option=option)


def _mark(sources: list[RowSource | Converted], item: object) -> orjson.Fragment:
    if isinstance(item, Converted) or hasattr(item, "json_chunks"):
        sources.append(item)
        return SLOT
    raise TypeError(f"Type is not JSON serializable: {type(item).__name__}")


def _as_fragments(value: object) -> object:
    """`value` with each str or int orjson refuses as a Fragment of its JSON text."""
    if isinstance(value, str):
        if not _has_surrogate(value):
            return value
        # json writes the surrogate as it is; its UTF-8 "backslashreplace" is its \\u escape.
        text = json.dumps(value, ensure_ascii=False).encode("utf-8", "backslashreplace")
        return orjson.Fragment(text)
    if isinstance(value, int) and not isinstance(value, bool):
        return value if -(2**63) <= value < 2**64 else orjson.Fragment(int.__repr__(value))
    if isinstance(value, dict):
        return {key: _as_fragments(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_fragments(item) for item in value]
    return value


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
