"""Saved regression cases (inspector › Save as regression case): every folder under
tests/regression_cases/ (and under $GLYPHSCOPE_REGRESSION_CASES, when set) holds one page as a
minimal PDF, the rules, and the exact text of each mode; each mode is asserted here."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from glyphscope.core.qa.regression import actual_texts, discover_cases, load_case

CASES_DIR = Path(__file__).resolve().parent / "regression_cases"
EXTRA_DIR_ENV = "GLYPHSCOPE_REGRESSION_CASES"


def case_folders() -> list[Path]:
    folders = discover_cases(CASES_DIR)
    extra = os.environ.get(EXTRA_DIR_ENV)
    if extra:
        folders += discover_cases(extra)
    return folders


CASES = [
    pytest.param(case, mode, id=f"{case.name}-{mode}")
    for case in map(load_case, case_folders())
    for mode in case.expected
]


@pytest.mark.parametrize(("case", "mode"), CASES)
def test_regression_case_text_is_unchanged(case, mode):
    assert actual_texts(case)[mode] == case.expected[mode]
