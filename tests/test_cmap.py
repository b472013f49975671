"""core.fonts.cmap.parser: CMap parsing traps (spec §1, ISO 32000-1 §9.7.5, §9.10.3), one each."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.fonts.cmap.parser import parse_cmap

HEADER = b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
FOOTER = b"\nendcmap CMapName currentdict /CMap defineresource pop end end\n"


def cmap(body: bytes, resolve=None):
    return parse_cmap(HEADER + body + FOOTER, resolve)


ONE_BYTE = b"1 begincodespacerange <00> <FF> endcodespacerange\n"
TWO_BYTE = b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"


def test_count_before_beginbfchar_is_ignored_when_too_small():
    parsed = cmap(ONE_BYTE + b"1 beginbfchar <41> <0061> <42> <0062> <43> <0063> endbfchar")
    assert [parsed.unicode(code) for code in (0x41, 0x42, 0x43)] == ["a", "b", "c"]


def test_count_before_beginbfrange_is_ignored_when_too_large():
    parsed = cmap(
        ONE_BYTE + b"9 beginbfrange <41> <42> <0061> endbfrange 1 beginbfchar <43> <0063> endbfchar"
    )
    assert [parsed.unicode(code) for code in (0x41, 0x42, 0x43)] == ["a", "b", "c"]


def test_surrogate_pair_destination_is_one_character():
    parsed = cmap(TWO_BYTE + b"1 beginbfchar <0001> <D83DDE00> endbfchar")
    assert parsed.unicode(1) == "\U0001f600"


def test_ligature_destination_keeps_both_characters():
    parsed = cmap(TWO_BYTE + b"1 beginbfchar <0005> <00660069> endbfchar")
    assert parsed.unicode(5) == "fi"


def test_bfrange_array_gives_each_code_its_own_destination():
    parsed = cmap(
        TWO_BYTE + b"1 beginbfrange <0010> <0012> [<0041> <00660066> <D83DDE00>] endbfrange"
    )
    assert [parsed.unicode(code) for code in (0x10, 0x11, 0x12)] == ["A", "ff", "\U0001f600"]


def test_bfrange_array_shorter_than_range_leaves_the_rest_unmapped():
    parsed = cmap(TWO_BYTE + b"1 beginbfrange <0010> <0012> [<0041>] endbfrange")
    assert [parsed.unicode(code) for code in (0x10, 0x11)] == ["A", None]


def test_bfrange_string_destination_increments_last_byte():
    parsed = cmap(TWO_BYTE + b"1 beginbfrange <0001> <0003> <0041> endbfrange")
    assert [parsed.unicode(code) for code in (1, 2, 3)] == ["A", "B", "C"]


def test_bfrange_increment_carries_across_a_byte_boundary():
    # pdf.js carries into the preceding byte: <00FF> is followed by <0100>, not <0000>.
    parsed = cmap(ONE_BYTE + b"1 beginbfrange <01> <02> <00FF> endbfrange")
    assert parsed.unicode(2) == "\u0100"


def test_bfrange_surrogate_destination_increments_low_surrogate():
    parsed = cmap(ONE_BYTE + b"1 beginbfrange <01> <02> <D835DC00> endbfrange")
    assert parsed.unicode(2) == "\U0001d401"


def test_bfrange_over_the_whole_four_byte_codespace_maps_any_code():
    parsed = cmap(
        b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n"
        b"1 beginbfrange <00000000> <FFFFFFFF> <0000> endbfrange"
    )
    assert parsed.unicode(0x00010041) == "A"


def test_later_range_overrides_earlier_single_mapping():
    parsed = cmap(
        ONE_BYTE + b"1 beginbfchar <41> <0058> endbfchar 1 beginbfrange <40> <42> <0061> endbfrange"
    )
    assert parsed.unicode(0x41) == "b"


def test_later_single_mapping_overrides_earlier_range():
    parsed = cmap(
        ONE_BYTE + b"1 beginbfrange <40> <42> <0061> endbfrange 1 beginbfchar <41> <0058> endbfchar"
    )
    assert [parsed.unicode(code) for code in (0x40, 0x41, 0x42)] == ["a", "X", "c"]


def test_later_range_splits_an_earlier_range():
    parsed = cmap(
        ONE_BYTE + b"1 begincidrange <00> <09> 100 endcidrange "
        b"1 begincidrange <04> <05> 7 endcidrange"
    )
    assert [parsed.cid(code) for code in (3, 4, 5, 6)] == [103, 7, 8, 106]


def test_literal_string_destination_is_accepted():
    parsed = cmap(ONE_BYTE + b"1 beginbfchar <41> (\\000Z) endbfchar")
    assert parsed.unicode(0x41) == "Z"


def test_one_byte_codespace_splits_every_byte():
    assert cmap(ONE_BYTE).split(b"AB") == [(0x41, 1), (0x42, 1)]


def test_two_byte_codespace_splits_byte_pairs():
    assert cmap(TWO_BYTE).split(b"\x01\x02\x03\x04") == [(0x0102, 2), (0x0304, 2)]


def test_three_byte_codespace_splits_byte_triples():
    parsed = cmap(b"1 begincodespacerange <000000> <FFFFFF> endcodespacerange")
    assert parsed.split(b"\x01\x02\x03\x04\x05\x06") == [(0x010203, 3), (0x040506, 3)]


def test_four_byte_codespace_splits_byte_quadruples():
    parsed = cmap(b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange")
    assert parsed.split(b"\xd8\x40\xdc\x0b") == [(0xD840DC0B, 4)]


def test_mixed_codespace_splits_one_and_two_byte_codes_in_one_string():
    # The codespace of 90ms-RKSJ-H: ASCII and half-width katakana single, Shift-JIS double.
    parsed = cmap(
        b"4 begincodespacerange <00> <80> <8140> <9FFC> <A0> <DF> <E040> <FCFC> endcodespacerange"
    )
    assert parsed.split(b"A\x82\xa0\xb1\xe0\x40") == [
        (0x41, 1),
        (0x82A0, 2),
        (0xB1, 1),
        (0xE040, 2),
    ]


def test_mixed_codespace_with_one_to_four_byte_codes():
    # The codespace of GBK2K-H (GB 18030): 1, 2 and 4-byte codes.
    parsed = cmap(
        b"3 begincodespacerange <00> <80> <8140> <FEFE> <81308130> <FE39FE39> endcodespacerange"
    )
    assert parsed.split(b"a\xd6\xd0\x81\x30\x81\x30") == [(0x61, 1), (0xD6D0, 2), (0x81308130, 4)]


def test_code_lengths_lists_the_codespace_widths():
    parsed = cmap(b"2 begincodespacerange <00> <80> <8140> <FEFE> endcodespacerange")
    assert parsed.code_lengths == frozenset({1, 2})


def test_invalid_code_takes_the_length_of_the_range_its_first_byte_starts():
    # §9.7.6.3: <8120> is no code (second byte below 40) but 81 starts a 2-byte range.
    parsed = cmap(b"2 begincodespacerange <00> <80> <8140> <9FFC> endcodespacerange")
    assert parsed.split(b"\x81\x20A") == [(0x8120, 2), (0x41, 1)]


def test_invalid_first_byte_takes_the_shortest_codespace_length():
    parsed = cmap(b"1 begincodespacerange <8140> <9FFC> endcodespacerange")
    assert parsed.split(b"\x01\x02\x81\x40") == [(0x0102, 2), (0x8140, 2)]


def test_truncated_final_code_keeps_its_bytes():
    assert cmap(TWO_BYTE).split(b"\x00\x41\x00") == [(0x41, 2), (0x00, 1)]


def test_tounicode_without_codespace_splits_one_byte():
    parsed = cmap(b"")
    assert parsed.split(b"AB") == [(0x41, 1), (0x42, 1)]


def test_no_codespace_splits_like_the_mappings_suggest():
    parsed = cmap(b"1 beginbfchar <0041> <0061> endbfchar")
    assert parsed.split(b"\x00\x41") == [(0x41, 2)]


def test_cid_cmap_without_codespace_or_mappings_splits_two_bytes():
    parsed = parse_cmap(b"/CMapName /Identity-H def")
    assert parsed.split(b"\x00\x41") == [(0x41, 2)]


def test_odd_hex_digits_are_padded_with_zero():
    parsed = cmap(ONE_BYTE + b"1 beginbfchar <4> <0041> endbfchar")
    assert parsed.unicode(0x40) == "A"


def test_cidchar_maps_one_code():
    parsed = cmap(TWO_BYTE + b"1 begincidchar <8140> 633 endcidchar")
    assert parsed.cid(0x8140) == 633


def test_cidrange_maps_codes_by_offset():
    parsed = cmap(TWO_BYTE + b"1 begincidrange <8140> <817e> 633 endcidrange")
    assert [parsed.cid(0x8140), parsed.cid(0x817E)] == [633, 695]


def test_notdefrange_gives_its_cid_to_every_unmapped_code_in_it():
    parsed = cmap(ONE_BYTE + b"1 beginnotdefrange <00> <1f> 231 endnotdefrange")
    assert [parsed.cid(0x00), parsed.cid(0x1F)] == [231, 231]


def test_notdefchar_gives_its_cid():
    parsed = cmap(ONE_BYTE + b"1 beginnotdefchar <20> 1 endnotdefchar")
    assert parsed.cid(0x20) == 1


def test_mapped_cid_wins_over_notdef():
    parsed = cmap(
        ONE_BYTE + b"1 beginnotdefrange <00> <ff> 1 endnotdefrange "
        b"1 begincidchar <41> 34 endcidchar"
    )
    assert parsed.cid(0x41) == 34


def test_unmapped_code_has_no_cid():
    assert cmap(ONE_BYTE + b"1 begincidchar <41> 34 endcidchar").cid(0x42) is None


def test_has_unicode_and_has_cids_tell_the_kind_of_cmap():
    tounicode = cmap(ONE_BYTE + b"1 beginbfchar <41> <0041> endbfchar")
    encoding = cmap(ONE_BYTE + b"1 begincidchar <41> 34 endcidchar")
    assert (tounicode.has_unicode, tounicode.has_cids, encoding.has_unicode, encoding.has_cids) == (
        True,
        False,
        False,
        True,
    )


BASE = (
    HEADER + b"/CMapName /Base-H def 1 begincodespacerange <00> <FF> endcodespacerange "
    b"2 begincidrange <41> <5a> 34 <61> <7a> 66 endcidrange" + FOOTER
)


def test_usecmap_inherits_the_used_cmap_mappings_and_codespace():
    parsed = cmap(b"/Base-H usecmap", {"Base-H": parse_cmap(BASE)}.get)
    assert (parsed.cid(0x61), parsed.split(b"ab")) == (66, [(0x61, 1), (0x62, 1)])


def test_usecmap_own_mappings_win_over_the_used_cmap():
    parsed = cmap(
        b"/Base-H usecmap 1 begincidchar <41> 9000 endcidchar", {"Base-H": parse_cmap(BASE)}.get
    )
    assert (parsed.cid(0x41), parsed.cid(0x42)) == (9000, 35)


def test_usecmap_name_is_kept():
    assert cmap(b"/Base-H usecmap", {"Base-H": parse_cmap(BASE)}.get).usecmap == "Base-H"


def test_usecmap_of_itself_terminates():
    sources = {"Self-H": HEADER + b"/Self-H usecmap 1 begincidchar <41> 34 endcidchar" + FOOTER}

    def resolve(name):
        return parse_cmap(sources[name], resolve)

    assert parse_cmap(sources["Self-H"], resolve).cid(0x41) == 34


def test_usecmap_cycle_between_two_cmaps_terminates():
    sources = {
        "A-H": HEADER + b"/B-H usecmap 1 begincidchar <41> 1 endcidchar" + FOOTER,
        "B-H": HEADER + b"/A-H usecmap 1 begincidchar <42> 2 endcidchar" + FOOTER,
    }

    def resolve(name):
        return parse_cmap(sources[name], resolve)

    parsed = parse_cmap(sources["A-H"], resolve)
    assert (parsed.cid(0x41), parsed.cid(0x42)) == (1, 2)


def test_usecmap_resolver_failure_keeps_own_mappings():
    def resolve(name):
        raise KeyError(name)

    parsed = cmap(b"/Missing-H usecmap 1 begincidchar <41> 34 endcidchar", resolve)
    assert parsed.cid(0x41) == 34


def test_wmode_one_is_vertical():
    assert cmap(b"/WMode 1 def").writing_mode == 1


def test_wmode_defaults_to_horizontal():
    assert cmap(ONE_BYTE).writing_mode == 0


def test_cmap_name_and_ordering_are_read():
    parsed = cmap(
        b"/CIDSystemInfo 3 dict dup begin /Registry (Adobe) def /Ordering (Japan1) def "
        b"/Supplement 2 def end def /CMapName /Test-H def"
    )
    assert (parsed.name, parsed.ordering) == ("Test-H", "Adobe-Japan1")


def test_ordering_is_read_from_an_inline_dictionary():
    parsed = cmap(b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def")
    assert parsed.ordering == "Adobe-UCS"


def test_corrupted_tail_loses_only_the_tail():
    data = HEADER + ONE_BYTE + b"2 beginbfchar <41> <0061> <42> <00"
    parsed = parse_cmap(data + b"\xff\xfe garbage [ ( <<")
    assert (parsed.unicode(0x41), parsed.unicode(0x42)) == ("a", None)


def test_missing_end_keyword_ends_the_block_at_the_next_operator():
    parsed = cmap(ONE_BYTE + b"1 beginbfchar <41> <0061> 1 beginbfchar <42> <0062> endbfchar")
    assert (parsed.unicode(0x41), parsed.unicode(0x42)) == ("a", "b")


def test_end_keyword_glued_to_the_next_token_still_ends_the_block():
    # Seen in the wild (PdfPig issue 1331): no whitespace after the end keywords.
    parsed = parse_cmap(
        b"begincmap 1 begincodespacerange <20> <23> endcodespacerange4 beginbfchar"
        b"<20> <00DC><21> <00E4>endbfcharendcmap"
    )
    assert (parsed.unicode(0x20), parsed.unicode(0x21), parsed.problems) == ("\u00dc", "\u00e4", ())


def test_unreadable_record_is_skipped_and_reading_resyncs():
    parsed = cmap(ONE_BYTE + b"3 beginbfchar 17 <41> <0061> <42> <0062> endbfchar")
    assert (parsed.unicode(0x41), parsed.unicode(0x42)) == ("a", "b")


def test_skipped_records_are_noted_in_problems():
    parsed = cmap(ONE_BYTE + b"1 beginbfchar 17 <41> <0061> endbfchar")
    assert parsed.problems == ("beginbfchar: skipped unreadable operand 17",)


def test_real_number_operand_does_not_end_a_block():
    parsed = cmap(ONE_BYTE + b"2 begincidchar <41> 1.5 <41> 7 endcidchar")
    assert parsed.cid(0x41) == 7


def test_binary_garbage_gives_an_empty_cmap():
    parsed = parse_cmap(bytes(range(256)) * 4)
    assert (parsed.has_unicode, parsed.has_cids, parsed.writing_mode) == (False, False, 0)


def test_empty_input_gives_an_empty_cmap():
    parsed = parse_cmap(b"")
    assert (parsed.name, parsed.unicode(0x41), parsed.split(b"A")) == ("", None, [(0x41, 1)])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data):
    parsed = parse_cmap(data)
    assert sum(length for _, length in parsed.split(data)) == len(data)


BASE_MAPPINGS_END = BASE.index(b"endcidrange") + len(b"endcidrange")


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=BASE_MAPPINGS_END, max_value=len(BASE)), st.binary(max_size=40))
def test_damage_after_the_mappings_keeps_them(cut, junk):
    parsed = parse_cmap(BASE[:cut] + junk)
    assert (parsed.cid(0x41), parsed.cid(0x7A)) == (34, 91)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.integers(min_value=1, max_value=4).flatmap(
            lambda n: st.tuples(
                st.binary(min_size=n, max_size=n), st.binary(min_size=n, max_size=n)
            )
        ),
        min_size=1,
        max_size=4,
    ),
    st.binary(max_size=64),
)
def test_split_consumes_every_byte_exactly_once(ranges, data):
    body = b"".join(
        b"<%s> <%s> " % (low.hex().encode(), high.hex().encode()) for low, high in ranges
    )
    parsed = cmap(b"9 begincodespacerange " + body + b"endcodespacerange")
    codes = parsed.split(data)
    rebuilt = b"".join(code.to_bytes(length, "big") for code, length in codes)
    assert rebuilt == data
