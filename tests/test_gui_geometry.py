"""The page view's one transform (core/view/page_geometry.py), without Qt."""

from __future__ import annotations

import pytest

from glyphscope.core.geometry import apply
from glyphscope.core.view.page_geometry import (
    PageGeometry,
    display_matrix,
    display_size,
    image_matrix,
)

# A 200 × 100 visible box whose lower-left corner is at (50, 20) (a crop-box offset).
BOX = (50.0, 20.0, 250.0, 120.0)
LOWER_LEFT, LOWER_RIGHT = (50.0, 20.0), (250.0, 20.0)
UPPER_LEFT, UPPER_RIGHT = (50.0, 120.0), (250.0, 120.0)


def corners(rotate: int, user_unit: float = 1.0) -> dict[str, tuple[float, float]]:
    m = display_matrix(BOX, rotate, user_unit)
    return {
        name: tuple(round(v, 9) for v in apply(m, *point))
        for name, point in (
            ("ll", LOWER_LEFT),
            ("lr", LOWER_RIGHT),
            ("ul", UPPER_LEFT),
            ("ur", UPPER_RIGHT),
        )
    }


def test_rotate_0_flips_y_about_the_top_of_the_visible_box():
    assert corners(0) == {"ul": (0, 0), "ur": (200, 0), "ll": (0, 100), "lr": (200, 100)}


def test_rotate_90_turns_the_page_clockwise():
    # The page's top-left corner goes to the top-right of the shown page (§7.7.3.3).
    assert corners(90) == {"ul": (100, 0), "ur": (100, 200), "ll": (0, 0), "lr": (0, 200)}


def test_rotate_180_turns_the_page_upside_down():
    assert corners(180) == {"ul": (200, 100), "ur": (0, 100), "ll": (200, 0), "lr": (0, 0)}


def test_rotate_270_turns_the_page_counter_clockwise():
    assert corners(270) == {"ul": (0, 200), "ur": (0, 0), "ll": (100, 200), "lr": (100, 0)}


@pytest.mark.parametrize("rotate, expected", [(-90, 270), (450, 90), (360, 0), (-180, 180)])
def test_rotate_values_outside_0_to_270_are_taken_modulo_360(rotate, expected):
    assert display_matrix(BOX, rotate) == display_matrix(BOX, expected)


@pytest.mark.parametrize(
    "rotate, size", [(0, (200, 100)), (90, (100, 200)), (180, (200, 100)), (270, (100, 200))]
)
def test_display_size_swaps_width_and_height_for_quarter_turns(rotate, size):
    assert display_size(BOX, rotate) == size


def test_user_unit_scales_every_distance():
    assert corners(0, user_unit=2.0) == {
        "ul": (0, 0),
        "ur": (400, 0),
        "ll": (0, 200),
        "lr": (400, 200),
    }
    assert display_size(BOX, 90, user_unit=2.0) == (200, 400)


def test_non_positive_user_unit_counts_as_one():
    assert display_matrix(BOX, 0, 0.0) == display_matrix(BOX, 0, 1.0)


def test_image_matrix_scales_x_and_y_separately_for_a_stretched_image():
    m = image_matrix(BOX, 0, 1.0, width_px=400, height_px=300)
    assert apply(m, *UPPER_RIGHT) == (400.0, 0.0)
    assert apply(m, *LOWER_LEFT) == (0.0, 300.0)
    assert apply(m, 150.0, 70.0) == (200.0, 150.0)


def test_image_matrix_with_rotation_and_non_uniform_scale():
    m = image_matrix(BOX, 90, 1.0, width_px=50, height_px=400)
    assert tuple(round(v, 9) for v in apply(m, *UPPER_LEFT)) == (50.0, 0.0)
    assert tuple(round(v, 9) for v in apply(m, *LOWER_RIGHT)) == (0.0, 400.0)


def test_reversed_box_corners_give_the_same_transform():
    assert display_matrix((250.0, 120.0, 50.0, 20.0), 90) == display_matrix(BOX, 90)


def test_page_geometry_inverse_maps_display_points_back_to_user_space():
    geometry = PageGeometry(0, BOX, BOX, BOX, rotate=270, user_unit=1.5)
    x, y = apply(geometry.inverse, *apply(geometry.matrix, 123.0, 45.0))
    assert (round(x, 9), round(y, 9)) == (123.0, 45.0)


def test_degenerate_visible_box_still_has_an_inverse():
    geometry = PageGeometry(0, BOX, BOX, (10.0, 10.0, 10.0, 10.0))
    assert geometry.inverse is not None
