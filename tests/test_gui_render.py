"""Each overlay layer drawn alone over the decisions page, compared with a stored image.

Regenerate the references after an intended change of look:
    GLYPHSCOPE_UPDATE_REFERENCES=1 python3 -m pytest tests/test_gui_render.py
A failing comparison writes <layer>-actual.png and <layer>-diff.png next to the test's
temporary folder and names them in the message.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QImage, QPainter

from glyphscope.inspector.main_window import MainWindow
from glyphscope.widgets.overlay_layers import LAYER_TYPES
from tests.test_gui_pdfs import decisions_pdf

REFERENCES = Path(__file__).resolve().parent / "gui_reference"
UPDATE = os.environ.get("GLYPHSCOPE_UPDATE_REFERENCES") == "1"
SIZE = (640, 440)
# Anti-aliasing may move an edge by a pixel between Qt builds: allow a little of that.
MAX_MEAN_DIFFERENCE = 1.5  # grey levels, averaged over the image
MAX_CHANGED_FRACTION = 0.01  # pixels differing by more than 64 grey levels


@pytest.fixture(scope="module")
def decisions_window(tmp_path_factory, qapp):
    path = tmp_path_factory.mktemp("render") / "decisions.pdf"
    decisions_pdf(path)
    win = MainWindow(persist=False)
    win.resize(1200, 800)
    win.show()
    done = []
    win.pageReady.connect(done.append)
    win.open_file(str(path))
    deadline = 300
    while not done and deadline:
        qapp.processEvents()
        time.sleep(0.1)
        deadline -= 1
    assert done, "the decisions page was never drawn"
    yield win
    win.shutdown()
    win.close()


def layer_image(win: MainWindow, layer_id: str) -> QImage:
    """The layer alone (no page image), the scene's MediaBox area scaled to SIZE."""
    win.view._page_item.setVisible(False)
    win.set_layers([layer_id])
    win.layers_panel.colour_by.setCurrentText("decode source")
    image = QImage(*SIZE, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    x0, y0, x1, y1 = win.model.media_box
    source = win.view.overlay_root.mapRectToScene(QRectF(x0, y0, x1 - x0, y1 - y0))
    win.view.scene().render(painter, QRectF(0, 0, *SIZE), source)
    painter.end()
    return image


def as_array(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    pixels = data.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3]
    return pixels.copy()  # the converted image is freed when this function returns


def diff_image(actual: np.ndarray, expected: np.ndarray) -> QImage:
    difference = np.abs(actual.astype(np.int16) - expected.astype(np.int16)).max(axis=2)
    rgb = np.full(actual.shape, 255, dtype=np.uint8)
    rgb[..., 1] = rgb[..., 2] = 255 - np.clip(difference * 4, 0, 255).astype(np.uint8)
    height, width = difference.shape
    pixels = rgb.tobytes()  # referenced until copy() has taken the pixels
    return QImage(pixels, width, height, width * 3, QImage.Format.Format_RGB888).copy()


@pytest.mark.parametrize("layer_id", [t.layer_id for t in LAYER_TYPES])
def test_layer_draws_like_its_reference(decisions_window, layer_id, tmp_path):
    actual_image = layer_image(decisions_window, layer_id)
    reference = REFERENCES / f"{layer_id}.png"
    if UPDATE or not reference.exists():
        REFERENCES.mkdir(exist_ok=True)
        actual_image.save(str(reference))
        if not UPDATE:
            pytest.fail(f"no reference for {layer_id}; wrote {reference}, check it by eye")
        return
    actual = as_array(actual_image)
    expected = as_array(QImage(str(reference)))
    assert actual.shape == expected.shape
    difference = np.abs(actual.astype(np.int16) - expected.astype(np.int16))
    mean = float(difference.mean())
    changed = float((difference.max(axis=2) > 64).mean())
    if mean > MAX_MEAN_DIFFERENCE or changed > MAX_CHANGED_FRACTION:
        actual_path = tmp_path / f"{layer_id}-actual.png"
        diff_path = tmp_path / f"{layer_id}-diff.png"
        actual_image.save(str(actual_path))
        diff_image(actual, expected).save(str(diff_path))
        pytest.fail(
            f"{layer_id} differs from {reference.name}: mean {mean:.2f}, "
            f"{changed:.2%} of pixels changed; see {actual_path} and {diff_path}"
        )
