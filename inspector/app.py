"""`glyphscope [FILE] [--page N] [--password PW] [--panel ID] [--screenshot OUT.png]`."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from glyphscope.core.version import package_version
from glyphscope.widgets.qa_layers import QA_LAYER_IDS
from glyphscope.widgets.text_layers import ALL_LAYER_TYPES

if TYPE_CHECKING:  # imported in main, after the Qt platform is chosen
    from PySide6.QtCore import QCoreApplication

    from glyphscope.inspector.main_window import MainWindow

SCREENSHOT_TIMEOUT_MS = 120_000


def sample_path() -> Path:
    """The bundled showcase PDF (assets/make_sample.py writes it)."""
    import glyphscope.assets

    return Path(glyphscope.assets.__file__).resolve().parent / "sample.pdf"


def freeze_startup_objects() -> None:
    """Move every object alive now (the modules, classes and widgets of a window that is up)
    out of the collector's reach. A full collection walks every tracked object while holding
    the GIL, which stops every thread, the GUI thread too: with the start-up objects in it one
    took 35 to 60 ms, without them under 1 ms. They live as long as the process, so the
    collector had nothing to find among them; the garbage of the start-up goes first."""
    gc.collect()
    gc.freeze()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    layer_ids = ", ".join([t.layer_id for t in ALL_LAYER_TYPES] + list(QA_LAYER_IDS))
    parser = argparse.ArgumentParser(
        prog="glyphscope",
        description="Inspect how text is extracted from a PDF: every glyph, every decision.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument("file", nargs="?", help="PDF to open (default: the bundled sample)")
    parser.add_argument("--page", type=int, default=1, help="1-based page to show first")
    parser.add_argument("--password", help="user or owner password of an encrypted file")
    parser.add_argument(
        "--screenshot",
        metavar="OUT.png",
        help="draw the page, its overlays and panes offscreen, save the window and exit",
    )
    parser.add_argument(
        "--layers",
        help=f"layers to show: all, none, or a comma list of {layer_ids}",
    )
    parser.add_argument(
        "--sweep",
        metavar="RESULTS.sqlite",
        help="open glyphscope-sweep results in the Corpus panel (FILE --page N: that row)",
    )
    parser.add_argument(
        "--panel",
        action="append",
        default=[],
        metavar="ID",
        help="bring a panel to the front (layers, details, text, glyphs, rules, provenance, "
        "content_stream, fonts, structure, compare, search, corpus); repeatable",
    )
    return parser.parse_args(argv)


def layer_choice(value: str | None) -> list[str] | None:
    """The layer ids named by --layers; None leaves the saved choice alone."""
    if value is None:
        return None
    value = value.strip().lower()
    known = [t.layer_id for t in ALL_LAYER_TYPES] + list(QA_LAYER_IDS)
    if value == "all":
        return known
    if value == "none":
        return []
    chosen = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise SystemExit(
            f"glyphscope: unknown layer(s) {', '.join(unknown)}; known: {', '.join(known)}"
        )
    return chosen


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    layers = layer_choice(args.layers)
    if args.screenshot and "QT_QPA_PLATFORM" not in os.environ:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.main_window import MainWindow
    from glyphscope.inspector.qa.corpus import install_corpus
    from glyphscope.inspector.qa.features import install_qa_features

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Glyphscope")
    app.setOrganizationName("Glyphscope")
    window = MainWindow(persist=not args.screenshot)
    install_qa_features(window)
    corpus = install_corpus(window)
    window.restore_layout()  # after the QA docks exist, so they come back where they were
    for panel_id in args.panel:
        dock = window.panels.get(panel_id)
        if dock is None:
            raise SystemExit(
                f"glyphscope: unknown panel {panel_id}; known: {', '.join(window.panels)}"
            )
        dock.show()
        dock.raise_()
    if args.sweep:
        corpus.open_results(args.sweep)
    if layers is not None:
        window.set_layers(layers)
    path = args.file or str(sample_path())
    if not Path(path).exists():
        message = f"glyphscope: {path}: no such file"
        if args.screenshot:
            print(message, file=sys.stderr)
            return 2
        window.show_error(message.removeprefix("glyphscope: "))

    def open_first_page() -> None:
        # A page the sweep ranked opens as its row does: the row's layers and rule sets.
        if args.sweep and args.file and corpus.open_page(path, args.page):
            if layers is not None:
                window.set_layers(layers)
            return
        window.open_file(path, args.password, max(args.page - 1, 0))

    if args.screenshot:
        return _screenshot(app, window, open_first_page, args)
    window.show()
    freeze_startup_objects()
    if Path(path).exists():
        open_first_page()
    code = app.exec()
    return code


def _screenshot(
    app: QCoreApplication,
    window: MainWindow,
    open_first_page: Callable[[], None],
    args: argparse.Namespace,
) -> int:
    from PySide6.QtCore import QTimer

    outcome: dict[str, object] = {}

    def failed(message: str) -> None:
        outcome["error"] = message
        app.quit()

    def poll() -> None:
        if not (window.page_is_ready and window.render_idle and window.model_or_error_shown):
            return
        if "asked" not in outcome:
            # A dense page's layers ask the layer painter's thread for their images when
            # first painted; the grab waits until they are back.
            window.view.viewport().repaint()
            outcome["asked"] = True
            return
        if any(layer.pending for layer in window.layers.values() if layer.isVisible()):
            return
        timer.stop()
        # One more event turn so the panes and overlays paint before the grab.
        QTimer.singleShot(50, grab)

    def grab() -> None:
        image = window.grab()
        outcome["saved"] = image.save(args.screenshot)
        app.quit()

    def timeout() -> None:
        outcome["error"] = "timed out waiting for the page to be drawn"
        app.quit()

    # Wrong or missing passwords end the run instead of opening a dialog nobody can answer.
    window.password_provider = lambda _path, _wrong: None
    window.documentFailed.connect(failed)
    window.resize(1920, 1280)
    window.show()
    timer = QTimer()
    timer.setInterval(100)
    timer.timeout.connect(poll)
    timer.start()
    QTimer.singleShot(SCREENSHOT_TIMEOUT_MS, timeout)
    # The whole page (with what lies outside its crop box) makes the more telling picture.
    window.view.fit_page()
    open_first_page()
    app.exec()
    window.shutdown()
    if "error" in outcome:
        print(f"glyphscope: {outcome['error']}", file=sys.stderr)
        return 1
    if not outcome.get("saved"):
        print(f"glyphscope: could not write {args.screenshot}", file=sys.stderr)
        return 1
    if window.page_failures:
        # The picture was saved, but it does not show what it should: scripts must know.
        for message in window.page_failures.values():
            print(f"glyphscope: {message}", file=sys.stderr)
        return 1
    if window.banner.isVisible():
        print(f"glyphscope: shown with an error: {window.banner.text()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
