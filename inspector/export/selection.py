"""Export the selection (or a dragged region's glyphs): a cropped PNG and SVG of that part of
the page and a focused HTML explanation of just those glyphs — their text in each mode, every
decision that touched them with its numbers and rule, where each one's text came from, and the
rules used — a page a customer can read in a minute."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF

from glyphscope.core.view.explain import char_label, selection_text
from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.export.bundle import (
    CSP,
    STYLE,
    dropped_table,
    gaps_table,
    line_breaks_table,
    rules_table,
)
from glyphscope.inspector.export.common import base64_text

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

MARGIN = 12.0  # display points around the selected glyphs


def selection_region(window: MainWindow, indices: Sequence[int]) -> QRectF | None:
    """The scene rectangle of the glyphs with a margin, inside the scene."""
    rect = window.model.glyph_rect(indices) if window.model is not None else None
    if rect is None:
        return None
    x0, y0, x1, y1 = rect
    scene = window.view.overlay_root.mapToScene(QRectF(x0, y0, x1 - x0, y1 - y0)).boundingRect()
    return scene.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN).intersected(
        window.view.page_scene_rect()
    )


def provenance_table(model: PageModel, indices: Sequence[int]) -> str:
    rows = []
    for i in indices:
        glyph = model.glyphs[i]
        code = f"0x{glyph.code:0{max(glyph.code_length, 1) * 2}X}"
        where = f"{glyph.form_path} " if glyph.form_path else ""
        rows.append(
            f"<tr><td class='num'>{i}</td><td>{escape(char_label(glyph.text))}</td>"
            f"<td>{code}</td><td>/{escape(glyph.font_key)} {escape(glyph.font_name)}</td>"
            f"<td class='num'>{glyph.font_size:.2f}</td><td>{escape(glyph.decode_source)}</td>"
            f"<td>{escape(where)}operator {glyph.operator_index}</td>"
            f"<td>{escape(model.status[i].replace('_', ' '))}</td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("glyph", "text", "code", "font", "size", "decoded by", "drawn by", "status")
    )
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def selection_html(
    model: PageModel, indices: Sequence[int], picture: bytes, source_name: str
) -> str:
    """The focused explanation of the glyphs `indices` of the page `model` shows."""
    analysis = model.analysis
    chosen = frozenset(indices)
    # The page's decision lists cut down to those touching the chosen glyphs (spec §4–§6).
    focused = dataclasses.replace(
        analysis,
        gaps=tuple(g for g in analysis.gaps if g.previous in chosen or g.current in chosen),
        line_breaks=tuple(
            b for b in analysis.line_breaks if b.previous in chosen or b.current in chosen
        ),
        dropped=tuple(d for d in analysis.dropped if d.index in chosen or d.kept in chosen),
    )
    texts = "".join(
        f"<h3>{escape(pane.title)}</h3><pre>{escape(selection_text(pane, indices))}</pre>"
        for pane in model.panes.values()
        if len(pane.chars_of(indices))
    )
    number = analysis.page_number
    title = f"{source_name} — page {number} — {len(indices)} glyphs explained"
    image = base64_text(picture)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<title>{escape(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<img class="page" alt="the selected part of page {number}" src="data:image/png;base64,{image}">
<h2>Their text in each mode</h2>
{texts or "<p class='note'>These glyphs write no text in any mode (all dropped).</p>"}
<h2>Word-gap decisions (spec §6)</h2>
<p class="note">A space is inserted when the gap from the previous glyph's end to this glyph's
origin exceeds space_gap_ratio × the box height (the threshold).</p>
{gaps_table(focused)}
<h2>Line-break decisions (spec §6)</h2>
{line_breaks_table(focused)}
<h2>Dropped glyphs (spec §4, §5)</h2>
{dropped_table(focused) if focused.dropped else "<p class='note'>None of them.</p>"}
<h2>Where each glyph's text came from</h2>
{provenance_table(model, indices)}
<h2>Rules used</h2>
{rules_table(analysis.rules)}
</body>
</html>
"""
