"""The Details header of a large selection writes every count the same way (thousands
separated): "4,282 glyphs selected (4,282 visible)", not "(4282 visible)"."""

from __future__ import annotations

import re

import pytest

from glyphscope.core.view.explain import selection_summary
from tests.qa_support import open_and_wait, qa_window

__all__ = ["qa_window"]


def test_a_large_selections_counts_are_all_formatted_alike(qtbot, qa_window, corpus_dir):
    window, _features = qa_window
    path = corpus_dir / "pdfjs__tracemonkey.pdf"
    if not path.exists():
        pytest.skip("the corpus file is absent")
    open_and_wait(qtbot, window, path)
    everything = list(range(window.model.count))
    assert len(everything) >= 1000
    header = selection_summary(window.model, everything).split("</p>")[0]
    numbers = re.findall(r"\d[\d,]*", re.sub(r"<[^>]+>", "", header))
    assert numbers and all(len(n) < 4 or "," in n for n in numbers), header
    assert f"{len(everything):,} glyphs selected" in header
