"""Overlay layers of dense pages are built and painted by the layer painter's thread: the GUI
thread shows the image that comes back, the old zoom's image scaled until the new one is
ready, and never an image of a page or selection it no longer shows."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QAbstractEventDispatcher, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

import glyphscope
from glyphscope.core.view.page_model import build_page_model
from glyphscope.widgets import layer_painter as painter_module
from glyphscope.widgets import overlay_shapes
from glyphscope.widgets.layer_painter import LayerJob, layer_painter
from glyphscope.widgets.overlay_base import SYNC_GLYPHS
from glyphscope.widgets.overlay_layers import (
    BaselinesLayer,
    DroppedOutsideLayer,
    GlyphQuadsLayer,
    PageBoxesLayer,
    SelectionLayer,
)
from glyphscope.widgets.overlay_shapes import (
    Shape,
    Stroke,
    paint_strokes,
    polyline_shape,
    quads_shape,
    rects_shape,
    segments_shape,
)
from tests.pdfbuilder import PdfBuilder

TIMEOUT_MS = 30_000
LINES = 24  # of 100 glyphs: more than SYNC_GLYPHS


def dense_pdf(path, lines: int = LINES, top: float = 780.0):
    """A page of `lines` lines of 6-point Helvetica, "word " twenty times each."""
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    text = b"".join(b"(%s) '" % (b"word " * 20) for _ in range(lines))
    builder.add_page(b"BT /F1 6 Tf 8 TL 40 %d Td " % top + text + b" ET", fonts={"F1": helv})
    builder.save(path)
    return path


def model_of(path):
    return build_page_model(0, glyphscope.open(str(path)).pages[0].analysis())


@pytest.fixture
def view(qtbot):
    view = QGraphicsView()
    view.setScene(QGraphicsScene(view))
    qtbot.addWidget(view)
    view.resize(700, 900)
    # User space → display, y up, as the page view's overlay root does for an unrotated page.
    view.setTransform(QTransform.fromScale(1.0, 1.0))
    view.show()
    qtbot.waitExposed(view)
    return view


def add_layer(view, layer, model):
    layer.setTransform(QTransform(1, 0, 0, -1, 0, 842))
    view.scene().addItem(layer)
    layer.set_model(model)
    view.centerOn(layer.mapToScene(300, 500))
    return layer


def wait_painted(qtbot, view, layer) -> QImage:
    view.viewport().repaint()
    qtbot.waitUntil(
        lambda: layer.painted_image is not None and not layer.pending, timeout=TIMEOUT_MS
    )
    return layer.painted_image


def test_a_dense_layer_appears_after_the_painter_thread_painted_it(qtbot, view, tmp_path):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    assert model.count > SYNC_GLYPHS
    layer = add_layer(view, GlyphQuadsLayer(), model)
    view.viewport().repaint()
    assert layer.pending  # the GUI thread's paint only asked for it
    image = wait_painted(qtbot, view, layer)
    # The whole layer at this zoom (1 pixel a point): the page's text block and the few
    # pixels its outlines reach beyond, in the decode source colour.
    (x0, y0), (x1, y1) = model.quads.min(axis=(0, 1)), model.quads.max(axis=(0, 1))
    width, height = x1 - x0, y1 - y0
    assert width <= image.width() <= width + 10 and height <= image.height() <= height + 10
    grab = view.grab().toImage()
    point = view.mapFromScene(layer.mapToScene(*model.grid.centres[0].tolist()))
    shown = grab.pixelColor(point)
    # The built-in encoding's orange (#ff7f0e) at 40/255 over the white viewport.
    assert shown.red() == 255 and shown.green() < 245 and shown.blue() < shown.green()


def test_the_painter_thread_draws_what_the_gui_thread_drew(qtbot, view, tmp_path):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    image = wait_painted(qtbot, view, layer).convertToFormat(QImage.Format.Format_ARGB32)
    # The same strokes painted in one pass, as the GUI thread painted them before.
    direct = QImage(image.size(), QImage.Format.Format_ARGB32_Premultiplied)
    direct.fill(Qt.GlobalColor.transparent)
    painter = QPainter(direct)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    origin = layer._image.origin
    painter.setTransform(layer._image.linear * QTransform.fromTranslate(-origin.x(), -origin.y()))
    paint_strokes(painter, layer._strokes)
    painter.end()
    direct = direct.convertToFormat(QImage.Format.Format_ARGB32)
    ours = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    theirs = np.frombuffer(direct.constBits(), np.uint8).reshape(direct.height(), -1)
    assert (ours != theirs).mean() < 0.001  # batches overlap at their seams only


def test_a_zoom_change_paints_the_layer_again_at_the_new_zoom(qtbot, view, tmp_path):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    first = wait_painted(qtbot, view, layer)
    scale = layer._image.linear.m11()
    view.setTransform(QTransform.fromScale(2.0, 2.0))
    view.viewport().repaint()
    assert layer.painted_image is first  # the old one is shown, scaled, meanwhile
    assert layer.pending
    again = wait_painted(qtbot, view, layer)
    assert again is not first
    assert layer._image.linear.m11() == pytest.approx(2 * scale)


def test_at_a_high_zoom_only_around_the_viewport_is_painted(qtbot, view, tmp_path):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    view.setTransform(QTransform.fromScale(8.0, 8.0))
    view.centerOn(layer.mapToScene(*model.grid.centres[0].tolist()))
    image = wait_painted(qtbot, view, layer)
    viewport = view.viewport().size()
    assert image.width() <= 1.5 * viewport.width() + 2
    assert image.height() <= 1.5 * viewport.height() + 2
    # Scrolling beyond it asks for the part now shown.
    view.centerOn(layer.mapToScene(*model.grid.centres[-1].tolist()))
    view.viewport().repaint()
    assert layer.pending
    assert wait_painted(qtbot, view, layer) is not image


def test_a_page_flip_while_a_layer_is_painted_never_shows_the_old_page(
    qtbot, view, tmp_path, monkeypatch
):
    old_page = model_of(dense_pdf(tmp_path / "old.pdf", top=780))
    new_page = model_of(dense_pdf(tmp_path / "new.pdf", top=300))
    held, release = threading.Event(), threading.Event()
    run = painter_module.LayerJob.run

    def held_run(job):
        if job.model is old_page:
            held.set()
            release.wait(10)
        run(job)

    monkeypatch.setattr(painter_module.LayerJob, "run", held_run)
    layer = add_layer(view, GlyphQuadsLayer(), old_page)
    view.viewport().repaint()
    assert held.wait(10)  # the old page's layer is being built
    layer.set_model(new_page)  # the page flips meanwhile
    release.set()
    image = wait_painted(qtbot, view, layer)
    assert layer._strokes is not None
    old_top = old_page.grid.bounds[:, 3].max()
    assert max(stroke.shape.points[..., 1].max() for stroke in layer._strokes) < old_top - 100
    qtbot.waitUntil(lambda: layer_painter().idle, timeout=TIMEOUT_MS)
    assert layer.painted_image is image


def test_a_large_selection_is_painted_in_the_background_and_a_new_one_replaces_it(
    qtbot, view, tmp_path
):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, SelectionLayer(), model)
    layer.set_selected(range(model.count))
    first = wait_painted(qtbot, view, layer)
    layer.set_selected([0, 1, 2])  # a small selection is drawn directly, the image dropped
    assert layer.painted_image is None and not layer.pending
    view.viewport().repaint()
    assert layer.drawn_count() == 3 * 5 and first is not None


def test_an_export_paints_a_background_layer_whole_and_at_once(qtbot, view, tmp_path):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    rect = layer.mapRectToScene(QRectF(0, 0, 600, 842))
    image = QImage(600, 842, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    view.scene().render(painter, QRectF(image.rect()), rect)
    painter.end()
    x, y = model.grid.centres[0].tolist()
    shown = image.pixelColor(int(x), int(842 - y))
    assert shown != QColor("#ffffff") and not layer.pending


def test_a_layer_with_nothing_on_the_page_keeps_no_image_and_is_not_painted_again(
    qtbot, view, tmp_path, monkeypatch
):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    assert not model.arrays.outside.any()
    layer = add_layer(view, DroppedOutsideLayer(), model)
    assert layer.background
    image = wait_painted(qtbot, view, layer)
    assert image.isNull()  # no pixels to compose on every repaint
    runs = []
    monkeypatch.setattr(painter_module.LayerJob, "run", lambda job: runs.append(job))
    for _ in range(3):
        view.viewport().repaint()
        qtbot.wait(20)
    assert not runs and not layer.pending


def test_only_the_pixels_a_layer_reaches_are_kept_and_shown_where_they_were_painted(
    qtbot, view, tmp_path
):
    model = model_of(dense_pdf(tmp_path / "dense.pdf", lines=30, top=400))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    wait_painted(qtbot, view, layer)
    kept = layer._image
    assert kept.covered.contains(QRect(kept.origin, kept.image.size()))
    assert kept.image.size() != kept.covered.size()
    # The same pixels as the whole region painted at once, at their place in it.
    whole = QImage(kept.covered.size(), QImage.Format.Format_ARGB32_Premultiplied)
    whole.fill(Qt.GlobalColor.transparent)
    painter = QPainter(whole)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    corner = kept.covered.topLeft()
    painter.setTransform(kept.linear * QTransform.fromTranslate(-corner.x(), -corner.y()))
    paint_strokes(painter, layer._strokes)
    painter.end()
    part = whole.copy(QRect(kept.origin - corner, kept.image.size()))
    assert part == kept.image
    assert whole.copy(QRect(QPoint(0, 0), QSize(whole.width(), 4))).allGray()  # blank above


def test_the_layers_painted_together_come_back_in_one_repaint(qtbot, view, tmp_path, monkeypatch):
    monkeypatch.setattr(painter_module, "DELIVERY_SECONDS", 60.0)
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layers = [add_layer(view, kind(), model) for kind in (GlyphQuadsLayer, BaselinesLayer)]
    # Whether the painter had finished every job when each came back to the GUI thread.
    painter_idle: list[bool] = []
    for layer in layers:

        def recorded(job, _done=layer.job_done):
            painter_idle.append(layer_painter().idle)
            _done(job)

        monkeypatch.setattr(layer, "job_done", recorded)
    view.viewport().repaint()
    assert all(layer.pending for layer in layers)
    qtbot.waitUntil(lambda: not any(layer.pending for layer in layers), timeout=TIMEOUT_MS)
    assert len(painter_idle) >= 2 and all(painter_idle)


def test_the_painter_waits_while_the_gui_threads_event_loop_is_busy(
    qtbot, view, tmp_path, monkeypatch
):
    monkeypatch.setattr(painter_module, "GUI_FIRST_SECONDS", 60.0)
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = add_layer(view, GlyphQuadsLayer(), model)
    layer_painter()  # started, so its gate follows the event dispatcher from now on
    QAbstractEventDispatcher.instance().awake.emit()  # the GUI thread is at work
    view.viewport().repaint()
    time.sleep(0.3)  # GIL released: a painter not waiting would have painted by now
    assert layer.pending and layer.painted_image is None
    # The event loop going idle lets the painter go on.
    image = wait_painted(qtbot, view, layer)
    assert not image.isNull()


def test_a_long_polyline_is_cut_into_pieces_that_meet():
    points = np.column_stack([np.arange(1000.0), np.zeros(1000)])
    shape = polyline_shape(points)
    assert shape.points.shape[1] > 2
    joined = np.concatenate([row[:-1] for row in shape.points] + [shape.points[-1][-1:]])
    assert np.array_equal(np.unique(joined, axis=0), points)
    for before, after in zip(shape.points[:-1], shape.points[1:], strict=True):
        assert np.array_equal(before[-1], after[0])


def test_a_layer_that_fails_in_the_painter_thread_is_drawn_as_nothing_once(
    qtbot, view, tmp_path, monkeypatch, caplog
):
    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    calls = []

    def broken(model):
        calls.append(model)
        raise ValueError("a broken layer")

    layer = GlyphQuadsLayer()
    monkeypatch.setattr(layer, "strokes", broken)
    add_layer(view, layer, model)
    view.viewport().repaint()
    qtbot.waitUntil(lambda: not layer.pending and layer_painter().idle, timeout=TIMEOUT_MS)
    tried = len(calls)
    for _ in range(3):
        view.viewport().repaint()
        qtbot.wait(20)
    assert calls and len(calls) == tried and not layer.pending and layer.drawn_count() == 0
    assert "a broken layer" in caplog.text


def _tinted_pixels(path) -> int:
    """Pixels of the builtin encoding's orange over white paper (the glyph quads' fill)."""
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1, 4)
    blue, green, red = pixels[..., 0].astype(int), pixels[..., 1], pixels[..., 2]
    return int(((red == 255) & (green < 245) & (green > 200) & (blue < green - 5)).sum())


def test_a_screenshot_waits_for_the_layers_painted_in_the_background(tmp_path):
    from tests.test_gui_app import _run_app

    pdf = dense_pdf(tmp_path / "dense.pdf")
    shots = {}
    for layers in ("none", "glyphs"):
        shots[layers] = tmp_path / f"{layers}.png"
        result = _run_app("--screenshot", str(shots[layers]), "--layers", layers, str(pdf),
                          env_dir=tmp_path)  # fmt: skip
        assert result.returncode == 0, result.stderr
    assert _tinted_pixels(shots["glyphs"]) > 3_000 > 100 > _tinted_pixels(shots["none"])


def test_a_few_glyphs_thousands_of_points_tall_are_painted_in_the_background(tmp_path):
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    for size in (10, 2000):  # 60 glyphs of 10 points, then the same 2,000 points tall
        builder.add_page(
            b"BT /F1 %d Tf 20 100 Td (%s) Tj ET" % (size, b"x" * 60), fonts={"F1": helv}
        )
    builder.save(tmp_path / "tall.pdf")
    document = glyphscope.open(str(tmp_path / "tall.pdf"))
    small, tall = (build_page_model(i, document.pages[i].analysis()) for i in (0, 1))
    assert small.count == tall.count == 60 < SYNC_GLYPHS
    assert GlyphQuadsLayer().builds_quickly(small)
    assert not GlyphQuadsLayer().builds_quickly(tall)


# -- what the strokes paint --------------------------------------------------------------------


def painted(strokes, area=None, size=(200, 100), scale=1.0) -> np.ndarray:
    """`strokes` painted onto white, user space y up, as RGB rows."""
    image = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setTransform(QTransform(scale, 0, 0, -scale, 0, size[1]))
    paint_strokes(painter, strokes, area)
    painter.end()
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    return np.array(image.constBits(), np.uint8).reshape(size[1], -1)[:, : size[0] * 3]


def test_overlapping_quads_are_filled_once_neither_a_hole_nor_darker(qtbot):
    quads = np.array(rects_shape([(10, 10, 60, 60), (40, 40, 90, 90)]).points)
    overlap = painted([Stroke(quads_shape(quads), "#1f77b4", 1.0, 40, line_alpha=0)])
    alone = painted([Stroke(quads_shape(quads[:1]), "#1f77b4", 1.0, 40, line_alpha=0)])
    inside_both, inside_one = overlap[100 - 50, 50 * 3], alone[100 - 20, 20 * 3]
    assert inside_one < 240  # tinted
    # The same tint (to the rounding of a mask's opacity): not 255 (a hole), not darker.
    assert abs(int(inside_both) - int(inside_one)) <= 1
    assert overlap[100 - 80, 80 * 3] == inside_both  # the second quad alone


def test_a_rectangle_thousands_of_points_wide_paints_as_its_part_in_view_does(qtbot):
    wide = rects_shape([(-20_000, 20, 150, 40), (30, 50, 40_000, 60), (-9e6, 70, 9e6, 80)])
    inside = rects_shape([(-10, 20, 150, 40), (30, 50, 210, 60), (-10, 70, 210, 80)])
    for fill in (0, 60):
        cut = painted([Stroke(wide, "#d62728", 1.0, fill)])
        drawn = painted([Stroke(inside, "#d62728", 1.0, fill)])
        assert np.array_equal(cut, drawn)
    # Cut exactly: coordinates inside the area keep every bit, the rest end at its edge.
    cut = wide.cut_to((-4.0, -4.0, 204.0, 104.0)).points
    assert cut[0, 1].tolist() == [150.0, 20.0] and cut[0, 0].tolist() == [-4.0, 20.0]


def test_segments_are_cut_at_the_area_keeping_what_lies_inside_bit_for_bit():
    segments = segments_shape(
        np.array([[0.1, 0.2], [-100.0, 50.0], [-10.0, -10.0]]),
        np.array([[0.7, 0.3], [100.0, 50.0], [-5.0, -5.0]]),
    )
    cut = segments.cut_to((0.0, 0.0, 10.0, 100.0)).points
    assert cut[0].tolist() == [[0.1, 0.2], [0.7, 0.3]]
    assert np.allclose(cut[1], [[0.0, 50.0], [10.0, 50.0]])
    assert cut[2].tolist() == [[-10.0, -10.0], [-10.0, -10.0]]  # outside: nothing drawn


def test_without_an_area_only_what_the_device_shows_is_painted(qtbot):
    # Diagonals across a huge span: cut to the image, the same pixels as drawn whole.
    starts, ends = np.array([[-5e5, -5e5], [0.0, 1e6]]), np.array([[5e5, 5e5], [1e6, -1e6]])
    whole = QImage(200, 100, QImage.Format.Format_ARGB32_Premultiplied)
    whole.fill(QColor("#ffffff"))
    painter = QPainter(whole)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setTransform(QTransform(1, 0, 0, -1, 0, 100))
    painter.setPen(QColor("#000000"))
    painter.drawPath(segments_shape(starts, ends).path())
    painter.end()
    cut = painted([Stroke(segments_shape(starts, ends), "#000000", 1.0, line_alpha=255)])
    whole = whole.convertToFormat(QImage.Format.Format_RGB888)
    reference = np.array(whole.constBits(), np.uint8).reshape(100, -1)[:, :600]
    assert (cut != reference).mean() < 0.01  # the same lines, antialiased alike
    assert (cut < 128).sum() > 150  # both lines drawn


def test_a_dense_block_of_outlines_is_painted_where_its_strokes_would_be(qtbot):
    # 2,000 boxes 180 points wide, 2 apart: over a million pixels of outline at scale 3.
    lows = np.stack([np.full(2000, 5.0), np.linspace(2.0, 30.0, 2000)], axis=1)
    boxes = rects_shape(np.concatenate([lows, lows + [180.0, 1.5]], axis=1))
    assert boxes.element_count() * 180 * 3 > overlay_shapes.DENSE_OUTLINE_PX
    cheap = painted([Stroke(boxes, "#d62728")], size=(600, 120), scale=3.0)
    inked = cheap < 200
    # Stroked one by one (each alone is far under the limit): the same pixels inked.
    strokes = [Stroke(Shape(boxes.points[i : i + 1], True), "#d62728") for i in range(2000)]
    stroked = painted(strokes, size=(600, 120), scale=3.0) < 200
    assert inked.sum() > 0.9 * stroked.sum()
    assert (inked & ~stroked).sum() < 0.05 * inked.sum()


def test_a_hidpi_image_is_painted_whole_not_only_its_first_quarter(qtbot):
    # 2 device pixels per logical one: the area painted is the image's logical size.
    image = QImage(400, 200, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(2.0)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    far_corner = rects_shape([(180, 80, 195, 95)])  # logical units, near the bottom right
    paint_strokes(painter, [Stroke(far_corner, "#000000", 1.0, 200)])
    painter.end()
    assert image.pixelColor(375, 175).red() < 128


def test_a_hidpi_image_gets_the_union_fill_at_its_own_pixels(qtbot):
    image = QImage(400, 200, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(2.0)
    image.fill(QColor("#ffffff"))
    painter = QPainter(image)
    boxes = rects_shape([(20 + 8 * i, 20, 30 + 8 * i, 60) for i in range(40)])  # overlapping
    paint_strokes(painter, [Stroke(boxes, "#000000", 1.0, 200, line_alpha=0)])
    painter.end()
    # Covered from logical x 20 to 342, y 20 to 60: device 40..684 is past the image's 400.
    assert image.pixelColor(45, 45).red() < 128 and image.pixelColor(390, 110).red() < 128
    assert image.pixelColor(45, 130).red() == 255  # below the boxes, untouched
    assert image.pixelColor(45, 45) == image.pixelColor(390, 110)  # one tint, overlaps too


def mcid_regions_pdf(path, regions: int):
    """`regions` marked-content sequences with MCIDs 0, 1, …, one word each, on one page."""
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    content = b"".join(
        b"/Span <</MCID %d>> BDC BT /F1 8 Tf %d %d Td (w%d) Tj ET EMC "
        % (mcid, 40 + 60 * (mcid % 8), 760 - 20 * (mcid // 8), mcid)
        for mcid in range(regions)
    )
    builder.add_page(content, fonts={"F1": helv})
    builder.save(path)
    return path


def test_mcid_regions_are_painted_as_one_stroke_per_colour_not_one_per_region(qtbot, tmp_path):
    from glyphscope.widgets.overlay_base import PALETTE
    from glyphscope.widgets.overlay_layers import McidRegionsLayer

    model = model_of(mcid_regions_pdf(tmp_path / "mcids.pdf", 40))
    layer = McidRegionsLayer()
    strokes = layer.strokes(model)
    assert len(model.mcids) == 40
    assert len(strokes) == len(PALETTE)  # 40 regions in the palette's 12 colours
    assert sorted(len(s.shape.points) for s in strokes) == [3] * 8 + [4] * 4  # every region
    assert all(s.dash and s.fill_alpha and s.shape.closed for s in strokes)
    assert len(layer.labels(model)) == 40  # still a number at every region


def test_a_background_layers_labels_are_painted_into_its_image_beyond_its_bounds(
    qtbot, tmp_path, monkeypatch
):
    from glyphscope.widgets import overlay_base
    from glyphscope.widgets.overlay_shapes import label_reach

    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    layer = PageBoxesLayer()
    layer.set_model(model)
    assert layer.background  # more than SYNC_GLYPHS glyphs
    linear = QTransform(0.5, 0, 0, -0.5, 0, 0)
    bounds = linear.mapRect(layer.boundingRect()).toAlignedRect()
    job = LayerJob(layer, layer.generation, model, None, None, linear, bounds)
    job.run()
    labels = label_reach(job.labels, linear).toAlignedRect()
    assert not bounds.contains(labels)  # "MediaBox" and "CropBox" stand above the page
    assert job.region.contains(labels)
    pixels = QRect(job.origin, job.image.size())
    assert pixels.contains(labels)
    above = QRect(labels.left(), labels.top(), labels.width(), bounds.top() - labels.top())
    assert not above.isEmpty()
    inked = [
        job.image.pixelColor(x - pixels.left(), y - pixels.top()).alpha()
        for x in range(above.left(), above.right(), 3)
        for y in range(above.top(), above.bottom(), 3)
    ]
    assert max(inked) > 0
    # Shown from that image: the GUI thread paints no label of its own, and the layer's
    # bounds grow to the image so that Qt repaints where the labels are.
    painted_here = []
    monkeypatch.setattr(overlay_base, "paint_labels", lambda *args: painted_here.append(args))
    layer._job = job
    layer.job_done(job)
    image = QImage(400, 400, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    painter.setTransform(linear * QTransform.fromTranslate(0, 400))
    layer.paint(painter, None, QWidget())  # the screen's paint: from the image
    painter.end()
    assert not painted_here
    assert linear.mapRect(layer.boundingRect()).toAlignedRect().contains(labels)


def test_a_layer_painted_directly_with_nothing_on_the_page_is_skipped_by_qt(
    qtbot, view, tmp_path, monkeypatch
):
    model = model_of(dense_pdf(tmp_path / "few.pdf", lines=2))
    assert model.count <= SYNC_GLYPHS and not model.arrays.outside.any()
    empty = add_layer(view, DroppedOutsideLayer(), model)
    drawn = add_layer(view, GlyphQuadsLayer(), model)
    assert not empty.background and not drawn.background
    # No bounds: Qt neither caches a transparent pixmap of the page for it nor composes one.
    assert empty.boundingRect().isEmpty()
    assert not drawn.boundingRect().isEmpty()
    painted = []
    monkeypatch.setattr(DroppedOutsideLayer, "paint", lambda *args: painted.append(args))
    view.viewport().repaint()
    assert not painted
    # Bounds again once there is something to draw (the selection layer's glyphs chosen).
    selection = add_layer(view, SelectionLayer(), model)
    assert selection.boundingRect().isEmpty()
    selection.set_selected([0, 1])
    assert selection.boundingRect().contains(QRectF(*model.quads[0].min(axis=0), 1, 1))


def test_a_layer_whose_bounds_grow_to_its_labels_image_is_painted_once(
    qtbot, view, tmp_path, monkeypatch
):

    model = model_of(dense_pdf(tmp_path / "dense.pdf"))
    runs = []
    run = painter_module.LayerJob.run
    monkeypatch.setattr(painter_module.LayerJob, "run", lambda job: (runs.append(job), run(job)))
    layer = add_layer(view, PageBoxesLayer(), model)
    for scale in (0.5, 0.8, 0.94, 1.06, 1.3):
        runs.clear()
        view.setTransform(QTransform.fromScale(scale, scale))
        view.centerOn(layer.mapToScene(300, 842))  # the labels above the page in view
        wait_painted(qtbot, view, layer)
        for _ in range(3):
            view.viewport().repaint()
            qtbot.wait(20)
        assert len(runs) == 1 and not layer.pending, scale


def test_a_page_with_the_boxes_of_the_page_before_shows_their_image_without_painting_it(
    qtbot, view, tmp_path
):
    first = model_of(dense_pdf(tmp_path / "first.pdf"))
    second = model_of(dense_pdf(tmp_path / "second.pdf", lines=LINES - 4))  # the same boxes
    layer = add_layer(view, PageBoxesLayer(), first)
    painted = wait_painted(qtbot, view, layer)
    layer.set_model(second)
    layer.paint_ahead(view)  # as the window does when it shows a model
    assert not layer.pending and layer.painted_image is painted
    # The image a job paints for the second page is that one, pixel for pixel.
    fresh = add_layer(view, PageBoxesLayer(), second)
    assert wait_painted(qtbot, view, fresh) == painted


def test_a_page_with_other_boxes_has_its_own_painted(qtbot, view, tmp_path):
    first = model_of(dense_pdf(tmp_path / "first.pdf"))
    layer = add_layer(view, PageBoxesLayer(), first)
    painted = wait_painted(qtbot, view, layer)
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    text = b"".join(b"(%s) '" % (b"word " * 20) for _ in range(LINES))
    content = b"BT /F1 6 Tf 8 TL 40 780 Td " + text + b" ET"
    builder.add_page(content, fonts={"F1": helv}, crop_box=(10, 10, 600, 780))
    builder.save(tmp_path / "cropped.pdf")
    layer.set_model(model_of(tmp_path / "cropped.pdf"))
    layer.paint_ahead(view)
    assert layer.pending
    assert wait_painted(qtbot, view, layer) != painted
