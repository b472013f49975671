"""The content-stream interpreter (spec §2, §3): exact glyph records from built PDFs."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.document import Document
from glyphscope.core.interpret.state import GraphicsState
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder

# Widths in glyph space (1/1000 em) for the codes the tests show.
WIDTHS = {32: 250, 97: 500, 98: 600, 99: 400, 72: 700, 105: 200}


def _page(content: bytes, **page_args):
    builder = PdfBuilder()
    fonts = page_args.pop("fonts", None)
    if fonts is None:
        fonts = {"F1": builder.standard_font("Helvetica", widths=WIDTHS)}
    builder.add_page(content, fonts=fonts, **page_args)
    return Document.open(builder.to_bytes()).page(0)


def _close(actual, expected, tolerance=1e-6):
    assert actual == pytest.approx(expected, abs=tolerance)


def test_tj_glyph_ends_separate_own_advance_from_tc_tw_and_scaling():
    page = _page(b"BT /F1 10 Tf 2 Tc 3 Tw 50 Tz 100 200 Td (a b) Tj ET")
    a, space, b = page.glyphs()
    assert [g.text for g in (a, space, b)] == ["a", " ", "b"]
    _close(a.origin, (100, 200))
    _close(a.glyph_end, (102.5, 200))  # w0 × Tfs × Th = 0.5 × 10 × 0.5
    _close(a.baseline_end, (103.5, 200))  # (w0 × Tfs + Tc) × Th
    _close(space.origin, (103.5, 200))
    _close(space.baseline_end, (107.25, 200))  # Tw applies to the single-byte code 32
    _close(b.origin, (107.25, 200))


def test_tj_array_number_moves_the_pen_back_in_thousandths_of_text_space():
    page = _page(b"BT /F1 10 Tf 100 200 Td [(a) -200 (b) 100 (c)] TJ ET")
    a, b, c = page.glyphs()
    _close(b.origin, (100 + 5 + 2, 200))
    _close(c.origin, (107 + 6 - 1, 200))
    assert (a.element_index, b.element_index, c.element_index) == (0, 2, 4)
    assert a.operator_index == b.operator_index == c.operator_index == 3


def test_word_spacing_does_not_apply_to_two_byte_code_32():
    builder = PdfBuilder()
    font = builder.type0_font(w=[32, [500]], dw=1000)
    builder.add_page(b"BT /F1 10 Tf 5 Tw 0 0 Td <00200020> Tj ET", fonts={"F1": font})
    first, second = Document.open(builder.to_bytes()).page(0).glyphs()
    assert first.code == 32 and first.code_length == 2
    _close(second.origin, (5, 0))  # no Tw: §9.4.3 applies it to single-byte code 32 only


def test_q_Q_restores_the_whole_text_state_with_the_font():
    builder = PdfBuilder()
    fonts = {
        "F1": builder.standard_font("Helvetica", widths=WIDTHS),
        "F2": builder.type0_font(w=[97, [1000]]),
    }
    builder.add_page(
        b"BT /F1 10 Tf 1 Tc 2 Ts q /F2 20 Tf 9 Tc 7 Ts Q 0 0 Td (ab) Tj ET", fonts=fonts
    )
    a, b = Document.open(builder.to_bytes()).page(0).glyphs()
    assert (a.font_key, a.code_length, a.font_size) == ("F1", 1, 10)
    _close(a.origin, (0, 2))  # text rise restored to 2
    _close(b.origin, (6, 2))  # Tc restored to 1


def test_one_point_font_in_scaled_tm_is_drawn_at_the_matrix_size():
    page = _page(b"BT /F1 1 Tf 12 0 0 12 72 700 Tm (ab) Tj ET")
    a, b = page.glyphs()
    assert a.font_size == pytest.approx(12)
    _close(b.origin, (72 + 6, 700))


def test_cm_scales_origin_and_size_into_user_space():
    page = _page(b"2 0 0 2 10 20 cm BT /F1 10 Tf 5 5 Td (a) Tj ET")
    (a,) = page.glyphs()
    _close(a.origin, (20, 30))
    _close(a.glyph_end, (30, 30))
    assert a.font_size == pytest.approx(20)


def test_quad_spans_descent_to_ascent_along_the_baseline():
    page = _page(b"BT /F1 10 Tf 0 1 -1 0 300 100 Tm (a) Tj ET")
    (a,) = page.glyphs()
    font = page.document.font_cache[next(iter(page.document.font_cache))]
    p0, p1, p2, p3 = a.quad
    # Rotated 90°: the baseline runs up the page, "up the glyph" points left.
    _close(p0, (300 - font.descent * 10, 100))
    _close(p1, (300 - font.descent * 10, 105))
    _close(p2, (300 - font.ascent * 10, 105))
    _close(p3, (300 - font.ascent * 10, 100))


def test_form_glyphs_are_woven_in_at_do_and_excluded_from_page_glyphs():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    form = builder.form_xobject(
        b"BT /F1 10 Tf 0 0 Td (b) Tj ET", matrix=(1, 0, 0, 1, 100, 0), fonts={"F1": helv}
    )
    builder.add_page(
        b"BT /F1 10 Tf 0 0 Td (a) Tj ET /Fm1 Do BT /F1 10 Tf 0 50 Td (c) Tj ET",
        fonts={"F1": helv},
        xobjects={"Fm1": form},
    )
    page = Document.open(builder.to_bytes()).page(0)
    painted = page.extract().glyphs
    assert [g.text for g in painted] == ["a", "b", "c"]
    b = painted[1]
    assert (b.token_index, b.form_depth, b.form_path, b.draw_order) == (-1, 1, "/Fm1", 1)
    _close(b.origin, (100, 0))
    assert [g.text for g in page.glyphs()] == ["a", "c"]
    assert [g.token_index for g in page.glyphs()] == [3, 9]


def test_form_without_resources_borrows_the_callers_fonts():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    form = builder.form_xobject(b"BT /F1 10 Tf (b) Tj ET")
    builder.add_page(b"/Fm1 Do", fonts={"F1": helv}, xobjects={"Fm1": form})
    (b,) = Document.open(builder.to_bytes()).page(0).extract().glyphs
    assert (b.text, b.font_key) == ("b", "F1")


def test_form_that_draws_itself_is_read_once_with_a_warning():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    form = builder.form_xobject(b"BT /F1 10 Tf (a) Tj ET /Fm1 Do", fonts={"F1": helv})
    builder.add_resources(form, xobjects={"Fm1": form})
    builder.add_page(b"/Fm1 Do", xobjects={"Fm1": form})
    extraction = Document.open(builder.to_bytes()).page(0).extract()
    assert [g.text for g in extraction.glyphs] == ["a"]
    assert any("cycle" in w for w in extraction.warnings)


def test_form_nesting_is_capped_at_the_rules_depth():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    inner = None
    for _ in range(15):
        xobjects = {"Fm": inner} if inner is not None else None
        inner = builder.form_xobject(
            b"BT /F1 10 Tf (a) Tj ET /Fm Do", fonts={"F1": helv}, xobjects=xobjects
        )
    builder.add_page(b"/Fm Do", xobjects={"Fm": inner})
    page = Document.open(builder.to_bytes()).page(0)
    assert len(page.extract().glyphs) == 12
    assert max(g.form_depth for g in page.extract().glyphs) == 12
    assert len(page.extract(Rules(form_depth=3)).glyphs) == 3


def test_innermost_mcid_from_inline_dictionary_and_properties_resource():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    builder.add_page(
        b"BT /F1 10 Tf /P <</MCID 4>> BDC (a) Tj /Span BMC (b) Tj EMC EMC"
        b" /P /MC0 BDC (c) Tj EMC (a) Tj ET",
        fonts={"F1": helv},
        properties={"MC0": {"MCID": 9}},
    )
    glyphs = Document.open(builder.to_bytes()).page(0).glyphs()
    assert [g.mcid for g in glyphs] == [4, 4, 9, None]


_PROPERTY_LISTS = (
    b"BT /F1 10 Tf /P <</MCID 4 /Lang (en)>> BDC (a) Tj EMC"
    b" /Span <</ActualText <FEFF00660069>>> BDC (b) Tj EMC"
    b" /Span <</E (abbr.) /MCID 5>> BDC (c) Tj EMC"
    b" /P <</MCID (6)>> BDC (a) Tj EMC"  # a string is no MCID
    b" /P <</MCID /N7>> BDC (b) Tj EMC"
    b" /P <</MCID -1>> BDC (c) Tj EMC"
    b" /P <</MCID 8 /ActualText /Name>> BDC (a) Tj EMC"  # a name is no replacement text
    b" /P /MC0 BDC (b) Tj EMC /P /Missing BDC (c) Tj EMC /P <<>> BDC (a) Tj EMC ET"
)


def test_inline_property_lists_give_mcids_and_replacement_text():
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    builder.add_page(_PROPERTY_LISTS, fonts={"F1": helv}, properties={"MC0": {"MCID": 9}})
    page = Document.open(builder.to_bytes()).page(0)
    assert [g.mcid for g in page.glyphs()] == [4, None, 5, None, None, -1, 8, 9, None, None]
    assert [(s.start, s.end, s.actual_text, s.expansion) for s in page.extract().replacements] == [
        (1, 2, "fi", None),
        (2, 3, None, "abbr."),
    ]


def test_property_lists_read_by_the_scanner_give_what_qpdf_objects_give(monkeypatch):
    from glyphscope.core.interpret import content
    from glyphscope.core.interpret.interpreter import interpret_page

    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica", widths=WIDTHS)
    builder.add_page(_PROPERTY_LISTS, fonts={"F1": helv}, properties={"MC0": {"MCID": 9}})
    data = builder.to_bytes()

    def extraction():
        with Document.open(data) as document:
            found = interpret_page(document.page(0), Rules())
            return [repr(g) for g in found.glyphs], found.replacements, found.warnings

    scanned = extraction()
    monkeypatch.setattr(content, "_scanner", None)
    assert scanned == extraction()


def test_inline_image_data_is_skipped_byte_exactly():
    content = (
        b"BT /F1 10 Tf 0 0 Td (a) Tj ET "
        b"BI /W 4 /H 1 /BPC 8 /CS /G ID (x)Tj EI "
        b"BT /F1 10 Tf (b) Tj ET"
    )
    assert [g.text for g in _page(content).glyphs()] == ["a", "b"]


def test_malformed_operator_is_skipped_without_losing_the_state():
    page = _page(b"BT /F1 10 Tf 2 Tc 100 0 Td /Oops Tc 1 Tz (ab) Tj ET")
    a, b = page.glyphs()
    _close(b.origin, (100 + (5 + 2) * 0.01, 0))  # Tc 2 kept; Tz 1 (%) still applied
    assert any("Tc" in w for w in page.extract().warnings)


def test_type3_glyph_widths_go_through_the_font_matrix():
    builder = PdfBuilder()
    font = builder.type3_font(
        {"sq": b"50 0 0 0 50 50 d1 0 0 50 50 re f"},
        differences=[97, "sq"],
        widths=[50],
        first_char=97,
        font_matrix=(0.01, 0, 0, 0.01, 0, 0),
        font_bbox=(0, 0, 50, 50),
        to_unicode=None,
    )
    builder.add_page(b"BT /T3 10 Tf 0 0 Td (aa) Tj ET", fonts={"T3": font})
    first, second = Document.open(builder.to_bytes()).page(0).glyphs()
    _close(first.glyph_end, (5, 0))  # 50 × 0.01 × 10
    _close(second.origin, (5, 0))


def test_vertical_glyphs_advance_down_the_page_by_w1():
    builder = PdfBuilder()
    font = builder.type0_font(encoding="Identity-V", w=[1, [1000]])
    builder.add_page(b"BT /F1 10 Tf 300 700 Td <00010001> Tj ET", fonts={"F1": font})
    first, second = Document.open(builder.to_bytes()).page(0).glyphs()
    assert first.writing_mode == 1
    _close(first.origin, (300, 700))
    _close(first.glyph_end, (300, 690))  # DW2 default w1 = -1000
    _close(second.origin, (300, 690))
    _close(first.quad[0], (295, 700))
    _close(first.quad[2], (305, 690))


def test_page_without_content_stream_gives_no_result():
    builder = PdfBuilder()
    builder.add_page(None)
    page = Document.open(builder.to_bytes()).page(0)
    assert page.glyphs() is None
    assert page.extract().readable is False


def test_page_with_only_an_unknown_filter_gives_no_result():
    builder = PdfBuilder()
    builder.add_page(builder.stream(b"xx", Filter="/NoSuchDecode"))
    assert Document.open(builder.to_bytes()).page(0).glyphs() is None


def test_run_length_bomb_is_cut_at_the_stream_cap_and_reported():
    builder = PdfBuilder()
    bomb = builder.stream(b"8181>", Filter=["/ASCIIHexDecode"] + ["/RunLengthDecode"] * 8)
    builder.add_page(bomb)
    extraction = Document.open(builder.to_bytes()).page(0).extract(Rules(max_stream_bytes=4096))
    assert extraction.truncated is True
    assert any("4096" in w for w in extraction.warnings)


def test_glyph_budget_truncates_the_page():
    page = _page(b"BT /F1 10 Tf (" + b"a" * 50 + b") Tj ET")
    extraction = page.extract(Rules(max_page_glyphs=10))
    assert len(extraction.glyphs) == 10 and extraction.truncated


def test_draw_order_counts_across_page_and_forms():
    page = _page(b"BT /F1 10 Tf (ab) Tj (c) ' ET")
    assert [g.draw_order for g in page.glyphs()] == [0, 1, 2]


def test_quote_operators_move_to_the_next_line_and_set_spacing():
    page = _page(b'BT /F1 10 Tf 12 TL 0 100 Td (a) Tj 1 2 (bb) " ET')
    a, b1, b2 = page.glyphs()
    _close(b1.origin, (0, 88))
    _close(b2.origin, (6 + 2, 88))  # Tc 2 set by "


def test_quote_is_t_star_then_tj_under_a_turned_line_matrix():
    # §9.4.3 Table 109: ' is T* (move by -TL along the line matrix's y) followed by Tj.
    quoted = _page(b"BT /F1 10 Tf 14 TL 0 2 -2 0 300 100 Tm (a) Tj (bc) ' ET").glyphs()
    spelled = _page(b"BT /F1 10 Tf 14 TL 0 2 -2 0 300 100 Tm (a) Tj T* (bc) Tj ET").glyphs()
    assert [(g.origin, g.quad) for g in quoted] == [(g.origin, g.quad) for g in spelled]
    _close(quoted[1].origin, (328, 100))  # -14 in text space, turned and scaled by 2


def _direct_font(base_font: str) -> pikepdf.Dictionary:
    """A font dictionary written inline in the /Font resources (no object number)."""
    return pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/" + base_font)
    )


def test_a_direct_font_is_loaded_once_however_often_tf_names_it():
    builder = PdfBuilder()
    fonts = {"F1": _direct_font("Helvetica")}
    builder.add_page(b"BT " + b"/F1 10 Tf (a) Tj " * 4000 + b"ET", fonts=fonts)
    builder.add_page(b"BT /F1 10 Tf (b) Tj ET", fonts=fonts)
    document = Document.open(builder.to_bytes())
    glyphs = document.page(0).glyphs() + document.page(1).glyphs()
    assert len(glyphs) == 4001 and {g.font_name for g in glyphs} == {"Helvetica"}
    assert len(document.font_cache) == 1


def test_two_direct_fonts_named_in_turn_keep_their_own_fonts():
    builder = PdfBuilder()
    fonts = {"F1": _direct_font("Helvetica"), "F2": _direct_font("Courier")}
    builder.add_page(b"BT " + b"/F1 10 Tf (a) Tj /F2 10 Tf (b) Tj " * 500 + b"ET", fonts=fonts)
    document = Document.open(builder.to_bytes())
    glyphs = document.page(0).glyphs()
    assert {(g.text, g.font_name) for g in glyphs} == {("a", "Helvetica"), ("b", "Courier")}
    assert len(document.font_cache) == 2


def test_tf_naming_a_font_resource_whose_name_is_not_utf8_selects_that_font():
    # §7.3.5: a resource name is bytes. /宋体 written in GBK names the second font; the Tf is
    # not skipped (which left Helvetica decoding a Symbol string) and its key is #-escaped.
    builder = PdfBuilder()
    fonts = {
        "F1": builder.standard_font("Helvetica"),
        "ZZZZ": builder.standard_font("Symbol", encoding=None),
    }
    builder.add_page(b"BT /F1 12 Tf 72 700 Td (a) Tj /ZZZZ 12 Tf (a) Tj ET", fonts=fonts)
    data = builder.to_bytes()
    assert data.count(b"/ZZZZ") == 2  # the Tf operand and the resource key
    extraction = Document.open(data.replace(b"/ZZZZ", "/宋体".encode("gbk"))).page(0).extract()
    assert [(g.text, g.font_key, g.font_name) for g in extraction.glyphs] == [
        ("a", "F1", "Helvetica"),
        ("α", "#cb#ce#cc#e5", "Symbol"),
    ]
    assert extraction.warnings == ()


def test_bdc_naming_a_property_list_whose_name_is_not_utf8_opens_its_mcid():
    # §14.6.2 / §7.3.5: /Properties key in GBK. The BDC opens MCID 3 (it was skipped, and its
    # EMC then closed the sequence around it, MCID 1).
    builder = PdfBuilder()
    builder.add_page(
        b"/P <</MCID 1>> BDC /Span /ZZZZ BDC BT /F1 12 Tf 72 700 Td (a) Tj ET EMC "
        b"BT /F1 12 Tf (b) Tj ET EMC",
        fonts={"F1": builder.standard_font("Helvetica")},
        properties={"ZZZZ": {"MCID": 3}},
    )
    data = builder.to_bytes().replace(b"/ZZZZ", "/宋体".encode("gbk"))
    extraction = Document.open(data).page(0).extract()
    assert [(g.text, g.mcid) for g in extraction.glyphs] == [("a", 3), ("b", 1)]


def test_do_naming_a_form_whose_name_is_not_utf8_draws_it_and_lists_its_operators():
    # §7.3.5: /宋体 in GBK names the form. It was skipped as a malformed Do (its text lost)
    # and Page.operators() raised UnicodeDecodeError; the path shows the name #-escaped.
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    form = builder.form_xobject(b"BT /F1 12 Tf 72 600 Td (Form) Tj ET", fonts={"F1": helvetica})
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (Page) Tj ET /ZZZZ Do",
        fonts={"F1": helvetica},
        xobjects={"ZZZZ": form},
    )
    page = Document.open(builder.to_bytes().replace(b"/ZZZZ", "/宋体".encode("gbk"))).page(0)
    extraction = page.extract()
    assert (page.text(), extraction.warnings) == ("Page\nForm", ())
    assert {g.form_path for g in extraction.glyphs} == {"", "/#cb#ce#cc#e5"}
    assert [r.operator for r in page.operators() if r.form_path] == ["BT", "Tf", "Td", "Tj", "ET"]


def test_a_fault_repeated_on_a_page_is_warned_once():
    builder = PdfBuilder()
    builder.add_page(b"BT /Nope 10 Tf (a) Tj /Nope 10 Tf (b) Tj /Nope 12 Tf (c) Tj ET", fonts={})
    extraction = Document.open(builder.to_bytes()).page(0).extract()
    assert [g.text for g in extraction.glyphs] == ["a", "b", "c"]
    assert sum("font /Nope missing" in w for w in extraction.warnings) == 1


def test_graphics_state_copy_carries_every_slot():
    state = GraphicsState((1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
    for number, name in enumerate(GraphicsState.__slots__):
        setattr(state, name, (name, number))  # a distinct value in each slot
    clone = state.copy()
    assert clone is not state
    assert [getattr(clone, n) for n in state.__slots__] == [
        getattr(state, n) for n in state.__slots__
    ]
