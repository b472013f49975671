"""The row writer (core.jsontext): rows written into a record's template from column fields
read back as the records themselves: every float by its value (-0.0 included, nan and ±inf as
null), points and quads, integer, string and table columns, fields the same on every row
written into the template, and rows replaced by their own text."""

from __future__ import annotations

import json
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.jsontext import (
    POINT_SLOT,
    QUAD_SLOT,
    SLOT,
    column_field,
    join_rows,
    row_template,
    string_field,
    table_field,
)
from glyphscope.core.records import finite_json

_doubles = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)
_float_lists = st.lists(_doubles | st.sampled_from([0.0, -0.0, 72.0, 1e16, 1e-7]), max_size=12)


def _strict(text: bytes) -> object:
    """`text` parsed as strict JSON: NaN and Infinity are not JSON and fail the test."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def _canonical(value: object) -> str:
    """json's text of a JSON value: floats by repr (-0.0 apart from 0.0), non-finite as null."""
    return json.dumps(finite_json(value), ensure_ascii=False)


def _field_values(field, count: int, depth: int = 1) -> list[object]:
    """Each row's text of a field parsed in the brackets its slot has: "[…]" a point's, "[[…]]"
    a quad's (and a number's, read as a list of one)."""
    texts = [field] * count if isinstance(field, bytes) else field
    return [_strict(b"[" * depth + text + b"]" * depth) for text in texts]


@settings(max_examples=400, deadline=None)
@given(_float_lists)
def test_a_float_column_reads_back_as_its_values(values):
    array = np.array(values, dtype=np.float64)
    field = column_field(array)
    written = [value for (value,) in _field_values(field, len(values))]
    assert _canonical(written) == _canonical(values)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[_doubles] * 8), max_size=8), st.sampled_from(["C", "strided"]))
def test_point_and_quad_rows_read_back_as_their_numbers(rows, layout):
    quads = np.array(rows, dtype=np.float64).reshape(-1, 4, 2)
    if layout == "strided":  # a column read from a wider array, as a chunk's rows are
        quads = np.stack([quads, -quads], axis=1)[:, 0]
    count = len(quads)
    assert _canonical(_field_values(column_field(quads), count, 2)) == _canonical(quads.tolist())
    points = quads[:, 0]
    assert _canonical(_field_values(column_field(points), count)) == _canonical(points.tolist())


def test_a_column_the_same_on_every_row_is_one_text_but_minus_zero_is_not_zero():
    assert column_field(np.array([3, 3, 3])) == b"3"
    assert column_field(np.array([[1.5, 2.0]] * 3)) == b"1.5,2.0"
    assert column_field(np.array([0.0, -0.0])) == [b"0.0", b"-0.0"]
    assert column_field(np.array([math.nan, math.inf])) == [b"null", b"null"]
    assert column_field(np.array([], dtype=np.int64)) == []


def test_string_and_table_fields_quote_each_text_as_json():
    texts = ['"', "\\", "\n", "é", "a", "a"]
    field = string_field(texts)
    assert [_strict(text) for text in field] == texts
    assert string_field(["F1", "F1"]) == b'"F1"'
    assert table_field(np.array([1, 0, 1]), [b"false", b"true"]) == [b"true", b"false", b"true"]


_keys = st.text(min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(
    st.data(),
    st.lists(st.sampled_from(["int", "float", "point", "quad", "text"]), max_size=5),
    st.integers(0, 6),
)
def test_rows_read_back_as_the_records_they_were_written_from(data, kinds, count):
    """join_rows of a template and column fields is the records, each as json writes it;
    a replaced row is its own text."""
    keys = data.draw(st.lists(_keys, min_size=len(kinds), max_size=len(kinds), unique=True))
    example, fields, columns = {}, [], []
    for key, kind in zip(keys, kinds, strict=True):
        if kind == "text":
            values = data.draw(st.lists(st.text(max_size=3), min_size=count, max_size=count))
            example[key], field = SLOT, string_field(values)
        else:
            shape = {"int": (), "float": (), "point": (2,), "quad": (4, 2)}[kind]
            elements = st.integers(-(2**63), 2**63 - 1) if kind == "int" else _doubles
            flat = data.draw(
                st.lists(elements, min_size=count * math.prod(shape), max_size=count * 8)
            )
            array = np.array(flat[: count * math.prod(shape)]).reshape(count, *shape)
            slot = {"point": POINT_SLOT, "quad": QUAD_SLOT}.get(kind, SLOT)
            example[key], field, values = slot, column_field(array), array.tolist()
        fields.append(field)
        columns.append(values)
    records = [dict(zip(keys, row, strict=True)) for row in zip(*columns, strict=True)]
    if not kinds:
        records = [{} for _ in range(count)]
    replaced = {0: b'{"replaced":true}'} if count and data.draw(st.booleans()) else {}
    for row in replaced:
        records[row] = {"replaced": True}
    text = join_rows(row_template(example), fields, count, b",", replaced)
    assert _canonical(_strict(b"[" + text + b"]")) == _canonical(records)


def test_a_template_is_the_text_around_each_slot_of_its_example():
    template = row_template({"a": SLOT, "p": POINT_SLOT, "q": QUAD_SLOT})
    assert template == [b'{"a":', b',"p":[', b'],"q":[[', b"]]}"]
