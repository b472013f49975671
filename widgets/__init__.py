"""Reusable PySide6 widgets that draw core's records; they know nothing of the application."""

from widgets.none_guard import ensure_headroom

ensure_headroom()
