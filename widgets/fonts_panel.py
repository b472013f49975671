"""Every font the page uses (§9.5–§9.7): type, base font, encoding, how its codes were decoded,
and how many stayed unresolved. Selecting a font emits the glyphs it drew."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

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

from glyphscope.core.columns import GlyphColumns
from glyphscope.core.fonts.loader import FontInfo
from glyphscope.core.records import DecodeSource, Glyph

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


def font_usage(glyphs: Sequence[Glyph], fonts: dict[FontKey, FontInfo] | None) -> list[FontUsage]:
    """One entry per (form path, font key) that drew a glyph or was set by Tf."""
    # Read from the columns, not the records: a dense page's 20,000 Glyph records took the
    # GUI thread a quarter of a second to make.
    columns = glyphs if isinstance(glyphs, GlyphColumns) else GlyphColumns.from_glyphs(glyphs)
    members: dict[FontKey, list[int]] = defaultdict(list)
    for index, key in enumerate(zip(columns.form_path, columns.font_key, strict=True)):
        members[key].append(index)
    keys = sorted(set(members) | set(fonts or {}))
    sources_of, texts = columns.decode_source, columns.text
    usage = []
    for key in keys:
        indices = members.get(key, [])
        sources = Counter(sources_of[i] for i in indices)
        unresolved = sum(
            1 for i in indices if sources_of[i] == DecodeSource.UNRESOLVED or not texts[i]
        )
        usage.append(
            FontUsage(
                key,
                (fonts or {}).get(key),
                tuple(indices),
                tuple(sources.most_common()),
                unresolved,
            )
        )
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

    def set_fonts(self, glyphs, fonts) -> None:
        self.tree.clear()
        self.usage = font_usage(glyphs if glyphs is not None else (), fonts)
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
