"""Continuous scrolling's layout: every page of a document one below the other, without Qt.

Positions are display points (see core/view/page_geometry.py) in the stack's own frame: page 0's
top at y = 0, each page centred on the widest one, `gap` points between pages. Looking a page
up by position is a binary search, so a 2,000-page file costs nothing per scroll step.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from itertools import accumulate

# Points between two pages of the stack.
PAGE_GAP = 16.0
# A page whose size is not known yet (pdfium gave none: an empty visible box) is laid out as
# US Letter until its render says better.
DEFAULT_PAGE_SIZE = (612.0, 792.0)

Size = tuple[float, float]


class PageStack:
    def __init__(self, sizes: Sequence[Size], gap: float = PAGE_GAP) -> None:
        self.gap = gap
        self._sizes = [_usable(size) for size in sizes]
        self._tops: list[float] = []
        self._bottoms: list[float] = []
        self._width = 0.0
        self._relayout()

    def __len__(self) -> int:
        return len(self._sizes)

    @property
    def width(self) -> float:
        """The widest page's width: the stack's width."""
        return self._width

    @property
    def height(self) -> float:
        return self._bottoms[-1] if self._bottoms else 0.0

    def size(self, index: int) -> Size:
        return self._sizes[index]

    def top(self, index: int) -> float:
        return self._tops[index]

    def bottom(self, index: int) -> float:
        return self._bottoms[index]

    def left(self, index: int) -> float:
        """The page's left edge: pages narrower than the widest are centred on it."""
        return (self.width - self._sizes[index][0]) / 2

    def set_size(self, index: int, size: Size) -> bool:
        """Correct one page's size (its render knows it exactly); True when it changed."""
        size = _usable(size)
        old_width, old_height = self._sizes[index]
        if abs(size[0] - old_width) < 1e-6 and abs(size[1] - old_height) < 1e-6:
            return False
        self._sizes[index] = size
        self._relayout()
        return True

    def between(self, y0: float, y1: float) -> range:
        """The pages that reach into the band y0..y1 (gaps do not count)."""
        first = bisect_right(self._bottoms, y0)
        end = bisect_right(self._tops, y1)
        return range(first, max(first, end))

    def at(self, y: float) -> int:
        """The page at height `y`; in a gap the page above it, outside the stack the nearest."""
        if not self._sizes:
            return -1
        return min(max(bisect_right(self._tops, y) - 1, 0), len(self._sizes) - 1)

    def _relayout(self) -> None:
        heights = [height + self.gap for _width, height in self._sizes]
        self._tops = [0.0, *accumulate(heights)][: len(heights)]
        self._bottoms = [
            top + height for top, (_width, height) in zip(self._tops, self._sizes, strict=True)
        ]
        self._width = max((width for width, _height in self._sizes), default=0.0)


def _usable(size: Size) -> Size:
    width, height = size
    if not (width > 0 and height > 0 and math.isfinite(width) and math.isfinite(height)):
        return DEFAULT_PAGE_SIZE
    return float(width), float(height)
