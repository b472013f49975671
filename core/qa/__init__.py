"""Quality assurance of rules: rule-change diffs, comparison with pdfium, regression cases."""

from glyphscope.core.qa.diffing import (
    Pair,
    PdfiumText,
    RuleChanges,
    Word,
    WordDiff,
    WordDifference,
    changed_rules,
    clean_pdfium_text,
    comparison_key,
    rule_changes,
    word_diff,
    words,
)
from glyphscope.core.qa.regression import (
    RegressionCase,
    actual_texts,
    case_name,
    discover_cases,
    expected_texts,
    load_case,
    single_page_pdf,
    write_case,
)
from glyphscope.core.qa.search import SearchHit, SearchQuery, search_pages, search_text

__all__ = [
    "Pair",
    "PdfiumText",
    "RegressionCase",
    "RuleChanges",
    "SearchHit",
    "SearchQuery",
    "Word",
    "WordDiff",
    "WordDifference",
    "actual_texts",
    "case_name",
    "changed_rules",
    "clean_pdfium_text",
    "comparison_key",
    "discover_cases",
    "expected_texts",
    "load_case",
    "rule_changes",
    "search_pages",
    "search_text",
    "single_page_pdf",
    "word_diff",
    "words",
    "write_case",
]
