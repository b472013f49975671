"""Exports: the HTML explanation bundle (self-contained, opened in headless Chromium), the page
as PNG and SVG with chosen layers and a legend."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from glyphscope.inspector.export.bundle import JSON_ELEMENT_ID, embedded_json_pieces
from glyphscope.inspector.export.exporters import (
    LEGEND_WIDTH,
    export_png,
    export_svg,
    legend_height,
    legend_sections,
    page_rect,
)
from glyphscope.inspector.qa.actions import export_bundle
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import open_and_wait, qa_window, tj_pdf

__all__ = ["qa_window"]

CHROMIUM = "/usr/bin/chromium"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JSON_SCRIPT = re.compile(
    f'<script type="application/json" id="{JSON_ELEMENT_ID}">(.*?)</script>', re.S
)


@pytest.fixture
def bundle(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    path = tmp_path / "bundle.html"
    export_bundle(window, path, ["glyphs", "gaps"])
    return window, path.read_text(encoding="utf-8")


def embedded(html: str) -> dict:
    (text,) = JSON_SCRIPT.findall(html)
    return json.loads(text)


# -- the bundle -------------------------------------------------------------------------------


def test_bundle_embeds_the_page_image_as_a_png_data_uri(bundle):
    _window, html = bundle
    (data,) = re.findall(r'<img class="page"[^>]* src="data:image/png;base64,([^"]+)"', html)
    assert base64.b64decode(data).startswith(PNG_SIGNATURE)


def test_bundle_embeds_the_glyph_records_as_json(bundle):
    window, html = bundle
    analysis = embedded(html)
    shown = json.loads(json.dumps(window.model.analysis.to_json()))
    # The hidden-text pixel test answers on the render worker whenever it is done, so the
    # shown analysis may have gained its result after the bundle was written.
    analysis.pop("ink_test"), shown.pop("ink_test")
    assert analysis == shown
    assert "".join(g["unicode"] for g in analysis["glyphs"]) == "TJspacedPlain words"


def test_bundle_names_no_external_url(bundle):
    _window, html = bundle
    without_data = re.sub(r'"data:[^"]*"', '""', html)
    assert re.findall(r"[a-z][a-z0-9+.-]*://|https?:|url\(|@import", without_data, re.I) == []
    assert re.findall(r'(?:src|href|action)="(?!data:)', html) == []


def test_bundle_forbids_every_fetch_in_its_content_security_policy(bundle):
    _window, html = bundle
    assert "default-src 'none'; img-src data:;" in html


def test_bundle_holds_each_mode_text_and_the_rules(bundle):
    _window, html = bundle
    assert "<h3>Reading order</h3><pre>TJ spaced\nPlain words</pre>" in html
    assert "<td>space_gap_ratio</td><td>0.15</td><td>0.15</td>" in html


def test_bundle_tables_the_tj_gap_decision(bundle):
    _window, html = bundle
    assert (
        "<td>J | s</td><td class='num'>6.00</td><td class='num'>1.50</td>"
        "<td class='space'>space</td><td>above_threshold</td>"
    ) in html


def dump_dom(path: Path) -> str:
    with tempfile.TemporaryDirectory() as profile:
        completed = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--dump-dom",
                path.resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="Debian's chromium is not installed")
def test_chromium_renders_the_bundle_and_its_script_parses_the_json(bundle, tmp_path):
    window, html = bundle
    path = tmp_path / "opened.html"
    path.write_text(html, encoding="utf-8")
    dom = dump_dom(path)
    glyphs = len(window.model.glyphs)
    assert f'data-glyphs="{glyphs}"' in dom
    assert f"{glyphs} glyph records" in dom
    assert 'class="page"' in dom
    assert len(embedded(dom)["glyphs"]) == glyphs


# -- PNG and SVG ------------------------------------------------------------------------------


def test_png_has_the_page_and_a_legend_at_the_chosen_scale(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    image = export_png(window, tmp_path / "page.png", ["glyphs"], scale=2.0)
    rect = page_rect(window)
    # The legend lists every decode source, so on this small page it is the taller part.
    legend = legend_height(legend_sections(window, ["glyphs"]))
    assert (image.width(), image.height()) == (
        int((rect.width() + LEGEND_WIDTH) * 2.0),
        int(max(rect.height(), legend) * 2.0),
    )
    assert QImage(str(tmp_path / "page.png")).size() == image.size()


def painted_pixels(image: QImage, x0: int, x1: int) -> int:
    white = QColor("#ffffff").rgb()
    return sum(
        image.pixel(x, y) != white for x in range(x0, x1, 2) for y in range(0, image.height(), 2)
    )


def test_png_draws_only_the_chosen_layers(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    bare = export_png(window, tmp_path / "none.png", [], legend=False)
    quads = export_png(window, tmp_path / "quads.png", ["glyphs"], legend=False)
    assert painted_pixels(quads, 0, quads.width()) > painted_pixels(bare, 0, bare.width())


def test_export_puts_the_layers_back_as_they_were(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    before = {lid: layer.isVisible() for lid, layer in window.layers.items()}
    export_png(window, tmp_path / "page.png", ["boxes"])
    assert {lid: layer.isVisible() for lid, layer in window.layers.items()} == before


def test_png_legend_is_drawn_beside_the_page(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    image = export_png(window, tmp_path / "page.png", ["glyphs"], scale=1.0)
    legend_left = int(page_rect(window).width())
    assert painted_pixels(image, legend_left, image.width()) > 50


def test_svg_holds_the_page_image_the_overlays_and_the_legend(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    path = tmp_path / "page.svg"
    export_svg(window, path, ["glyphs", "boxes"])
    root = ElementTree.parse(path).getroot()
    tags = {element.tag.split("}")[-1] for element in root.iter()}
    assert {"svg", "image", "polyline", "text"} <= tags
    text = path.read_text(encoding="utf-8")
    assert "Glyph quads" in text
    assert "MediaBox / CropBox / visible box" in text


def _analysis_of(content: bytes):
    builder = PdfBuilder()
    builder.add_page(content, fonts={"F1": builder.standard_font("Helvetica")})
    return analyse_page(Document.open(builder.to_bytes()).page(0), Rules())


def embedded_json(analysis) -> str:
    return "".join(embedded_json_pieces(analysis))


def test_the_embedded_log_is_the_decision_logs_json_with_script_delimiters_escaped():
    analysis = _analysis_of(b"BT /F1 12 Tf 72 700 Td [(a<)-400(/script>&)] TJ ET")
    text = analysis.to_json_text()
    assert "<" not in embedded_json(analysis) and "&" not in embedded_json(analysis)
    assert embedded_json(analysis) == (
        text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    )
    assert json.loads(embedded_json(analysis)) == json.loads(json.dumps(analysis.to_json()))


def test_the_embedded_log_writes_non_finite_numbers_as_null_for_a_browser():
    analysis = _analysis_of(b"BT /F1 12 Tf 72 700 Td (a) Tj ET")
    broken = dataclasses.replace(analysis, media_box=(0.0, 0.0, float("nan"), float("inf")))
    assert json.loads(embedded_json(broken))["media_box"] == [0.0, 0.0, None, None]
