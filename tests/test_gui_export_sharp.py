"""Exports a customer can read (issue 11): the page picture of every export is pdfium's render
at the export's own scale, not the page view's screen image magnified. Driven as a user
would: the view at a low zoom, glyphs selected, the QA menu's export actions triggered with
the file dialog patched, and the export waited for until the status bar says it is saved."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from glyphscope.inspector.export import dialogs as export_dialogs
from glyphscope.inspector.export.selection import MARGIN, selection_region
from tests.qa_support import glyph_indices, open_and_wait, qa_window, run_export

__all__ = ["qa_window"]

PAPER = "pdfjs__tracemonkey.pdf"
LOW_ZOOM = 0.44


@pytest.fixture
def dialogs(monkeypatch):
    """The save dialog answers `targets[-1]`; the layers dialog: OK with `layers[-1]`."""
    targets: list[Path] = []
    layers: list[list[str]] = [[]]
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: (str(targets[-1]), ""))
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    monkeypatch.setattr(export_dialogs.LayersDialog, "chosen", lambda self: list(layers[-1]))
    return targets, layers


def at_low_zoom(qtbot, window) -> None:
    window.view.set_zoom(LOW_ZOOM)
    # The screen image becomes the small one a 44 % view needs (about 0.6 pixels per point).
    qtbot.waitUntil(
        lambda: window.render_idle and window.page_is_shown and window.rendered.scale < 1.0,
        timeout=60_000,
    )


def gray(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_Grayscale8)
    rows = np.array(image.constBits(), np.uint8).reshape(image.height(), -1)
    return rows[:, : image.width()].astype(float)


def pdfium_region(path: Path, index: int, region, scale: float, size) -> np.ndarray:
    """pdfium's own render of the page at `scale`, cut to the scene `region` (display points:
    an unrotated page without crop offset is its PDF points with y down)."""
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        bitmap = page.render(scale=scale)
        whole = np.asarray(bitmap.to_pil().convert("L"), dtype=float)
        page.close()
    finally:
        document.close()
    x0, y0 = round(max(region.left(), 0) * scale), round(max(region.top(), 0) * scale)
    width, height = size
    return whole[y0 : y0 + height, x0 : x0 + width]


def sharpness(pixels: np.ndarray) -> float:
    """The 99.9th percentile of the horizontal gradient: text edges, crisp or smeared."""
    return float(np.percentile(np.abs(np.diff(pixels, axis=1)), 99.9))


def paper(corpus_dir: Path) -> Path:
    path = corpus_dir / PAPER
    if not path.exists():
        pytest.skip(f"{PAPER} is absent")
    return path


def outside_the_glyphs(window, indices, region, scale: float, shape) -> np.ndarray:
    """The pixels of a region export that no overlay of `indices` touches (their outline and
    fill stay inside their boxes, 2 points around them allowed)."""
    keep = np.ones(shape, bool)
    for i in indices:
        box = selection_region(window, [i])  # the glyph's box and MARGIN around it
        box = box.adjusted(MARGIN - 2, MARGIN - 2, 2 - MARGIN, 2 - MARGIN)
        x0 = max(int((box.left() - region.left()) * scale), 0)
        y0 = max(int((box.top() - region.top()) * scale), 0)
        x1 = int((box.right() - region.left()) * scale) + 1
        y1 = int((box.bottom() - region.top()) * scale) + 1
        keep[y0:y1, x0:x1] = False
    return keep


def test_a_selection_png_at_low_zoom_is_pdfiums_render_of_the_region_at_its_scale(
    qtbot, qa_window, tmp_path, corpus_dir, dialogs
):
    window, features = qa_window
    targets, _layers = dialogs
    path = paper(corpus_dir)
    open_and_wait(qtbot, window, path)
    window.set_layers([])  # no overlay: the picture is the page and the selection's outline
    at_low_zoom(qtbot, window)
    chosen = glyph_indices(window, "JavaScript")
    window.selection.set(chosen, "band")
    region = selection_region(window, chosen)
    targets.append(tmp_path / "sel.html")
    assert run_export(qtbot, features, "export_selection").startswith("Saved")
    png = QImage(str(tmp_path / "sel.png"))
    # region × scale pixels (the selection export's 3 pixels per point)
    assert (png.width(), png.height()) == (int(region.width() * 3), int(region.height() * 3))
    ours = gray(png)
    reference = pdfium_region(path, 0, region, 3.0, (png.width(), png.height()))
    assert reference.shape == ours.shape
    # The screen image magnified to the same size: what the export was before.
    screen = window.rendered.image
    sx = screen.width() / window.view.geometry.size[0]
    shown = screen.copy(
        round(region.left() * sx),
        round(region.top() * sx),
        round(region.width() * sx),
        round(region.height() * sx),
    ).scaled(png.width(), png.height())
    magnified = gray(shown)
    keep = outside_the_glyphs(window, chosen, region, 3.0, ours.shape)
    assert keep.mean() > 0.5  # most of the region, with the neighbouring words in it
    ours_off = np.abs(ours - reference)[keep].mean()
    magnified_off = np.abs(magnified - reference)[keep].mean()
    assert ours_off < 2.0, ours_off
    assert ours_off < magnified_off / 3, (ours_off, magnified_off)
    # Text edges as steep as pdfium's own, where the magnified screen image smears them.
    assert sharpness(ours) > 0.8 * sharpness(reference)
    assert sharpness(ours) > 1.5 * sharpness(magnified), (sharpness(ours), sharpness(magnified))
    # The HTML holds that picture.
    html = (tmp_path / "sel.html").read_text(encoding="utf-8")
    (embedded,) = re.findall(r'<img class="page"[^>]*src="data:image/png;base64,([^"]+)"', html)
    assert QImage.fromData(base64.b64decode(embedded)).size() == png.size()


def svg_page_image(path: Path) -> tuple[dict[str, float], QImage]:
    text = path.read_text(encoding="utf-8")
    (element,) = re.findall(r'<image class="page-image"[^>]*/>', text)
    attributes = {
        name: float(value)
        for name, value in re.findall(r'\b(x|y|width|height)="([-0-9.]+)"', element)
    }
    data = re.search(r"base64,([A-Za-z0-9+/=]+)", element).group(1)
    return attributes, QImage.fromData(base64.b64decode(data))


def test_a_selection_svg_embeds_the_region_of_the_page_not_the_page(
    qtbot, qa_window, tmp_path, corpus_dir, dialogs
):
    window, features = qa_window
    targets, _layers = dialogs
    open_and_wait(qtbot, window, paper(corpus_dir))
    window.set_layers(["glyphs"])
    at_low_zoom(qtbot, window)
    chosen = glyph_indices(window, "JavaScript")
    window.selection.set(chosen, "band")
    region = selection_region(window, chosen)
    targets.append(tmp_path / "sel.html")
    assert run_export(qtbot, features, "export_selection").startswith("Saved")
    place, image = svg_page_image(tmp_path / "sel.svg")
    page_width, page_height = window.view.geometry.size
    # The region's size in user space (to a pixel of its 3 per point), not the page's.
    assert place["width"] == pytest.approx(region.width(), abs=0.7)
    assert place["height"] == pytest.approx(region.height(), abs=0.7)
    assert place["x"] == pytest.approx(region.left(), abs=0.7)
    assert place["y"] == pytest.approx(region.top(), abs=0.7)
    assert place["width"] < page_width / 2
    # Sharp at the SVG's size: at least 2 pixels per point of the region.
    assert image.width() >= 2 * region.width() and image.height() >= 2 * region.height()
    assert image.width() == pytest.approx(3 * place["width"], abs=1.5)
    # Its overlays are the region's: every selected glyph titled, not the page's thousands.
    text = (tmp_path / "sel.svg").read_text(encoding="utf-8")
    titled = {int(i) for i in re.findall(r'<polygon class="glyph" data-index="(\d+)"', text)}
    assert set(chosen) <= titled and len(titled) < window.model.count / 10


def test_a_page_svg_embeds_a_page_image_at_two_pixels_per_point(
    qtbot, qa_window, tmp_path, corpus_dir, dialogs
):
    window, features = qa_window
    targets, layers = dialogs
    open_and_wait(qtbot, window, paper(corpus_dir))
    at_low_zoom(qtbot, window)
    layers.append(["glyphs"])
    targets.append(tmp_path / "page.svg")
    assert run_export(qtbot, features, "export_svg").startswith("Saved")
    place, image = svg_page_image(tmp_path / "page.svg")
    page_width, page_height = window.view.geometry.size
    assert (place["x"], place["y"]) == (0, 0)
    assert place["width"] == pytest.approx(page_width, abs=0.5)
    assert place["height"] == pytest.approx(page_height, abs=0.5)
    assert image.width() == pytest.approx(2 * page_width, abs=1)
    assert image.height() == pytest.approx(2 * page_height, abs=1)
    assert image.width() > 3 * window.rendered.image.width()  # not the screen's image


def test_a_page_png_is_rendered_at_its_scale_whatever_the_zoom(
    qtbot, qa_window, tmp_path, corpus_dir, dialogs
):
    window, features = qa_window
    targets, layers = dialogs
    path = paper(corpus_dir)
    open_and_wait(qtbot, window, path)
    at_low_zoom(qtbot, window)
    layers.append([])
    targets.append(tmp_path / "page.png")
    assert run_export(qtbot, features, "export_png").startswith("Saved")
    png = gray(QImage(str(tmp_path / "page.png")))
    # The page lies at the export area's margin (12 points) times the scale (2).
    margin = round(-window.view.page_scene_rect().left() * 2)
    top = round(-window.view.page_scene_rect().top() * 2)
    width, height = (round(v * 2) for v in window.view.geometry.size)
    ours = png[top : top + height, margin : margin + width]
    document = pdfium.PdfDocument(str(path))
    reference = np.asarray(document[0].render(scale=2.0).to_pil().convert("L"), dtype=float)
    document.close()
    reference = reference[: ours.shape[0], : ours.shape[1]]
    assert np.abs(ours - reference).mean() < 1.0


def test_a_page_pdfium_cannot_render_is_exported_on_its_blank_paper(
    qtbot, qa_window, tmp_path, corpus_dir, dialogs
):
    from tests.test_gui_workers import damaged_paper

    window, features = qa_window
    targets, layers = dialogs
    open_and_wait(qtbot, window, damaged_paper(corpus_dir, tmp_path))
    # The page is ready on the blank paper of its first render; fitted to the window, the view
    # then lays it out again at the fitted scale. The export is compared with that paper.
    qtbot.waitUntil(lambda: window.render_idle and window.page_is_shown, timeout=60_000)
    assert not window.rendered.rendered
    layers.append(["glyphs"])
    targets.append(tmp_path / "page.svg")
    assert run_export(qtbot, features, "export_svg").startswith("Saved")
    place, image = svg_page_image(tmp_path / "page.svg")
    assert image.size() == window.rendered.image.size()  # the view's blank paper
    targets.append(tmp_path / "page.png")
    assert run_export(qtbot, features, "export_png").startswith("Saved")
    assert not QImage(str(tmp_path / "page.png")).isNull()
    assert window.banner.text().startswith("Page 1: the page image is unavailable")
