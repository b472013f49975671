"""The page: a QGraphicsView whose overlay items live in PDF user space.

Scene units are display points (see core/view/page_geometry.py). The rendered image sits at the
scene origin scaled to the page's display size; `overlay_root` carries the user space →
display transform, so every overlay layer draws glyph quads and boxes in the engine's own
coordinates and none of them repeats the y flip, /Rotate, crop offset or /UserUnit. With
continuous scrolling (widgets/continuous_pages.py) the other pages lie around that one.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QStyle,
    QToolTip,
)

from glyphscope.core.view.page_geometry import PageGeometry
from glyphscope.widgets.continuous_pages import RENDER_KEPT, ContinuousPages, ItemRoot
from glyphscope.widgets.overlay_base import BOX_LABELS_ROOM_PX

MIN_ZOOM = 0.25
MAX_ZOOM = 8.0
# 100 % shows a point at its physical size on a 96 dpi screen.
PIXELS_PER_POINT = 96.0 / 72.0
CLICK_SLOP_PX = 4
# How long the outline around glyphs brought into view stays, and its margin in pixels.
FLASH_MS = 900
REVEAL_MARGIN_PX = 40


def to_qtransform(matrix) -> QTransform:
    """A PDF matrix [a b c d e f] (§8.3.4, row vectors) as a QTransform (same convention)."""
    a, b, c, d, e, f = matrix
    return QTransform(a, b, c, d, e, f)


class PageView(ContinuousPages, QGraphicsView):
    # user-space x, y under the pointer (NaN when it leaves the page)
    cursorMoved = Signal(float, float)
    # a click (not a drag) at a user-space point
    clickedAt = Signal(float, float)
    # a rubber band released: user-space rectangle x0, y0, x1, y1
    rubberBandSelected = Signal(float, float, float, float)
    zoomChanged = Signal(float)
    # the glyph under the pointer changed (-1: none)
    glyphHovered = Signal(int)
    # the image should be re-rendered at this many pixels per display point
    renderScaleWanted = Signal(float)
    # continuous scrolling: the user scrolled another page under the viewport's centre (or
    # clicked one); the owner turns to it and calls show_page
    currentPageWanted = Signal(int)
    # continuous scrolling: pages near the viewport that need an image, nearest first, and
    # the image pixels per display point the zoom wants (set_page_image takes them)
    pagesWanted = Signal(list, float)
    # a paint of the view has ended (emitted only while `watch_paints` is on)
    painted = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setBackgroundBrush(QBrush(QColor("#5b5f66")))
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.IntersectsItemShape)
        self.setMouseTracking(True)
        self.setAcceptDrops(False)  # the main window takes dropped files
        self._page_item = QGraphicsPixmapItem()
        self._page_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        # The image is a few pixels off the page's size at the zoom (stretched onto it, see
        # set_image), so every paint of the view smooth-scaled it anew: 0.6 ms of CPU a
        # paint (Qt's pooled threads), twice a page. Scaled once per zoom into Qt's cache,
        # the same pixels.
        self._page_item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self._page_item.setZValue(-10)
        self.scene().addItem(self._page_item)
        self._page_shadow = self.scene().addRect(QRectF(), Qt.PenStyle.NoPen, QColor("#ffffff"))
        self._page_shadow.setZValue(-20)
        self.overlay_root = ItemRoot()  # carries the user-space transform
        self.scene().addItem(self.overlay_root)
        self.geometry: PageGeometry | None = None
        self._zoom = 1.0
        self._fit_mode: str | None = "width"
        self._fitted_for: QSize | None = None  # the room the last fit measured
        self._fitted_page: int | None = None  # the page the last fit laid out
        self._press_pos: QPoint | None = None
        self._band_rect: QRectF | None = None
        # User-space rectangles from set_content_bounds: everything drawn, and what "fit" shows.
        self._extra_user_rect = None
        self._fit_user_rect = None
        self.rubberBandChanged.connect(self._on_rubber_band)
        # Callbacks set by the owner: user point → glyph index (or None), index → tooltip HTML.
        self.hit_test = None
        self.tooltip_for = None
        self._hovered = -1
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(120)
        self._render_timer.timeout.connect(lambda: self.renderScaleWanted.emit(self.render_scale()))
        self._flash = QGraphicsRectItem(self.overlay_root)
        pen = QPen(QColor("#ff3d00"), 3)
        pen.setCosmetic(True)
        self._flash.setPen(pen)
        self._flash.setBrush(QColor(255, 61, 0, 40))
        self._flash.setZValue(100)
        self._flash.hide()
        self._flash_timer = QTimer(self)
        self._flash_timer.setSingleShot(True)
        self._flash_timer.setInterval(FLASH_MS)
        self._flash_timer.timeout.connect(self._flash.hide)
        self._watching_paints = False
        self._init_continuous()

    # -- page -------------------------------------------------------------------------------
    def set_geometry(self, geometry: PageGeometry) -> None:
        """Lay the scene out for a page (before its image arrives, so overlays can draw)."""
        if self._stack is not None and geometry.index != self._current:
            with self._scrolling_internally():
                self._make_current(geometry.index)
        changed = self.geometry is None or (
            geometry.size != self.geometry.size or geometry.matrix != self.geometry.matrix
        )
        self._place_current(geometry)
        if self._stack is not None and self._stack.set_size(geometry.index, geometry.size):
            self._relayout()
        if changed:
            self._update_scene_rect()
            self.apply_fit()

    def _place_current(self, geometry: PageGeometry) -> None:
        self.geometry = geometry
        width, height = geometry.size
        self._page_shadow.setRect(QRectF(0, 0, width, height))
        self.overlay_root.setTransform(to_qtransform(geometry.matrix))

    def set_image(self, image: QImage) -> None:
        if self.geometry is None or image.isNull():
            self._page_item.setPixmap(QPixmap())
            return
        width, height = self.geometry.size
        self._page_item.setPixmap(QPixmap.fromImage(image))
        # The image may be a few pixels off the exact size; stretch it onto the page rect.
        self._page_item.setTransform(
            QTransform.fromScale(width / max(image.width(), 1), height / max(image.height(), 1))
        )

    def page_image_items(self) -> tuple[QGraphicsItem, ...]:
        """The items that show the current page's image and its paper (an export hides them
        when it draws a render of its own underneath)."""
        return (self._page_item, self._page_shadow)

    def clear_page(self) -> None:
        """Show no page (the document is closing); continuous scrolling waits for the next
        document's page sizes."""
        self.geometry = None
        self._fitted_page = None
        self._page_item.setPixmap(QPixmap())
        self._page_shadow.setRect(QRectF())
        self._drop_neighbours()
        self._stack, self._current, self._near = None, 0, set()

    def set_content_bounds(self, user_rect, fit_rect=None) -> None:
        """Grow the scene to show overlays outside the visible box (slug lines, MediaBox);
        `fit_rect` (user space) is what "fit page" shows: by default the page alone."""
        self._extra_user_rect = user_rect
        self._fit_user_rect = fit_rect
        self._update_scene_rect()

    def _mapped(self, user_rect) -> QRectF | None:
        if user_rect is None or self.geometry is None:
            return None
        x0, y0, x1, y1 = user_rect
        mapped = to_qtransform(self.geometry.matrix).mapRect(QRectF(x0, y0, x1 - x0, y1 - y0))
        width, height = self.geometry.size
        # Wild coordinates (a glyph at 1e9) must not shrink the page to a dot.
        if (
            not mapped.isValid()
            or mapped.width() > 20 * width + 1e4
            or mapped.height() > 20 * height + 1e4
        ):
            return None
        return mapped

    def fit_area(self) -> QRectF:
        """The scene rectangle "fit page" shows: the page and any glyphs beyond its edge."""
        width, height = self.geometry.size
        area = QRectF(0, 0, width, height)
        extra = self._mapped(self._fit_user_rect)
        return area.united(extra) if extra is not None else area

    def page_scene_rect(self, scale: float | None = None) -> QRectF:
        """The current page and every overlay drawn beyond it (slug lines, MediaBox), with a
        margin: what an export of the page shows. With `scale` (device pixels per display
        point), the margin above also holds the page boxes' labels, drawn at a fixed pixel
        size whatever the zoom: the whole scene of single-page mode at that zoom."""
        if self.geometry is not None:
            width, height = self.geometry.size
        elif self._stack is not None:
            width, height = self._stack.size(self._current)
        else:
            return QRectF()
        rect = QRectF(0, 0, width, height)
        extra = self._mapped(self._extra_user_rect)
        if extra is not None:
            rect = rect.united(extra)
        margin = 12.0
        top = margin if scale is None else max(margin, BOX_LABELS_ROOM_PX / scale)
        return rect.adjusted(-margin, -top, margin, margin)

    def _update_scene_rect(self) -> None:
        if self._set_scene_rect():
            self.apply_fit()

    def _set_scene_rect(self) -> bool:
        """Lay the scene out for the page (or pages) and this zoom; False with no page."""
        scale = self._zoom * PIXELS_PER_POINT
        if self._stack is not None:
            # The labels' room above the first page, whichever page is current (the scene's
            # top must not move when another page becomes current).
            margin = self._stack.gap
            top = max(margin, BOX_LABELS_ROOM_PX / scale)
            stack = self._stack_scene_rect().adjusted(-margin, -top, margin, margin)
            with self._scrolling_internally():  # a range change is not the user scrolling
                self.setSceneRect(self.page_scene_rect().united(stack))
        elif self.geometry is None:
            return False
        else:
            self.setSceneRect(self.page_scene_rect(scale))
        return True

    def reveal(self, user_rect, flash: bool = True) -> None:
        """Scroll so the user-space rectangle is in view, zooming out first if it does not
        fit at this zoom, and outline it briefly so the eye finds it."""
        if self.geometry is None:
            return
        x0, y0, x1, y1 = user_rect
        box = QRectF(x0, y0, x1 - x0, y1 - y0).normalized()
        scene = self.overlay_root.mapToScene(box).boundingRect()
        room = self.viewport().size()
        scale = self._zoom * PIXELS_PER_POINT
        needed_w = scene.width() * scale + 2 * REVEAL_MARGIN_PX
        needed_h = scene.height() * scale + 2 * REVEAL_MARGIN_PX
        if needed_w > room.width() or needed_h > room.height():
            fit = min(
                (room.width() - 2 * REVEAL_MARGIN_PX) / max(scene.width() * PIXELS_PER_POINT, 1e-6),
                (room.height() - 2 * REVEAL_MARGIN_PX)
                / max(scene.height() * PIXELS_PER_POINT, 1e-6),
            )
            self.set_zoom(min(self._zoom, fit))
        if self._stack is not None:
            self._reveal_continuous(scene, REVEAL_MARGIN_PX)
        else:
            self.ensureVisible(scene, REVEAL_MARGIN_PX, REVEAL_MARGIN_PX)
        if flash:
            self._flash.setRect(box.adjusted(-1, -1, 1, 1))
            self._flash.show()
            self._flash_timer.start()

    def visible_user_rect(self) -> QRectF:
        """The part of user space the viewport shows now."""
        scene = self.mapToScene(self.viewport().rect()).boundingRect()
        return self.overlay_root.mapFromScene(scene).boundingRect()

    @property
    def flashing(self) -> bool:
        return self._flash.isVisible()

    # -- coordinates ------------------------------------------------------------------------
    def user_point(self, view_pos: QPoint) -> QPointF:
        return self.overlay_root.mapFromScene(self.mapToScene(view_pos))

    def view_point(self, x: float, y: float) -> QPoint:
        return self.mapFromScene(self.overlay_root.mapToScene(QPointF(x, y)))

    # -- zoom -------------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        return self._zoom

    @property
    def fit_mode(self) -> str | None:
        """ "width" or "page" while the zoom follows the window, None for a chosen zoom."""
        return self._fit_mode

    @property
    def render_pending(self) -> bool:
        return self._render_timer.isActive()

    def render_scale(self) -> float:
        """Image pixels per display point that match the current zoom on this screen."""
        return self._zoom * PIXELS_PER_POINT * self.devicePixelRatioF()

    def set_zoom(self, zoom: float, *, fit: str | None = None) -> None:
        zoom = min(max(zoom, MIN_ZOOM), MAX_ZOOM)
        self._fit_mode = fit
        if abs(zoom - self._zoom) < 1e-9 and not self.transform().isIdentity():
            return
        self._zoom = zoom
        scale = zoom * PIXELS_PER_POINT
        self.setTransform(QTransform.fromScale(scale, scale))
        # The labels' room above the page is so many pixels: more scene at a smaller zoom.
        self._set_scene_rect()
        self.zoomChanged.emit(zoom)
        if self._wants_render():
            self._render_timer.start()
        self._want_soon()

    def _wants_render(self) -> bool:
        """The image shown is too coarse (or far too fine) for this zoom. A few per cent off
        (a fit width that now includes an overlay beyond the page) keeps the image: a second
        render of the page would cost more than the sharpness it buys."""
        pixmap = self._page_item.pixmap()
        if pixmap.isNull() or self.geometry is None:
            return True
        have = pixmap.width() / max(self.geometry.size[0], 1e-6)
        want = self.render_scale()
        return not RENDER_KEPT[0] * want <= have <= RENDER_KEPT[1] * want

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self._zoom * factor)

    def _zoom_at(self, at: QPoint, factor: float) -> None:
        """Zoom keeping the scene point under viewport point `at` there (as far as the scroll
        bars reach). The wheel event's own position, not AnchorUnderMouse's: that one reads
        the cursor's last known position, which a wheel event need not have moved."""
        before = self.mapToScene(at)
        anchor = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        try:
            self.zoom_by(factor)
        finally:
            self.setTransformationAnchor(anchor)
        moved = self.mapFromScene(before) - at
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + moved.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + moved.y())

    def fit_width(self) -> None:
        self._fit("width")

    def fit_page(self) -> None:
        self._fit("page")

    def apply_fit(self) -> None:
        if self._fit_mode:
            self._fit(self._fit_mode)

    def _fit(self, mode: str) -> None:
        if self.geometry is None:
            self._fit_mode = mode
            return
        width, height = self.geometry.size
        if mode == "page":
            area = self.fit_area().adjusted(-8, -8, 8, 8)
        else:
            # The whole scene's width (the page, its margin and anything drawn beside it), so
            # a fitted width never needs a horizontal scroll bar.
            scene = self.sceneRect()
            area = QRectF(scene.left(), 0, scene.width(), height)
        self._fitted_for = self.maximumViewportSize()
        # Fitted again, the page shown (its new analysis, a resized window or dock) keeps
        # what was at the top of the view there; another page starts at its top.
        same_page = self._fitted_page == self.geometry.index
        self._fitted_page = self.geometry.index
        top = self.mapToScene(QPoint(0, 0)).y()
        if self._stack is not None:
            self._fit_continuous(mode, area, self.fit_zoom(mode, area))
            return
        self.set_zoom(self.fit_zoom(mode, area), fit=mode)
        if mode == "page":
            self.centerOn(area.center())
        else:
            self.centerOn(area.center().x(), 0)
            bar = self.verticalScrollBar()
            bar.setValue(round(top * self.transform().m22()) if same_page else bar.minimum())

    def fit_zoom(self, mode: str, area: QRectF) -> float:
        """The zoom that fits `area` (scene units) for "width" or "page".

        Measured against the viewport as if it had no scroll bars, which showing or hiding a
        scroll bar does not change: a fit that measured the current viewport changed the zoom,
        which toggled a scroll bar, which resized the viewport and re-fitted, for ever."""
        available = self.maximumViewportSize()
        margin = 16
        by_width = (available.width() - margin) / max(area.width() * PIXELS_PER_POINT, 1e-6)
        by_height = (available.height() - margin) / max(area.height() * PIXELS_PER_POINT, 1e-6)
        if mode == "page":
            return min(by_width, by_height)
        # A page taller than the view at that width needs the vertical scroll bar: leave room.
        if self.sceneRect().height() * by_width * PIXELS_PER_POINT > available.height():
            bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
            by_width = (available.width() - margin - bar) / max(
                area.width() * PIXELS_PER_POINT, 1e-6
            )
        return by_width

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # A scroll bar appearing or going resizes the viewport but not the room a fit
        # measures; only a real resize (window, docks) re-fits.
        if self.maximumViewportSize() != self._fitted_for:
            self.apply_fit()
        self._want_soon()

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120.0
            self._zoom_at(event.position().toPoint(), 1.15**steps)
            event.accept()
            return
        super().wheelEvent(event)

    # -- painting ---------------------------------------------------------------------------
    def watch_paints(self, on: bool) -> None:
        """Emit `painted` after each paint of the view (queued: once the paint has returned)."""
        self._watching_paints = on

    def drawForeground(self, painter, rect: QRectF) -> None:
        super().drawForeground(painter, rect)
        if self._watching_paints:
            # The items are drawn: the slot runs once this paint has returned.
            QTimer.singleShot(0, self.painted.emit)

    # -- pointer ----------------------------------------------------------------------------
    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            # Middle-drag pans, as in most viewers; the left button draws a rubber band.
            self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            fake = type(event)(
                event.type(),
                event.position(),
                event.globalPosition(),
                Qt.MouseButton.LeftButton,
                Qt.MouseButton.LeftButton,
                event.modifiers(),
            )
            super().mousePressEvent(fake)
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self._press_pos = event.position().toPoint()
            self._band_rect = None
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if self.dragMode() == QGraphicsView.DragMode.ScrollHandDrag:
            fake = type(event)(
                event.type(),
                event.position(),
                event.globalPosition(),
                Qt.MouseButton.LeftButton,
                Qt.MouseButton.NoButton,
                event.modifiers(),
            )
            super().mouseReleaseEvent(fake)
            self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
            return
        band = self._band_rect
        press = self._press_pos
        super().mouseReleaseEvent(event)
        self._press_pos = None
        self._band_rect = None
        if event.button() != Qt.MouseButton.LeftButton or press is None:
            return
        moved = (event.position().toPoint() - press).manhattanLength()
        if moved <= CLICK_SLOP_PX or band is None:
            pos = event.position().toPoint()
            if not self._is_on_current_page(self.mapToScene(pos)):
                self._ask_for_page_at(self.mapToScene(pos))
                return
            point = self.user_point(pos)
            self.clickedAt.emit(point.x(), point.y())
            return
        self.select_scene_rect(band)

    def select_scene_rect(self, scene_rect: QRectF) -> None:
        """Emit the user-space rectangle behind a scene rectangle (the rubber band)."""
        user = self.overlay_root.mapFromScene(scene_rect).boundingRect()
        self.rubberBandSelected.emit(user.left(), user.top(), user.right(), user.bottom())

    def _on_rubber_band(self, viewport_rect, _from_scene, _to_scene) -> None:
        # The scene points Qt passes lag one move behind; the viewport rectangle is current.
        if not viewport_rect.isNull():
            self._band_rect = self.mapToScene(viewport_rect).boundingRect()

    def mouseMoveEvent(self, event) -> None:
        super().mouseMoveEvent(event)
        if self.geometry is None:
            return
        pos = event.position().toPoint()
        if not self._is_on_current_page(self.mapToScene(pos)):
            # Another page of the stack: its glyphs are not the ones the overlays draw.
            self._set_hovered(-1)
            QToolTip.hideText()
            self.cursorMoved.emit(float("nan"), float("nan"))
            return
        point = self.user_point(pos)
        self.cursorMoved.emit(point.x(), point.y())
        if self._press_pos is None:
            self.show_tooltip_at(point, self.viewport().mapToGlobal(pos))

    def tooltip_text_at(self, x: float, y: float) -> str:
        index = self._glyph_at(x, y)
        return "" if index < 0 or self.tooltip_for is None else self.tooltip_for(index)

    def _glyph_at(self, x: float, y: float) -> int:
        if self.hit_test is None:
            return -1
        index = self.hit_test(x, y)
        return -1 if index is None else index

    def show_tooltip_at(self, point: QPointF, global_pos: QPoint) -> None:
        index = self._glyph_at(point.x(), point.y())
        self._set_hovered(index)
        text = "" if index < 0 or self.tooltip_for is None else self.tooltip_for(index)
        if text:
            QToolTip.showText(global_pos, text, self.viewport())
        else:
            QToolTip.hideText()

    def _set_hovered(self, index: int) -> None:
        if index != self._hovered:
            self._hovered = index
            self.glyphHovered.emit(index)

    def leaveEvent(self, event) -> None:
        super().leaveEvent(event)
        self._set_hovered(-1)
        self.cursorMoved.emit(float("nan"), float("nan"))
