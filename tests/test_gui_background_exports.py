"""The page exports run off the GUI thread (pytest-qt, driven through the QA menu's actions
with the file dialog patched): the files are the synchronous path's, each is written on the
export's worker thread, progress shows in the status bar, QA → Cancel exports stops them, a
page turned meanwhile stops them with a message, and a file that cannot be written says why
and leaves nothing behind."""

from __future__ import annotations

import errno
import re
import threading
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from glyphscope.inspector.export import common as export_common
from glyphscope.inspector.export import dialogs as export_dialogs
from glyphscope.inspector.export import jobs as export_jobs
from glyphscope.inspector.export.exporters import export_png, export_svg
from glyphscope.inspector.qa import actions as qa_actions
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import glyph_indices, open_and_wait, qa_window, run_export, tj_pdf

__all__ = ["qa_window"]

LAYERS = ["glyphs", "gaps", "boxes"]


@pytest.fixture
def dialogs(monkeypatch):
    """The save dialog answers the path in `targets[-1]`; the layers dialog: OK."""
    targets: list[Path] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: (str(targets[-1]), ""))
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    monkeypatch.setattr(export_dialogs.LayersDialog, "chosen", lambda self: list(LAYERS))
    return targets


def open_settled(qtbot, window, path: Path) -> None:
    """Open and wait for the hidden-text pixel test too: its answer changes the analysis
    (the bundle's embedded log), and the files compared must be of the same analysis."""
    from glyphscope.inspector.qa.features import qa_features_of

    signals = [window.pageReady, qa_features_of(window).detailsShown, window.hiddenTextReady]
    with qtbot.waitSignals(signals, timeout=60_000):
        window.open_file(str(path))


def two_pages_pdf(path: Path) -> Path:
    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    text = b"".join(b"(%s) '" % (b"word " * 20) for _ in range(30))
    for _ in range(2):
        builder.add_page(b"BT /F1 6 Tf 8 TL 40 780 Td " + text + b" ET", fonts={"F1": helv})
    builder.save(path)
    return path


def show(window, layer_ids) -> None:
    for layer_id, layer in window.layers.items():
        layer.setVisible(layer_id in layer_ids)


def test_every_export_action_writes_the_synchronous_paths_files(
    qtbot, qa_window, tmp_path, dialogs
):
    window, features = qa_window
    open_settled(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    show(window, LAYERS)
    window.selection.set(glyph_indices(window, "TJspaced"), "band")
    now, later = tmp_path / "now", tmp_path / "later"
    now.mkdir(), later.mkdir()
    export_png(window, now / "page.png", LAYERS, scale=2.0, legend=True)
    export_svg(window, now / "page.svg", LAYERS, legend=True)
    qa_actions.export_bundle(window, now / "page.html", LAYERS)
    qa_actions.export_selection(window, now / "sel.html", LAYERS)
    for action, target in (
        ("export_png", "page.png"),
        ("export_svg", "page.svg"),
        ("export_bundle", "page.html"),
        ("export_selection", "sel.html"),
    ):
        dialogs.append(later / target)
        assert run_export(qtbot, features, action).startswith("Saved")
    written = sorted(p.name for p in later.iterdir())
    assert written == ["page.html", "page.png", "page.svg", "sel.html", "sel.png", "sel.svg"]
    for name in written:
        assert (later / name).read_bytes() == (now / name).read_bytes(), name


def test_a_dense_pages_exports_equal_the_synchronous_ones_but_for_paint_rounding(
    qtbot, qa_window, tmp_path, dialogs
):
    """A dense page's layers are painted by the layer painter's thread: its pixels may differ
    by rounding where a layer's image is composed (as PageImageExport's test allows); every
    other byte of the SVG and the HTML is the synchronous path's."""
    import numpy as np

    from tests.test_gui_layer_painter import dense_pdf

    window, features = qa_window
    open_settled(qtbot, window, dense_pdf(tmp_path / "dense.pdf"))
    show(window, LAYERS)
    window.selection.set(list(range(40, 90)), "band")
    assert window.layers["glyphs"].background
    dialogs.append(tmp_path / "page.svg")
    run_export(qtbot, features, "export_svg")
    dialogs.append(tmp_path / "page.html")
    run_export(qtbot, features, "export_bundle")
    dialogs.append(tmp_path / "sel.html")
    run_export(qtbot, features, "export_selection")
    export_svg(window, tmp_path / "now.svg", LAYERS)
    assert (tmp_path / "page.svg").read_bytes() == (tmp_path / "now.svg").read_bytes()
    qa_actions.export_selection(window, tmp_path / "now-sel.html", LAYERS)
    assert (tmp_path / "sel.svg").read_bytes() == (tmp_path / "now-sel.svg").read_bytes()
    qa_actions.export_bundle(window, tmp_path / "now.html", LAYERS)
    image = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")

    def pixels(path: Path):
        picture = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB888)
        rows = np.array(picture.constBits(), np.uint8).reshape(picture.height(), -1)
        return rows[:, : picture.width() * 3].astype(int)

    for name in ("page.html", "sel.html"):
        ours = (tmp_path / name).read_text(encoding="utf-8")
        theirs = (tmp_path / f"now{'-sel' if name == 'sel.html' else ''}.html").read_text(
            encoding="utf-8"
        )
        assert image.sub("", ours) == image.sub("", theirs)
    difference = np.abs(pixels(tmp_path / "sel.png") - pixels(tmp_path / "now-sel.png"))
    assert difference.max() <= 3  # premultiplied rounding of the composed layer images


def test_an_exports_files_are_made_and_written_on_its_worker_thread(
    qtbot, qa_window, tmp_path, dialogs, monkeypatch
):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    window.selection.set(glyph_indices(window, "TJspaced"), "band")
    threads: list[str] = []
    original = export_jobs.open_temporary

    def recording(output):
        threads.append(threading.current_thread().name)
        return original(output)

    monkeypatch.setattr(export_jobs, "open_temporary", recording)
    for action, target in (
        ("export_png", "p.png"),
        ("export_svg", "p.svg"),
        ("export_bundle", "p.html"),
        ("export_selection", "s.html"),
    ):
        dialogs.append(tmp_path / target)
        run_export(qtbot, features, action)
    assert threads == ["page export"] * 6


def test_an_exports_progress_shows_in_the_status_bar(qtbot, qa_window, tmp_path, dialogs):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    shown: list[str] = []
    window.statusBar().messageChanged.connect(shown.append)
    dialogs.append(tmp_path / "page.html")
    run_export(qtbot, features, "export_bundle")
    assert "Exporting page.html: writing 0 of 1 files" in shown
    assert "Exporting page.html: writing 1 of 1 files" in shown
    assert shown[-1] == f"Saved {tmp_path / 'page.html'}"


def test_cancel_exports_stops_a_running_export_and_writes_nothing(
    qtbot, qa_window, tmp_path, dialogs
):
    from tests.test_gui_layer_painter import dense_pdf

    window, features = qa_window
    open_and_wait(qtbot, window, dense_pdf(tmp_path / "dense.pdf"))
    dialogs.append(tmp_path / "page.html")
    assert not features.cancel_exports_action.isEnabled()
    features.actions["export_bundle"].trigger()
    assert features.cancel_exports_action.isEnabled()  # painting its layers meanwhile
    (export,) = features.page_exports.values()
    features.cancel_exports_action.trigger()
    assert not features.page_exports and not features.cancel_exports_action.isEnabled()
    assert window.statusBar().currentMessage() == "Export of page.html stopped: cancelled"
    export.wait(60)
    qtbot.wait(100)
    assert list(tmp_path.glob("*.html")) == [] and list(tmp_path.glob(".glyphscope-*")) == []


@pytest.mark.parametrize("action", ["export_svg", "export_bundle", "export_selection"])
def test_an_export_of_a_page_turned_meanwhile_says_so_and_writes_nothing(
    qtbot, qa_window, tmp_path, dialogs, action
):
    window, features = qa_window
    open_and_wait(qtbot, window, two_pages_pdf(tmp_path / "two.pdf"))
    window.selection.set(list(range(10)), "band")
    suffix = {"export_svg": ".svg"}.get(action, ".html")
    dialogs.append(tmp_path / "out" / f"page{suffix}")
    (tmp_path / "out").mkdir()
    features.actions[action].trigger()
    (export,) = features.page_exports.values()
    window.go_to_page(1)
    qtbot.waitUntil(lambda: not features.page_exports, timeout=60_000)
    assert (
        window.statusBar()
        .currentMessage()
        .endswith("stopped: the page changed while it was being exported")
    )
    export.wait(60)  # its worker may still be making a file, however long that takes
    qtbot.wait(100)
    assert list((tmp_path / "out").iterdir()) == []


def test_a_full_disk_is_named_and_no_partial_file_is_left(
    qtbot, qa_window, tmp_path, dialogs, monkeypatch
):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    window.selection.set(glyph_indices(window, "TJspaced"), "band")
    original = export_jobs.open_temporary
    opened: list[str] = []

    def full_after_one(output):
        if opened:
            raise OSError(errno.ENOSPC, "No space left on device")
        temporary, handle = original(output)
        opened.append(temporary)
        return temporary, handle

    monkeypatch.setattr(export_jobs, "open_temporary", full_after_one)
    dialogs.append(tmp_path / "sel.html")
    message = run_export(qtbot, features, "export_selection")
    assert message == "Export of sel.html stopped: could not write sel.png: the disk is full"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tj.pdf"]


def test_a_folder_that_cannot_be_written_is_named(qtbot, qa_window, tmp_path, dialogs):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    dialogs.append(tmp_path / "gone" / "page.svg")
    message = run_export(qtbot, features, "export_svg")
    assert (
        message == "Export of page.svg stopped: could not write page.svg: the folder does not exist"
    )


@pytest.mark.parametrize("stopped_while_making", [0, 1])
def test_a_worker_stopped_while_it_makes_a_file_leaves_no_temporary_behind(
    tmp_path, stopped_while_making
):
    stop = threading.Event()

    def make(number: int):
        def bytes_of(_picture) -> bytes:
            if number == stopped_while_making:
                stop.set()  # the page turned while this file was being made
            return b"x"

        return bytes_of

    files = [export_jobs.ExportFile(tmp_path / f"{n}.txt", make(n)) for n in range(2)]
    with pytest.raises(export_jobs.ExportStopped):
        export_jobs.write_temporaries(files, export_jobs.Picture(None), stop.is_set)
    assert list(tmp_path.iterdir()) == []


def test_write_failures_are_told_in_words():
    permission = PermissionError(errno.EACCES, "Permission denied")
    assert export_common.write_failure(permission, "/x/a.svg") == (
        "could not write a.svg: permission denied"
    )
    other = OSError(errno.EIO, "Input/output error")
    assert (
        export_common.write_failure(other, "a.png") == "could not write a.png: Input/output error"
    )


def test_the_svgs_point_text_is_each_numbers_two_decimals_without_trailing_zeros():
    import numpy as np

    from glyphscope.inspector.export.svg import _num, _point_rows

    rng = np.random.default_rng(7)
    points = np.concatenate(
        [
            rng.normal(0, 300, (200, 5, 2)),
            np.round(rng.normal(0, 3, (200, 5, 2)), 3),
            np.array([[[-0.001, 0.004], [0.005, 100.0], [1e6, np.nan], [np.inf, 10.5], [0, 1]]]),
        ]
    )
    expected = [" ".join(f"{_num(x)},{_num(y)}" for x, y in row) for row in points.tolist()]
    assert _point_rows(points) == expected
    assert _point_rows(points.astype(np.float32)) == [
        " ".join(f"{_num(x)},{_num(y)}" for x, y in row)
        for row in points.astype(np.float32).tolist()
    ]


def test_an_svgs_legend_taller_than_the_page_is_not_cut_off(qtbot, qa_window, tmp_path):
    from xml.etree import ElementTree

    from glyphscope.inspector.export.exporters import legend_height, legend_sections
    from glyphscope.inspector.export.svg import _num

    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))  # a page 160 pt high
    layers = list(window.layers)
    export_svg(window, tmp_path / "page.svg", layers)
    root = ElementTree.parse(tmp_path / "page.svg").getroot()
    tallest = legend_height(legend_sections(window, layers))
    assert tallest > 160
    assert root.get("height") == f"{_num(tallest)}pt"
