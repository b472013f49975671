"""Every threshold of `glyphscope.core.rules.Rules` as an editor, and what a change did to the page.

The panel only edits and shows: it emits `rulesChanged(Rules)` (debounced, so dragging a spin
box re-analyses once) and draws the `glyphscope.core.qa.diffing.RuleChanges` it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.errors import RuleError
from glyphscope.core.qa.diffing import (
    TEXT_MODES,
    RuleChanges,
    decision_pairs,
    line_diff,
    mode_text,
    rule_changes,
)
from glyphscope.core.rules import Rules
from glyphscope.core.view.explain import char_label
from glyphscope.core.view.page_model import PANE_TITLES
from glyphscope.core.view.text_diff import diff_html
from glyphscope.widgets.column_widths import fit_columns
from glyphscope.widgets.qa_layers import RULE_CHANGE_COLOURS

DEBOUNCE_MS = 250
INT_MAX = 2**31 - 1
COMPARE_DEFAULTS = "spec defaults"
COMPARE_PREVIOUS = "previous rules"
RULES_TAB, DECISIONS_TAB, TEXT_TAB = "Rules", "Decisions", "Text diff"
# Entries listed per category of rule changes (the category line counts them all).
LISTED = 500

# What each rule decides, with the spec section, for tooltips.
DESCRIPTIONS = {
    "space_gap_ratio": "§6 word space: gap after the previous glyph end > ratio × box height",
    "line_break_ratio": "§6 line break: origin move across the line > ratio × larger box height",
    "duplicate_size_tolerance": "§5 duplicates: sizes as drawn within this fraction",
    "duplicate_along": "§5 duplicates: offset along the baseline < this × size",
    "duplicate_across": "§5 duplicates: offset across the baseline < this × size",
    "duplicate_scan_window": "§5 duplicates: forward scan window in x, × size",
    "columns_gap_multiple": "§8 columns: a gap wider than this × the median advance splits",
    "columns_gutter_keep_ratio": "§8 columns: a gutter survives narrowing to this × its width",
    "layout_block_gap_cells": "§7 layout: a gap wider than this many cells starts a block",
    "layout_fit_block_glyphs": "§7 layout: blocks this long or longer narrow the cell to fit",
    "layout_direction_tolerance": "§7 layout: sine of the turn off the grid a glyph may have",
    "form_depth": "§2 nested form XObjects interpreted up to this depth",
    "structure_depth": "§9 structure tree walked down to this depth",
    "structure_trust_ratio": "§9 structure trusted when untagged ≤ ratio × total glyphs",
    "expand_ligatures": "ligatures U+FB00–FB06 written as their letters",
    "max_stream_bytes": "resource limit: decoded size of one content stream",
    "max_page_operators": "resource limit: operators interpreted on one page",
    "max_page_glyphs": "resource limit: glyphs recorded on one page",
    "max_q_depth": "resource limit: q (save state) nesting in one content stream",
}
STEPS = {"columns_gap_multiple": 0.25}
CATEGORY_COLOURS = dict(RULE_CHANGE_COLOURS)


class WheelOnFocus(QObject):
    """Lets the mouse wheel change a value editor only once it has the focus: scrolling the
    panel past an editor must never change a rule. The ignored wheel event goes on to the
    scroll area, which scrolls."""

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Wheel and not watched.hasFocus():
            event.ignore()
            return True
        return False


class RulesPanel(QWidget):
    rulesChanged = Signal(object)  # Rules
    glyphsChosen = Signal(tuple)  # glyph indices of a change the user clicked
    compareModeChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rules_panel")
        self.defaults = Rules()
        self.editors: dict[str, QWidget] = {}
        self.markers: dict[str, QLabel] = {}
        self._quiet = False
        self._wheel_guard = WheelOnFocus(self)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.apply_now)

        grid = QGridLayout()
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(1)
        # Each rule takes two rows, its name above its editor and the spec's default, so the
        # panel fits a dock a third of a 1024-pixel screen wide without scrolling sideways.
        for number, field in enumerate(fields(Rules)):
            row = 2 * number
            name = field.name
            label = QLabel(name)
            label.setToolTip(DESCRIPTIONS.get(name, ""))
            editor = self._editor(name, field.default)
            marker = QLabel()
            marker.setObjectName(f"default_{name}")
            grid.addWidget(label, row, 0, 1, 2)
            grid.addWidget(editor, row + 1, 0)
            grid.addWidget(marker, row + 1, 1)
            self.editors[name] = editor
            self.markers[name] = marker
        grid.setColumnStretch(0, 1)
        grid.setRowStretch(2 * len(fields(Rules)), 1)  # the rules packed at the top

        self.reset_button = QPushButton("Reset to spec")
        self.reset_button.setObjectName("rules_reset")
        self.reset_button.clicked.connect(self.reset)
        load_button = QPushButton("Load…")
        load_button.clicked.connect(self._load_dialog)
        save_button = QPushButton("Save…")
        save_button.clicked.connect(self._save_dialog)
        buttons = QHBoxLayout()
        for button in (self.reset_button, load_button, save_button):
            buttons.addWidget(button)

        self.compare = QComboBox()
        self.compare.setObjectName("rules_compare")
        self.compare.addItems([COMPARE_DEFAULTS, COMPARE_PREVIOUS])
        self.compare.setToolTip("What the changes below are measured against")
        self.compare.currentTextChanged.connect(self.compareModeChanged)
        compare_row = QHBoxLayout()
        compare_row.addWidget(QLabel("Changes against"))
        compare_row.addWidget(self.compare, 1)

        self.summary = QLabel("No change: the page is read with the spec's rules.")
        self.summary.setObjectName("rules_summary")
        self.summary.setWordWrap(True)
        self.changes = QTreeWidget()
        self.changes.setObjectName("rules_changes")
        # One column, the dock's whole width: a decision's old and new numbers need it (the
        # glyph numbers, a column of their own before, are in each entry's tooltip).
        self.changes.setHeaderLabels(["change"])
        self.changes.setIndentation(12)
        fit_columns(self.changes, [])
        self.changes.itemClicked.connect(self._on_item)
        # Walking the list with the arrow keys selects and shows each change's glyphs.
        self.changes.currentItemChanged.connect(lambda item, _old: item and self._on_item(item, 0))
        self.text_mode = QComboBox()
        self.text_mode.setObjectName("rules_text_mode")
        for mode in TEXT_MODES:
            self.text_mode.addItem(PANE_TITLES[mode], mode)
        self.text_mode.currentIndexChanged.connect(lambda _i: self._show_text_diff())
        self.text_diff = QTextBrowser()
        self.text_diff.setObjectName("rules_text_diff")
        self.text_diff.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        text_page = QWidget()
        text_layout = QVBoxLayout(text_page)
        text_layout.setContentsMargins(2, 2, 2, 2)
        text_row = QHBoxLayout()
        text_row.addWidget(QLabel("Text mode"))
        text_row.addWidget(self.text_mode, 1)
        text_layout.addLayout(text_row)
        text_layout.addWidget(self.text_diff, 1)
        self._texts: tuple[object, object, str] | None = None  # before, after, label

        # Three tabs, each given the dock's whole height: at 1024×700 the dock is about 320
        # pixels tall, and shared by a splitter the editors showed two rules and the diff
        # three lines. The tabs' titles count the changes, seen from the Rules tab too; the
        # summary, whose height varies, sits in the Decisions tab so no tab moves under the
        # pointer when an analysis lands.
        editors = QWidget()
        editors.setLayout(grid)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(editors)
        rules_page = QWidget()
        rules_layout = QVBoxLayout(rules_page)
        rules_layout.setContentsMargins(2, 2, 2, 2)
        rules_layout.addWidget(scroll, 1)
        rules_layout.addLayout(buttons)  # below the scrolled editors: always in view
        self.tabs = QTabWidget()
        self.tabs.setObjectName("rules_tabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(rules_page, RULES_TAB)
        decisions_page = QWidget()
        decisions_layout = QVBoxLayout(decisions_page)
        decisions_layout.setContentsMargins(2, 2, 2, 2)
        decisions_layout.addWidget(self.summary)
        decisions_layout.addWidget(self.changes, 1)
        self.tabs.addTab(decisions_page, DECISIONS_TAB)
        self.tabs.addTab(text_page, TEXT_TAB)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(compare_row)
        layout.addWidget(self.tabs, 1)
        self.set_rules(self.defaults)

    # -- editors ----------------------------------------------------------------------------
    def _editor(self, name: str, default: object) -> QWidget:
        if isinstance(default, bool):
            editor = QCheckBox()
            editor.toggled.connect(self._edited)
        elif isinstance(default, int):
            editor = QSpinBox()
            editor.setRange(0, INT_MAX)
            editor.setGroupSeparatorShown(True)
            editor.valueChanged.connect(self._edited)
        else:
            editor = QDoubleSpinBox()
            editor.setDecimals(4)  # layout_direction_tolerance's 0.0523 reads back as itself
            editor.setRange(0.0, 1000.0)
            editor.setSingleStep(STEPS.get(name, 0.01))
            editor.valueChanged.connect(self._edited)
        editor.setObjectName(f"rule_{name}")
        editor.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        editor.installEventFilter(self._wheel_guard)
        editor.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        editor.setMinimumWidth(90)
        editor.setToolTip(DESCRIPTIONS.get(name, ""))
        return editor

    def rules(self) -> Rules:
        """The rules the editors show."""
        values = {}
        for name, editor in self.editors.items():
            values[name] = editor.isChecked() if isinstance(editor, QCheckBox) else editor.value()
        return Rules().with_values(**values)

    def set_rules(self, rules: Rules) -> None:
        """Show `rules` without emitting a change."""
        self._quiet = True
        try:
            for name, editor in self.editors.items():
                value = getattr(rules, name)
                if isinstance(editor, QCheckBox):
                    editor.setChecked(bool(value))
                else:
                    editor.setValue(value)
        finally:
            self._quiet = False
        self._mark_defaults(rules)

    def set_value(self, name: str, value: object) -> None:
        """Set one rule as a user would (emits after the debounce)."""
        editor = self.editors[name]
        if isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        else:
            editor.setValue(value)

    def _mark_defaults(self, rules: Rules) -> None:
        for name, marker in self.markers.items():
            default = getattr(self.defaults, name)
            shown = _format(default)
            if getattr(rules, name) == default:
                marker.setText(f"◆ spec {shown}")
                marker.setStyleSheet("color:#2e7d32; font-size:11px")
                marker.setToolTip("the spec's default")
            else:
                marker.setText(f"◇ spec {shown}")
                marker.setStyleSheet("color:#c62828; font-size:11px; font-weight:bold")
                marker.setToolTip(f"changed from the spec's default {shown}")

    @property
    def editing(self) -> bool:
        """An edit is waiting for the debounce to pass."""
        return self._timer.isActive()

    def _edited(self, *_args) -> None:
        if self._quiet:
            return
        self._mark_defaults(self.rules())
        self._timer.start()

    def apply_now(self) -> None:
        self._timer.stop()
        self.rulesChanged.emit(self.rules())

    def reset(self) -> None:
        self.set_rules(self.defaults)
        self.apply_now()

    # -- files ------------------------------------------------------------------------------
    def save_to(self, path: str | Path) -> None:
        """The `glyphscope-extract --rules FILE` format (Rules.to_json)."""
        Path(path).write_text(self.rules().to_json() + "\n", encoding="utf-8")

    def load_from(self, path: str | Path) -> Rules:
        rules = Rules.load(path)
        self.set_rules(rules)
        self.apply_now()
        return rules

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save rules", "rules.json", "JSON (*.json)")
        if not path:
            return
        try:
            self.save_to(path)
        except OSError as exc:
            QMessageBox.warning(self, "Rules not saved", str(exc))

    def _load_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Load rules", "", "JSON (*.json);;All (*)")
        if not path:
            return
        try:
            self.load_from(path)
        except (RuleError, OSError) as exc:
            QMessageBox.warning(self, "Rules not loaded", str(exc))

    # -- changes ----------------------------------------------------------------------------
    def show_changes(
        self, comparison: RuleComparison | None, model=None, against: str = ""
    ) -> None:
        """List what the rules changed on the page; `model` (core.view.page_model.PageModel of
        the new analysis) names the glyphs, and `comparison` (from `compare`) holds the
        changes and each changed decision's old numbers beside its new ones."""
        self.changes.clear()
        self._count_tab(DECISIONS_TAB, 0)
        after = model.analysis if model is not None else None
        changes = comparison.changes if comparison is not None else None
        before = comparison.before if comparison is not None else None
        self._texts = (before, after, against) if before is not None and after else None
        self._show_text_diff()
        if changes is None:
            self.summary.setText("Waiting for the analysis…" if against else "No comparison.")
            return
        rules = ", ".join(f"{n} {_format(a)} → {_format(b)}" for n, a, b in changes.changed_rules)
        head = f"Against {against}: " if against else ""
        if not changes.changed_rules:
            self.summary.setText(f"{head}same rules; nothing changed.")
            return
        self.summary.setText(f"{head}{rules}\n{changes.summary()}")
        if not changes.comparable:
            return
        pairs = {
            "spaces gained": changes.spaces_gained,
            "spaces lost": changes.spaces_lost,
            "lines split": changes.lines_split,
            "lines joined": changes.lines_joined,
        }
        singles = {
            "glyphs newly dropped": changes.newly_dropped,
            "glyphs newly kept": changes.newly_kept,
        }
        old_decisions, new_decisions = comparison.old_decisions, comparison.new_decisions
        listed = 0
        for category, glyphs in changes.categories():
            items = pairs.get(category) or singles.get(category) or ()
            top = QTreeWidgetItem([f"{category}: {len(items)}"])
            top.setData(0, Qt.ItemDataRole.UserRole, tuple(glyphs))
            top.setForeground(0, QColor(CATEGORY_COLOURS[category]))
            self.changes.addTopLevelItem(top)
            kind = 0 if category.startswith("spaces") else 1
            for item in items[:LISTED]:
                indices = item if isinstance(item, tuple) else (item,)
                label = " → ".join(_glyph_label(model, i) for i in indices)
                if isinstance(item, tuple):
                    numbers = _decision_change(
                        old_decisions[kind].get(item), new_decisions[kind].get(item)
                    )
                    label = f"{label}:\n{numbers}" if numbers else label
                child = QTreeWidgetItem([label])
                one_line = label.replace("\n", " ")
                glyph_numbers = " ".join(f"#{i}" for i in indices)
                child.setToolTip(0, f"{one_line} (glyphs {glyph_numbers})")
                child.setData(0, Qt.ItemDataRole.UserRole, tuple(indices))
                top.addChild(child)
            top.setExpanded(0 < len(items) <= 20)
            listed += len(items)
        self._count_tab(DECISIONS_TAB, listed)

    def _show_text_diff(self) -> None:
        if self._texts is None:
            self.text_diff.setHtml("<p style='color:#666'>No comparison yet.</p>")
            self._count_tab(TEXT_TAB, 0)
            return
        before, after, against = self._texts
        mode = self.text_mode.currentData()
        rows = line_diff(mode_text(before, mode), mode_text(after, mode))
        self.text_diff.setHtml(diff_html(rows, f"before ({against or 'baseline'})", "now"))
        self._count_tab(TEXT_TAB, sum(row.tag not in ("equal", "gap") for row in rows))

    def _count_tab(self, title: str, count: int) -> None:
        """The tab's title with how many changes it lists, so that what a rule change did
        shows from the Rules tab too."""
        index = {DECISIONS_TAB: 1, TEXT_TAB: 2}[title]
        self.tabs.setTabText(index, f"{title} ({count:,})" if count else title)

    def _on_item(self, item: QTreeWidgetItem, _column: int) -> None:
        glyphs = item.data(0, Qt.ItemDataRole.UserRole)
        if glyphs:
            self.glyphsChosen.emit(tuple(glyphs))


@dataclass(frozen=True, slots=True)
class RuleComparison:
    """What `show_changes` lists: the changes between two analyses of a page, and the old
    and new decisions of the pairs it lists, by (previous, current) glyph pair."""

    changes: RuleChanges
    before: object  # the core PageAnalysis compared against
    old_decisions: tuple[dict, dict]  # gaps, line breaks
    new_decisions: tuple[dict, dict]


def compare(before, after) -> RuleComparison:
    """Compare two core PageAnalysis of one page: a pure function of them, run on a worker
    thread for a dense page."""
    changes = rule_changes(before, after)
    pairs = (changes.spaces_gained, changes.spaces_lost, changes.lines_split, changes.lines_joined)
    # The old and new numbers of the decisions listed (at most LISTED per category).
    listed = {pair for items in pairs for pair in items[:LISTED]}
    if not listed:
        return RuleComparison(changes, before, ({}, {}), ({}, {}))
    return RuleComparison(
        changes, before, decision_pairs(before, listed), decision_pairs(after, listed)
    )


def _format(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _verdict(decision) -> str:
    """A gap (§6 word space) or line-break decision as its numbers and outcome."""
    if hasattr(decision, "gap"):
        outcome = "space" if decision.space else "no space"
        return f"{decision.gap:.2f} vs {decision.threshold:.2f} → {outcome}"
    outcome = "new line" if decision.broke else "same line"
    return f"{decision.projection:.2f} vs {decision.threshold:.2f} → {outcome}"


def _decision_change(old, new) -> str:
    """'gap 4.48 vs 2.42 → space,⏎now 4.48 vs 6.45 → no space': the old and the new numbers
    on lines of their own, so both show in a dock a third of a 1024-pixel screen wide (on
    one line the new ones lay past its edge)."""
    if old is None and new is None:
        return ""
    name = "gap" if hasattr(old or new, "gap") else "line move"
    was = f"{name} {_verdict(old)}" if old is not None else f"{name}: not compared before"
    now = _verdict(new) if new is not None else "not compared now"
    return f"{was},\nnow {now}"


def _glyph_label(model, index: int) -> str:
    if model is None or not 0 <= index < model.count:
        return f"#{index}"
    return char_label(model.glyphs[index].text).split(" U+")[0]
