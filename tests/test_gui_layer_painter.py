"""Overlay layers of dense pages are built and painted by the layer painter's thread: the GUI
thread shows the image that comes back, the old zoom's image scaled until the new one is
ready, and never an image of a page or selection it no longer shows."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

import glyphscope
from glyphscope.core.view.page_model import build_page_model
from glyphscope.widgets import layer_painter as painter_module
from glyphscope.widgets.layer_painter import layer_painter
from glyphscope.widgets.overlay_base import SYNC_GLYPHS
from glyphscope.widgets.overlay_layers import GlyphQuadsLayer, SelectionLayer
from glyphscope.widgets.overlay_shapes import paint_strokes, polyline_shape
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
    # The whole layer at this zoom: about the page's text block, in the decode source colour.
    assert image.width() > 400 and image.height() > 150
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
