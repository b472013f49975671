"""The text stages' arrays: fields of some of a page's glyphs as numpy arrays, whether the page
is held as GlyphColumns (the interpreter's columns, indexed) or as Glyph records (each read
once), and the per-glyph numbers of §4–§6 computed over them.

Every number is the one the record functions compute, bit for bit: subtraction, products and
quotients are the same IEEE operations element-wise, and lengths go through `math.hypot`
(numpy.hypot can differ from it in the last bit), so a decision made over the arrays carries
the very float a decision made glyph by glyph would.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import chain
from operator import attrgetter

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import writing_direction
from glyphscope.core.glyph_table import NO_MCID, GlyphColumns, dictionary_encoded
from glyphscope.core.records import Glyph

# A string column's rows gathered, and a list of rows made an index, in C (_glyph_table.pyx).
_columns = compiled.load("glyphscope.core.interpret._glyph_table")


class GlyphRows:
    """The glyphs at `rows` of `glyphs` (indices, a sequence or an integer array, in the order
    given; every glyph when rows is None), one array per field asked for. Row k of every array
    is glyph `index[k]`."""

    __slots__ = ("glyphs", "index", "_columns", "_records", "_quads", "_text_ids")

    def __init__(
        self, glyphs: Sequence[Glyph], rows: Sequence[int] | np.ndarray | None = None
    ) -> None:
        self.glyphs = glyphs
        count = len(glyphs) if rows is None else len(rows)
        self.index: np.ndarray
        if rows is None:
            self.index = np.arange(count, dtype=np.intp)
        elif isinstance(rows, np.ndarray):
            self.index = rows.astype(np.intp, copy=False)
        elif _columns is not None and (type(rows) is list or type(rows) is tuple):
            self.index = _columns.row_index(rows)
        else:
            self.index = np.fromiter(rows, dtype=np.intp, count=count)
        self._columns: GlyphColumns | None = None
        self._records: Sequence[Glyph] = ()
        self._quads: np.ndarray | None = None
        self._text_ids: tuple[np.ndarray, list[str]] | None = None
        if isinstance(glyphs, GlyphColumns):
            self._columns = glyphs
        else:
            self._records = glyphs if rows is None else [glyphs[i] for i in self.index.tolist()]

    def __len__(self) -> int:
        return len(self.index)

    def record(self, k: int) -> Glyph:
        """The record of row k (for the rare glyph the arrays hand back to a record function)."""
        return few_records(self.glyphs)[int(self.index[k])]

    def texts(self) -> list[str]:
        return self.strings("text")

    def text_ids(self) -> tuple[np.ndarray, list[str]]:
        """Each row's text as its number among `distinct` texts, and those texts (for
        columns their GlyphColumns.text_ids, made once for the page)."""
        if self._text_ids is None:
            if self._columns is not None:
                ids, distinct = self._columns.text_ids()
                self._text_ids = (ids[self.index], distinct)
            else:
                self._text_ids = dictionary_encoded(self.texts())
        return self._text_ids

    def per_text(self, function: Callable[[str], object], dtype: type = bool) -> np.ndarray:
        """function(text) of each row's text, called once per distinct text."""
        ids, distinct = self.text_ids()
        return np.fromiter(map(function, distinct), dtype, len(distinct))[ids]

    def strings(self, name: str) -> list[str]:
        """A string field (font_key, form_path…) as a list."""
        if self._columns is None:
            return list(map(attrgetter(name), self._records))
        column = getattr(self._columns, name)
        if _columns is not None and type(column) is list:
            return _columns.gathered(column, self.index)
        return list(map(column.__getitem__, self.index.tolist()))

    def mcids(self) -> list[int | None]:
        """Glyph.mcid of each row (None where there is none)."""
        if self._columns is None:
            return [glyph.mcid for glyph in self._records]
        values = self._columns.mcid[self.index].tolist()
        return [None if mcid == NO_MCID else mcid for mcid in values]

    def draw_orders(self) -> np.ndarray:
        """Glyph.draw_order of each row (in columns, the row itself)."""
        if self._columns is not None:
            return self.index.copy()
        return np.fromiter(map(attrgetter("draw_order"), self._records), np.intp, len(self))

    def numbers(self, name: str) -> np.ndarray:
        """A scalar field (font_size, writing_mode…) as a float64 or int64 column."""
        if self._columns is not None:
            return getattr(self._columns, name)[self.index]
        return np.array(list(map(attrgetter(name), self._records)))

    def points(self, name: str) -> np.ndarray:
        """A point field (origin, glyph_end, baseline_end) as an (n, 2) float64 array."""
        if self._columns is not None:
            return getattr(self._columns, name)[self.index]
        values = chain.from_iterable(map(attrgetter(name), self._records))
        return np.fromiter(values, np.float64, 2 * len(self)).reshape(len(self), 2)

    def quads(self) -> np.ndarray:
        """The quads as an (n, 4, 2) float64 array (made once: directions, heights and boxes
        all read it)."""
        if self._quads is None:
            if self._columns is not None:
                self._quads = self._columns.quad[self.index]
            else:
                points = chain.from_iterable(glyph.quad for glyph in self._records)
                values = chain.from_iterable(points)
                count = len(self)
                self._quads = np.fromiter(values, np.float64, 8 * count).reshape(count, 4, 2)
        return self._quads


def few_records(glyphs: Sequence[Glyph]) -> Sequence[Glyph]:
    """The glyphs for a stage that reads few of their records (GlyphColumns.row_records for
    columns)."""
    return glyphs.row_records() if isinstance(glyphs, GlyphColumns) else glyphs


def hypots(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """math.hypot element-wise (not numpy.hypot: the last bit may differ). Where one side is
    zero, math.hypot is the other's magnitude exactly (the exact result is a float, and
    math.hypot rounds correctly there), so only the vectors off both axes go through it: a
    page of upright text has few."""
    with np.errstate(all="ignore"):
        lengths = np.where(dy == 0.0, np.abs(dx), np.abs(dy))
        off_axis = np.flatnonzero((dx != 0.0) & (dy != 0.0))
    if len(off_axis):
        lengths[off_axis] = np.fromiter(
            map(math.hypot, dx[off_axis].tolist(), dy[off_axis].tolist()),
            np.float64,
            len(off_axis),
        )
    return lengths


def quad_heights(quads: np.ndarray) -> np.ndarray:
    """geometry.quad_height of each quad: the length of its edge 0→3."""
    with np.errstate(all="ignore"):  # inf − inf is nan, as in Python, unwarned
        return hypots(quads[:, 3, 0] - quads[:, 0, 0], quads[:, 3, 1] - quads[:, 0, 1])


def writing_directions(rows: GlyphRows) -> tuple[np.ndarray, np.ndarray]:
    """geometry.writing_direction of each row, as the arrays of its two components: the
    quad's edge 0→1 divided by its length; the few degenerate edges are handed to
    writing_direction."""
    quads = rows.quads()
    with np.errstate(all="ignore"):  # inf and nan as Python's floats make them, unwarned
        dx, dy = quads[:, 1, 0] - quads[:, 0, 0], quads[:, 1, 1] - quads[:, 0, 1]
        length = hypots(dx, dy)
        degenerate = np.flatnonzero(length == 0.0).tolist()
        length[degenerate] = 1.0
        ux, uy = dx / length, dy / length
    for k in degenerate:
        ux[k], uy[k] = writing_direction(rows.record(k))
    return ux, uy


def finite_rows(rows: GlyphRows) -> np.ndarray:
    """records.has_finite_geometry of each row: size, origin, ends and quad all finite."""
    finite = np.isfinite(rows.numbers("font_size").astype(np.float64))
    # Column by column: numpy's all() along an axis of two or eight is ten times slower.
    for name in ("origin", "glyph_end", "baseline_end"):
        points = rows.points(name)
        finite &= np.isfinite(points[:, 0]) & np.isfinite(points[:, 1])
    quads = rows.quads()
    for corner in range(4):
        finite &= np.isfinite(quads[:, corner, 0]) & np.isfinite(quads[:, corner, 1])
    return finite


def median(values: np.ndarray) -> float:
    """statistics.median of the values, bit for bit: numpy's sort when none is nan (it orders
    numbers as sorted() does, and the middle ones are then the same numbers), statistics
    itself otherwise (nan compares false: only Python's sort gives Python's order)."""
    if np.isnan(values).any():
        import statistics  # only here: with fractions and decimal, a millisecond of start-up

        return statistics.median(values.tolist())
    ordered = np.sort(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return (float(ordered[middle - 1]) + float(ordered[middle])) / 2
