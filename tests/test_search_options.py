"""Search options (glyphscope.core.qa.search.SearchQuery): case, whole word, regular expression."""

from __future__ import annotations

import re

import pytest

from glyphscope.core.qa.search import SearchQuery, search_text
from glyphscope.core.text.reading import TextResult


def text(value: str) -> TextResult:
    return TextResult(value, tuple(-1 if c == " " else i for i, c in enumerate(value)))


def spans(query: SearchQuery, value: str) -> list[tuple[int, int]]:
    return [(h.start, h.end) for h in search_text(0, text(value), query)]


def test_whole_word_skips_a_match_inside_a_longer_word():
    assert spans(SearchQuery("cat", whole_word=True), "cat concat cats cat.") == [(0, 3), (16, 19)]


def test_without_whole_word_every_occurrence_matches():
    assert len(spans(SearchQuery("cat"), "cat concat cats")) == 3


def test_regex_matches_a_pattern_and_honours_case():
    assert spans(SearchQuery(r"p\d+", regex=True), "p12 P3 px") == [(0, 3), (4, 6)]
    assert spans(SearchQuery(r"p\d+", case_sensitive=True, regex=True), "p12 P3") == [(0, 3)]


def test_regex_special_characters_are_literal_outside_regex_mode():
    assert spans(SearchQuery("a.b"), "a.b axb") == [(0, 3)]


def test_a_regex_matching_the_empty_string_gives_no_hits():
    assert spans(SearchQuery("x*", regex=True), "abc") == []


def test_a_bad_regex_raises_re_error():
    with pytest.raises(re.error):
        SearchQuery("(", regex=True).pattern()
