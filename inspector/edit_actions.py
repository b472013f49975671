"""The Edit menu (Copy, Select all) and which widget a navigation key belongs to.

Copy and Select all act on the focused widget: a text widget copies its selected text, a table
or tree its selected rows, and the page view (or nothing focused) the selected glyphs' text in
reading order. Home/End/PgUp/PgDown are page turns for the window, but inside a focused text
widget, list or field they move there: the window's filter claims them for that widget before
the page shortcuts see them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
)

from glyphscope.core.view.explain import selection_text
from glyphscope.widgets.clipboard import copy_selected_rows

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

TEXT_WIDGETS = (QLineEdit, QPlainTextEdit, QTextEdit)
# Widgets that move inside themselves with the navigation keys.
NAVIGABLE = (*TEXT_WIDGETS, QAbstractItemView, QAbstractSpinBox, QComboBox)
NAVIGATION_KEYS = {
    Qt.Key.Key_Home,
    Qt.Key.Key_End,
    Qt.Key.Key_PageUp,
    Qt.Key.Key_PageDown,
}


def page_selection_text(window: MainWindow) -> str:
    """The selected glyphs' reading-order text (spec §6), with its spaces and line breaks."""
    model = window.model
    if model is None or not window.selection.indices:
        return ""
    return selection_text(model.panes["reading"], window.selection.indices)


def copy(window: MainWindow) -> str:
    """Copy from the focused widget (see the module docstring); returns what was copied."""
    focus = QApplication.focusWidget()
    if isinstance(focus, TEXT_WIDGETS):
        focus.copy()
        return QGuiApplication.clipboard().text()
    if isinstance(focus, QAbstractItemView):
        return copy_selected_rows(focus)
    return copy_page_selection(window)


def copy_page_selection(window: MainWindow) -> str:
    text = page_selection_text(window)
    if text:
        QGuiApplication.clipboard().setText(text)
    return text


def select_all(window: MainWindow) -> None:
    focus = QApplication.focusWidget()
    if isinstance(focus, (*TEXT_WIDGETS, QAbstractItemView)):
        focus.selectAll()
    elif window.model is not None:
        window.selection.set(range(window.model.count), "select-all")


class NavigationKeys(QObject):
    """Claims the navigation keys (and Copy / Select all) for a focused widget that moves with
    them, so the window's page shortcuts only see them on the page view or with no editor."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        focus = QApplication.focusWidget()
        if not isinstance(focus, NAVIGABLE):
            return False
        plain = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if (
            event.key() in NAVIGATION_KEYS
            and plain in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier)
        ) or (
            isinstance(focus, TEXT_WIDGETS)
            and (
                event.matches(QKeySequence.StandardKey.Copy)
                or event.matches(QKeySequence.StandardKey.SelectAll)
            )
        ):
            event.accept()
            return True
        return False


def install_navigation_keys(window: MainWindow) -> NavigationKeys:
    """Filter the window's shortcut overrides (a key the focus widget leaves reaches it)."""
    keys = NavigationKeys(window)
    window.installEventFilter(keys)
    return keys
