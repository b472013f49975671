"""The inspector window end to end (pytest-qt, offscreen): documents, pages, layers, links."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTextCursor
from PySide6.QtWidgets import QToolTip

from glyphscope.core.rules import Rules
from glyphscope.inspector.app import sample_path
from glyphscope.inspector.main_window import MainWindow
from glyphscope.inspector.settings import open_settings, recent_files
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.widgets.overlay_layers import LAYER_TYPES
from glyphscope.widgets.text_panes import utf16_offsets
from tests import worker_jobs
from tests.qa_support import TIMEOUT_MS, glyph_indices
from tests.test_gui_pdfs import decisions_pdf, encrypted_pdf, text_pages_pdf

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def window(qtbot):
    win = MainWindow()
    qtbot.addWidget(win)
    win.password_provider = lambda path, wrong: pytest.fail("unexpected password prompt")
    win.resize(1200, 800)
    win.show()
    yield win
    win.shutdown()


def open_and_wait(qtbot, win: MainWindow, path, **options) -> None:
    with qtbot.waitSignal(win.pageReady, timeout=TIMEOUT_MS):
        win.open_file(str(path), **options)


def turn_page(qtbot, win: MainWindow, action) -> None:
    with qtbot.waitSignal(win.pageReady, timeout=TIMEOUT_MS):
        action()


def centre_of(win: MainWindow, index: int) -> tuple[float, float]:
    quad = win.model.glyphs[index].quad
    return ((quad[0][0] + quad[2][0]) / 2, (quad[0][1] + quad[2][1]) / 2)


def move_onto(qtbot, win: MainWindow, point: tuple[float, float]) -> None:
    """Move the pointer off and back onto a user-space point: a move to where the pointer
    already is sends no event, and the docks may still be settling after the first paint."""
    viewport = win.view.viewport()
    qtbot.mouseMove(viewport, viewport.rect().topLeft() + QPoint(2, 2))
    qtbot.mouseMove(viewport, win.view.view_point(*point))


def reading_text(win: MainWindow) -> str:
    return win.text_panes.panes["reading"].editor.toPlainText()


def scene_image(win: MainWindow) -> QImage:
    image = QImage(400, 300, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    win.view.scene().render(painter, QRectF(0, 0, 400, 300), win.view.sceneRect())
    painter.end()
    return image


# -- documents -------------------------------------------------------------------------------


def test_opening_the_sample_shows_its_first_page_and_text(qtbot, window):
    open_and_wait(qtbot, window, sample_path())
    assert window.page_count == 5
    assert window.page_index == 0
    assert window.rendered is not None and not window.rendered.image.isNull()
    assert reading_text(window) == window.model.analysis.reading.text
    assert "PDF Reference Manual" in reading_text(window)


def test_the_page_spin_box_names_the_page_count(qtbot, window, tmp_path):
    open_and_wait(qtbot, window, text_pages_pdf(tmp_path / "three.pdf") and tmp_path / "three.pdf")
    assert window.page_total.text() == " of 3"
    assert window.page_spin.value() == 1


def test_encrypted_file_opens_with_the_right_password(qtbot, window, tmp_path):
    path = tmp_path / "locked.pdf"
    encrypted_pdf(path, "secret")
    asked = []
    window.password_provider = lambda p, wrong: asked.append((p, wrong)) or "secret"
    open_and_wait(qtbot, window, path)
    assert asked == [(str(path), False)]
    assert reading_text(window) == "Locked"


def test_wrong_password_is_reported_and_asked_again(qtbot, window, tmp_path):
    path = tmp_path / "locked.pdf"
    encrypted_pdf(path, "secret")
    answers = iter(["nope", "secret"])
    asked = []
    window.password_provider = lambda p, wrong: asked.append(wrong) or next(answers)
    open_and_wait(qtbot, window, path)
    assert asked == [False, True]
    assert reading_text(window) == "Locked"


def test_password_given_up_front_opens_without_asking(qtbot, window, tmp_path):
    path = tmp_path / "locked.pdf"
    encrypted_pdf(path, "secret")
    open_and_wait(qtbot, window, path, password="secret")
    assert reading_text(window) == "Locked"


def test_cancelled_password_shows_an_error_not_a_document(qtbot, window, tmp_path):
    path = tmp_path / "locked.pdf"
    encrypted_pdf(path, "secret")
    window.password_provider = lambda p, wrong: None
    with qtbot.waitSignal(window.documentFailed, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert window.banner.isVisible()
    assert "encrypted" in window.banner.text()
    assert window.page_count == 0


def test_broken_file_shows_an_error_and_the_app_stays_usable(qtbot, window, tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nthis is not a PDF body at all\n")
    with qtbot.waitSignal(window.documentFailed, timeout=TIMEOUT_MS):
        window.open_file(str(broken))
    assert window.banner.isVisible()
    assert window.banner.text().startswith("Could not open broken.pdf")
    good = tmp_path / "good.pdf"
    text_pages_pdf(good, 1)
    open_and_wait(qtbot, window, good)
    assert not window.banner.isVisible()
    assert reading_text(window) == "Page 1"


def test_a_page_that_fails_analysis_leaves_the_other_pages_usable(qtbot, window, tmp_path):
    path = tmp_path / "three.pdf"
    text_pages_pdf(path, 3)
    window._core.analyse = partial(worker_jobs.analyse_failing_on, 1)
    open_and_wait(qtbot, window, path)
    turn_page(qtbot, window, window.next_page)
    assert window.banner.text().startswith("Page 2 could not be analysed: content stream exploded")
    assert window.rendered.index == 1
    turn_page(qtbot, window, window.next_page)
    assert not window.banner.isVisible()
    assert reading_text(window) == "Page 3"


# -- navigation ------------------------------------------------------------------------------


@pytest.fixture
def three_pages(qtbot, window, tmp_path):
    path = tmp_path / "three.pdf"
    text_pages_pdf(path, 3)
    open_and_wait(qtbot, window, path)
    return window


def test_page_down_key_shows_the_next_page(qtbot, three_pages):
    win = three_pages
    win.view.setFocus()
    turn_page(qtbot, win, lambda: qtbot.keyClick(win.view, Qt.Key.Key_PageDown))
    assert reading_text(win) == "Page 2"
    assert win.page_spin.value() == 2


def test_page_up_key_shows_the_previous_page(qtbot, three_pages):
    win = three_pages
    turn_page(qtbot, win, win.last_page)
    win.view.setFocus()
    turn_page(qtbot, win, lambda: qtbot.keyClick(win.view, Qt.Key.Key_PageUp))
    assert reading_text(win) == "Page 2"


def test_end_and_home_keys_show_the_last_and_first_pages(qtbot, three_pages):
    win = three_pages
    win.view.setFocus()
    turn_page(qtbot, win, lambda: qtbot.keyClick(win.view, Qt.Key.Key_End))
    assert reading_text(win) == "Page 3"
    turn_page(qtbot, win, lambda: qtbot.keyClick(win.view, Qt.Key.Key_Home))
    assert reading_text(win) == "Page 1"


def test_page_spin_box_jumps_to_a_page(qtbot, three_pages):
    win = three_pages
    turn_page(qtbot, win, lambda: win.page_spin.setValue(3))
    assert reading_text(win) == "Page 3"


def test_next_page_on_the_last_page_stays_there(qtbot, three_pages):
    win = three_pages
    turn_page(qtbot, win, win.last_page)
    turn_page(qtbot, win, win.next_page)
    assert win.page_index == 2


def test_ctrl_wheel_zooms_within_25_to_800_percent(qtbot, three_pages):
    view = three_pages.view
    view.set_zoom(100.0)
    assert view.zoom == 8.0
    view.set_zoom(0.01)
    assert view.zoom == 0.25


# -- layers ----------------------------------------------------------------------------------


@pytest.fixture
def decisions(qtbot, window, tmp_path):
    path = tmp_path / "decisions.pdf"
    decisions_pdf(path)
    open_and_wait(qtbot, window, path)
    return window


@pytest.mark.parametrize("layer_id", [t.layer_id for t in LAYER_TYPES])
def test_each_layer_toggle_changes_what_is_drawn(qtbot, decisions, layer_id):
    win = decisions
    win.set_layers([])
    win.view._page_item.setVisible(False)
    blank = scene_image(win)
    win.layers_panel.checks[layer_id].setChecked(True)
    assert win.layers[layer_id].isVisible()
    assert win.layers[layer_id].drawn_count() > 0
    assert scene_image(win) != blank


def test_layer_shortcut_toggles_a_layer(qtbot, decisions):
    win = decisions
    before = win.layers["glyphs"].isVisible()
    win.actions_by_name["toggle_glyphs"].trigger()
    assert win.layers["glyphs"].isVisible() is not before
    assert win.layers_panel.checks["glyphs"].isChecked() is not before


def test_colouring_quads_by_font_lists_the_fonts_in_the_legend(qtbot, decisions):
    win = decisions
    win.layers_panel.colour_by.setCurrentText("font")
    labels = [e.label for e in win.layers["glyphs"].legend_for(win.model)]
    assert labels == ["F1 Helvetica", "F2 BareCID", "F3 VertCID"]


def test_every_decode_source_has_a_colour_of_its_own():
    from glyphscope.core.records import DecodeSource
    from glyphscope.widgets.overlay_layers import DECODE_SOURCE_COLOURS

    assert list(DECODE_SOURCE_COLOURS) == [source.value for source in DecodeSource]
    assert len(set(DECODE_SOURCE_COLOURS.values())) == len(DecodeSource)


def test_decode_source_legend_lists_every_source_with_its_count(qtbot, decisions):
    win = decisions
    labels = [e.label for e in win.layers["glyphs"].legend_for(win.model)]
    sources = [label.split(" ")[0] for label in labels]
    assert sources == [
        "tounicode",
        "encoding_cmap",
        "differences",
        "predefined_cmap",
        "builtin_encoding",
        "font_program",
        "glyph_name_number",
        "tex_encoding",
        "actual_text",
        "unresolved",
    ]
    assert "glyph_name_number (0)" in labels


# -- hover, click, panes, rubber band ----------------------------------------------------------


def test_hover_tooltip_shows_the_glyph_and_its_gap_decision(qtbot, decisions):
    win = decisions
    w = glyph_indices(win, "spaced")[0]
    x, y = centre_of(win, w)
    tip = win.view.tooltip_text_at(x, y)
    gap = win.model.gaps_before[w]
    assert "“s” U+0073" in tip
    assert (
        f"gap before (from #{gap.previous}) {gap.gap:.2f} vs threshold {gap.threshold:.2f} → space"
        in tip
    )


def test_moving_the_mouse_over_a_glyph_shows_its_tooltip(qtbot, decisions):
    win = decisions
    s = glyph_indices(win, "Second")[0]

    def shown() -> bool:
        move_onto(qtbot, win, centre_of(win, s))
        return "U+0053" in QToolTip.text()

    qtbot.waitUntil(shown, timeout=5000)


def test_hover_tooltip_of_a_dropped_copy_names_the_kept_glyph(qtbot, decisions):
    win = decisions
    copy = next(i for i, s in enumerate(win.model.status) if s == "duplicate")
    kept = win.model.dropped[copy].kept
    assert f"dropped: duplicate of #{kept}" in win.tooltip_for(copy)


def test_clicking_a_glyph_highlights_its_characters_in_every_pane(qtbot, decisions):
    win = decisions
    s = glyph_indices(win, "Second")[0]
    qtbot.mouseClick(
        win.view.viewport(), Qt.MouseButton.LeftButton, pos=win.view.view_point(*centre_of(win, s))
    )
    assert win.selection.indices == (s,)
    for name in ("reading", "layout", "columns"):
        pane = win.text_panes.panes[name]
        position = pane.pane.text.index("Second")
        selections = pane.editor.extraSelections()
        assert [(e.cursor.selectionStart(), e.cursor.selectionEnd()) for e in selections] == [
            (position, position + 1)
        ]
    assert "U+0053" in win.details.toPlainText()


def test_selecting_text_in_a_pane_lights_its_glyphs_on_the_page(qtbot, decisions):
    win = decisions
    pane = win.text_panes.panes["reading"]
    start = pane.pane.text.index("Tagged")
    pane.select_chars(start, start + len("Tagged"))
    assert list(win.selection.indices) == glyph_indices(win, "Tagged")
    assert win.selection_layer.selected == tuple(glyph_indices(win, "Tagged"))


def test_rubber_band_selects_the_glyphs_inside_it_everywhere(qtbot, decisions):
    win = decisions
    tagged = glyph_indices(win, "Tagged")
    quads = [win.model.glyphs[i].quad for i in tagged]
    x0 = min(q[0][0] for q in quads) - 1
    x1 = max(q[2][0] for q in quads) + 1
    y0 = min(q[0][1] for q in quads) - 1
    y1 = max(q[2][1] for q in quads) + 1
    viewport = win.view.viewport()
    start, end = win.view.view_point(x0, y1), win.view.view_point(x1, y0)
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(viewport, start + (end - start) * (step / 5))
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    assert list(win.selection.indices) == tagged
    assert (
        win.glyph_table.view.selectionModel().selectedRows()
        and sorted(
            win.glyph_table.source.glyph_at(win.glyph_table.proxy.mapToSource(i).row())
            for i in win.glyph_table.view.selectionModel().selectedRows()
        )
        == tagged
    )
    assert "6 glyphs selected" in win.details.toPlainText()


def test_escape_clears_the_selection(qtbot, decisions):
    win = decisions
    win.selection.set([0], "test")
    win.actions_by_name["clear_selection"].trigger()
    assert win.selection.indices == ()


# -- glyph table -----------------------------------------------------------------------------


def test_glyph_table_dropped_only_lists_the_dropped_glyphs(qtbot, decisions):
    table = decisions.glyph_table
    table.dropped_only.setChecked(True)
    assert table.visible_rows() == sorted(decisions.model.dropped)


def test_glyph_table_unresolved_only_lists_the_two_unresolved_codes(qtbot, decisions):
    table = decisions.glyph_table
    table.unresolved_only.setChecked(True)
    rows = table.visible_rows()
    assert [decisions.model.glyphs[r].font_key for r in rows] == ["F2", "F2"]


def test_glyph_table_filters_by_mcid(qtbot, decisions):
    table = decisions.glyph_table
    table.mcid.setCurrentText("3")
    assert table.visible_rows() == glyph_indices(decisions, "Tagged")


def test_glyph_table_filters_by_font(qtbot, decisions):
    table = decisions.glyph_table
    table.font.setCurrentText("F3")
    assert [decisions.model.glyphs[r].text for r in table.visible_rows()] == ["縦", "書"]


def test_glyph_table_sorts_by_a_column(qtbot, decisions):
    table = decisions.glyph_table
    table.view.sortByColumn(4, Qt.SortOrder.DescendingOrder)  # size
    sizes = [decisions.model.glyphs[r].font_size for r in table.visible_rows()]
    assert sizes == sorted(sizes, reverse=True)


def test_glyph_table_visible_scope_hides_dropped_glyphs(qtbot, decisions):
    table = decisions.glyph_table
    table.scope.setCurrentIndex(1)
    assert table.visible_rows() == list(decisions.model.analysis.visible)


def test_status_bar_counts_the_visible_glyphs(qtbot, decisions):
    model = decisions.model
    visible = len(model.analysis.visible)
    assert 0 < visible < model.count  # the page drops a copy and a glyph outside the box
    counts = f"{model.count} glyphs, {visible} visible"
    # Issue 12: the visible glyphs a reader cannot see are counted after them.
    hidden = sum(1 for h in model.analysis.hidden if h.glyph in model.analysis.visible)
    assert decisions.state_label.text() == counts + (f", {hidden} hidden" if hidden else "")


# -- settings --------------------------------------------------------------------------------


def test_settings_live_in_the_isolated_temp_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("GLYPHSCOPE_SETTINGS_DIR", str(tmp_path / "cfg"))
    assert open_settings().fileName() == str(tmp_path / "cfg" / "glyphscope.ini")


def test_opened_files_go_to_the_recent_list(qtbot, three_pages):
    assert recent_files(open_settings())[0] == str(Path(three_pages.path).resolve())


def test_layer_choices_persist_to_the_next_window(qtbot, window):
    window.set_layer_visible("gaps", False)
    window.set_layer_visible("mcid", True)
    window.save_settings()
    again = MainWindow()
    qtbot.addWidget(again)
    try:
        assert not again.layers["gaps"].isVisible()
        assert again.layers["mcid"].isVisible()
        assert not again.layers_panel.checks["gaps"].isChecked()
    finally:
        again.shutdown()


def test_window_geometry_persists(qtbot, window):
    # Within the offscreen platform's 800 × 600 screen, which restoreGeometry clamps to.
    window.resize(760, 560)
    window.save_settings()
    again = MainWindow()
    qtbot.addWidget(again)
    try:
        assert (again.width(), again.height()) == (760, 560)
    finally:
        again.shutdown()


# -- command line ----------------------------------------------------------------------------


def _run_app(*args: str, env_dir: Path) -> subprocess.CompletedProcess:
    import os

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GLYPHSCOPE_SETTINGS_DIR=str(env_dir))
    return subprocess.run(
        [sys.executable, "-m", "glyphscope.inspector.app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_screenshot_writes_the_window_and_exits_0(tmp_path):
    pdf = tmp_path / "decisions.pdf"
    decisions_pdf(pdf)
    out = tmp_path / "shot.png"
    result = _run_app("--screenshot", str(out), "--layers", "all", str(pdf), env_dir=tmp_path)
    assert result.returncode == 0, result.stderr
    assert QImage(str(out)).width() == 1920


def test_screenshot_of_a_broken_file_exits_1_with_a_message(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"not a pdf")
    result = _run_app("--screenshot", str(tmp_path / "shot.png"), str(broken), env_dir=tmp_path)
    assert result.returncode == 1
    assert "Could not open broken.pdf" in result.stderr


def test_unknown_layer_name_is_refused(tmp_path):
    result = _run_app(
        "--screenshot", str(tmp_path / "x.png"), "--layers", "glyphs,nope", env_dir=tmp_path
    )
    assert result.returncode != 0
    assert "unknown layer(s) nope" in result.stderr


def test_unknown_panel_name_is_refused(tmp_path):
    result = _run_app("--screenshot", str(tmp_path / "x.png"), "--panel", "nope", env_dir=tmp_path)
    assert result.returncode != 0
    assert "unknown panel nope" in result.stderr


def test_view_point_and_user_point_are_inverse(qtbot, decisions):
    view = decisions.view
    point = view.user_point(view.view_point(100.0, 100.0))
    assert (round(point.x()), round(point.y())) == (100, 100)
    assert isinstance(view.view_point(0, 0), QPoint)
    assert isinstance(point, QPointF)


def test_a_thousand_page_file_analyses_only_the_page_shown(qtbot, window, tmp_path):
    path = tmp_path / "long.pdf"
    text_pages_pdf(path, 1000)
    analysed = worker_jobs.record_submissions(window.analysis_worker, "analyse")
    # The page a file opens on is analysed behind the open, as pages made ahead are.
    analysed_on_open = worker_jobs.record_submissions(window.analysis_worker, JobKind.AHEAD)
    open_and_wait(qtbot, window, path)
    assert window.page_count == 1000
    assert analysed_on_open == [0] and analysed == []
    turn_page(qtbot, window, window.last_page)
    assert analysed == [999]
    assert reading_text(window) == "Page 1000"


def test_revisiting_a_page_reuses_its_analysis(qtbot, window, tmp_path, monkeypatch):
    # No work ahead: on a slow machine the idle window would analyse page 2 ahead before
    # the spy is set (inspector.workers.page_ahead), and this test is about the page turned to.
    monkeypatch.setattr(window.ahead, "schedule", lambda: None)
    text_pages_pdf(tmp_path / "three.pdf", 3)
    open_and_wait(qtbot, window, tmp_path / "three.pdf")
    win = window
    analysed = worker_jobs.record_submissions(win.analysis_worker, "analyse")
    turn_page(qtbot, win, win.next_page)
    turn_page(qtbot, win, win.previous_page)
    assert analysed == [1]
    assert reading_text(win) == "Page 1"


def test_dropping_a_file_on_the_window_opens_it(qtbot, window, tmp_path):
    from PySide6.QtCore import QMimeData, QUrl
    from PySide6.QtGui import QDropEvent

    path = tmp_path / "dropped.pdf"
    text_pages_pdf(path, 2)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.dropEvent(event)
    assert window.path == str(path)
    assert reading_text(window) == "Page 1"


def test_selecting_rows_in_the_glyph_table_lights_the_glyphs_on_the_page(qtbot, decisions):
    win = decisions
    second = glyph_indices(win, "Second")
    table = win.glyph_table
    model = table.view.selectionModel()
    from PySide6.QtCore import QItemSelectionModel

    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for glyph in second[:2]:
        model.select(table.proxy.index(glyph, 0), flags)
    assert win.selection.indices == tuple(second[:2])
    assert win.selection_layer.selected == tuple(second[:2])


def test_filtering_the_glyph_table_keeps_the_shown_rows_selected(qtbot, decisions):
    win = decisions
    second = glyph_indices(win, "Second")
    win.selection.set(second, "page")
    table = win.glyph_table
    table.dropped_only.setChecked(True)  # none of them is dropped: no row is left
    assert table.view.selectionModel().selectedRows() == []
    table.dropped_only.setChecked(False)
    rows = table.view.selectionModel().selectedRows()
    assert sorted(table.source.glyph_at(i.row()) for i in rows) == second
    assert table.count.text() == f"{win.model.count} of {win.model.count} glyphs"


def test_open_recent_lists_the_opened_file(qtbot, three_pages):
    win = three_pages
    win.recent_menu.aboutToShow.emit()
    texts = [a.text() for a in win.recent_menu.actions()]
    assert texts[0] == "&1 three.pdf"


def test_clicking_a_character_in_a_pane_selects_its_glyph(qtbot, decisions):
    win = decisions
    pane = win.text_panes.panes["reading"]
    position = pane.pane.text.index("Tagged") + 1
    cursor = QTextCursor(pane.editor.document())
    cursor.setPosition(int(utf16_offsets(pane.pane.text)[position]))
    where = pane.editor.cursorRect(cursor).center() + QPoint(2, 0)
    qtbot.mouseClick(pane.editor.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert win.selection.indices == (glyph_indices(win, "Tagged")[1],)


def test_shortcut_list_names_page_and_layer_keys(qtbot, window):
    from glyphscope.inspector.actions import shortcut_rows

    rows = dict(shortcut_rows(window))
    assert rows["PgDown"] == "Next page"
    assert rows["Alt+1"] == "Glyph quads"
    assert rows["F4"] == "Show or hide Text"


def test_set_rules_reanalyses_the_page_with_the_new_thresholds(qtbot, decisions):
    win = decisions
    spaced = glyph_indices(win, "spaced")[0]
    assert win.model.gaps_before[spaced].space
    with qtbot.waitSignal(win.analysisReady, timeout=TIMEOUT_MS) as ready:
        win.set_rules(win.rules.with_values(space_gap_ratio=1.0))
    model = ready.args[1]
    assert model is win.model
    assert not model.gaps_before[spaced].space
    assert "TJspaced" in reading_text(win)


def test_dock_state_persists(qtbot, window):
    window.panels["details"].hide()
    window.save_settings()
    again = MainWindow()
    qtbot.addWidget(again)
    again.show()
    try:
        assert not again.panels["details"].isVisible()
        assert again.panels["layers"].isVisible()
    finally:
        again.shutdown()


def test_colour_by_choice_persists(qtbot, window):
    window.layers_panel.colour_by.setCurrentText("MCID")
    again = MainWindow()
    qtbot.addWidget(again)
    try:
        assert again.layers["glyphs"].colour_by == "MCID"
    finally:
        again.shutdown()


def test_an_analysis_of_the_previous_file_never_lands_on_the_next(qtbot, window, tmp_path):
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    decisions_pdf(first)
    text_pages_pdf(second, 2)
    open_and_wait(qtbot, window, first)
    release = tmp_path / "release"
    analyse = window._core.analyse
    window._core.analyse = partial(worker_jobs.analyse_when_released, str(release))
    window.set_rules(window.rules.with_values(space_gap_ratio=0.2))  # still running when…
    window._core.analyse = analyse
    # …the next file opens. The analysis worker delivers in order, so the stale result has
    # been handled by the time the new page is ready.
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(second))
        release.touch()
    assert reading_text(window) == "Page 1"
    assert window.model.count == len("Page 1")


def test_the_glyph_under_the_pointer_is_outlined(qtbot, decisions):
    win = decisions
    s = glyph_indices(win, "Second")[0]

    def hovered() -> bool:
        move_onto(qtbot, win, centre_of(win, s))
        return win.hover_layer.selected == (s,)

    qtbot.waitUntil(hovered, timeout=5000)


@pytest.mark.parametrize("thread", ["render_worker", "analysis_worker"])
def test_a_failed_job_of_another_kind_is_not_reported_as_a_page_failure(qtbot, three_pages, thread):
    win = three_pages
    owner = getattr(win, thread)
    with qtbot.waitSignal(owner.jobFailed, timeout=TIMEOUT_MS):
        owner.submit("qa-something", worker_jobs.fail, None)
    assert not win.banner.isVisible()
    assert win.model is not None


def test_set_rules_emits_rules_changed_with_the_new_rules(qtbot, window):
    rules = Rules().with_values(space_gap_ratio=0.3)
    with qtbot.waitSignal(window.rulesChanged, timeout=TIMEOUT_MS) as blocker:
        window.set_rules(rules)
    assert blocker.args == [rules]


def test_set_rules_with_the_same_rules_emits_nothing(qtbot, window):
    with qtbot.assertNotEmitted(window.rulesChanged):
        window.set_rules(Rules())


def test_a_dock_added_after_construction_comes_back_hidden(qtbot, window):
    from PySide6.QtWidgets import QLabel

    window.add_panel("extra", "Extra", QLabel("extra"))
    window.panels["extra"].hide()
    window.save_settings()
    again = MainWindow()
    qtbot.addWidget(again)
    again.add_panel("extra", "Extra", QLabel("extra"))
    again.show()
    try:
        assert not again.panels["extra"].isVisible()
        assert again.panels["layers"].isVisible()
    finally:
        again.shutdown()
