"""The clipping region in force, as a user-space box, for the hidden-text classification.

§8.5.4: `W`/`W*` mark the current path to intersect the clipping path when the path is next
painted (usually by `n`). A rectangle (`re`, or a path whose bounding box is exact) is kept
exactly; any other path by its bounding box, which only errs towards "not clipped". The box
lives in the graphics state, so `q`/`Q` save and restore it (§8.4.2); a form's /BBox clips its
content too (§8.10.1). Text render modes 4–7 (glyphs added to the clip) are not followed.
"""

from __future__ import annotations

import pikepdf

from glyphscope.core.geometry import Matrix, Rect, apply, intersect_rect

CONSTRUCTION = frozenset(("m", "l", "c", "v", "y", "re", "h"))
PAINTING = frozenset(("S", "s", "f", "F", "f*", "B", "B*", "b", "b*", "n"))
CLIPPING = frozenset(("W", "W*"))
PATH_OPERATORS = CONSTRUCTION | PAINTING | CLIPPING


class PathBox:
    """The bounding box of the path under construction, in the space of its operands."""

    __slots__ = ("left", "bottom", "right", "top", "clip_pending")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.left = self.bottom = float("inf")
        self.right = self.top = float("-inf")
        self.clip_pending = False

    def handle(self, operator: str, operands: list, ctm: Matrix, clip: Rect | None) -> Rect | None:
        """Follow one path operator; return the clipping box in force after it."""
        if operator in CLIPPING:
            self.clip_pending = True
            return clip
        if operator in PAINTING:
            if self.clip_pending and self.left <= self.right:
                clip = intersect(clip, transformed_box(ctm, self.box()))
            self.reset()
            return clip
        values = [float(v) for v in operands]
        if operator == "re":
            values = rectangle_corners(values)
        for index in range(0, len(values) - 1, 2):
            x, y = values[index], values[index + 1]
            self.left, self.right = min(self.left, x), max(self.right, x)
            self.bottom, self.top = min(self.bottom, y), max(self.top, y)
        return clip

    def box(self) -> Rect:
        return (self.left, self.bottom, self.right, self.top)


def rectangle_corners(values: list[float]) -> list[float]:
    """`x y width height re` (§8.5.2.1) as the corner points x0 y0 x1 y1."""
    x, y, width, height = values
    return [x, y, x + width, y + height]


def form_bbox(form: pikepdf.Stream) -> Rect | None:
    """A form's /BBox (§8.10.2), or None when it is missing or not four numbers."""
    bbox = form.get("/BBox")
    if not isinstance(bbox, pikepdf.Array) or len(bbox) != 4:
        return None
    try:
        x0, y0, x1, y1 = (float(value) for value in bbox)
    except (TypeError, ValueError):
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def transformed_box(matrix: Matrix, box: Rect) -> Rect:
    x0, y0, x1, y1 = box
    corners = [apply(matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return (min(xs), min(ys), max(xs), max(ys))


def intersect(clip: Rect | None, box: Rect) -> Rect:
    """The new clipping box: `box` within the one in force (None: nothing clips yet)."""
    return box if clip is None else intersect_rect(clip, box)
