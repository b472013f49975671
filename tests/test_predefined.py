"""core.fonts.cmap.predefined: Table 118 CMaps and CID → Unicode tables shipped in assets/cmaps/."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.fonts.cmap import predefined
from glyphscope.core.fonts.cmap.parser import parse_cmap
from glyphscope.core.fonts.cmap.predefined import cid_to_unicode, ordering_of, predefined_cmap


def decode(cmap_name: str, data: bytes, ordering: str = "Adobe-Japan1") -> str:
    cmap = predefined_cmap(cmap_name)
    return "".join(cid_to_unicode(ordering, cmap.cid(code)) or "?" for code, _ in cmap.split(data))


def test_identity_h_takes_two_byte_codes_and_cid_equals_code():
    cmap = predefined_cmap("Identity-H")
    assert [(code, cmap.cid(code)) for code, _ in cmap.split(b"\x12\x34\x00\x41")] == [
        (0x1234, 0x1234),
        (0x41, 0x41),
    ]


def test_identity_h_is_horizontal():
    assert predefined_cmap("Identity-H").writing_mode == 0


def test_identity_v_is_vertical():
    assert predefined_cmap("Identity-V").writing_mode == 1


def test_90ms_rksj_h_splits_ascii_single_and_shift_jis_double():
    assert predefined_cmap("90ms-RKSJ-H").split(b"A\x82\xa0\xb1") == [
        (0x41, 1),
        (0x82A0, 2),
        (0xB1, 1),
    ]


def test_90ms_rksj_h_hiragana_a_is_cid_843():
    assert predefined_cmap("90ms-RKSJ-H").cid(0x82A0) == 843


def test_90ms_rksj_h_hiragana_a_decodes_through_adobe_japan1():
    assert decode("90ms-RKSJ-H", "あ".encode("cp932")) == "あ"


def test_90ms_rksj_h_knows_its_collection():
    assert predefined_cmap("90ms-RKSJ-H").ordering == "Adobe-Japan1"


def test_90ms_rksj_v_is_vertical_and_uses_the_h_cmap():
    cmap = predefined_cmap("90ms-RKSJ-V")
    assert (cmap.writing_mode, cmap.usecmap, cmap.cid(0x82A0)) == (1, "90ms-RKSJ-H", 843)


def test_90ms_rksj_v_maps_the_long_vowel_mark_to_its_vertical_glyph():
    assert (
        predefined_cmap("90ms-RKSJ-H").cid(0x815B),
        predefined_cmap("90ms-RKSJ-V").cid(0x815B),
    ) == (
        660,
        7891,
    )


def test_90ms_rksj_h_control_bytes_map_to_notdef_cid():
    assert predefined_cmap("90ms-RKSJ-H").cid(0x01) == 231


def test_unigb_ucs2_h_maps_zhong_to_cid_4559():
    assert predefined_cmap("UniGB-UCS2-H").cid(0x4E2D) == 4559


def test_unigb_ucs2_h_round_trips_through_adobe_gb1():
    assert decode("UniGB-UCS2-H", "中文".encode("utf-16-be"), "Adobe-GB1") == "中文"


def test_unijis_utf16_h_reads_a_surrogate_pair_as_one_four_byte_code():
    assert predefined_cmap("UniJIS-UTF16-H").split("𠀋a".encode("utf-16-be")) == [
        (0xD840DC0B, 4),
        (0x61, 2),
    ]


def test_gbk2k_h_decodes_one_two_and_four_byte_codes():
    assert decode("GBK2K-H", "a中㐀".encode("gb18030"), "Adobe-GB1") == "a中㐀"


def test_euc_h_decodes_hiragana():
    assert decode("EUC-H", "あいう".encode("euc_jp")) == "あいう"


def test_ksc_euc_h_decodes_hangul_through_adobe_korea1():
    assert decode("KSC-EUC-H", "한국".encode("euc_kr"), "Adobe-Korea1") == "한국"


def test_every_table_118_cmap_loads():
    from glyphscope.assets.cmaps.build_cmaps import TABLE_118

    assert [name for name in TABLE_118 if predefined_cmap(name) is None] == []


def test_predefined_cmap_is_cached():
    assert predefined_cmap("UniJIS-UCS2-H") is predefined_cmap("UniJIS-UCS2-H")


def test_adobe_ucs2_cmap_maps_cids_to_unicode():
    cmap = predefined_cmap("Adobe-Japan1-UCS2")
    assert (cmap.unicode(843), cmap.split(b"\x03\x4b")) == ("あ", [(843, 2)])


def test_tounicode_can_use_an_adobe_ucs2_cmap():
    tounicode = parse_cmap(
        b"begincmap /Adobe-Korea1-UCS2 usecmap 1 begincodespacerange <0000> <ffff> "
        b"endcodespacerange 1 beginbfchar <46FD> <0081> endbfchar endcmap",
        predefined_cmap,
    )
    assert (tounicode.unicode(0x46FD), tounicode.unicode(100)) == ("\x81", "⋯")


def test_unknown_cmap_name_gives_none():
    assert predefined_cmap("No-Such-CMap-H") is None


def test_path_like_cmap_name_gives_none():
    assert predefined_cmap("../../etc/passwd") is None


def test_adobe_korea1_and_adobe_kr_are_separate_collections():
    assert (cid_to_unicode("Adobe-Korea1", 100), cid_to_unicode("Adobe-KR", 100)) == ("⋯", "©")


def test_cid_to_unicode_keeps_multi_character_values():
    assert cid_to_unicode("Adobe-Japan1", 8295) == "XIII"


def test_cid_to_unicode_drops_ideographic_variation_selectors():
    # Adobe-Japan1-UCS2 gives CID 1133 as 逢 + U+E0100; the text is 逢.
    assert cid_to_unicode("Adobe-Japan1", 1133) == "逢"


def test_collection_without_data_gives_none():
    assert cid_to_unicode("Adobe-Japan2", 100) is None


def test_cid_beyond_the_collection_gives_none():
    assert cid_to_unicode("Adobe-GB1", 65535) is None


def test_ordering_of_joins_registry_and_ordering():
    assert ordering_of("Adobe", "Japan1") == "Adobe-Japan1"


def test_ordering_of_forgives_case_and_spaces_in_adobe_orderings():
    assert ordering_of(" adobe", "korea1 ") == "Adobe-Korea1"


def test_ordering_of_keeps_unknown_orderings():
    assert ordering_of("Adobe", "Identity") == "Adobe-Identity"


@pytest.fixture
def no_assets(monkeypatch, tmp_path):
    monkeypatch.setattr(predefined, "_assets_dir", lambda: tmp_path / "missing")
    predefined.predefined_cmap.cache_clear()
    predefined._cid_table.cache_clear()
    yield
    predefined.predefined_cmap.cache_clear()
    predefined._cid_table.cache_clear()


def test_missing_assets_folder_gives_no_predefined_cmap(no_assets):
    assert predefined_cmap("90ms-RKSJ-H") is None


def test_missing_assets_folder_gives_no_cid_to_unicode(no_assets):
    assert cid_to_unicode("Adobe-Japan1", 843) is None


def test_missing_assets_folder_keeps_identity_built_in(no_assets):
    assert predefined_cmap("Identity-V").cid(0x1234) == 0x1234


def test_corrupt_asset_file_gives_none(monkeypatch, tmp_path):
    (tmp_path / "cmap-Broken-H.json.gz").write_bytes(b"not gzip")
    monkeypatch.setattr(predefined, "_assets_dir", lambda: tmp_path)
    predefined.predefined_cmap.cache_clear()
    try:
        assert predefined_cmap("Broken-H") is None
    finally:
        predefined.predefined_cmap.cache_clear()


def shown_strings(path) -> tuple[str, bytes]:
    """(Type0 font /Encoding name, bytes of its first Tj) of page 1."""
    with pikepdf.open(path) as pdf:
        page = pdf.pages[0]
        fonts = {key: font for key, font in page.resources.Font.items()}
        current = None
        for operands, operator in pikepdf.parse_content_stream(page):
            if str(operator) == "Tf":
                current = fonts[str(operands[0])]
            elif str(operator) == "Tj" and current.get("/Subtype") == "/Type0":
                return str(current.Encoding)[1:], bytes(operands[0])
    raise AssertionError("no Type0 Tj on page 1")


@pytest.mark.parametrize(
    ("file_name", "expected"),
    [
        ("pdfjs__90ms_rksj_h_sample.pdf", "日本語テスト"),
        ("pdfjs__noembed-eucjp.pdf", "あいうえお"),
        ("pdfjs__noembed-sjis.pdf", "あいうえお"),
    ],
)
def test_corpus_named_cmap_text_matches_reference(corpus_dir, file_name, expected):
    encoding, data = shown_strings(corpus_dir / file_name)
    reference = (corpus_dir / "refs" / f"{file_name}.pdftotext.txt").read_text("utf-8")
    assert (decode(encoding, data), expected in reference) == (expected, True)


def test_corpus_tounicode_using_adobe_korea1_ucs2_matches_reference(corpus_dir):
    # The ToUnicode CMap of this Identity-H font says `/Adobe-Korea1-UCS2 usecmap`.
    with pikepdf.open(corpus_dir / "pdfjs__issue5010.pdf") as pdf:
        page = pdf.pages[0]
        font = page.resources.Font.F1
        tounicode = parse_cmap(font.ToUnicode.read_bytes(), predefined_cmap)
        data = next(
            bytes(operands[0])
            for operands, operator in pikepdf.parse_content_stream(page)
            if str(operator) == "Tj"
        )
    text = "".join(tounicode.unicode(code) or "?" for code, _ in tounicode.split(data))
    reference = (corpus_dir / "refs" / "pdfjs__issue5010.pdf.pdftotext.txt").read_text("utf-8")
    assert (text, reference.startswith(text)) == ("인터뷰●홍인혜카피라이터", True)
