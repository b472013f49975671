"""Toggle overlay layers and read their legends."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.view.page_model import PageModel
from glyphscope.widgets.overlay_base import LegendEntry, OverlayLayer
from glyphscope.widgets.overlay_layers import COLOUR_BY, GlyphQuadsLayer

SWATCH = QSize(22, 12)


def swatch(entry: LegendEntry) -> QPixmap:
    pixmap = QPixmap(SWATCH)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    color = QColor(entry.color)
    pen = QPen(color, 2)
    if entry.style == "dash":
        pen.setStyle(Qt.PenStyle.DashLine)
    painter.setPen(pen)
    if entry.style in ("line", "dash") and entry.style != "box":
        painter.drawLine(1, SWATCH.height() // 2, SWATCH.width() - 2, SWATCH.height() // 2)
    else:
        fill = QColor(color)
        fill.setAlpha(0 if entry.style == "box" else 80)
        painter.setBrush(fill)
        painter.drawRect(1, 1, SWATCH.width() - 3, SWATCH.height() - 3)
    painter.end()
    return pixmap


class LayersPanel(QWidget):
    layerToggled = Signal(str, bool)
    colourByChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.checks: dict[str, QCheckBox] = {}
        self._legends: dict[str, QWidget] = {}
        self._layers: dict[str, OverlayLayer] = {}
        # The entries each legend shows and its labels' widgets, so a page whose legend has
        # the same swatches rebuilds no widgets.
        self._entries: dict[str, list[LegendEntry]] = {}
        self._texts: dict[str, list[QLabel]] = {}
        self.colour_by = QComboBox()
        self.colour_by.addItems(COLOUR_BY)
        self.colour_by.setToolTip("Colour glyph quads by decode source, font, MCID or form depth")
        self.colour_by.currentTextChanged.connect(self.colourByChanged)
        all_button = QPushButton("All")
        none_button = QPushButton("None")
        all_button.clicked.connect(lambda: self.set_all(True))
        none_button.clicked.connect(lambda: self.set_all(False))
        top = QHBoxLayout()
        top.addWidget(QLabel("Colour quads by"))
        top.addWidget(self.colour_by, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(all_button)
        buttons.addWidget(none_button)
        buttons.addStretch(1)
        self._body = QVBoxLayout()
        self._body.setSpacing(1)
        inner = QWidget()
        inner_layout = QVBoxLayout(inner)
        inner_layout.setContentsMargins(4, 4, 4, 4)
        inner_layout.addLayout(top)
        inner_layout.addLayout(buttons)
        inner_layout.addLayout(self._body)
        inner_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)

    def add_layer(self, layer: OverlayLayer, checked: bool) -> None:
        check = QCheckBox(layer.title)
        check.setObjectName(f"layer_{layer.layer_id}")
        check.setToolTip(layer.tip)
        check.setChecked(checked)
        check.toggled.connect(lambda on, lid=layer.layer_id: self.layerToggled.emit(lid, on))
        legend = QWidget()
        self._body.addWidget(check)
        self._body.addWidget(legend)
        self.checks[layer.layer_id] = check
        self._legends[layer.layer_id] = legend
        self._layers[layer.layer_id] = layer
        self.refresh_legend(layer.layer_id)

    def refresh_legend(self, layer_id: str, model: PageModel | None = None) -> None:
        layer = self._layers[layer_id]
        old = self._legends[layer_id]
        entries = layer.legend_for(model) if isinstance(layer, GlyphQuadsLayer) else layer.legend()
        shown = self._entries.get(layer_id)
        self._entries[layer_id] = entries
        if shown == entries:
            return  # a page turned to with the same legend: its widgets stay
        texts = self._texts.get(layer_id, [])
        if shown is not None and _swatches(shown) == _swatches(entries):
            # The same swatches with other words (a page's glyph counts): only the texts
            # change, and turning a page builds no widgets.
            for text, entry in zip(texts, entries, strict=False):
                text.setText(entry.label)
            return
        new = QWidget()
        grid = QGridLayout(new)
        grid.setContentsMargins(24, 0, 0, 4)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(0)
        texts = self._texts[layer_id] = []
        for row, entry in enumerate(entries[:16]):
            icon = QLabel()
            icon.setPixmap(swatch(entry))
            text = QLabel(entry.label)
            text.setStyleSheet("font-size:11px; color:#333")
            # A long entry wraps: the dock of a 1024-pixel window scrolled sideways for one.
            text.setWordWrap(True)
            grid.addWidget(icon, row, 0)
            grid.addWidget(text, row, 1)
            texts.append(text)
        if len(entries) > 16:
            grid.addWidget(QLabel(f"… {len(entries) - 16} more"), 16, 1)
        grid.setColumnStretch(1, 1)
        self._body.replaceWidget(old, new)
        old.deleteLater()
        self._legends[layer_id] = new

    def set_all(self, on: bool) -> None:
        for check in self.checks.values():
            check.setChecked(on)


def _swatches(entries: list[LegendEntry]) -> list[tuple[str, str]]:
    """What a legend's icons draw (its rows' colours and styles), in order."""
    return [(entry.color, entry.style) for entry in entries[:16]] + [("more", str(len(entries)))]
