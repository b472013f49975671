"""The test-PDF builder writes what it is given, and the results open in pikepdf and pdfium."""

from __future__ import annotations

import io

import pikepdf
import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont
from pikepdf import Dictionary, Name

from tests.pdfbuilder import (
    MCR,
    OBJR,
    Element,
    Encrypt,
    PdfBuilder,
    cid_cmap,
    standard_widths,
    tounicode_cmap,
    truetype_program,
)

HELLO = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET"


def _hello() -> PdfBuilder:
    builder = PdfBuilder()
    builder.add_page(HELLO, fonts={"F1": builder.standard_font("Helvetica")})
    return builder


def _pdfium_text(data: bytes, index: int = 0, password: str | None = None) -> str:
    return pdfium.PdfDocument(data, password=password)[index].get_textpage().get_text_range()


def test_page_content_is_stored_byte_for_byte():
    content = (
        b"BT\r\n/F1 12 Tf 72 720 Td (a\\)b) Tj %c\nET q BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q"
    )
    builder = PdfBuilder()
    builder.add_page(content, fonts={"F1": builder.standard_font()})
    pdf = pikepdf.open(io.BytesIO(builder.to_bytes()))
    assert pdf.pages[0].Contents.read_raw_bytes() == content


def test_standard_font_page_renders_in_pdfium():
    assert _pdfium_text(_hello().to_bytes()) == "Hello"


def test_content_list_becomes_contents_array():
    builder = PdfBuilder()
    builder.add_page(
        [b"BT /F1 12 Tf 72 720 Td", b"(Split) Tj ET"], fonts={"F1": builder.standard_font()}
    )
    data = builder.to_bytes()
    pdf = pikepdf.open(io.BytesIO(data))
    assert len(pdf.pages[0].obj.Contents) == 2
    assert _pdfium_text(data) == "Split"


@pytest.mark.parametrize("algorithm", ["rc4-40", "rc4-128", "aes-128", "aes-256"])
def test_encrypted_pdf_opens_with_user_and_owner_password(algorithm):
    data = _hello().save(encrypt=Encrypt("user", "owner", algorithm))
    with pytest.raises(pikepdf.PasswordError):
        pikepdf.open(io.BytesIO(data))
    assert len(pikepdf.open(io.BytesIO(data), password="user").pages) == 1
    assert _pdfium_text(data, password="owner") == "Hello"


def test_type0_w_array_is_written_exactly_as_given():
    builder = PdfBuilder()
    font = builder.type0_font(w=[10, [500, 600], 1, 3, 250, 2, [700]], dw=1000)
    builder.add_page(b"BT /F1 10 Tf 72 720 Td <000A> Tj ET", fonts={"F1": font})
    data = builder.to_bytes()
    pdf = pikepdf.open(io.BytesIO(data))
    cid_font = pdf.pages[0].Resources.Font.F1.DescendantFonts[0]
    assert [v if isinstance(v, int) else list(v) for v in cid_font.W] == [
        10, [500, 600], 1, 3, 250, 2, [700],
    ]  # fmt: skip
    assert b"/W [ 10 [ 500 600 ] 1 3 250 2 [ 700 ] ]" in data


def test_truetype_font_with_to_unicode_renders_in_pdfium():
    builder = PdfBuilder()
    font = builder.truetype_font(chars="AB", to_unicode=tounicode_cmap({0x41: "x", 0x42: "fi"}))
    builder.add_page(b"BT /F1 20 Tf 72 720 Td (AB) Tj ET", fonts={"F1": font})
    assert _pdfium_text(builder.to_bytes()) == "xfi"


def test_truetype_program_symbol_cmap_maps_f000_range():
    font = TTFont(io.BytesIO(truetype_program("AB", cmap="symbol")))
    assert font["cmap"].getcmap(3, 0).cmap == {0xF041: "A", 0xF042: "B"}
    assert font["cmap"].getcmap(3, 1) is None


def test_truetype_program_gives_wide_characters_a_full_em():
    font = TTFont(io.BytesIO(truetype_program("A漢")))
    assert font["hmtx"]["A"][0] == 600
    assert font["hmtx"]["uni6F22"][0] == 1000


def test_tounicode_cmap_writes_surrogates_ligatures_and_count_override():
    text = tounicode_cmap({1: "\U0001f600", 2: "fi"}, code_bytes=2, count_override=7)
    assert "<0001> <D83DDE00>" in text
    assert "<0002> <00660069>" in text
    assert "7 beginbfchar" in text


def test_tounicode_cmap_writes_bfrange_array_destination():
    text = tounicode_cmap(bfranges=[(0x10, 0x11, ["A", "B"]), (0x20, 0x22, "a")])
    assert "<10> <11> [<0041> <0042>]" in text
    assert "<20> <22> <0061>" in text


def test_embedded_encoding_cmap_is_a_cmap_stream_with_wmode():
    builder = PdfBuilder()
    cmap = cid_cmap({b"\x00\x01": 5}, wmode=1, name="Test-V")
    font = builder.type0_font(encoding=cmap)
    assert font.Encoding.CMapName == "/Test-V"
    assert font.Encoding.WMode == 1
    assert font.Encoding.read_bytes() == cmap.encode()


def test_form_without_resources_has_no_resources_entry():
    builder = PdfBuilder()
    form = builder.form_xobject(b"BT /F1 12 Tf (x) Tj ET")
    assert "/Resources" not in form


def test_form_can_draw_itself():
    builder = PdfBuilder()
    form = builder.form_xobject(b"/Me Do", bbox=(0, 0, 10, 10))
    builder.add_resources(form, xobjects={"Me": form})
    assert form.Resources.XObject.Me.objgen == form.objgen


def test_form_text_renders_in_pdfium():
    builder = PdfBuilder()
    helv = builder.standard_font()
    form = builder.form_xobject(b"BT /F1 12 Tf 72 700 Td (Header) Tj ET", fonts={"F1": helv})
    builder.add_page(b"/Fm1 Do", xobjects={"Fm1": form})
    assert _pdfium_text(builder.to_bytes()) == "Header"


def test_struct_tree_keeps_author_order_and_builds_parent_tree():
    builder = PdfBuilder()
    builder.add_page(b"/P <</MCID 0>> BDC EMC /P <</MCID 1>> BDC EMC")
    second, first = Element("P", 1), Element("P", [0])
    root = builder.struct_tree([Element("Document", [second, first], page=0)])
    document = root.K[0]
    assert document.K[0].K == 1
    assert list(document.K[1].K) == [0]
    assert builder.page_object(0).StructParents == 0
    assert builder.pdf.Root.MarkInfo.Marked is True
    parents = root.ParentTree.Nums[1]
    assert parents[0].objgen == document.K[1].objgen
    assert parents[1].objgen == document.K[0].objgen


def test_struct_tree_mcr_on_another_page_gets_pg():
    builder = PdfBuilder()
    builder.add_page(b"")
    builder.add_page(b"/P <</MCID 3>> BDC EMC")
    root = builder.struct_tree(Element("P", [MCR(3, page=1)], page=0))
    assert root.K.K[0].Pg.objgen == builder.page_object(1).objgen
    assert "/StructParents" not in builder.page_object(0)
    assert builder.page_object(1).StructParents == 0


def test_struct_tree_mcr_in_a_form_gets_the_form_a_parent_tree_entry():
    builder = PdfBuilder()
    form = builder.form_xobject(b"/P <</MCID 0>> BDC EMC")
    builder.add_page(b"/P <</MCID 0>> BDC EMC /Fm1 Do", xobjects={"Fm1": form})
    root = builder.struct_tree(Element("Div", [0, MCR(0, stm=form)], page=0))
    assert (builder.page_object(0).StructParents, form.StructParents) == (0, 1)
    assert root.K.K[1].Stm.objgen == form.objgen
    assert root.ParentTree.Nums[3][0].objgen == root.K.objgen


def test_struct_tree_objr_object_gets_struct_parent():
    builder = PdfBuilder()
    builder.add_page(b"")
    annotation = builder.pdf.make_indirect(Dictionary(Type=Name.Annot, Subtype=Name.Link))
    root = builder.struct_tree(Element("Link", [OBJR(annotation, page=0)], page=0))
    assert annotation.StructParent == 0
    assert root.ParentTree.Nums[1].objgen == root.K.objgen
    assert root.ParentTreeNextKey == 1


def test_struct_tree_can_be_cyclic():
    builder = PdfBuilder()
    builder.add_page(b"")
    section = Element("Sect", [0], page=0)
    section.kids.append(section)
    root = builder.struct_tree(section, marked=False)
    assert root.K.K[1].objgen == root.K.objgen
    assert builder.pdf.Root.MarkInfo.Marked is False


def test_standard_widths_match_helvetica_metrics():
    widths = standard_widths("Helvetica")
    assert (widths[0x20], widths[0x41], widths[0x80]) == (278, 667, 556)


def test_fonts_sharing_a_program_embed_it_once():
    builder = PdfBuilder()
    program = truetype_program("漢字")
    horizontal = builder.type0_font("Shared", encoding="Identity-H", font_program=program)
    vertical = builder.type0_font("Shared", encoding="Identity-V", font_program=program)
    descriptors = [f.DescendantFonts[0].FontDescriptor for f in (horizontal, vertical)]
    assert descriptors[0].FontFile2.objgen == descriptors[1].FontFile2.objgen


def test_sample_pdf_is_what_its_generator_writes(tmp_path):
    from glyphscope.assets import make_sample

    if not (make_sample.DROID.exists() and make_sample.DEJAVU.exists()):
        pytest.skip("fonts-droid-fallback or fonts-dejavu-core is not installed")
    make_sample.Sample().build().save(tmp_path / "sample.pdf", compress=True)
    assert (tmp_path / "sample.pdf").read_bytes() == make_sample.OUTPUT.read_bytes()


def test_sample_pdf_renders_five_pages_in_pdfium():
    from glyphscope.assets import make_sample

    document = pdfium.PdfDocument(make_sample.OUTPUT.read_bytes())
    assert len(document) == 5
    assert "PDF Reference Manual" in document[0].get_textpage().get_text_range()
