"""The decision log and the CLI's JSON (core.jsontext, through orjson) are strict JSON whose
values are those of the dictionaries (`to_json()`, glyph_to_json): floats by value (orjson's
spelling), nan and ±inf as null, non-ASCII as UTF-8, a lone surrogate as its escape, written
from the glyph and decision columns a chunk at a time; the decisions held as columns
(core.text.decisions) are the records the pair-by-pair reading order makes."""

from __future__ import annotations

import io
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core import cli
from glyphscope.core.analysis import analyse_page, analysis_json
from glyphscope.core.document import Document
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.jsontext import Converted, dumps, encoded
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import (
    DecisionJson,
    GlyphJson,
    explain_report,
    glyph_to_json,
    json_rows,
)
from glyphscope.core.text.decisions import GapColumns, GapDecision, LineBreakColumns
from glyphscope.core.text.pairs import GapReason
from glyphscope.core.text.reading import reading_order
from glyphscope.core.text.visible import visible_glyphs
from tests import hostile
from tests.test_analysis import analyse
from tests.test_json_rows import _canonical, _strict
from tests.test_text_arrays import _pages, _rules

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text()
    | st.sampled_from(list(GapReason))
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(_values, st.booleans())
def test_any_value_is_written_as_strict_json_of_its_values(value, indent):
    """Lone surrogates and ints beyond 64 bits (which orjson refuses) included."""
    assert _canonical(_strict(dumps(value, indent))) == _canonical(value)


def test_floats_nan_and_text_spelling():
    text = dumps({"x": [1e-05, 1e16, -0.0, math.nan, -math.inf], "t": "é\ud800\n"})
    assert text.startswith(b'{"x":[0.00001,')  # orjson's spelling, the value json reads
    assert b",-0.0,null,null]" in text
    assert text.endswith(b'"t":"\xc3\xa9\\ud800\\n"}')
    assert _strict(text)["t"] == "é\ud800\n"


def test_indent_is_two_spaces_a_level_and_rows_are_one_a_line():
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td (ab) Tj 0 -14 Td (cd) Tj ET", "helvetica")
    text = analysis.to_json_text(indent=True)
    assert text.startswith('{\n  "page": 1,\n  "readable": true,')
    glyph_lines = [line for line in text.splitlines() if line.startswith('    {"index":')]
    assert len(glyph_lines) == len(analysis.glyphs)
    assert _canonical(_strict(text.encode())) == _canonical(analysis.to_json())


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
def test_decision_columns_write_the_records_values(page, rules):
    glyphs, order = page
    result = reading_order(GlyphColumns.from_glyphs(glyphs), order, rules)
    for decisions in (result.gaps, result.line_breaks):
        expected = [record._asdict() for record in decisions]
        assert repr(list(DecisionJson(decisions))) == repr(expected)
        for indent in (False, True):
            written = dumps(DecisionJson(decisions), indent)
            assert _canonical(_strict(written)) == _canonical(expected)


@settings(max_examples=150, deadline=None)
@given(_pages(max_size=30), st.booleans(), st.booleans())
def test_glyph_rows_write_the_glyph_dictionaries_values(page, indexed, indent):
    glyphs, order = page
    columns = GlyphColumns.from_glyphs(glyphs)
    rows = sorted(set(order))
    expected = list(GlyphJson(glyphs, 7, rows, indexed))  # glyph_to_json of each record
    assert json.dumps(list(GlyphJson(columns, 7, rows, indexed))) == json.dumps(expected)
    written = dumps(GlyphJson(columns, 7, rows, indexed), indent)
    assert _canonical(_strict(written)) == _canonical(expected)


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
def test_the_log_text_is_strict_json_of_to_json(content, fonts):
    analysis = analyse(content, "cjk-vertical" if fonts == "v" else fonts)
    for indent in (False, True):
        text = analysis.to_json_text(indent)
        assert _canonical(_strict(text.encode())) == _canonical(analysis.to_json())


def test_explain_writes_strict_json_of_the_report_with_non_finite_numbers_as_null():
    with Document.open(hostile.huge_text_matrix()) as document:
        document.source = "huge.pdf"
        analysis = analyse_page(document.page(0), Rules())
        out = io.BytesIO()
        cli._write_explain(document, [0, 0], Rules(), out)
    assert any(glyph.get("non_finite") for glyph in analysis.to_json()["glyphs"])
    report = explain_report("huge.pdf", Rules(), [analysis.to_json()] * 2)
    assert out.getvalue().endswith(b"\n}\n")
    assert _canonical(_strict(out.getvalue())) == _canonical(report)
    assert _canonical(_strict(analysis.to_json_text().encode())) == _canonical(analysis.to_json())


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
    lines = out.getvalue().splitlines()
    assert [_canonical(_strict(line)) for line in lines] == [
        _canonical(glyph_to_json(glyphs[row], 1)) for row in rows
    ]


def test_the_report_is_streamed_a_page_and_a_chunk_of_rows_at_a_time():
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ 0 -14 Td (\xe9t) Tj ET")
    made = []

    def page(number: int) -> object:
        made.append(number)
        return analysis_json(analysis, json_rows)

    pieces = encoded(explain_report("f.pdf", Rules(), Converted([1, 2], page)), indent=True)
    first = [next(pieces) for _ in range(3)]
    assert made == [1] and all(isinstance(piece, bytes) for piece in first)
    text = b"".join(first + list(pieces))
    assert made == [1, 2]
    report = explain_report("f.pdf", Rules(), [analysis.to_json()] * 2)
    assert _canonical(_strict(text)) == _canonical(report)


def test_a_lone_surrogate_in_a_glyph_text_is_written_as_its_escape():
    # A ToUnicode CMap can map a code to one half of a surrogate pair: orjson refuses such a
    # str, and the writer writes json's \ud800 escape, which reads back as the same str.
    analysis = analyse(b"BT /F1 12 Tf 72 700 Td (abcdef) Tj ET", "helvetica")
    glyphs = analysis.glyphs
    assert isinstance(glyphs, GlyphColumns)
    texts = ['"', "\\", "\n", "é", "\ud800", '"']
    replaced = glyphs.with_records(
        {row: glyphs[row]._replace(text=text) for row, text in enumerate(texts)}
    )
    records = GlyphJson(replaced, 1, indexed=True)
    written = dumps({"odd": "\udfff", "glyphs": records})
    assert b'"unicode":"\\ud800"' in written and b'"odd":"\\udfff"' in written
    expected = {"odd": "\udfff", "glyphs": list(records)}
    assert _canonical(_strict(written)) == _canonical(expected)
