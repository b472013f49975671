"""JSON text written straight from columns: the same characters as the `json` module's, without
a dictionary per glyph or decision.

`JsonWriter(indent, ensure_ascii, finite).chunks(value)` yields the text of `value` exactly as
`json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)` writes it (the separators json
picks: ", " between items without indent, "," with it; ": " after keys), with `finite` every
nan and ±inf written as null (what `json.dumps(finite_json(value))` writes). Values are dicts,
lists, tuples, str, int, float, bool, None and their subclasses (a StrEnum member is written as
its string), as json takes them; Converted items; and row sources: objects with a
`json_items(writer, level, separator)` method yielding the text of their items a chunk at a
time, the items of a chunk joined by `separator` (serialize.GlyphJson, DecisionJson), as a
str or as Rows (`writer.row_chunk`), written when its text is wanted. `text` writes every
piece into one compiled TextBuffer (no str per chunk of rows, decoded once), `encoded`
hands its UTF-8 over a block at a time (the CLI's `--mode explain`).

A row source writes a chunk of rows (`rows`) from an example record of their shape, written by
this writer itself (so its punctuation is the writer's own), and one field per slot of it:
a float column as Floats (`float_column`: the texts of the writer's FloatTexts, each
distinct bit pattern converted once while the writer lives, since a page repeats its
baselines, sizes and fonts on every glyph and a file's pages their margins), an integer
column as the array itself, a string column as Quoted (`quoted_column`: each distinct text
quoted once). `join_rows` writes the rows from them into one text, compiled
(core/_jsonrows.pyx) where the extension was built, in Python otherwise. `shared_writer`
keeps one writer per set of options, so that pages written one by one share those texts.
"""

from __future__ import annotations

import json.encoder
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import repeat
from typing import Any, NamedTuple, Protocol

import numpy as np

# A template's field, as an example record holds it; the writer writes it as "\u0000".
SLOT = "\x00"
_SLOT_TEXT = '"\\u0000"'


class JsonWriter:
    def __init__(
        self, indent: int | None = None, ensure_ascii: bool = True, finite: bool = False
    ) -> None:
        self.indent = indent
        self.finite = finite
        self._quote: Callable[[str], str] = (
            json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
        )
        self._separator = ", " if indent is None else ","
        self._templates: dict[tuple[str, int], tuple[str, ...]] = {}
        self._float_texts = _float_texts(self.float_text)
        self._quoted: dict[str, str] = {}

    def text(self, value: object, level: int = 0) -> str:
        """The JSON text of `value` written at indent `level` (its nesting depth)."""
        if _CompiledTextBuffer is not None:
            buffer = _CompiledTextBuffer()
            try:
                for _ in self._written(value, level, buffer):
                    pass
                return buffer.take_text()
            except UnicodeEncodeError:  # a lone surrogate (ensure_ascii=False) is not UTF-8
                pass
        return "".join(self.chunks(value, level))

    def encoded(self, value: object, level: int = 0, size: int = 1 << 20) -> Iterator[bytes]:
        """The UTF-8 of the text of `value` in blocks of at least `size` bytes but the last
        (what a writer into a file writes), each block written in one buffer."""
        if _CompiledTextBuffer is None:
            pieces: list[str] = []
            held = 0
            for chunk in self.chunks(value, level):
                pieces.append(chunk)
                held += len(chunk)
                if held >= size:
                    yield "".join(pieces).encode("utf-8")
                    pieces, held = [], 0
            yield "".join(pieces).encode("utf-8")
            return
        buffer = _CompiledTextBuffer()
        for _ in self._written(value, level, buffer):
            if len(buffer) >= size:
                yield buffer.take()
        yield buffer.take()

    def chunks(self, value: object, level: int = 0) -> Iterator[str]:
        """The JSON text of `value` in pieces, a row source's chunk at a time."""
        for piece in self._pieces(value, level):
            yield piece if isinstance(piece, str) else piece.text()

    def piece_text(self, piece: str | Rows) -> str:
        """The text of a piece a row source yields."""
        return piece if isinstance(piece, str) else piece.text()

    def _written(self, value: object, level: int, buffer: TextBuffer) -> Iterator[None]:
        """Writes the text of `value` into `buffer`, a piece at a time (a step each)."""
        write, rows = buffer.write, buffer.rows
        for piece in self._pieces(value, level):
            if isinstance(piece, str):
                write(piece)
            else:
                rows(*piece)
            yield

    def _pieces(self, value: object, level: int) -> Iterator[str | Rows]:
        """The JSON text of `value` in pieces: texts, and chunks of rows as Rows."""
        if isinstance(value, str):
            yield self._quote(value)
        elif value is None:
            yield "null"
        elif value is True:
            yield "true"
        elif value is False:
            yield "false"
        elif isinstance(value, int):
            yield int.__repr__(value)
        elif isinstance(value, float):
            yield self.float_text(value)
        elif hasattr(value, "json_items"):
            separator = self._brackets(level)[1]
            yield from self._rows(value.json_items(self, level + 1, separator), level)
        elif isinstance(value, (list, tuple)):
            ints = self._int_list(value, self._brackets(level)[1]) if value else None
            if ints is not None:  # glyph indexes: written at once
                yield from self._rows([ints], level)
            elif (lists := self._int_lists(value, level)) is not None:
                yield lists
            else:
                yield from self._items(value, level)
        elif isinstance(value, Converted):
            yield from self._items(map(value.convert, value.items), level)
        elif isinstance(value, dict):
            yield from self._object(value, level)
        else:
            raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")

    def float_text(self, value: float) -> str:
        if math.isfinite(value):
            return float.__repr__(value)
        if self.finite:
            return "null"
        return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")

    def floats(self, values: np.ndarray) -> list[str]:
        """The texts of a float64 array's values (flattened)."""
        return self._float_texts.texts(np.ascontiguousarray(values, dtype=np.float64).ravel())

    def float_column(self, values: np.ndarray) -> Floats:
        """A float64 column as a field of rows, written as this writer's texts of its values."""
        return Floats(values, self._float_texts)

    def ints(self, values: np.ndarray) -> list[str]:
        """The texts of an integer array's values."""
        return _int_texts(values)

    def _int_list(self, values: list | tuple, separator: str) -> str | None:
        """The texts of a list of ints (glyph indexes, a line's glyphs) joined by `separator`,
        or None if an item is not exactly an int (a bool is written as true or false)."""
        if _compiled_join_ints is not None:
            try:
                return _compiled_join_ints(values, separator)
            except TypeError:
                return None
            except OverflowError:  # beyond int64: written in Python
                pass
        if set(map(type, values)) != {int}:
            return None
        return separator.join(map(int.__repr__, values))

    def _int_lists(self, values: list | tuple, level: int) -> str | None:
        """The text of a list of lists of ints (layout's lines, a band's columns of glyph
        indexes) at `level`, as _items and _rows write it item by item; None if an item is
        not a list or tuple of exact ints."""
        if not values or not isinstance(values[0], (list, tuple)):
            return None
        opening, separator, closing = self._brackets(level)
        inner_opening, inner_separator, inner_closing = self._brackets(level + 1)
        texts = []
        for item in values:
            if not isinstance(item, (list, tuple)):
                return None
            if not item:
                texts.append("[]")
                continue
            ints = self._int_list(item, inner_separator)
            if ints is None:
                return None
            texts.append(inner_opening + ints + inner_closing)
        return opening + separator.join(texts) + closing

    def quoted_column(self, column: list[str], rows: np.ndarray) -> Quoted:
        """The texts column[rows[r]] as a field of rows, each distinct text quoted once."""
        return Quoted(column, rows, self._quoted, self._quote)

    def quoted_texts(self, texts: list[str]) -> list[str]:
        """The quoted `texts`: with codes into them, a Table field of a column already
        dictionary-encoded (a page's glyph texts), written by table lookup rather than a
        dictionary lookup per row as a Quoted one is."""
        return list(map(self._quote, texts))

    def rows(
        self,
        example: object,
        level: int,
        count: int,
        fields: Sequence[Field],
        separator: str,
        replaced: dict[int, str] | None = None,
    ) -> str:
        """The text of `count` records shaped as `example` (whose every SLOT string stands
        for a field) written at `level`, the ith field's texts taken from fields[i] (see
        join_rows), joined by `separator`; record r written as replaced[r] where given."""
        return self.row_chunk(example, level, count, fields, separator, replaced).text()

    def row_chunk(
        self,
        example: object,
        level: int,
        count: int,
        fields: Sequence[Field],
        separator: str,
        replaced: dict[int, str] | None = None,
    ) -> Rows:
        """rows(…) as a piece of a row source, written when its text is wanted (into the
        buffer of the whole text, where there is one)."""
        if len(self._float_texts) > _FLOAT_TEXTS_KEPT:
            self._float_texts.clear()
        if len(self._quoted) > _QUOTED_KEPT:
            self._quoted.clear()
        key = (repr(example), level)
        if key not in self._templates:
            self._templates[key] = tuple(self.text(example, level).split(_SLOT_TEXT))
        between = list(self._templates[key])
        return Rows(between, list(fields), count, separator, replaced or {})

    def _rows(self, chunks: Iterable[str | Rows], level: int) -> Iterator[str | Rows]:
        """An array whose items come as `chunks`, each the text of some items joined by the
        array's separator (a Rows of no rows is no items; of some, never an empty text: a
        row is a record's template)."""
        opening, separator, closing = self._brackets(level)
        started = False
        for chunk in chunks:
            if not (chunk.row_count if isinstance(chunk, Rows) else chunk):
                continue
            yield separator if started else opening
            yield chunk  # apart: a chunk of rows is long, and "+" would copy it
            started = True
        yield closing if started else "[]"

    def _items(self, items: Iterable[object], level: int) -> Iterator[str | Rows]:
        """An array of `items`, each written in pieces as it comes."""
        opening, separator, closing = self._brackets(level)
        started = False
        for item in items:
            yield separator if started else opening
            yield from self._pieces(item, level + 1)
            started = True
        yield closing if started else "[]"

    def _brackets(self, level: int) -> tuple[str, str, str]:
        """An array's opening, separator between items and closing, at nesting `level`."""
        if self.indent is None:
            return "[", ", ", "]"
        inner = "\n" + " " * (self.indent * (level + 1))
        return "[" + inner, "," + inner, "\n" + " " * (self.indent * level) + "]"

    def _object(self, value: dict[Any, Any], level: int) -> Iterator[str | Rows]:
        if not value:
            yield "{}"
            return
        if self.indent is None:
            inner, closing = "", "}"
        else:
            inner = "\n" + " " * (self.indent * (level + 1))
            closing = "\n" + " " * (self.indent * level) + "}"
        separator = self._separator + inner
        first = True
        for key, item in value.items():
            yield ("{" + inner if first else separator) + self._key(key) + ": "
            first = False
            yield from self._pieces(item, level + 1)
        yield closing

    def _key(self, key: object) -> str:
        # json's own conversions of keys that are not strings.
        if isinstance(key, str):
            return self._quote(key)
        if isinstance(key, float):
            return self._quote(self.float_text(key))
        if key is True or key is False or key is None:
            return self._quote(json.dumps(key))
        if isinstance(key, int):
            return self._quote(int.__repr__(key))
        raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


@dataclass(frozen=True, slots=True)
class Converted:
    """An array of `convert(item)` for each of `items`, each converted as it is written: a
    long list's records never exist at once."""

    items: Iterable
    convert: Callable[[Any], object]


class Rows(NamedTuple):
    """A chunk of rows of a row source, join_rows' arguments: written when its text is
    wanted, into the buffer of the whole text where there is one."""

    between: list[str]
    fields: list[Field]
    row_count: int
    separator: str
    replaced: dict[int, str]

    def text(self) -> str:
        return join_rows(*self)


class TextBuffer(Protocol):
    """Where JsonWriter writes a whole text (_jsonrows.TextBuffer)."""

    def write(self, text: str) -> None: ...
    def rows(
        self,
        between: list[str],
        fields: list[Field],
        count: int,
        separator: str,
        replaced: dict[int, str],
    ) -> None: ...
    def text(self) -> str: ...
    def take_text(self) -> str: ...
    def take(self) -> bytes: ...
    def __len__(self) -> int: ...


class Table(NamedTuple):
    """A column of texts as codes into the table of its distinct texts: row i is
    texts[codes[i]] (codes an intp array)."""

    codes: np.ndarray
    texts: list[str]


class FloatTexts(Protocol):
    """The texts of float64 values by bit pattern, kept once converted (_jsonrows.FloatTexts,
    or _PythonFloatTexts without the extension)."""

    def texts(self, values: np.ndarray) -> list[str]: ...
    def clear(self) -> None: ...
    def __len__(self) -> int: ...


class Floats(NamedTuple):
    """A float64 column written as the texts `texts` holds of its values."""

    values: np.ndarray
    texts: FloatTexts


class Quoted(NamedTuple):
    """A string column written as quoted[column[rows[r]]], quote(text) added to `quoted`
    where it is missing."""

    column: list[str]
    rows: np.ndarray
    quoted: dict[str, str]
    quote: Callable[[str], str]


class Nullable(NamedTuple):
    """An int64 column written as its decimal texts, `text` (null) where the value is
    `null` (the MCID column's sentinel)."""

    values: np.ndarray
    null: int
    text: str


# A field of join_rows: the same text on every row, a text per row, a Table, an int64 array
# (decimal texts), a Nullable, Floats or Quoted.
Field = str | list[str] | Table | np.ndarray | Nullable | Floats | Quoted

# How many float texts and quoted strings a writer keeps before it starts again: a writer
# lives as long as a process may, over any number of files. Few float texts are shared
# between pages, and a table that stays in the processor's cache is worth more (measured on
# issue 9's eight files: 2.3 µs per glyph keeping 2**14, 2.8 keeping 2**18).
_FLOAT_TEXTS_KEPT = 1 << 14
_QUOTED_KEPT = 1 << 16


def join_rows(
    between: list[str],
    fields: list[Field],
    count: int,
    separator: str,
    replaced: dict[int, str] | None = None,
) -> str:
    """The text of `count` rows joined by `separator`: row r is between[0], the text of
    fields[0] at r, between[1], …, between[-1]; or replaced[r] where given."""
    replaced = replaced or {}
    if _compiled_join_rows is not None:
        try:
            return _compiled_join_rows(between, fields, count, separator, replaced)
        except UnicodeEncodeError:  # a lone surrogate (ensure_ascii=False) is not UTF-8
            pass
    return join_rows_in_python(between, fields, count, separator, replaced)


def join_rows_in_python(
    between: list[str],
    fields: list[Field],
    count: int,
    separator: str,
    replaced: dict[int, str],
) -> str:
    """join_rows written with str.join (the compiled one's oracle and fallback)."""
    pieces: list[Iterable[str]] = [repeat(between[0], count)]
    for field, text in zip(fields, between[1:], strict=True):
        pieces.extend((_field_texts(field, count), repeat(text, count)))
    rows = list(map("".join, zip(*pieces, strict=True)))
    for row, text in replaced.items():
        rows[row] = text
    return separator.join(rows)


def float_table_in_python(values: np.ndarray, float_text: Callable[[float], str]) -> Table:
    """A float64 array's values as a Table by sorting their bits (the compiled FloatTexts'
    oracle, and _PythonFloatTexts' conversion); float_text writes the non-finite ones."""
    distinct, positions = np.unique(values.view(np.int64), return_inverse=True)
    numbers = distinct.view(np.float64)
    texts = list(map(float.__repr__, numbers.tolist()))
    for position in np.flatnonzero(~np.isfinite(numbers)).tolist():
        texts[position] = float_text(float(numbers[position]))
    return Table(positions.reshape(-1), texts)


class _PythonFloatTexts:
    """FloatTexts without the extension: converted per call, nothing kept."""

    def __init__(self, float_text: Callable[[float], str]) -> None:
        self._float_text = float_text

    def texts(self, values: np.ndarray) -> list[str]:
        table = float_table_in_python(np.asarray(values, dtype=np.float64), self._float_text)
        return list(map(table.texts.__getitem__, table.codes.tolist()))

    def clear(self) -> None:
        pass

    def __len__(self) -> int:
        return 0


def _field_texts(field: Field, count: int) -> Sequence[str] | Iterable[str]:
    if isinstance(field, str):
        return repeat(field, count)
    if isinstance(field, list):
        return field
    if isinstance(field, Floats):
        return field.texts.texts(np.ascontiguousarray(field.values, dtype=np.float64))
    if isinstance(field, Quoted):
        texts = map(field.column.__getitem__, field.rows.tolist())
        return [field.quoted.get(text) or field.quote(text) for text in texts]
    if isinstance(field, Table):
        return list(map(field.texts.__getitem__, field.codes.tolist()))
    if isinstance(field, Nullable):
        values = field.values.tolist()
        return [field.text if value == field.null else int.__repr__(value) for value in values]
    return _int_texts(field)


def _int_texts(values: np.ndarray) -> list[str]:
    """The texts of an integer array's values; through a table of every text between the
    least and the greatest when that span is no longer than the array (codes, modes, depths,
    and the indexes of a page's rows)."""
    if not len(values):
        return []
    low, high = int(values.min()), int(values.max())
    if high - low > max(len(values), 256):
        return list(map(int.__repr__, values.tolist()))
    table = np.array(list(map(int.__repr__, range(low, high + 1))), dtype=object)
    return table[values - low].tolist()


def _float_texts(float_text: Callable[[float], str]) -> FloatTexts:
    """A writer's FloatTexts: compiled where the extension was built."""
    if _CompiledFloatTexts is None:
        return _PythonFloatTexts(float_text)
    return _CompiledFloatTexts(*map(float_text, (math.nan, math.inf, -math.inf)))


@cache
def shared_writer(
    indent: int | None = None, ensure_ascii: bool = True, finite: bool = False
) -> JsonWriter:
    """One JsonWriter per set of options for the process: pages written one at a time share
    its templates and its float and string texts (bounded: see _FLOAT_TEXTS_KEPT)."""
    return JsonWriter(indent, ensure_ascii, finite)


_compiled_join_rows: Callable[..., str] | None
_compiled_join_ints: Callable[[list | tuple, str], str] | None
_CompiledFloatTexts: Callable[[str, str, str], FloatTexts] | None
_CompiledTextBuffer: Callable[[], TextBuffer] | None
try:
    # join_rows, join_ints, FloatTexts and TextBuffer compiled (_jsonrows.pyx), when the
    # extension was built.
    from glyphscope.core._jsonrows import FloatTexts as _CompiledFloatTexts
    from glyphscope.core._jsonrows import TextBuffer as _CompiledTextBuffer
    from glyphscope.core._jsonrows import join_ints as _compiled_join_ints
    from glyphscope.core._jsonrows import join_rows as _compiled_join_rows
except ImportError:  # pragma: no cover - built by pip install wherever a C compiler is
    _compiled_join_rows = _compiled_join_ints = _CompiledFloatTexts = None
    _CompiledTextBuffer = None
