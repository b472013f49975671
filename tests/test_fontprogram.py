"""The embedded-font-program step: Unicode from a font's own cmap, glyph names or encoding."""

from __future__ import annotations

import io
import zlib

import pikepdf
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTFont
from pikepdf import Dictionary, Name

from glyphscope.core.fonts.program import embedded_program_type, font_program_unicode
from tests.pdfbuilder import truetype_program

TYPE1_CLEARTEXT = b"""%!PS-AdobeFont-1.0: GlyphscopeT1 001
11 dict begin
/FontName /GlyphscopeT1 def
/Encoding 256 array
0 1 255 {1 index exch /.notdef put} for
dup 65 /B put
dup 66 /fi put
readonly def
currentdict end
currentfile eexec
"""


# Objects live only as long as their Pdf, so the test PDFs stay open for the whole session.
_PDF = pikepdf.new()


def descriptor(key: str, program: bytes, **entries: object) -> Dictionary:
    stream = pikepdf.Stream(_PDF, program)
    for name, value in entries.items():
        stream[f"/{name}"] = value
    return Dictionary({"/Type": Name.FontDescriptor, key: _PDF.make_indirect(stream)})


def cff_program() -> bytes:
    """A bare CFF (FontFile3 /Type1C) with glyphs A and fi and the StandardEncoding."""
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder([".notdef", "A", "fi"])
    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((100, 0))
    pen.lineTo((100, 100))
    pen.closePath()
    charstring = pen.getCharString()
    builder.setupCFF("GlyphscopeCFF", {}, {".notdef": charstring, "A": charstring}, {})
    builder.font["CFF "].cff[0].CharStrings["fi"] = charstring
    builder.setupCharacterMap({0x41: "A"})
    builder.setupHorizontalMetrics({name: (500, 0) for name in (".notdef", "A", "fi")})
    builder.setupHorizontalHeader()
    builder.setupNameTable({"familyName": "GlyphscopeCFF", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return TTFont(io.BytesIO(out.getvalue())).getTableData("CFF ")


def test_no_embedded_program_gives_nothing():
    result = font_program_unicode(Dictionary(Type=Name.FontDescriptor), "TrueType")
    assert (result.program_type, dict(result.by_code), result.problems) == ("", {}, ())


def test_program_type_names_fontfile3_subtype():
    assert embedded_program_type(descriptor("/FontFile3", b"", Subtype=Name.Type1C)) == (
        "FontFile3/Type1C"
    )


def test_truetype_unicode_cmap_decodes_codes_as_unicode():
    result = font_program_unicode(descriptor("/FontFile2", truetype_program("AB")), "TrueType")
    assert (result.by_code[0x41], result.by_code[0x42]) == ("A", "B")


def test_symbolic_truetype_reads_f000_plus_code_in_3_0_cmap():
    program = truetype_program("AB", cmap="symbol", glyph_names=True)
    result = font_program_unicode(descriptor("/FontFile2", program), "TrueType")
    assert result.by_code == {0x41: "A", 0x42: "B"}


def test_symbolic_truetype_without_glyph_names_resolves_nothing():
    program = truetype_program("AB", cmap="symbol", glyph_names=False)
    result = font_program_unicode(descriptor("/FontFile2", program), "TrueType")
    assert dict(result.by_code) == {}


def test_cid_truetype_maps_glyph_ids_through_the_reversed_cmap():
    program = truetype_program("あい")
    result = font_program_unicode(descriptor("/FontFile2", program), "CIDFontType2")
    assert (dict(result.by_glyph), dict(result.by_code)) == ({1: "あ", 2: "い"}, {})


def test_cff_builtin_standard_encoding_names_the_codes():
    program = font_program_unicode(
        descriptor("/FontFile3", cff_program(), Subtype=Name.Type1C), "Type1"
    )
    assert dict(program.by_code) == {0x41: "A", 0xAE: "ﬁ"}


def test_type1_builtin_encoding_comes_from_the_clear_text_part():
    result = font_program_unicode(descriptor("/FontFile", TYPE1_CLEARTEXT), "Type1")
    assert dict(result.by_code) == {65: "B", 66: "ﬁ"}


def test_damaged_truetype_is_recorded_not_raised():
    result = font_program_unicode(descriptor("/FontFile2", b"\x00\x01\x00\x00junk"), "TrueType")
    assert (dict(result.by_code), len(result.problems)) == ({}, 1)
    assert result.problems[0].startswith("FontFile2 unreadable:")


def test_oversized_program_is_skipped_once_decoding_passes_the_cap():
    # 17 MB of zeros in 17 KB of Flate data: decoding stops at the cap, nothing is parsed.
    bomb = zlib.compress(bytes(17 << 20), 9)
    program = descriptor("/FontFile2", bomb, Filter=Name.FlateDecode)
    result = font_program_unicode(program, "TrueType")
    assert result.problems == ("font program larger than 16 MB skipped",)


def test_program_cap_is_the_callers():
    result = font_program_unicode(descriptor("/FontFile2", b"tiny"), "TrueType", max_bytes=3)
    assert result.problems == ("font program larger than 3 bytes skipped",)


def test_type1_with_a_pfb_segment_header_is_still_read():
    header = b"\x80\x01" + len(TYPE1_CLEARTEXT).to_bytes(4, "little")
    result = font_program_unicode(descriptor("/FontFile", header + TYPE1_CLEARTEXT), "Type1")
    assert dict(result.by_code) == {65: "B", 66: "ﬁ"}


def test_type1_encoding_with_unset_slots_is_read():
    # dvips/pdfTeX subsets write `256 array` and fill only the codes they use.
    program = b"""%!PS-AdobeFont-1.1: CMSY10 1.0
/FontName /CMSY10 def
/Encoding 256 array
dup 15 /bullet put
dup 33 /arrowright put
readonly def
currentfile eexec
"""
    result = font_program_unicode(descriptor("/FontFile", program), "Type1")
    assert (dict(result.by_code), result.problems) == ({15: "•", 33: "→"}, ())


def test_type1_radix_code_in_encoding_is_read():
    program = b"/Encoding 256 array\ndup 8#101 /A put\nreadonly def\ncurrentfile eexec\n"
    result = font_program_unicode(descriptor("/FontFile", program), "Type1")
    assert dict(result.by_code) == {65: "A"}


def test_type1_standard_builtin_encoding_is_flagged_standard():
    program = b"/FontName /X def\n/Encoding StandardEncoding def\ncurrentfile eexec\n"
    result = font_program_unicode(descriptor("/FontFile", program), "Type1")
    assert (result.standard_encoding, result.by_code[0x27]) == (True, "\u2019")


def test_cff_standard_builtin_encoding_is_flagged_standard():
    program = font_program_unicode(
        descriptor("/FontFile3", cff_program(), Subtype=Name.Type1C), "Type1"
    )
    assert program.standard_encoding is True


def test_type1_custom_builtin_encoding_is_not_flagged_standard():
    result = font_program_unicode(descriptor("/FontFile", TYPE1_CLEARTEXT), "Type1")
    assert result.standard_encoding is False


def test_type1_later_put_replaces_an_earlier_one():
    program = b"/Encoding 256 array\ndup 65 /A put\ndup 65 /B put\nreadonly def\neexec\n"
    result = font_program_unicode(descriptor("/FontFile", program), "Type1")
    assert dict(result.by_code) == {65: "B"}
