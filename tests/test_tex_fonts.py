"""TeX fonts without /ToUnicode (core.fonts.tex): encodings by font name or by the codes of a
dvips numbered-name Type 3 font, and TeX glyph names outside the Adobe Glyph List."""

from __future__ import annotations

from glyphscope.core.document import Document
from tests.pdfbuilder import PdfBuilder

PROC = b"500 0 d0"


def _numbered_type3(builder: PdfBuilder, codes: list[int]):
    names = [f"a{code}" for code in codes]
    differences: list[int | str] = []
    for code, name in zip(codes, names, strict=True):
        differences += [code, name]
    return builder.type3_font(
        {name: PROC for name in names},
        differences=differences,
        widths={code: 500 for code in codes},
    )


def _page(builder: PdfBuilder, font, content: bytes):
    builder.add_page(content, fonts={"F1": font})
    return Document.open(builder.to_bytes()).page(0)


def test_dvips_type3_font_with_t1_ligature_codes_reads_t1():
    builder = PdfBuilder()
    font = _numbered_type3(builder, [28, 29, 97, 114, 101, 99, 116, 105, 111, 110])
    # "re\035ection" with code 29 the T1 fl ligature, and "\034" the fi one.
    page = _page(builder, font, b"BT /F1 10 Tf 72 700 Td (re\\035ection \\034) Tj ET")
    assert page.text() == "reflection fi"
    assert {g.decode_source for g in page.glyphs() if g.code in (28, 29)} == {"tex_encoding"}
    assert page.glyphs()[0].decode_source == "tex_encoding"


def test_dvips_type3_font_with_ot1_codes_reads_ot1():
    builder = PdfBuilder()
    font = _numbered_type3(builder, [12, 97, 123])
    page = _page(builder, font, b"BT /F1 10 Tf 72 700 Td (\\014a{a) Tj ET")
    assert page.text() == "fia\u2013a"


def test_dvips_type3_font_without_tex_codes_keeps_the_latin1_guess():
    builder = PdfBuilder()
    font = _numbered_type3(builder, [97, 123])
    page = _page(builder, font, b"BT /F1 10 Tf 72 700 Td (a{) Tj ET")
    assert page.text() == "a{"
    assert {g.decode_source for g in page.glyphs()} == {"glyph_name_number"}


def test_cm_font_named_cmr10_without_encoding_reads_ot1():
    builder = PdfBuilder()
    font = builder.standard_font("CMR10", encoding=None, widths=[500] * 96)
    page = _page(builder, font, b'BT /F1 10 Tf 72 700 Td (\\014nd 1{2 \\\\ok") Tj ET')
    assert page.text() == "find 1\u20132 \u201cok\u201d"
    assert page.glyphs()[0].decode_source == "tex_encoding"


def test_cm_math_fonts_read_oml_and_oms():
    builder = PdfBuilder()
    oml = builder.standard_font("ABCDEF+CMMI10", encoding=None, widths=[500] * 96)
    oms = builder.standard_font("CMSY10", encoding=None, widths=[500] * 96)
    builder.add_page(
        b"BT /F1 10 Tf 72 700 Td (\\013) Tj /F2 10 Tf (\\024) Tj ET", fonts={"F1": oml, "F2": oms}
    )
    assert Document.open(builder.to_bytes()).page(0).text() == "\u03b1\u2264"


def test_tex_glyph_names_outside_the_agl_decode():
    builder = PdfBuilder()
    font = builder.standard_font(
        "Helvetica", differences=[65, "visiblespace", "dotlessj", "compwordmark"], widths=[500] * 96
    )
    glyphs = _page(builder, font, b"BT /F1 10 Tf 72 700 Td (ABC) Tj ET").glyphs()
    assert [(g.text, g.decode_source) for g in glyphs] == [
        ("\u2423", "tex_encoding"),
        ("\u0237", "tex_encoding"),
        ("\u200c", "tex_encoding"),
    ]
