"""A uniform grid bucket index over glyph quads, built with numpy, for hover and rubber band.

A page holds up to hundreds of thousands of glyphs; the pointer moves many times a second.
Each glyph is entered in every grid cell its bounding box touches; a point query reads one
cell's candidates and tests only those quads exactly. A glyph that would touch more than
MAX_CELLS_PER_GLYPH cells (huge or overprinted glyphs, which squeeze the grid onto one spot)
is kept in a short list tested on every query instead, so the index holds at most that many
entries per glyph: 20,000 overprinted page-sized glyphs would otherwise make 184 million.
"""

from __future__ import annotations

import numpy as np

# Cells per side on a typical page: a cell then holds a few glyphs of body text.
TARGET_CELLS = 96
# Beyond this many cells a glyph is tested on every query rather than entered in each cell.
MAX_CELLS_PER_GLYPH = 64
# Subpaths of at most this many points have their bounds taken point by point (row_bounds).
SHORT_SUBPATH = 8


class GlyphGrid:
    def __init__(self, quads: np.ndarray) -> None:
        """quads: float array (N, 4, 2) of user-space glyph quads (points 0..3, spec §3)."""
        quads = np.asarray(quads, dtype=np.float64)
        if quads.ndim != 3:
            quads = quads.reshape(-1, 4, 2)
        # Broken content can put NaN or inf in a matrix; such glyphs are never hit. Finite
        # quads are the page's own array, not a copy (the model pickled sends it once).
        if not np.isfinite(quads).all():
            quads = np.nan_to_num(quads, nan=-1e9, posinf=-1e9, neginf=-1e9)
        self.quads = quads
        count = len(self.quads)
        if count:
            self.bounds = np.concatenate(row_bounds(self.quads), axis=1)
            self.centres = (self.quads[:, 0] + self.quads[:, 2]) * 0.5
            x0, y0 = self.bounds[:, 0].min(), self.bounds[:, 1].min()
            x1, y1 = self.bounds[:, 2].max(), self.bounds[:, 3].max()
        else:
            self.bounds = np.zeros((0, 4))
            self.centres = np.zeros((0, 2))
            x0 = y0 = 0.0
            x1 = y1 = 1.0
        self.origin = (float(x0), float(y0))
        self.cell = max(float(max(x1 - x0, y1 - y0)) / TARGET_CELLS, 1e-6)
        self.columns = int((x1 - x0) / self.cell) + 1
        self.rows = int((y1 - y0) / self.cell) + 1
        self._build()

    def _cell_range(self, bounds: np.ndarray) -> tuple[np.ndarray, ...]:
        ox, oy = self.origin
        cx0 = np.floor((bounds[:, 0] - ox) / self.cell).astype(np.int64)
        cy0 = np.floor((bounds[:, 1] - oy) / self.cell).astype(np.int64)
        cx1 = np.floor((bounds[:, 2] - ox) / self.cell).astype(np.int64)
        cy1 = np.floor((bounds[:, 3] - oy) / self.cell).astype(np.int64)
        return cx0, cy0, cx1, cy1

    def _build(self) -> None:
        cx0, cy0, cx1, cy1 = self._cell_range(self.bounds)
        spans_x = cx1 - cx0 + 1
        spans_y = cy1 - cy0 + 1
        per_glyph = spans_x * spans_y
        large = per_glyph > MAX_CELLS_PER_GLYPH
        self._large = np.flatnonzero(large)
        per_glyph = np.where(large, 0, per_glyph)
        glyphs = np.repeat(np.arange(len(self.bounds)), per_glyph)
        # The k-th cell of a glyph's block: row-major offsets inside its own span.
        starts = np.repeat(np.cumsum(per_glyph) - per_glyph, per_glyph)
        local = np.arange(len(glyphs)) - starts
        width = np.repeat(spans_x, per_glyph)
        xs = np.repeat(cx0, per_glyph) + local % np.maximum(width, 1)
        ys = np.repeat(cy0, per_glyph) + local // np.maximum(width, 1)
        keys = ys * self.columns + xs
        order = np.argsort(keys, kind="stable")
        self._keys = keys[order]
        self._glyphs = glyphs[order]

    @property
    def entry_count(self) -> int:
        """Cell entries plus glyphs tested on every query: what the index holds."""
        return len(self._keys) + len(self._large)

    def _candidates(self, cx: int, cy: int) -> np.ndarray:
        key = cy * self.columns + cx
        start = np.searchsorted(self._keys, key, side="left")
        end = np.searchsorted(self._keys, key, side="right")
        return self._glyphs[start:end]

    def at(self, x: float, y: float) -> list[int]:
        """Indices of the glyphs whose quad contains (x, y), last drawn first."""
        if not len(self.quads):
            return []
        cx = np.floor((x - self.origin[0]) / self.cell)
        cy = np.floor((y - self.origin[1]) / self.cell)
        # Off the grid (NaN and inf included, whose comparisons are false) no glyph is hit;
        # int() of such values would raise inside a mouse-move handler.
        if not (0 <= cx < self.columns and 0 <= cy < self.rows):
            return []
        candidates = self._candidates(int(cx), int(cy))
        if len(self._large):
            candidates = np.concatenate([candidates, self._large])
        if not len(candidates):
            return []
        hits = candidates[_quads_contain(self.quads[candidates], x, y)]
        return sorted(hits.tolist(), reverse=True)

    def in_rect(self, rect: tuple[float, float, float, float]) -> list[int]:
        """Indices of the glyphs whose quad centre lies in rect (x0, y0, x1, y1), in order."""
        if not len(self.quads):
            return []
        x0, y0, x1, y1 = (
            min(rect[0], rect[2]),
            min(rect[1], rect[3]),
            max(rect[0], rect[2]),
            max(rect[1], rect[3]),
        )
        c = self.centres
        inside = (c[:, 0] >= x0) & (c[:, 0] <= x1) & (c[:, 1] >= y0) & (c[:, 1] <= y1)
        return np.flatnonzero(inside).tolist()


def row_bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each subpath's lowest and highest x and y, (N, 2) each, of an (N, K, 2) array; NaN
    propagates as in np.min / np.max. For a few points a subpath, one np.minimum per point:
    numpy's reduction over a short inner axis costs about six times that (a page's quads)."""
    if points.shape[1] > SHORT_SUBPATH:
        return points.min(axis=1), points.max(axis=1)
    lows = points[:, 0].copy()
    highs = lows.copy()
    for k in range(1, points.shape[1]):
        np.minimum(lows, points[:, k], out=lows)
        np.maximum(highs, points[:, k], out=highs)
    return lows, highs


def _quads_contain(quads: np.ndarray, x: float, y: float) -> np.ndarray:
    """Point-in-convex-quad for many quads at once (same sign of all four edge cross products)."""
    edges = np.roll(quads, -1, axis=1) - quads
    to_point = np.array([x, y]) - quads
    cross = edges[:, :, 0] * to_point[:, :, 1] - edges[:, :, 1] * to_point[:, :, 0]
    # Zero-height quads (blank glyphs of size 0) contain nothing rather than everything.
    area = np.abs(edges[:, 0, 0] * edges[:, 3, 1] - edges[:, 0, 1] * edges[:, 3, 0])
    return ((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)) & (area > 1e-12)
