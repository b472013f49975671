"""Exports a customer can read: normal file permissions, dialogs that remember their folder, and
regression cases proposed under the user's documents (pytest-qt)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from xml.etree import ElementTree

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from glyphscope.core.rules import Rules
from glyphscope.inspector.export import dialogs as export_dialogs
from glyphscope.inspector.export.exporters import TextExport, export_svg, page_image
from glyphscope.inspector.qa import actions as qa_actions
from glyphscope.inspector.qa.regression import CASES_FOLDER, default_cases_root
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import glyph_indices, open_and_wait, qa_window, tj_pdf
from tests.test_gui_qa_compare import pages_pdf

__all__ = ["qa_window"]

ROOT = Path(__file__).resolve().parent.parent


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_text_export_gets_the_users_usual_permissions(tmp_path):
    path = pages_pdf(tmp_path / "pages.pdf")
    output = tmp_path / "out.txt"
    TextExport().write(str(path), None, str(output), None, "text", "\f", False, Rules())
    (tmp_path / "plain.txt").write_text("x")  # any new file, for comparison
    mode = stat.S_IMODE(output.stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.txt").stat().st_mode)
    assert mode == 0o666 & ~umask()


def test_regression_cases_are_proposed_under_the_users_documents_not_the_checkout():
    root = default_cases_root()
    assert root.name == CASES_FOLDER
    assert ROOT not in root.parents
    assert Path.home() in root.parents


def test_export_dialogs_start_in_the_folder_of_the_last_export(
    qtbot, qa_window, tmp_path, monkeypatch
):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    chosen = tmp_path / "exports"
    chosen.mkdir()
    starts = []

    def save_dialog(_parent, _title, start, _filter):
        starts.append(Path(start).parent)
        return str(chosen / Path(start).name), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    features.actions["export_png"].trigger()
    features.actions["export_bundle"].trigger()
    qtbot.waitUntil(lambda: not features.page_exports, timeout=60_000)  # written off the GUI thread
    assert starts == [tmp_path, chosen]
    assert (chosen / "pages-p1.png").exists() and (chosen / "pages-p1.html").exists()
    assert qa_actions.export_folder(window) == chosen


def test_the_first_export_of_a_file_in_a_read_only_folder_proposes_the_users_documents(
    qtbot, qa_window, tmp_path, monkeypatch
):
    window, features = qa_window
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    documents = tmp_path / "Documents"
    documents.mkdir()
    open_and_wait(qtbot, window, pages_pdf(corpus / "pages.pdf"))
    # A read-only mount: root may write to a chmod-ed folder, so the refusal is simulated.
    real_access = os.access
    monkeypatch.setattr(
        export_dialogs.os,
        "access",
        lambda path, mode: Path(path) != corpus and real_access(path, mode),
    )
    monkeypatch.setattr(
        export_dialogs.QStandardPaths, "writableLocation", lambda _location: str(documents)
    )
    starts = []

    def save_dialog(_parent, _title, start, _filter):
        starts.append(Path(start).parent)
        return "", ""  # the user cancels

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    features.actions["export_png"].trigger()
    assert starts == [documents]
    assert not features.page_exports


# -- vector SVG, the selection export, the whole-page bundle ---------------------------------


def test_svg_overlays_are_vector_elements_with_classes_and_titles(qtbot, qa_window, tmp_path):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    path = tmp_path / "page.svg"
    export_svg(window, path, ["glyphs", "gaps", "boxes"])
    root = ElementTree.parse(path).getroot()
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert len(root.findall(".//svg:image", ns)) == 1  # the page image, nothing else raster
    groups = {g.get("id"): g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("id")}
    assert set(groups) == {"layer-glyphs", "layer-gaps", "layer-boxes"}
    assert groups["layer-gaps"].find("svg:title", ns).text == "Word gaps"
    glyphs = root.findall(".//svg:polygon[@class='glyph']", ns)
    assert len(glyphs) == window.model.count
    assert glyphs[0].find("svg:title", ns).text.startswith("#0 “T” U+0054 · /F1 10.0 pt")
    assert "image/png;base64" in path.read_text(encoding="utf-8")
    assert path.stat().st_size < 200_000


def test_the_selection_exports_a_cropped_picture_and_a_focused_explanation(
    qtbot, qa_window, tmp_path
):
    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    window.selection.set(glyph_indices(window, "TJspaced"), "band")
    written = qa_actions.export_selection(window, tmp_path / "sel.html")
    assert [p.name for p in written] == ["sel.html", "sel.png", "sel.svg"]
    html = (tmp_path / "sel.html").read_text(encoding="utf-8")
    assert "8 glyphs explained" in html
    assert "<pre>TJ spaced</pre>" in html  # the reading-order text with its TJ space (§6)
    assert "Plain" not in html  # only the selected glyphs
    assert "<td class='num'>6.00</td><td class='num'>1.50</td>" in html  # gap vs threshold
    assert "space_gap_ratio" in html
    picture = QImage(str(tmp_path / "sel.png"))
    full = page_image(window, ["glyphs"], scale=3.0, legend=False)
    assert 0 < picture.width() < full.width() and 0 < picture.height() < full.height()
    svg = ElementTree.parse(tmp_path / "sel.svg").getroot()
    assert svg.find(".//{http://www.w3.org/2000/svg}g[@id='layer-selection']") is not None


def test_the_page_bundle_collapses_long_tables_and_highlights_the_selection(
    qtbot, qa_window, tmp_path
):
    window, _features = qa_window
    b = PdfBuilder()
    lines = [b" ".join(b"w%d" % n for n in range(row * 20, row * 20 + 20)) for row in range(3)]
    content = b"BT /F1 8 Tf 10 700 Td " + b" 0 -12 Td ".join(b"(%s) Tj" % x for x in lines)
    b.add_page(content + b" ET", fonts={"F1": b.standard_font("Helvetica")})
    b.save(tmp_path / "long.pdf")
    open_and_wait(qtbot, window, tmp_path / "long.pdf")
    window.selection.set(glyph_indices(window, "w59"), "band")
    qa_actions.export_bundle(window, tmp_path / "page.html")
    html = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "<details><summary>" in html and "gap decisions, 3 touching the selection" in html
    assert "line decisions, 3 touching the selection" in html
    assert html.count("<tr class='sel'>") == 6  # the pairs into and inside "w59", both kinds


# -- a dense page's PNG export paints off the GUI thread ------------------------------------


def test_a_dense_pages_png_export_paints_its_layers_off_the_gui_thread(
    qtbot, qa_window, tmp_path, monkeypatch
):
    import threading

    import numpy as np

    from glyphscope.inspector.export.exporters import PageImageExport
    from glyphscope.widgets import layer_painter, overlay_base
    from tests.test_gui_layer_painter import dense_pdf

    window, features = qa_window
    open_and_wait(qtbot, window, dense_pdf(tmp_path / "dense.pdf"))
    assert window.layers["glyphs"].background
    # The picture is compared with one painted later: nothing the page shows may still be on
    # its way meanwhile (a sharper render, the pixel test, pages ahead, the view's layers).
    qtbot.waitUntil(
        lambda: (
            window.render_idle
            and window.render_worker.idle
            and window.analysis_worker.idle
            and layer_painter.layer_painter().idle
        ),
        timeout=60_000,
    )
    layers = ["glyphs", "gaps", "boxes", "baselines"]
    painted_on: list[str] = []

    def recording(module):
        original = module.paint_strokes

        def paint_strokes(painter, strokes, *args, **kwargs):
            if any(len(s.shape.points) > 500 for s in strokes):
                painted_on.append(threading.current_thread().name)
            return original(painter, strokes, *args, **kwargs)

        monkeypatch.setattr(module, "paint_strokes", paint_strokes)

    recording(overlay_base)
    recording(layer_painter)
    export = PageImageExport(window, layers, scale=2.0, legend=True)
    progress = []
    export.progress.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(export.finished, timeout=60_000) as result:
        export.start()
        # start() only asked for the layers (the view's own painter may still be at work on
        # its thread for the page just shown: only the GUI thread must not have painted).
        assert threading.main_thread().name not in painted_on
    image = result.args[0]
    assert painted_on and threading.main_thread().name not in painted_on
    assert progress[0][0] == 0 and progress[-1][0] == progress[-1][1] >= 2
    # The same picture as painting every layer at once on the GUI thread.
    monkeypatch.undo()
    reference = page_image(window, layers, scale=2.0, legend=True)
    assert image.size() == reference.size()

    def pixels(picture):
        picture = picture.convertToFormat(QImage.Format.Format_RGB888)
        row = picture.width() * 3
        rows = np.array(picture.constBits(), np.uint8).reshape(picture.height(), -1)
        return rows[:, :row].astype(int)

    difference = np.abs(pixels(image) - pixels(reference))
    assert difference.max() <= 3  # premultiplied rounding where a layer's image is composed
    assert (difference > 0).mean() < 0.05


def test_a_png_export_of_a_page_flipped_meanwhile_says_so_and_writes_nothing(
    qtbot, qa_window, tmp_path
):
    from glyphscope.inspector.export.exporters import PageImageExport

    window, _features = qa_window
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    text = b"".join(b"(%s) '" % (b"word " * 20) for _ in range(30))
    for _ in range(2):
        builder.add_page(b"BT /F1 6 Tf 8 TL 40 780 Td " + text + b" ET", fonts={"F1": helv})
    builder.save(tmp_path / "two.pdf")
    open_and_wait(qtbot, window, tmp_path / "two.pdf")
    export = PageImageExport(window, ["glyphs"], scale=2.0, legend=False)
    finished = []
    export.finished.connect(finished.append)
    with qtbot.waitSignal(export.failed, timeout=60_000) as result:
        export.start()
        window.go_to_page(1)
    assert "changed" in result.args[0]
    assert finished == []


def test_the_png_action_saves_a_dense_page_without_painting_it_on_the_gui_thread(
    qtbot, qa_window, tmp_path, monkeypatch
):
    from tests.test_gui_layer_painter import dense_pdf

    window, features = qa_window
    open_and_wait(qtbot, window, dense_pdf(tmp_path / "dense.pdf"))
    target = tmp_path / "dense-export.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: (str(target), ""))
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    features.actions["export_png"].trigger()
    assert features.png_export is not None  # still painting: the action returned at once
    qtbot.waitUntil(lambda: features.png_export is None, timeout=60_000)
    assert QImage(str(target)).width() > 1000
    assert "Saved" in window.statusBar().currentMessage()
