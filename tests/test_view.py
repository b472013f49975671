"""core.view: the inspector's model of an analysed page, built and tested without Qt."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.glyph_table import dictionary_encoded
from glyphscope.core.rules import Rules
from glyphscope.core.text.decisions import GapColumns, GapDecision
from glyphscope.core.text.pairs import GapReason
from glyphscope.core.text.visible import DroppedGlyph, DropReason, GlyphStatus
from glyphscope.core.view import (
    Categories,
    DecisionsByGlyph,
    PaneText,
    build_page_model,
    decision_arrays,
    utf16_offsets,
)
from tests.pdfbuilder import PdfBuilder


def _imported_after(statement: str) -> set[str]:
    """Top-level and glyphscope modules a fresh interpreter holds after `statement`."""
    code = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return {name for name in output.split() if "." not in name or name.startswith("glyphscope")}


def test_the_page_model_is_built_without_importing_qt():
    modules = _imported_after("import glyphscope.core.view")
    assert "PySide6" not in modules and "glyphscope.widgets" not in modules


def test_widgets_reach_the_page_model_without_importing_the_application():
    pytest.importorskip("PySide6")  # the widgets are Qt's: the `gui` extra
    modules = _imported_after(
        "import glyphscope.widgets.glyph_table, glyphscope.widgets.overlay_layers, "
        "glyphscope.widgets.text_panes, glyphscope.core.view.explain"
    )
    assert "glyphscope.core.view.page_model" in modules
    assert not any(name.startswith("glyphscope.inspector") for name in modules)


def test_page_model_files_statuses_and_decisions_under_their_glyphs():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (ab) Tj ET BT /F1 12 Tf 72 700 Td (a) Tj ET",
        fonts={"F1": font},
    )
    analysis = analyse_page(Document.open(builder.to_bytes()).page(0), Rules())
    model = build_page_model(0, analysis)
    assert model.status == (GlyphStatus.VISIBLE, GlyphStatus.VISIBLE, GlyphStatus.DUPLICATE)
    assert (model.kept_copies, model.gaps_before[1].reason) == ({0: [2]}, "below_threshold")
    assert model.panes["reading"].text == "ab"


def test_a_pane_maps_characters_to_glyphs_and_back():
    pane = PaneText.make("reading", "ab c", [0, 1, -1, 2])
    assert (pane.title, pane.note, list(pane.chars_of([1, 2])), pane.glyphs_in(0, 4)) == (
        "Reading order",
        "",
        [1, 3],
        [0, 1, 2],
    )


def _two_lines_analysis():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td [(ab)-400(cd)] TJ 0 -20 Td (ef) Tj ET", fonts={"F1": font}
    )
    return analyse_page(Document.open(builder.to_bytes()).page(0), Rules())


def test_decision_arrays_are_the_reading_orders_own_columns():
    analysis = _two_lines_analysis()
    assert isinstance(analysis.gaps, GapColumns)
    from_columns = decision_arrays(analysis.gaps, analysis.line_breaks)
    from_records = decision_arrays(tuple(analysis.gaps), tuple(analysis.line_breaks))
    assert from_columns.gap_current is analysis.gaps.current  # shared, not copied
    for name in ("gap_previous", "gap_current", "gap_value", "gap_space", "break_current"):
        a, b = getattr(from_columns, name), getattr(from_records, name)
        assert a.dtype == b.dtype and a.tolist() == b.tolist()
    assert from_columns.gap_reason.labels == from_records.gap_reason.labels
    assert from_columns.gap_reason.codes.tolist() == from_records.gap_reason.codes.tolist()
    assert [str(d.reason) for d in analysis.gaps] == [
        from_columns.gap_reason.labels[c] for c in from_columns.gap_reason.codes
    ]
    assert from_columns.gap_space.tolist() == [False, True, False, False]
    assert from_columns.break_broke.tolist() == [False, False, False, True, False]


def test_decisions_are_filed_under_their_glyphs_without_making_records():
    analysis = _two_lines_analysis()
    model = build_page_model(0, analysis)
    assert isinstance(model.gaps_before, DecisionsByGlyph)
    by_current = {d.current: d for d in analysis.gaps}
    assert dict(model.gaps_before) == by_current == model.gaps_before
    assert dict(model.gaps_after) == {d.previous: d for d in analysis.gaps}
    assert dict(model.breaks_before) == {d.current: d for d in analysis.line_breaks}
    assert model.gaps_before[2].space and model.gaps_after.get(5) is None
    assert 0 not in model.gaps_before and model.breaks_before.get(4).broke


def test_a_glyph_filed_twice_keeps_its_later_decision_as_a_dict_would():
    first = GapDecision(0, 1, 1.0, 2.0, False, GapReason.BELOW_THRESHOLD)
    later = GapDecision(2, 1, 3.0, 2.0, True, GapReason.ABOVE_THRESHOLD)
    records = (first, later, GapDecision(1, 3, 0.5, 2.0, False, GapReason.BELOW_THRESHOLD))
    for decisions in (records, GapColumns.from_records(records)):
        by_glyph = DecisionsByGlyph.of(decisions, "current")
        assert dict(by_glyph) == {1: later, 3: records[2]} and len(by_glyph) == 2
        assert list(by_glyph) == [1, 3] and by_glyph.get(0) is None and "1" not in by_glyph


def test_categories_keep_every_distinct_text_a_glyph_maps_to():
    # numpy's fixed-width strings would strip the NUL and merge it with the empty text.
    categories = Categories.of(["b", "", "\x00", "b", "a\x00"])
    assert categories.labels == ("", "\x00", "a\x00", "b")
    assert categories.codes.tolist() == [3, 0, 1, 3, 2]
    assert categories.mask("b").tolist() == [True, False, False, True, False]
    assert Categories.of([2, 10, 2]).labels == ("10", "2")  # not strings: labelled by str()


def test_categories_from_codes_label_and_code_as_from_the_values():
    table = ("visible", "outside visible box", "duplicate")
    codes = np.array([2, 0, 2, 0], dtype=np.int64)  # "outside visible box" unused
    from_codes = Categories.of_codes(codes, table)
    from_values = Categories.of([table[code] for code in codes.tolist()])
    assert from_codes.labels == from_values.labels == ("duplicate", "visible")
    assert from_codes.codes.tolist() == from_values.codes.tolist() == [0, 1, 0, 1]
    assert Categories.of_codes(np.zeros(0, dtype=np.int64), table).labels == ()


def test_text_categories_from_the_columns_text_ids_are_those_of_the_texts():
    # glyph_arrays codes the text column from GlyphColumns.text_ids (first appearance order).
    texts = ["b", "", "\x00", "b", "a\x00", "é", "b"]
    from_ids = Categories.of_codes(*dictionary_encoded(texts))
    from_texts = Categories.of(texts)
    assert from_ids.labels == from_texts.labels
    assert from_ids.codes.tolist() == from_texts.codes.tolist()


def test_pane_offsets_count_a_non_bmp_character_twice_as_qt_does():
    assert utf16_offsets("a\U0001d400b").tolist() == [0, 1, 3, 4]
    assert utf16_offsets("").tolist() == [0]


def test_a_dropped_record_decides_its_glyphs_status_the_later_record_for_a_glyph_dropped_twice():
    analysis = _two_lines_analysis()
    dropped = (
        DroppedGlyph(1, DropReason.DUPLICATE, kept=0),
        DroppedGlyph(3, DropReason.OUTSIDE_VISIBLE_BOX),
        DroppedGlyph(1, DropReason.NON_FINITE_GEOMETRY),
    )
    model = build_page_model(0, dataclasses.replace(analysis, visible=(0, 1, 2), dropped=dropped))
    assert model.status == (
        GlyphStatus.VISIBLE,
        GlyphStatus.NON_FINITE_GEOMETRY,  # dropped wins over the visible list; later wins
        GlyphStatus.VISIBLE,
        GlyphStatus.OUTSIDE_VISIBLE_BOX,
        GlyphStatus.OUTSIDE_VISIBLE_BOX,  # neither visible nor dropped
        GlyphStatus.OUTSIDE_VISIBLE_BOX,
    )
