"""Continuous scrolling (View ▸ Continuous scrolling): the wheel scrolls on from the end of a
page to the top of the next, and from the top of a page back to the bottom of the previous.
The view still holds one page at a time (its overlays are the engine's reading of that page),
so the next page follows the last instead of sitting below it."""

from __future__ import annotations

from PySide6.QtCore import QObject

CONTINUOUS_KEY = "view/continuous"


class ContinuousScrolling(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self._show_end: bool | None = None  # where the next page shown should be scrolled to
        window.view.pageFlipWanted.connect(self._flip)
        window.pageReady.connect(self._on_page_ready)

    def set_enabled(self, on: bool) -> None:
        self.window.view.continuous = bool(on)
        if self.window.persist:
            self.window.settings.setValue(CONTINUOUS_KEY, bool(on))

    def _flip(self, direction: int) -> None:
        window = self.window
        target = window.page_index + direction
        if not 0 <= target < window.page_count:
            return
        self._show_end = direction < 0
        window.go_to_page(target)

    def _on_page_ready(self, _index: int) -> None:
        if self._show_end is not None:
            self.window.view.scroll_to_end(self._show_end)
            self._show_end = None
