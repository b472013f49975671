"""Compact pickled forms of the per-glyph record sequences a page analysis holds.

The inspector's engine runs in a worker process and sends each analysed page to the window
pickled. Pickled as they are, a 20,000-glyph page's records unpickle in about a second of
interpreted code (a NamedTuple's `__new__` and every nested point tuple, per glyph), holding
the window process's GIL all along. Packed here as one numpy column per field and a table of
the distinct strings, they travel as a few buffers, and `unpack_*` rebuilds the very same
records with C-level loops only (`tuple.__new__` mapped over zipped columns), in a few
milliseconds. A sequence whose fields do not round-trip exactly (an int where a float is
expected, a value of another type) is not packed and pickles as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat, starmap

import numpy as np

from glyphscope.core.records import Glyph
from glyphscope.core.text.reading import GapDecision, LineBreakDecision
from glyphscope.core.text.visible import DroppedGlyph

# Below this many records packing saves nothing worth its bookkeeping.
MIN_PACKED = 64
# Records are rebuilt this many at a time: each chunk is one stretch of C code holding the
# GIL, and between chunks the window's thread gets its turn (the interpreter's switch
# interval), so even a page of a million glyphs never holds the window for long.
CHUNK = 2048


def _chunked(
    count: int,
    rows: Callable[[int, int], Iterable[tuple]],
    make: Callable[[Iterable[tuple]], Iterable[object]],
) -> tuple:
    """`make` over the rows [start, stop) that `rows` gives, chunk by chunk."""
    built: list = []
    for start in range(0, count, CHUNK):
        built.extend(make(rows(start, min(start + CHUNK, count))))
    return tuple(built)


def _records(record_type: type) -> Callable[[Iterable[tuple]], Iterable]:
    # tuple.__new__ mapped over zipped columns builds NamedTuples in C, as _make does.
    return lambda rows: map(tuple.__new__, repeat(record_type), rows)


@dataclass(frozen=True, slots=True)
class ValueColumn:
    """A column of hashable values (strings, enum members) as codes into their table; `of`
    raises ValueError for values that would not come back as themselves."""

    table: tuple[object, ...]
    codes: np.ndarray

    @classmethod
    def of(cls, values: Sequence[object]) -> ValueColumn:
        index: dict[object, int] = {}
        codes = [index.setdefault(value, len(index)) for value in values]
        table = tuple(index)
        # Equal values of different types (a str and its StrEnum member) must not merge.
        pairs = zip(codes, values, strict=True)
        if any(type(table[code]) is not type(value) for code, value in pairs):
            raise _NotExact
        return cls(table, np.asarray(codes, dtype=np.int64))

    def values(self, start: int = 0, stop: int | None = None) -> list[object]:
        table = np.empty(len(self.table), dtype=object)
        table[:] = self.table
        return table[self.codes[start:stop]].tolist()


class _NotExact(ValueError):
    """A field whose values would not come back exactly as they went."""


def _floats(values: Sequence[object]) -> np.ndarray:
    if not all(type(value) is float for value in values):
        raise _NotExact
    return np.asarray(values, dtype=np.float64)


def _ints(values: Sequence[object]) -> np.ndarray:
    if not all(type(value) is int for value in values):
        raise _NotExact
    try:
        return np.asarray(values, dtype=np.int64)
    except OverflowError:
        raise _NotExact from None


def _bools(values: Sequence[object]) -> np.ndarray:
    if not all(type(value) is bool for value in values):
        raise _NotExact
    return np.asarray(values, dtype=bool)


def _optional_ints(values: Sequence[object]) -> tuple[np.ndarray, np.ndarray]:
    missing = np.asarray([value is None for value in values], dtype=bool)
    return _ints([0 if value is None else value for value in values]), missing


def _optional_floats(values: Sequence[object]) -> tuple[np.ndarray, np.ndarray]:
    missing = np.asarray([value is None for value in values], dtype=bool)
    return _floats([0.0 if value is None else value for value in values]), missing


def _with_none(column: np.ndarray, missing: np.ndarray) -> list[object]:
    if not missing.any():
        return column.tolist()
    values = column.astype(object)
    values[missing] = None
    return values.tolist()


def _points(xy: np.ndarray) -> Iterable[tuple[float, float]]:
    """(x, y) tuples of an (N, 2) column."""
    return zip(xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True)


def _point_columns(points: Sequence[object], count: int) -> np.ndarray:
    """An (N, k) float column of tuples of floats, each checked to be one."""
    flat = [value for point in points for value in point]  # type: ignore[attr-defined]
    return _floats(flat).reshape(count, -1)


@dataclass(frozen=True, slots=True)
class PackedGlyphs:
    """`Glyph` records as columns (field order of core.records.Glyph)."""

    text: ValueColumn
    code: np.ndarray
    code_length: np.ndarray
    font_key: ValueColumn
    font_name: ValueColumn
    font_size: np.ndarray
    points: np.ndarray  # (N, 14): origin, glyph_end, baseline_end, quad 0..3, as x, y
    writing_mode: np.ndarray
    render_mode: np.ndarray
    mcid: np.ndarray
    mcid_missing: np.ndarray
    token_index: np.ndarray
    form_depth: np.ndarray
    decode_source: ValueColumn
    draw_order: np.ndarray
    operator_index: np.ndarray
    element_index: np.ndarray
    form_path: ValueColumn

    def unpack(self) -> tuple[Glyph, ...]:
        def rows(a: int, b: int) -> Iterable[tuple]:
            p = self.points[a:b]
            corners = (_points(p[:, k : k + 2]) for k in (6, 8, 10, 12))
            return zip(
                self.text.values(a, b),
                self.code[a:b].tolist(),
                self.code_length[a:b].tolist(),
                self.font_key.values(a, b),
                self.font_name.values(a, b),
                self.font_size[a:b].tolist(),
                _points(p[:, 0:2]),
                _points(p[:, 2:4]),
                _points(p[:, 4:6]),
                zip(*corners, strict=True),
                self.writing_mode[a:b].tolist(),
                self.render_mode[a:b].tolist(),
                _with_none(self.mcid[a:b], self.mcid_missing[a:b]),
                self.token_index[a:b].tolist(),
                self.form_depth[a:b].tolist(),
                self.decode_source.values(a, b),
                self.draw_order[a:b].tolist(),
                self.operator_index[a:b].tolist(),
                self.element_index[a:b].tolist(),
                self.form_path.values(a, b),
                strict=True,
            )

        return _chunked(len(self.code), rows, _records(Glyph))


def pack_glyphs(glyphs: Sequence[Glyph]) -> PackedGlyphs | Sequence[Glyph]:
    """The glyphs as columns, or `glyphs` itself when they would not round-trip exactly."""
    if len(glyphs) < MIN_PACKED or type(glyphs) is not tuple:
        return glyphs
    try:
        mcid, mcid_missing = _optional_ints([g.mcid for g in glyphs])
        quads = [g.quad for g in glyphs]
        if not all(type(q) is tuple and len(q) == 4 for q in quads):
            raise _NotExact
        points = np.concatenate(
            [
                _point_columns([g.origin for g in glyphs], len(glyphs)),
                _point_columns([g.glyph_end for g in glyphs], len(glyphs)),
                _point_columns([g.baseline_end for g in glyphs], len(glyphs)),
                _point_columns([c for q in quads for c in q], len(glyphs)),
            ],
            axis=1,
        )
        if points.shape[1] != 14 or not all(
            type(p) is tuple and len(p) == 2
            for g in glyphs
            for p in (g.origin, g.glyph_end, g.baseline_end, *g.quad)
        ):
            raise _NotExact
        return PackedGlyphs(
            text=ValueColumn.of([g.text for g in glyphs]),
            code=_ints([g.code for g in glyphs]),
            code_length=_ints([g.code_length for g in glyphs]),
            font_key=ValueColumn.of([g.font_key for g in glyphs]),
            font_name=ValueColumn.of([g.font_name for g in glyphs]),
            font_size=_floats([g.font_size for g in glyphs]),
            points=points,
            writing_mode=_ints([g.writing_mode for g in glyphs]),
            render_mode=_ints([g.render_mode for g in glyphs]),
            mcid=mcid,
            mcid_missing=mcid_missing,
            token_index=_ints([g.token_index for g in glyphs]),
            form_depth=_ints([g.form_depth for g in glyphs]),
            decode_source=ValueColumn.of([g.decode_source for g in glyphs]),
            draw_order=_ints([g.draw_order for g in glyphs]),
            operator_index=_ints([g.operator_index for g in glyphs]),
            element_index=_ints([g.element_index for g in glyphs]),
            form_path=ValueColumn.of([g.form_path for g in glyphs]),
        )
    except _NotExact:
        return glyphs


@dataclass(frozen=True, slots=True)
class PackedGaps:
    previous: np.ndarray
    current: np.ndarray
    gap: np.ndarray
    threshold: np.ndarray
    space: np.ndarray
    reason: ValueColumn

    def unpack(self) -> tuple[GapDecision, ...]:
        def rows(a: int, b: int) -> Iterable[tuple]:
            return zip(
                self.previous[a:b].tolist(),
                self.current[a:b].tolist(),
                self.gap[a:b].tolist(),
                self.threshold[a:b].tolist(),
                self.space[a:b].tolist(),
                self.reason.values(a, b),
                strict=True,
            )

        return _chunked(len(self.current), rows, _records(GapDecision))


def pack_gaps(gaps: Sequence[GapDecision]) -> PackedGaps | Sequence[GapDecision]:
    if len(gaps) < MIN_PACKED or type(gaps) is not tuple:
        return gaps
    try:
        return PackedGaps(
            previous=_ints([d.previous for d in gaps]),
            current=_ints([d.current for d in gaps]),
            gap=_floats([d.gap for d in gaps]),
            threshold=_floats([d.threshold for d in gaps]),
            space=_bools([d.space for d in gaps]),
            reason=ValueColumn.of([d.reason for d in gaps]),
        )
    except _NotExact:
        return gaps


@dataclass(frozen=True, slots=True)
class PackedLineBreaks:
    previous: np.ndarray
    current: np.ndarray
    projection: np.ndarray
    threshold: np.ndarray
    broke: np.ndarray

    def unpack(self) -> tuple[LineBreakDecision, ...]:
        def rows(a: int, b: int) -> Iterable[tuple]:
            return zip(
                self.previous[a:b].tolist(),
                self.current[a:b].tolist(),
                self.projection[a:b].tolist(),
                self.threshold[a:b].tolist(),
                self.broke[a:b].tolist(),
                strict=True,
            )

        return _chunked(len(self.current), rows, _records(LineBreakDecision))


def pack_line_breaks(
    breaks: Sequence[LineBreakDecision],
) -> PackedLineBreaks | Sequence[LineBreakDecision]:
    if len(breaks) < MIN_PACKED or type(breaks) is not tuple:
        return breaks
    try:
        return PackedLineBreaks(
            previous=_ints([d.previous for d in breaks]),
            current=_ints([d.current for d in breaks]),
            projection=_floats([d.projection for d in breaks]),
            threshold=_floats([d.threshold for d in breaks]),
            broke=_bools([d.broke for d in breaks]),
        )
    except _NotExact:
        return breaks


@dataclass(frozen=True, slots=True)
class PackedDropped:
    """DroppedGlyph records as columns."""

    index: np.ndarray
    reason: ValueColumn
    kept: np.ndarray
    kept_missing: np.ndarray
    numbers: np.ndarray  # (N, 3): along, across, size_ratio
    numbers_missing: np.ndarray  # (N, 3)
    box: np.ndarray  # (N, 4)
    box_missing: np.ndarray

    def unpack(self) -> tuple[DroppedGlyph, ...]:
        def rows(a: int, b: int) -> Iterable[tuple]:
            n, missing = self.numbers[a:b], self.numbers_missing[a:b]
            boxes: list[object] = list(
                zip(*(self.box[a:b, k].tolist() for k in range(4)), strict=True)
            )
            for position in np.flatnonzero(self.box_missing[a:b]).tolist():
                boxes[position] = None
            return zip(
                self.index[a:b].tolist(),
                self.reason.values(a, b),
                _with_none(self.kept[a:b], self.kept_missing[a:b]),
                *(_with_none(n[:, k], missing[:, k]) for k in range(3)),
                boxes,
                strict=True,
            )

        # A dataclass, not a NamedTuple: its own constructor, fed from the columns.
        return _chunked(len(self.index), rows, lambda chunk: starmap(DroppedGlyph, chunk))


def pack_dropped(dropped: Sequence[DroppedGlyph]) -> PackedDropped | Sequence[DroppedGlyph]:
    if len(dropped) < MIN_PACKED or type(dropped) is not tuple:
        return dropped
    try:
        kept, kept_missing = _optional_ints([d.kept for d in dropped])
        columns = [_optional_floats([getattr(d, name) for d in dropped]) for name in _NUMBERS]
        boxes = [d.box for d in dropped]
        box_missing = np.asarray([box is None for box in boxes], dtype=bool)
        if not all(box is None or (type(box) is tuple and len(box) == 4) for box in boxes):
            raise _NotExact
        box = _floats([v for b in boxes for v in (b or (0.0, 0.0, 0.0, 0.0))])
        return PackedDropped(
            index=_ints([d.index for d in dropped]),
            reason=ValueColumn.of([d.reason for d in dropped]),
            kept=kept,
            kept_missing=kept_missing,
            numbers=np.stack([c for c, _ in columns], axis=1),
            numbers_missing=np.stack([m for _, m in columns], axis=1),
            box=box.reshape(len(dropped), 4),
            box_missing=box_missing,
        )
    except _NotExact:
        return dropped


_NUMBERS = ("along", "across", "size_ratio")

Packed = PackedGlyphs | PackedGaps | PackedLineBreaks | PackedDropped


def unpack(value: object) -> object:
    """The records a `pack_*` packed (anything else as it is)."""
    return value.unpack() if isinstance(value, Packed) else value
