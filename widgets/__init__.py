"""Reusable PySide6 widgets that draw core's records; they know nothing of the application."""
