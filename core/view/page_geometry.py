"""The one transform from PDF user space to the screen's page space, without Qt.

The page view's scene is laid out in *display points*: 1/72 inch, origin at the top-left corner
of the page as a viewer shows it, y growing downwards. Everything drawn over the page (glyph
quads, boxes, decisions) stays in default user space (§8.3.2.3) and reaches display points
through `display_matrix`, which folds in, in this order:

- the crop-box offset: a viewer shows the visible box (§14.11.2, CropBox clipped to MediaBox),
  so its lower-left corner becomes the origin;
- the y flip (user space grows upwards, §8.3.2.3);
- /Rotate (§7.7.3.3, Table 30): the page is shown turned clockwise by 0, 90, 180 or 270 degrees;
- /UserUnit (§14.11.2, PDF 1.6): the size of one user-space unit in multiples of 1/72 inch.
"""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.geometry import IDENTITY, Matrix, Rect, invert, multiply, normalize_rect


def normalize_rotation(rotate: int) -> int:
    """/Rotate is a multiple of 90 (§7.7.3.3); negative and >= 360 values are taken modulo 360."""
    return (int(rotate) // 90 * 90) % 360


def display_matrix(visible_box: Rect, rotate: int = 0, user_unit: float = 1.0) -> Matrix:
    """User space → display points for a page shown with its visible box filling the view."""
    llx, lly, urx, ury = normalize_rect(visible_box)
    width, height = urx - llx, ury - lly
    rotation = normalize_rotation(rotate)
    # Unrotated display: X = x - llx, Y = ury - y (y flip about the box's top edge).
    unrotated: Matrix = (1.0, 0.0, 0.0, -1.0, -llx, ury)
    # Turning the shown page clockwise; each case keeps the result inside [0, W'] × [0, H'].
    if rotation == 90:
        turn: Matrix = (0.0, 1.0, -1.0, 0.0, height, 0.0)
    elif rotation == 180:
        turn = (-1.0, 0.0, 0.0, -1.0, width, height)
    elif rotation == 270:
        turn = (0.0, -1.0, 1.0, 0.0, 0.0, width)
    else:
        turn = IDENTITY
    unit = float(user_unit) if user_unit and user_unit > 0 else 1.0
    return multiply(multiply(unrotated, turn), (unit, 0.0, 0.0, unit, 0.0, 0.0))


def display_size(visible_box: Rect, rotate: int = 0, user_unit: float = 1.0) -> tuple[float, float]:
    """Width and height of the shown page in display points."""
    llx, lly, urx, ury = normalize_rect(visible_box)
    unit = float(user_unit) if user_unit and user_unit > 0 else 1.0
    width, height = (urx - llx) * unit, (ury - lly) * unit
    if normalize_rotation(rotate) in (90, 270):
        return height, width
    return width, height


def image_matrix(
    visible_box: Rect, rotate: int, user_unit: float, width_px: int, height_px: int
) -> Matrix:
    """User space → pixels of a rendered image of the shown page (scale may differ in x and y)."""
    display_width, display_height = display_size(visible_box, rotate, user_unit)
    scale_x = width_px / display_width if display_width else 1.0
    scale_y = height_px / display_height if display_height else 1.0
    return multiply(
        display_matrix(visible_box, rotate, user_unit), (scale_x, 0.0, 0.0, scale_y, 0.0, 0.0)
    )


@dataclass(frozen=True, slots=True)
class PageGeometry:
    """The boxes of one page (§14.11.2) and how the viewer shows them."""

    index: int
    media_box: Rect
    crop_box: Rect
    visible_box: Rect
    rotate: int = 0
    user_unit: float = 1.0

    @property
    def matrix(self) -> Matrix:
        return display_matrix(self.visible_box, self.rotate, self.user_unit)

    @property
    def inverse(self) -> Matrix:
        inverse = invert(self.matrix)
        # A degenerate visible box has no inverse; the identity keeps the cursor readout alive.
        return inverse if inverse is not None else IDENTITY

    @property
    def size(self) -> tuple[float, float]:
        return display_size(self.visible_box, self.rotate, self.user_unit)
