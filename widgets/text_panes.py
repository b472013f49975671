"""Read-only text panes that know which glyph wrote each character (linked to the page)."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from widgets.page_model import PANE_TITLES, PaneText, utf16_offsets

HIGHLIGHT = QColor("#ffd400")


class TextPane(QWidget):
    # glyph indices behind the text the user selected
    glyphsSelected = Signal(list)

    def __init__(self, name: str, wrap: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.setObjectName(f"pane_{name}")
        self.title = QLabel(f"<b>{PANE_TITLES.get(name, name)}</b>")
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#555; font-size:11px")
        self.note.hide()
        self.editor = QPlainTextEdit()
        self.editor.setReadOnly(True)
        self.editor.setObjectName(f"editor_{name}")
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth if wrap else QPlainTextEdit.LineWrapMode.NoWrap
        )
        self.editor.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.note)
        layout.addWidget(self.editor)
        self._pane: PaneText | None = None
        self._offsets = np.zeros(1, dtype=np.int64)
        self._quiet = False
        self.editor.selectionChanged.connect(self._on_selection_changed)
        self.editor.viewport().installEventFilter(self)

    @property
    def pane(self) -> PaneText | None:
        return self._pane

    def set_pane(self, pane: PaneText | None) -> None:
        self._quiet = True
        try:
            self._pane = pane
            text = pane.text if pane is not None else ""
            self._offsets = pane.offsets if pane is not None else utf16_offsets("")
            self.editor.setPlainText(text)
            self.editor.setExtraSelections([])
            note = pane.note if pane is not None else ""
            self.note.setText(note)
            self.note.setVisible(bool(note))
        finally:
            self._quiet = False

    def highlight(self, glyph_indices) -> list[tuple[int, int]]:
        """Highlight the characters written by these glyphs; returns the Python char ranges."""
        if self._pane is None:
            return []
        positions = self._pane.chars_of(glyph_indices)
        ranges = _runs(positions)
        selections = []
        fmt = QTextCharFormat()
        fmt.setBackground(HIGHLIGHT)
        for start, end in ranges:
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(int(self._offsets[start]))
            cursor.setPosition(int(self._offsets[end]), QTextCursor.MoveMode.KeepAnchor)
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = fmt
            selections.append(selection)
        self.editor.setExtraSelections(selections)
        if ranges:
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(int(self._offsets[ranges[0][0]]))
            self._quiet = True
            try:
                self.editor.setTextCursor(cursor)
                self.editor.ensureCursorVisible()
            finally:
                self._quiet = False
        return ranges

    def select_chars(self, start: int, end: int) -> None:
        """Select Python characters [start, end) as a user would (emits glyphsSelected)."""
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(int(self._offsets[start]))
        cursor.setPosition(int(self._offsets[end]), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)

    def eventFilter(self, watched, event) -> bool:
        # A plain click on a character selects the glyph that wrote it (a drag selects text).
        if (
            event.type() == QEvent.Type.MouseButtonRelease
            and event.button() == Qt.MouseButton.LeftButton
            and self._pane is not None
            and not self.editor.textCursor().hasSelection()
        ):
            position = self.editor.cursorForPosition(event.position().toPoint()).position()
            index = int(np.searchsorted(self._offsets, position, side="right")) - 1
            if 0 <= index < len(self._pane.char_glyphs) and self._pane.char_glyphs[index] >= 0:
                self.glyphsSelected.emit([int(self._pane.char_glyphs[index])])
        return super().eventFilter(watched, event)

    def _on_selection_changed(self) -> None:
        if self._quiet or self._pane is None:
            return
        cursor = self.editor.textCursor()
        if not cursor.hasSelection():
            return
        start = int(np.searchsorted(self._offsets, cursor.selectionStart(), side="left"))
        end = int(np.searchsorted(self._offsets, cursor.selectionEnd(), side="left"))
        glyphs = self._pane.glyphs_in(start, end)
        if glyphs:
            self.glyphsSelected.emit(glyphs)


def _runs(positions: np.ndarray) -> list[tuple[int, int]]:
    """Sorted positions → half-open runs of consecutive positions."""
    if not len(positions):
        return []
    breaks = np.flatnonzero(np.diff(positions) != 1) + 1
    starts = np.concatenate([[0], breaks])
    ends = np.concatenate([breaks, [len(positions)]])
    pairs = zip(starts, ends, strict=True)
    return [(int(positions[s]), int(positions[e - 1]) + 1) for s, e in pairs]


class TextPanes(QWidget):
    """The text panes side by side; `panes[name]` for each mode of PANE_TITLES."""

    # pane name, glyph indices
    glyphsSelected = Signal(str, list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.panes: dict[str, TextPane] = {}
        for name in PANE_TITLES:
            pane = TextPane(name, wrap=name in ("reading", "structure"))
            pane.glyphsSelected.connect(lambda glyphs, n=name: self.glyphsSelected.emit(n, glyphs))
            self.panes[name] = pane
            self.splitter.addWidget(pane)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

    def set_panes(self, panes: dict[str, PaneText] | None) -> None:
        for name, widget in self.panes.items():
            widget.set_pane(None if panes is None else panes.get(name))

    def highlight(self, glyph_indices) -> None:
        for widget in self.panes.values():
            widget.highlight(glyph_indices)
