"""core.qa.diffing (rule changes, word diff against pdfium) and core.qa.search on built pages."""

from __future__ import annotations

import pytest

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.qa.diffing import (
    PdfiumText,
    changed_rules,
    decision_pairs,
    rule_changes,
    word_diff,
)
from glyphscope.core.qa.search import search_pages, search_text
from glyphscope.core.rules import Rules
from glyphscope.core.text.reading import TextResult
from tests.pdfbuilder import PdfBuilder

# "TJ" and "spaced" are 6 pt apart only by a TJ adjustment (-600/1000 × 10 pt); the box height
# is 10, so the default threshold is 1.5 and a space_gap_ratio of 0.7 (7 pt) loses the space.
TJ_PAGE = (
    b"BT /F1 10 Tf 20 125 Td [(TJ)-600(spaced)] TJ ET\nBT /F1 10 Tf 20 100 Td (Plain words) Tj ET"
)


@pytest.fixture(scope="module")
def tj_document():
    b = PdfBuilder()
    b.add_page(TJ_PAGE, fonts={"F1": b.standard_font("Helvetica")})
    with Document.open(b.to_bytes()) as document:
        yield document


def analyses(document, **values):
    page = document.page(0)
    return analyse_page(page, Rules()), analyse_page(page, Rules().with_values(**values))


def test_raising_the_space_ratio_loses_exactly_the_tj_space(tj_document):
    before, after = analyses(tj_document, space_gap_ratio=0.7)
    changes = rule_changes(before, after)
    assert changes.spaces_lost == ((1, 2),)
    assert (changes.spaces_gained, changes.lines_split, changes.lines_joined) == ((), (), ())
    assert after.reading.text == "TJspaced\nPlain words"


def test_rule_changes_name_the_changed_rule_with_both_values(tj_document):
    before, after = analyses(tj_document, space_gap_ratio=0.7)
    assert rule_changes(before, after).changed_rules == (("space_gap_ratio", 0.15, 0.7),)


def test_a_huge_line_break_ratio_joins_the_two_lines(tj_document):
    before, after = analyses(tj_document, line_break_ratio=5.0)
    changes = rule_changes(before, after)
    assert changes.lines_joined == ((7, 8),)
    assert changes.lines_split == ()


def test_decision_pairs_of_wanted_pairs_are_those_of_the_whole_lookup(tj_document):
    before, after = analyses(tj_document, space_gap_ratio=0.7)
    gaps, breaks = decision_pairs(after)
    wanted = {(1, 2), (7, 8), (99, 100)}
    chosen_gaps, chosen_breaks = decision_pairs(after, wanted)
    assert chosen_gaps == {pair: gaps[pair] for pair in wanted if pair in gaps}
    assert chosen_breaks == {pair: breaks[pair] for pair in wanted if pair in breaks}
    assert chosen_gaps[(1, 2)].gap == pytest.approx(6.0) and not chosen_gaps[(1, 2)].space
    assert (7, 8) in chosen_breaks and chosen_breaks[(7, 8)].broke
    assert decision_pairs(after, ()) == ({}, {})


def test_lowering_the_space_ratio_to_zero_gains_no_space_at_zero_gaps(tj_document):
    before, after = analyses(tj_document, space_gap_ratio=0.0)
    assert rule_changes(before, after).spaces_gained == ()


def test_summary_counts_each_kind_of_change(tj_document):
    before, after = analyses(tj_document, space_gap_ratio=0.7)
    assert rule_changes(before, after).summary() == (
        "spaces +0 −1 · lines split 0, joined 0 · glyphs dropped +0, kept +0"
    )


def test_changed_rules_of_equal_rules_is_empty():
    assert changed_rules(Rules(), Rules()) == ()


def test_word_diff_of_equal_texts_has_no_difference():
    ours = TextResult("TJ spaced\nPlain words", tuple(range(21)))
    diff = word_diff(ours, "TJ spaced\r\nPlain words")
    assert diff.differences == ()
    assert diff.disagreement == 0.0


def test_word_diff_maps_a_replaced_word_to_our_glyphs():
    text = "TJspaced words"
    ours = TextResult(text, (0, 1, 2, 3, 4, 5, 6, 7, -1, 8, 9, 10, 11, 12))
    diff = word_diff(ours, "TJ spaced words")
    assert [(d.kind, d.ours, d.theirs, d.glyphs) for d in diff.differences] == [
        ("replace", "TJspaced", "TJ spaced", (0, 1, 2, 3, 4, 5, 6, 7))
    ]
    assert diff.differing_words == 3


def test_word_diff_reports_a_word_only_pdfium_has_with_no_glyphs():
    ours = TextResult("one three", (0, 1, 2, -1, 3, 4, 5, 6, 7))
    diff = word_diff(ours, "one two three")
    assert [(d.kind, d.theirs, d.glyphs, d.our_span) for d in diff.differences] == [
        ("missing", "two", (), (3, 3))
    ]


def test_word_diff_folds_ligature_presentation_forms():
    ours = TextResult("fine", (0, 0, 1, 2))
    assert word_diff(ours, "\ufb01ne").differences == ()


def test_pdfium_text_reads_the_built_page(tj_document, tmp_path):
    path = tmp_path / "tj.pdf"
    b = PdfBuilder()
    b.add_page(TJ_PAGE, fonts={"F1": b.standard_font("Helvetica")})
    b.save(path)
    source = PdfiumText()
    source.open(str(path))
    try:
        assert source.page_text(0).split() == ["TJ", "spaced", "Plain", "words"]
    finally:
        source.close()


def test_search_finds_a_phrase_across_a_line_break_and_names_its_glyphs():
    # T J _ s p a c e d ⏎ P l a i n _ w o r d s; inserted characters belong to glyph -1
    owners = (0, 1, -1, 2, 3, 4, 5, 6, 7, -1, 8, 9, 10, 11, 12, -1, 13, 14, 15, 16, 17)
    hits = search_text(0, TextResult("TJ spaced\nPlain words", owners), "spaced plain")
    assert [(h.start, h.end, h.glyphs) for h in hits] == [(3, 15, tuple(range(2, 13)))]


def test_search_is_case_insensitive_unless_asked():
    text = TextResult("Word word", (0, 1, 2, 3, -1, 4, 5, 6, 7))
    assert len(search_text(0, text, "word")) == 2
    assert len(search_text(0, text, "word", case_sensitive=True)) == 1


def test_search_pages_keeps_page_order():
    pages = [(0, TextResult("a b", (0, -1, 1))), (2, TextResult("b", (0,)))]
    assert [(h.page_index, h.glyphs) for h in search_pages(pages, "b")] == [(0, (1,)), (2, (0,))]
