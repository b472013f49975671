"""The public library API at `import glyphscope`: open, pages, glyphs, texts, analysis, errors."""

from __future__ import annotations

import pytest

import glyphscope
import glyphscope.errors
from tests.pdfbuilder import PdfBuilder

HELLO = b"BT /F1 12 Tf 72 700 Td (Hello) Tj 30 0 Td (World) Tj ET"
OFF_PAGE = b"BT /F1 12 Tf 72 900 Td (Gone) Tj ET"


def _two_pages() -> bytes:
    builder = PdfBuilder()
    font = builder.standard_font()
    builder.add_page(HELLO, fonts={"F1": font}, crop_box=(0, 0, 612, 792))
    builder.add_page(OFF_PAGE + b" " + HELLO, fonts={"F1": font}, rotate=90)
    return builder.to_bytes()


def test_open_takes_bytes_and_paths_alike(tmp_path):
    data = _two_pages()
    path = tmp_path / "two.pdf"
    path.write_bytes(data)
    with glyphscope.open(data) as from_bytes, glyphscope.open(path) as from_path:
        assert from_bytes.pages[0].text() == from_path.pages[0].text() == "Hello World"


def test_pages_are_a_lazy_zero_based_sequence():
    with glyphscope.open(_two_pages()) as document:
        pages = document.pages
        assert len(pages) == 2
        assert pages[-1] is pages[1] is document.page(1)
        assert [page.number for page in pages] == [1, 2]
        assert [page.index for page in pages[0:2]] == [0, 1]
        with pytest.raises(glyphscope.errors.PageIndexError):
            pages[2]


def test_glyphs_and_visible_glyphs_are_records():
    with glyphscope.open(_two_pages()) as document:
        page = document.pages[1]
        painted = page.glyphs()
        visible = page.visible_glyphs()
        assert all(isinstance(g, glyphscope.Glyph) for g in [*painted, *visible])
        assert "".join(g.text for g in painted) == "GoneHelloWorld"
        assert "".join(g.text for g in visible) == "HelloWorld"  # "Gone" lies off the page


def test_text_in_every_mode_and_rules_by_name():
    with glyphscope.open(_two_pages()) as document:
        page = document.pages[0]
        assert page.text("reading") == page.text() == "Hello World"
        assert page.text("layout").split() == ["Hello", "World"]
        assert page.text("columns") == "Hello World"
        assert page.text("structure") == "Hello World"  # untagged: reading order
        tight = glyphscope.Rules(space_gap_ratio=100.0)
        assert page.text("reading", tight) == "HelloWorld"
        with pytest.raises(glyphscope.errors.TextModeError):
            page.text("poetry")


def test_analysis_is_the_decision_log():
    with glyphscope.open(_two_pages()) as document:
        log = document.pages[0].analysis().to_json()
        assert log["page"] == 1 and log["reading"]["text"] == "Hello World"
        assert [gap["space"] for gap in log["gaps"]] == [False] * 4 + [True] + [False] * 4


def test_boxes_answer_the_page_geometry():
    with glyphscope.open(_two_pages()) as document:
        boxes = document.pages[1].boxes
        assert isinstance(boxes, glyphscope.PageBoxes)
        assert boxes.media_box == boxes.visible_box == (0, 0, 612, 792)
        assert (boxes.rotate, boxes.user_unit) == (90, 1.0)


def test_every_public_error_derives_from_glyphscope_error():
    for name in glyphscope.errors.__all__:
        error = getattr(glyphscope.errors, name)
        assert issubclass(error, glyphscope.errors.GlyphscopeError)
    with pytest.raises(glyphscope.errors.NotAPdfError):
        glyphscope.open(b"hello")


def test_public_names_are_declared():
    for name in glyphscope.__all__:
        assert getattr(glyphscope, name) is not None
    assert glyphscope.__version__
