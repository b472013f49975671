"""The COS object browser's data (core.pdf.cos): the trailer, one level of children at a time,
references followed, streams decoded with a cap as text or hex, fonts located, repairs noted."""

from __future__ import annotations

import zlib

import pikepdf
import pytest

from glyphscope.core.pdf.cos import (
    TRAILER,
    CosAddress,
    CosError,
    RepairLog,
    as_text,
    children,
    font_address,
    hex_dump,
    page_address,
    resolve,
    roots,
    stream_at,
)
from glyphscope.core.pdf.document import PdfDocument
from tests.pdfbuilder import PdfBuilder

CONTENT = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"


@pytest.fixture
def pdf(tmp_path):
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    form = b.form_xobject(b"BT /F2 10 Tf (Form) Tj ET", bbox=(0, 0, 100, 100), fonts={"F2": helv})
    b.add_page(CONTENT, fonts={"F1": helv}, xobjects={"Fm1": form})
    b.save(tmp_path / "one.pdf")
    document = PdfDocument.open(tmp_path / "one.pdf")
    yield document.pdf
    document.close()


@pytest.fixture
def log(pdf):
    return RepairLog(pdf)


def by_key(nodes):
    return {node.key: node for node in nodes}


def test_the_root_is_the_trailer_with_its_entries(log):
    (root,) = roots(log)
    assert root.key == "trailer" and root.kind == "dictionary" and root.expandable
    entries = by_key(children(log, root.address))
    assert entries["/Root"].kind == "dictionary"
    assert entries["/Root"].summary == "1 0 R → dictionary /Catalog 2 entries"
    assert entries["/Size"].kind == "integer"


def test_a_reference_is_followed_under_the_objects_own_number(pdf, log):
    catalog = by_key(children(log, CosAddress(TRAILER)))["/Root"]
    assert catalog.address == CosAddress(catalog.objgen)
    pages = by_key(children(log, catalog.address))["/Pages"]
    kids = by_key(children(log, pages.address))["/Kids"]
    first = children(log, kids.address)[0]
    assert first.key == "[0]" and "/Page" in first.summary
    assert first.address == page_address(pdf, 0)


def test_a_page_shows_its_names_numbers_and_arrays_in_pdf_syntax(pdf, log):
    page = by_key(children(log, page_address(pdf, 0)))
    assert page["/Type"].summary == "/Page"
    assert page["/MediaBox"].summary == "[0 0 612 792]"


def test_a_content_stream_is_decoded_and_shown_as_text_and_hex(pdf, log):
    contents = by_key(children(log, page_address(pdf, 0)))["/Contents"]
    assert contents.kind == "stream"
    stream = stream_at(pdf, contents.address)
    assert stream.decoded and stream.data == CONTENT
    assert as_text(stream.data) == CONTENT.decode()
    assert hex_dump(b"BT\n") == "00000000  42 54 0a" + " " * 39 + "  BT."


def test_a_stream_larger_than_the_cap_is_cut_and_says_so(tmp_path):
    pdf = pikepdf.new()
    stream = pikepdf.Stream(pdf, zlib.compress(b"x" * 100_000), Filter=pikepdf.Name.FlateDecode)
    pdf.trailer.Big = pdf.make_indirect(stream)
    address = by_key(children(RepairLog(pdf), CosAddress(TRAILER)))["/Big"].address
    shown = stream_at(pdf, address, max_bytes=1000)
    assert shown.truncated and len(shown.data) == 1000 and shown.filters == ("/FlateDecode",)


def test_a_glyphs_font_is_found_in_its_page_or_form_resources(pdf):
    page_font = resolve(pdf, font_address(pdf, 0, "", "F1"))
    form_font = resolve(pdf, font_address(pdf, 0, "/Fm1", "F2"))
    assert page_font.BaseFont == form_font.BaseFont == "/Helvetica"
    assert font_address(pdf, 0, "/Fm1", "F2").keys[-3:] == ("/Resources", "/Font", "/F2")


def test_an_address_that_leads_nowhere_is_a_cos_error(pdf):
    with pytest.raises(CosError):
        resolve(pdf, CosAddress(TRAILER, ("/Nothing",)))


def test_an_object_qpdf_repaired_is_labelled(tmp_path):
    b = PdfBuilder()
    b.add_page(CONTENT, fonts={"F1": b.standard_font("Helvetica")})
    # A page dictionary with /Rotate twice (§7.3.7: keys are unique); the longer object also
    # moves the offsets after it, which qpdf recovers from.
    data = b.to_bytes().replace(b"/Type /Page >>", b"/Type /Page /Rotate 0 /Rotate 90 >>", 1)
    (tmp_path / "dup.pdf").write_bytes(data)
    document = PdfDocument.open(tmp_path / "dup.pdf")
    try:
        pdf = document.pdf
        log = RepairLog(pdf, document.opening_warnings)
        children(log, page_address(pdf, 0))  # reading the page makes qpdf warn
        notes = log.notes()
        assert any("duplicated key /Rotate" in n for n in notes[page_address(pdf, 0).root])
        assert any("reconstruct cross-reference table" in n for n in notes[None])
        assert "reconstruct" in roots(log)[0].note
        catalog = by_key(children(log, CosAddress(TRAILER)))["/Root"]
        pages = by_key(children(log, catalog.address))["/Pages"]
        kids = by_key(children(log, pages.address))["/Kids"]
        assert "repaired by qpdf" in children(log, kids.address)[0].note
    finally:
        document.close()


def test_a_summary_counts_one_entry_item_or_byte_in_the_singular():
    from glyphscope.core.pdf.cos import summarise

    one_key = pikepdf.Dictionary(Type=pikepdf.Name.Font)
    assert summarise(one_key) == "/Font 1 entry"
    assert summarise(pikepdf.Array([one_key])) == "1 item"
    assert summarise(pikepdf.Array([one_key] * 7)) == "7 items"
    assert summarise(pikepdf.Dictionary(A=1, B=2)) == "2 entries"
