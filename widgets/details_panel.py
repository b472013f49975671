"""The selected glyph's full record and every decision about it."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtWidgets import QTextBrowser, QWidget

from glyphscope.core.view.explain import selection_summary
from glyphscope.core.view.page_model import PageModel


class DetailsPanel(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("details")
        self.setOpenLinks(False)
        self.show_selection(None, ())

    def show_selection(self, model: PageModel | None, indices: Iterable[int]) -> None:
        if model is None:
            self.setHtml("<p style='color:#666'>No analysed page.</p>")
            return
        self.setHtml(selection_summary(model, indices))
