"""Line diffs of a page's text before and after a change of the rules (core.qa.diffing)."""

from __future__ import annotations

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.qa.diffing import LineChange, line_diff, mode_text
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import TJ_CONTENT


def test_equal_texts_have_no_rows():
    assert line_diff("a\nb", "a\nb") == []


def test_a_changed_line_is_paired_with_its_context():
    rows = line_diff("one\nTJ spaced\nthree", "one\nTJspaced\nthree")
    assert rows == [
        LineChange("equal", "one", "one"),
        LineChange("replace", "TJ spaced", "TJspaced"),
        LineChange("equal", "three", "three"),
    ]


def test_a_split_line_shows_as_a_replacement_and_an_insertion():
    rows = line_diff("a b", "a\nb", context=0)
    assert rows == [LineChange("replace", "a b", "a"), LineChange("insert", None, "b")]


def test_unchanged_lines_far_from_a_change_are_left_out_with_a_gap_row():
    before = "\n".join(f"line {n}" for n in range(10))
    after = before.replace("line 1", "LINE 1").replace("line 8", "LINE 8")
    tags = [row.tag for row in line_diff(before, after)]
    assert tags == ["equal", "replace", "equal", "gap", "equal", "replace", "equal"]


def test_mode_text_reads_each_mode_of_an_analysis(tmp_path):
    b = PdfBuilder()
    b.add_page(TJ_CONTENT, media_box=(0, 0, 200, 160), fonts={"F1": b.standard_font("Helvetica")})
    b.save(tmp_path / "tj.pdf")
    with Document.open(tmp_path / "tj.pdf") as document:
        analysis = analyse_page(document.page(0), Rules())
    assert mode_text(analysis, "reading") == "TJ spaced\nPlain words"
    assert mode_text(analysis, "columns") == "TJ spaced\nPlain words"
    assert mode_text(analysis, "structure") == ""
