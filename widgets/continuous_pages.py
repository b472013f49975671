"""Continuous scrolling in the page view: every page of the document stacked in one scroll area.

The current page stays at the scene origin, exactly as in single-page mode, so the overlays,
hit tests, reveals and exports that work in its coordinates need not know about the others;
the other pages are laid out around it (core/view/page_stack.py). They are blank paper, drawn
in the background, and only the pages near the viewport get an image: the view asks for them
(`pagesWanted`) and drops those scrolled far away, so a 2,000-page file costs a dozen images.
Turning to another page moves the layout, not the picture: the page that becomes current is
shifted to the origin and the scroll position with it.

The page under the viewport's centre is the one the user is reading: when scrolling brings
another page there (or the user clicks one), the view asks for it (`currentPageWanted`); the
owner turns to it and calls `show_page`, which also scrolls to a page chosen elsewhere.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
from contextlib import contextmanager

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem

from glyphscope.core.view.page_geometry import PageGeometry
from glyphscope.core.view.page_stack import PageStack, Size

# An image is kept while its pixels per point are within these factors of what the zoom wants.
RENDER_KEPT = (0.95, 1.5)
# Images of pages other than the current one kept at most (the nearest to the viewport), and
# their pixels at most: 48 M pixels are 190 MB, a few pages at a high zoom.
MAX_KEPT_PAGES = 12
MAX_KEPT_PIXELS = 48_000_000
# Pages this many viewport heights above and below the viewport are rendered ahead.
PREFETCH_VIEWPORTS = 1.0
# The current page follows the scrolling at most this often, and images are asked for once
# scrolling pauses this long.
TRACK_MS = 150
WANT_MS = 80
PAPER = QColor("#ffffff")
PAGE_NUMBER = QColor("#c8c8c8")
PAGE_NUMBER_POINTS = 36.0  # scene units: the number grows and shrinks with the page


class ItemRoot(QGraphicsItem):
    """A parent item that draws nothing (the overlay layers', the neighbouring pages')."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter, option, widget=None) -> None:  # pragma: no cover - no contents
        pass


class ContinuousPages:
    """Mixin of PageView, which declares the signals `currentPageWanted(int)` and
    `pagesWanted(list, float)` and calls `_init_continuous` once its scene exists."""

    def _init_continuous(self) -> None:
        self._stack: PageStack | None = None
        self._current = 0  # the page at the scene origin
        # Neighbouring pages with an image: index → (item, the geometry it was drawn with).
        self._neighbours: dict[int, tuple[QGraphicsPixmapItem, PageGeometry]] = {}
        self._near: set[int] = set()  # the pages asked for last
        self._neighbour_root = ItemRoot()
        self._neighbour_root.setZValue(-10)  # under the current page's overlays, as its image
        self.scene().addItem(self._neighbour_root)
        self._internal_scrolls = 0
        # The page last seen under the viewport's centre (the current page follows it when it
        # changes), and the page the view asked to turn to after a click on it.
        self._centre_seen = -1
        self._asked_for = -1
        # The current page's top is kept at the viewport's top while the zoom settles after
        # turning to it, until the user scrolls.
        self._pinned_top = False
        self._track_timer = QTimer(self)
        self._track_timer.setSingleShot(True)
        self._track_timer.setInterval(TRACK_MS)
        self._track_timer.timeout.connect(self._track_centre)
        self._want_timer = QTimer(self)
        self._want_timer.setSingleShot(True)
        self._want_timer.setInterval(WANT_MS)
        self._want_timer.timeout.connect(self._request_pages)
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.horizontalScrollBar().valueChanged.connect(lambda _value: self._want_soon())

    # -- the owner's side -----------------------------------------------------------------------
    @property
    def continuous(self) -> bool:
        return self._stack is not None

    def set_page_sizes(self, sizes: Sequence[Size] | None, current: int = 0) -> None:
        """Stack pages of these display sizes (points), `current` at the origin; None goes
        back to one page at a time. The view stays where it is on the current page."""
        with self._scrolling_internally():
            centre = self._viewport_centre()
            self._drop_neighbours()
            self._near = set()
            geometry = self.geometry
            had_page = geometry is not None and geometry.index == current
            if not sizes:
                self._stack = None
                self._current = geometry.index if geometry is not None else 0
            else:
                stack = PageStack(sizes)
                if had_page:
                    stack.set_size(current, geometry.size)
                elif geometry is not None:
                    # Another page's picture: the current one's is on its way.
                    self._forget_current_picture()
                self._stack = stack
                self._current = min(max(current, 0), len(stack) - 1)
            self._update_scene_rect()
            if self._stack is not None and not had_page:
                self._scroll_to_page(self._current)
            else:
                self.centerOn(centre)
            self._centre_seen = self.page_at_centre()
        self._want_soon()

    def show_page(self, index: int) -> None:
        """Make page `index` the current one and bring it into view, unless it is the page
        under the viewport's centre already (the user scrolled there)."""
        stack = self._stack
        if stack is None or not 0 <= index < len(stack):
            return
        self._track_timer.stop()
        clicked, self._asked_for = self._asked_for == index, -1
        with self._scrolling_internally():
            under_centre = self.page_at_centre()
            if index != self._current:
                self._make_current(index)
            if under_centre != index and not clicked:
                self._scroll_to_page(index)
            self._centre_seen = self.page_at_centre()
        self._want_soon()

    def set_page_image(self, index: int, image: QImage, geometry: PageGeometry) -> None:
        """A page near the viewport was rendered (its pixels are copied)."""
        stack = self._stack
        if stack is None or not 0 <= index < len(stack) or image.isNull():
            return
        if index == self._current:
            if self.geometry is None:
                self.set_geometry(geometry)
            if self._page_item.pixmap().isNull():
                self.set_image(image)
            return
        if index not in self._near:
            return  # scrolled away while it was rendered
        if stack.set_size(index, geometry.size):
            self._relayout()
        self._keep_neighbour(index, QPixmap.fromImage(image), geometry)

    def page_at_centre(self) -> int:
        """The page under the viewport's centre: the one the user reads. Scrolled to the end
        (or the start) of the document, the last (first) page, which may be too short to
        reach the centre."""
        stack = self._stack
        if stack is None:
            return self.geometry.index if self.geometry is not None else 0
        bar = self.verticalScrollBar()
        if bar.maximum() > bar.minimum():
            if bar.value() >= bar.maximum():
                return len(stack) - 1
            if bar.value() <= bar.minimum():
                return 0
        return stack.at(self._viewport_centre().y() + stack.top(self._current))

    def rendered_pages(self) -> list[int]:
        """The pages that have an image in the view now."""
        pages = set(self._neighbours)
        if not self._page_item.pixmap().isNull():
            pages.add(self._current)
        return sorted(pages)

    @contextmanager
    def current_page_only(self) -> Iterator[None]:
        """Hide the neighbouring pages (e.g. while the current page is exported)."""
        shown = self._neighbour_root.isVisible()
        self._neighbour_root.setVisible(False)
        try:
            yield
        finally:
            self._neighbour_root.setVisible(shown)

    # -- layout -------------------------------------------------------------------------------
    def _page_pos(self, index: int) -> QPointF:
        """Where page `index`'s top-left corner lies in the scene (the current page at 0, 0)."""
        stack = self._stack
        return QPointF(
            stack.left(index) - stack.left(self._current),
            stack.top(index) - stack.top(self._current),
        )

    def _stack_scene_rect(self) -> QRectF:
        stack = self._stack
        origin = self._page_pos(0)
        return QRectF(-stack.left(self._current), origin.y(), stack.width, stack.height)

    def _page_scene_rect(self, index: int) -> QRectF:
        width, height = self._stack.size(index)
        pos = self._page_pos(index)
        return QRectF(pos.x(), pos.y(), width, height)

    def _relayout(self) -> None:
        """Sizes changed: move the neighbours; the current page and the view stay put."""
        for index, (item, _geometry) in self._neighbours.items():
            item.setPos(self._page_pos(index))
        with self._scrolling_internally():
            centre = self._viewport_centre()
            self._update_scene_rect()
            self.centerOn(centre)

    def _make_current(self, index: int) -> None:
        """Shift the layout so page `index` sits at the origin, keeping the picture still."""
        shift = self._page_pos(index)
        centre = self._viewport_centre()
        previous = self._current
        pixmap, geometry = self._page_item.pixmap(), self.geometry
        if not pixmap.isNull() and geometry is not None and geometry.index == previous:
            self._keep_neighbour(previous, pixmap, geometry)
        kept = self._neighbours.pop(index, None)
        self._current = index
        if kept is not None:
            item, geometry = kept
            self.scene().removeItem(item)
            self._place_current(geometry)
            self._page_item.setPixmap(item.pixmap())
            self._page_item.setTransform(item.transform())
        else:
            self._forget_current_picture()
        for neighbour, (item, _geometry) in self._neighbours.items():
            item.setPos(self._page_pos(neighbour))
        self._update_scene_rect()
        self.centerOn(centre - shift)

    def _forget_current_picture(self) -> None:
        """The current page's picture and geometry are unknown until its render arrives."""
        self.geometry = None
        self._page_item.setPixmap(QPixmap())
        self._page_shadow.setRect(QRectF())

    def _keep_neighbour(self, index: int, pixmap: QPixmap, geometry: PageGeometry) -> None:
        kept = self._neighbours.get(index)
        if kept is None:
            item = QGraphicsPixmapItem(self._neighbour_root)
            item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        else:
            item = kept[0]
        width, height = self._stack.size(index)
        item.setPixmap(pixmap)
        item.setTransform(
            QTransform.fromScale(width / max(pixmap.width(), 1), height / max(pixmap.height(), 1))
        )
        item.setPos(self._page_pos(index))
        self._neighbours[index] = (item, geometry)

    def _drop_neighbours(self, keep: Container[int] = ()) -> None:
        for index in [i for i in self._neighbours if i not in keep]:
            item, _geometry = self._neighbours.pop(index)
            self.scene().removeItem(item)

    # -- scrolling ----------------------------------------------------------------------------
    @contextmanager
    def _scrolling_internally(self) -> Iterator[None]:
        """Scroll changes made inside are the view's own, not the user's scrolling."""
        self._internal_scrolls += 1
        try:
            yield
        finally:
            self._internal_scrolls -= 1

    def _viewport_centre(self) -> QPointF:
        return self.mapToScene(self.viewport().rect().center())

    def _scale(self) -> float:
        return self.transform().m22()

    def _scroll_to_page(self, index: int) -> None:
        """Show a page chosen elsewhere: its top at the viewport's top, or all of it centred
        when it is shorter than the viewport."""
        rect = self._page_scene_rect(index)
        margin = self._stack.gap / 2
        if (rect.height() + 2 * margin) * self._scale() > self.viewport().height():
            self._align_top(self._viewport_centre().x(), rect.top() - margin)
            self._pinned_top = True
        else:
            self.centerOn(rect.center())
            self._pinned_top = False

    def _align_top(self, scene_x: float, scene_y: float) -> None:
        """Centre the view on `scene_x` with `scene_y` at the viewport's top."""
        self.centerOn(scene_x, scene_y)
        # The vertical scroll value is the viewport's top in scene units times the scale.
        self.verticalScrollBar().setValue(round(scene_y * self._scale()))

    def _fit_continuous(self, mode: str, area: QRectF, zoom: float) -> None:
        with self._scrolling_internally():
            centre = self._viewport_centre()
            self.set_zoom(zoom, fit=mode)
            if mode == "page":
                self.centerOn(area.center())
                self._pinned_top = False
            elif self._pinned_top:
                self._align_top(area.center().x(), -self._stack.gap / 2)
            else:
                self.centerOn(area.center().x(), centre.y())

    def _reveal_continuous(self, scene: QRectF, margin: float) -> None:
        """Bring a scene rectangle of the current page to the middle of the view when it is
        not in view, so the page under the centre stays the one it lies on."""
        with self._scrolling_internally():
            shown = self.mapToScene(self.viewport().rect()).boundingRect()
            inset = margin / max(self._scale(), 1e-6)
            if not shown.adjusted(inset, inset, -inset, -inset).contains(scene):
                self.centerOn(scene.center())
            self._pinned_top = False
        self._want_soon()

    def _on_scrolled(self, _value: int) -> None:
        if self._stack is None:
            return
        self._want_soon()
        if self._internal_scrolls:
            return
        self._pinned_top = False
        if not self._track_timer.isActive():
            self._track_timer.start()

    def _track_centre(self) -> None:
        """Another page came under the viewport's centre: ask to make it current. Only a
        change counts, so a page clicked into currency stays current while the user scrolls
        about the page the centre was on."""
        if self._stack is None:
            return
        index = self.page_at_centre()
        if index != self._centre_seen:
            self._centre_seen = index
            if index != self._current:
                self.currentPageWanted.emit(index)

    def _is_on_current_page(self, scene_point: QPointF) -> bool:
        return self._stack is None or self.page_scene_rect().contains(scene_point)

    def _ask_for_page_at(self, scene_point: QPointF) -> None:
        """A click on another page of the stack makes that page current, where it is."""
        stack = self._stack
        index = stack.at(scene_point.y() + stack.top(self._current))
        if self._page_scene_rect(index).contains(scene_point):
            self._asked_for = index
            self.currentPageWanted.emit(index)

    # -- images near the viewport ---------------------------------------------------------------
    def _want_soon(self) -> None:
        if self._stack is not None and not self._want_timer.isActive():
            self._want_timer.start()

    def _request_pages(self) -> None:
        """Keep the images of the pages near the viewport, drop the others, and ask for the
        near pages that have none (or one too coarse for the zoom), nearest first."""
        stack = self._stack
        if stack is None:
            return
        shown = self.mapToScene(self.viewport().rect()).boundingRect()
        origin = stack.top(self._current)
        reach = shown.height() * PREFETCH_VIEWPORTS
        centre = shown.center().y() + origin
        middle = stack.at(centre)
        near = stack.between(shown.top() - reach + origin, shown.bottom() + reach + origin)
        # Tiny pages could put thousands in reach: only the nearest few can be kept anyway.
        candidates = range(
            max(near.start, middle - MAX_KEPT_PAGES), min(near.stop, middle + MAX_KEPT_PAGES + 1)
        )
        by_distance = sorted(
            (i for i in candidates if i != self._current),
            key=lambda i: abs((stack.top(i) + stack.bottom(i)) / 2 - centre),
        )
        scale = self.render_scale()
        nearest: list[int] = []
        pixels = 0.0
        for index in by_distance[:MAX_KEPT_PAGES]:
            width, height = stack.size(index)
            pixels += width * height * scale * scale
            if nearest and pixels > MAX_KEPT_PIXELS:
                break
            nearest.append(index)
        self._near = set(nearest)
        self._drop_neighbours(self._near)
        wanted = [i for i in nearest if not self._sharp_enough(i, scale)]
        self.pagesWanted.emit(wanted, scale)

    def _sharp_enough(self, index: int, scale: float) -> bool:
        kept = self._neighbours.get(index)
        if kept is None:
            return False
        have = kept[0].pixmap().width() / max(self._stack.size(index)[0], 1e-6)
        low, high = RENDER_KEPT
        return low * scale <= have <= high * scale

    def drawBackground(self, painter, rect: QRectF) -> None:
        super().drawBackground(painter, rect)
        stack = self._stack
        if stack is None:
            return
        origin = stack.top(self._current)
        font = painter.font()
        font.setPointSizeF(PAGE_NUMBER_POINTS)
        painter.setFont(font)
        painter.setPen(PAGE_NUMBER)
        # Every page is paper of its size, numbered while its image is not there: the images
        # lie on top of the nearest ones.
        for index in stack.between(rect.top() + origin, rect.bottom() + origin):
            page = self._page_scene_rect(index)
            painter.fillRect(page, PAPER)
            painter.drawText(page, Qt.AlignmentFlag.AlignCenter, str(index + 1))
