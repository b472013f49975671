"""Inline SVG charts for the report: no script, no external file, readable printed."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

BAR = "#4c78a8"


def histogram(values: Sequence[float], bins: int = 20, title: str = "", x_label: str = "") -> str:
    """Counts of `values` in [0, 1] over `bins` equal bins."""
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, max(0, int(value * bins)))] += 1
    width, height, left, bottom = 520, 200, 44, 34
    plot_width, plot_height = width - left - 10, height - bottom - 24
    top = max(counts) or 1
    bar_width = plot_width / bins
    parts = [_title(title, width)]
    for index, count in enumerate(counts):
        bar_height = plot_height * count / top
        x = left + index * bar_width
        y = 24 + plot_height - bar_height
        label = f"{index / bins:.2f}–{(index + 1) / bins:.2f}: {count} pages"
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{y:.1f}" width="{bar_width - 2:.1f}" '
            f'height="{bar_height:.1f}" fill="{BAR}"><title>{label}</title></rect>'
        )
    axis_y = 24 + plot_height
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + plot_width}" y2="{axis_y}" '
                 'stroke="#333"/>')  # fmt: skip
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        x = left + tick * plot_width
        parts.append(_text(x, axis_y + 14, f"{tick:g}", "middle"))
    parts.append(_text(left - 6, 30, str(top), "end"))
    parts.append(_text(left - 6, axis_y, "0", "end"))
    parts.append(_text(left + plot_width / 2, height - 4, x_label, "middle"))
    return _svg(width, height, parts)


def bar_chart(items: Sequence[tuple[str, float]], title: str = "", unit: str = "") -> str:
    """Horizontal bars, one per (label, value), in the order given."""
    row, left, width = 18, 230, 560
    height = 30 + row * max(len(items), 1)
    top = max((value for _, value in items), default=0) or 1
    parts = [_title(title, width)]
    for index, (label, value) in enumerate(items):
        y = 26 + index * row
        bar_width = (width - left - 70) * value / top
        short = label if len(label) <= 34 else label[:33] + "…"
        parts.append(_text(left - 6, y + 12, short, "end", escape(label)))
        parts.append(
            f'<rect x="{left}" y="{y + 2}" width="{bar_width:.1f}" height="{row - 4}" '
            f'fill="{BAR}"><title>{escape(label)}: {value:g}{unit}</title></rect>'
        )
        parts.append(_text(left + bar_width + 4, y + 12, f"{value:g}{unit}", "start"))
    return _svg(width, height, parts)


def _svg(width: int, height: int, parts: list[str]) -> str:
    return (
        f'<svg class="plot" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'font-family="sans-serif" font-size="11">'
        f"{''.join(parts)}</svg>"
    )


def _title(title: str, width: int) -> str:
    return _text(width / 2, 14, title, "middle", weight="bold")


def _text(x: float, y: float, text: str, anchor: str, tip: str = "", weight: str = "") -> str:
    extra = f' font-weight="{weight}"' if weight else ""
    hover = f"<title>{tip}</title>" if tip else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{extra}>{hover}{escape(text)}</text>'
    )
