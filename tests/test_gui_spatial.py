"""Hit tests through the grid index, and the pane ↔ glyph maps (no Qt)."""

from __future__ import annotations

import numpy as np

from glyphscope.core.view.page_model import PaneText
from glyphscope.core.view.spatial import MAX_CELLS_PER_GLYPH, GlyphGrid


def box(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def rotated_quad() -> list[tuple[float, float]]:
    # A 10 × 10 glyph turned 45° about (100, 100): a diamond.
    return [(100.0, 92.93), (107.07, 100.0), (100.0, 107.07), (92.93, 100.0)]


QUADS = np.array([box(0, 0, 10, 10), box(8, 0, 18, 10), box(300, 500, 310, 512), rotated_quad()])


def test_point_inside_one_quad_hits_it():
    assert GlyphGrid(QUADS).at(3, 5) == [0]


def test_point_where_quads_overlap_hits_the_last_drawn_first():
    assert GlyphGrid(QUADS).at(9, 5) == [1, 0]


def test_point_between_glyphs_hits_nothing():
    assert GlyphGrid(QUADS).at(100, 300) == []


def test_rotated_quad_is_hit_inside_its_diamond_not_in_its_bounding_box_corner():
    grid = GlyphGrid(QUADS)
    assert grid.at(100, 100) == [3]
    assert grid.at(93.5, 93.5) == []


def test_far_away_glyph_is_found_in_its_own_cell():
    assert GlyphGrid(QUADS).at(305, 506) == [2]


def test_non_finite_point_hits_nothing():
    grid = GlyphGrid(QUADS)
    nan, inf = float("nan"), float("inf")
    assert [grid.at(x, y) for x, y in ((nan, 5), (inf, 5), (3, -inf))] == [[], [], []]


def test_point_far_outside_every_glyph_hits_nothing():
    assert GlyphGrid(QUADS).at(1e308, 1e308) == []


def test_rect_query_returns_glyphs_whose_centre_is_inside_in_order():
    assert GlyphGrid(QUADS).in_rect((0, 0, 20, 20)) == [0, 1]


def test_rect_query_accepts_corners_in_any_order():
    assert GlyphGrid(QUADS).in_rect((320, 520, 290, 490)) == [2]


def test_empty_page_hits_nothing():
    grid = GlyphGrid(np.zeros((0, 4, 2)))
    assert grid.at(1, 1) == []
    assert grid.in_rect((0, 0, 10, 10)) == []


def test_non_finite_quads_are_never_hit():
    quads = np.array([box(0, 0, 10, 10), [(np.nan, 0), (np.inf, 0), (1, 1), (0, 1)]])
    assert GlyphGrid(quads).at(5, 5) == [0]


def test_zero_size_quad_is_never_hit():
    assert GlyphGrid(np.array([box(5, 5, 5, 5)])).at(5, 5) == []


def test_grid_hit_agrees_with_a_scan_on_many_glyphs():
    rng = np.random.default_rng(7)
    origins = rng.uniform(0, 600, size=(2000, 2))
    sizes = rng.uniform(2, 20, size=(2000, 1))
    quads = np.stack(
        [origins, origins + [1, 0] * sizes, origins + sizes, origins + [0, 1] * sizes], axis=1
    )
    grid = GlyphGrid(quads)
    for x, y in rng.uniform(0, 600, size=(200, 2)):
        inside = (
            (quads[:, 0, 0] <= x)
            & (x <= quads[:, 2, 0])
            & (quads[:, 0, 1] <= y)
            & (y <= quads[:, 2, 1])
        )
        assert grid.at(x, y) == sorted(np.flatnonzero(inside).tolist(), reverse=True)


def test_pane_chars_of_glyphs_include_every_character_of_a_ligature():
    pane = PaneText.make("reading", "fi x", [4, 4, -1, 7])
    assert pane.chars_of([4]).tolist() == [0, 1]


def test_pane_glyphs_in_a_selection_skip_inserted_characters():
    pane = PaneText.make("reading", "ab cd", [0, 1, -1, 2, 3])
    assert pane.glyphs_in(1, 4) == [1, 2]


def test_pane_with_no_map_links_nothing():
    pane = PaneText.make("structure", "text", None)
    assert pane.chars_of([0]).tolist() == []
    assert pane.glyphs_in(0, 4) == []


def test_overprinted_page_sized_glyphs_are_indexed_once_each():
    # 20,000 glyphs drawn over one another, each covering the whole page: entered in every
    # cell they touch, they would make 184 million entries (1.3 GB).
    quads = np.repeat(np.array([box(0, 0, 612, 792)]), 20_000, axis=0)
    grid = GlyphGrid(quads)
    assert grid.entry_count == 20_000
    assert grid.at(300, 400)[:3] == [19_999, 19_998, 19_997]
    assert len(grid.at(300, 400)) == 20_000


def test_huge_glyphs_among_small_ones_are_still_hit_in_drawing_order():
    quads = np.array([box(0, 0, 10, 10), box(-1000, -1000, 1000, 1000), box(500, 500, 510, 510)])
    grid = GlyphGrid(quads)
    assert grid.entry_count <= len(quads) * MAX_CELLS_PER_GLYPH
    assert grid.at(5, 5) == [1, 0]
    assert grid.at(505, 505) == [2, 1]
    assert grid.at(200, 300) == [1]
