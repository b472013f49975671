"""The Rules panel: every threshold editable, re-analysis off the GUI thread, and exactly what
a change did to the page (pytest-qt, offscreen)."""

from __future__ import annotations

from dataclasses import fields

from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QSpinBox

from glyphscope.core.cli import main as extract_main
from glyphscope.core.rules import Rules
from glyphscope.widgets.text_panes import MARK_PROPERTY
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import (
    TIMEOUT_MS,
    TJ_CONTENT,
    glyph_indices,
    open_and_wait,
    qa_window,
    tj_pdf,
)

__all__ = ["qa_window"]


def change_rule(qtbot, features, **values):
    """Set rules in the panel as a user would and wait until the page's changes are shown."""
    for name, value in values.items():
        features.rules_panel.set_value(name, value)
    with qtbot.waitSignal(
        features.ruleChangesShown,
        timeout=TIMEOUT_MS,
        check_params_cb=lambda changes: bool(changes.changed_rules),
    ) as blocker:
        features.rules_panel.apply_now()
    return blocker.args[0]


def test_every_rule_has_an_editor_of_its_type(qa_window):
    _window, features = qa_window
    kinds = {name: type(editor) for name, editor in features.rules_panel.editors.items()}
    expected = {
        f.name: QCheckBox
        if isinstance(f.default, bool)
        else QSpinBox
        if isinstance(f.default, int)
        else QDoubleSpinBox
        for f in fields(Rules)
    }
    assert kinds == expected


def test_each_editor_marks_the_spec_default(qa_window):
    _window, features = qa_window
    assert features.rules_panel.markers["space_gap_ratio"].text() == "◆ spec 0.15"
    assert features.rules_panel.markers["max_page_glyphs"].text() == "◆ spec 1,000,000"


def test_a_changed_rule_is_marked_as_not_the_default(qa_window):
    _window, features = qa_window
    features.rules_panel.set_value("space_gap_ratio", 0.7)
    assert features.rules_panel.markers["space_gap_ratio"].text() == "◇ spec 0.15"


def test_raising_the_space_ratio_reports_exactly_the_lost_tj_space(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    j, s = glyph_indices(window, "Js")
    changes = change_rule(qtbot, features, space_gap_ratio=0.7)
    assert changes.spaces_lost == ((j, s),)
    assert changes.total == 1
    assert changes.changed_rules == (("space_gap_ratio", 0.15, 0.7),)


def test_the_reanalysed_page_shows_the_joined_words(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    assert window.text_panes.panes["reading"].editor.toPlainText() == "TJspaced\nPlain words"


def test_the_lost_space_is_drawn_on_the_page_and_counted_in_the_panel(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    j, s = glyph_indices(window, "Js")
    change_rule(qtbot, features, space_gap_ratio=0.7)
    assert [(g.label, g.glyphs) for g in features.rule_layer.groups] == [("spaces lost", (j, s))]
    tree = features.rules_panel.changes
    labels = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    assert labels == [
        "spaces gained: 0",
        "spaces lost: 1",
        "lines split: 0",
        "lines joined: 0",
        "glyphs newly dropped: 0",
        "glyphs newly kept: 0",
    ]


def test_the_lost_space_is_marked_in_the_reading_pane(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    editor = window.text_panes.panes["reading"].editor
    marked = [
        s.cursor.selectedText()
        for s in editor.extraSelections()
        if s.format.hasProperty(MARK_PROPERTY)
    ]
    assert marked == ["Js"]


def test_clicking_a_change_selects_its_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    j, s = glyph_indices(window, "Js")
    change_rule(qtbot, features, space_gap_ratio=0.7)
    lost = features.rules_panel.changes.topLevelItem(1).child(0)
    features.rules_panel.changes.itemClicked.emit(lost, 0)
    assert window.selection.indices == (j, s)


def test_a_huge_line_break_ratio_joins_the_two_lines(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    d, p = glyph_indices(window, "dP")
    changes = change_rule(qtbot, features, line_break_ratio=5.0)
    assert changes.lines_joined == ((d, p),)
    assert changes.lines_split == ()


def test_changes_against_the_previous_rules_show_only_the_last_step(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    features.rules_panel.compare.setCurrentText("previous rules")
    changes = change_rule(qtbot, features, space_gap_ratio=0.8)
    assert changes.changed_rules == (("space_gap_ratio", 0.7, 0.8),)
    assert changes.total == 0


def test_reset_returns_to_the_spec_rules_and_its_text(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    with qtbot.waitSignal(window.analysisReady, timeout=TIMEOUT_MS):
        features.rules_panel.reset()
    assert window.rules == Rules()
    assert window.text_panes.panes["reading"].editor.toPlainText() == "TJ spaced\nPlain words"
    assert features.rule_layer.groups == ()


def test_saved_rules_are_the_command_line_format(qa_window, tmp_path, capsys):
    _window, features = qa_window
    features.rules_panel.set_value("space_gap_ratio", 0.7)
    rules_file = tmp_path / "rules.json"
    features.rules_panel.save_to(rules_file)
    assert Rules.load(rules_file) == Rules().with_values(space_gap_ratio=0.7)
    assert extract_main(["--rules", str(rules_file), str(tj_pdf(tmp_path / "tj.pdf"))]) == 0
    assert capsys.readouterr().out.startswith("TJspaced\nPlain words")


def test_loading_a_rules_file_reanalyses_the_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    rules_file = tmp_path / "rules.json"
    rules_file.write_text(Rules().with_values(space_gap_ratio=0.7).to_json(), encoding="utf-8")
    with qtbot.waitSignal(
        features.ruleChangesShown,
        timeout=TIMEOUT_MS,
        check_params_cb=lambda changes: bool(changes.changed_rules),
    ):
        features.rules_panel.load_from(rules_file)
    assert features.rules_panel.editors["space_gap_ratio"].value() == 0.7
    assert window.rules.space_gap_ratio == 0.7


def test_changes_on_another_page_are_measured_against_its_spec_reading(qtbot, qa_window, tmp_path):
    window, features = qa_window
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for _ in range(2):
        b.add_page(TJ_CONTENT, media_box=(0, 0, 200, 160), fonts={"F1": helv})
    b.save(tmp_path / "two.pdf")
    open_and_wait(qtbot, window, tmp_path / "two.pdf")
    change_rule(qtbot, features, space_gap_ratio=0.7)
    with qtbot.waitSignal(
        features.ruleChangesShown,
        timeout=TIMEOUT_MS,
        check_params_cb=lambda changes: bool(changes.changed_rules),
    ) as blocker:
        window.go_to_page(1)
    assert window.page_index == 1
    assert blocker.args[0].spaces_lost == (tuple(glyph_indices(window, "Js")),)


def test_rules_set_on_the_window_from_elsewhere_show_in_the_panel(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    with qtbot.waitSignal(window.analysisReady, timeout=TIMEOUT_MS):
        window.set_rules(Rules().with_values(line_break_ratio=0.9))
    assert features.rules_panel.editors["line_break_ratio"].value() == 0.9


def test_a_tighter_duplicate_offset_keeps_the_fake_bold_copies(qtbot, qa_window, tmp_path):
    from tests.test_gui_pdfs import decisions_pdf

    window, features = qa_window
    decisions_pdf(tmp_path / "decisions.pdf")
    open_and_wait(qtbot, window, tmp_path / "decisions.pdf")
    copies = tuple(sorted(i for i, s in enumerate(window.model.status) if s == "duplicate"))
    # "Bold words" is drawn twice 0.3 pt apart at 14 pt: 0.1 × 14 = 1.4 pt drops the copy,
    # 0.01 × 14 = 0.14 pt keeps it.
    changes = change_rule(qtbot, features, duplicate_along=0.01)
    assert changes.newly_kept == copies
    assert len(copies) == len("Boldwords")
    drawn = [(g.label, g.glyphs) for g in features.rule_layer.groups]
    assert ("glyphs newly kept", copies) in drawn


def test_rules_set_on_the_window_show_in_the_panel_before_any_analysis(qa_window):
    window, features = qa_window
    window.set_rules(Rules().with_values(space_gap_ratio=0.4))
    assert features.rules_panel.editors["space_gap_ratio"].value() == 0.4


def test_selecting_a_glyph_keeps_the_lost_space_marked(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    window.selection.set(tuple(glyph_indices(window, "Plain")), "test")
    reading = window.text_panes.panes["reading"]
    assert [reading.pane.text[a:b] for a, b in reading.marked("rule_changes")] == ["Js"]


def test_hiding_the_rule_changes_layer_clears_its_pane_marks(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    change_rule(qtbot, features, space_gap_ratio=0.7)
    window.set_layer_visible(features.rule_layer.layer_id, False)
    assert window.text_panes.panes["reading"].marked(features.rule_layer.layer_id) == []
