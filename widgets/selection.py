"""The glyph selection shared by the page, the panes, the table and the details panel."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QObject, Signal


class GlyphSelection(QObject):
    """Indices into the current page's `PageModel.glyphs`, in the order they were chosen.

    `changed(indices, source)` fires on every change; `source` names the widget that made it
    ("page", "band", "pane:reading", "table", ...) so that widget can skip echoing it back.
    """

    changed = Signal(tuple, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._indices: tuple[int, ...] = ()

    @property
    def indices(self) -> tuple[int, ...]:
        return self._indices

    @property
    def current(self) -> int | None:
        """The glyph the details panel describes: the first selected."""
        return self._indices[0] if self._indices else None

    def set(self, indices: Iterable[int], source: str) -> None:
        indices = tuple(dict.fromkeys(int(i) for i in indices))
        if indices == self._indices:
            return
        self._indices = indices
        self.changed.emit(indices, source)

    def clear(self, source: str = "clear") -> None:
        self.set((), source)

    def refresh(self, source: str) -> None:
        """Tell every view the selection again, unchanged: they were handed a new model of
        its page (its analysis under other rules) and drew it unselected."""
        self.changed.emit(self._indices, source)
