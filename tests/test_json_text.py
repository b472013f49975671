"""The decision log written as JSON text from the columns (core.jsontext) is, character for
character, what `json` writes of the dictionaries; the decisions held as columns
(core.text.decisions) are the records the pair-by-pair reading order makes."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core import cli, jsontext
from glyphscope.core.analysis import analyse_page
from glyphscope.core.columns import GlyphColumns
from glyphscope.core.document import Document
from glyphscope.core.jsontext import JsonWriter
from glyphscope.core.records import finite_json
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import (
    DecisionJson,
    GlyphJson,
    analysis_json,
    explain_report,
    glyph_to_json,
    json_rows,
)
from glyphscope.core.text.decisions import GapColumns, GapDecision, LineBreakColumns
from glyphscope.core.text.pairs import GapReason
from glyphscope.core.text.reading import reading_order
from glyphscope.core.text.visible import visible_glyphs
from tests import hostile, text_reference
from tests.test_analysis import analyse
from tests.test_text_arrays import _pages, _rules

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)
_LAYOUTS = [(None, True), (None, False), (1, False), (0, True), (2, True)]


def _dumps(value: object, indent: int | None, ensure_ascii: bool, finite: bool) -> str:
    if finite:
        value = finite_json(value)
    return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, allow_nan=not finite)


@settings(max_examples=500, deadline=None)
@given(_values, st.sampled_from(_LAYOUTS), st.booleans())
def test_the_writer_writes_what_json_writes(value, layout, finite):
    indent, ensure_ascii = layout
    writer = JsonWriter(indent, ensure_ascii, finite)
    assert writer.text(value) == _dumps(value, indent, ensure_ascii, finite)


_int_items = st.integers(-(2**70), 2**70) | st.sampled_from([0, -1, 7, True, False, 1.5])
_int_lists = st.lists(
    st.lists(_int_items, max_size=4) | st.tuples(_int_items, _int_items) | st.just([]),
    max_size=5,
)


@settings(max_examples=500, deadline=None)
@given(_int_lists | st.lists(_int_lists, max_size=3), st.sampled_from(_LAYOUTS))
def test_lists_of_int_lists_are_written_as_json_writes_them(value, layout):
    """Layout's lines and a band's glyph columns, written a list of lists at once: the same
    text as json's, an item that is not an exact int (a bool, a float, beyond int64) or not a
    list included."""
    indent, ensure_ascii = layout
    writer = JsonWriter(indent, ensure_ascii)
    assert writer.text(value) == _dumps(value, indent, ensure_ascii, False)


def test_floats_are_written_by_their_bits():
    values = np.array([0.0, -0.0, 1e-320, 0.1 + 0.2, math.inf, -math.inf, math.nan, 0.0])
    assert JsonWriter().floats(values) == list(map(json.dumps, values.tolist()))
    assert JsonWriter(finite=True).floats(values)[4:7] == ["null"] * 3


def test_integer_columns_wide_and_narrow():
    narrow, wide = np.array([3, -2, 3, 0]), np.array([0, 10**15, -(10**12)])
    assert JsonWriter().ints(narrow) == ["3", "-2", "3", "0"]
    assert JsonWriter().ints(wide) == ["0", "1000000000000000", "-1000000000000"]


def test_gap_columns_are_the_records_they_hold():
    gaps = (
        GapDecision(0, 1, 0.5, 1.5, False, GapReason.BELOW_THRESHOLD),
        GapDecision(1, 2, -0.0, math.inf, False, GapReason.NEGATIVE_GAP),
    )
    columns = GapColumns.from_records(gaps)
    assert columns == gaps and repr(columns) == repr(gaps) and columns[1:] == gaps[1:]
    assert math.copysign(1.0, columns[1].gap) == -1.0
    assert [type(field) for field in columns[0]] == [type(field) for field in gaps[0]]
    assert GapColumns.joined([columns.rows(1, 2), columns.rows(0, 1)]) == gaps[::-1]
    # A field that columns would not give back as it is: no columns.
    assert GapColumns.from_records([gaps[0]._replace(gap=1)]) is None
    assert LineBreakColumns.joined([]) == ()


@settings(max_examples=200, deadline=None)
@given(_pages(), _rules)
def test_decision_columns_write_the_records_json(page, rules):
    glyphs, order = page
    reference = text_reference.reading_order(glyphs, order, rules)
    result = reading_order(GlyphColumns.from_glyphs(glyphs), order, rules)
    for decisions, records in (
        (result.gaps, reference.gaps),
        (result.line_breaks, reference.line_breaks),
    ):
        expected = [record._asdict() for record in records]
        assert repr(list(DecisionJson(decisions))) == repr(expected)
        for indent, ensure_ascii in _LAYOUTS[:3]:
            for finite in (False, True):
                written = JsonWriter(indent, ensure_ascii, finite).text(DecisionJson(decisions))
                assert written == _dumps(expected, indent, ensure_ascii, finite)


@settings(max_examples=150, deadline=None)
@given(_pages(max_size=30), st.booleans(), st.sampled_from(_LAYOUTS))
def test_glyph_rows_write_the_glyph_dictionaries(page, indexed, layout):
    glyphs, order = page
    indent, ensure_ascii = layout
    columns = GlyphColumns.from_glyphs(glyphs)
    rows = sorted(set(order))
    expected = list(GlyphJson(glyphs, 7, rows, indexed))  # glyph_to_json of each record
    assert json.dumps(list(GlyphJson(columns, 7, rows, indexed))) == json.dumps(expected)
    written = JsonWriter(indent, ensure_ascii, True).text(GlyphJson(columns, 7, rows, indexed))
    assert written == _dumps(expected, indent, ensure_ascii, True)


@pytest.mark.parametrize(
    ("content", "fonts"),
    [
        (b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ 0 -14 Td (\xe9t\xe9) Tj ET", "helvetica"),
        (b"BT /F1 12 Tf 72 700 Td (dup) Tj ET BT /F1 12 Tf 72.2 700 Td (dup) Tj ET", "helvetica"),
        (b"BT /F1 10 Tf 180 700 Td <000A000B> Tj ET BT /F1 10 Tf 200 700 Td <0004> Tj ET", "v"),
        (b"BT /F1 10 Tf 3 Tc 72 700 Td <000400050006000700080009> Tj ET", "cjk"),
    ],
    ids=["lines", "duplicates", "vertical", "cjk"],
)
def test_the_log_text_is_json_of_to_json(content, fonts):
    analysis = analyse(content, "cjk-vertical" if fonts == "v" else fonts)
    assert analysis.to_json_text() == json.dumps(analysis.to_json())
    assert analysis.to_json_text(1, False, True) == _dumps(analysis.to_json(), 1, False, True)


def test_explain_writes_json_of_the_report_with_non_finite_numbers_as_null():
    with Document.open(hostile.huge_text_matrix()) as document:
        document.source = "huge.pdf"
        analysis = analyse_page(document.page(0), Rules())
        out = io.BytesIO()
        cli._write_explain(document, [0, 0], Rules(), out)
    assert any(glyph.get("non_finite") for glyph in analysis.to_json()["glyphs"])
    report = explain_report("huge.pdf", Rules(), [analysis.to_json()] * 2)
    expected = json.dumps(finite_json(report), indent=1, ensure_ascii=False, allow_nan=False)
    assert out.getvalue().decode("utf-8") == expected + "\n"
    assert analysis.to_json_text() == json.dumps(analysis.to_json())


@pytest.mark.parametrize("mode", ["glyphs", "visible"])
def test_glyph_lines_are_json_of_each_glyph_record(tmp_path, mode):
    path = tmp_path / "huge.pdf"
    path.write_bytes(hostile.huge_text_matrix())
    out = io.BytesIO()
    cli.run(cli.build_parser().parse_args(["--mode", mode, str(path)]), out)
    with Document.open(path) as document:
        page = document.page(0)
        glyphs = page.extract(Rules()).glyphs
        rows = range(len(glyphs))
        if mode == "visible":
            rows = visible_glyphs(glyphs, page.visible_box, Rules()).visible
    expected = [json.dumps(glyph_to_json(glyphs[row], 1), ensure_ascii=False) for row in rows]
    assert out.getvalue().decode("utf-8").splitlines() == expected


def test_the_log_text_without_the_compiled_writer_is_the_same(monkeypatch):
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ 0 -14 Td (ef) Tj ET", "helvetica")
    compiled = analysis.to_json_text(), analysis.to_json_text(1, False, True)
    monkeypatch.setattr(jsontext, "_compiled_join_rows", None)
    monkeypatch.setattr(jsontext, "_CompiledFloatTexts", None)
    monkeypatch.setattr(jsontext, "_compiled_join_ints", None)
    monkeypatch.setattr(jsontext, "_CompiledTextBuffer", None)
    jsontext.shared_writer.cache_clear()  # its writers hold the compiled FloatTexts
    try:
        assert (analysis.to_json_text(), analysis.to_json_text(1, False, True)) == compiled
    finally:
        jsontext.shared_writer.cache_clear()
    assert compiled[0] == json.dumps(analysis.to_json())


@pytest.mark.parametrize("compiled", [True, False])
def test_encoded_blocks_are_the_utf8_of_the_text(monkeypatch, compiled):
    analysis = analyse(
        b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ 0 -14 Td (\xe9t) Tj ET", "helvetica"
    )
    if not compiled:
        monkeypatch.setattr(jsontext, "_CompiledTextBuffer", None)
    writer = JsonWriter(1, False, True)
    report = analysis_json(analysis, json_rows)
    blocks = list(writer.encoded(report, size=300))
    assert all(len(block) >= 300 for block in blocks[:-1]) and len(blocks) > 2
    assert b"".join(blocks) == writer.text(report).encode("utf-8")
    assert writer.text(report) == _dumps(analysis.to_json(), 1, False, True)


def test_a_lone_surrogate_beside_rows_is_written_as_json_writes_it():
    # Not UTF-8: the compiled buffer refuses it, and the text is written in Python.
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td (ab) Tj ET", "helvetica")
    value = {"odd": "\ud800", "log": analysis_json(analysis, json_rows)}
    expected = {"odd": "\ud800", "log": analysis.to_json()}
    assert JsonWriter(None, False).text(value) == json.dumps(expected, ensure_ascii=False)
    assert JsonWriter().text(value) == json.dumps(expected)


def test_pages_written_by_one_shared_writer_are_written_as_by_a_fresh_writer():
    # The float and string texts a shared writer keeps from a page are the texts of the next.
    first = analyse(b"BT /F1 12 Tf 72 700 Td (ab) Tj 0 -14 Td (ab) Tj ET", "helvetica")
    second = analyse(b"BT /F1 12 Tf 72 686 Td (ba) Tj 0.5 -14 Td (c) Tj ET", "helvetica")
    for analysis in (first, second, first):
        assert analysis.to_json_text() == json.dumps(analysis.to_json())
        assert analysis.to_json_text() == jsontext.JsonWriter().text(
            analysis_json(analysis, json_rows)
        )


def test_glyph_texts_written_through_their_ids_are_the_texts_json_writes():
    # The glyph text field is a table of the page's distinct texts, each quoted once; texts
    # that need escapes, a non-ASCII one and a lone surrogate (written in Python) among them.
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td (abcdef) Tj ET", "helvetica")
    glyphs = analysis.glyphs
    assert isinstance(glyphs, GlyphColumns)
    texts = ['"', "\\", "\n", "é", "\ud800", '"']
    replaced = glyphs.with_records(
        {row: glyphs[row]._replace(text=text) for row, text in enumerate(texts)}
    )
    records = GlyphJson(replaced, 1, indexed=True)
    for indent, ensure_ascii in ((None, True), (2, False)):
        expected = json.dumps(list(records), indent=indent, ensure_ascii=ensure_ascii)
        assert JsonWriter(indent, ensure_ascii).text(records) == expected
