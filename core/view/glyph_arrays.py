"""Per-glyph and per-decision columns as numpy arrays, built once per page off the GUI thread.

The overlay layers and the glyph table draw and sort from these; nothing on the GUI thread
walks the glyph records one by one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from glyphscope.core.columns import NO_MCID, GlyphColumns
from glyphscope.core.records import DecodeSource
from glyphscope.core.text.reading import GapDecision, LineBreakDecision
from glyphscope.core.text.visible import DroppedGlyph, GlyphStatus


@dataclass(frozen=True, slots=True)
class Categories:
    """A column of labels as integer codes into `labels` (sorted)."""

    codes: np.ndarray
    labels: tuple[str, ...]

    @classmethod
    def of(cls, values: Iterable[object]) -> Categories:
        values = list(values)
        if not values:
            return cls(np.zeros(0, dtype=np.int64), ())
        labels, codes = np.unique(np.asarray(values, dtype=object).astype(str), return_inverse=True)
        return cls(codes.astype(np.int64).reshape(-1), tuple(str(v) for v in labels))


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
    status: Sequence[GlyphStatus],
    dropped: Mapping[int, DroppedGlyph],
    bounds: np.ndarray,
    page_size: float,
) -> GlyphArrays:
    """`bounds`: (N, 4) quad bounding boxes; `page_size`: the page's larger side. Read from
    the columns, never from records."""
    count = len(glyphs)
    kept = np.full(count, -1, dtype=np.int64)
    for index, record in dropped.items():
        if record.kept is not None:
            kept[index] = record.kept
    status_array = np.asarray(status, dtype=object) if count else np.zeros(0, dtype=object)
    fonts = [
        f"{key} {name}".strip() for key, name in zip(glyphs.font_key, glyphs.font_name, strict=True)
    ]
    unresolved = np.asarray(
        [
            source == DecodeSource.UNRESOLVED or text == ""
            for source, text in zip(glyphs.decode_source, glyphs.text, strict=True)
        ],
        dtype=bool,
    )
    return GlyphArrays(
        origins=glyphs.origin.copy(),
        glyph_ends=glyphs.glyph_end.copy(),
        font_size=glyphs.font_size.copy(),
        code=glyphs.code.copy(),
        token_index=glyphs.token_index.copy(),
        form_depth=glyphs.form_depth.copy(),
        mcid=np.where(glyphs.mcid == NO_MCID, -1, glyphs.mcid),
        visible=status_array == GlyphStatus.VISIBLE,
        outside=status_array == GlyphStatus.OUTSIDE_VISIBLE_BOX,
        duplicate=status_array == GlyphStatus.DUPLICATE,
        kept=kept,
        unresolved=unresolved.reshape(count),
        oversized=np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
        > max(page_size, 1.0),
        decode_source=Categories.of(glyphs.decode_source),
        font=Categories.of(fonts),
        font_key=Categories.of(glyphs.font_key),
        text=Categories.of(glyphs.text),
        status=Categories.of(status),
        form_path=Categories.of(glyphs.form_path),
    )


def decision_arrays(
    gaps: Iterable[GapDecision], line_breaks: Iterable[LineBreakDecision]
) -> DecisionArrays:
    gaps = list(gaps)
    line_breaks = list(line_breaks)
    return DecisionArrays(
        gap_previous=np.asarray([d.previous for d in gaps], dtype=np.int64),
        gap_current=np.asarray([d.current for d in gaps], dtype=np.int64),
        gap_value=np.asarray([d.gap for d in gaps], dtype=np.float64),
        gap_space=np.asarray([d.space for d in gaps], dtype=bool),
        gap_reason=Categories.of(str(d.reason) for d in gaps),
        break_previous=np.asarray([d.previous for d in line_breaks], dtype=np.int64),
        break_current=np.asarray([d.current for d in line_breaks], dtype=np.int64),
        break_projection=np.asarray([d.projection for d in line_breaks], dtype=np.float64),
        break_broke=np.asarray([d.broke for d in line_breaks], dtype=bool),
    )


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
