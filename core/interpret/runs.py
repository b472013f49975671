"""Glyph runs: what the text-showing operators of a page paint, kept as columns (§9.4.4).

Per showing operator (Tj, TJ, ', ") the interpreter records one run: the state it was shown
in (text rendering matrix, size, spacing, scaling, rise, font extent, writing mode, render
mode, font, MCID, operator, form). Per glyph only what varies is kept: the row of its decoded
`FontGlyph` in a page table, and its pen position. The pen positions are the one sequential
quantity (each glyph's displacement moves the next, and the total moves Tm for the next
operator), so they are summed as the glyphs are shown, in the order the old per-glyph loop
added them; everything else is computed once per page with numpy, operation for operation
as that loop did, so every float has the same bits (numpy's elementwise float64 arithmetic
is IEEE's, as Python's is).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.fonts.loader import Font, FontGlyph
from glyphscope.core.glyph_table import GlyphColumns

# GlyphRuns.columns compiled (_glyph_table.pyx), when the extension was built.
_columns = compiled.load("glyphscope.core.interpret._glyph_table")

# Distinct (font, string) pieces remembered per page (the compiled loop: per font for the
# whole document), as Font's own string cache.
PIECES_KEPT = 8192
# From this many glyphs a string's pen positions are one numpy accumulate (sequential, so
# the same sums as the loop), below it the loop is cheaper than numpy's call overhead.
_ACCUMULATED = 48


# A shown string's glyphs: table rows and (advance, is single-byte space) pairs.
_Piece = tuple[tuple[int, ...], tuple[tuple[float, bool], ...]]


class GlyphBudget(Exception):
    """The page reached the glyph limit of the rules (`max_page_glyphs`)."""


class GlyphRuns:
    """The glyphs of one page as runs, turned into `GlyphColumns` by `columns()`."""

    def __init__(self, limit: int, font_pieces: dict | None = None) -> None:
        self.limit = limit
        self.count = 0
        # Per glyph: the row of its FontGlyph in `table`, and its pen position in text space.
        self.rows = array("q")
        self.pens = array("d")
        # Per shown string: its element index in the operator (TJ array) and glyph count.
        self.elements = array("q")
        self.element_counts = array("q")
        # Per run: its numbers and integers (flat, RUN_NUMBERS and RUN_INTEGERS per run), its
        # strings (as the row of the distinct triple) and its glyph count. A page of a million
        # one-glyph Tj operators keeps about 200 bytes per run.
        self.run_numbers = array("d")
        self.run_integers = array("q")
        self.run_strings = array("q")
        self.strings: list[tuple[str, str, str]] = []
        self._string_rows: dict[tuple[str, str, str], int] = {}
        self.run_counts = array("q")
        self.table: list[FontGlyph] = []
        self._table_rows: dict[int, int] = {}
        self._pieces: dict[tuple[Font, bytes], _Piece] = {}
        # The compiled loop's strings (_loop.pyx): the document's pieces per Font (its
        # piece_cache, or the page's own), and per font the rows the page gave its glyphs.
        self.font_pieces: dict = {} if font_pieces is None else font_pieces
        self.page_fonts: dict = {}

    def show_string(
        self,
        font: Font,
        data: bytes,
        element_index: int,
        pen: float,
        size: float,
        spacing: float,
        space_spacing: float,
        scaling: float,
    ) -> float:
        """Record the glyphs one string paints (§9.4.3) from pen position `pen` and return
        the pen after them. `spacing` is Tc, `space_spacing` Tc + Tw (§9.4.3: Tw applies to
        the single-byte code 32 only); `scaling` is Th, not applied in writing mode 1."""
        piece = self._pieces.get((font, data))
        if piece is None:
            piece = self._piece(font, data)
        rows, metrics = piece
        room = self.limit - self.count
        over = len(rows) > room
        if over:
            rows, metrics = rows[:room], metrics[:room]
        self.rows.extend(rows)
        self.elements.append(element_index)
        self.element_counts.append(len(rows))
        self.count += len(rows)
        vertical = font.writing_mode == 1
        if len(rows) >= _ACCUMULATED:
            advances = np.array([advance for advance, _ in metrics], dtype=np.float64)
            spaces = np.array([is_space for _, is_space in metrics], dtype=bool)
            steps = np.empty(len(rows) + 1)
            steps[0] = pen
            with np.errstate(all="ignore"):
                displacement = advances * size + np.where(spaces, space_spacing, spacing)
                steps[1:] = displacement if vertical else displacement * scaling
                pens = np.add.accumulate(steps)
            self.pens.frombytes(pens[:-1].tobytes())
            pen = float(pens[-1])
        else:
            append = self.pens.append
            if vertical:
                # §9.7.4.3: the pen advances by w1 (downward), without Th.
                for advance, is_space in metrics:
                    append(pen)
                    pen += advance * size + (space_spacing if is_space else spacing)
            else:
                for advance, is_space in metrics:
                    append(pen)
                    pen += (advance * size + (space_spacing if is_space else spacing)) * scaling
        if over:
            raise GlyphBudget(f"more than {self.limit} glyphs")
        return pen

    def _piece(self, font: Font, data: bytes) -> _Piece:
        """A string's glyphs as table rows and (advance, is single-byte space) pairs, where
        the advance is w0 (writing mode 0) or w1 (writing mode 1)."""
        table, table_rows = self.table, self._table_rows
        rows = []
        glyphs = font.glyphs(data)
        for glyph in glyphs:
            # The table holds every FontGlyph, so the ids it is keyed by stay unique.
            row = table_rows.get(id(glyph))
            if row is None:
                row = table_rows[id(glyph)] = len(table)
                table.append(glyph)
            rows.append(row)
        vertical = font.writing_mode == 1
        pairs = [
            (g.vertical_displacement if vertical else g.width, g.is_single_byte_space)
            for g in glyphs
        ]
        if len(self._pieces) >= PIECES_KEPT:
            self._pieces.clear()
        piece = self._pieces[(font, data)] = (tuple(rows), tuple(pairs))
        return piece

    def end_run(
        self,
        start: int,
        numbers: tuple[float, ...],
        integers: tuple[int, ...],
        strings: tuple[str, str, str],
    ) -> None:
        """Close the run that began at glyph `start` (also when its operator failed part way:
        the glyphs it showed stay, as they did when each was appended on its own)."""
        if self.count == start:
            return
        self.run_numbers.extend(numbers)
        self.run_integers.extend(integers)
        row = self._string_rows.get(strings)
        if row is None:
            row = self._string_rows[strings] = len(self.strings)
            self.strings.append(strings)
        self.run_strings.append(row)
        self.run_counts.append(self.count - start)

    def _repeated(self, field: int, run: np.ndarray) -> list[str]:
        """A run string (0 font key, 1 font name, 2 form path) per glyph (`run`: each glyph's
        run)."""
        rows = np.frombuffer(self.run_strings, dtype=np.int64)[run]
        return _gathered([strings[field] for strings in self.strings], rows)

    def columns(self) -> GlyphColumns:
        """The page's glyphs as columns, row i the glyph drawn i-th."""
        if not self.count:
            return GlyphColumns.empty()
        if _columns is None:
            return self.columns_in_python()
        fields = _columns.glyph_columns(
            self.table,
            self.rows,
            self.pens,
            self.run_numbers,
            self.run_integers,
            self.run_counts,
            self.run_strings,
            self.strings,
            self.elements,
            self.element_counts,
        )
        text_ids = fields.pop("text_ids")
        return GlyphColumns(**fields).with_text_ids(*text_ids)

    def columns_in_python(self) -> GlyphColumns:
        """columns() column by column with numpy: the path without the compiled extension,
        and its oracle."""
        counts = np.frombuffer(self.run_counts, dtype=np.int64)
        run = np.repeat(np.arange(len(counts)), counts)
        run_numbers = np.frombuffer(self.run_numbers, dtype=np.float64)
        run_integers = np.frombuffer(self.run_integers, dtype=np.int64)

        # One field of every glyph's run, gathered as a contiguous column.
        def number(field: int) -> np.ndarray:
            return run_numbers.reshape(-1, RUN_NUMBERS)[:, field][run]

        def integer(field: int) -> np.ndarray:
            return run_integers.reshape(-1, RUN_INTEGERS)[:, field][run]

        rows = np.frombuffer(self.rows, dtype=np.int64)
        table = self.table
        width = np.array([g.width for g in table], dtype=np.float64)[rows]
        w1 = np.array([g.vertical_displacement for g in table], dtype=np.float64)[rows]
        vx = np.array([g.position_vector[0] for g in table], dtype=np.float64)[rows]
        spaces = np.array([g.is_single_byte_space for g in table], dtype=bool)[rows]
        pen = np.frombuffer(self.pens, dtype=np.float64)
        writing_mode = integer(_VERTICAL)
        vertical = writing_mode == 1
        geometry = _Geometry(self.count)
        with np.errstate(all="ignore"):
            if vertical.any():
                vertical_rows = np.flatnonzero(vertical)
                horizontal_rows = np.flatnonzero(~vertical)
                geometry.vertical(vertical_rows, number, pen, width, w1, vx, spaces)
                geometry.horizontal(horizontal_rows, number, pen, width, spaces)
            else:
                geometry.horizontal(slice(None), number, pen, width, spaces)
        return GlyphColumns(
            text=_gathered([g.text for g in table], rows),
            code=np.array([g.code for g in table], dtype=np.int64)[rows],
            code_length=np.array([g.code_length for g in table], dtype=np.int64)[rows],
            font_key=self._repeated(0, run),
            font_name=self._repeated(1, run),
            font_size=number(_DRAWN_SIZE),
            origin=geometry.origin,
            glyph_end=geometry.glyph_end,
            baseline_end=geometry.baseline_end,
            quad=geometry.quad,
            writing_mode=writing_mode,
            render_mode=integer(_RENDER_MODE),
            mcid=integer(_MCID),
            token_index=integer(_TOKEN_INDEX),
            form_depth=integer(_FORM_DEPTH),
            decode_source=_gathered([g.decode_source for g in table], rows),
            operator_index=integer(_OPERATOR_INDEX),
            element_index=np.repeat(
                np.frombuffer(self.elements, dtype=np.int64),
                np.frombuffer(self.element_counts, dtype=np.int64),
            ),
            form_path=self._repeated(2, run),
        )


def _gathered(values: list[str], rows: np.ndarray) -> list[str]:
    """values[row] for each row, the same (shared) objects: gathered by numpy as an object
    array, quicker than a Python map over thousands of rows."""
    table = np.empty(len(values), dtype=object)
    table[:] = values
    return table[rows].tolist()


# Columns of a run's numbers and integers (GlyphRuns.end_run's tuples, in this order; an
# MCID of None is NO_MCID).
NUMBERS = ("a", "b", "c", "d", "e", "f", "size", "scaling", "spacing", "space_spacing", "rise")
_A, _B, _C, _D, _E, _F, _SIZE, _SCALING, _SPACING, _SPACE_SPACING, _RISE = range(len(NUMBERS))
_DESCENT, _ASCENT, _DRAWN_SIZE = len(NUMBERS), len(NUMBERS) + 1, len(NUMBERS) + 2
_VERTICAL, _RENDER_MODE, _MCID, _TOKEN_INDEX, _FORM_DEPTH, _OPERATOR_INDEX = range(6)
RUN_NUMBERS, RUN_INTEGERS = len(NUMBERS) + 3, 6


class _Geometry:
    """Origin, glyph end, baseline end and quad of every glyph, filled per writing mode with
    the old per-glyph loop's operations in its order (§9.4.4, §9.7.4.3)."""

    def __init__(self, count: int) -> None:
        self.origin = np.empty((count, 2))
        self.glyph_end = np.empty((count, 2))
        self.baseline_end = np.empty((count, 2))
        self.quad = np.empty((count, 4, 2))

    def horizontal(
        self,
        rows: slice | np.ndarray,
        number: Callable[[int], np.ndarray],
        pen: np.ndarray,
        width: np.ndarray,
        spaces: np.ndarray,
    ) -> None:
        a, b, c, d, e, f = (number(k)[rows] for k in range(6))
        size, scaling, rise = number(_SIZE)[rows], number(_SCALING)[rows], number(_RISE)[rows]
        descent, ascent = number(_DESCENT)[rows], number(_ASCENT)[rows]
        pen, width = pen[rows], width[rows]
        spacing = np.where(spaces[rows], number(_SPACE_SPACING)[rows], number(_SPACING)[rows])
        advance = width * size * scaling
        displacement = (width * size + spacing) * scaling
        ox = a * pen + c * rise + e
        oy = b * pen + d * rise + f
        gx, gy = ox + a * advance, oy + b * advance
        self._ends(rows, ox, oy, gx, gy, ox + a * displacement, oy + b * displacement)
        quad = self.quad
        quad[rows, 0, 0], quad[rows, 0, 1] = ox + c * descent, oy + d * descent
        quad[rows, 1, 0], quad[rows, 1, 1] = gx + c * descent, gy + d * descent
        quad[rows, 2, 0], quad[rows, 2, 1] = gx + c * ascent, gy + d * ascent
        quad[rows, 3, 0], quad[rows, 3, 1] = ox + c * ascent, oy + d * ascent

    def vertical(
        self,
        rows: np.ndarray,
        number: Callable[[int], np.ndarray],
        pen: np.ndarray,
        width: np.ndarray,
        w1: np.ndarray,
        vx: np.ndarray,
        spaces: np.ndarray,
    ) -> None:
        a, b, c, d, e, f = (number(k)[rows] for k in range(6))
        size, rise = number(_SIZE)[rows], number(_RISE)[rows]
        spacing = np.where(spaces[rows], number(_SPACE_SPACING)[rows], number(_SPACING)[rows])
        # §9.7.4.3: the pen is at the vertical origin; advance by w1 downward. The box spans
        # the horizontal advance w0 across the column, placed by the position vector's vx.
        advance = w1[rows] * size
        displacement = advance + spacing
        left = -vx[rows] * size
        right = left + width[rows] * size
        y = pen[rows] + rise
        ox, oy = c * y + e, d * y + f
        gx, gy = ox + c * advance, oy + d * advance
        self._ends(rows, ox, oy, gx, gy, ox + c * displacement, oy + d * displacement)
        la, lb, ra, rb = a * left, b * left, a * right, b * right
        quad = self.quad
        quad[rows, 0, 0], quad[rows, 0, 1] = ox + la, oy + lb
        quad[rows, 1, 0], quad[rows, 1, 1] = gx + la, gy + lb
        quad[rows, 2, 0], quad[rows, 2, 1] = gx + ra, gy + rb
        quad[rows, 3, 0], quad[rows, 3, 1] = ox + ra, oy + rb

    def _ends(
        self,
        rows: slice | np.ndarray,
        ox: np.ndarray,
        oy: np.ndarray,
        gx: np.ndarray,
        gy: np.ndarray,
        bx: np.ndarray,
        by: np.ndarray,
    ) -> None:
        self.origin[rows, 0], self.origin[rows, 1] = ox, oy
        self.glyph_end[rows, 0], self.glyph_end[rows, 1] = gx, gy
        self.baseline_end[rows, 0], self.baseline_end[rows, 1] = bx, by
