"""Read-only text panes that know which glyph wrote each character (linked to the page).

Each pane shows the selection's highlight and, beneath it, named sets of marks that other
tools own (`set_marks(name, groups)` / `clear_marks(name)`): the QA layers mark rule changes,
pdfium differences and search hits this way without touching the selection's highlight.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.view.page_model import PANE_TITLES, PaneText, utf16_offsets

HIGHLIGHT = QColor("#ffd400")
# Marks are translucent so the text stays readable and overlapping marks both show.
MARK_ALPHA = 70
# The format property naming the mark set an extra selection belongs to.
MARK_PROPERTY = QTextFormat.Property.UserProperty + 51


class TextPane(QWidget):
    # glyph indices behind the text the user selected
    glyphsSelected = Signal(list)

    def __init__(self, name: str, wrap: bool = False, parent: QWidget | None = None) -> None:
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
        self.set_wrap(wrap)
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
        self._selected: list[tuple[int, int]] = []
        # mark name → (character runs, colour) pairs, drawn beneath the selection
        self._marks: dict[str, list[tuple[list[tuple[int, int]], QColor]]] = {}
        # Each mark set's groups as given and its extra selections, made once: a dense page's
        # search hits are thousands of runs, too many to remake at every selection change.
        self._mark_groups: dict[str, list] = {}
        self._mark_selections: dict[str, list] = {}
        self._quiet = False
        self.editor.selectionChanged.connect(self._on_selection_changed)
        self.editor.viewport().installEventFilter(self)

    @property
    def pane(self) -> PaneText | None:
        return self._pane

    def set_wrap(self, on: bool) -> None:
        """Soft-wrap long lines; off by default, so every line on screen is a line of text."""
        self.editor.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth if on else QPlainTextEdit.LineWrapMode.NoWrap
        )

    def set_pane(self, pane: PaneText | None) -> None:
        self._quiet = True
        try:
            self._pane = pane
            text = pane.text if pane is not None else ""
            self._offsets = pane.offsets if pane is not None else utf16_offsets("")
            self.editor.setPlainText(text)
            # Marks and the selection name glyphs of the page shown before.
            self._selected = []
            self._marks.clear()
            self._mark_groups.clear()
            self._mark_selections.clear()
            self.editor.setExtraSelections([])
            note = pane.note if pane is not None else ""
            self.note.setText(note)
            self.note.setVisible(bool(note))
        finally:
            self._quiet = False

    def highlight(self, glyph_indices, move_cursor: bool = True) -> list[tuple[int, int]]:
        """Highlight the characters written by these glyphs; returns the Python char ranges.
        `move_cursor` False keeps the user's text selection (the pane they selected in)."""
        if self._pane is None:
            return []
        ranges = _runs(self._pane.chars_of(glyph_indices))
        self._selected = ranges
        self._show_highlights()
        if ranges and move_cursor:
            cursor = QTextCursor(self.editor.document())
            cursor.setPosition(int(self._offsets[ranges[0][0]]))
            self._quiet = True
            try:
                self.editor.setTextCursor(cursor)
                self.editor.ensureCursorVisible()
            finally:
                self._quiet = False
        return ranges

    def set_marks(self, name: str, groups) -> None:
        """Replace the mark set `name` by `groups`: (glyph indices, colour) pairs whose
        characters are tinted beneath the selection's highlight."""
        if self._pane is None:
            return
        groups = [(tuple(glyphs), colour) for glyphs, colour in groups]
        if groups == self._mark_groups.get(name, []):
            return  # the same marks again (every analysis marks the panes anew)
        marks = [(_runs(self._pane.chars_of(glyphs)), QColor(colour)) for glyphs, colour in groups]
        self._forget_marks(name)
        if marks:
            self._marks[name] = marks
            self._mark_groups[name] = groups
            selections = []
            for runs, colour in marks:
                tint = _mark_format(colour, name)
                selections += [self._extra(start, end, tint) for start, end in runs]
            self._mark_selections[name] = selections
        self._show_highlights()

    def clear_marks(self, name: str) -> None:
        if self._forget_marks(name):
            self._show_highlights()

    def _forget_marks(self, name: str) -> bool:
        self._mark_groups.pop(name, None)
        self._mark_selections.pop(name, None)
        return self._marks.pop(name, None) is not None

    def marked(self, name: str) -> list[tuple[int, int]]:
        """The Python character runs of mark set `name`, in the order set."""
        return [run for runs, _colour in self._marks.get(name, ()) for run in runs]

    def _show_highlights(self) -> None:
        selections = [s for marks in self._mark_selections.values() for s in marks]
        # Last, so the selection paints over any mark.
        highlight = QTextCharFormat()
        highlight.setBackground(HIGHLIGHT)
        selections += [self._extra(start, end, highlight) for start, end in self._selected]
        self.editor.setExtraSelections(selections)

    def _extra(self, start: int, end: int, fmt: QTextCharFormat):
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(int(self._offsets[start]))
        cursor.setPosition(int(self._offsets[end]), QTextCursor.MoveMode.KeepAnchor)
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = fmt
        return selection

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


def _mark_format(colour: QColor, mark: str) -> QTextCharFormat:
    """The tint of mark set `mark` in `colour`, named so a test can tell marks apart."""
    tint = QColor(colour)
    tint.setAlpha(MARK_ALPHA)
    fmt = QTextCharFormat()
    fmt.setBackground(tint)
    fmt.setProperty(MARK_PROPERTY, mark)
    return fmt


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
            pane = TextPane(name)
            pane.glyphsSelected.connect(lambda glyphs, n=name: self.glyphsSelected.emit(n, glyphs))
            self.panes[name] = pane
            self.splitter.addWidget(pane)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)

    def set_panes(self, panes: dict[str, PaneText] | None) -> None:
        for name, widget in self.panes.items():
            widget.set_pane(None if panes is None else panes.get(name))

    def highlight(self, glyph_indices, source: str = "") -> None:
        """Highlight in every pane; the pane named by `source` ("pane:NAME") keeps its cursor,
        so the text the user is selecting there stays selected for Ctrl+C."""
        for name, widget in self.panes.items():
            widget.highlight(glyph_indices, move_cursor=source != f"pane:{name}")

    def set_wrap(self, on: bool) -> None:
        for widget in self.panes.values():
            widget.set_wrap(on)

    def set_marks(self, name: str, groups) -> None:
        """Mark set `name` in every pane: (glyph indices, colour) pairs (see TextPane)."""
        groups = list(groups)
        for widget in self.panes.values():
            widget.set_marks(name, groups)

    def clear_marks(self, name: str) -> None:
        for widget in self.panes.values():
            widget.clear_marks(name)
