"""The compiled row writer (core/_jsonrows.pyx) writes, character for character, what
jsontext.join_rows_in_python writes: every kind of field (constant, listed texts, tables,
int64 columns with their extremes, nullable ints, float columns, quoted string columns),
replaced rows, non-ASCII texts, and texts that are not UTF-8 (lone surrogates), which the
compiled writer refuses and join_rows then writes in Python. Its FloatTexts hold the texts
float_table_in_python's tables do, however many values it has kept from before."""

from __future__ import annotations

import json
import json.encoder
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core import jsontext
from glyphscope.core.jsontext import (
    Floats,
    Nullable,
    Quoted,
    Table,
    float_table_in_python,
    join_rows,
    join_rows_in_python,
)

compiled = pytest.importorskip("glyphscope.core._jsonrows")

# One FloatTexts and one dict of quoted texts for every example, as a shared writer keeps them.
_FLOAT_TEXTS = compiled.FloatTexts("NaN", "Infinity", "-Infinity")
_QUOTED: dict[str, str] = {}

_INT64 = st.integers(-(2**63), 2**63 - 1)
_texts = st.text(max_size=6)
_ascii = st.text(st.characters(max_codepoint=127), max_size=6)
_doubles = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)


@st.composite
def _field(draw, count: int, texts):
    kinds = ["constant", "listed", "table", "ints", "nullable", "floats", "quoted"]
    kind = draw(st.sampled_from(kinds))
    if kind == "constant":
        return draw(texts)
    if kind == "floats":
        values = draw(
            st.lists(_doubles | st.sampled_from([0.0, -0.0]), min_size=count, max_size=count)
        )
        array = np.array(values, dtype=np.float64)
        # Read in place whatever its stride: a point's x, a quad's corner, a reversed view.
        layout = draw(st.sampled_from(["contiguous", "strided", "reversed"]))
        if layout == "strided":
            array = np.stack([array, -array, array]).T[:, 0]
        elif layout == "reversed":
            array = array[::-1].copy()[::-1]
        return Floats(array, _FLOAT_TEXTS)
    if kind == "quoted":
        column = draw(st.lists(texts, min_size=1, max_size=4))
        rows = draw(st.lists(st.integers(0, len(column) - 1), min_size=count, max_size=count))
        quote = json.encoder.encode_basestring_ascii
        return Quoted(column, np.array(rows, dtype=np.int64), _QUOTED, quote)
    if kind == "listed":
        return draw(st.lists(texts, min_size=count, max_size=count))
    if kind == "table":
        table = draw(st.lists(texts, min_size=1, max_size=5))
        codes = draw(st.lists(st.integers(0, len(table) - 1), min_size=count, max_size=count))
        return Table(np.array(codes, dtype=np.intp), table)
    values = np.array(draw(st.lists(_INT64, min_size=count, max_size=count)), dtype=np.int64)
    if kind == "ints":
        return values
    null = int(values[0]) if count and draw(st.booleans()) else np.iinfo(np.int64).min
    return Nullable(values, null, draw(texts))


@st.composite
def _rows(draw, texts=_texts):
    count = draw(st.integers(0, 8))
    fields = draw(st.lists(_field(count, texts), max_size=5))
    between = draw(st.lists(texts, min_size=len(fields) + 1, max_size=len(fields) + 1))
    replaced = draw(st.dictionaries(st.integers(0, max(count - 1, 0)), texts, max_size=count))
    return between, fields, count, draw(texts), replaced


@settings(max_examples=500, deadline=None)
@given(_rows(_ascii) | _rows(st.text(st.characters(blacklist_categories=["Cs"]), max_size=6)))
def test_compiled_rows_are_the_python_rows(rows):
    assert compiled.join_rows(*rows) == join_rows_in_python(*rows)


@settings(max_examples=300, deadline=None)
@given(_rows())
def test_rows_with_any_text_are_the_python_rows(rows):
    # Lone surrogates included: the compiled writer refuses them, join_rows writes in Python.
    assert join_rows(*rows) == join_rows_in_python(*rows)


def _fill(buffer, pieces) -> str:
    """Write each piece into `buffer` (a str as text, else as rows); the text they make."""
    expected = []
    for piece in pieces:
        if isinstance(piece, str):
            buffer.write(piece)
            expected.append(piece)
        else:
            buffer.rows(*piece)
            expected.append(join_rows_in_python(*piece))
    return "".join(expected)


@settings(max_examples=200, deadline=None)
@given(st.lists(_rows() | _texts, max_size=5))
def test_a_text_buffer_holds_its_pieces_and_rows_in_turn(pieces):
    buffer = compiled.TextBuffer()
    expected = _fill(buffer, pieces)
    assert buffer.text() == expected
    assert len(buffer) == len(expected.encode("utf-8"))
    assert buffer.take() == expected.encode("utf-8")
    assert len(buffer) == 0 and buffer.text() == ""
    buffer.write("é")
    assert buffer.take() == "é".encode()


@settings(max_examples=200, deadline=None)
@given(st.lists(_rows() | _texts, max_size=5), st.integers(0, 3))
def test_a_text_buffer_hands_over_its_text_and_starts_again_empty(pieces, repeat):
    """take_text() is text() once, the buffer emptied: the str its ASCII bytes were written
    into, or their decoding; a buffer used again after it holds only what came after."""
    buffer = compiled.TextBuffer()
    for _ in range(repeat + 1):
        expected = _fill(buffer, pieces)
        assert buffer.text() == expected
        taken = buffer.take_text()
        assert taken == expected and type(taken) is str
        assert len(buffer) == 0 and buffer.take_text() == "" and buffer.text() == ""
        buffer.write("x" * 5000)
        assert buffer.take_text() == "x" * 5000


def test_a_row_repeating_the_previous_rows_value_is_written_by_its_own_bits_and_text():
    # The writer reuses the previous row's float and quoted text where the bits, or the str
    # object, are the same: 0.0 and -0.0, and equal strs that are other objects, are not.
    floats = np.array([0.0, -0.0, -0.0, 0.0, 1.5, 1.5, np.nan, -np.nan, 0.1 + 0.2])
    same, other = "ab", "".join(["a", "b"])
    column = [same, other, "é", same]
    rows = np.array([0, 0, 1, 3, 2, 2, 1, 0, 3])
    quote = json.encoder.encode_basestring
    for texts in (compiled.FloatTexts("NaN", "Infinity", "-Infinity"), _FLOAT_TEXTS):
        fields = [Floats(floats, texts), Quoted(column, rows, {}, quote)]
        arguments = (["[", ", ", "]"], fields, len(floats), ",", {})
        assert join_rows(*arguments) == join_rows_in_python(*arguments)
        assert join_rows(*arguments).startswith('[0.0, "ab"],[-0.0, "ab"],[-0.0, "ab"]')


def test_a_lone_surrogate_is_refused_by_the_compiled_writer():
    with pytest.raises(UnicodeEncodeError):
        compiled.join_rows(["", ""], [["\ud800"]], 1, ", ", {})
    assert join_rows(["[", "]"], [["\ud800"]], 1, ", ") == "[\ud800]"


def test_malformed_fields_raise_instead_of_reading_past_their_arrays():
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [Table(np.array([2], dtype=np.intp), ["a"])], 1, "", {})
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [np.array([1, 2])], 3, "", {})
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [["a"]], 2, "", {})
    with pytest.raises(ValueError):
        compiled.join_rows([""], [np.array([1])], 1, "", {})
    with pytest.raises(TypeError):
        compiled.join_rows(["", ""], [[1]], 1, "", {})
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [Floats(np.array([1.0]), _FLOAT_TEXTS)], 2, "", {})
    quote = json.encoder.encode_basestring_ascii
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [Quoted(["a"], np.array([1]), {}, quote)], 1, "", {})
    with pytest.raises(ValueError):
        compiled.join_rows(["", ""], [Quoted(["a"], np.array([-1]), {}, quote)], 1, "", {})


def test_without_the_compiled_writer_the_writer_writes_the_same(monkeypatch):
    rows = (["{", ": ", "}"], [np.array([1, -2]), Table(np.array([1, 0]), ["a", "b"])], 2)
    expected = join_rows(*rows, ", ")
    monkeypatch.setattr(jsontext, "_compiled_join_rows", None)
    assert join_rows(*rows, ", ") == expected == "{1: b}, {-2: a}"


@settings(max_examples=400, deadline=None)
@given(st.lists(_doubles | st.sampled_from([0.0, -0.0, 1.5, 72.0]), max_size=40), st.booleans())
def test_compiled_float_texts_are_the_python_tables_texts(values, finite):
    array = np.array(values, dtype=np.float64)
    writer = jsontext.JsonWriter(finite=finite)
    expected = float_table_in_python(array, writer.float_text)
    assert writer.floats(array) == [expected.texts[code] for code in expected.codes.tolist()]
    assert writer.floats(array) == [writer.float_text(value) for value in values]
    # each distinct bit pattern converted once, and kept for the next call
    assert len(writer._float_texts) == len(expected.texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=200))
def test_compiled_float_texts_of_any_bit_pattern_are_float_repr(patterns):
    # Ryu's shortest digits laid out as repr lays them out (core/_float_repr.h).
    values = np.array(patterns, dtype=np.uint64).view(np.float64)
    values = values[np.isfinite(values)]
    texts = compiled.FloatTexts("NaN", "Infinity", "-Infinity")
    assert texts.texts(values) == list(map(float.__repr__, values.tolist()))


def test_compiled_float_texts_where_repr_changes_layout_or_rounds_are_float_repr():
    powers = 10.0 ** np.arange(-325, 309)
    edges = [np.nextafter(powers, np.inf), np.nextafter(powers, -np.inf), powers]
    integers = np.arange(2**53 - 40, 2**53 + 40, dtype=np.int64).astype(np.float64)
    rng = np.random.default_rng(9)
    decimals = rng.integers(-(10**9), 10**9, 20_000) / 10.0 ** rng.integers(0, 12, 20_000)
    pdf_like = rng.uniform(-1000, 1000, 20_000) * rng.uniform(0, 2, 20_000)
    special = [5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 9999999999999998.0]
    values = np.concatenate([*edges, integers, decimals, pdf_like, special, np.arange(-999, 1000)])
    values = np.concatenate([values, -values])
    texts = compiled.FloatTexts("NaN", "Infinity", "-Infinity")
    assert texts.texts(values) == list(map(float.__repr__, values.tolist()))


def test_float_texts_keep_their_texts_as_their_table_grows_and_after_clear():
    texts = compiled.FloatTexts("null", "Infinity", "-Infinity")
    values = np.arange(5000, dtype=np.float64) / 7
    expected = list(map(float.__repr__, values.tolist()))
    assert texts.texts(values[:10]) == expected[:10]
    assert texts.texts(values) == expected  # the table grown several times over
    assert texts.texts(values[::-1]) == expected[::-1]
    assert len(texts) == 5000
    texts.clear()
    assert len(texts) == 0
    assert texts.texts(np.array([math.nan, -math.inf, 0.5])) == ["null", "-Infinity", "0.5"]
    assert texts.texts(values) == expected  # the emptied table filled again
    assert len(texts) == 5003


def test_a_writer_forgets_its_texts_beyond_what_it_keeps(monkeypatch):
    monkeypatch.setattr(jsontext, "_FLOAT_TEXTS_KEPT", 3)
    writer = jsontext.JsonWriter()
    values = np.array([0.25, 0.5, 0.75, 1.0, 1.25])
    field = writer.float_column(values)
    assert writer.rows("\x00", 0, 5, [field], ",") == "0.25,0.5,0.75,1.0,1.25"
    assert len(writer._float_texts) == 5
    assert writer.rows("\x00", 0, 1, [writer.float_column(values[:1])], ",") == "0.25"
    assert len(writer._float_texts) == 1


def test_nan_of_another_bit_pattern_is_written_as_nan():
    quiet, negative = np.array([math.nan]), -np.array([math.nan])
    array = np.concatenate([quiet, negative])
    assert jsontext.JsonWriter().floats(array) == ["NaN", "NaN"]
    assert jsontext.JsonWriter(finite=True).floats(array) == ["null", "null"]


_ints = st.integers(-(2**63), 2**63 - 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ints, max_size=40), st.sampled_from([", ", ",\n  ", ""]), st.booleans())
def test_compiled_int_lists_are_int_reprs_joined(values, separator, as_tuple):
    items = tuple(values) if as_tuple else values
    assert compiled.join_ints(items, separator) == separator.join(map(int.__repr__, values))


def test_an_int_list_the_compiled_writer_refuses_is_written_in_python():
    with pytest.raises(OverflowError):
        compiled.join_ints([1, 2**63], ", ")
    with pytest.raises(TypeError):
        compiled.join_ints([1, True], ", ")
    writer = jsontext.JsonWriter()
    for value in ([1, 2**63, -(2**70)], [1, True, 2], (3, False), [2, 1.5], list(range(40))):
        assert writer.text(value) == json.dumps(value)
        assert writer.text({"a": value}, 0) == json.dumps({"a": value})
    indented = jsontext.JsonWriter(indent=2)
    assert indented.text([[1, 2**64], [True, 0]]) == json.dumps([[1, 2**64], [True, 0]], indent=2)
