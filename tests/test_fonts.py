"""Fonts: code splitting, the decode chain with its sources (spec §1), widths and extents."""

from __future__ import annotations

from collections import Counter

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pikepdf import Array, Dictionary, Name

from glyphscope.core.document import Document
from glyphscope.core.fonts.loader import BROKEN_FONT_WIDTH, load_font
from glyphscope.core.fonts.tex import T1
from glyphscope.core.records import DecodeSource
from tests.pdfbuilder import PdfBuilder, cid_cmap, tounicode_cmap, truetype_program


@pytest.fixture
def builder() -> PdfBuilder:
    return PdfBuilder()


def one(font, data: bytes):
    (glyph,) = font.glyphs(data)
    return glyph


def decoded(font, data: bytes) -> list[tuple[str, str]]:
    return [(glyph.text, glyph.decode_source) for glyph in font.glyphs(data)]


def linear_scan_width(w: list, cid: int, default: float) -> float:
    """§9.7.4.3 /W read the way a renderer does: file order, first covering entry wins."""
    index = 0
    while index < len(w):
        first = w[index]
        if isinstance(w[index + 1], list):
            if first <= cid < first + len(w[index + 1]):
                return w[index + 1][cid - first]
            index += 2
        else:
            if first <= cid <= w[index + 1]:
                return w[index + 2]
            index += 3
    return default


# Simple fonts: widths


def test_standard14_font_without_widths_uses_urw_metrics(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert one(font, b"A").width == 0.667


def test_standard14_widths_source_is_recorded(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert font.info().widths_source == "standard14:Helvetica"


def test_arial_bold_alias_uses_helvetica_bold_metrics(builder):
    font = load_font(builder.standard_font("Arial,Bold"))
    assert (one(font, b"A").width, font.info().widths_source) == (
        0.722,
        "standard14:Helvetica-Bold",
    )


def test_widths_array_from_first_char(builder):
    font = load_font(builder.standard_font("Custom", widths=[250, 570], first_char=65))
    assert [glyph.width for glyph in font.glyphs(b"AB")] == [0.25, 0.57]


def test_code_outside_widths_uses_missing_width(builder):
    font_dict = builder.standard_font("Custom", widths=[250], first_char=65)
    font_dict.FontDescriptor = Dictionary(Type=Name.FontDescriptor, MissingWidth=333)
    assert one(load_font(font_dict), b"Z").width == 0.333


def test_type3_width_goes_through_font_matrix(builder):
    font_dict = builder.type3_font(
        {"a": b"0 0 m"},
        differences=[97, "a"],
        widths=[50],
        first_char=97,
        font_matrix=(0.01, 0, 0, 0.01, 0, 0),
    )
    assert one(load_font(font_dict), b"a").width == 0.5


def test_type3_width_transforms_w_0_through_a_general_matrix(builder):
    font_dict = builder.type3_font(
        {"a": b"0 0 m"},
        differences=[97, "a"],
        widths=[100],
        first_char=97,
        font_matrix=(0.002, 0.001, 0.0005, 0.002, 0, 0),
    )
    assert one(load_font(font_dict), b"a").width == 0.2


def test_type3_codes_decode_through_their_differences(builder):
    font_dict = builder.type3_font(
        {"a": b"0 0 m", "fi": b"0 0 m"},
        differences=[97, "a", "fi"],
        widths=[50, 50],
        first_char=97,
    )
    assert decoded(load_font(font_dict), b"ab") == [
        ("a", DecodeSource.DIFFERENCES),
        ("ﬁ", DecodeSource.DIFFERENCES),
    ]


def test_type3_extent_is_font_bbox_through_font_matrix(builder):
    font_dict = builder.type3_font(
        {"a": b"0 0 m"},
        differences=[97, "a"],
        widths=[100],
        first_char=97,
        font_matrix=(0.01, 0, 0, 0.01, 0, 0),
        font_bbox=(0, -20, 100, 90),
    )
    font = load_font(font_dict)
    assert (font.ascent, font.descent) == (0.9, -0.2)


# Simple fonts: the decode chain


def test_winansi_code_decodes_as_builtin_encoding(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert decoded(font, b"\x80") == [("€", DecodeSource.BUILTIN_ENCODING)]


def test_winansi_control_code_is_unresolved(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert decoded(font, b"\x01") == [("", DecodeSource.UNRESOLVED)]


def test_differences_names_decode_through_the_agl(builder):
    font = load_font(
        builder.standard_font("Helvetica", differences=[1, "uni20AC", "u1F600", "fi", "f_f_i"])
    )
    assert decoded(font, b"\x01\x02\x03\x04") == [
        ("€", DecodeSource.DIFFERENCES),
        ("😀", DecodeSource.DIFFERENCES),
        ("ﬁ", DecodeSource.DIFFERENCES),
        ("ffi", DecodeSource.DIFFERENCES),
    ]


def test_code_outside_differences_falls_back_to_base_encoding(builder):
    font = load_font(builder.standard_font("Helvetica", differences=[1, "fi"]))
    assert decoded(font, b"A") == [("A", DecodeSource.BUILTIN_ENCODING)]


def test_unknown_differences_name_does_not_use_the_base_encoding(builder):
    font = load_font(builder.standard_font("Helvetica", differences=[65, "g17"]))
    assert decoded(font, b"A") == [("", DecodeSource.UNRESOLVED)]


def test_differences_count_in_encoding_description(builder):
    font = load_font(builder.standard_font("Helvetica", differences=[1, "fi", "fl"]))
    assert font.info().encoding == "WinAnsiEncoding + 2 Differences"


def test_nonsymbolic_font_without_encoding_uses_standard_encoding(builder):
    font = load_font(builder.standard_font("Helvetica", encoding=None))
    assert (decoded(font, b"'"), font.info().encoding) == (
        [("\u2019", DecodeSource.BUILTIN_ENCODING)],
        "none: StandardEncoding (default)",
    )


def test_symbol_font_uses_its_builtin_encoding(builder):
    font = load_font(builder.standard_font("Symbol", encoding=None))
    assert (decoded(font, b"a"), one(font, b"a").width) == (
        [("α", DecodeSource.BUILTIN_ENCODING)],
        0.631,
    )


def test_zapfdingbats_uses_its_builtin_encoding_and_names(builder):
    font = load_font(builder.standard_font("ZapfDingbats", encoding=None))
    assert decoded(font, b"!") == [("✁", DecodeSource.BUILTIN_ENCODING)]


def test_to_unicode_wins_over_the_encoding(builder):
    font = load_font(builder.standard_font("Helvetica", to_unicode=tounicode_cmap({0x41: "Z"})))
    assert decoded(font, b"AB") == [
        ("Z", DecodeSource.TO_UNICODE),
        ("B", DecodeSource.BUILTIN_ENCODING),
    ]


def test_to_unicode_ligature_destination_keeps_all_characters(builder):
    font = load_font(builder.standard_font("Helvetica", to_unicode=tounicode_cmap({1: "fi"})))
    assert decoded(font, b"\x01") == [("fi", DecodeSource.TO_UNICODE)]


def test_undecodable_to_unicode_falls_through_and_is_recorded(builder):
    font_dict = builder.standard_font("Helvetica")
    font_dict.ToUnicode = builder.stream(b"garbage", Filter="/NoSuchDecode")
    font = load_font(font_dict)
    assert decoded(font, b"A") == [("A", DecodeSource.BUILTIN_ENCODING)]
    assert font.info().has_to_unicode is False
    assert font.info().problems[0].startswith("/ToUnicode unreadable")


def test_to_unicode_mapping_nothing_falls_through(builder):
    font_dict = builder.standard_font("Helvetica")
    font_dict.ToUnicode = builder.stream(b"not a cmap at all")
    font = load_font(font_dict)
    assert decoded(font, b"A") == [("A", DecodeSource.BUILTIN_ENCODING)]
    assert "/ToUnicode maps nothing" in font.info().problems


def test_code_32_is_the_single_byte_space(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert [glyph.is_single_byte_space for glyph in font.glyphs(b" A")] == [True, False]


def test_a_codes_glyph_is_the_object_every_string_showing_it_gives(builder):
    # The compiled loop numbers a simple font's glyphs by Font.glyph per byte, the Python
    # loop by Font.glyphs per string: both must give one FontGlyph per code.
    font = load_font(builder.standard_font("Helvetica"))
    first = font.glyph(65, 1)
    assert (first.code, first.code_length, first.text) == (65, 1, "A")
    assert font.glyph(65, 1) is first
    assert [glyph is first for glyph in font.glyphs(b"BAA")] == [False, True, True]
    assert font.glyphs(b"B")[0] is font.glyph(66, 1)


def test_horizontal_glyph_has_no_vertical_metrics(builder):
    glyph = one(load_font(builder.standard_font("Helvetica")), b"A")
    assert (glyph.vertical_displacement, glyph.position_vector) == (0.0, (0.0, 0.0))


def test_symbolic_truetype_decodes_through_its_font_program(builder):
    program = truetype_program("AB", cmap="symbol")
    font = load_font(builder.truetype_font(program, encoding=None, flags=4))
    assert decoded(font, b"AB") == [
        ("A", DecodeSource.FONT_PROGRAM),
        ("B", DecodeSource.FONT_PROGRAM),
    ]
    assert font.info().embedded_program == "FontFile2"


# Simple fonts: the implicit base encoding of an embedded program (Table 114)

TYPE1_PROGRAM = b"""%!PS-AdobeFont-1.0: GlyphscopeT1 001
11 dict begin
/FontName /GlyphscopeT1 def
/Encoding 256 array
dup 65 /B put
dup 66 /fi put
readonly def
currentdict end
currentfile eexec
"""


def embedded_type1(builder, program: bytes = TYPE1_PROGRAM, **font) -> pikepdf.Dictionary:
    font_dict = builder.standard_font("GlyphscopeT1", widths=[500] * 4, first_char=65, **font)
    font_dict.FontDescriptor = Dictionary(
        Type=Name.FontDescriptor, Flags=32, FontFile=builder.stream(program)
    )
    return font_dict


def test_embedded_type1_without_base_encoding_uses_its_builtin_encoding(builder):
    font = load_font(embedded_type1(builder, encoding=None, differences=[67, "Euro"]))
    assert decoded(font, b"ABC") == [
        ("B", DecodeSource.FONT_PROGRAM),
        ("ﬁ", DecodeSource.FONT_PROGRAM),
        ("€", DecodeSource.DIFFERENCES),
    ]


def test_embedded_type1_without_encoding_uses_its_builtin_encoding(builder):
    font = load_font(embedded_type1(builder, encoding=None))
    assert (decoded(font, b"A"), font.info().encoding) == (
        [("B", DecodeSource.FONT_PROGRAM)],
        "none: font program, then StandardEncoding (default)",
    )


def test_code_the_builtin_encoding_leaves_open_falls_back_to_standard_encoding(builder):
    font = load_font(embedded_type1(builder, encoding=None))
    assert decoded(font, b"D") == [("D", DecodeSource.BUILTIN_ENCODING)]


def test_named_base_encoding_beats_the_programs_builtin_encoding(builder):
    font = load_font(embedded_type1(builder, encoding="WinAnsiEncoding", differences=[67, "C"]))
    assert decoded(font, b"A") == [("A", DecodeSource.BUILTIN_ENCODING)]


def test_program_whose_builtin_encoding_is_standard_is_recorded_as_builtin(builder):
    program = TYPE1_PROGRAM.replace(
        b"/Encoding 256 array\ndup 65 /B put\ndup 66 /fi put\nreadonly def",
        b"/Encoding StandardEncoding def",
    )
    font = load_font(embedded_type1(builder, program, encoding=None))
    assert decoded(font, b"'") == [("\u2019", DecodeSource.BUILTIN_ENCODING)]


def test_nonsymbolic_truetype_without_encoding_reads_its_cmap_first(builder):
    font = load_font(builder.truetype_font(truetype_program("'"), encoding=None, flags=32))
    assert decoded(font, b"'") == [("'", DecodeSource.FONT_PROGRAM)]


def test_truetype_with_differences_fills_other_codes_from_standard_encoding(builder):
    # §9.6.6.4: a nonsymbolic TrueType font's code-to-name table is completed from
    # StandardEncoding, where code 0x27 is quoteright.
    font_dict = builder.truetype_font(
        truetype_program("'A"), encoding=None, differences=[65, "A"], flags=32
    )
    assert decoded(load_font(font_dict), b"'") == [("\u2019", DecodeSource.BUILTIN_ENCODING)]


# Simple fonts: glyph names that are their own code (the last decode step)


def numbered_type3(builder, differences: list) -> pikepdf.Dictionary:
    names = [item for item in differences if isinstance(item, str)]
    return builder.type3_font(
        {name: b"0 0 m" for name in names},
        differences=differences,
        widths=[50] * 256,
        first_char=0,
    )


def test_type3_glyph_named_by_its_code_reads_as_that_code(builder):
    font = load_font(numbered_type3(builder, [65, "a65", "a66", 233, "a233"]))
    assert decoded(font, b"AB\xe9") == [
        ("A", DecodeSource.GLYPH_NAME_NUMBER),
        ("B", DecodeSource.GLYPH_NAME_NUMBER),
        ("é", DecodeSource.GLYPH_NAME_NUMBER),
    ]


def test_numbered_names_are_not_zapfdingbats_names_outside_zapfdingbats(builder):
    # /a33 is a ZapfDingbats glyph (U+2702) only in ZapfDingbats; here it is code 33.
    font = load_font(numbered_type3(builder, [33, "a33"]))
    assert decoded(font, b"!") == [("!", DecodeSource.GLYPH_NAME_NUMBER)]


def test_numbered_control_code_stays_unresolved(builder):
    font = load_font(numbered_type3(builder, [1, "a1", "a2"]))
    assert decoded(font, b"\x01") == [("", DecodeSource.UNRESOLVED)]


def test_numbered_t1_ligature_code_reads_through_t1(builder):
    # Issue 12: codes 27-31 without 11-15 identify a T1 (Cork) TeX font; 27 is "ff".
    font = load_font(numbered_type3(builder, [27, "a27", "a28"]))
    assert decoded(font, b"\x1b") == [("\ufb00", DecodeSource.TEX_ENCODING)]


def test_one_name_off_its_code_disables_numbered_names_for_the_font(builder):
    font = load_font(numbered_type3(builder, [65, "a65", "g18"]))
    assert decoded(font, b"A") == [("", DecodeSource.UNRESOLVED)]


def test_hex_numbered_names_are_not_read(builder):
    font = load_font(numbered_type3(builder, [65, "G41"]))
    assert decoded(font, b"A") == [("", DecodeSource.UNRESOLVED)]


def test_named_base_encoding_reads_a_numbered_code(builder):
    font_dict = numbered_type3(builder, [147, "a147"])
    font_dict.Encoding.BaseEncoding = Name.WinAnsiEncoding
    assert decoded(load_font(font_dict), b"\x93") == [("“", DecodeSource.GLYPH_NAME_NUMBER)]


# Extents


def test_extent_comes_from_ascent_and_descent(builder):
    font = load_font(builder.truetype_font())
    assert (font.ascent, font.descent) == (0.8, -0.2)


def test_extent_defaults_without_descriptor(builder):
    font = load_font(builder.standard_font("Helvetica"))
    assert (font.ascent, font.descent) == (0.8, -0.2)


def test_extent_falls_back_to_font_bbox(builder):
    font_dict = builder.standard_font("Custom", widths=[500], first_char=65)
    font_dict.FontDescriptor = Dictionary(
        Type=Name.FontDescriptor, Ascent=0, Descent=0, FontBBox=Array([0, -300, 1000, 950])
    )
    font = load_font(font_dict)
    assert (font.ascent, font.descent) == (0.95, -0.3)


def test_positive_descent_is_read_as_its_magnitude(builder):
    font_dict = builder.standard_font("Custom", widths=[500], first_char=65)
    font_dict.FontDescriptor = Dictionary(Type=Name.FontDescriptor, Ascent=700, Descent=250)
    font = load_font(font_dict)
    assert (font.ascent, font.descent) == (0.7, -0.25)


# Broken fonts


def test_unreadable_font_decodes_nothing_and_records_why():
    font = load_font(pikepdf.Array([1, 2]))
    glyph = one(font, b"A")
    assert (glyph.text, glyph.decode_source, glyph.width) == (
        "",
        DecodeSource.UNRESOLVED,
        BROKEN_FONT_WIDTH,
    )
    assert font.info().problems == ("font is not a dictionary",)


def test_type0_without_descendant_still_decodes_its_to_unicode(builder):
    font_dict = builder.type0_font(to_unicode=tounicode_cmap({5: "漢"}, code_bytes=2))
    font_dict.DescendantFonts = Array([None])
    font = load_font(font_dict)
    glyph = one(font, b"\x00\x05")
    assert (glyph.text, glyph.decode_source, glyph.width) == ("漢", DecodeSource.TO_UNICODE, 1.0)
    assert font.info().problems == ("Type0 font without a descendant CIDFont",)


def test_non_utf8_base_font_name_is_shown_escaped(builder):
    font_dict = builder.standard_font("Helvetica")
    font_dict.BaseFont = pikepdf.Object.parse(b"/UNI#bb#ea")
    assert load_font(font_dict).name == "UNI#bb#ea"


# Composite fonts


def test_identity_h_takes_two_byte_codes(builder):
    font = load_font(builder.type0_font(w=[1, [500]]))
    assert [(g.code, g.code_length) for g in font.glyphs(b"\x00\x01\x00\x20")] == [(1, 2), (32, 2)]


def test_two_byte_code_32_is_not_the_single_byte_space(builder):
    font = load_font(builder.type0_font())
    assert one(font, b"\x00\x20").is_single_byte_space is False


def test_w_both_forms(builder):
    font = load_font(builder.type0_font(w=[1, [250, 300], 10, 12, 400]))
    widths = [g.width for g in font.glyphs(b"\x00\x01\x00\x02\x00\x0b\x00\x0d")]
    assert widths == [0.25, 0.3, 0.4, 1.0]


def test_dw_default_is_a_full_em(builder):
    font = load_font(builder.type0_font())
    assert one(font, b"\x00\x05").width == 1.0


def test_dw_given_is_used_outside_w(builder):
    font = load_font(builder.type0_font(w=[1, [250]], dw=500))
    assert one(font, b"\x00\x05").width == 0.5


def test_overlapping_out_of_order_w_matches_a_linear_scan(builder):
    w = [20, [200, 210], 5, 25, 300, 10, [100, 110, 120], 11, [900], 21, 22, 777]
    font = load_font(builder.type0_font(w=w, dw=1000))
    data = b"".join(cid.to_bytes(2, "big") for cid in range(30))
    widths = [round(g.width * 1000) for g in font.glyphs(data)]
    assert widths == [linear_scan_width(w, cid, 1000) for cid in range(30)]
    assert widths[20:23] == [200, 210, 300]


_W_ENTRY = st.one_of(
    st.tuples(st.integers(0, 40), st.lists(st.integers(1, 999), min_size=1, max_size=6)),
    st.tuples(st.integers(0, 40), st.integers(0, 12), st.integers(1, 999)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_W_ENTRY, max_size=8))
def test_any_w_array_matches_a_linear_scan(entries):
    w: list = []
    for entry in entries:
        if isinstance(entry[1], list):
            w += [entry[0], entry[1]]
        else:
            w += [entry[0], entry[0] + entry[1], entry[2]]
    builder = PdfBuilder()  # kept alive: its objects die with its Pdf
    font = load_font(builder.type0_font(w=w, dw=1000))
    data = b"".join(cid.to_bytes(2, "big") for cid in range(60))
    widths = [round(g.width * 1000) for g in font.glyphs(data)]
    assert widths == [linear_scan_width(w, cid, 1000) for cid in range(60)]


def test_out_of_order_w_is_reported_as_sorted_on_read(builder):
    font = load_font(builder.type0_font(w=[20, [200], 5, [300]]))
    assert (font.info().w_sorted_on_read, font.info().widths_source) == (
        True,
        "W (sorted on read: True)",
    )


def test_ascending_w_is_not_sorted_on_read(builder):
    font = load_font(builder.type0_font(w=[5, [300], 20, [200]]))
    assert font.info().w_sorted_on_read is False


def test_malformed_w_keeps_the_entries_before_the_fault(builder):
    font = load_font(builder.type0_font(w=[1, [250], 7, 9]))
    assert [g.width for g in font.glyphs(b"\x00\x01\x00\x08")] == [0.25, 1.0]
    assert font.info().problems[0].startswith("/W malformed after 1 entries")


def test_identity_v_is_writing_mode_1_with_dw2_default(builder):
    font = load_font(builder.type0_font(encoding="Identity-V", w=[1, [600]]))
    glyph = one(font, b"\x00\x01")
    assert (font.writing_mode, glyph.vertical_displacement, glyph.position_vector) == (
        1,
        -1.0,
        (0.3, 0.88),
    )


def test_dw2_given_sets_default_vertical_metrics(builder):
    font = load_font(builder.type0_font(encoding="Identity-V", dw2=(900, -950)))
    glyph = one(font, b"\x00\x01")
    assert (glyph.vertical_displacement, glyph.position_vector) == (-0.95, (0.5, 0.9))


def test_w2_both_forms_give_w1y_and_position_vector(builder):
    w2 = [1, [-900, 250, 800], 5, 6, -800, 400, 700]
    font = load_font(builder.type0_font(encoding="Identity-V", w2=w2))
    metrics = [
        (g.vertical_displacement, g.position_vector) for g in font.glyphs(b"\x00\x01\x00\x06")
    ]
    assert metrics == [(-0.9, (0.25, 0.8)), (-0.8, (0.4, 0.7))]


def test_identity_h_is_writing_mode_0(builder):
    assert load_font(builder.type0_font()).writing_mode == 0


def test_type0_to_unicode_decodes_two_byte_codes(builder):
    font = load_font(builder.type0_font(to_unicode=tounicode_cmap({5: "漢"}, code_bytes=2)))
    assert decoded(font, b"\x00\x05") == [("漢", DecodeSource.TO_UNICODE)]


def test_ucs2_named_cmap_codes_are_unicode(builder):
    font = load_font(builder.type0_font(encoding="UniJIS-UCS2-H"))
    if font.info().problems:
        pytest.skip("predefined CMap data unavailable")
    assert decoded(font, "あ".encode("utf-16-be")) == [("あ", DecodeSource.ENCODING_CMAP)]


def test_predefined_collection_decodes_cids(builder):
    font = load_font(builder.type0_font(cid_system_info=("Adobe", "Japan1", 6)))
    pytest.importorskip("glyphscope.core.fonts.cmap.predefined").cid_to_unicode(
        "Adobe-Japan1", 34
    ) or pytest.skip("Adobe-Japan1 data unavailable")
    assert decoded(font, b"\x00\x22") == [("A", DecodeSource.PREDEFINED_CMAP)]


def test_mixed_width_named_cmap_splits_and_decodes_by_collection(builder):
    font = load_font(builder.type0_font(encoding="90ms-RKSJ-H"))
    if font.info().problems:
        pytest.skip("predefined CMap data unavailable")
    glyphs = font.glyphs("あA".encode("shift_jis"))
    assert [(g.code, g.code_length, g.text, g.decode_source) for g in glyphs] == [
        (0x82A0, 2, "あ", DecodeSource.PREDEFINED_CMAP),
        (0x41, 1, "A", DecodeSource.PREDEFINED_CMAP),
    ]


def test_utf16_named_cmap_joins_surrogate_pairs_and_is_vertical(builder):
    font = load_font(builder.type0_font(encoding="UniJIS-UTF16-V"))
    if font.info().problems:
        pytest.skip("predefined CMap data unavailable")
    assert font.writing_mode == 1
    assert decoded(font, "😀".encode("utf-16-be")) == [("😀", DecodeSource.ENCODING_CMAP)]


def test_embedded_encoding_cmap_maps_codes_to_cids(builder):
    cmap = cid_cmap({0x41: 7}, code_bytes=1, name="Test-Embedded-H")
    font = load_font(builder.type0_font(encoding=cmap, w=[7, [450]]))
    glyph = one(font, b"A")
    assert (glyph.code, glyph.code_length, glyph.width, font.info().encoding) == (
        0x41,
        1,
        0.45,
        "embedded CMap Test-Embedded-H",
    )


def test_identity_cid_truetype_decodes_through_its_font_program(builder):
    program = truetype_program("漢字")
    font = load_font(
        builder.type0_font(cid_system_info=("Adobe", "Identity", 0), font_program=program)
    )
    assert decoded(font, b"\x00\x01\x00\x02") == [
        ("漢", DecodeSource.FONT_PROGRAM),
        ("字", DecodeSource.FONT_PROGRAM),
    ]


def test_composite_info_names_descendant_and_collection(builder):
    info = load_font(builder.type0_font()).info()
    assert (info.subtype, info.descendant_subtype, info.cid_system_info, info.encoding) == (
        "Type0",
        "CIDFontType2",
        "Adobe-Japan1",
        "Identity-H",
    )


# Caching


def test_repeated_string_gives_equal_fresh_lists(builder):
    font = load_font(builder.standard_font("Helvetica"))
    first, second = font.glyphs(b"AB"), font.glyphs(b"AB")
    assert first == second and first is not second


# A real embedded font


def test_corpus_truetype_decodes_through_its_mac_cmap_and_post_names(corpus_dir):
    # pdf.js issue 1350: symbolic TrueType, no /Encoding, a ToUnicode that maps nothing; the
    # program has only a (1,0) cmap and a format 2 post table.
    with pikepdf.open(corpus_dir / "pdfjs__issue1350.pdf") as pdf:
        font = load_font(pdf.pages[0].Resources.Font["/F1.0"])
        assert decoded(font, b"What") == [
            ("W", DecodeSource.FONT_PROGRAM),
            ("h", DecodeSource.FONT_PROGRAM),
            ("a", DecodeSource.FONT_PROGRAM),
            ("t", DecodeSource.FONT_PROGRAM),
        ]
        assert font.info().embedded_program == "FontFile2"


@pytest.mark.parametrize("page_index", [10, 50])
def test_corpus_dvips_type3_fonts_decode_like_pdftotext(corpus_dir, page_index):
    # pdf.js/pdfpig mozilla-10372: dvips Type 3 bitmap fonts named /a16…/a243 by code.
    # pdftotext writes the control codes (T1-encoded ligatures) as controls; we read them
    # through T1 (issue 12), so the reference's controls are counted as T1 characters.
    reference = (corpus_dir / "refs" / "pdfpig__mozilla-10372-2.pdf.pdftotext.txt").read_text(
        encoding="utf-8"
    )
    page_text = reference.split("\f")[page_index]
    expected = Counter(
        T1.get(ord(c), "\ufffd") if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c
        for c in page_text
        if c not in " \n\t\r"
    )
    with Document.open(corpus_dir / "pdfpig__mozilla-10372-2.pdf") as document:
        glyphs = document.page(page_index).extract().glyphs
    assert Counter(g.text or "\ufffd" for g in glyphs if g.text != " ") == expected
