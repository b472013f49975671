"""Marks in the text panes for the glyphs a QA layer marks on the page (rule changes, pdfium
differences, search hits), kept beside the selection's highlight rather than replacing it."""

from __future__ import annotations

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextFormat
from PySide6.QtWidgets import QTextEdit

from widgets.text_panes import utf16_offsets

# Tags our extra selections so they can be replaced without touching the selection's.
MARK_PROPERTY = QTextFormat.Property.UserProperty + 51
MARK_ALPHA = 70


def mark_panes(text_panes, layers) -> None:
    """Mark, in every pane of `text_panes` (widgets.text_panes.TextPanes), the characters of
    the glyph groups of the visible `layers` (widgets.qa_layers.MarkedGlyphsLayer)."""
    groups = [group for layer in layers if layer.isVisible() for group in layer.groups]
    for widget in getattr(text_panes, "panes", {}).values():
        pane, editor = widget.pane, widget.editor
        kept = [s for s in editor.extraSelections() if not s.format.hasProperty(MARK_PROPERTY)]
        if pane is None:
            continue
        offsets = utf16_offsets(pane.text) if groups else None
        marks = []
        for group in groups:
            colour = QColor(group.color)
            colour.setAlpha(MARK_ALPHA)
            for start, end in runs(pane.chars_of(group.glyphs)):
                marks.append(_mark(editor, int(offsets[start]), int(offsets[end]), colour))
        editor.setExtraSelections(marks + kept)


def runs(positions) -> list[tuple[int, int]]:
    """Ascending character positions → half-open runs of consecutive ones."""
    found: list[tuple[int, int]] = []
    for position in positions:
        position = int(position)
        if found and found[-1][1] == position:
            found[-1] = (found[-1][0], position + 1)
        else:
            found.append((position, position + 1))
    return found


def _mark(editor, start: int, end: int, colour: QColor) -> QTextEdit.ExtraSelection:
    """A pane highlight from Qt cursor position `start` to `end`, tagged as ours."""
    cursor = QTextCursor(editor.document())
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    fmt = QTextCharFormat()
    fmt.setBackground(colour)
    fmt.setProperty(MARK_PROPERTY, True)
    selection = QTextEdit.ExtraSelection()
    selection.cursor = cursor
    selection.format = fmt
    return selection
