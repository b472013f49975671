"""core.geometry: the one matrix and point module of the engine (§8.3.3, §8.3.4)."""

from __future__ import annotations

from glyphscope.core.geometry import across, along, apply, multiply, quad_centre, translate


def test_translate_then_scale_multiplies_in_the_spec_order():
    # §8.3.4: m1 × m2 applies m1 first, so the translation is scaled too.
    matrix = multiply(translate(10.0, 5.0), (2.0, 0.0, 0.0, 2.0, 0.0, 0.0))
    assert apply(matrix, 1.0, 1.0) == (22.0, 12.0)


def test_along_and_across_measure_a_move_in_a_baseline_frame():
    up = (0.0, 1.0)  # a baseline running up the page
    assert along((10.0, 10.0), (13.0, 14.0), up) == 4.0
    assert across((10.0, 10.0), (13.0, 14.0), up) == -3.0  # right of it: below the line


def test_quad_centre_is_the_midpoint_of_the_diagonal():
    assert quad_centre(((0.0, 0.0), (4.0, 0.0), (6.0, 2.0), (2.0, 2.0))) == (3.0, 1.0)
