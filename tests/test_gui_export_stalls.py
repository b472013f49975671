"""The longest GUI-thread stall of each export on a dense corpus page (the federal register's
second page, 9,407 glyphs, every overlay layer drawn), each driven through its QA menu action
with the file dialog patched. Reports the figures; no timed assertion (the machine's load
decides them), only that every export wrote its files."""

from __future__ import annotations

import gc
import time

from PySide6.QtWidgets import QFileDialog

from glyphscope.inspector.export import dialogs as export_dialogs
from tests.qa_support import qa_window
from tests.stalls import Watchdog, settle

__all__ = ["qa_window"]

DENSE_PAGE = ("pdfplumber__federal-register-2020-17221.pdf", 1)


def test_the_longest_gui_thread_stall_of_each_export(
    qtbot, qa_window, tmp_path, corpus_dir, monkeypatch, record_property, request
):
    from glyphscope.inspector.app import freeze_startup_objects
    from glyphscope.widgets.layer_painter import layer_painter

    window, features = qa_window
    freeze_startup_objects()  # as the application does once its window is up
    request.addfinalizer(gc.unfreeze)
    name, page = DENSE_PAGE
    with qtbot.waitSignal(window.pageReady, timeout=60_000):
        window.open_file(str(corpus_dir / name))
    with qtbot.waitSignal(window.pageReady, timeout=60_000):
        window.go_to_page(page)
    window.set_layers(list(window.layers))  # every overlay drawn: the most work per export
    window.selection.set(list(range(0, window.model.count, 3)), "band")  # a third of the page
    workers = (
        window.render_worker,
        window.analysis_worker,
        window.sidebar.outline_worker,
        features.worker,
        layer_painter(),
    )
    targets: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: (targets[-1], ""))
    monkeypatch.setattr(export_dialogs.LayersDialog, "exec", lambda self: 1)
    watchdog = Watchdog()
    stalls: dict[str, tuple[float, float, str]] = {}
    gui_cpu: dict[str, float] = {}
    exports = {
        "PNG": ("export_png", "page.png", ["page.png"]),
        "SVG": ("export_svg", "page.svg", ["page.svg"]),
        "bundle (HTML)": ("export_bundle", "page.html", ["page.html"]),
        "selection (HTML, PNG, SVG)": (
            "export_selection",
            "sel.html",
            ["sel.html", "sel.png", "sel.svg"],
        ),
    }
    for scenario, (action, target, written) in exports.items():
        targets.append(str(tmp_path / target))
        gc.collect()
        settle(qtbot, workers)
        watchdog.reset()
        started = time.thread_time()  # the GUI thread's CPU, the waiting loop's included
        features.actions[action].trigger()
        qtbot.waitUntil(
            lambda: window.statusBar().currentMessage().startswith("Saved"), timeout=120_000
        )
        gui_cpu[scenario] = time.thread_time() - started
        settle(qtbot, workers)
        stalls[scenario] = (watchdog.longest, watchdog.longest_cpu, watchdog.report())
        window.statusBar().clearMessage()
        assert all((tmp_path / file).stat().st_size > 0 for file in written)
    watchdog.stop()
    print("\nlongest GUI-thread stall per export (wall time; the GUI thread's CPU in it):")
    for scenario, (stall, cpu, seen) in stalls.items():
        print(
            f"  {scenario:28} {stall * 1000:7.1f} ms  (cpu {cpu * 1000:6.1f} ms; "
            f"GUI thread CPU in all the export {gui_cpu[scenario] * 1000:6.1f} ms)\n{seen}",
            end="",
        )
    record_property(
        "stalls_ms", {name: round(stall * 1000, 1) for name, (stall, _cpu, _s) in stalls.items()}
    )
    assert len(stalls) == len(exports)


# -- the text exports' work in pieces, each a short hold of the GIL ------------------------------


def test_a_text_encoded_in_pieces_is_the_whole_texts_utf8(monkeypatch):
    from glyphscope.inspector.export import common as export_common

    monkeypatch.setattr(export_common, "TEXT_PIECE", 7)
    parts = ["", "ascii only, longer than a piece", "é—𝄞 mixed widths ×3 " * 5, "x"]
    pieces = export_common.utf8_pieces(parts)
    assert b"".join(pieces) == "".join(parts).encode("utf-8")
    assert max(len(piece.decode("utf-8")) for piece in pieces) <= 7


def test_base64_made_in_pieces_is_the_whole_datas():
    import base64

    from glyphscope.inspector.export.common import TEXT_PIECE, base64_text

    for size in (0, 1, 2, 3, TEXT_PIECE // 4 * 3, TEXT_PIECE, 3 * TEXT_PIECE + 1):
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        assert base64_text(data) == base64.b64encode(data).decode("ascii")


def test_the_svg_in_pieces_is_the_svg_text(qtbot, qa_window, tmp_path, monkeypatch):
    from glyphscope.inspector.export import svg as svg_export
    from tests.qa_support import open_and_wait, tj_pdf

    window, _features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    page = svg_export.svg_page(window, list(window.layers))
    whole = svg_export.svg_text(page)
    for lines in (1, 2, 5):
        monkeypatch.setattr(svg_export, "LINES_PER_PIECE", lines)
        assert "".join(svg_export.svg_parts(page)) == whole
    assert whole.count("\n") == len(whole.splitlines()) and whole.endswith("</svg>\n")
