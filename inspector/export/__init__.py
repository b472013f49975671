"""Exports: page pictures (PNG, SVG), the HTML explanation bundle, the selection."""
