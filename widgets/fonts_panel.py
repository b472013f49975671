"""Every font the page uses (§9.5–§9.7): type, base font, encoding, how its codes were decoded,
and how many stayed unresolved. Selecting a font emits the glyphs it drew."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.fonts.loader import FontInfo
from glyphscope.core.view.page_model import PageModel

COLUMNS = (
    "font",
    "type",
    "base font",
    "encoding",
    "ToUnicode",
    "glyphs",
    "decoded by",
    "unresolved",
)
FontKey = tuple[str, str]  # (form path, resource key), as PageExtraction.fonts


@dataclass(frozen=True, slots=True)
class FontUsage:
    key: FontKey
    info: FontInfo | None
    glyphs: tuple[int, ...]
    sources: tuple[tuple[str, int], ...]  # decode source → count, most used first
    unresolved: int


def font_usage(model: PageModel | None, fonts: dict[FontKey, FontInfo] | None) -> list[FontUsage]:
    """One entry per (form path, font key) that drew a glyph of `model` or was set by Tf."""
    # Grouped over the model's label codes (made in the analysis worker), not glyph by glyph:
    # a dense page's 20,000 glyphs took the GUI thread 8 ms a page in Python.
    drew: dict[FontKey, tuple[tuple[int, ...], tuple[tuple[str, int], ...], int]] = {}
    if model is not None and model.count:
        arrays, columns = model.arrays, model.glyphs
        width = max(len(arrays.font_key.labels), 1)
        pairs = arrays.form_path.codes * width + arrays.font_key.codes
        order = np.argsort(pairs, kind="stable")  # each font's glyphs in drawing order
        _, starts = np.unique(pairs[order], return_index=True)
        for indices in np.split(order, starts[1:]):
            first = int(indices[0])
            codes = arrays.decode_source.codes[indices]
            distinct, first_seen, counts = np.unique(codes, return_index=True, return_counts=True)
            # Most used first, ties in order of first use (Counter.most_common's order).
            ranked = np.lexsort((first_seen, -counts))
            sources = tuple(
                (columns.decode_source[int(indices[first_seen[r]])], int(counts[r]))
                for r in ranked.tolist()
            )
            key = (columns.form_path[first], columns.font_key[first])
            unresolved = int(np.count_nonzero(arrays.unresolved[indices]))
            drew[key] = (tuple(indices.tolist()), sources, unresolved)
    usage = []
    for key in sorted(set(drew) | set(fonts or {})):
        indices, sources, unresolved = drew.get(key, ((), (), 0))
        usage.append(FontUsage(key, (fonts or {}).get(key), indices, sources, unresolved))
    return usage


class FontsPanel(QWidget):
    glyphsChosen = Signal(tuple)
    # (form path, resource key) of a font double-clicked: open it in the object browser
    fontObjectWanted = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fonts_panel")
        self.tree = QTreeWidget()
        self.tree.setObjectName("fonts_tree")
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(False)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.itemSelectionChanged.connect(self._on_selection)
        self.tree.itemDoubleClicked.connect(self._on_double_click)
        self.tree.setToolTip("Double-click a font to show its dictionary in Objects")
        self.note = QLabel("No page.")
        self.note.setStyleSheet("color:#555; font-size:11px")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.note)
        layout.addWidget(self.tree, 1)
        self.usage: list[FontUsage] = []

    def set_fonts(self, model: PageModel | None, fonts) -> None:
        self.tree.clear()
        self.usage = font_usage(model, fonts)
        for usage in self.usage:
            form_path, key = usage.key
            info = usage.info
            kind = "—"
            if info is not None:
                kind = info.subtype + (
                    f" / {info.descendant_subtype}" if info.descendant_subtype else ""
                )
            sources = ", ".join(f"{source} {count}" for source, count in usage.sources)
            item = QTreeWidgetItem(
                [
                    f"/{key}" + (f"  in {form_path}" if form_path else ""),
                    kind,
                    info.base_font if info else "",
                    info.encoding if info else "",
                    ("yes" if info.has_to_unicode else "no") if info else "",
                    str(len(usage.glyphs)),
                    sources,
                    str(usage.unresolved),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, usage.glyphs)
            if usage.unresolved:
                item.setForeground(7, QColor("#c62828"))
            if info is not None and info.problems:
                item.setToolTip(0, "\n".join(info.problems))
            self.tree.addTopLevelItem(item)
        total = sum(u.unresolved for u in self.usage)
        self.note.setText(f"{len(self.usage)} fonts; {total} unresolved glyphs on the page.")

    def choose(self, row: int) -> None:
        """Select font `row` as a user would."""
        self.tree.setCurrentItem(self.tree.topLevelItem(row))

    def _on_selection(self) -> None:
        items = self.tree.selectedItems()
        if items:
            self.glyphsChosen.emit(tuple(items[0].data(0, Qt.ItemDataRole.UserRole) or ()))

    def _on_double_click(self, item: QTreeWidgetItem, _column: int) -> None:
        row = self.tree.indexOfTopLevelItem(item)
        if 0 <= row < len(self.usage):
            self.fontObjectWanted.emit(*self.usage[row].key)
