"""The COS object browser: the document's objects as a tree (trailer, catalog, pages,
resources, fonts, XObjects, structure tree), each dictionary's keys and values, references
followed by expanding them, and a stream's decoded bytes (capped) as text or hex.

The panel draws glyphscope.core.pdf.cos records it is given; it asks for children and stream
bytes with `childrenWanted(address)` / `streamWanted(address)` and is answered through
`add_children` / `show_stream`, so the reading happens off the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.pdf.cos import CosAddress, CosNode, CosStream, as_text, hex_dump
from glyphscope.widgets.column_widths import fit_columns

NODE_ROLE = Qt.ItemDataRole.UserRole
LOADED_ROLE = Qt.ItemDataRole.UserRole + 1
NOTE_COLOUR = QColor("#c62828")
KIND_COLOURS = {"dictionary": "#1a237e", "array": "#4a148c", "stream": "#006064"}


class CosPanel(QWidget):
    childrenWanted = Signal(object)  # CosAddress
    streamWanted = Signal(object)  # CosAddress
    objectWanted = Signal(tuple)  # (number, generation) typed into "Object"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cos_panel")
        self.tree = QTreeWidget()
        self.tree.setObjectName("cos_tree")
        self.tree.setHeaderLabels(["key", "value", "note"])
        fit_columns(self.tree, [180, 320])
        self.tree.setUniformRowHeights(True)
        self.tree.itemExpanded.connect(self._on_expanded)
        self.tree.currentItemChanged.connect(lambda item, _old: self._on_current(item))
        self.goto = QLineEdit()
        self.goto.setObjectName("cos_goto")
        self.goto.setPlaceholderText("object number, e.g. 12 or 12 0")
        self.goto.returnPressed.connect(self._on_goto)
        self.view_mode = QComboBox()
        self.view_mode.addItems(["text", "hex"])
        self.view_mode.currentTextChanged.connect(lambda _mode: self._show_stream_text())
        self.stream_note = QLabel("Select a stream to see its bytes.")
        self.stream_note.setWordWrap(True)
        self.stream_view = QPlainTextEdit()
        self.stream_view.setObjectName("cos_stream")
        self.stream_view.setReadOnly(True)
        self.stream_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.stream_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        go = QPushButton("Go")
        go.clicked.connect(self._on_goto)
        top = QHBoxLayout()
        top.addWidget(QLabel("Object"))
        top.addWidget(self.goto, 1)
        top.addWidget(go)
        stream_box = QWidget()
        stream_layout = QVBoxLayout(stream_box)
        stream_layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.addWidget(self.stream_note, 1)
        row.addWidget(self.view_mode)
        stream_layout.addLayout(row)
        stream_layout.addWidget(self.stream_view, 1)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tree)
        splitter.addWidget(stream_box)
        splitter.setSizes([560, 400])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)
        self._stream: CosStream | None = None
        self._stream_address: CosAddress | None = None
        self._waiting: dict[CosAddress, list[QTreeWidgetItem]] = {}

    # -- tree -------------------------------------------------------------------------------
    def clear(self) -> None:
        self.tree.clear()
        self._waiting.clear()
        self._stream = None
        self.stream_view.clear()
        self.stream_note.setText("Select a stream to see its bytes.")

    def set_roots(self, nodes: list[CosNode]) -> None:
        self.clear()
        for node in nodes:
            self.tree.addTopLevelItem(self._item(node))

    def show_address(self, node: CosNode) -> QTreeWidgetItem:
        """Add `node` at the top (a link from another panel) and make it current, expanded."""
        for row in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(row)
            if item.data(0, NODE_ROLE).address == node.address:
                break
        else:
            item = self._item(node)
            self.tree.insertTopLevelItem(1, item)
        self.tree.setCurrentItem(item)
        self.tree.scrollToItem(item)
        item.setExpanded(True)
        return item

    def _item(self, node: CosNode) -> QTreeWidgetItem:
        item = QTreeWidgetItem([node.key, node.summary, node.note])
        item.setData(0, NODE_ROLE, node)
        item.setToolTip(1, node.summary)
        colour = KIND_COLOURS.get(node.kind)
        if colour:
            item.setForeground(1, QColor(colour))
        if node.note:
            item.setForeground(2, NOTE_COLOUR)
            item.setToolTip(2, node.note)
        if node.expandable:
            item.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
        return item

    def _on_expanded(self, item: QTreeWidgetItem) -> None:
        node: CosNode = item.data(0, NODE_ROLE)
        if item.data(0, LOADED_ROLE) or not node.expandable:
            return
        item.setData(0, LOADED_ROLE, True)
        self._waiting.setdefault(node.address, []).append(item)
        self.childrenWanted.emit(node.address)

    def add_children(self, address: CosAddress, nodes: list[CosNode] | str) -> None:
        """The children of every expanded item at `address` (a string: why there are none)."""
        for item in self._waiting.pop(address, []):
            if isinstance(nodes, str):
                failed = QTreeWidgetItem(["", nodes, ""])
                failed.setForeground(1, NOTE_COLOUR)
                item.addChild(failed)
                continue
            for node in nodes:
                item.addChild(self._item(node))
            item.setChildIndicatorPolicy(
                QTreeWidgetItem.ChildIndicatorPolicy.DontShowIndicatorWhenChildless
            )

    def item_at(self, *keys: str) -> QTreeWidgetItem | None:
        """The loaded item reached from the first root by these keys (tests, links)."""
        item = self.tree.topLevelItem(0)
        for key in keys:
            if item is None:
                return None
            item = next(
                (item.child(i) for i in range(item.childCount()) if item.child(i).text(0) == key),
                None,
            )
        return item

    def _on_goto(self) -> None:
        parts = self.goto.text().replace("R", " ").split()
        if not parts or not all(p.isdigit() for p in parts[:2]):
            return
        number = int(parts[0])
        generation = int(parts[1]) if len(parts) > 1 else 0
        self.goto.clear()
        self.objectWanted.emit((number, generation))

    # -- streams ----------------------------------------------------------------------------
    def _on_current(self, item: QTreeWidgetItem | None) -> None:
        node = item.data(0, NODE_ROLE) if item is not None else None
        if isinstance(node, CosNode) and node.kind == "stream":
            self._stream_address = node.address
            self.stream_note.setText(f"Reading {node.address.label()}…")
            self.streamWanted.emit(node.address)

    def show_stream(self, address: CosAddress, stream: CosStream | str) -> None:
        if address != self._stream_address:
            return
        if isinstance(stream, str):
            self._stream = None
            self.stream_note.setText(stream)
            self.stream_view.clear()
            return
        self._stream = stream
        filters = " ".join(stream.filters) or "no filter"
        state = "decoded" if stream.decoded else "raw (not decoded)"
        cut = f", first {len(stream.data):,} bytes shown" if stream.truncated else ""
        problem = f" — {stream.problem}" if stream.problem else ""
        self.stream_note.setText(
            f"{address.label()}: {stream.raw_length:,} bytes in the file ({filters}), "
            f"{state}{cut}{problem}"
        )
        self._show_stream_text()

    def _show_stream_text(self) -> None:
        if self._stream is None:
            return
        data = self._stream.data
        shown = hex_dump(data) if self.view_mode.currentText() == "hex" else as_text(data)
        self.stream_view.setPlainText(shown)
