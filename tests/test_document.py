"""Opening documents (typed errors, passwords) and page geometry (§7.7.3, §14.11.2)."""

from __future__ import annotations

import re

import pikepdf
import pytest

from glyphscope.core.document import Document
from glyphscope.core.errors import (
    DamagedPdfError,
    NotAPdfError,
    PageIndexError,
    PasswordRequiredError,
    UnreadableFileError,
    WrongPasswordError,
)
from glyphscope.core.interpret.interpreter import EXTRACTIONS_KEPT
from tests.pdfbuilder import Encrypt, PdfBuilder


def _one_page(**page_args) -> bytes:
    builder = PdfBuilder()
    builder.add_page(b"", **page_args)
    return builder.to_bytes()


def test_bytes_without_pdf_header_raise_not_a_pdf():
    with pytest.raises(NotAPdfError):
        Document.open(b"hello, world")


def test_empty_file_raises_not_a_pdf(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(NotAPdfError):
        Document.open(path)


def test_missing_file_raises_unreadable(tmp_path):
    with pytest.raises(UnreadableFileError):
        Document.open(tmp_path / "nope.pdf")


@pytest.mark.parametrize(
    "content",
    [b"", b" \r\n\t", b"hello, world", b"x" * 2000 + b"%PDF-1.7", None],
    ids=["empty", "blank", "no header", "header too late", "a folder"],
)
def test_a_file_start_is_refused_with_the_error_open_would_raise(tmp_path, content):
    from glyphscope.core.pdf.document import check_file_start

    path = tmp_path / "file.pdf"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    with pytest.raises((NotAPdfError, UnreadableFileError)) as opened:
        Document.open(path)
    with pytest.raises(type(opened.value), match=f"^{re.escape(str(opened.value))}$"):
        check_file_start(path)


@pytest.mark.parametrize(
    "content",
    [_one_page(), b"junk from a mailer\n" * 20 + _one_page(), b" " * 2000 + b"%PDF-1.7"],
    ids=["a PDF", "junk before its header", "a long blank start"],
)
def test_a_file_start_that_may_be_a_pdf_is_left_to_open(tmp_path, content):
    from glyphscope.core.pdf.document import check_file_start

    path = tmp_path / "file.pdf"
    path.write_bytes(content)
    check_file_start(path)  # the last one is refused by open, from the whole file


def test_header_with_garbage_body_raises_damaged():
    with pytest.raises(DamagedPdfError):
        Document.open(b"%PDF-1.7\n" + b"\x00garbage" * 10)


@pytest.mark.parametrize("algorithm", ["rc4-40", "rc4-128", "aes-128", "aes-256"])
def test_encrypted_file_opens_with_user_or_owner_password(algorithm):
    builder = PdfBuilder()
    builder.add_page(b"")
    data = builder.save(encrypt=Encrypt("usr", "own", algorithm))
    assert Document.open(data, password="usr").page_count == 1
    assert Document.open(data, password="own").page_count == 1


def test_encrypted_file_without_password_says_one_is_required():
    builder = PdfBuilder()
    builder.add_page(b"")
    data = builder.save(encrypt=Encrypt("usr", "own", "aes-256"))
    with pytest.raises(PasswordRequiredError) as caught:
        Document.open(data)
    assert not isinstance(caught.value, WrongPasswordError)


def test_wrong_password_is_its_own_error():
    builder = PdfBuilder()
    builder.add_page(b"")
    data = builder.save(encrypt=Encrypt("usr", "own", "aes-128"))
    with pytest.raises(WrongPasswordError):
        Document.open(data, password="nope")


def test_visible_box_is_crop_box_clipped_to_media_box():
    page = Document.open(_one_page(media_box=(0, 0, 600, 800), crop_box=(-50, 100, 500, 900))).page(
        0
    )
    assert page.crop_box == (-50, 100, 500, 900)
    assert page.visible_box == (0, 100, 500, 800)


def test_crop_box_defaults_to_media_box_and_corners_are_normalised():
    page = Document.open(_one_page(media_box=(600, 800, 0, 0))).page(0)
    assert page.media_box == page.crop_box == page.visible_box == (0, 0, 600, 800)


def test_rotate_is_normalised_to_a_quarter_turn():
    assert Document.open(_one_page(rotate=-90)).page(0).rotate == 270
    assert Document.open(_one_page(rotate=450)).page(0).rotate == 90


def test_media_box_and_rotate_are_inherited_from_the_page_tree():
    builder = PdfBuilder()
    builder.add_page(b"")
    pages = builder.pdf.Root.Pages
    pages.MediaBox = pikepdf.Array([0, 0, 300, 400])
    pages.Rotate = 180
    del builder.page_object(0)["/MediaBox"]
    page = Document.open(builder.to_bytes()).page(0)
    assert (page.media_box, page.rotate) == ((0, 0, 300, 400), 180)


def test_user_unit_defaults_to_one():
    assert Document.open(_one_page()).page(0).user_unit == 1.0
    assert Document.open(_one_page(user_unit=2.5)).page(0).user_unit == 2.5


def test_page_outside_the_document_raises_page_index_error():
    with pytest.raises(PageIndexError):
        Document.open(_one_page()).page(1)


def test_opening_does_not_interpret_any_page():
    builder = PdfBuilder()
    for _ in range(1000):
        builder.add_page(b"BT /F1 10 Tf (a) Tj ET")
    document = Document.open(builder.to_bytes())
    assert document.page_count == 1000
    assert document._pages == {} and document.font_cache == {}


def test_crop_box_missing_the_media_box_leaves_the_media_box_visible():
    page = Document.open(_one_page(media_box=(0, 0, 600, 800), crop_box=(700, 900, 800, 1000)))
    assert page.page(0).visible_box == (0, 0, 600, 800)


def test_only_the_last_few_page_extractions_are_kept():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    for _ in range(20):
        builder.add_page(b"BT /F1 10 Tf (a) Tj ET", fonts={"F1": helv})
    document = Document.open(builder.to_bytes())
    for page in document.pages:
        page.glyphs()
    assert len(document.extraction_cache) == EXTRACTIONS_KEPT
    first = document.page(19).extract()
    assert document.page(19).extract() is first
