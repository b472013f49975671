"""Whole documents to a stream (spec §10) and page ranges."""

from __future__ import annotations

import io

import pytest

from glyphscope.core.document import Document
from glyphscope.core.errors import GlyphscopeError, PageIndexError
from glyphscope.core.output import (
    PageRangeError,
    TextModeError,
    WriteReport,
    page_text,
    parse_page_range,
    write_document_text,
)
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder

RULES = Rules()


def three_pages() -> Document:
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    for word in ("one", "two", "three"):
        builder.add_page(f"BT /F1 12 Tf 72 700 Td ({word}) Tj ET".encode(), fonts={"F1": font})
    return Document.open(builder.to_bytes())


def written(document, **options) -> tuple[int, bytes]:
    stream = io.BytesIO()
    report = write_document_text(document, stream, rules=RULES, **options)
    return report.pages, stream.getvalue()


def test_every_page_joined_by_form_feeds_by_default():
    assert written(three_pages()) == (3, b"one\ftwo\fthree")


def test_empty_page_list_means_every_page():
    assert written(three_pages(), pages=[]) == (3, b"one\ftwo\fthree")


def test_selected_pages_in_the_order_given():
    assert written(three_pages(), pages=[2, 0]) == (2, b"three\fone")


def test_bom_comes_first_and_separator_is_configurable():
    assert written(three_pages(), pages=[0, 1], separator="\n--\n", bom=True) == (
        2,
        b"\xef\xbb\xbfone\n--\ntwo",
    )


def test_unreadable_page_is_written_empty_and_counted():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 12 Tf 72 700 Td (a) Tj ET", fonts={"F1": font})
    builder.add_page(None)
    builder.add_page(b"BT /F1 12 Tf 72 700 Td (c) Tj ET", fonts={"F1": font})
    assert written(Document.open(builder.to_bytes())) == (3, b"a\f\fc")


def test_text_is_utf8():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(b"BT /F1 12 Tf 72 700 Td (caf\xe9) Tj ET", fonts={"F1": font})
    assert written(Document.open(builder.to_bytes())) == (1, "café".encode())


def test_layout_mode_pads_on_the_grid():
    builder = PdfBuilder()
    font = builder.standard_font("Courier")
    builder.add_page(b"BT /F1 10 Tf 72 700 Td (a) Tj 30 0 Td (b) Tj ET", fonts={"F1": font})
    # Courier advances 6 at 10 pt: b's origin is 5 cells right of a's.
    assert written(Document.open(builder.to_bytes()), mode="layout") == (1, b"a    b")


def test_columns_mode_reads_each_column_in_turn():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 10 Tf 72 700 Td (a1) Tj 228 0 Td (b1) Tj -228 -12 Td (a2) Tj 228 0 Td (b2) Tj ET",
        fonts={"F1": font},
    )
    assert written(Document.open(builder.to_bytes()), mode="columns") == (1, b"a1\na2\nb1\nb2")


def test_structure_mode_falls_back_to_reading_order_without_a_tree():
    assert written(three_pages(), pages=[1], mode="structure") == (1, b"two")


def test_unknown_mode_is_a_typed_error():
    with pytest.raises(TextModeError):
        written(three_pages(), mode="html")


def test_page_outside_the_document_is_a_page_index_error():
    with pytest.raises(PageIndexError):
        written(three_pages(), pages=[5])


def test_page_text_of_one_page():
    assert page_text(three_pages().page(2), "text", RULES).text == "three"


def test_structure_mode_reports_why_a_page_fell_back():
    report = write_document_text(three_pages(), io.BytesIO(), pages=[1], mode="structure")
    assert (report.pages, report.structured_pages) == (1, ())
    assert report.notes == ("page 2: no structure tree; reading order used",)


def test_report_is_a_record_of_the_pages_written_and_the_notes():
    report = write_document_text(three_pages(), io.BytesIO())
    assert report == WriteReport(pages=3, notes=(), structured_pages=())
    # A record compares whole: it was an int subclass, equal to any report of as many pages.
    noted = write_document_text(three_pages(), io.BytesIO(), mode="structure")
    assert (noted.pages, noted != report, len(noted.notes)) == (3, True, 3)


def test_page_range_is_one_based_text_to_zero_based_indices():
    assert parse_page_range("1-3,7", 10) == [0, 1, 2, 6]


def test_empty_page_range_means_every_page():
    assert parse_page_range(" ", 3) == [0, 1, 2]


def test_open_page_range_runs_to_the_last_page():
    assert parse_page_range("4-", 6) == [3, 4, 5]


def test_repeated_pages_are_written_once_in_first_order():
    assert parse_page_range("3,1-3", 5) == [2, 0, 1]


def test_page_range_without_a_start_begins_at_the_first_page():
    assert parse_page_range("-2", 5) == [0, 1]


@pytest.mark.parametrize("text", ["0", "2-1", "11", "a", "1-x", "3-12"])
def test_bad_page_range_is_a_page_range_error(text):
    with pytest.raises(PageRangeError) as raised:
        parse_page_range(text, 10)
    assert isinstance(raised.value, GlyphscopeError)
    assert isinstance(raised.value, ValueError)
