"""The viewer's sidebar: page thumbnails and the document outline (bookmarks). It draws what
it is given and asks for thumbnails of the pages scrolled into view (`thumbnailsWanted`);
choosing a thumbnail or a bookmark emits `pageChosen`."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QListWidget,
    QListWidgetItem,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
)

from glyphscope.core.pdf.outline import OutlineEntry
from glyphscope.widgets.column_widths import fit_columns

THUMB_WIDTH = 110  # pixels
PAGE_ROLE = Qt.ItemDataRole.UserRole


class Sidebar(QTabWidget):
    pageChosen = Signal(int)
    thumbnailsWanted = Signal(list)  # page indices in view that have no thumbnail yet

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.pages = QListWidget()
        self.pages.setObjectName("thumbnails")
        self.pages.setViewMode(QListView.ViewMode.IconMode)
        self.pages.setFlow(QListView.Flow.TopToBottom)
        self.pages.setWrapping(False)
        self.pages.setMovement(QListView.Movement.Static)
        self.pages.setResizeMode(QListView.ResizeMode.Adjust)
        self.pages.setIconSize(QSize(THUMB_WIDTH, int(THUMB_WIDTH * 1.3)))
        self.pages.setUniformItemSizes(True)
        self.pages.setSpacing(4)
        self.pages.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.pages.currentRowChanged.connect(self._on_row)
        self.pages.verticalScrollBar().valueChanged.connect(lambda _v: self._want_soon.start())
        self.outline = QTreeWidget()
        self.outline.setObjectName("outline")
        self.outline.setHeaderLabels(["bookmark", "page"])
        fit_columns(self.outline, [200])
        self.outline.currentItemChanged.connect(lambda item, _old: item and self._on_bookmark(item))
        self.addTab(self.pages, "Pages")
        self.addTab(self.outline, "Outline")
        self._has_thumb: set[int] = set()
        self._quiet = False
        # Thumbnails are asked for once scrolling pauses, not for every step of a drag.
        self._want_soon = QTimer(self)
        self._want_soon.setSingleShot(True)
        self._want_soon.setInterval(80)
        self._want_soon.timeout.connect(self.request_visible)
        # More pages come into view when the list grows (its dock raised or resized).
        self.pages.viewport().installEventFilter(self)

    def set_page_count(self, count: int) -> None:
        self.pages.clear()
        self._has_thumb.clear()
        blank = QPixmap(self.pages.iconSize())
        blank.fill(QColor("#e0e0e0"))
        icon = QIcon(blank)
        for index in range(count):
            item = QListWidgetItem(icon, str(index + 1))
            item.setData(PAGE_ROLE, index)
            item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter)
            self.pages.addItem(item)
        self._want_soon.start()

    def set_outline(self, entries: list[OutlineEntry], note: str = "") -> None:
        """Show the bookmarks; with none, `note` (if any) says so in place of an empty tree."""
        self.outline.clear()
        if not entries and note:
            item = QTreeWidgetItem([note, ""])
            item.setFlags(Qt.ItemFlag.NoItemFlags)  # not a bookmark: nothing to choose
            self.outline.addTopLevelItem(item)
            item.setFirstColumnSpanned(True)
        parents: list[QTreeWidgetItem] = []
        for entry in entries:
            shown = "" if entry.page_index is None else str(entry.page_index + 1)
            item = QTreeWidgetItem([" ".join(entry.title.split()) or "(untitled)", shown])
            item.setData(0, PAGE_ROLE, entry.page_index)
            del parents[entry.depth :]
            if parents:
                parents[-1].addChild(item)
            else:
                self.outline.addTopLevelItem(item)
            parents.append(item)
        self.outline.expandToDepth(0)
        self.setTabText(1, f"Outline ({len(entries)})" if entries else "Outline")

    def show_page(self, index: int) -> None:
        """Mark the page the window shows (without emitting pageChosen)."""
        self._quiet = True
        try:
            self.pages.setCurrentRow(index)
        finally:
            self._quiet = False

    def set_thumbnail(self, index: int, image: QImage) -> None:
        item = self.pages.item(index)
        if item is None or image.isNull():
            return
        self._has_thumb.add(index)
        self._want_soon.start()  # the pages that came into view meanwhile
        room = self.pages.iconSize()
        page = QPixmap.fromImage(image).scaled(
            room, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        # Centred in an icon of the full size: the view gave a landscape page's shorter icon
        # the rest of the item as its number's box, a large block when selected.
        pixmap = QPixmap(room)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.drawPixmap(
            (room.width() - page.width()) // 2, (room.height() - page.height()) // 2, page
        )
        painter.end()
        item.setIcon(QIcon(pixmap))

    def has_thumbnail(self, index: int) -> bool:
        return index in self._has_thumb

    def request_visible(self) -> None:
        # The icon view lays its items out lazily: lay them out now, or only the first
        # item has a place yet and the others never look visible.
        if self.pages.visibleRegion().isEmpty():
            return  # behind another tab: no render thread time spent on thumbnails
        self.pages.doItemsLayout()
        viewport = self.pages.viewport().rect()
        wanted = [
            row
            for row in range(self.pages.count())
            if row not in self._has_thumb
            and self.pages.visualItemRect(self.pages.item(row)).intersects(viewport)
        ]
        if wanted:
            self.thumbnailsWanted.emit(wanted)

    def _on_row(self, row: int) -> None:
        if row >= 0 and not self._quiet:
            self.pageChosen.emit(row)

    def _on_bookmark(self, item: QTreeWidgetItem) -> None:
        page = item.data(0, PAGE_ROLE)
        if page is not None:
            self.pageChosen.emit(int(page))

    def eventFilter(self, watched, event) -> bool:
        if watched is self.pages.viewport() and event.type() in (
            QEvent.Type.Resize,
            QEvent.Type.Show,
        ):
            self._want_soon.start()
        return super().eventFilter(watched, event)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._want_soon.start()
