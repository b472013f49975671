"""Reading order's decision records (spec §6) and their columns.

The analysis keeps a decision per consecutive pair of the page, so its log holds about two
records per glyph. reading_order computes the numbers of the horizontal pairs as arrays
(core.text.pairs); GapColumns and LineBreakColumns keep them as those arrays, a `Sequence` of
the records that makes each one only when it is asked for, and write the log's dictionaries
from the arrays a chunk at a time (analysis.analysis_json), equal to `record._asdict()`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from itertools import repeat
from typing import ClassVar, NamedTuple, TypeVar, overload

import numpy as np

from glyphscope.core.text.pairs import REASONS, GapReason


class GapDecision(NamedTuple):
    """Word-space decision between two glyphs on one line. `gap` is the distance along the
    previous glyph's writing direction from its glyph end to the current origin; `threshold`
    is space_gap_ratio × the current glyph's box height."""

    previous: int
    current: int
    gap: float
    threshold: float
    space: bool
    reason: GapReason


class LineBreakDecision(NamedTuple):
    """`projection` is the origin-to-origin move projected on the normal of the previous
    writing direction; `threshold` is line_break_ratio × the larger of the two box heights."""

    previous: int
    current: int
    projection: float
    threshold: float
    broke: bool


# Records made, or dictionaries written, this many at a time.
CHUNK = 4096

_Columns = TypeVar("_Columns", bound="DecisionColumns")


@dataclass(frozen=True, eq=False)
class DecisionColumns(Sequence):
    """A tuple of decision records held as one array per field (in the record's field order;
    GapDecision.reason as positions in pairs.REASONS). It compares, iterates, slices and
    reprs as that tuple of records would."""

    record: ClassVar[type[GapDecision] | type[LineBreakDecision]]
    # numpy dtype per field, and which fields hold Python floats, ints and bools in a record.
    dtypes: ClassVar[tuple[type, ...]]

    def __len__(self) -> int:
        return len(self.arrays()[0])

    @overload
    def __getitem__(self, index: int) -> tuple: ...

    @overload
    def __getitem__(self, index: slice) -> tuple: ...

    def __getitem__(self, index: int | slice) -> tuple:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self)[index]
            return tuple(self._records(start, max(start, stop)))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("decision index out of range")
        return next(self._records(index, index + 1))

    def __iter__(self) -> Iterator:
        for start in range(0, len(self), CHUNK):
            yield from self._records(start, min(start + CHUNK, len(self)))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and all(map(operator.eq, self, other))

    __hash__ = None  # type: ignore[assignment]  # a sequence that compares by value

    def __repr__(self) -> str:
        return repr(tuple(self))

    def values(self, start: int, stop: int) -> list[list]:
        """The fields of records [start, stop) as lists of Python values, field by field."""
        return [column[start:stop].tolist() for column in self.arrays()]

    def dicts(self, start: int, stop: int) -> list[dict]:
        """`record._asdict()` of records [start, stop), made from the arrays."""
        keys = repeat(self.record._fields)
        return list(map(dict, map(zip, keys, zip(*self.values(start, stop), strict=True))))

    def rows(self: _Columns, start: int, stop: int) -> _Columns:
        """Records [start, stop) as columns of their own (views of these arrays)."""
        return type(self)(*(column[start:stop] for column in self.arrays()))

    @classmethod
    def joined(cls: type[_Columns], parts: Sequence[_Columns]) -> _Columns:
        """The records of every part in turn."""
        if len(parts) == 1:
            return parts[0]
        if not parts:
            return cls(*(np.empty(0, dtype=dtype) for dtype in cls.dtypes))
        columns = zip(*(part.arrays() for part in parts), strict=True)
        return cls(*(np.concatenate(column) for column in columns))

    @classmethod
    def from_records(cls: type[_Columns], records: Sequence[tuple]) -> _Columns | None:
        """Columns of these records, or None when a field's values would not come back as
        themselves (an int where the record has a float)."""
        by_field = list(zip(*records, strict=True)) or [()] * len(cls.dtypes)
        arrays: list[np.ndarray] = []
        for values, dtype in zip(by_field, cls.dtypes, strict=True):
            if dtype is np.uint8:  # GapDecision.reason: members of REASONS
                if not all(type(value) is GapReason for value in values):
                    return None
                arrays.append(np.asarray([REASONS.index(v) for v in values], dtype=dtype))
                continue
            if not all(type(value) is _PYTHON_TYPES[dtype] for value in values):
                return None
            arrays.append(np.asarray(values, dtype=dtype))
        return cls(*arrays)

    def arrays(self) -> list[np.ndarray]:
        """The columns, in the record's field order."""
        return [getattr(self, field.name) for field in fields(self)]

    def _records(self, start: int, stop: int) -> Iterator:
        # tuple.__new__ mapped over zipped columns builds the NamedTuples in C.
        return map(tuple.__new__, repeat(self.record), zip(*self.values(start, stop), strict=True))


_PYTHON_TYPES: dict[type, type] = {np.int64: int, np.float64: float, np.bool_: bool}


@dataclass(frozen=True, eq=False, repr=False)
class GapColumns(DecisionColumns):
    """GapDecision records as columns; `reason` holds positions in pairs.REASONS."""

    record: ClassVar[type[GapDecision] | type[LineBreakDecision]] = GapDecision
    dtypes: ClassVar[tuple[type, ...]] = (
        np.int64, np.int64, np.float64, np.float64, np.bool_, np.uint8,
    )  # fmt: skip

    previous: np.ndarray
    current: np.ndarray
    gap: np.ndarray
    threshold: np.ndarray
    space: np.ndarray
    reason: np.ndarray

    def values(self, start: int, stop: int) -> list[list]:
        values = super().values(start, stop)
        values[5] = list(map(REASONS.__getitem__, values[5]))
        return values


@dataclass(frozen=True, eq=False, repr=False)
class LineBreakColumns(DecisionColumns):
    """LineBreakDecision records as columns."""

    record: ClassVar[type[GapDecision] | type[LineBreakDecision]] = LineBreakDecision
    dtypes: ClassVar[tuple[type, ...]] = (np.int64, np.int64, np.float64, np.float64, np.bool_)

    previous: np.ndarray
    current: np.ndarray
    projection: np.ndarray
    threshold: np.ndarray
    broke: np.ndarray
