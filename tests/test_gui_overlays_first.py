"""A dense page's overlays come first: its layers start painting on the layer painter's thread
as soon as its model is shown, and panes whose text modes arrive while they paint wait for
the view's paint that shows them (at most PANES_HELD_MS), so that filling them does not hold
up the painter."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QRectF

from glyphscope.inspector.session import analysis as analysis_session
from glyphscope.widgets import layer_painter as painter_module
from glyphscope.widgets.overlay_layers import GlyphQuadsLayer
from tests.qa_support import TIMEOUT_MS
from tests.test_gui_layer_painter import add_layer, dense_pdf, model_of, view, wait_painted

__all__ = ["view"]  # the layer painter tests' view fixture, used here too


def background_layers(window):
    return [
        layer
        for layer in window.layers.values()
        if layer.isVisible() and layer.background and layer.model is not None
    ]


def every_overlay_painted(window) -> bool:
    return all(
        not layer.pending and layer.painted_image is not None for layer in background_layers(window)
    )


@pytest.fixture
def held_painter(monkeypatch):
    """The layer painter's thread waits, before each job, until the event is set."""
    go = threading.Event()
    run = painter_module.LayerJob.run

    def held_run(job):
        go.wait(TIMEOUT_MS / 1000)
        run(job)

    monkeypatch.setattr(painter_module.LayerJob, "run", held_run)
    yield go
    go.set()


def test_a_dense_pages_layers_start_painting_when_its_overlays_are_shown(qtbot, window, tmp_path):
    window.set_layers(list(window.layers))
    asked: list[bool] = []

    def on_shown(_index: int) -> None:
        # Before any paint of the view: pageShown is emitted where the overlays are set.
        # Every layer the view shows part of is painting (one it shows nothing of asks for
        # no image: Qt would not paint it either).
        layers = background_layers(window)
        view = window.view
        asked.append(
            any(layer.pending for layer in layers)
            and all(layer.pending or not layer.awaits_image(view) for layer in layers)
        )

    window.pageShown.connect(on_shown)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(dense_pdf(tmp_path / "dense.pdf")))
    assert asked and asked[-1]
    qtbot.waitUntil(lambda: every_overlay_painted(window), timeout=TIMEOUT_MS)


def test_panes_arriving_while_the_overlays_paint_wait_for_the_paint_that_shows_them(
    qtbot, window, tmp_path, held_painter
):
    window.set_layers(list(window.layers))
    with qtbot.waitSignal(window.pageShown, timeout=TIMEOUT_MS):
        window.open_file(str(dense_pdf(tmp_path / "dense.pdf")))
    # The text modes arrive; the overlays are still painting: the panes are held.
    qtbot.waitUntil(lambda: window._held_model is not None, timeout=TIMEOUT_MS)
    assert window.model is None and not window.page_is_ready
    painted_when_ready: list[bool] = []
    window.pageReady.connect(lambda _i: painted_when_ready.append(every_overlay_painted(window)))
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        held_painter.set()
    assert painted_when_ready == [True]
    assert window.model is window._view_model
    assert "word" in window.model.panes["reading"].text
    assert window._held_model is None


def test_panes_are_not_held_longer_than_their_limit(qtbot, window, tmp_path, held_painter):
    analysis_session.PANES_HELD_MS, limit = 50, analysis_session.PANES_HELD_MS
    try:
        window.set_layers(list(window.layers))
        with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
            window.open_file(str(dense_pdf(tmp_path / "dense.pdf")))
        # The painter is still held: the panes came after their wait, not after the overlays.
        assert not every_overlay_painted(window)
        assert window.model is not None and "word" in window.model.panes["reading"].text
    finally:
        analysis_session.PANES_HELD_MS = limit


def test_closing_the_document_drops_the_panes_held_for_its_page(
    qtbot, window, tmp_path, held_painter
):
    path = tmp_path / "two.pdf"
    dense_pdf(path)
    window.set_layers(list(window.layers))
    with qtbot.waitSignal(window.pageShown, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    qtbot.waitUntil(lambda: window._held_model is not None, timeout=TIMEOUT_MS)
    window.close_document()
    assert window._held_model is None and window.model is None


def test_a_layer_the_view_shows_nothing_of_awaits_no_image(qtbot, view, tmp_path):
    layer = add_layer(view, GlyphQuadsLayer(), model_of(dense_pdf(tmp_path / "dense.pdf")))
    assert layer.awaits_image(view)  # not asked for yet
    view.setSceneRect(QRectF(-20_000, -20_000, 40_000, 40_000))  # room to scroll away
    view.centerOn(layer.mapToScene(5000, -5000))  # far from the page's glyphs
    view.viewport().repaint()
    assert not layer.pending and not layer.awaits_image(view)  # nothing to wait for
    view.centerOn(layer.mapToScene(300, 500))
    view.viewport().repaint()
    assert layer.pending and layer.awaits_image(view)
    wait_painted(qtbot, view, layer)
    assert not layer.awaits_image(view)


def test_panes_held_when_the_window_closes_are_never_filled(qtbot, window, tmp_path, held_painter):
    window.set_layers(list(window.layers))
    with qtbot.waitSignal(window.pageShown, timeout=TIMEOUT_MS):
        window.open_file(str(dense_pdf(tmp_path / "dense.pdf")))
    qtbot.waitUntil(lambda: window._held_model is not None, timeout=TIMEOUT_MS)
    ready: list[int] = []
    window.pageReady.connect(ready.append)
    window.close()
    held_painter.set()
    qtbot.wait(analysis_session.PANES_HELD_MS + 100)
    assert window._held_model is None and window.model is None and ready == []
