"""The page's tagged structure (§14.7, §14.8): elements in author order with their roles,
MCIDs and text; selecting an element emits its glyphs. What is written in the file (raw) and
what the engine worked out (inherited /Pg, the page from the /ParentTree, role mapping) are
shown apart and labelled."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.structure.tree import StructureNode
from glyphscope.widgets.column_widths import fit_columns

TEXT_PREVIEW = 60
UNTAGGED = "untagged"
UNTAGGED_LISTED = 1000  # untagged glyphs listed one by one under their node


@dataclass(frozen=True, slots=True)
class ElementGlyphs:
    own: tuple[int, ...]  # glyphs of the element's own MCIDs
    all: tuple[int, ...]  # its own and every descendant's, in replay order
    text: str


def mcid_glyphs(structure, glyphs) -> tuple[dict[int, tuple[int, ...]], dict]:
    """Glyphs per page MCID and per (form objgen, MCID), as the engine bucketed them (its
    StructureResult spans, visible glyphs in replay order); without a result, every painted
    page glyph carrying the MCID."""
    if structure is not None:
        order = structure.glyph_order
        page = {mcid: tuple(order[s:e]) for mcid, (s, e) in structure.spans.items()}
        forms = {key: tuple(order[s:e]) for key, (s, e) in structure.form_spans.items()}
        return page, forms
    page: dict[int, list[int]] = {}
    for index, glyph in enumerate(glyphs):
        if glyph.mcid is not None and not glyph.form_path:
            page.setdefault(glyph.mcid, []).append(index)
    return {mcid: tuple(indices) for mcid, indices in page.items()}, {}


def element_glyphs(
    node: StructureNode, page_mcids: dict, form_mcids: dict, glyphs, out: dict
) -> ElementGlyphs:
    """Fill `out[id(node)]` for the node and its descendants; return the node's entry."""
    own: list[int] = []
    for mcid in node.mcids:
        own.extend(page_mcids.get(mcid, ()))
    for key in node.form_mcids:
        own.extend(form_mcids.get(tuple(key), ()))
    everything = list(own)
    for child in node.children:
        everything.extend(element_glyphs(child, page_mcids, form_mcids, glyphs, out).all)
    everything = list(dict.fromkeys(everything))
    text = (
        node.actual_text
        if node.actual_text is not None
        else "".join(glyphs[i].text for i in everything)
    )
    entry = ElementGlyphs(tuple(dict.fromkeys(own)), tuple(everything), text)
    out[id(node)] = entry
    return entry


def node_label(node: StructureNode) -> str:
    if node.mapped_type and node.mapped_type != node.type:
        return f"{node.type} → {node.mapped_type}"
    return node.type


def node_details(node: StructureNode, entry: ElementGlyphs | None) -> str:
    def rows(pairs) -> str:
        return "".join(
            f"<tr><td style='color:#555;padding-right:8px'>{escape(k)}</td>"
            f"<td>{escape(v)}</td></tr>"
            for k, v in pairs
        )

    facts = [("type", node.type)]
    if node.mapped_type:
        facts.append(("standard type (RoleMap)", node.mapped_type))
    facts.append(("MCIDs on this page", ", ".join(map(str, node.mcids)) or "—"))
    if node.form_mcids:
        facts.append(
            ("form MCIDs (/Stm)", ", ".join(f"{f[0]} {f[1]} R: {m}" for f, m in node.form_mcids))
        )
    for label, value in (("Alt", node.alt), ("ActualText", node.actual_text), ("Lang", node.lang)):
        if value is not None:
            facts.append((label, value))
    if node.objects:
        facts.append(("object references", ", ".join(o.subtype for o in node.objects)))
    if node.objgen:
        facts.append(("object", f"{node.objgen[0]} {node.objgen[1]} R"))
    text = escape(entry.text[:400]) if entry else ""
    glyph_count = len(entry.all) if entry else 0
    return (
        f"<table cellspacing='0'>{rows(facts)}</table>"
        f"<p><b>Raw</b> <span style='color:#777'>(as written in the file)</span></p>"
        f"<table cellspacing='0'>{rows(node.raw) or '<tr><td>—</td></tr>'}</table>"
        f"<p><b>Derived</b> <span style='color:#777'>(worked out by the engine)</span></p>"
        f"<table cellspacing='0'>{rows(node.derived) or '<tr><td>—</td></tr>'}</table>"
        f"<p><b>Text</b> ({glyph_count} glyphs)</p><p style='font-family:monospace'>{text}</p>"
    )


class StructurePanel(QWidget):
    glyphsChosen = Signal(tuple)
    objectWanted = Signal(tuple)  # objgen of an element double-clicked: show it in Objects

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("structure_panel")
        self.note = QLabel("No page.")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color:#555; font-size:11px")
        self.tree = QTreeWidget()
        self.tree.setObjectName("structure_tree")
        self.tree.setHeaderLabels(["element", "MCIDs", "glyphs", "text"])
        fit_columns(self.tree, [140, 50, 46])
        self.tree.itemSelectionChanged.connect(self._on_selection)
        self.tree.itemDoubleClicked.connect(self._on_double_click)
        self.details = QTextBrowser()
        self.details.setObjectName("structure_details")
        self.details.setPlaceholderText("Select an element to see its details.")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.details)
        splitter.setSizes([300, 160])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.note)
        layout.addWidget(splitter, 1)
        self.entries: dict[int, ElementGlyphs] = {}
        self.nodes: dict[int, StructureNode] = {}
        self.untagged: tuple[int, ...] = ()

    def set_structure(self, root: StructureNode | None, model, reason: str = "") -> None:
        """`model` is the page's glyphscope.core.view.page_model.PageModel (its analysis holds the
        structure-order result); `reason` says why there is no tree."""
        self.tree.clear()
        self.entries, self.nodes = {}, {}
        self.details.clear()
        if model is None:
            self.note.setText("No page.")
            return
        glyphs = model.glyphs
        structure = model.analysis.structure
        if root is None:
            self.note.setText(reason or "This document has no structure tree (/StructTreeRoot).")
            return
        page_mcids, form_mcids = mcid_glyphs(structure, glyphs)
        element_glyphs(root, page_mcids, form_mcids, glyphs, self.entries)
        self.tree.addTopLevelItem(self._item(root))
        self.tree.expandToDepth(3)
        if structure is not None:
            self.untagged = tuple(structure.untagged)
            verdict = "trusted" if structure.trusted else "not trusted"
            self.note.setText(
                f"{len(self.untagged)} of {structure.total} visible glyphs untagged; "
                f"structure order {verdict}. Raw = from the file, derived = worked out."
            )
        else:
            tagged = {i for entry in self.entries.values() for i in entry.all}
            self.untagged = tuple(i for i in range(len(glyphs)) if i not in tagged)
            self.note.setText(reason or "No structure-order text for this page.")
        tail = QTreeWidgetItem(
            [f"Untagged glyphs ({len(self.untagged)})", "", str(len(self.untagged)), ""]
        )
        tail.setData(0, Qt.ItemDataRole.UserRole, UNTAGGED)
        tail.setText(3, _preview("".join(glyphs[i].text for i in self.untagged)))
        tail.setForeground(0, QColor("#c62828"))
        for index in self.untagged[:UNTAGGED_LISTED]:
            glyph = glyphs[index]
            child = QTreeWidgetItem([f"#{index}", "—", "1", glyph.text or "∅ unresolved"])
            child.setData(0, Qt.ItemDataRole.UserRole, (UNTAGGED, index))
            tail.addChild(child)
        self.tree.addTopLevelItem(tail)

    def _item(self, node: StructureNode) -> QTreeWidgetItem:
        entry = self.entries[id(node)]
        item = QTreeWidgetItem(
            [
                node_label(node),
                " ".join(map(str, node.mcids)),
                str(len(entry.all)),
                _preview(entry.text),
            ]
        )
        item.setData(0, Qt.ItemDataRole.UserRole, id(node))
        self.nodes[id(node)] = node
        if node.mapped_type and node.mapped_type != node.type:
            item.setToolTip(0, f"{node.type} is role-mapped to {node.mapped_type} (derived)")
        if not node.page_matches:
            item.setForeground(0, QColor("#888"))
        for child in node.children:
            item.addChild(self._item(child))
        return item

    def find_items(self, label: str) -> list[QTreeWidgetItem]:
        return self.tree.findItems(
            label, Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive, 0
        )

    def _on_selection(self) -> None:
        items = self.tree.selectedItems()
        if not items:
            return
        key = items[0].data(0, Qt.ItemDataRole.UserRole)
        if isinstance(key, tuple):  # one untagged glyph
            self.glyphsChosen.emit((key[1],))
            return
        if key == UNTAGGED:
            self.details.setHtml(
                f"<p>{len(self.untagged)} glyphs outside every referenced MCID (§9).</p>"
            )
            self.glyphsChosen.emit(self.untagged)
            return
        node = self.nodes.get(key)
        entry = self.entries.get(key)
        if node is not None:
            self.details.setHtml(node_details(node, entry))
            self.glyphsChosen.emit(entry.all if entry else ())

    def _on_double_click(self, item: QTreeWidgetItem, _column: int) -> None:
        node = self.nodes.get(item.data(0, Qt.ItemDataRole.UserRole))
        if node is not None and node.objgen:
            self.objectWanted.emit(tuple(node.objgen))


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TEXT_PREVIEW else text[: TEXT_PREVIEW - 1] + "…"
