"""A page's glyphs as columns: one numpy array (or list of shared strings) per field.

The interpreter fills these per text-showing operator; every later stage may read the arrays
directly (visible box, duplicates, word gaps and line breaks are comparisons over
consecutive rows), and a `Glyph` record is made only when something asks for one, equal
field for field to the record the interpreter used to build. `GlyphColumns` is a
`Sequence[Glyph]`, so a stage written over records reads it unchanged.

Memory per glyph is about 170 bytes of arrays and shared string references, against about
1.2 KB for a `Glyph` record with its nested tuples of floats.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar, overload

import numpy as np

from glyphscope.core.records import Glyph

Key = TypeVar("Key", bound=Hashable)

# Glyph.mcid None (no marked-content identifier) in the int64 mcid column: any value a
# pikepdf integer can hold is a possible (malformed) /MCID, so the sentinel is int64's least.
NO_MCID = np.iinfo(np.int64).min
# Pages up to this many glyphs keep their columns also as Python lists once a record is asked
# for, so that stages still reading records one by one pay a list lookup, not a numpy scalar
# conversion, per field; larger pages read the arrays (bounded memory: issue 10's
# million-glyph page).
LISTED_GLYPHS = 200_000


@dataclass(frozen=True, eq=False)
class GlyphColumns(Sequence[Glyph]):
    """Every field of `Glyph` as a column over the page's glyphs in drawing order (row i is
    the glyph with draw_order i). Points are (N, 2) float64 arrays, quads (N, 4, 2); strings
    are lists of (shared) str; integers int64, mcid with NO_MCID for None."""

    text: list[str]
    code: np.ndarray
    code_length: np.ndarray
    font_key: list[str]
    font_name: list[str]
    font_size: np.ndarray
    origin: np.ndarray
    glyph_end: np.ndarray
    baseline_end: np.ndarray
    quad: np.ndarray
    writing_mode: np.ndarray
    render_mode: np.ndarray
    mcid: np.ndarray
    token_index: np.ndarray
    form_depth: np.ndarray
    decode_source: list[str]
    operator_index: np.ndarray
    element_index: np.ndarray
    form_path: list[str]
    _listed: list[list] = field(default_factory=list, init=False, repr=False, compare=False)
    _text_ids: list = field(default_factory=list, init=False, repr=False, compare=False)

    @classmethod
    def from_glyphs(cls, glyphs: Sequence[Glyph]) -> GlyphColumns:
        """Columns holding exactly these records (draw_order is taken as the row)."""
        count = len(glyphs)

        def ints(values: Iterable[int]) -> np.ndarray:
            return np.fromiter(values, dtype=np.int64, count=count)

        def points(values: Sequence[tuple], shape: tuple[int, ...]) -> np.ndarray:
            return np.asarray(values, dtype=np.float64).reshape(count, *shape)

        return cls(
            text=[g.text for g in glyphs],
            code=ints(g.code for g in glyphs),
            code_length=ints(g.code_length for g in glyphs),
            font_key=[g.font_key for g in glyphs],
            font_name=[g.font_name for g in glyphs],
            font_size=np.fromiter((g.font_size for g in glyphs), np.float64, count),
            origin=points([g.origin for g in glyphs], (2,)),
            glyph_end=points([g.glyph_end for g in glyphs], (2,)),
            baseline_end=points([g.baseline_end for g in glyphs], (2,)),
            quad=points([g.quad for g in glyphs], (4, 2)),
            writing_mode=ints(g.writing_mode for g in glyphs),
            render_mode=ints(g.render_mode for g in glyphs),
            mcid=ints(NO_MCID if g.mcid is None else g.mcid for g in glyphs),
            token_index=ints(g.token_index for g in glyphs),
            form_depth=ints(g.form_depth for g in glyphs),
            decode_source=[g.decode_source for g in glyphs],
            operator_index=ints(g.operator_index for g in glyphs),
            element_index=ints(g.element_index for g in glyphs),
            form_path=[g.form_path for g in glyphs],
        )

    @classmethod
    def empty(cls) -> GlyphColumns:
        return cls.from_glyphs(())

    def with_records(self, records: Mapping[int, Glyph]) -> GlyphColumns:
        """A copy whose row i holds records[i] where given (its draw_order stays i): the
        glyphs of text output, where replacement text or a merged accent changed a few."""
        if not records:
            return self
        rows = list(records)
        changed = GlyphColumns.from_glyphs(list(records.values()))
        columns = {}
        for name in self.__dataclass_fields__:
            if name in _CACHES:
                continue
            column, values = getattr(self, name), getattr(changed, name)
            if isinstance(column, list):
                column = list(column)
                for row, value in zip(rows, values, strict=True):
                    column[row] = value
            else:
                column = column.copy()
                column[rows] = values
            columns[name] = column
        return GlyphColumns(**columns)

    def __len__(self) -> int:
        return len(self.text)

    @overload
    def __getitem__(self, index: int) -> Glyph: ...

    @overload
    def __getitem__(self, index: slice) -> list[Glyph]: ...

    def __getitem__(self, index: int | slice) -> Glyph | list[Glyph]:
        return _item(self, index, self.record)

    def row_records(self) -> Sequence[Glyph]:
        """The glyphs as a sequence each of whose records is made by row(), from the arrays:
        for a stage that reads the records of a few rows only (duplicate pairs, replaced
        glyphs, accents). Indexing the columns themselves first lists every column (record's
        cache), which pays only when most rows are read."""
        return _RowRecords(self)

    def __eq__(self, other: object) -> bool:
        """Equal to any sequence holding equal records in the same order (a tuple or list
        of Glyph, as `PageExtraction.glyphs` was), as the records compare."""
        if self is other:
            return True
        if isinstance(other, GlyphColumns):
            # Column by column, as the records compare field by field (NaN unequal to
            # itself either way; strings by value, however each side holds and shares
            # them): the inspector compares a dense page's two analyses.
            return len(self) == len(other) and all(
                _column_equal(getattr(self, name), getattr(other, name))
                for name in self.__dataclass_fields__
                if name not in _CACHES
            )
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(operator.eq, self, other))

    __hash__ = None  # type: ignore[assignment]  # a sequence that compares by value

    def __iter__(self) -> Iterator[Glyph]:
        for index in range(len(self)):
            yield self.record(index)

    def record(self, index: int) -> Glyph:
        """The Glyph record of row `index` (0 ≤ index < len)."""
        if len(self) <= LISTED_GLYPHS:
            return _make_glyph(index, *(column[index] for column in self._lists()))
        return self.row(index)

    def row(self, index: int) -> Glyph:
        """The Glyph record of row `index` read from the arrays, without the list cache
        record() fills: for a stage that reads the records of a few rows only."""
        return _make_glyph(
            index,
            self.text[index],
            int(self.code[index]),
            int(self.code_length[index]),
            self.font_key[index],
            self.font_name[index],
            float(self.font_size[index]),
            tuple(self.origin[index].tolist()),
            tuple(self.glyph_end[index].tolist()),
            tuple(self.baseline_end[index].tolist()),
            tuple(tuple(point) for point in self.quad[index].tolist()),
            int(self.writing_mode[index]),
            int(self.render_mode[index]),
            int(self.mcid[index]),
            int(self.token_index[index]),
            int(self.form_depth[index]),
            self.decode_source[index],
            int(self.operator_index[index]),
            int(self.element_index[index]),
            self.form_path[index],
        )

    def text_ids(self) -> tuple[np.ndarray, list[str]]:
        """The text column dictionary-encoded, made once: each row's number among the
        distinct texts (in order of first appearance), and those texts. A page has far fewer
        texts than glyphs: the text stages test each distinct text once and index the
        answers by row."""
        if not self._text_ids:
            self._text_ids.extend(dictionary_encoded(self.text))
        return self._text_ids[0], self._text_ids[1]

    def with_text_ids(self, ids: np.ndarray, distinct: list[str]) -> GlyphColumns:
        """These columns, their text_ids() given by the maker of the text column, who
        numbered its texts as dictionary_encoded would (the compiled glyph columns, once per
        row of the interpreter's glyph table)."""
        if not self._text_ids:
            self._text_ids.extend((ids, distinct))
        return self

    def _lists(self) -> list[list]:
        """The columns as Python lists (points and quads as tuples), made once."""
        listed = self._listed
        if not listed:
            listed.extend(
                [
                    self.text,
                    self.code.tolist(),
                    self.code_length.tolist(),
                    self.font_key,
                    self.font_name,
                    self.font_size.tolist(),
                    list(map(tuple, self.origin.tolist())),
                    list(map(tuple, self.glyph_end.tolist())),
                    list(map(tuple, self.baseline_end.tolist())),
                    [tuple(map(tuple, quad)) for quad in self.quad.tolist()],
                    self.writing_mode.tolist(),
                    self.render_mode.tolist(),
                    self.mcid.tolist(),
                    self.token_index.tolist(),
                    self.form_depth.tolist(),
                    self.decode_source,
                    self.operator_index.tolist(),
                    self.element_index.tolist(),
                    self.form_path,
                ]
            )
        return listed

    def __getstate__(self) -> dict:
        # The list cache is rebuilt on demand: the inspector's workers send columns, not it.
        state = {name: getattr(self, name) for name in self.__dataclass_fields__}
        state["_listed"], state["_text_ids"] = [], []
        return state

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)


# GlyphColumns' fields that cache what its columns give, not columns of their own.
_CACHES = ("_listed", "_text_ids")


def _column_equal(a: Sequence | np.ndarray, b: Sequence | np.ndarray) -> bool:
    """Whether two columns hold equal values row by row, as the records' fields compare:
    number columns by value whatever their dtypes, string columns by the strings they
    resolve to, whatever holds them (a list, a tuple, an object array) and however their
    strings are shared."""
    if isinstance(a, np.ndarray) and a.dtype != object:
        return isinstance(b, np.ndarray) and b.dtype != object and np.array_equal(a, b)
    if isinstance(b, np.ndarray) and b.dtype != object:
        return False
    return len(a) == len(b) and _listed(a) == _listed(b)


def _listed(column: Sequence | np.ndarray) -> list:
    return column if isinstance(column, list) else list(column)


class _RowRecords(Sequence[Glyph]):
    """GlyphColumns.row_records: the columns' sequence, each record made by row()."""

    __slots__ = ("columns",)

    def __init__(self, columns: GlyphColumns) -> None:
        self.columns = columns

    def __len__(self) -> int:
        return len(self.columns)

    @overload
    def __getitem__(self, index: int) -> Glyph: ...

    @overload
    def __getitem__(self, index: slice) -> list[Glyph]: ...

    def __getitem__(self, index: int | slice) -> Glyph | list[Glyph]:
        return _item(self.columns, index, self.columns.row)


def _item(
    columns: GlyphColumns, index: int | slice, make: Callable[[int], Glyph]
) -> Glyph | list[Glyph]:
    """Sequence indexing over the rows of `columns` (negative indices, slices, IndexError),
    each record made by `make`."""
    if isinstance(index, slice):
        return [make(i) for i in range(*index.indices(len(columns)))]
    if index < 0:
        index += len(columns)
    if not 0 <= index < len(columns):
        raise IndexError("glyph index out of range")
    return make(index)


def _make_glyph(
    index: int,
    text: str,
    code: int,
    code_length: int,
    font_key: str,
    font_name: str,
    font_size: float,
    origin: tuple,
    glyph_end: tuple,
    baseline_end: tuple,
    quad: tuple,
    writing_mode: int,
    render_mode: int,
    mcid: int,
    token_index: int,
    form_depth: int,
    decode_source: str,
    operator_index: int,
    element_index: int,
    form_path: str,
) -> Glyph:
    return tuple.__new__(
        Glyph,
        (
            text,
            code,
            code_length,
            font_key,
            font_name,
            font_size,
            origin,
            glyph_end,
            baseline_end,
            quad,
            writing_mode,
            render_mode,
            None if mcid == NO_MCID else mcid,
            token_index,
            form_depth,
            decode_source,
            index,
            operator_index,
            element_index,
            form_path,
        ),
    )


def dictionary_encoded(values: Sequence[Key]) -> tuple[np.ndarray, list[Key]]:
    """Each value's number among the distinct `values` (in order of first appearance), and
    those values."""
    distinct = list(dict.fromkeys(values))
    numbers = {value: number for number, value in enumerate(distinct)}
    return np.fromiter(map(numbers.__getitem__, values), np.intp, len(values)), distinct
