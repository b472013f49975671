"""The text stages' compiled loops decide exactly as their Python references
(tests/reference_paths.py): same text, same char_glyphs, same decision records with the same
floats (compared by repr, so -0.0, nan and a numpy scalar in place of a float all show), on
random pages of horizontal, rotated and vertical glyphs, blanks, CJK, ligatures, zero-height
and zero-width boxes and non-finite geometry, held as records or as GlyphColumns."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.geometry import quad_height, writing_direction
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.rules import Rules
from glyphscope.core.text import pairs, reading, visible
from glyphscope.core.text.arrays import GlyphRows, hypots, quad_heights, writing_directions
from glyphscope.core.text.chars import text_classes
from glyphscope.core.text.prepared import prepare_glyphs
from glyphscope.core.text.reading import reading_order
from tests.glyphbuilder import make_glyph
from tests.reference_paths import reference_paths
from tests.test_accents_actual_text import _page as _accent_page

_TEXTS = ["a", "b", "W", "1", " ", "\u00a0", "\u3000", "", "\t", "\x01", "中", "文", "あ"]
_TEXTS += ["ﬁ", "ffi", "\u0301", "\u00a8", "ب", "א", "a ", "中a"]
_DAMAGE = ["none"] * 14 + ["flat", "point", "inf_origin", "nan_quad", "nan_top", "nan_end"]
_DAMAGE += ["inf_size", "huge"]

_step = st.tuples(
    st.sampled_from(_TEXTS),
    st.sampled_from([0.0, 0.0, 0.5, 1.0, 1.5, 1.6, 3.0, 8.0, -4.0, -40.0]),  # along the pen
    st.sampled_from([0.0, 0.0, 0.0, 0.7, 3.0, 4.9, 5.1, 12.0, -12.0, -30.0]),  # up the page
    st.sampled_from([10.0, 10.0, 12.0, 4.0, 0.0]),  # size
    st.sampled_from([None, None, 0.0, 3.0]),  # advance (0: a degenerate writing direction)
    st.sampled_from([0.0, 0.0, 0.0, 90.0, 45.0, 180.0, 12.5, -30.0]),  # angle
    st.sampled_from([0, 0, 0, 0, 1]),  # writing mode
    st.sampled_from(_DAMAGE),
)


def _page(steps):
    """Glyphs placed one after another from the pen, each moved and damaged as its step says."""
    glyphs = []
    x, y = 72.0, 700.0
    for order, (text, dx, dy, size, advance, angle, mode, damage) in enumerate(steps):
        extents = {"ascent": 0.0, "descent": 0.0} if damage == "flat" else {}
        glyph = make_glyph(
            text, x, y, size, advance, angle, writing_mode=mode, draw_order=order, **extents
        )
        if damage == "point":  # no edge, no pen move: the nominal direction of the mode
            origin = glyph.origin
            glyph = glyph._replace(
                quad=(origin,) * 4, glyph_end=origin, baseline_end=origin, font_size=0.0
            )
        elif damage == "inf_origin":
            glyph = glyph._replace(origin=(math.inf, glyph.origin[1]))
        elif damage == "nan_quad":
            glyph = glyph._replace(quad=(glyph.quad[0], (math.nan, 1.0), *glyph.quad[2:]))
        elif damage == "nan_top":  # no height: the larger of two heights is taken as max() does
            glyph = glyph._replace(quad=(*glyph.quad[:3], (glyph.quad[3][0], math.nan)))
        elif damage == "huge":  # finite numbers whose differences overflow
            glyph = glyph._replace(quad=((-1e308, -1e308), (1e308, 1e308), *glyph.quad[2:]))
        elif damage == "nan_end":
            glyph = glyph._replace(glyph_end=(math.nan, math.nan))
        elif damage == "inf_size":
            glyph = glyph._replace(font_size=math.inf)
        glyphs.append(glyph)
        end = glyph.glyph_end if math.isfinite(sum(glyph.glyph_end)) else (x, y)
        x, y = end[0] + dx, end[1] + dy
    return glyphs


_rules = st.builds(
    Rules,
    line_break_ratio=st.sampled_from([0.5, 0.5, 0.0, 0.25, 2.0]),
    space_gap_ratio=st.sampled_from([0.15, 0.15, 0.0, 0.3]),
    expand_ligatures=st.booleans(),
    bidi_reorder=st.booleans(),
)


@st.composite
def _pages(draw, max_size=60):
    glyphs = _page(draw(st.lists(_step, max_size=max_size)))
    count = len(glyphs)
    order = draw(
        st.one_of(
            st.just(list(range(count))),
            st.permutations(range(count)),
            st.lists(st.integers(0, max(count - 1, 0)), max_size=count if count else 0),
        )
    )
    return glyphs, order


@settings(max_examples=400, deadline=None)
@given(_pages(), _rules)
def test_reading_order_compiled_decides_as_the_reference(page, rules):
    glyphs, order = page
    with reference_paths():
        expected = repr(reading_order(glyphs, order, rules))
    assert repr(reading_order(glyphs, order, rules)) == expected
    assert repr(reading_order(GlyphColumns.from_glyphs(glyphs), order, rules)) == expected


@settings(max_examples=150, deadline=None)
@given(_pages(), _rules)
def test_reading_order_without_decisions_writes_the_same_text(page, rules):
    glyphs, order = page
    full = reading_order(glyphs, order, rules)
    text_only = reading_order(GlyphColumns.from_glyphs(glyphs), order, rules, decisions=False)
    assert repr(text_only.text) == repr(full.text)
    assert text_only.vertical_columns == full.vertical_columns
    assert text_only.bidi_runs == full.bidi_runs
    assert text_only.gaps == () and text_only.line_breaks == ()


def test_text_mode_makes_no_decision_records(monkeypatch):
    def refuse(pairs):
        raise AssertionError("text mode asked for the decision log")

    page = _accent_page(b"BT /F1 10 Tf 72 700 Td (ab cd) Tj 0 -20 Td (ef) Tj ET")
    analysis = page.analysis()
    assert len(analysis.line_breaks) == 6 and len(analysis.gaps) == 5
    monkeypatch.setattr(reading, "_decisions", refuse)
    assert page.text() == "ab cd\nef"


_boxes = st.sampled_from(
    [(0.0, 0.0, 612.0, 792.0), (80.0, 650.0, 200.0, 720.0), (100.0, 100.0, 100.0, 100.0)]
)


@settings(max_examples=200, deadline=None)
@given(_pages(), _boxes)
def test_box_filter_compiled_drops_as_the_reference(page, box):
    glyphs, _ = page
    with reference_paths():
        expected = repr(visible._box_filter(glyphs, box))
    assert repr(visible._box_filter(glyphs, box)) == expected
    assert repr(visible._box_filter(GlyphColumns.from_glyphs(glyphs), box)) == expected


@settings(max_examples=150, deadline=None)
@given(_pages(max_size=120), _boxes)
def test_visible_glyphs_of_columns_are_those_of_records(page, box):
    glyphs, _ = page
    # Copies in the pen's wake: fake bold, slightly shifted.
    glyphs = glyphs + [g._replace(origin=(g.origin[0] + 0.3, g.origin[1])) for g in glyphs]
    glyphs = [g._replace(draw_order=i) for i, g in enumerate(glyphs)]
    expected = repr(visible.visible_glyphs(glyphs, box, Rules()))
    assert repr(visible.visible_glyphs(GlyphColumns.from_glyphs(glyphs), box, Rules())) == expected


@settings(max_examples=200, deadline=None)
@given(_pages())
def test_directions_heights_and_sizes_per_row_are_the_record_functions(page):
    glyphs, order = page
    for source in (glyphs, GlyphColumns.from_glyphs(glyphs)):
        rows = GlyphRows(source, order)
        ux, uy = writing_directions(rows)
        pairs = list(zip(ux.tolist(), uy.tolist(), strict=True))
        assert repr(pairs) == repr([writing_direction(glyphs[i]) for i in order])
        heights = quad_heights(rows.quads()).tolist()
        assert repr(heights) == repr([quad_height(glyphs[i].quad) for i in order])
        sizes = visible.drawn_sizes(rows).tolist()
        assert repr(sizes) == repr([float(visible.drawn_size(glyphs[i])) for i in order])


_COMPONENTS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True),
    st.sampled_from([0.0, -0.0, 5e-324, 1.7976931348623157e308, 1e-310, 3.0, -4.0]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_COMPONENTS, _COMPONENTS), max_size=40))
def test_hypots_are_math_hypot_bit_for_bit(vectors):
    # On an axis the magnitude is taken over the arrays, off it math.hypot: the same bits.
    dx = np.array([x for x, _ in vectors], dtype=np.float64)
    dy = np.array([y for _, y in vectors], dtype=np.float64)
    expected = [math.hypot(x, y) for x, y in zip(dx.tolist(), dy.tolist(), strict=True)]
    assert repr(hypots(dx, dy).tolist()) == repr(expected)


def _prepared_both(page):
    extraction = page.extract()
    records = list(extraction.glyphs)
    order = visible.visible_glyphs(records, page.visible_box, Rules()).visible
    spans = extraction.replacements
    from_records = prepare_glyphs(records, order, spans, Rules())
    from_columns = prepare_glyphs(GlyphColumns.from_glyphs(records), order, spans, Rules())
    return records, from_records, from_columns


def test_prepared_glyphs_that_change_nothing_are_the_glyphs_given():
    page = _accent_page(b"BT /F1 10 Tf 72 700 Td (plain text) Tj ET")
    records, from_records, from_columns = _prepared_both(page)
    assert from_records.glyphs is records and from_columns.accents == ()
    columns = GlyphColumns.from_glyphs(records)
    assert prepare_glyphs(columns, range(len(records)), (), Rules()).glyphs is columns
    assert prepare_glyphs(records, range(len(records)), (), Rules()).glyphs is records


def test_prepared_columns_hold_the_records_prepared_records_hold():
    # A merged accent (TeX's "na\"{\i}ve") and an ActualText span change two rows: the
    # base, which writes the composed letter, and the span's first glyph.
    page = _accent_page(
        b"BT /F1 10 Tf 72 700 Td [(na\\250) 305 (\\200ve)] TJ ( x ) Tj"
        b" /Span <</ActualText (ffi)>> BDC (XY) Tj EMC ET",
        differences=[128, "dotlessi"],
    )
    records, from_records, from_columns = _prepared_both(page)
    assert isinstance(from_columns.glyphs, GlyphColumns)
    assert isinstance(from_records.glyphs, tuple)
    changed = [i for i, g in enumerate(from_records.glyphs) if g != records[i]]
    assert len(changed) == 2 and from_records.glyphs[changed[-1]].decode_source == "actual_text"
    assert repr(list(from_columns.glyphs)) == repr(list(from_records.glyphs))
    assert from_columns.order == from_records.order
    assert from_columns.accents == from_records.accents
    assert reading_order(from_columns.glyphs, from_columns.order, Rules()).text.text == (
        "na\u00efve x ffi"
    )


def test_columns_with_records_replace_only_those_rows():
    glyphs = _page([("a", 0.0, 0.0, 10.0, None, 0.0, 0, "none")] * 3)
    columns = GlyphColumns.from_glyphs(glyphs)
    new = glyphs[1]._replace(text="ﬁ", mcid=7, quad=((1.0, 2.0),) * 4, decode_source="x")
    copy = columns.with_records({1: new})
    assert repr(list(copy)) == repr([glyphs[0], new, glyphs[2]])
    assert repr(list(columns)) == repr(glyphs)  # the original is left alone
    assert columns.with_records({}) is columns


@settings(max_examples=300, deadline=None)
@given(_pages(), _rules)
def test_compiled_pair_numbers_are_the_arrays_bit_for_bit(page, rules):
    # The compiled loop (_pairs.pyx) against the numpy path it replaces, on records and on
    # columns: every number by repr (-0.0, nan, inf), every dtype.
    if pairs._pair_numbers is pairs.pair_numbers_in_python:
        return  # extension not built: reading_pairs runs the numpy path itself
    glyphs, order = page
    for held in (glyphs, GlyphColumns.from_glyphs(glyphs)):
        rows = GlyphRows(held, order)
        texts = rows.texts()
        classes = np.array([text_classes(t)[:3] for t in texts], dtype=bool).reshape(-1, 3)
        compiled = pairs._pair_numbers(rows, classes, rules)
        numpy_path = pairs.pair_numbers_in_python(GlyphRows(held, order), classes, rules)
        for got, expected in zip(compiled, numpy_path, strict=True):
            assert got.dtype == expected.dtype and got.shape == expected.shape
            assert repr(got.tolist()) == repr(expected.tolist())


@settings(max_examples=200, deadline=None)
@given(_pages(), _boxes)
def test_compiled_box_filter_is_the_arrays(page, box):
    if visible._box_rows is None:
        return  # extension not built: _box_filter runs the numpy path itself
    glyphs, _ = page
    for held in (glyphs, GlyphColumns.from_glyphs(glyphs)):
        compiled = visible._compiled_box(GlyphRows(held), box)
        numpy_path = visible._box_in_python(GlyphRows(held), box)
        assert [part.tolist() for part in compiled] == [part.tolist() for part in numpy_path]
        assert [part.dtype for part in compiled] == [part.dtype for part in numpy_path]


try:
    import glyphscope.core.interpret._glyph_table as _compiled_columns
except ImportError:  # built without a C compiler: the Python paths are all there is
    _compiled_columns = None
_needs_compiled = pytest.mark.skipif(_compiled_columns is None, reason="_columns not built")


@_needs_compiled
@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.sampled_from(_TEXTS), max_size=30),
    rows=st.lists(st.integers(-40, 40), max_size=40),
)
def test_a_string_column_gathered_in_c_is_the_python_gather(values, rows):
    index = np.array(rows, dtype=np.intp)
    try:
        expected = list(map(values.__getitem__, index.tolist()))
    except IndexError:
        with pytest.raises(IndexError):
            _compiled_columns.gathered(values, index)
        return
    gathered = _compiled_columns.gathered(values, index)
    assert gathered == expected
    assert all(a is b for a, b in zip(gathered, expected, strict=True))
    assert _compiled_columns.gathered(values, index[::-2]) == expected[::-2]


@_needs_compiled
@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 2**40), max_size=50))
def test_a_list_of_rows_made_an_index_in_c_is_numpy_s(rows):
    index = _compiled_columns.row_index(rows)
    expected = np.fromiter(rows, dtype=np.intp, count=len(rows))
    assert index.dtype == expected.dtype
    assert index.tobytes() == expected.tobytes()
