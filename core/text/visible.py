"""Visible glyphs (spec §3–§5): the page's painted glyphs minus those whose box centre lies
outside the visible box, minus fake-bold and overprint duplicates. Every text mode reads this.

The box test runs first, then duplicate removal among the glyphs that survived it: a copy whose
centre straddles the crop edge then cannot be removed in favour of an original that the box
test drops anyway, which would lose the character altogether.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from glyphscope.core import compiled
from glyphscope.core.geometry import (
    Rect,
    across,
    along,
    normalize_rect,
    quad_height,
    writing_direction,
)
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.records import Glyph, StrEnum
from glyphscope.core.rules import Rules
from glyphscope.core.text.arrays import (
    GlyphRows,
    few_records,
    finite_rows,
    quad_heights,
)
from glyphscope.core.text.chars import text_classes


class DropReason(StrEnum):
    """Why a painted glyph is not visible (spec §4, §5)."""

    OUTSIDE_VISIBLE_BOX = "outside_visible_box"
    DUPLICATE = "duplicate"
    NON_FINITE_GEOMETRY = "non_finite_geometry"


class GlyphStatus(StrEnum):
    """What the visible stage made of a painted glyph: visible, or why it was dropped."""

    VISIBLE = "visible"
    OUTSIDE_VISIBLE_BOX = DropReason.OUTSIDE_VISIBLE_BOX.value
    DUPLICATE = DropReason.DUPLICATE.value
    NON_FINITE_GEOMETRY = DropReason.NON_FINITE_GEOMETRY.value


@dataclass(frozen=True, slots=True)
class DroppedGlyph:
    """Why glyph `index` is not visible.

    reason OUTSIDE_VISIBLE_BOX: its quad centre lies outside `box`.
    reason DUPLICATE: it repeats glyph `kept` (drawn earlier); `along` and `across` are the
    reason NON_FINITE_GEOMETRY: its size or a coordinate is nan or infinite (a huge Tm), so
    it has no place on the page at all.
    offset of its origin from kept's origin in kept's baseline frame, `size_ratio` its size as
    drawn over kept's.
    """

    index: int
    reason: DropReason
    kept: int | None = None
    along: float | None = None
    across: float | None = None
    size_ratio: float | None = None
    box: Rect | None = None


@dataclass(frozen=True, slots=True)
class VisibleResult:
    visible: tuple[int, ...]
    dropped: tuple[DroppedGlyph, ...]


def drawn_size(glyph: Glyph) -> float:
    """Size as drawn in user space (the record's font_size is Tf scaled by the text rendering
    matrix, §9.4.4); the quad's 0→3 extent when the record carries none."""
    return glyph.font_size if glyph.font_size > 0.0 else quad_height(glyph.quad)


def drawn_sizes(rows: GlyphRows) -> np.ndarray:
    """drawn_size of each row."""
    sizes = rows.numbers("font_size").astype(np.float64)
    unsized = np.flatnonzero(~(sizes > 0.0))
    if len(unsized):
        sizes[unsized] = quad_heights(rows.quads()[unsized])
    return sizes


def visible_glyphs(glyphs: Sequence[Glyph], visible_box: Rect, rules: Rules) -> VisibleResult:
    """Indices of the visible glyphs in drawing order, and a record for every dropped one."""
    box = normalize_rect(visible_box)
    inside, outside = _box_filter(glyphs, box)
    copies = _duplicates(glyphs, inside, rules)
    visible = _without(glyphs, inside, copies.dropped)
    dropped = sorted(outside + copies.records(), key=attrgetter("index"))
    return VisibleResult(visible=visible, dropped=tuple(dropped))


def visible_rows(glyphs: Sequence[Glyph], visible_box: Rect, rules: Rules) -> tuple[int, ...]:
    """visible_glyphs(…).visible, without a record of each dropped glyph (text needs none)."""
    inside, _, _ = _box_rows_of(GlyphRows(glyphs), normalize_rect(visible_box))
    return _without(glyphs, inside, _duplicates(glyphs, inside, rules).dropped)


def _without(
    glyphs: Sequence[Glyph], inside: list[int] | np.ndarray, dropped: list[int]
) -> tuple[int, ...]:
    """The glyphs `inside` (in drawing order) but the `dropped` ones."""
    kept = np.ones(len(glyphs), dtype=bool)
    kept[dropped] = False
    rows = np.asarray(inside, dtype=np.intp)
    return tuple(rows[kept[rows]].tolist())


class _Copies(NamedTuple):
    """The duplicates found, as columns: glyph `dropped[k]` repeats glyph `kept[k]`, with the
    offsets and size ratio of DroppedGlyph; records made only when asked."""

    dropped: list[int]
    kept: list[int]
    along: list[float]
    across: list[float]
    size_ratio: list[float]

    @classmethod
    def of(cls, records: list[DroppedGlyph]) -> _Copies:
        fields = ("index", "kept", "along", "across", "size_ratio")
        return cls(*([getattr(record, name) for record in records] for name in fields))

    def records(self) -> list[DroppedGlyph]:
        """A DroppedGlyph per duplicate, in the order they were found."""
        columns = (self.dropped, repeat(DropReason.DUPLICATE), self.kept, self.along, self.across)
        return list(map(DroppedGlyph, *columns, self.size_ratio))


def _box_filter(glyphs: Sequence[Glyph], box: Rect) -> tuple[list[int], list[DroppedGlyph]]:
    """§14.11.2: a glyph is kept when its quad centre (geometry.quad_centre: the midpoint of
    diagonal 0–2) is inside; one whose geometry is not finite is dropped for that, before the
    box is asked."""
    inside, outside, finite = _box_rows_of(GlyphRows(glyphs), box)
    dropped = [
        DroppedGlyph(index=index, reason=DropReason.OUTSIDE_VISIBLE_BOX, box=box)
        if is_finite
        else DroppedGlyph(index=index, reason=DropReason.NON_FINITE_GEOMETRY)
        for index, is_finite in zip(outside.tolist(), finite.tolist(), strict=True)
    ]
    return inside.tolist(), dropped


def _box_rows_of(rows: GlyphRows, box: Rect) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows inside the box, those outside, and whether each of these is finite (intp,
    intp and bool arrays), compiled when the extension was built."""
    if _box_rows is not None:
        return _compiled_box(rows, box)
    return _box_in_python(rows, box)


def _box_in_python(rows: GlyphRows, box: Rect) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows inside the box, those outside, and whether each of these is finite."""
    llx, lly, urx, ury = box
    quads = rows.quads()
    finite = finite_rows(rows)
    with np.errstate(all="ignore"):
        cx = (quads[:, 0, 0] + quads[:, 2, 0]) * 0.5
        cy = (quads[:, 0, 1] + quads[:, 2, 1]) * 0.5
        inside = finite & (llx <= cx) & (cx <= urx) & (lly <= cy) & (cy <= ury)
    outside = np.flatnonzero(~inside)
    return np.flatnonzero(inside), outside, finite[outside]


def _compiled_box(rows: GlyphRows, box: Rect) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """_box_in_python in one compiled loop (_duplicates.box_rows) over every row of `rows`
    (all of the glyphs: the columns themselves are read)."""
    columns = rows.glyphs if isinstance(rows.glyphs, GlyphColumns) else None
    names = ("font_size", "origin", "glyph_end", "baseline_end", "quad")
    if columns is not None:
        fields = [getattr(columns, name) for name in names]
    else:
        fields = [rows.numbers("font_size"), *map(rows.points, names[1:4]), rows.quads()]
    size, origin, glyph_end, baseline_end, quads = (
        np.ascontiguousarray(f, dtype=np.float64) for f in fields
    )
    llx, lly, urx, ury = box
    return _box_rows(  # type: ignore[misc]  # called only when built
        size, origin, glyph_end, baseline_end, quads, llx, lly, urx, ury
    )


# _compiled_box's and _compiled_duplicates' loops (_duplicates.pyx), when it was built.
_duplicates_loops = compiled.load("glyphscope.core.text._duplicates")
_box_rows = None if _duplicates_loops is None else _duplicates_loops.box_rows
_find_copies = None if _duplicates_loops is None else _duplicates_loops.find_copies


def _duplicates(
    glyphs: Sequence[Glyph], candidates: list[int] | np.ndarray, rules: Rules
) -> _Copies:
    """Spec §5 in n log n: stable-sort the non-blank, resolved glyphs by (Unicode, origin x,
    draw order) and compare each only with the glyphs after it that share its Unicode and lie
    within duplicate_scan_window × size in x. A scan from A that meets a match drawn before A
    drops A and stops, so the earlier glyph carries on the comparisons and the first-drawn of a
    triple strike survives. The compiled scan (_duplicates.pyx) where it was built and the
    geometry is finite; else the reference, _scan_duplicates."""
    candidate_rows = GlyphRows(glyphs, candidates)
    text_ids, distinct = _string_ordered(*candidate_rows.text_ids())
    read = ~np.array([text == "" or text_classes(text)[3] for text in distinct], dtype=bool)
    scanned = read[text_ids]
    scanned_rows = candidate_rows.index[scanned]
    if _find_copies is not None:
        copies = _compiled_duplicates(glyphs, scanned_rows, rules, text_ids[scanned])
        if copies is not None:
            return copies
    scan = scanned_rows.tolist()
    rows = GlyphRows(glyphs, scan)
    keys = zip(rows.texts(), rows.points("origin")[:, 0].tolist(), strict=True)
    scan.sort(key=dict(zip(scan, keys, strict=True)).__getitem__)
    return _Copies.of(_scan_duplicates(glyphs, scan, rules))


def _string_ordered(ids: np.ndarray, distinct: list[str]) -> tuple[np.ndarray, list[str]]:
    """Text ids (numbers among `distinct`, a superset of the texts they use) renumbered in
    Python's string order over the texts they use, as int64: the ids of sorted(set(texts)),
    and those texts."""
    used = np.zeros(len(distinct), dtype=bool)
    used[ids] = True
    order = sorted(np.flatnonzero(used).tolist(), key=distinct.__getitem__)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank[ids], [distinct[number] for number in order]


def _scan_duplicates(glyphs: Sequence[Glyph], scan: list[int], rules: Rules) -> list[DroppedGlyph]:
    """The scan of _duplicates over the sorted glyphs, pair by pair: the reference the compiled
    scan is tested against, and what runs where it was not built or the geometry is not finite
    (whose sort and arithmetic arrays cannot mirror)."""
    rows = GlyphRows(glyphs, scan)
    texts = rows.texts()
    xs, ys = rows.points("origin").T.tolist()
    sizes = drawn_sizes(rows).tolist()
    records = few_records(glyphs)  # for the pairs that come near
    window = rules.duplicate_scan_window
    # A match lies within hypot(along, across) × the first glyph's size in any frame, so a
    # larger y offset can be skipped without the frame test: same outcome, far cheaper when one
    # character repeats at one x on many lines (a column of digits).
    radius = math.hypot(rules.duplicate_along, rules.duplicate_across)
    dropped_flags = [False] * len(scan)
    dropped: list[DroppedGlyph] = []
    count = len(scan)
    for a in range(count):
        if dropped_flags[a]:
            continue
        text_a, y_a, size_a = texts[a], ys[a], sizes[a]
        reach = xs[a] + window * size_a
        b = a + 1
        while b < count and texts[b] == text_a and xs[b] <= reach:
            near = abs(ys[b] - y_a) < radius * (size_a if size_a > sizes[b] else sizes[b])
            if near and not dropped_flags[b]:
                first, later = (scan[a], scan[b]) if scan[a] < scan[b] else (scan[b], scan[a])
                record = _match(records, first, later, rules)
                if record is not None:
                    dropped.append(record)
                    if later == scan[a]:
                        dropped_flags[a] = True
                        break
                    dropped_flags[b] = True
            b += 1
    return dropped


# A glyph with more candidates than this in the scan's own order (text and x) looks them up
# in its band of y instead (the compiled scan's issue-10 path): passing a hundred glyphs in
# order costs about what five binary searches over a large page's band order do.
_DIRECT_SCAN = 128
# Band numbers below this are exact integers with room to spare: floor(y / band) of two
# glyphs near each other then differs by two at most.
_BAND_LIMIT = 2.0**50


def _compiled_duplicates(
    glyphs: Sequence[Glyph],
    candidates: Sequence[int] | np.ndarray,
    rules: Rules,
    text_ids: np.ndarray,
) -> _Copies | None:
    """_scan_duplicates' records over candidates (sorted here, as _duplicates sorts them),
    compiled (_duplicates.pyx); None when the geometry is not finite (only Python's sort and
    arithmetic give the scan's outcome there). A glyph whose scan would pass many glyphs
    sharing its text and x (issue 10's aligned grid) compares only those in its band of y
    (as tall as radius × the largest size) and the two on each side: a match lies within
    radius × the larger size in y, and rounding of the band division can shift a neighbour
    by one more. `text_ids`: the candidates' texts numbered in Python's string order
    (_string_ordered), so that (text id, x, drawing order) sorts as _duplicates does."""
    count = len(candidates)
    if not count:
        return _Copies([], [], [], [], [])
    rows = GlyphRows(glyphs, candidates)
    origins = rows.points("origin")
    sizes = drawn_sizes(rows)
    if not (np.isfinite(origins).all() and np.isfinite(sizes).all()):
        return None
    # Stable: ties keep the drawing order (a contiguous x sorts several times quicker).
    order = np.lexsort((np.ascontiguousarray(origins[:, 0]), text_ids))
    radius = math.hypot(rules.duplicate_along, rules.duplicate_across)
    band = radius * float(sizes.max())
    if not band > 0.0:
        return _Copies([], [], [], [], [])  # no y offset is under a zero radius

    def band_order() -> tuple[np.ndarray, np.ndarray] | None:
        with np.errstate(all="ignore"):
            bands = np.floor(origins[:, 1] / band)
        if not float(np.abs(bands).max()) < _BAND_LIMIT:
            return None
        positions = np.empty(count, dtype=np.intp)
        positions[order] = np.arange(count)
        return bands, np.lexsort((positions, bands, text_ids))

    # The quads of columns are read in place: only the few glyphs kept in a pair need one.
    columns = glyphs if isinstance(glyphs, GlyphColumns) else None
    dropped, kept, numbers = _find_copies(  # type: ignore[misc]  # called only when built
        order,
        rows.index,
        origins,
        sizes,
        text_ids,
        np.ascontiguousarray(rows.numbers("writing_mode"), dtype=np.int64),
        rows.quads() if columns is None else np.ascontiguousarray(columns.quad),
        np.arange(count, dtype=np.intp) if columns is None else rows.index,
        rules.duplicate_scan_window,
        radius,
        rules.duplicate_along,
        rules.duplicate_across,
        rules.duplicate_size_tolerance,
        _DIRECT_SCAN,
        band_order,
        lambda row: writing_direction(rows.record(row)),
    )
    offsets_along, offsets_across, size_ratios = numbers.T.tolist()
    return _Copies(dropped.tolist(), kept.tolist(), offsets_along, offsets_across, size_ratios)


def _match(glyphs: Sequence[Glyph], first: int, later: int, rules: Rules) -> DroppedGlyph | None:
    """The record dropping `later` as a copy of `first`, or None when they are two characters.
    Offsets are measured in the first glyph's own baseline frame so rotated text gets the same
    tolerances as horizontal text."""
    kept, copy = glyphs[first], glyphs[later]
    if kept.writing_mode != copy.writing_mode:
        return None
    size = drawn_size(kept)
    if size <= 0.0:
        return None
    size_ratio = drawn_size(copy) / size
    if abs(size_ratio - 1.0) > rules.duplicate_size_tolerance:
        return None
    direction = writing_direction(kept)
    offset_along = along(kept.origin, copy.origin, direction)
    offset_across = across(kept.origin, copy.origin, direction)
    if (
        abs(offset_along) >= rules.duplicate_along * size
        or abs(offset_across) >= rules.duplicate_across * size
    ):
        return None
    return DroppedGlyph(
        index=later,
        reason=DropReason.DUPLICATE,
        kept=first,
        along=offset_along,
        across=offset_across,
        size_ratio=size_ratio,
    )
