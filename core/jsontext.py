"""JSON text written straight from columns: the same characters as the `json` module's, without
a dictionary per glyph or decision.

`JsonWriter(indent, ensure_ascii, finite).chunks(value)` yields the text of `value` exactly as
`json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)` writes it (the separators json
picks: ", " between items without indent, "," with it; ": " after keys), with `finite` every
nan and ±inf written as null (what `json.dumps(finite_json(value))` writes). Values are dicts,
lists, tuples, str, int, float, bool, None and their subclasses (a StrEnum member is written as
its string), as json takes them; Converted items; and row sources: objects with a
`json_items(writer, level)` method yielding the texts of their items chunk by chunk
(serialize.GlyphJson, DecisionJson).

A row source writes a chunk of rows (`rows`) from an example record of their shape, written by
this writer itself (so its punctuation is the writer's own), and one column of texts per
field: numbers through `floats` and `ints`, strings through `strings`, each distinct
value converted once (a page repeats its baselines, sizes and fonts on every glyph).
"""

from __future__ import annotations

import json.encoder
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

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

    def text(self, value: object, level: int = 0) -> str:
        """The JSON text of `value` written at indent `level` (its nesting depth)."""
        return "".join(self.chunks(value, level))

    def chunks(self, value: object, level: int = 0) -> Iterator[str]:
        """The JSON text of `value` in pieces, a row source's chunk at a time."""
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
            yield from self._rows(value.json_items(self, level + 1), level)
        elif isinstance(value, (list, tuple)):
            if value and set(map(type, value)) == {int}:  # glyph indexes: written at once
                yield from self._rows([self._int_texts(value)], level)
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
        """The texts of a float64 array's values, each distinct bit pattern converted once
        (by bits, not by value: 0.0 and -0.0 are written differently)."""
        bits = np.ascontiguousarray(values, dtype=np.float64).view(np.int64).reshape(-1)
        distinct, positions = np.unique(bits, return_inverse=True)
        numbers = distinct.view(np.float64)
        texts = np.array(list(map(float.__repr__, numbers.tolist())), dtype=object)
        for position in np.flatnonzero(~np.isfinite(numbers)).tolist():
            texts[position] = self.float_text(float(numbers[position]))
        return texts[positions.reshape(-1)].tolist()

    def ints(self, values: np.ndarray) -> list[str]:
        """The texts of an integer array's values; through a table of every text between the
        least and the greatest when that span is no longer than the array (codes, modes,
        depths, and the indexes of a page's rows)."""
        if not len(values):
            return []
        low, high = int(values.min()), int(values.max())
        if high - low > max(len(values), 256):
            return list(map(int.__repr__, values.tolist()))
        table = np.array(list(map(int.__repr__, range(low, high + 1))), dtype=object)
        return table[values - low].tolist()

    def _int_texts(self, values: Sequence[int]) -> list[str]:
        try:
            return self.ints(np.asarray(values, dtype=np.int64))
        except OverflowError:  # beyond int64: one at a time
            return list(map(int.__repr__, values))

    def strings(self, values: Iterable[str]) -> list[str]:
        values = list(values)
        quoted = {value: self._quote(value) for value in set(values)}
        return list(map(quoted.__getitem__, values))

    def rows(
        self, example: object, level: int, count: int, fields: Sequence[Iterable[str]]
    ) -> list[str]:
        """The texts of `count` records shaped as `example` (whose every SLOT string stands
        for a field) written at `level`, the ith field's texts taken from fields[i]: the
        example's own text between the fields, joined in C."""
        key = (repr(example), level)
        if key not in self._templates:
            self._templates[key] = tuple(self.text(example, level).split(_SLOT_TEXT))
        between = self._templates[key]
        pieces: list[Iterable[str]] = [repeat(between[0], count)]
        for field, text in zip(fields, between[1:], strict=True):
            pieces.extend((field, repeat(text, count)))
        return list(map("".join, zip(*pieces, strict=True)))

    def _rows(self, chunks: Iterable[Sequence[str]], level: int) -> Iterator[str]:
        """An array of the item texts of `chunks`, a chunk at a time."""
        opening, separator, closing = self._brackets(level)
        started = False
        for chunk in chunks:
            if not chunk:
                continue
            yield (separator if started else opening) + separator.join(chunk)
            started = True
        yield closing if started else "[]"

    def _items(self, items: Iterable[object], level: int) -> Iterator[str]:
        """An array of `items`, each written in pieces as it comes."""
        opening, separator, closing = self._brackets(level)
        started = False
        for item in items:
            yield separator if started else opening
            yield from self.chunks(item, level + 1)
            started = True
        yield closing if started else "[]"

    def _brackets(self, level: int) -> tuple[str, str, str]:
        """An array's opening, separator between items and closing, at nesting `level`."""
        if self.indent is None:
            return "[", ", ", "]"
        inner = "\n" + " " * (self.indent * (level + 1))
        return "[" + inner, "," + inner, "\n" + " " * (self.indent * level) + "]"

    def _object(self, value: dict[Any, Any], level: int) -> Iterator[str]:
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
            yield from self.chunks(item, level + 1)
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
