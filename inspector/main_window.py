"""The main window: the page view in the middle, panels in docks, one document at a time.

Extension points (used by the second inspector issue):
- `add_panel(panel_id, title, widget, area)` adds a dock, a View-menu toggle and state
  persistence; `panels[panel_id]` gives it back.
- `selection` (glyphscope.widgets.selection.GlyphSelection): `set(indices, source)`, `indices`,
  `current`, and `changed(indices, source)`.
- signals: `documentOpened(path, page_count)`, `documentClosed()`, `pageChanged(index)`,
  `analysisReady(index, PageModel)`, `pageShown(index)` (image and overlays drawn, the panes
  may follow), `pageReady(index)` (image, overlays and panes drawn), `errorShown(message)`,
  `documentFailed(message)`.
- `add_layer(layer)` adds an overlay layer (a glyphscope.widgets.overlay_base.OverlayLayer).
- `set_rules(rules)` re-analyses the current page with other thresholds and emits
  `rulesChanged(rules)`.
- `restore_layout()` restores the saved docks once every panel exists (call it after adding
  panels; the first show calls it otherwise).
- `render_worker` / `analysis_worker` (inspector.worker_process.WorkerProcess: worker
  processes) own pdfium and the core Document; run more work there with
  `submit(kind, job, *args)` using a kind of your own, e.g.
  `render_worker.submit("pdfium_text", job, window.pdfium)` where `job` is a module-level
  function (jobs, arguments and results are pickled) that reads `window.pdfium.document` in
  the worker; listen to `jobFinished` / `jobFailed`.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QByteArray, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.rules import Rules
from glyphscope.core.text.visible import GlyphStatus
from glyphscope.core.view.explain import glyph_tooltip
from glyphscope.core.view.page_model import PageModel
from glyphscope.core.view.text_provenance import linked_glyphs
from glyphscope.inspector.actions import build_actions
from glyphscope.inspector.session.analysis import KEPT_SELECTION
from glyphscope.inspector.session.page import PageSession
from glyphscope.inspector.settings import open_settings, read_bool, recent_files
from glyphscope.inspector.sidebar import install_sidebar
from glyphscope.inspector.worker_process import WorkerProcess
from glyphscope.inspector.workers.analysis import CoreOwner
from glyphscope.inspector.workers.page_ahead import PageAhead
from glyphscope.inspector.workers.page_timing import PageTiming
from glyphscope.inspector.workers.render import PdfiumOwner, RenderedPage
from glyphscope.widgets.details_panel import DetailsPanel
from glyphscope.widgets.glyph_table import GlyphTable
from glyphscope.widgets.layers_panel import LayersPanel
from glyphscope.widgets.overlay_base import OverlayLayer
from glyphscope.widgets.overlay_layers import (
    GlyphQuadsLayer,
    HoverLayer,
    SelectionLayer,
)
from glyphscope.widgets.page_view import PageView
from glyphscope.widgets.selection import GlyphSelection
from glyphscope.widgets.text_layers import ALL_LAYER_TYPES
from glyphscope.widgets.text_panes import TextPanes

# Selections made on the page itself, or emptied, leave the view where it is.
STAY_PUT_SOURCES = frozenset(
    {"page", "band", "page-change", "escape", "clear", "select-all", KEPT_SELECTION}
)

# The page view's least share of the window's width and height: a window made small (a
# 1024×700 screen) takes the room from the docks beside and under the page, in proportion.
PAGE_SHARE = 0.45


class MainWindow(PageSession, QMainWindow):
    documentOpened = Signal(str, int)
    pageChanged = Signal(int)
    analysisReady = Signal(int, object)
    pageShown = Signal(int)
    pageReady = Signal(int)
    errorShown = Signal(str)
    documentFailed = Signal(str)
    rulesChanged = Signal(object)  # Rules
    documentClosed = Signal()  # the shown document's data is gone (a new one may be loading)
    hiddenTextReady = Signal(int)  # page index: the hidden-text pixel test has answered

    def __init__(self, *, persist: bool = True) -> None:
        super().__init__()
        self.setWindowTitle("Glyphscope")
        self.setObjectName("glyphscope_main")
        self.setAcceptDrops(True)
        self.setDockOptions(
            QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks
        )
        self.settings = open_settings()
        self.persist = persist
        self.rules = Rules()
        self.path: str | None = None
        self.password: str | None = None
        self.page_count = 0
        self.page_index = 0
        self.model: PageModel | None = None
        # The model the overlays draw: the page's view model until its panes' part arrives.
        self._view_model: PageModel | None = None
        # The complete model whose panes wait for its overlays' paint (AnalysisSession).
        self._held_model: PageModel | None = None
        self.rendered: RenderedPage | None = None
        self._models: OrderedDict[tuple[int, Rules], PageModel] = OrderedDict()
        self._waiting: set[str] = set()
        self._pending_page = 0
        self._core_error = ""
        self._pdfium_refusal = ""
        self._unrenderable: dict[int, str] = {}  # page → why pdfium drew nothing
        self.page_failures: dict[str, str] = {}  # "render"/"analysis" → what failed
        self._render_generation = self._shown_generation = 0
        self._render_request: tuple[int, float] = (-1, 0.0)  # the last render asked for
        self._open_started = 0.0
        # How the page shown last got to the screen (inspector.workers.page_timing).
        self.page_timing: PageTiming | None = None
        self._layout_restored = False
        # Asked for a password: (path, wrong_before) → password or None (cancelled).
        self.password_provider: Callable[[str, bool], str | None] = self._ask_password

        self._pdfium = PdfiumOwner()
        self._core = CoreOwner()
        self.render_worker: WorkerProcess = WorkerProcess("pdfium-render", self)
        self.analysis_worker: WorkerProcess = WorkerProcess("core-analysis", self)
        self.render_worker.jobFinished.connect(self._on_render_job)
        self.render_worker.jobFailed.connect(self._on_render_failed)
        self.analysis_worker.jobFinished.connect(self._on_analysis_job)
        self.analysis_worker.jobFailed.connect(self._on_analysis_failed)
        self.ahead = PageAhead(self)

        self.view: PageView = PageView()
        self.view.setObjectName("page_view")
        self._panes_timer = QTimer(self)
        self._panes_timer.setSingleShot(True)
        self._panes_timer.timeout.connect(self._panes_may_go)
        self.view.painted.connect(self._panes_may_go)
        self.banner = QLabel()
        self.banner.setObjectName("error_banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(
            "background:#fdecea; color:#611a15; border:1px solid #f5c2c0; padding:6px;"
        )
        self.banner.hide()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        self.setCentralWidget(central)

        self.selection: GlyphSelection = GlyphSelection(self)
        self.layers: dict[str, OverlayLayer] = {}
        self.selection_layer = SelectionLayer()
        self.selection_layer.setParentItem(self.view.overlay_root)
        self.hover_layer = HoverLayer()
        self.hover_layer.setParentItem(self.view.overlay_root)
        self.layers_panel = LayersPanel()
        self.details = DetailsPanel()
        self.text_panes = TextPanes()
        self.glyph_table = GlyphTable()
        self.panels: dict[str, QDockWidget] = {}
        for layer_type in ALL_LAYER_TYPES:
            self.add_layer(layer_type())

        made = build_actions(self)
        self.actions_by_name = made.by_name
        self.file_session = made.file_session
        self.continuous = made.continuous
        self.navigation_keys = made.navigation_keys
        self.recent_menu = made.recent_menu
        self.panels_menu = made.panels_menu
        self.page_spin = made.page_spin
        self.page_total = made.page_total
        self.add_panel(
            "layers", "Layers", self.layers_panel, Qt.DockWidgetArea.LeftDockWidgetArea, "F2"
        )
        self.add_panel(
            "details", "Details", self.details, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+F3"
        )
        self.add_panel(
            "text", "Text", self.text_panes, Qt.DockWidgetArea.BottomDockWidgetArea, "F4"
        )
        self.add_panel(
            "glyphs",
            "Glyph table",
            self.glyph_table,
            Qt.DockWidgetArea.BottomDockWidgetArea,
            "Ctrl+F5",
        )
        self.tabifyDockWidget(self.panels["text"], self.panels["glyphs"])
        self.panels["text"].raise_()
        self.sidebar = install_sidebar(self)  # page thumbnails and the outline

        self.view.hit_test = self.glyph_at
        self.view.tooltip_for = self.tooltip_for
        self.view.cursorMoved.connect(self._on_cursor)
        self.view.glyphHovered.connect(
            lambda index: self.hover_layer.set_selected(() if index < 0 else (index,))
        )
        self.view.clickedAt.connect(self._on_click)
        self.view.rubberBandSelected.connect(self._on_band)
        self.view.zoomChanged.connect(self._on_zoom)
        self.view.renderScaleWanted.connect(self._rerender)
        self.layers_panel.layerToggled.connect(self.set_layer_visible)
        self.layers_panel.colourByChanged.connect(self._on_colour_by)
        self.text_panes.glyphsSelected.connect(
            lambda name, g: self.selection.set(g, f"pane:{name}")
        )
        self.glyph_table.glyphsSelected.connect(lambda g: self.selection.set(g, "table"))
        self.selection.changed.connect(self._on_selection)
        self._reveal_when_ready: tuple[int, ...] = ()
        self.pageReady.connect(self._reveal_pending)

        self.cursor_label = QLabel()
        self.zoom_label = QLabel()
        self.state_label = QLabel()
        for label in (self.state_label, self.cursor_label, self.zoom_label):
            self.statusBar().addPermanentWidget(label)
        self.resize(1500, 950)
        self.resizeDocks(
            [self.panels["layers"], self.panels["details"]], [300, 380], Qt.Orientation.Horizontal
        )
        self.resizeDocks([self.panels["text"]], [300], Qt.Orientation.Vertical)
        self._restore_settings()
        self._update_page_controls()

    # -- extension points ---------------------------------------------------------------------
    @property
    def pdfium(self) -> PdfiumOwner:
        """The pdfium document owner: touch it only inside jobs of `render_worker`."""
        return self._pdfium

    @property
    def core(self) -> CoreOwner:
        """The core Document owner: touch it only inside jobs of `analysis_worker`."""
        return self._core

    def add_panel(
        self,
        panel_id: str,
        title: str,
        widget: QWidget,
        area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea,
        shortcut: str | None = None,
    ) -> QDockWidget:
        """Dock `widget`; its toggle goes in the View menu and its state persists."""
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{panel_id}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        toggle = dock.toggleViewAction()
        if shortcut:
            toggle.setShortcut(shortcut)
        self.panels_menu.addAction(toggle)
        self.panels[panel_id] = dock
        return dock

    def add_layer(self, layer: OverlayLayer) -> None:
        layer.setParentItem(self.view.overlay_root)
        key = f"layers/{layer.layer_id}"
        on = read_bool(self.settings, key, layer.default_on)
        layer.setVisible(on)
        layer.set_model(self.model)
        self.layers[layer.layer_id] = layer
        self.layers_panel.add_layer(layer, on)

    def set_rules(self, rules: Rules) -> None:
        changed = rules != self.rules
        self.rules = rules
        if changed:
            self.rulesChanged.emit(rules)
        if self.path is not None and self.page_count:
            self._request_analysis(self.page_index)  # cancels the pages analysed ahead

    def restore_layout(self) -> None:
        """Restore the saved dock layout, once: docks added after it are not in the state
        Qt restores, so extensions add their panels first and the window restores after."""
        if self._layout_restored:
            return
        self._layout_restored = True
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def _close_document(self) -> None:
        super()._close_document()
        self.documentClosed.emit()

    # -- errors -------------------------------------------------------------------------------
    def show_error(self, message: str) -> None:
        self.banner.setText(message)
        self.banner.show()
        self.statusBar().showMessage(message, 10000)
        self.errorShown.emit(message)

    def hide_error(self) -> None:
        self.banner.hide()
        self.banner.clear()

    # -- layers -------------------------------------------------------------------------------
    @Slot(str, bool)
    def set_layer_visible(self, layer_id: str, on: bool) -> None:
        layer = self.layers.get(layer_id)
        if layer is None:
            return
        layer.setVisible(on)
        check = self.layers_panel.checks.get(layer_id)
        if check is not None and check.isChecked() != on:
            check.setChecked(on)
        if self.persist:
            self.settings.setValue(f"layers/{layer_id}", on)

    def set_layers(self, layer_ids) -> None:
        wanted = set(layer_ids)
        for layer_id in self.layers:
            self.set_layer_visible(layer_id, layer_id in wanted)

    def _on_colour_by(self, key: str) -> None:
        layer = self.layers.get("glyphs")
        if isinstance(layer, GlyphQuadsLayer):
            layer.set_colour_by(key)
            self.layers_panel.refresh_legend("glyphs", self.model)
        if self.persist:
            self.settings.setValue("layers/colour_by", key)

    # -- selection ----------------------------------------------------------------------------
    def glyph_at(self, x: float, y: float) -> int | None:
        if self.model is None:
            return None
        hits = self.model.grid.at(x, y)
        if not hits:
            return None
        # Of overlapping glyphs (a fake-bold pair) the one the text kept, else the top one.
        visible = [i for i in hits if self.model.status[i] == GlyphStatus.VISIBLE]
        return (visible or hits)[0]

    def tooltip_for(self, index: int) -> str:
        return glyph_tooltip(self.model, index) if self.model is not None else ""

    def _on_click(self, x: float, y: float) -> None:
        index = self.glyph_at(x, y)
        self.selection.set(() if index is None else (index,), "page")

    def _on_band(self, x0: float, y0: float, x1: float, y1: float) -> None:
        if self.model is not None:
            self.selection.set(self.model.grid.in_rect((x0, y0, x1, y1)), "band")

    def _on_selection(self, indices: tuple, source: str) -> None:
        linked = linked_glyphs(self.model, indices)
        self.selection_layer.set_selected(linked)
        self.text_panes.highlight(linked, source)
        if source != "table":
            self.glyph_table.set_selected(indices)
        self.details.show_selection(self.model, indices)
        if source not in STAY_PUT_SOURCES:
            self.reveal_glyphs(indices)

    def reveal_glyphs(self, indices) -> None:
        """Bring the glyphs into view on the page (scroll, zoom out if needed, flash)."""
        if "render" in self._waiting or self.view.geometry is None:
            # The page's image (and the fit that lays it out) is still coming: reveal then.
            self._reveal_when_ready = tuple(indices)
            return
        rect = self.model.glyph_rect(indices) if self.model is not None else None
        if rect is not None:
            self.view.reveal(rect)

    def _reveal_pending(self, _index: int) -> None:
        indices, self._reveal_when_ready = self._reveal_when_ready, ()
        if indices and indices == self.selection.indices:
            self.reveal_glyphs(indices)

    # -- status -------------------------------------------------------------------------------
    def _on_cursor(self, x: float, y: float) -> None:
        if math.isnan(x):
            self.cursor_label.setText("")
        else:
            self.cursor_label.setText(f"x {x:8.2f}  y {y:8.2f} pt (user space)")

    def _on_zoom(self, zoom: float) -> None:
        self.zoom_label.setText(f"{zoom * 100:.0f} %")

    def _update_page_controls(self) -> None:
        spin = self.page_spin
        spin.blockSignals(True)
        spin.setMaximum(max(self.page_count, 1))
        spin.setValue(self.page_index + 1)
        spin.setEnabled(self.page_count > 0)
        spin.blockSignals(False)
        self.page_total.setText(f" of {self.page_count}" if self.page_count else "")

    # -- drag and drop --------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_file(url.toLocalFile())
                event.acceptProposedAction()
                return

    # -- settings -------------------------------------------------------------------------------
    def recent(self) -> list[str]:
        return recent_files(self.settings)

    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        colour_by = self.settings.value("layers/colour_by")
        if colour_by:
            self.layers_panel.colour_by.setCurrentText(str(colour_by))

    def save_settings(self) -> None:
        if not self.persist:
            return
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        for layer_id, layer in self.layers.items():
            self.settings.setValue(f"layers/{layer_id}", layer.isVisible())
        self.settings.sync()

    def shutdown(self) -> None:
        """End the worker processes (a running job is abandoned: quitting never waits)."""
        self._release_panes()  # held panes are not filled into a closed window
        self.render_worker.stop(final=self._pdfium.close)
        self.analysis_worker.stop(final=self._core.close)
        self.sidebar.shutdown()

    def showEvent(self, event) -> None:
        self.restore_layout()
        super().showEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._make_room_for_the_page()

    def _make_room_for_the_page(self) -> None:
        """Shrink the dock areas around the page, keeping their proportions, when they would
        leave it less than PAGE_SHARE of the window (they keep their widths as the window
        shrinks: at 1024×700 the page had 300 pixels of 1024). No area gets less than its
        docks' contents ask for (the Rules panel's buttons and spec column fit it)."""
        areas = Qt.DockWidgetArea
        for orientation, sides, room in (
            (
                Qt.Orientation.Horizontal,
                (areas.LeftDockWidgetArea, areas.RightDockWidgetArea),
                self.width(),
            ),
            (
                Qt.Orientation.Vertical,
                (areas.TopDockWidgetArea, areas.BottomDockWidgetArea),
                self.height(),
            ),
        ):
            horizontal = orientation == Qt.Orientation.Horizontal
            # Per area its open docks (a tab not in front too), as wide as its widest one.
            open_docks = {side: [] for side in sides}
            for dock in self.findChildren(QDockWidget):
                side = self.dockWidgetArea(dock)
                if (
                    side in open_docks
                    and dock.toggleViewAction().isChecked()
                    and not dock.isFloating()
                ):
                    open_docks[side].append(dock)
            extent = {
                side: max((d.width() if horizontal else d.height() for d in docks), default=0)
                for side, docks in open_docks.items()
            }
            taken = sum(extent.values())
            allowed = room * (1 - PAGE_SHARE)
            if taken <= allowed:
                continue
            for side, docks in open_docks.items():
                if not docks:
                    continue
                asked = max(
                    d.sizeHint().width() if horizontal else d.sizeHint().height() for d in docks
                )
                wanted = max(int(extent[side] * allowed / taken), min(extent[side], asked))
                self.resizeDocks(docks, [wanted] * len(docks), orientation)

    def closeEvent(self, event) -> None:
        self.save_settings()
        self.shutdown()
        super().closeEvent(event)
