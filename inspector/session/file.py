"""The open file across time: its page and zoom remembered for the next opening, Reload (F5,
Ctrl+R) keeping page, zoom, scroll position and selection, and a prompt when the file changes
on disk (a regenerated PDF).

`window.reload_prompt(path) -> bool` asks whether to reload a changed file (replace it in
tests, as `password_provider`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from PySide6.QtWidgets import QMessageBox

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

# A regenerated file is often written in several steps: wait for them to settle.
SETTLE_MS = 400


@dataclass(frozen=True, slots=True)
class ViewState:
    page_index: int
    zoom: float
    fit_mode: str | None
    scroll: tuple[int, int]
    selection: tuple[int, ...]


def file_key(path: str) -> str:
    """The settings group of one file (its resolved path, hashed: keys must not hold '/')."""
    resolved = str(Path(path).resolve())
    return "files/" + hashlib.sha1(resolved.encode("utf-8")).hexdigest()[:20]


class FileSession(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._on_file_changed)
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._ask_reload)
        self._restore: ViewState | None = None  # applied when the reopened page is ready
        self._reloading = False
        self._asking = False
        # The document shown last and how: reopened when a password prompt for the next
        # file is cancelled, so cancelling keeps what was open.
        self._shown: tuple[str, str | None] | None = None
        self._shown_state: ViewState | None = None
        window.reload_prompt = self._ask
        window.documentOpened.connect(self._on_opened)
        window.pageReady.connect(self._on_page_ready)
        window.documentFailed.connect(self._on_failed)
        window.selection.changed.connect(lambda _indices, _source: self._keep_state())
        window.pageChanged.connect(self._remember)
        window.view.zoomChanged.connect(lambda _zoom: self._remember())

    # -- reload -----------------------------------------------------------------------------
    def state(self) -> ViewState:
        view = self.window.view
        return ViewState(
            self.window.page_index,
            view.zoom,
            view.fit_mode,
            (view.horizontalScrollBar().value(), view.verticalScrollBar().value()),
            self.window.selection.indices,
        )

    def reload(self) -> None:
        """Open the file again on the same page, zoom, scroll position and selection."""
        window = self.window
        if not window.path:
            return
        self._restore = self.state()
        self._reloading = True
        window.open_file(window.path, window.password, page=window.page_index)

    def forget(self) -> None:
        """The user closed the document: a later cancelled prompt has nothing to go back to."""
        self._shown = None
        self._shown_state = None

    def _keep_state(self) -> None:
        if self.window.path and self.window.page_count and self._shown is not None:
            self._shown_state = self.state()

    def _on_failed(self, message: str) -> None:
        # A reload refused (a regenerated file caught empty) restores nothing on the next
        # file opened.
        self._reloading, self._restore = False, None
        # PageSession's words when the password prompt was cancelled.
        if "was not opened" not in message or self._shown is None:
            return
        path, password = self._shown
        if not Path(path).exists():
            return
        state = self._shown_state
        self._restore = state
        self._reloading = True
        self.window.open_file(path, password, page=state.page_index if state else 0)
        self.window.statusBar().showMessage(message, 10000)

    def _on_opened(self, path: str, page_count: int) -> None:
        self._shown = (path, self.window.password)
        watched = self.watcher.files()
        if watched:
            self.watcher.removePaths(watched)
        self.watcher.addPath(path)
        if self._reloading:
            self._reloading = False
            return
        remembered = self._remembered(path, page_count)
        self._restore = remembered
        if remembered is not None and not getattr(self.window, "_pending_page", 0):
            # Opened without asking for a page: the window turns to its pending page right
            # after this signal, so the remembered one goes there.
            self.window._pending_page = remembered.page_index

    def _on_page_ready(self, index: int) -> None:
        self._keep_state()
        state, self._restore = self._restore, None
        if state is None or index != state.page_index:
            return
        view = self.window.view
        if state.fit_mode == "page":
            view.fit_page()
        elif state.fit_mode == "width":
            view.fit_width()
        else:
            view.set_zoom(state.zoom)
        if state.scroll != (0, 0):
            view.horizontalScrollBar().setValue(state.scroll[0])
            view.verticalScrollBar().setValue(state.scroll[1])
        model = self.window.model
        if state.selection and model is not None:
            self.window.selection.set([i for i in state.selection if i < model.count], "reload")

    # -- change on disk ---------------------------------------------------------------------
    def _on_file_changed(self, path: str) -> None:
        if path != self.window.path:
            return
        # A file replaced by a new one (write then rename) leaves the watch list: watch again.
        if path not in self.watcher.files() and Path(path).exists():
            self.watcher.addPath(path)
        self._settle.start()

    def _ask_reload(self) -> None:
        path = self.window.path
        if not path or self._asking or not Path(path).exists():
            return
        self._asking = True
        try:
            wanted = self.window.reload_prompt(path)
        finally:
            self._asking = False
        if wanted:
            self.reload()

    def _ask(self, path: str) -> bool:
        answer = QMessageBox.question(
            self.window,
            "File changed",
            f"{Path(path).name} changed on disk. Reload it (keeping page, zoom and selection)?",
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- page and zoom per file -------------------------------------------------------------
    def _remember(self, *_args) -> None:
        self._keep_state()
        window = self.window
        if not window.path or not window.persist or not window.page_count:
            return
        view = window.view
        key = file_key(window.path)
        window.settings.setValue(f"{key}/page", window.page_index)
        window.settings.setValue(f"{key}/zoom", view.zoom)
        window.settings.setValue(f"{key}/fit", view.fit_mode or "")

    def _remembered(self, path: str, page_count: int) -> ViewState | None:
        settings = self.window.settings
        key = file_key(path)
        page = settings.value(f"{key}/page")
        if page is None:
            return None
        try:
            page_index = min(max(int(page), 0), page_count - 1)
            zoom = float(settings.value(f"{key}/zoom", 1.0))
        except (TypeError, ValueError):
            return None
        fit = str(settings.value(f"{key}/fit", "") or "") or None
        return ViewState(page_index, zoom, fit, (0, 0), ())


def install_file_session(window: MainWindow) -> FileSession:
    return FileSession(window)
