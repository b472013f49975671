"""Hostile files (tests/hostile.py): small bytes that expand, absurd numbers, huge tables.
Each ends cleanly: the text that can be read, a warning naming the cap that was reached, and
output whose size is bounded by the rules. Bombs are built small here, against small caps;
the resource test (tests/fuzz/test_resources.py) runs the full-size ones under 1 GB."""

from __future__ import annotations

import io
import json
import os

import pytest

import glyphscope
from glyphscope.core import cli
from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests import hostile

pytestmark = pytest.mark.timeout(120)

MB = 1 << 20
SMALL = Rules(max_stream_bytes=MB, max_font_cmap_bytes=MB, max_font_program_bytes=MB)


def _page(data: bytes):
    return glyphscope.open(data).pages[0]


def _explain(data: bytes, *rules: str) -> dict:
    out = io.BytesIO()
    with glyphscope.open(data) as document:
        document.source = "hostile.pdf"
        args = cli.build_parser().parse_args(["--mode", "explain", "x", *rules])
        cli._write_explain(document, [0], cli._rules(args), out)
    return json.loads(out.getvalue())["pages"][0]


@pytest.mark.parametrize(
    "build",
    [
        lambda: hostile.flate_predictor_bomb(4 * MB),
        lambda: hostile.lzw_bomb(cycles=2),
    ],
    ids=["flate_predictor", "lzw"],
)
def test_content_bomb_is_cut_at_the_stream_cap_and_its_text_kept(build):
    page = _page(build())
    extraction = page.extract(SMALL)
    assert page.text(rules=SMALL) == "Hello"
    assert extraction.truncated
    assert "page: stream cut at 1048576 decoded bytes" in extraction.warnings


@pytest.mark.parametrize(
    ("build", "problem"),
    [
        (
            hostile.predictor_columns_2147483647,
            "page: FlateDecode: a predictor row of 2147483647 bytes is larger than the "
            "67108864-byte cap",
        ),
        (
            hostile.predictor_bits_64,
            "page: FlateDecode: /BitsPerComponent 64 is not 1, 2, 4, 8 or 16",
        ),
    ],
    ids=["columns_2147483647", "bits_64"],
)
def test_impossible_predictor_parameters_are_a_warning(build, problem):
    page = _page(build())
    extraction = page.extract()
    assert (extraction.readable, extraction.glyphs, extraction.warnings) == (False, (), (problem,))


def test_ascii85_zero_bomb_is_cut_and_the_other_stream_read():
    page = _page(hostile.ascii85_zero_bomb(4 * MB))
    assert page.text(rules=SMALL) == "Hello"
    assert page.extract(SMALL).truncated


@pytest.mark.parametrize(
    ("build", "label"),
    [
        (hostile.tounicode_bomb, "/ToUnicode"),
        (hostile.encoding_cmap_bomb, "/Encoding CMap"),
        (hostile.cid_to_gid_bomb, "/CIDToGIDMap"),
    ],
    ids=["tounicode", "encoding_cmap", "cid_to_gid"],
)
def test_font_stream_bomb_is_skipped_at_its_cap_and_noted_on_the_page(build, label):
    extraction = _page(build(2 * MB)).extract(SMALL)
    assert f"page: font F1: {label} larger than 1 MB skipped" in extraction.warnings
    assert extraction.truncated and len(extraction.glyphs) >= 1


def test_font_program_bomb_is_skipped_at_its_cap_and_noted_on_the_page():
    page = _page(hostile.font_program_bomb(2 * MB))
    extraction = page.extract(SMALL)
    # Identity CIDs with no ToUnicode: only the (skipped) program could have named them.
    assert [glyph.decode_source for glyph in extraction.glyphs] == ["unresolved"] * 2
    assert "page: font F1: font program larger than 1 MB skipped" in extraction.warnings


def test_tounicode_destinations_are_cut_to_the_rule_and_counted():
    page = _page(hostile.long_destinations())
    extraction = page.extract()
    assert {len(glyph.text) for glyph in extraction.glyphs} == {32}
    assert extraction.glyphs[1].text == "B" * 32
    assert "page: font F1: /ToUnicode: 256 destinations cut to 32 code points" in (
        extraction.warnings
    )
    longer = page.extract(Rules(max_unicode_destination=3000))
    assert {len(glyph.text) for glyph in longer.glyphs} == {2500}


def test_glyph_at_1e300_is_laid_out_at_the_column_cap():
    page = _page(hostile.glyph_at_1e300())
    text = page.text("layout")
    assert text.startswith("Hello") and text.endswith("far")
    assert len(text) < 2100
    log = page.analysis().to_json()
    assert "layout: a glyph past column 2000 placed at it" in log["warnings"]


def test_glyph_at_1e9_writes_no_more_spaces_than_the_column_cap():
    text = _page(hostile.glyph_at_1e9()).text("layout", Rules(layout_max_columns=100))
    assert text == "Hello" + " " * 95 + "far"


def test_a_billion_unit_page_writes_at_most_the_blank_line_cap_between_lines():
    page = _page(hostile.media_box_1e9())
    rules = Rules(layout_max_blank_lines=3)
    text = page.text("layout", rules)
    assert text == "top\n\n\n\n" + "\n\n\n\n".join(["line"] * 1000)
    assert (
        "layout: more than 3 blank lines between two lines"
        in (page.analysis(rules).to_json()["warnings"])
    )


def test_the_padding_of_a_page_stops_at_its_budget():
    page = _page(hostile.media_box_1e9())
    rules = Rules(layout_max_padding=2000)
    text = page.text("layout", rules)
    # Nine gaps of 201 newlines (200 blank lines, the cap, and the break), then one each.
    assert text.count("\n") == 9 * 201 + 991 and text.count("line") == 1000
    assert (
        "layout: more than 2000 characters of padding on the page"
        in (page.analysis(rules).to_json()["warnings"])
    )


def test_huge_text_matrix_gives_valid_json_and_a_dropped_glyph():
    page = _page(hostile.huge_text_matrix())
    assert page.text() == "Hello"
    log = _explain(hostile.huge_text_matrix())
    far = [glyph for glyph in log["glyphs"] if glyph["unicode"] in "inf"]
    assert far and all(glyph["non_finite"] for glyph in far)
    assert far[0]["quad"][0][0] is None
    reasons = {d["index"]: d["reason"] for d in log["dropped"]}
    assert {reasons[glyph["index"]] for glyph in far} == {"non_finite_geometry"}


def test_glyphs_mode_writes_non_finite_numbers_as_null(tmp_path):
    path = tmp_path / "huge.pdf"
    path.write_bytes(hostile.huge_text_matrix())
    out = io.BytesIO()
    cli.run(cli.build_parser().parse_args(["--mode", "glyphs", str(path)]), out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r.get("non_finite", False) for r in records] == [False] * 5 + [True] * 3
    assert records[5]["origin"] == [None, None]


def test_w_with_200000_entries_loads_and_measures_first_written_first():
    page = _page(hostile.w_200000_entries())
    glyphs = page.extract().glyphs
    # CIDs 0x41 and 0x42 lie in no entry (entries start at CID 3 × k for k ≥ 1, 6 wide):
    # 0x41 = 65 is in the entries starting at 60 and 63; the one written first is 63's
    # (written in descending order), width 500 + (200000 - 21) % 400.
    assert round(glyphs[0].glyph_end[0] - glyphs[0].origin[0], 6) == round(
        (500 + (200_000 - 21) % 400) / 1000 * 12, 6
    )


def test_explain_of_many_glyphs_is_streamed_and_valid():
    data = hostile.many_glyphs(6200)
    log = _explain(data)
    assert len(log["glyphs"]) == 6200 and len(log["reading"]["char_glyphs"]) >= 6200


def test_qpdf_messages_go_to_the_warnings_not_to_stderr(capfd):
    with glyphscope.open(hostile.damaged_page_tree()) as document:
        # qpdf's own messages, and the page tree's note that it lists an object qpdf could not
        # read as a page (round 3: a page never vanishes silently).
        assert all(w.startswith(("qpdf: ", "page tree: ")) for w in document.warnings)
        assert document.pages[0].text() == "Hello"
    assert capfd.readouterr().err == ""


# Round 3 (issue 31).


@pytest.mark.parametrize(
    ("build", "char"),
    [
        (hostile.rtl_then_lri, "\u2066"),
        (hostile.rtl_then_unassigned, "\u0378"),
    ],
    ids=["isolate", "unassigned"],
)
def test_right_to_left_line_with_a_character_python_bidi_has_no_rule_for_reads(build, char):
    page = _page(build())
    for mode in ("reading", "layout", "columns", "structure"):
        assert page.text(mode) == char + "\u05e9\u05dc\u05d5", mode
    assert page.analysis().warnings == ()


def test_tounicode_noncharacter_is_not_text_and_the_next_step_decodes_the_code():
    page = _page(hostile.rtl_then_noncharacter())
    glyphs = page.extract().glyphs
    assert [(g.text, g.decode_source) for g in glyphs][-1] == ("Z", "builtin_encoding")
    assert page.text() == "Z\u05e9\u05dc\u05d5"
    (font,) = page.extract().fonts.values()
    assert (
        "/ToUnicode: 1 destinations are not text (U+0000, a noncharacter or a lone surrogate);"
        " their codes are decoded by the next step"
    ) in font.problems


def test_inline_image_with_nothing_between_bi_and_ei_is_a_damaged_stream():
    extraction = _page(hostile.empty_inline_image()).extract()
    assert not extraction.readable
    (warning,) = extraction.warnings
    assert warning.startswith("page: content stream unreadable: IndexError")


def test_a_pixel_test_that_fails_in_its_process_is_skipped_with_a_warning(monkeypatch):
    from glyphscope.core.contained import ContainedProcess
    from glyphscope.core.text import ink

    # Too little address space for pdfium in the render process: this one goes on.
    renderer = ContainedProcess(memory_limit=16 * MB)
    monkeypatch.setattr(ink, "_renderer", lambda: renderer)
    with Document.open(hostile.nested_bmc(10)) as document:
        analysis = analyse_page(document.page(0), Rules(), ink=True)
    renderer.stop()
    assert analysis.reading.text == "Hello"
    assert analysis.ink is not None
    assert analysis.ink.warning == "pixel test skipped: out of memory under the 16 MB cap"
    assert analysis.ink.warning in analysis.warnings


def test_a_contained_call_whose_process_aborts_is_answered_with_the_signal():
    from glyphscope.core.contained import ContainedProcess

    process = ContainedProcess()
    assert process.run(os.abort) == (False, "its process was ended by SIGABRT")
    assert process.run(len, "abc") == (True, 3)
    process.stop()


def test_nested_actual_text_spans_record_their_depths():
    spans = _page(hostile.nested_actual_text(3)).extract().replacements
    assert sorted((s.depth, s.actual_text) for s in spans) == [(0, "x"), (1, "x"), (2, "x")]
    assert _page(hostile.nested_actual_text(20_000)).text() == "x"


@pytest.mark.parametrize(
    "build",
    [hostile.user_unit_31_digits, hostile.rotate_1e300, hostile.trim_box_huge],
    ids=["user_unit", "rotate", "trim_box"],
)
def test_page_dictionary_with_an_integer_past_64_bits_keeps_its_page(build):
    with glyphscope.open(build()) as document:
        assert len(document.pages) == 1
        assert document.pages[0].text() == "Hello"
        assert any("integers beyond 64 bits clamped" in w for w in document.warnings)


def test_one_annotation_listed_many_times_is_read_once():
    log = _explain(hostile.annotation_listed_100000(), "--annotations")
    assert len(log["annotations"]) == 1
    assert "annotations listed more than once read once (9999 repeats)" in log["warnings"]
    assert "annotations past the first 10000 skipped" in log["warnings"]


def test_widths_longer_than_the_codes_are_read_to_code_255():
    assert _page(hostile.widths_10_million(100_000)).text() == "Hello"


def test_a_page_that_cannot_be_recovered_is_reported_on_stderr(tmp_path, capsys):
    data = hostile._page(hostile.HELLO).replace(
        b"/Type /Page >>", b"/Type /Page /Rotate 1" + b"0" * 30 + b" /Broken [ 1 >>", 1
    )
    path = tmp_path / "lost.pdf"
    path.write_bytes(hostile._with_xref(data))
    assert cli.main(["--mode", "text", str(path)]) == 0
    assert capsys.readouterr().err == (
        f"glyphscope-extract: {path}: page tree: 1 page objects unreadable, left out\n"
    )


def test_a_content_stream_qpdf_read_as_null_is_reported_in_text_modes(tmp_path, capsys):
    path = tmp_path / "length.pdf"
    path.write_bytes(hostile.length_1e20())
    assert cli.main(["--mode", "text", str(path)]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        "page 1: the content stream was lost: qpdf treating object as null because of error "
        "during parsing: overflow/underflow converting 100000000000000000000 to 64-bit integer"
    )
