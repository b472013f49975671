"""Menus, the toolbar and keyboard shortcuts of the main window."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QLabel, QMenu, QSpinBox, QToolBar

from glyphscope.inspector import edit_actions
from glyphscope.inspector.session.continuous import ContinuousScrolling
from glyphscope.inspector.session.file import FileSession, install_file_session
from glyphscope.widgets.text_layers import ALL_LAYER_TYPES

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow


def _action(
    window: MainWindow,
    name: str,
    text: str,
    slot: Callable[..., object],
    shortcut: str | QKeySequence.StandardKey | list[str] | None = None,
    tip: str = "",
) -> QAction:
    action = QAction(text, window)
    action.setObjectName(f"action_{name}")
    if shortcut is not None:
        if isinstance(shortcut, (list, tuple)):
            action.setShortcuts([QKeySequence(s) for s in shortcut])
        else:
            action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setToolTip(f"{tip} ({action.shortcut().toString()})" if shortcut else tip)
    action.triggered.connect(slot)
    window.addAction(action)  # shortcuts work even with the menu bar hidden
    return action


def _open_dialog(window: MainWindow) -> None:
    start = str(Path(window.path).parent) if window.path else ""
    path, _ = QFileDialog.getOpenFileName(
        window, "Open PDF", start, "PDF files (*.pdf);;All files (*)"
    )
    if path:
        window.open_file(path)


@dataclass(frozen=True)
class WindowActions:
    """What build_actions makes for a window: its actions by name, and the objects behind
    them that the window keeps (declared here, not set on the window from outside)."""

    by_name: dict[str, QAction]
    file_session: FileSession
    continuous: ContinuousScrolling
    navigation_keys: edit_actions.NavigationKeys
    recent_menu: QMenu
    panels_menu: QMenu
    page_spin: QSpinBox
    page_total: QLabel


def build_actions(window: MainWindow) -> WindowActions:
    view = window.view
    actions = {
        "open": _action(
            window,
            "open",
            "&Open…",
            lambda: _open_dialog(window),
            QKeySequence.StandardKey.Open,
            "Open a PDF",
        ),
        "close": _action(window, "close", "&Close", window.close_document, "Ctrl+W"),
        "quit": _action(window, "quit", "&Quit", window.close, QKeySequence.StandardKey.Quit),
        "previous": _action(
            window, "previous", "&Previous page", window.previous_page, "PgUp", "Previous page"
        ),
        "next": _action(window, "next", "&Next page", window.next_page, "PgDown", "Next page"),
        "first": _action(window, "first", "&First page", window.first_page, "Home"),
        "last": _action(window, "last", "&Last page", window.last_page, "End"),
        "goto": _action(
            window,
            "goto",
            "&Go to page…",
            lambda: _focus_page_number(window),
            "Ctrl+G",
        ),
        "zoom_in": _action(
            window,
            "zoom_in",
            "Zoom &in",
            lambda: view.zoom_by(1.25),
            ["Ctrl++", "Ctrl+="],
            "Zoom in",
        ),
        "zoom_out": _action(
            window, "zoom_out", "Zoom &out", lambda: view.zoom_by(0.8), "Ctrl+-", "Zoom out"
        ),
        "actual": _action(window, "actual", "&Actual size", lambda: view.set_zoom(1.0), "Ctrl+1"),
        "fit_width": _action(
            window, "fit_width", "Fit &width", view.fit_width, "Ctrl+2", "Fit width"
        ),
        "fit_page": _action(window, "fit_page", "Fit &page", view.fit_page, "Ctrl+0", "Fit page"),
        "clear_selection": _action(
            window,
            "clear_selection",
            "Clear selection",
            lambda: window.selection.clear("escape"),
            "Esc",
        ),
        "all_layers": _action(
            window,
            "all_layers",
            "Show all layers",
            lambda: window.layers_panel.set_all(True),
            "Ctrl+Shift+A",
        ),
        "no_layers": _action(
            window,
            "no_layers",
            "Hide all layers",
            lambda: window.layers_panel.set_all(False),
            "Ctrl+Shift+N",
        ),
        "copy": _action(
            window,
            "copy",
            "&Copy",
            lambda: edit_actions.copy(window),
            QKeySequence.StandardKey.Copy,
        ),
        "select_all": _action(
            window,
            "select_all",
            "Select &all",
            lambda: edit_actions.select_all(window),
            QKeySequence.StandardKey.SelectAll,
        ),
        "copy_selection": _action(
            window,
            "copy_selection",
            "Copy selected glyphs as &text",
            lambda: edit_actions.copy_page_selection(window),
            "Ctrl+Shift+C",
        ),
        "wrap": _action(
            window, "wrap", "&Wrap long lines in text panes", window.text_panes.set_wrap
        ),
    }
    file_session = install_file_session(window)
    actions["close"].triggered.connect(file_session.forget)
    actions["reload"] = _action(
        window, "reload", "&Reload", file_session.reload, ["F5", "Ctrl+R"], "Reload"
    )
    continuous = ContinuousScrolling(window)
    actions["continuous"] = _action(
        window, "continuous", "&Continuous scrolling", continuous.set_enabled
    )
    actions["continuous"].setCheckable(True)
    actions["continuous"].setChecked(continuous.enabled)
    actions["wrap"].setCheckable(True)
    navigation_keys = edit_actions.install_navigation_keys(window)
    menu_bar = window.menuBar()
    file_menu = menu_bar.addMenu("&File")
    file_menu.addAction(actions["open"])
    recent_menu = file_menu.addMenu("Open &Recent")
    recent_menu.aboutToShow.connect(lambda: _fill_recent(window))
    file_menu.addAction(actions["reload"])
    file_menu.addAction(actions["close"])
    file_menu.addSeparator()
    file_menu.addAction(actions["quit"])
    edit_menu = menu_bar.addMenu("&Edit")
    for name in ("copy", "select_all", "copy_selection"):
        edit_menu.addAction(actions[name])
    go_menu = menu_bar.addMenu("&Go")
    for name in ("previous", "next", "first", "last", "goto"):
        go_menu.addAction(actions[name])
    view_menu = menu_bar.addMenu("&View")
    for name in ("zoom_in", "zoom_out", "actual", "fit_width", "fit_page"):
        view_menu.addAction(actions[name])
    view_menu.addSeparator()
    layers_menu = view_menu.addMenu("&Layers")
    layers_menu.addAction(actions["all_layers"])
    layers_menu.addAction(actions["no_layers"])
    layers_menu.addSeparator()
    # Alt+1 … Alt+9, Alt+0, Alt+- toggle the layers in the panel's order.
    keys: list[str | None] = [f"Alt+{n}" for n in "1234567890-="]
    keys += [None] * (len(ALL_LAYER_TYPES) - len(keys))
    for key, layer_type in zip(keys, ALL_LAYER_TYPES, strict=False):
        layer_id = layer_type.layer_id
        toggle = _action(
            window,
            f"toggle_{layer_id}",
            layer_type.title,
            lambda _checked=False, lid=layer_id: window.set_layer_visible(
                lid, not window.layers[lid].isVisible()
            ),
            key,
        )
        layers_menu.addAction(toggle)
        actions[f"toggle_{layer_id}"] = toggle
    view_menu.addAction(actions["clear_selection"])
    view_menu.addAction(actions["continuous"])
    view_menu.addAction(actions["wrap"])
    # Beyond the contract (issue 12): annotation appearances read after the page content.
    annotations = _action(
        window,
        "annotations",
        "Read &annotations",
        lambda checked: window.set_rules(window.rules.with_values(annotations=checked)),
        tip="Read annotation and form-field appearances after the page content (§12.5.5)",
    )
    annotations.setCheckable(True)
    annotations.setChecked(window.rules.annotations)
    window.rulesChanged.connect(lambda rules: annotations.setChecked(rules.annotations))
    view_menu.addAction(annotations)
    actions["annotations"] = annotations
    panels_menu = view_menu.addMenu("&Panels")
    help_menu = menu_bar.addMenu("&Help")
    actions["shortcuts"] = _action(
        window, "shortcuts", "&Keyboard shortcuts", lambda: show_shortcuts(window), "F1"
    )
    help_menu.addAction(actions["shortcuts"])

    toolbar = QToolBar("Navigation")
    toolbar.setObjectName("toolbar_navigation")
    window.addToolBar(toolbar)
    toolbar.addAction(actions["open"])
    toolbar.addSeparator()
    toolbar.addAction(actions["previous"])
    page_spin = QSpinBox()
    page_spin.setObjectName("page_spin")
    page_spin.setMinimum(1)
    page_spin.setKeyboardTracking(False)
    page_spin.setToolTip("Page number (Ctrl+G)")
    page_spin.valueChanged.connect(lambda n: window.go_to_page(n - 1))
    toolbar.addWidget(page_spin)
    page_total = QLabel()
    toolbar.addWidget(page_total)
    toolbar.addAction(actions["next"])
    toolbar.addSeparator()
    for name in ("zoom_out", "zoom_in", "fit_width", "fit_page"):
        toolbar.addAction(actions[name])
    return WindowActions(
        actions,
        file_session,
        continuous,
        navigation_keys,
        recent_menu,
        panels_menu,
        page_spin,
        page_total,
    )


def _focus_page_number(window: MainWindow) -> None:
    window.page_spin.setFocus()
    window.page_spin.selectAll()


def _fill_recent(window: MainWindow) -> None:
    menu = window.recent_menu
    menu.clear()
    files = window.recent()
    if not files:
        menu.addAction("(none)").setEnabled(False)
        return
    for number, path in enumerate(files, start=1):
        action = menu.addAction(f"&{number % 10} {Path(path).name}")
        action.setToolTip(path)
        action.triggered.connect(lambda _checked=False, p=path: window.open_file(p))


def shortcut_rows(window: MainWindow) -> list[tuple[str, str]]:
    """(keys, what) for every action of the window that has a shortcut, menu order."""
    rows = []
    for action in window.actions():
        keys = ", ".join(
            k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()
        )
        if keys:
            rows.append((keys, action.text().replace("&", "").rstrip("…")))
    for dock in window.panels.values():
        toggle = dock.toggleViewAction()
        if not toggle.shortcut().isEmpty():
            rows.append((toggle.shortcut().toString(), f"Show or hide {dock.windowTitle()}"))
    rows.append(("Ctrl+wheel", "Zoom at the pointer"))
    rows.append(("Middle drag", "Pan"))
    rows.append(("Left drag", "Select the glyphs in a rectangle"))
    return rows


def show_shortcuts(window: MainWindow) -> None:
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard shortcuts")
    text = QTextBrowser()
    text.setHtml(
        "<table cellpadding='3'>"
        + "".join(f"<tr><td><b>{k}</b></td><td>{w}</td></tr>" for k, w in shortcut_rows(window))
        + "</table>"
    )
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(text)
    layout.addWidget(buttons)
    dialog.resize(460, 560)
    dialog.open()
