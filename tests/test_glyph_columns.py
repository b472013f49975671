"""GlyphColumns: the page's glyphs as arrays give back, row for row, the records they hold."""

from __future__ import annotations

import dataclasses
import json
import math
import pickle

import numpy as np
import pytest

from glyphscope.core import glyph_table as glyph_table_module
from glyphscope.core.document import Document
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.interpret.interpreter import interpret_page
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import GlyphJson, glyph_to_json
from glyphscope.core.text.arrays import GlyphRows
from tests.pdfbuilder import PdfBuilder


def _page_glyphs():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 720 Td (Hello) Tj 3 Ts [(W) -250 (orld)] TJ ET"
        b" /P <</MCID 4>> BDC BT /F1 9 Tf 2 0 0.5 2 100 100 Tm (x) Tj ET EMC",
        fonts={"F1": helv},
    )
    with Document.open(builder.to_bytes()) as document:
        return list(interpret_page(document.page(0), Rules()).glyphs)


def _same(a, b) -> bool:
    """Field for field, floats by their bits (repr tells -0.0 from 0.0)."""
    return repr(a) == repr(b) and type(a.mcid) is type(b.mcid)


@pytest.mark.parametrize("listed", [True, False], ids=["lists", "arrays"])
def test_columns_give_back_every_record(monkeypatch, listed):
    glyphs = _page_glyphs()
    if not listed:
        monkeypatch.setattr(glyph_table_module, "LISTED_GLYPHS", 0)
    columns = GlyphColumns.from_glyphs(glyphs)
    assert len(columns) == len(glyphs) == 11
    assert all(_same(c, g) for c, g in zip(columns, glyphs, strict=True))
    assert columns[-1].mcid == 4 and columns[0].mcid is None
    assert _same(columns[3], glyphs[3])
    assert [g.text for g in columns[2:5]] == ["l", "l", "o"]
    with pytest.raises(IndexError):
        columns[len(glyphs)]


def test_row_records_read_the_arrays_without_the_list_cache():
    glyphs = _page_glyphs()
    columns = GlyphColumns.from_glyphs(glyphs)
    records = columns.row_records()
    assert len(records) == len(glyphs)
    assert all(_same(records[i], glyphs[i]) for i in range(len(glyphs)))
    assert _same(records[-1], glyphs[-1]) and [g.text for g in records[2:5]] == ["l", "l", "o"]
    with pytest.raises(IndexError):
        records[len(glyphs)]
    assert columns._listed == []


def test_columns_pickle_without_their_list_cache():
    columns = GlyphColumns.from_glyphs(_page_glyphs())
    columns[0]  # fills the list cache
    copy = pickle.loads(pickle.dumps(columns))
    assert copy._listed == []
    assert all(_same(c, g) for c, g in zip(copy, columns, strict=True))


def test_text_ids_number_the_distinct_texts_in_order_of_first_appearance():
    glyphs = _page_glyphs()
    columns = GlyphColumns.from_glyphs(glyphs)
    ids, distinct = columns.text_ids()
    assert distinct == list(dict.fromkeys(g.text for g in glyphs))
    assert [distinct[number] for number in ids.tolist()] == [g.text for g in glyphs]
    assert columns.text_ids()[0] is ids  # made once
    changed = columns.with_records({1: glyphs[1]._replace(text="Q")})
    assert [changed.text_ids()[1][n] for n in changed.text_ids()[0].tolist()][:3] == [
        "H",
        "Q",
        "l",
    ]
    assert pickle.loads(pickle.dumps(columns))._text_ids == []


def test_rows_of_records_and_of_columns_give_the_same_text_ids():
    glyphs = _page_glyphs()
    rows = [4, 0, 2, 2, len(glyphs) - 1]
    for held in (glyphs, GlyphColumns.from_glyphs(glyphs)):
        ids, distinct = GlyphRows(held, rows).text_ids()
        assert [distinct[number] for number in ids.tolist()] == [glyphs[r].text for r in rows]
        assert GlyphRows(held, rows).per_text(len, np.int64).tolist() == [
            len(glyphs[r].text) for r in rows
        ]


def test_columns_keep_non_finite_numbers():
    glyph = _page_glyphs()[0]._replace(origin=(math.inf, math.nan), font_size=-0.0)
    (back,) = GlyphColumns.from_glyphs([glyph])
    assert math.isinf(back.origin[0]) and math.isnan(back.origin[1])
    assert math.copysign(1.0, back.font_size) == -1.0


def test_empty_columns():
    assert len(GlyphColumns.empty()) == 0 and list(GlyphColumns.empty()) == []


@pytest.mark.parametrize("indexed", [False, True])
def test_glyph_json_over_columns_equals_glyph_to_json(indexed):
    glyphs = _page_glyphs()
    glyphs[2] = glyphs[2]._replace(origin=(math.inf, 1.0))  # written as null, marked
    columns = GlyphColumns.from_glyphs(glyphs)
    rows = [0, 2, 5, 10]
    expected = [
        {"index": i, **glyph_to_json(glyphs[i], 3)} if indexed else glyph_to_json(glyphs[i], 3)
        for i in rows
    ]
    written = list(GlyphJson(columns, 3, rows=rows, indexed=indexed))
    assert json.dumps(written) == json.dumps(expected)
    assert written[1]["non_finite"] is True and written[1]["origin"] == [None, 1.0]
    # Over records, and one row at a time, the same.
    assert json.dumps(list(GlyphJson(glyphs, 3, rows=rows, indexed=indexed))) == json.dumps(
        expected
    )
    assert GlyphJson(columns, 3, rows=rows, indexed=indexed)[3] == expected[3]


def test_two_columns_compare_as_their_records_do():
    glyphs = _page_glyphs()
    columns = GlyphColumns.from_glyphs(glyphs)
    assert columns == GlyphColumns.from_glyphs(glyphs) and columns == glyphs
    for changed in (
        glyphs[2]._replace(text="L"),
        glyphs[2]._replace(font_size=glyphs[2].font_size + 1e-9),
        glyphs[2]._replace(mcid=7),
        glyphs[2]._replace(form_path="Fm1"),
    ):
        other = [*glyphs[:2], changed, *glyphs[3:]]
        assert (columns == GlyphColumns.from_glyphs(other)) is (glyphs == other) is False
    assert columns != GlyphColumns.from_glyphs(glyphs[:-1])
    # A NaN is unequal to itself in a record (a float compared by value), so in a column too.
    nan = [glyphs[0]._replace(origin=(math.nan, 1.0)), *glyphs[1:]]
    assert GlyphColumns.from_glyphs(nan) != GlyphColumns.from_glyphs(nan)
    assert list(GlyphColumns.from_glyphs(nan)) != list(GlyphColumns.from_glyphs(nan))


def _from_table(strings: list[str], table: list[str]) -> np.ndarray:
    """A string column held as an object array made from `table` by codes."""
    codes = [table.index(text) for text in strings]
    return np.array(table, dtype=object)[codes]


def test_columns_whose_strings_come_from_differently_ordered_tables_compare_by_the_strings():
    glyphs = _page_glyphs()
    columns = GlyphColumns.from_glyphs(glyphs)
    table = sorted(set(columns.text))
    forward = dataclasses.replace(columns, text=_from_table(columns.text, table))
    backward = dataclasses.replace(columns, text=_from_table(columns.text, table[::-1]))
    held_as_tuple = dataclasses.replace(columns, font_key=tuple(columns.font_key))
    assert forward == backward == columns == held_as_tuple == glyphs
    other = dataclasses.replace(columns, text=_from_table(columns.text[::-1], table))
    assert forward != other and list(forward) != list(other)
    # A number column is not a string column of the same length.
    assert dataclasses.replace(columns, code=columns.text) != columns
