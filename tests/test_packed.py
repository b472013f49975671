"""A page's analysis and view model cross from the analysis worker to the window as columns
(core.text.packed) and arrive as exactly the records that left: same values, same types."""

from __future__ import annotations

import pickle

import numpy as np

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.text.packed import PackedGlyphs, pack_glyphs
from glyphscope.core.view.page_model import build_page_model
from tests.glyphbuilder import make_glyph
from tests.pdfbuilder import PdfBuilder


def _busy_page() -> bytes:
    """50 tagged words, an untagged line painted twice 0.3 pt apart (fake bold: duplicates
    dropped) and a line printed above the page (dropped outside the visible box)."""
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    words = b"".join(
        b"/P <</MCID %d>> BDC (word%d) Tj ET BT /F1 9 Tf %d %d Td (word%d) Tj EMC "
        % (n, n, 40 + 50 * (n % 10), 700 - 14 * (n // 10), n)
        for n in range(50)
    )
    untagged = b"(plain words after the tagged ones) Tj"
    content = (
        b"BT /F1 9 Tf 40 700 Td " + words + b"ET "
        b"BT /F1 9 Tf 40 100 Td " + untagged + b" 0.3 0 Td " + untagged + b" ET "
        b"BT /F1 9 Tf 40 900 Td (off the page) Tj ET"
    )
    builder.add_page(content, fonts={"F1": helv})
    return builder.save()


def _roundtrip(value):
    buffers: list = []
    data = pickle.dumps(value, protocol=5, buffer_callback=buffers.append)
    return pickle.loads(data, buffers=buffers)


def _types(records) -> list[tuple[type, ...]]:
    return [tuple(type(field) for field in record) for record in records]


def test_an_analysis_comes_back_equal_with_the_same_record_types():
    with Document.open(_busy_page()) as document:
        analysis = analyse_page(document.page(0), Rules())
    assert len(analysis.glyphs) > 64 and analysis.gaps
    assert {d.reason for d in analysis.dropped} == {"duplicate", "outside_visible_box"}
    assert {g.mcid for g in analysis.glyphs} >= {None, 0, 49}
    copy = _roundtrip(analysis)
    assert copy == analysis
    assert _types(copy.glyphs) == _types(analysis.glyphs)
    assert [type(p) for g in copy.glyphs for p in g.quad] == [tuple] * 4 * len(copy.glyphs)
    assert _types(copy.gaps) == _types(analysis.gaps)
    assert [type(d.reason) for d in copy.dropped] == [type(d.reason) for d in analysis.dropped]
    assert copy.to_json() == analysis.to_json()


def test_a_page_model_comes_back_with_its_lookups_rebuilt():
    with Document.open(_busy_page()) as document:
        analysis = analyse_page(document.page(0), Rules())
    model = build_page_model(0, analysis, analysis.structure_reason)
    copy = _roundtrip(model)
    assert copy.glyphs is copy.analysis.glyphs
    assert copy.status == model.status and type(copy.status[0]) is type(model.status[0])
    assert copy.dropped == model.dropped
    assert copy.gaps_before == model.gaps_before and copy.gaps_after == model.gaps_after
    assert copy.breaks_before == model.breaks_before
    assert copy.kept_copies == model.kept_copies
    assert np.array_equal(copy.quads, model.quads)
    assert copy.panes["reading"].text == model.panes["reading"].text


def test_glyphs_whose_fields_would_not_come_back_exactly_are_not_packed():
    glyphs = tuple(make_glyph("a", 10.0 * n, 700.0) for n in range(100))
    assert isinstance(pack_glyphs(glyphs), PackedGlyphs)
    # An integer origin would come back as a float: such records pickle as they are.
    odd = (*glyphs[:50], glyphs[50]._replace(origin=(500, 700)), *glyphs[51:])
    assert pack_glyphs(odd) is odd
    assert _roundtrip(odd)[50].origin == (500, 700)
    assert type(_roundtrip(odd)[50].origin[0]) is int


def test_a_large_sequence_is_rebuilt_chunk_by_chunk_in_order():
    glyphs = tuple(make_glyph(chr(0x41 + n % 26), float(n), 700.0) for n in range(5_000))
    packed = pack_glyphs(glyphs)
    assert isinstance(packed, PackedGlyphs)
    assert packed.unpack() == glyphs
    assert all(type(g) is Glyph for g in packed.unpack())
