"""Per-glyph and per-decision columns as numpy arrays, built once per page off the GUI thread.

The overlay layers and the glyph table draw and sort from these; nothing on the GUI thread
walks the glyph records one by one. They are read from the engine's own columns
(core.glyph_table.GlyphColumns, core.text.decisions' GapColumns and LineBreakColumns), so no
record is made to build them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from glyphscope.core.glyph_table import NO_MCID, GlyphColumns
from glyphscope.core.records import DecodeSource
from glyphscope.core.text.decisions import GapColumns, LineBreakColumns
from glyphscope.core.text.pairs import REASONS
from glyphscope.core.text.reading import GapDecision, LineBreakDecision
from glyphscope.core.text.visible import DroppedGlyph, GlyphStatus

# Integer values below this bound are made distinct by counting them, not by sorting.
COUNTED_BOUND = 1 << 16


@dataclass(frozen=True, slots=True)
class Categories:
    """A column of labels as integer codes into `labels` (sorted)."""

    codes: np.ndarray
    labels: tuple[str, ...]

    @classmethod
    def of(cls, values: Iterable[object]) -> Categories:
        values = values if isinstance(values, (list, tuple)) else list(values)
        if not values:
            return cls(np.zeros(0, dtype=np.int64), ())
        only_strings = all(issubclass(kind, str) for kind in set(map(type, values)))
        distinct = set(values) if only_strings else None
        if distinct is None or any(str(v) != v for v in distinct):
            # Values whose str() is not themselves: equal values could label differently.
            strings = np.asarray(values, dtype=object).astype(str)
            unique, inverse = np.unique(strings, return_inverse=True)
            return cls(inverse.astype(np.int64).reshape(-1), tuple(str(v) for v in unique))
        # A page has a few distinct labels among thousands of glyphs: code the distinct ones
        # (sorted, as numpy.unique sorts) and look each value up, rather than sort them all.
        labels = sorted(map(str, distinct))
        code_of = {label: code for code, label in enumerate(labels)}
        codes = np.fromiter(map(code_of.__getitem__, values), dtype=np.int64, count=len(values))
        return cls(codes, tuple(labels))

    @classmethod
    def of_codes(cls, codes: np.ndarray, table: Sequence[object]) -> Categories:
        """The same as `of` the values `table[codes]`, from their codes into `table` (whose
        values are distinct strings), without a pass over the values."""
        present = np.flatnonzero(np.bincount(codes, minlength=len(table))).tolist()
        labels = sorted(str(table[code]) for code in present)
        position = {label: code for code, label in enumerate(labels)}
        recode = np.zeros(len(table), dtype=np.int64)
        recode[present] = [position[str(table[code])] for code in present]
        return cls(recode[codes], tuple(labels))

    def mask(self, label: str) -> np.ndarray:
        """Which values are `label`."""
        if label not in self.labels:
            return np.zeros(len(self.codes), dtype=bool)
        return self.codes == self.labels.index(label)


@dataclass(frozen=True, slots=True)
class GlyphArrays:
    origins: np.ndarray  # (N, 2)
    glyph_ends: np.ndarray  # (N, 2)
    font_size: np.ndarray
    code: np.ndarray
    token_index: np.ndarray
    form_depth: np.ndarray
    mcid: np.ndarray  # -1: none
    visible: np.ndarray  # bool
    outside: np.ndarray  # bool: dropped outside the visible box
    duplicate: np.ndarray  # bool: dropped as a copy
    kept: np.ndarray  # the glyph a duplicate repeats, -1 otherwise
    unresolved: np.ndarray  # bool
    # Quads larger than the page itself (broken widths or matrices): drawn as outlines only,
    # since filling thousands of page-sized translucent polygons stalls the raster engine.
    oversized: np.ndarray  # bool
    decode_source: Categories
    font: Categories  # "key name"
    font_key: Categories
    text: Categories
    status: Categories
    form_path: Categories


@dataclass(frozen=True, slots=True)
class DecisionArrays:
    gap_previous: np.ndarray
    gap_current: np.ndarray
    gap_value: np.ndarray
    gap_space: np.ndarray  # bool
    gap_reason: Categories
    break_previous: np.ndarray
    break_current: np.ndarray
    break_projection: np.ndarray
    break_broke: np.ndarray  # bool


def glyph_arrays(
    glyphs: GlyphColumns,
    statuses: Categories,
    dropped: Mapping[int, DroppedGlyph],
    bounds: np.ndarray,
    page_size: float,
) -> GlyphArrays:
    """`statuses`: each glyph's GlyphStatus; `bounds`: (N, 4) quad bounding boxes;
    `page_size`: the page's larger side. Read from the columns, never from records."""
    count = len(glyphs)
    kept = np.full(count, -1, dtype=np.int64)
    for index, record in dropped.items():
        if record.kept is not None:
            kept[index] = record.kept
    font_key = Categories.of(glyphs.font_key)
    decode_source = Categories.of(glyphs.decode_source)
    # The text stages numbered the texts already (GlyphColumns.text_ids): a page's thousands
    # of glyphs are not looked at one by one again.
    text = Categories.of_codes(*glyphs.text_ids())
    return GlyphArrays(
        # The columns themselves, not copies: the model is sent to the window pickled, and
        # a shared array travels once (nothing writes into either).
        origins=glyphs.origin,
        glyph_ends=glyphs.glyph_end,
        font_size=glyphs.font_size,
        code=glyphs.code,
        token_index=glyphs.token_index,
        form_depth=glyphs.form_depth,
        mcid=np.where(glyphs.mcid == NO_MCID, -1, glyphs.mcid),
        visible=statuses.mask(GlyphStatus.VISIBLE),
        outside=statuses.mask(GlyphStatus.OUTSIDE_VISIBLE_BOX),
        duplicate=statuses.mask(GlyphStatus.DUPLICATE),
        kept=kept,
        unresolved=decode_source.mask(DecodeSource.UNRESOLVED) | text.mask(""),
        oversized=np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
        > max(page_size, 1.0),
        decode_source=decode_source,
        font=_font_categories(font_key, Categories.of(glyphs.font_name)),
        font_key=font_key,
        text=text,
        status=statuses,
        form_path=Categories.of(glyphs.form_path),
    )


def _font_categories(keys: Categories, names: Categories) -> Categories:
    """Each glyph's "key name" label, from the codes of its font's key and name."""
    width = max(len(names.labels), 1)
    pairs = keys.codes * width + names.codes
    used, inverse = _distinct(pairs, len(keys.labels) * width)
    texts = [f"{keys.labels[p // width]} {names.labels[p % width]}".strip() for p in used.tolist()]
    labels = sorted(set(texts))
    position = {label: code for code, label in enumerate(labels)}
    codes = np.asarray([position[text] for text in texts], dtype=np.int64)
    return Categories(codes[inverse], tuple(labels))


def _distinct(values: np.ndarray, bound: int) -> tuple[np.ndarray, np.ndarray]:
    """`numpy.unique(values, return_inverse=True)` of integers in [0, bound): counted when
    the bound is small (a page's few fonts), not sorted glyph by glyph (1 ms of 9,400)."""
    if bound > COUNTED_BOUND:
        used, inverse = np.unique(values, return_inverse=True)
        return used, inverse.reshape(-1)
    used = np.flatnonzero(np.bincount(values, minlength=bound))
    position = np.zeros(bound, dtype=np.int64)
    position[used] = np.arange(len(used))
    return used, position[values]


def decision_arrays(
    gaps: Sequence[GapDecision], line_breaks: Sequence[LineBreakDecision]
) -> DecisionArrays:
    """The reading order's decisions as arrays: the columns of GapColumns and
    LineBreakColumns themselves (shared, not copied), or read from records."""
    gap_arrays: Sequence[np.ndarray]
    break_arrays: Sequence[np.ndarray]
    if isinstance(gaps, GapColumns):
        gap_arrays = (gaps.previous, gaps.current, gaps.gap, gaps.space)
        gap_reason = _reason_categories(gaps.reason)
    else:
        gap_arrays = _record_columns(gaps, ("previous", "current", "gap", "space"))
        gap_reason = Categories.of([str(d.reason) for d in gaps])
    if isinstance(line_breaks, LineBreakColumns):
        break_arrays = (
            line_breaks.previous,
            line_breaks.current,
            line_breaks.projection,
            line_breaks.broke,
        )
    else:
        break_arrays = _record_columns(line_breaks, ("previous", "current", "projection", "broke"))
    gap_previous, gap_current, gap_value, gap_space = gap_arrays
    break_previous, break_current, break_projection, break_broke = break_arrays
    return DecisionArrays(
        gap_previous=gap_previous,
        gap_current=gap_current,
        gap_value=gap_value,
        gap_space=gap_space,
        gap_reason=gap_reason,
        break_previous=break_previous,
        break_current=break_current,
        break_projection=break_projection,
        break_broke=break_broke,
    )


_DECISION_DTYPES = {
    "previous": np.int64,
    "current": np.int64,
    "gap": np.float64,
    "projection": np.float64,
    "space": bool,
    "broke": bool,
}


def _record_columns(records: Iterable[tuple], names: Sequence[str]) -> list[np.ndarray]:
    records = list(records)
    return [
        np.asarray([getattr(d, name) for d in records], dtype=_DECISION_DTYPES[name])
        for name in names
    ]


def _reason_categories(reasons: np.ndarray) -> Categories:
    """GapColumns.reason (positions in pairs.REASONS) as Categories of the reasons' names."""
    used = np.unique(reasons)
    labels = sorted((str(REASONS[position]), position) for position in used.tolist())
    codes = np.zeros(len(REASONS), dtype=np.int64)
    codes[[position for _, position in labels]] = np.arange(len(labels))
    return Categories(codes[reasons], tuple(label for label, _ in labels))


def group_bounds(keys: np.ndarray, bounds: np.ndarray) -> list[tuple[int, tuple[float, ...]]]:
    """For each distinct key ≥ 0, the union of the (x0, y0, x1, y1) rows carrying it."""
    chosen = np.flatnonzero(keys >= 0)
    if not len(chosen):
        return []
    order = chosen[np.argsort(keys[chosen], kind="stable")]
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    rows = bounds[order]
    low = np.minimum.reduceat(rows[:, :2], starts, axis=0)
    high = np.maximum.reduceat(rows[:, 2:], starts, axis=0)
    return [
        (int(sorted_keys[s]), (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])))
        for s, lo, hi in zip(starts, low, high, strict=True)
    ]
