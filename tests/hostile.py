"""Hostile PDFs: a few kilobytes each that expand into gigabytes, absurd numbers or huge
tables unless the engine bounds them. `KINDS` maps a name to a builder of the file's bytes;
the hostile tests, the resource test and the fuzz harness all use them.

    data = KINDS["lzw_bomb"]()        # 190 KB that LZW-decode to 256 MB of zeros
"""

from __future__ import annotations

import io
import re
import zlib
from collections.abc import Callable

import pikepdf

from tests.pdfbuilder import PdfBuilder, lzw_codes, tounicode_cmap

HELLO = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET\n"
# Bigger than every default cap of the rules (64 MB a stream, 16 MB a font stream).
BOMB_BYTES = 80 << 20


def _zeros_after(head: bytes, size: int) -> bytes:
    """Flate data of `head` followed by NUL bytes (PDF whitespace, §7.2.3) up to `size`."""
    return zlib.compress(head + bytes(size - len(head)), 9)


def _page(content: bytes | pikepdf.Stream, builder: PdfBuilder | None = None, **page) -> bytes:
    builder = builder or PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    builder.add_page(content, fonts={"F1": helvetica}, **page)
    return builder.to_bytes()


def flate_predictor_bomb(size: int = BOMB_BYTES) -> bytes:
    """80 MB of PNG rows (tag 0: None) behind a /Predictor 12: the text, then zeros."""
    columns = 1023
    rows = [HELLO.ljust(columns, b" ")] + [bytes(columns)] * (size // (columns + 1))
    data = zlib.compress(b"".join(b"\x00" + row for row in rows), 9)
    builder = PdfBuilder()
    stream = builder.stream(
        data, Filter="/FlateDecode", DecodeParms={"Predictor": 12, "Columns": columns}
    )
    return _page(stream, builder)


def lzw_bomb(cycles: int = 36) -> bytes:
    """LZW codes that each repeat the previous string plus one zero: 7 MB a cycle of 5 KB
    (256 MB from 190 KB by default)."""
    codes = [256, *HELLO, 256] + [256, 0, *range(258, 4000)] * cycles + [257]
    builder = PdfBuilder()
    return _page(builder.stream(lzw_codes(codes), Filter="/LZWDecode"), builder)


def predictor_columns_2147483647() -> bytes:
    builder = PdfBuilder()
    stream = builder.stream(
        zlib.compress(b"\x00" + HELLO),
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 12, "Columns": 2147483647},
    )
    return _page(stream, builder)


def predictor_bits_64() -> bytes:
    builder = PdfBuilder()
    stream = builder.stream(
        zlib.compress(HELLO),
        Filter="/FlateDecode",
        DecodeParms={"Predictor": 2, "BitsPerComponent": 64, "Columns": 4},
    )
    return _page(stream, builder)


def ascii85_zero_bomb(size: int = BOMB_BYTES) -> bytes:
    """ASCII85 `z` (four zero bytes) repeated: 80 MB from Flate data of 20 MB of `z`."""
    data = zlib.compress(HELLO.hex().encode() + b">", 9)
    builder = PdfBuilder()
    zeros = zlib.compress(b"z" * (size // 4) + b"~>", 9)
    bomb = builder.stream(zeros, Filter=["/FlateDecode", "/ASCII85Decode"])
    text = builder.stream(data, Filter=["/FlateDecode", "/ASCIIHexDecode"])
    return _page([text, bomb], builder)


def _cid_font_page(builder: PdfBuilder, font: pikepdf.Dictionary) -> bytes:
    builder.add_page(b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET", fonts={"F1": font})
    return builder.to_bytes()


def tounicode_bomb(size: int = BOMB_BYTES) -> bytes:
    """A ToUnicode CMap followed by 80 MB of NUL bytes (whitespace to the CMap lexer)."""
    builder = PdfBuilder()
    cmap = tounicode_cmap({0x41: "A", 0x42: "B"}, code_bytes=2).encode()
    font = builder.type0_font(cid_system_info=("Adobe", "Identity", 0))
    font.ToUnicode = builder.stream(_zeros_after(cmap, size), Filter="/FlateDecode")
    return _cid_font_page(builder, font)


def encoding_cmap_bomb(size: int = BOMB_BYTES) -> bytes:
    builder = PdfBuilder()
    font = builder.type0_font(cid_system_info=("Adobe", "Identity", 0))
    font.Encoding = builder.stream(_zeros_after(b"/CIDInit", size), Filter="/FlateDecode")
    return _cid_font_page(builder, font)


def cid_to_gid_bomb(size: int = BOMB_BYTES) -> bytes:
    builder = PdfBuilder()
    font = builder.type0_font(cid_system_info=("Adobe", "Identity", 0))
    descendant = font.DescendantFonts[0]
    descendant.CIDToGIDMap = builder.stream(_zeros_after(b"", size), Filter="/FlateDecode")
    return _cid_font_page(builder, font)


def font_program_bomb(size: int = BOMB_BYTES) -> bytes:
    """An Identity CIDFont without ToUnicode: only its program could name the glyphs."""
    builder = PdfBuilder()
    font = builder.type0_font(cid_system_info=("Adobe", "Identity", 0))
    descriptor = font.DescendantFonts[0].FontDescriptor
    descriptor.FontFile2 = builder.stream(
        _zeros_after(b"\x00\x01\x00\x00", size), Filter="/FlateDecode"
    )
    return _cid_font_page(builder, font)


def long_destinations() -> bytes:
    """256 codes whose ToUnicode destinations are 2,500 characters each (13 KB compressed)."""
    builder = PdfBuilder()
    cmap = tounicode_cmap({code: chr(0x41 + code % 26) * 2500 for code in range(256)})
    font = builder.truetype_font(to_unicode=cmap)
    font.ToUnicode = builder.stream(zlib.compress(cmap.encode(), 9), Filter="/FlateDecode")
    shown = bytes(range(256)).hex().encode()
    builder.add_page(b"BT /F1 12 Tf 72 700 Td <" + shown + b"> Tj ET", fonts={"F1": font})
    return builder.to_bytes()


def _big(exponent: int) -> bytes:
    """10^exponent as PDF writes a real (§7.3.3: no exponent notation)."""
    return b"1" + b"0" * exponent + b".0"


def _with_media_box(data: bytes, width: bytes, height: bytes = b"792") -> bytes:
    return data.replace(
        b"/MediaBox [ 0 0 612 792 ]", b"/MediaBox [ 0 0 " + width + b" " + height + b" ]"
    )


def glyph_at_1e300() -> bytes:
    content = HELLO + b"BT /F1 12 Tf 1 0 0 1 " + _big(300) + b" 700 Tm (far) Tj ET"
    return _with_media_box(_page(content), _big(301))


def glyph_at_1e9() -> bytes:
    content = HELLO + b"BT /F1 12 Tf 1000000000 700 Td (far) Tj ET"
    return _with_media_box(_page(content), b"2000000000")


def media_box_1e9() -> bytes:
    """Text at the top and bottom of a page a billion units tall, and a thousand lines
    between, each a million units from the next."""
    lines = b"".join(b"0 -999000 Td (line) Tj " for _ in range(1000))
    content = b"BT /F1 12 Tf 72 999999000 Td (top) Tj " + lines + b"ET"
    return _with_media_box(_page(content), b"1000000000", b"1000000000")


def huge_text_matrix() -> bytes:
    """A Tm of 1e300 under a CTM of 1e10: positions and sizes overflow to infinity, and
    infinity times zero makes nan."""
    huge, scale = _big(300), _big(10)
    matrix = b" ".join((huge, b"0 0", huge, huge, huge))
    ctm = b" ".join((scale, b"0 0", scale, b"0 0"))
    return _page(HELLO + ctm + b" cm BT /F1 12 Tf " + matrix + b" Tm (inf) Tj ET")


def w_200000_entries() -> bytes:
    """A /W array of 200,000 overlapping range entries written in descending CID order."""
    builder = PdfBuilder()
    count = 200_000
    entries = " ".join(
        f"{(count - i) * 3} {(count - i) * 3 + 5} {500 + i % 400}" for i in range(count)
    )
    font = builder.type0_font(cid_system_info=("Adobe", "Identity", 0))
    # Written as raw PDF syntax so the builder does not make 600,000 pikepdf objects.
    font.DescendantFonts[0].W = pikepdf.Array(
        pikepdf.parse_content_stream(pikepdf.Stream(builder.pdf, f"[{entries}] W".encode()))[
            0
        ].operands[0]
    )
    return _cid_font_page(builder, font)


def many_glyphs(glyphs: int = 1_000_000) -> bytes:
    """One page showing `glyphs` glyphs, 62 a line (a million: 20 KB of Flate data). Each
    line shows the letters and digits rotated by one more, so no glyph repeats another."""
    letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" * 2
    lines = glyphs // 62
    body = b"".join(b"(" + letters[i % 62 : i % 62 + 62] + b") Tj 0 -1.2 Td " for i in range(lines))
    content = b"BT /F1 1 Tf 10 %d Td " % (lines * 1.2 + 10) + body + b"ET"
    builder = PdfBuilder()
    stream = builder.stream(zlib.compress(content, 9), Filter="/FlateDecode")
    return _page(stream, builder, media_box=(0, 0, 612, lines * 1.2 + 20))


def damaged_page_tree() -> bytes:
    """A page tree with a non-dictionary kid and no usable xref: qpdf repairs and logs."""
    data = _page(HELLO)
    data = data.replace(b"/Kids [ 3 0 R ]", b"/Kids [ 3 0 R 1 ]").replace(
        b"startxref", b"startxrex"
    )
    return data


# Round 3 (issue 31): what a fuzzing campaign and hand-made inputs found.


def _hebrew_then(char: str) -> bytes:
    """A Hebrew word whose ToUnicode also maps code 0x5A to `char` (shown after it)."""
    builder = PdfBuilder()
    mapping = {0x41: "\u05e9", 0x42: "\u05dc", 0x43: "\u05d5", 0x5A: char}
    font = builder.truetype_font(to_unicode=tounicode_cmap(mapping))
    builder.add_page(b"BT /F1 12 Tf 72 700 Td (CBAZ) Tj ET", fonts={"F1": font})
    return builder.to_bytes()


def rtl_then_lri() -> bytes:
    """Hebrew followed by U+2066 LEFT-TO-RIGHT ISOLATE."""
    return _hebrew_then("\u2066")


def rtl_then_unassigned() -> bytes:
    """Hebrew followed by U+0378, an unassigned code point (no bidi class)."""
    return _hebrew_then("\u0378")


def rtl_then_noncharacter() -> bytes:
    """Hebrew followed by a ToUnicode mapping to U+FFFF, a noncharacter (not text)."""
    return _hebrew_then("\uffff")


def empty_inline_image() -> bytes:
    """`BI EI` with nothing between (a one-bit flip of a real file), then text."""
    return _page(b"BI EI\n" + HELLO)


def _nested(opening: bytes, depth: int) -> bytes:
    content = opening * depth + HELLO + b"EMC\n" * depth
    builder = PdfBuilder()
    return _page(builder.stream(zlib.compress(content, 9), Filter="/FlateDecode"), builder)


def nested_bmc(depth: int = 100_000) -> bytes:
    """`depth` nested BMC/EMC around the text (3 KB; pdfium aborts rendering it)."""
    return _nested(b"/P BMC\n", depth)


def nested_actual_text(depth: int = 100_000) -> bytes:
    """`depth` nested /Span spans with /ActualText around the text."""
    return _nested(b"/Span <</ActualText (x)>> BDC\n", depth)


def _page_entry(entry: bytes) -> bytes:
    """A text page whose dictionary also holds `entry` (written as raw PDF syntax), with the
    cross-reference table rewritten to match, so qpdf reads the file without reconstructing."""
    data = _page(HELLO).replace(b"/Type /Page >>", b"/Type /Page " + entry + b" >>", 1)
    return _with_xref(data)


def _with_xref(data: bytes) -> bytes:
    """`data` (one revision, no object streams) with its xref table and startxref recomputed."""
    body = data[: data.rindex(b"\nxref\n") + 1]
    offsets = {
        int(match.group(1)): match.start(1) for match in re.finditer(rb"(?m)^(\d+) 0 obj", body)
    }
    rows = [b"0000000000 65535 f \n"] + [
        b"%010d 00000 n \n" % offsets[number] for number in range(1, max(offsets) + 1)
    ]
    trailer = data[data.rindex(b"trailer") : data.rindex(b"startxref")]
    table = b"xref\n0 %d\n" % (len(rows)) + b"".join(rows)
    return body + table + trailer + b"startxref\n%d\n%%%%EOF\n" % len(body)


def user_unit_31_digits() -> bytes:
    """/UserUnit as an integer of 31 digits: qpdf nulls the whole page dictionary."""
    return _page_entry(b"/UserUnit 1234567890123456789012345678901")


def rotate_1e300() -> bytes:
    return _page_entry(b"/Rotate 1" + b"0" * 300)


def trim_box_huge() -> bytes:
    return _page_entry(b"/TrimBox [ 0 0 " + b"9" * 40 + b" 792 ]")


def length_1e20() -> bytes:
    """The content stream's /Length is 10^20 (qpdf cannot read the stream's data)."""
    return _with_xref(_page(HELLO).replace(b"/Length 37", b"/Length 100000000000000000000", 1))


def annotation_listed_100000() -> bytes:
    """One FreeText annotation with an appearance, listed 100,000 times in /Annots."""
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    appearance = builder.form_xobject(
        b"BT /F1 9 Tf 2 2 Td (note) Tj ET", fonts={"F1": helvetica}, bbox=(0, 0, 50, 20)
    )
    annotation = builder.pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.FreeText,
            Rect=pikepdf.Array([100, 100, 150, 120]),
            AP=pikepdf.Dictionary(N=appearance),
        )
    )
    builder.add_page(HELLO, fonts={"F1": helvetica})
    builder.page_object(0).Annots = pikepdf.Array([annotation] * 100_000)
    return builder.to_bytes()


def widths_10_million(count: int = 10_000_000) -> bytes:
    """A simple font whose /Widths has `count` entries (20 MB of `500 `, as raw syntax)."""
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths={32: 500})
    builder.add_page(HELLO, fonts={"F1": font})
    return re.sub(
        rb"/Widths \[ [^\]]* \]", b"/Widths [ " + b"500 " * count + b"]", builder.to_bytes()
    )


def structure_tree_elements(count: int = 1_000_000) -> bytes:
    """A structure tree root whose /K holds `count` /P elements (direct objects, written as
    raw syntax), the first of them owning the page's MCID 0."""
    data = _page(b"/P <</MCID 0>> BDC\n" + HELLO + b"EMC\n")
    pdf = pikepdf.open(io.BytesIO(data))
    pdf.pages[0].obj.StructParents = 0
    pdf.Root.StructTreeRoot = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot, K=pikepdf.Array())
    )
    pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    out = io.BytesIO()
    pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    page_ref = b"%d 0 R" % pdf.pages[0].obj.objgen[0]
    first = b"<< /S /P /Pg " + page_ref + b" /K 0 >> "
    return out.getvalue().replace(b"/K [ ]", b"/K [ " + first + b"<< /S /P >> " * count + b"]", 1)


def nested_dictionaries(depth: int = 200_000) -> bytes:
    """200,000 nested `<<` in a content stream before the text."""
    builder = PdfBuilder()
    content = b"<<" * depth + b"\n" + HELLO
    return _page(builder.stream(zlib.compress(content, 9), Filter="/FlateDecode"), builder)


def operand_stream(size: int = 64 << 20) -> bytes:
    """`size` bytes of numbers with no operator between them, then the text."""
    builder = PdfBuilder()
    compressor = zlib.compressobj(9)
    chunk = b"1 2 3 4 5 6 7 8 " * 65536
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    data = b"".join(parts) + compressor.compress(b"\n" + HELLO) + compressor.flush()
    return _page(builder.stream(data, Filter="/FlateDecode"), builder)


def tj_million() -> bytes:
    """A TJ array of a million elements (letters and kerns)."""
    builder = PdfBuilder()
    body = b"(a) -10 " * 500_000
    content = b"BT /F1 1 Tf 72 700 Td [" + body + b"] TJ ET\n" + HELLO
    return _page(builder.stream(zlib.compress(content, 9), Filter="/FlateDecode"), builder)


KINDS: dict[str, Callable[[], bytes]] = {
    "flate_predictor_bomb": flate_predictor_bomb,
    "lzw_bomb": lzw_bomb,
    "predictor_columns_2147483647": predictor_columns_2147483647,
    "predictor_bits_64": predictor_bits_64,
    "ascii85_zero_bomb": ascii85_zero_bomb,
    "tounicode_bomb": tounicode_bomb,
    "encoding_cmap_bomb": encoding_cmap_bomb,
    "cid_to_gid_bomb": cid_to_gid_bomb,
    "font_program_bomb": font_program_bomb,
    "long_destinations": long_destinations,
    "glyph_at_1e300": glyph_at_1e300,
    "glyph_at_1e9": glyph_at_1e9,
    "media_box_1e9": media_box_1e9,
    "huge_text_matrix": huge_text_matrix,
    "w_200000_entries": w_200000_entries,
    "200000_glyphs": lambda: many_glyphs(200_000),
    "damaged_page_tree": damaged_page_tree,
    "rtl_then_lri": rtl_then_lri,
    "rtl_then_unassigned": rtl_then_unassigned,
    "rtl_then_noncharacter": rtl_then_noncharacter,
    "empty_inline_image": empty_inline_image,
    "nested_bmc": nested_bmc,
    "nested_actual_text": nested_actual_text,
    "user_unit_31_digits": user_unit_31_digits,
    "rotate_1e300": rotate_1e300,
    "trim_box_huge": trim_box_huge,
    "length_1e20": length_1e20,
    "annotation_listed_100000": annotation_listed_100000,
    "widths_10_million": widths_10_million,
    "structure_tree_1000000": structure_tree_elements,
    "nested_dictionaries": nested_dictionaries,
    "operand_stream": operand_stream,
    "tj_million": tj_million,
}
