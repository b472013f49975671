"""Dialogs of the exports: which layers go into a picture, and how to write a document's text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.errors import PageRangeError
from glyphscope.core.output import MODES, parse_page_range

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

EXPORT_FOLDER_KEY = "export/folder"


def export_folder(window: MainWindow) -> Path:
    """The folder the last export went to, else the opened file's folder when the user may
    write there (not a read-only corpus or a mounted disc), else the user's documents."""
    remembered = window.settings.value(EXPORT_FOLDER_KEY)
    if remembered and _writable_folder(Path(str(remembered))):
        return Path(str(remembered))
    if window.path and _writable_folder(Path(window.path).parent):
        return Path(window.path).parent
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if documents and Path(documents).is_dir():
        return Path(documents)
    return Path.home()


def _writable_folder(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def remember_export_folder(window: MainWindow, written: str | Path) -> None:
    window.settings.setValue(EXPORT_FOLDER_KEY, str(Path(written).resolve().parent))


SEPARATORS = {"form feed (\\f)": "\f", "blank line": "\n\n", "newline": "\n", "custom": None}


class LayersDialog(QDialog):
    """Choose the overlay layers of an exported picture (the visible ones are preselected)."""

    def __init__(self, window: MainWindow, title: str, with_scale: bool = True) -> None:
        super().__init__(window)
        self.setWindowTitle(title)
        self.checks: dict[str, QCheckBox] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Layers drawn over the page:"))
        for layer_id, layer in window.layers.items():
            check = QCheckBox(layer.title)
            check.setChecked(layer.isVisible())
            self.checks[layer_id] = check
            layout.addWidget(check)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        layout.addWidget(rule)
        self.legend = QCheckBox("Legend beside the page")
        self.legend.setChecked(True)
        layout.addWidget(self.legend)
        self.scale = QDoubleSpinBox()
        self.scale.setRange(0.5, 8.0)
        self.scale.setSingleStep(0.5)
        self.scale.setValue(2.0)
        self.scale.setSuffix(" px per pt")
        if with_scale:
            row = QHBoxLayout()
            row.addWidget(QLabel("Resolution"))
            row.addWidget(self.scale)
            layout.addLayout(row)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def chosen(self) -> list[str]:
        return [layer_id for layer_id, check in self.checks.items() if check.isChecked()]


class TextExportDialog(QDialog):
    """Mode, page range, separator and BOM of a whole-document text export (spec §10)."""

    def __init__(self, window: MainWindow, page_count: int, default_output: str) -> None:
        super().__init__(window)
        self.setWindowTitle("Export document text")
        self.page_count = page_count
        self.mode = QComboBox()
        self.mode.addItems(MODES)
        self.pages = QLineEdit()
        self.pages.setPlaceholderText(f"all {page_count} pages, or e.g. 1-3,7")
        self.separator = QComboBox()
        self.separator.addItems(list(SEPARATORS))
        self.custom = QLineEdit()
        self.custom.setPlaceholderText("custom separator; \\n and \\f are understood")
        self.custom.setEnabled(False)
        self.separator.currentTextChanged.connect(lambda t: self.custom.setEnabled(t == "custom"))
        self.bom = QCheckBox("UTF-8 byte order mark")
        self.output = QLineEdit(default_output)
        browse = QPushButton("…")
        browse.clicked.connect(self._browse)
        output_row = QWidget()
        output_layout = QHBoxLayout(output_row)
        output_layout.setContentsMargins(0, 0, 0, 0)
        output_layout.addWidget(self.output, 1)
        output_layout.addWidget(browse)
        self.error = QLabel("")
        self.error.setStyleSheet("color:#c62828")
        form = QFormLayout(self)
        form.addRow("Mode", self.mode)
        form.addRow("Pages", self.pages)
        form.addRow("Separator", self.separator)
        form.addRow("", self.custom)
        form.addRow("", self.bom)
        form.addRow("Write to", output_row)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Write text to", self.output.text(), "Text (*.txt)"
        )
        if path:
            self.output.setText(path)

    def page_indices(self) -> list[int]:
        return parse_page_range(self.pages.text(), self.page_count)

    def separator_text(self) -> str:
        chosen = SEPARATORS[self.separator.currentText()]
        if chosen is not None:
            return chosen
        return self.custom.text().replace("\\n", "\n").replace("\\f", "\f")

    def _accept(self) -> None:
        try:
            self.page_indices()
        except PageRangeError as exc:
            self.error.setText(str(exc))
            return
        if not self.output.text().strip() or not Path(self.output.text()).parent.is_dir():
            self.error.setText("Choose a file in an existing folder.")
            return
        self.accept()
