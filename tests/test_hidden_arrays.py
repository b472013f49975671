"""Hidden text over arrays (core.text.hidden, issue 9) finds exactly the glyphs and reasons
it found glyph by glyph (tests/text_reference.py): on random pages of render modes, clipping
boxes in force from a glyph on (some of them None, some starting together), dropped glyphs of
every reason, pixel-test answers and tiny-height thresholds at and beside glyph heights, the
glyphs held as records or as GlyphColumns; and on corpus pages."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.geometry import quad_height
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret.interpreter import extract_page
from glyphscope.core.pdf.document import PdfDocument
from glyphscope.core.rules import Rules
from glyphscope.core.text.hidden import hidden_glyphs
from glyphscope.core.text.visible import DroppedGlyph, DropReason, visible_glyphs
from tests import text_reference
from tests.corpus import CORPUS
from tests.test_text_arrays import _page, _step

_BOXES = [
    None,
    (0.0, 0.0, 612.0, 792.0),
    (70.0, 690.0, 120.0, 720.0),
    (100.0, 100.0, 100.0, 100.0),
    (-math.inf, -math.inf, math.inf, math.inf),
    (math.nan, 0.0, 612.0, 792.0),
]


@st.composite
def _hidden_inputs(draw):
    steps = draw(st.lists(_step, max_size=50))
    modes = draw(st.lists(st.integers(0, 7), min_size=len(steps), max_size=len(steps)))
    glyphs = [
        glyph._replace(render_mode=mode) for glyph, mode in zip(_page(steps), modes, strict=True)
    ]
    count = len(glyphs)
    index = st.integers(0, count + 2)  # a few beyond the page: nothing to flag there
    starts = sorted(draw(st.lists(index, max_size=6)))
    clips = [(start, draw(st.sampled_from(_BOXES))) for start in starts]
    reasons = st.sampled_from(list(DropReason))
    dropped = [
        DroppedGlyph(index=i, reason=reason)
        for i, reason in draw(st.lists(st.tuples(index, reasons), max_size=count))
    ]
    no_ink = draw(st.frozensets(index, max_size=count))
    heights = [quad_height(glyph.quad) for glyph in glyphs]
    at = [h for h in heights if math.isfinite(h)]
    at += [math.nextafter(h, math.inf) for h in at] + [0.0, 1.0, 2.0, math.inf, math.nan]
    tiny = draw(st.sampled_from(at))
    return glyphs, clips, dropped, Rules(hidden_tiny_height=tiny), no_ink


@settings(max_examples=400, deadline=None)
@given(_hidden_inputs())
def test_hidden_glyphs_over_arrays_are_those_found_glyph_by_glyph(inputs):
    glyphs, clips, dropped, rules, no_ink = inputs
    expected = repr(text_reference.hidden_glyphs(glyphs, clips, dropped, rules, no_ink))
    assert repr(hidden_glyphs(glyphs, clips, dropped, rules, no_ink)) == expected
    columns = GlyphColumns.from_glyphs(glyphs)
    assert repr(hidden_glyphs(columns, clips, dropped, rules, no_ink)) == expected


_CORPUS_PAGES = (
    "pdfjs__tracemonkey",
    "pdfplumber__issue-67-example",
    "pypdf__geobase_nhnc1_data_model_uml_en",
)


@pytest.mark.parametrize("name", _CORPUS_PAGES)
def test_hidden_glyphs_of_corpus_pages_are_those_found_glyph_by_glyph(name):
    path = CORPUS / f"{name}.pdf"
    if not path.exists():
        pytest.skip("corpus not present")
    document = PdfDocument.open(path)
    rules = Rules()
    for number in range(min(document.page_count, 4)):
        page = document.page(number)
        extraction = extract_page(page, rules)
        glyphs = extraction.glyphs
        dropped = visible_glyphs(glyphs, page.visible_box, rules).dropped
        # Every fifth glyph as if the pixel test had found no ink under it.
        no_ink = frozenset(range(0, len(glyphs), 5))
        records = list(glyphs)
        expected = text_reference.hidden_glyphs(records, extraction.clips, dropped, rules, no_ink)
        assert hidden_glyphs(glyphs, extraction.clips, dropped, rules, no_ink) == expected
