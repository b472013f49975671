"""Where the inspector keeps its settings, and the recent-files list."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

SETTINGS_DIR_ENV = "GLYPHSCOPE_SETTINGS_DIR"
MAX_RECENT = 10


def open_settings() -> QSettings:
    """An INI file under $GLYPHSCOPE_SETTINGS_DIR when set (tests isolate themselves this
    way), otherwise the platform's usual place for the Glyphscope application."""
    folder = os.environ.get(SETTINGS_DIR_ENV)
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        return QSettings(str(Path(folder) / "glyphscope.ini"), QSettings.Format.IniFormat)
    return QSettings(
        QSettings.Format.IniFormat, QSettings.Scope.UserScope, "Glyphscope", "Glyphscope"
    )


def recent_files(settings: QSettings) -> list[str]:
    value = settings.value("recent/files", [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):  # None, or a value another program wrote there
        return []
    return [str(v) for v in value if v]


def add_recent_file(settings: QSettings, path: str) -> list[str]:
    path = str(Path(path).resolve())
    files = [path] + [f for f in recent_files(settings) if f != path]
    files = files[:MAX_RECENT]
    settings.setValue("recent/files", files)
    return files


def read_bool(settings: QSettings, key: str, default: bool) -> bool:
    value = settings.value(key, default)
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes", "on")
    return bool(value)
