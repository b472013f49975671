"""Marks in a text pane (rule changes, search hits) are made once per mark set: selecting
glyphs afterwards redraws the selection over them without remaking thousands of runs."""

from __future__ import annotations

import glyphscope
from glyphscope.core.view.page_model import build_page_model
from glyphscope.widgets.text_panes import MARK_PROPERTY, TextPane
from tests.test_gui_layer_painter import dense_pdf


def test_a_selection_over_marks_keeps_the_marks_made_once(qtbot, tmp_path):
    model = build_page_model(
        0, glyphscope.open(str(dense_pdf(tmp_path / "d.pdf"))).pages[0].analysis()
    )
    pane = TextPane("reading")
    qtbot.addWidget(pane)
    pane.set_pane(model.panes["reading"])
    hits = tuple(range(0, model.count, 5))  # every word's first letter
    pane.set_marks("search", [(hits, "#ff0000")])
    made = pane._mark_selections["search"]
    assert len(made) == len(hits)
    pane.highlight([1, 2, 3])
    pane.set_marks("search", [(hits, "#ff0000")])  # marked again, unchanged
    extra = pane.editor.extraSelections()
    assert pane._mark_selections["search"] is made
    assert len(extra) == len(hits) + 1
    assert all(s.format.property(MARK_PROPERTY) == "search" for s in extra[:-1])
    assert extra[-1].cursor.selectedText() == "ord"  # the selection, over the marks
    pane.clear_marks("search")
    assert len(pane.editor.extraSelections()) == 1 and pane.marked("search") == []
