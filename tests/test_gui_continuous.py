"""Continuous scrolling (pytest-qt): View ▸ Continuous scrolling stacks every page in one
scroll area, the page under the viewport's centre is the current one (page number, panes and
analysis follow it), keys move by page, zoom and fit keep the page, the page still follows the
selection, and a long file keeps only the pages near the viewport rendered."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt

from glyphscope.core.view.page_stack import PAGE_GAP, PageStack
from glyphscope.inspector.main_window import MainWindow
from glyphscope.widgets.continuous_pages import MAX_KEPT_PAGES
from glyphscope.widgets.page_view import PIXELS_PER_POINT
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import TIMEOUT_MS, glyph_indices, qa_window, send_wheel
from tests.qa_support import open_and_wait as open_with_panels
from tests.stalls import Watchdog
from tests.test_gui_app import open_and_wait
from tests.test_gui_follow_search import in_view, letter_pages, search
from tests.test_gui_pdfs import text_pages_pdf
from tests.test_gui_viewer import wheel_over
from tests.test_gui_workers import many_pages_pdf

__all__ = ["qa_window"]

LETTER_HEIGHT = 792.0


# -- the layout, without Qt ----------------------------------------------------------------------
def test_the_stack_puts_each_page_below_the_last_with_a_gap():
    stack = PageStack([(612, 792), (842, 595), (612, 792)])
    assert [stack.top(i) for i in range(3)] == [0, 792 + PAGE_GAP, 792 + 595 + 2 * PAGE_GAP]
    assert stack.width == 842 and stack.left(0) == (842 - 612) / 2 and stack.left(1) == 0
    assert stack.height == 792 * 2 + 595 + 2 * PAGE_GAP


def test_the_stack_finds_pages_by_height_and_a_gap_belongs_to_the_page_above():
    stack = PageStack([(612, 792)] * 4)
    assert stack.at(-50) == 0 and stack.at(10) == 0 and stack.at(792 + PAGE_GAP / 2) == 0
    assert stack.at(792 + PAGE_GAP + 1) == 1 and stack.at(1e9) == 3
    assert list(stack.between(700, 900)) == [0, 1]
    assert list(stack.between(792 + 1, 792 + PAGE_GAP - 1)) == []  # inside a gap


def test_a_corrected_size_moves_the_pages_below_and_an_unknown_size_is_a_letter_page():
    stack = PageStack([(612, 792), (0, 0), (612, 792)])
    assert stack.size(1) == (612, 792)
    assert stack.set_size(1, (612, 400)) and not stack.set_size(1, (612, 400))
    assert stack.top(2) == 792 + 400 + 2 * PAGE_GAP


def mixed_pages_pdf(path) -> None:
    """Letter; letter turned by /Rotate 90; a CropBox of 300 × 400; /UserUnit 2 on 200 × 100."""
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    text = b"BT /F1 12 Tf 60 60 Td (Here) Tj ET"
    builder.add_page(text, fonts={"F1": helv})
    builder.add_page(text, rotate=90, fonts={"F1": helv})
    builder.add_page(text, crop_box=(50, 50, 350, 450), fonts={"F1": helv})
    builder.add_page(text, media_box=(0, 0, 200, 100), user_unit=2.0, fonts={"F1": helv})
    builder.save(path)


def test_the_render_worker_reads_every_page_size_as_shown_without_loading_pages(tmp_path):
    from glyphscope.inspector.workers.render import PdfiumOwner

    mixed_pages_pdf(tmp_path / "mixed.pdf")
    owner = PdfiumOwner()
    owner.open(str(tmp_path / "mixed.pdf"), None)
    try:
        # pdfium turns and crops; it ignores /UserUnit (the page's render corrects it).
        assert owner.page_sizes() == [(612, 792), (792, 612), (300, 400), (200, 100)]
        # A file pdfium refused is laid out from the engine's boxes, /UserUnit included.
        owner.open_unrendered(str(tmp_path / "mixed.pdf"), None, "refused")
        assert owner.page_sizes() == [(612, 792), (792, 612), (300, 400), (400, 200)]
    finally:
        owner.close()


# -- in the window -------------------------------------------------------------------------------
def turn_on(qtbot, win) -> None:
    """View ▸ Continuous scrolling, as a user would choose it."""
    action = win.actions_by_name["continuous"]
    assert not action.isChecked()
    action.trigger()
    assert action.isChecked()
    qtbot.waitUntil(lambda: win.view.continuous, timeout=TIMEOUT_MS)


def reading_text(win) -> str:
    return win.text_panes.panes["reading"].editor.toPlainText()


def pages_shown(win) -> list[int]:
    """The pages whose paper reaches into the viewport."""
    view = win.view
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return [i for i in range(win.page_count) if view._page_scene_rect(i).intersects(shown)]


def settle(qtbot, win, page: int) -> None:
    """Wait until page `page` is current, analysed and drawn."""
    qtbot.waitUntil(
        lambda: win.page_index == page and win.page_is_ready and win.model is not None,
        timeout=TIMEOUT_MS,
    )


@pytest.fixture
def three_pages(qtbot, window, tmp_path):
    text_pages_pdf(tmp_path / "three.pdf", 3)
    open_and_wait(qtbot, window, tmp_path / "three.pdf")
    turn_on(qtbot, window)
    return window


def test_continuous_scrolling_stacks_every_page_in_one_scroll_area(qtbot, three_pages):
    view = three_pages.view
    assert view.sceneRect().height() >= 3 * LETTER_HEIGHT + 2 * PAGE_GAP
    # Where it was: page 1 at the top, the same zoom.
    assert three_pages.page_index == 0 and view.page_at_centre() == 0
    # The next page's image comes without turning to it.
    view.set_zoom(0.25)
    qtbot.waitUntil(lambda: {0, 1, 2} <= set(view.rendered_pages()), timeout=TIMEOUT_MS)
    assert three_pages.page_index == 0


def test_the_wheel_scrolls_on_into_the_next_page_and_the_window_follows_it(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    view.set_zoom(2.0)
    for _ in range(400):
        wheel_over(view, -1)
        qtbot.wait(20)
        if window.page_index != 0:
            break
    assert window.page_index == 1
    settle(qtbot, window, 1)
    assert view.page_at_centre() == 1
    assert window.page_spin.value() == 2
    assert window.model.page_index == 1
    assert "Page 2" in reading_text(window)
    # The page did not jump: its top is above the viewport's centre, not at the viewport top.
    assert view.mapFromScene(0, 0).y() < view.viewport().height() // 2


def test_dragging_the_scroll_bar_makes_the_page_in_the_middle_current(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    view.set_zoom(2.0)
    bar = view.verticalScrollBar()
    bar.setSliderDown(True)
    bar.setSliderPosition(bar.maximum())
    bar.setSliderDown(False)
    settle(qtbot, window, 2)
    assert "Page 3" in reading_text(window)
    bar.setValue(bar.minimum())
    settle(qtbot, window, 0)


def test_page_keys_move_by_page_and_bring_it_into_view(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    settle(qtbot, window, 1)
    assert view.page_at_centre() == 1
    qtbot.keyClick(view, Qt.Key.Key_End)
    settle(qtbot, window, 2)
    assert view.page_at_centre() == 2 and 2 in pages_shown(window)
    qtbot.keyClick(view, Qt.Key.Key_Home)
    settle(qtbot, window, 0)
    assert view.page_at_centre() == 0
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    settle(qtbot, window, 1)
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    settle(qtbot, window, 0)
    assert view.page_at_centre() == 0


def test_zoom_and_fit_width_keep_the_current_page(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    window.actions_by_name["fit_width"].trigger()
    qtbot.wait(200)
    assert view.horizontalScrollBar().maximum() == 0
    assert window.page_index == 1 and view.page_at_centre() == 1
    window.actions_by_name["zoom_in"].trigger()
    window.actions_by_name["zoom_in"].trigger()
    qtbot.wait(200)
    assert window.page_index == 1 and view.page_at_centre() == 1
    window.actions_by_name["fit_page"].trigger()
    qtbot.wait(200)
    page = view.mapFromScene(QRectF(0, 0, 612, LETTER_HEIGHT)).boundingRect()
    assert view.viewport().rect().contains(page)
    assert window.page_index == 1


def test_ctrl_wheel_zooms_at_the_pointer_over_the_stack(qtbot, three_pages):
    view = three_pages.view
    view.set_zoom(1.5)
    viewport = view.viewport()
    pointer = QPoint(viewport.width() // 3, viewport.height() // 3)
    qtbot.mouseMove(viewport, pointer)
    before = view.mapToScene(pointer)
    send_wheel(viewport, 2, at=pointer, modifiers=Qt.KeyboardModifier.ControlModifier)
    after = view.mapToScene(pointer)
    assert view.zoom > 1.5 and view.continuous
    assert abs(after.x() - before.x()) < 1.0 and abs(after.y() - before.y()) < 1.0


def test_a_click_selects_a_glyph_of_the_current_page(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    glyph = glyph_indices(window, "Page 2")[0]
    quad = window.model.glyphs[glyph].quad
    centre = view.view_point((quad[0][0] + quad[2][0]) / 2, (quad[0][1] + quad[2][1]) / 2)
    assert view.viewport().rect().contains(centre)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert window.selection.indices == (glyph,)


def test_a_click_on_another_page_makes_it_current_where_it_is(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    view.set_zoom(0.25)
    qtbot.wait(200)
    assert {0, 1} <= set(pages_shown(window))

    def on_screen(page: int):
        return view.mapFromScene(view._page_scene_rect(page).topLeft())

    before = on_screen(1)
    second = view.mapFromScene(view._page_scene_rect(1).center())
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=second)
    assert window.page_index == 1
    assert (on_screen(1) - before).manhattanLength() <= 2  # no jump
    qtbot.wait(200)
    assert window.page_index == 1


def test_turning_it_off_shows_one_page_again(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    window.actions_by_name["continuous"].trigger()
    assert not view.continuous
    assert view.sceneRect() == view.page_scene_rect(view.zoom * PIXELS_PER_POINT)
    assert view.rendered_pages() == [1] and window.page_index == 1


def test_the_choice_is_remembered(qtbot, tmp_path):
    first = MainWindow()
    qtbot.addWidget(first)
    first.actions_by_name["continuous"].trigger()
    first.shutdown()
    second = MainWindow()
    qtbot.addWidget(second)
    try:
        assert second.actions_by_name["continuous"].isChecked()
        second.show()
        text_pages_pdf(tmp_path / "three.pdf", 3)
        open_and_wait(qtbot, second, tmp_path / "three.pdf")
        assert second.view.continuous  # laid out before the first page was drawn
    finally:
        second.shutdown()


def test_pages_of_every_size_and_turn_are_stacked_centred_and_drawn_in_place(
    qtbot, window, tmp_path
):
    mixed_pages_pdf(tmp_path / "mixed.pdf")
    open_and_wait(qtbot, window, tmp_path / "mixed.pdf")
    turn_on(qtbot, window)
    view = window.view
    stack = view._stack
    assert [stack.size(i) for i in range(3)] == [(612, 792), (792, 612), (300, 400)]
    assert stack.left(0) == (792 - 612) / 2 and stack.left(1) == 0
    for page, size in ((1, (792, 612)), (2, (300, 400)), (3, (400, 200))):
        with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
            window.next_page()
        # The current page at the origin, its glyphs on it; pdfium ignores /UserUnit, the
        # page's render corrects its size.
        assert view._page_scene_rect(page).topLeft() == QPointF(0, 0)
        assert stack.size(page) == size
        x0, y0, x1, y1 = window.model.glyph_rect(glyph_indices(window, "Here"))
        glyphs = view.overlay_root.mapToScene(QRectF(x0, y0, x1 - x0, y1 - y0)).boundingRect()
        assert QRectF(0, 0, *size).contains(glyphs)
    assert view._page_scene_rect(0).top() < view._page_scene_rect(1).top() < 0


def test_reload_keeps_the_page_and_the_stack(qtbot, three_pages):
    window, view = three_pages, three_pages.view
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    view.set_zoom(2.0)
    view.setFocus()
    with qtbot.waitSignal(window.documentOpened, timeout=TIMEOUT_MS):
        qtbot.keyClick(view, Qt.Key.Key_F5)
    settle(qtbot, window, 1)
    qtbot.waitUntil(lambda: abs(view.zoom - 2.0) < 1e-6, timeout=TIMEOUT_MS)
    assert view.continuous and view.page_at_centre() == 1


def test_exports_show_the_current_page_alone(qtbot, three_pages):
    from glyphscope.inspector.export.exporters import page_image

    window, view = three_pages, three_pages.view
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    assert view.page_scene_rect().height() < LETTER_HEIGHT + 2 * PAGE_GAP
    image = page_image(window, [], 1.0)
    assert abs(image.height() - view.page_scene_rect().height()) <= 1


# -- the page follows the selection --------------------------------------------------------------
def test_a_search_hit_on_another_page_is_scrolled_into_view(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_with_panels(qtbot, window, letter_pages(tmp_path / "letter.pdf"))
    turn_on(qtbot, window)
    window.view.set_zoom(4.0)
    assert search(qtbot, features, "target") == 1
    hit = features.search_panel.hits.topLevelItem(0).child(0)
    features.search_panel.hits.itemClicked.emit(hit, 0)
    qtbot.waitUntil(lambda: window.selection.indices != (), timeout=TIMEOUT_MS)
    assert window.page_index == 2
    target = glyph_indices(window, "target")
    qtbot.waitUntil(lambda: in_view(window, target), timeout=TIMEOUT_MS)
    assert window.view.page_at_centre() == 2 and window.view.flashing
    qtbot.wait(300)  # the scrolling it took does not turn the page again
    assert window.page_index == 2 and window.selection.indices == tuple(target)


def test_a_glyph_chosen_in_a_panel_is_brought_into_view_after_scrolling_away(
    qtbot, qa_window, tmp_path
):
    window, features = qa_window
    open_with_panels(qtbot, window, letter_pages(tmp_path / "letter.pdf", 1))
    turn_on(qtbot, window)
    window.view.set_zoom(4.0)
    window.view.centerOn(0, 0)
    target = glyph_indices(window, "target")
    assert not in_view(window, target)
    features.select(target, "fonts_panel")
    assert in_view(window, target) and window.page_index == 0


def test_a_corpus_paper_scrolls_through_to_its_last_page(qtbot, window, corpus_dir):
    open_and_wait(qtbot, window, corpus_dir / "pdfjs__tracemonkey.pdf")
    turn_on(qtbot, window)
    view = window.view
    assert window.page_count == 14 and len(view._stack) == 14
    bar = view.verticalScrollBar()
    pages_seen = set()
    for _ in range(200):
        bar.setValue(bar.value() + bar.pageStep())  # Page Down on the scroll bar
        qtbot.wait(200)
        pages_seen.add(window.page_index)
        if window.page_index == 13:
            break
    assert pages_seen >= set(range(1, 14))  # every page was current on the way
    settle(qtbot, window, 13)
    qtbot.waitUntil(lambda: set(pages_shown(window)) <= set(view.rendered_pages()))
    assert "References" in reading_text(window)


# -- a long file ---------------------------------------------------------------------------------
def test_a_long_file_keeps_only_the_pages_near_the_viewport_rendered(qtbot, window, tmp_path):
    path = many_pages_pdf(tmp_path / "long.pdf", 300)
    open_and_wait(qtbot, window, path)
    turn_on(qtbot, window)
    view = window.view
    view.set_zoom(0.5)
    bar = view.verticalScrollBar()
    watchdog = Watchdog()
    most = 0
    for step in range(1, 31):
        # Where a drag of the slider puts it (the range moves with the current page).
        bar.setValue(bar.minimum() + (bar.maximum() - bar.minimum()) * step // 30)
        qtbot.wait(60)
        most = max(most, len(view.rendered_pages()))
        assert len(view.scene().items()) < 100  # no item per page: paper is background
    settle(qtbot, window, 299)
    shown = pages_shown(window)
    qtbot.waitUntil(lambda: set(shown) <= set(view.rendered_pages()), timeout=TIMEOUT_MS)
    assert shown[-1] == 299
    watchdog.stop()
    assert most <= MAX_KEPT_PAGES + 1
    assert len(view.rendered_pages()) <= MAX_KEPT_PAGES + 1
    assert "Page 300" in reading_text(window)
    stall = watchdog.longest * 1000
    print(f"\n300 pages scrolled through: longest GUI-thread stall {stall:.0f} ms")
    # The middle of the file, chosen in the page box, shows up too.
    window.page_spin.setValue(150)
    settle(qtbot, window, 149)
    assert view.page_at_centre() == 149
