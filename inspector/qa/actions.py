"""The QA menu: search, compare, exports and regression cases, with their shortcuts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox, QProgressDialog

from glyphscope.inspector.export.dialogs import (
    LayersDialog,
    TextExportDialog,
    export_folder,
    remember_export_folder,
)
from glyphscope.inspector.export.exporters import TextExport
from glyphscope.inspector.export.jobs import (
    BackgroundExport,
    ExportJob,
    bundle_job,
    png_job,
    selection_job,
    svg_job,
    write_now,
)
from glyphscope.inspector.qa.regression import ask_regression_case

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow
    from glyphscope.inspector.qa.features import QaFeatures


def _action(
    features: QaFeatures, name: str, text: str, slot, shortcut: str | None = None
) -> QAction:
    window = features.window
    action = QAction(text, window)
    action.setObjectName(f"action_qa_{name}")
    if shortcut:
        action.setShortcut(QKeySequence(shortcut))
    action.triggered.connect(slot)
    window.addAction(action)  # shortcuts work wherever the focus is
    return action


def build(features: QaFeatures) -> dict[str, QAction]:
    actions = {
        "find": _action(features, "find", "&Find in document…", features.focus_search, "Ctrl+F"),
        "find_next": _action(
            features, "find_next", "Find &next", lambda: features.search_panel.step(1), "F3"
        ),
        "find_previous": _action(
            features,
            "find_previous",
            "Find pre&vious",
            lambda: features.search_panel.step(-1),
            "Shift+F3",
        ),
        "compare_page": _action(
            features,
            "compare_page",
            "&Compare page with pdfium",
            lambda: _compare(features),
            "Ctrl+D",
        ),
        "compare_document": _action(
            features,
            "compare_document",
            "Compare &every page with pdfium",
            lambda: _compare(features, document=True),
            "Ctrl+Shift+D",
        ),
        "reset_rules": _action(
            features,
            "reset_rules",
            "&Reset rules to the spec",
            features.rules_panel.reset,
            "Ctrl+Shift+0",
        ),
        "export_png": _action(
            features,
            "export_png",
            "Export page as &PNG…",
            lambda: _export_picture(features, "png"),
            "Ctrl+E",
        ),
        "export_svg": _action(
            features,
            "export_svg",
            "Export page as &SVG…",
            lambda: _export_picture(features, "svg"),
            "Ctrl+Shift+E",
        ),
        "export_bundle": _action(
            features,
            "export_bundle",
            "Export explanation &bundle (HTML)…",
            lambda: _export_bundle(features),
            "Ctrl+B",
        ),
        "export_selection": _action(
            features,
            "export_selection",
            "Export &selection (PNG, SVG, HTML)…",
            lambda: _export_selection(features),
            "Ctrl+Alt+E",
        ),
        "export_text": _action(
            features,
            "export_text",
            "Export document &text…",
            lambda: _export_text(features),
            "Ctrl+Shift+T",
        ),
        "regression_case": _action(
            features,
            "regression_case",
            "Save as re&gression case…",
            lambda: _save_case(features),
            "Ctrl+Shift+R",
        ),
    }
    # Not among the tools with a shortcut: enabled only while a page export runs.
    cancel = _action(
        features, "cancel_exports", "&Cancel exports", lambda: cancel_exports(features)
    )
    cancel.setEnabled(False)
    features.cancel_exports_action = cancel
    menu = features.window.menuBar().addMenu("&QA")
    menu.setObjectName("menu_qa")
    for group in (
        ("find", "find_next", "find_previous"),
        ("compare_page", "compare_document"),
        ("reset_rules",),
        ("export_png", "export_svg", "export_selection", "export_bundle", "cancel_exports"),
        ("export_text",),
        ("regression_case",),
    ):
        for name in group:
            menu.addAction(cancel if name == "cancel_exports" else actions[name])
        menu.addSeparator()
    return actions


def _compare(features: QaFeatures, document: bool = False) -> None:
    dock = features.docks["compare"]
    dock.show()
    dock.raise_()
    if document:
        features.compare_document()
    else:
        features.compare_page()


def _stem(window: MainWindow) -> str:
    stem = Path(window.path).stem if window.path else "page"
    return f"{stem}-p{window.page_index + 1}"


def _export_picture(features: QaFeatures, kind: str) -> None:
    window = features.window
    if window.model is None:
        return
    dialog = LayersDialog(window, f"Export page as {kind.upper()}", with_scale=kind == "png")
    if not dialog.exec():
        return
    path, _ = QFileDialog.getSaveFileName(
        window,
        f"Export page as {kind.upper()}",
        str(export_folder(window) / f"{_stem(window)}.{kind}"),
        f"{kind.upper()} (*.{kind})",
    )
    if not path:
        return
    if kind == "png":
        job = png_job(
            window, path, dialog.chosen(), dialog.scale.value(), dialog.legend.isChecked()
        )
    else:
        job = svg_job(window, path, dialog.chosen(), dialog.legend.isChecked())
    run_export(features, kind, job)


def run_export(features: QaFeatures, kind: str, job: ExportJob) -> BackgroundExport:
    """Paint and write `job` off the GUI thread (glyphscope.inspector.export.jobs), its
    progress in the status bar; a new export of the same `kind` replaces a running one, and
    QA → Cancel exports stops them all."""
    window = features.window
    remember_export_folder(window, job.files[0].path)  # the next dialog starts there
    running = features.page_exports.pop(kind, None)
    if running is not None:
        running.cancel()
    export = features.page_exports[kind] = BackgroundExport(window, job)
    name = job.files[0].path.name

    def over() -> None:
        if features.page_exports.get(kind) is export:
            del features.page_exports[kind]
        features.cancel_exports_action.setEnabled(bool(features.page_exports))

    def finished(paths: list[str]) -> None:
        over()
        shown = paths[0] if len(paths) == 1 else ", ".join(Path(p).name for p in paths)
        window.statusBar().showMessage(f"Saved {shown}", 8000)

    def failed(reason: str) -> None:
        over()
        window.statusBar().showMessage(f"Export of {name} stopped: {reason}", 10000)
        if features.interactive and reason.startswith("could not write"):
            QMessageBox.warning(window, "Export", reason)

    export.progress.connect(
        lambda text: window.statusBar().showMessage(f"Exporting {name}: {text}")
    )
    export.finished.connect(finished)
    export.failed.connect(failed)
    features.cancel_exports_action.setEnabled(True)
    export.start()
    return export


def cancel_exports(features: QaFeatures) -> None:
    for export in list(features.page_exports.values()):
        export.cancel()


def export_bundle(window: MainWindow, path: str | Path, layer_ids=None) -> None:
    """Write the explanation bundle of the current page now (layers: the visible ones); the
    Export bundle action writes the same file off the GUI thread."""
    write_now(window, bundle_job(window, path, layer_ids))


def export_selection(window: MainWindow, html_path: str | Path, layer_ids=None) -> list[Path]:
    """Write NAME.html, NAME.png and NAME.svg of the selection now; returns the paths written
    (the Export selection action writes the same files off the GUI thread)."""
    return write_now(window, selection_job(window, html_path, layer_ids))


def _export_bundle(features: QaFeatures) -> None:
    window = features.window
    if window.model is None:
        return
    path, _ = QFileDialog.getSaveFileName(
        window,
        "Export explanation bundle",
        str(export_folder(window) / f"{_stem(window)}.html"),
        "HTML (*.html)",
    )
    if path:
        run_export(features, "bundle", bundle_job(window, path))


def _export_selection(features: QaFeatures) -> None:
    window = features.window
    if window.model is None or not window.selection.indices:
        window.statusBar().showMessage("Select glyphs first (click, drag a rectangle).", 8000)
        return
    path, _ = QFileDialog.getSaveFileName(
        window,
        "Export selection",
        str(export_folder(window) / f"{_stem(window)}-selection.html"),
        "HTML with PNG and SVG beside it (*.html)",
    )
    if not path:
        return
    try:
        job = selection_job(window, path)
    except ValueError as exc:
        QMessageBox.warning(window, "Export selection", str(exc))
        return
    run_export(features, "selection", job)


def _export_text(features: QaFeatures) -> None:
    window = features.window
    if not window.path or not window.page_count:
        return
    default = str(export_folder(window) / f"{Path(window.path).stem}.txt")
    dialog = TextExportDialog(window, window.page_count, default)
    if not dialog.exec():
        return
    remember_export_folder(window, dialog.output.text())
    start_text_export(
        features,
        dialog.output.text(),
        dialog.page_indices(),
        dialog.mode.currentText(),
        dialog.separator_text(),
        dialog.bom.isChecked(),
    )


def start_text_export(features: QaFeatures, output, pages, mode, separator, bom) -> TextExport:
    """Write the document's text off the GUI thread behind a cancellable progress dialog."""
    window = features.window
    export = TextExport(window)
    total = len(pages) if pages else window.page_count
    progress = QProgressDialog("Writing text…", "Cancel", 0, total, window)
    progress.setWindowTitle("Export document text")
    progress.setMinimumDuration(300)
    progress.setAutoClose(True)
    progress.canceled.connect(export.cancel)
    export.progress.connect(lambda done, _total: progress.setValue(done))

    def done(written: int, path: str) -> None:
        progress.setValue(total)
        window.statusBar().showMessage(f"Wrote {written} pages to {path}", 10000)

    def failed(message: str) -> None:
        progress.cancel()
        if features.interactive:
            QMessageBox.warning(window, "Export document text", message)
        window.statusBar().showMessage(f"Text export failed: {message}", 10000)

    export.finished.connect(done)
    export.failed.connect(failed)
    export.cancelled.connect(lambda: window.statusBar().showMessage("Text export cancelled", 8000))
    features.text_export, features.text_progress = export, progress
    export.start(window.path, window.password, output, pages, mode, separator, bom, window.rules)
    return export


def _save_case(features: QaFeatures) -> None:
    if features.window.model is None:
        return
    request = ask_regression_case(features.window)
    if request is not None:
        features.save_regression_case(*request)
