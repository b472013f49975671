"""The page view draws overlays where pdfium paints: one transform for every /Rotate."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt

from glyphscope.core.view.page_geometry import display_matrix
from glyphscope.inspector.main_window import MainWindow
from glyphscope.inspector.workers.render import PdfiumOwner
from glyphscope.widgets.page_view import to_qtransform
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import send_wheel

TIMEOUT_MS = 30_000
# A black 40 × 20 rectangle at (100, 100) on a page cropped away from the origin.
SQUARE = b"0 0 0 rg 100 100 40 20 re f"


def square_pdf(path, rotate: int, user_unit: float | None = None) -> None:
    b = PdfBuilder()
    b.add_page(
        SQUARE,
        media_box=(0, 0, 300, 200),
        crop_box=(20, 10, 280, 190),
        rotate=rotate,
        user_unit=user_unit,
    )
    b.save(path)


@pytest.fixture
def window(qtbot):
    win = MainWindow(persist=False)
    qtbot.addWidget(win)
    win.resize(1000, 700)
    win.show()
    yield win
    win.shutdown()


def pixel_at_user_point(win: MainWindow, x: float, y: float) -> int:
    """Grey level of the rendered image under a user-space point, through the overlay root."""
    display = win.view.overlay_root.mapToScene(QPointF(x, y))
    image = win.rendered.image
    width, height = win.rendered.geometry.size
    px = int(display.x() * image.width() / width)
    py = int(display.y() * image.height() / height)
    return image.pixelColor(px, py).value()


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_overlay_points_land_on_what_pdfium_painted(qtbot, window, tmp_path, rotate):
    path = tmp_path / f"square{rotate}.pdf"
    square_pdf(path, rotate)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert pixel_at_user_point(window, 120, 110) < 40  # inside the black rectangle
    assert pixel_at_user_point(window, 145, 110) > 215  # 5 pt to its right: paper
    assert pixel_at_user_point(window, 120, 125) > 215  # 5 pt above it: paper


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_overlay_root_carries_the_display_matrix_of_the_visible_box(
    qtbot, window, tmp_path, rotate
):
    path = tmp_path / f"square{rotate}.pdf"
    square_pdf(path, rotate)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert window.view.overlay_root.transform() == to_qtransform(
        display_matrix((20, 10, 280, 190), rotate)
    )


def test_user_unit_scales_the_shown_page(qtbot, window, tmp_path):
    path = tmp_path / "big.pdf"
    square_pdf(path, 0, user_unit=2.0)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert window.rendered.geometry.size == (520.0, 360.0)
    assert pixel_at_user_point(window, 120, 110) < 40
    assert pixel_at_user_point(window, 145, 110) > 215


def test_a_page_with_a_damaged_user_unit_leaves_the_other_pages_their_own(qtbot, tmp_path):
    # §14.11.2.2: /UserUnit is a number per page. One page's bad value (a name) counts as 1
    # for that page only; the render worker asks core, which reads each page on its own.
    path = tmp_path / "units.pdf"
    b = PdfBuilder()
    b.add_page(SQUARE, media_box=(0, 0, 300, 200), extra={"UserUnit": "/Huge"})
    b.add_page(SQUARE, media_box=(0, 0, 300, 200), user_unit=2.0)
    b.save(path)
    owner = PdfiumOwner()
    owner.open(str(path), None)
    try:
        units = [owner.render(index, 0.25).geometry.user_unit for index in (0, 1)]
    finally:
        owner.close()
    assert units == [1.0, 2.0]


def test_cursor_position_is_reported_in_user_space(qtbot, window, tmp_path):
    path = tmp_path / "square.pdf"
    square_pdf(path, 90)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))

    def near_the_point() -> bool:
        # Off and back on at each poll: a move to where the pointer is sends no event, and the
        # docks may still be settling after the first paint.
        viewport = window.view.viewport()
        qtbot.mouseMove(viewport, viewport.rect().topLeft() + QPoint(2, 2))
        qtbot.mouseMove(viewport, window.view.view_point(120.0, 110.0))
        # The pointer sits on a whole pixel: within one pixel (under 1 pt at this zoom).
        words = window.cursor_label.text().split()
        return len(words) > 3 and abs(float(words[1]) - 120) < 1 and abs(float(words[3]) - 110) < 1

    qtbot.waitUntil(near_the_point, timeout=5000)


def test_crop_box_outside_the_media_box_shows_the_media_box_and_says_why(qtbot, window, tmp_path):
    path = tmp_path / "empty.pdf"
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td (Lost) Tj ET",
        media_box=(0, 0, 600, 800),
        crop_box=(600, 800, 1000, 1000),
        fonts={"F1": helv},
    )
    b.save(path)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert window.banner.text().startswith("Page 1: its CropBox [600 800 1000 1000] lies outside")
    assert window.rendered.geometry.size == (600.0, 800.0)
    assert window.model.visible_box == (0.0, 0.0, 600.0, 800.0)


@pytest.fixture
def square_window(qtbot, window, tmp_path):
    path = tmp_path / "square.pdf"
    square_pdf(path, 0)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    return window


def wheel(view, steps: int, modifiers) -> None:
    send_wheel(view.viewport(), steps, modifiers=modifiers)


def test_ctrl_wheel_zooms_in_by_15_percent_a_step(qtbot, square_window):
    view = square_window.view
    view.set_zoom(1.0)
    wheel(view, 2, Qt.KeyboardModifier.ControlModifier)
    assert round(view.zoom, 4) == round(1.15**2, 4)


def test_zoom_stops_at_800_percent(qtbot, square_window):
    view = square_window.view
    view.set_zoom(7.0)
    wheel(view, 10, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 8.0


def test_zoom_change_asks_for_a_sharper_render(qtbot, square_window):
    win = square_window
    before = win.rendered.scale
    with qtbot.waitSignal(win.render_worker.jobFinished, timeout=TIMEOUT_MS):
        win.view.set_zoom(4.0)
    qtbot.waitUntil(lambda: win.rendered.scale > before * 1.5, timeout=TIMEOUT_MS)


def test_middle_drag_pans_the_page(qtbot, square_window):
    view = square_window.view
    view.set_zoom(6.0)
    bar = view.horizontalScrollBar()
    bar.setValue(bar.maximum() // 2)
    start = bar.value()
    viewport = view.viewport()
    centre = viewport.rect().center()
    qtbot.mousePress(viewport, Qt.MouseButton.MiddleButton, pos=centre)
    qtbot.mouseMove(viewport, centre + QPoint(-120, 0))
    qtbot.mouseRelease(viewport, Qt.MouseButton.MiddleButton, pos=centre + QPoint(-120, 0))
    assert bar.value() > start


def test_fit_page_shows_the_whole_page(qtbot, square_window):
    view = square_window.view
    view.fit_page()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    width, height = view.geometry.size
    assert shown.contains(QRectF(0, 0, width, height))


def tall_page_view(qtbot):
    """A bare PageView on a tall page, fitted to its width in a small viewport."""
    from glyphscope.core.view.page_geometry import PageGeometry
    from glyphscope.widgets.page_view import PageView

    view = PageView()
    qtbot.addWidget(view)
    view.resize(420, 300)
    view.show()
    qtbot.waitExposed(view)
    view.set_geometry(PageGeometry(0, (0, 0, 300, 900), (0, 0, 300, 900), (0, 0, 300, 900)))
    return view


def test_fit_width_leaves_room_for_the_vertical_scroll_bar_it_needs(qtbot):
    view = tall_page_view(qtbot)
    view.fit_width()
    qtbot.wait(50)
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    assert view.verticalScrollBar().isVisible()
    assert shown.left() <= 0 and shown.right() >= 300


def test_a_scroll_bar_appearing_does_not_refit_the_page(qtbot):
    view = tall_page_view(qtbot)
    view.fit_width()
    zooms = []
    view.zoomChanged.connect(zooms.append)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    qtbot.wait(50)
    assert zooms == []


@pytest.mark.parametrize("mode", ["width", "page"])
def test_fitting_settles_after_at_most_one_zoom_change(qtbot, mode):
    view = tall_page_view(qtbot)
    view.fit_width() if mode == "width" else view.fit_page()
    zooms = []
    view.zoomChanged.connect(zooms.append)
    for width in range(380, 460, 3):  # sizes where a scroll bar comes and goes
        zooms.clear()
        view.resize(width, 300)
        qtbot.wait(5)
        assert len(zooms) <= 1


def test_a_real_resize_refits_the_width(qtbot):
    view = tall_page_view(qtbot)
    view.fit_width()
    before = view.zoom
    view.resize(600, 300)
    qtbot.wait(20)
    assert view.zoom > before
