"""Glyph records and the decisions that touched them, as short HTML for tooltips and details.

Numbers are shown as the engine recorded them so a reader can check the rule by hand:
"gap 1.90 vs threshold 1.50 → space" (spec §6).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

import numpy as np

from glyphscope.core.text.reading import GapDecision
from glyphscope.core.text.visible import DropReason, GlyphStatus
from glyphscope.core.view.page_model import PageModel, PaneText

# Glyphs whose text the details panel shows for a selection (a whole page can be 100,000).
DETAILS_GLYPH_CAP = 2000


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _point(point: Sequence[float]) -> str:
    return f"({point[0]:.2f}, {point[1]:.2f})"


def char_label(text: str) -> str:
    """The glyph's Unicode value, visible even when blank or unresolved."""
    if text == "":
        return "∅ unresolved"
    codes = " ".join(f"U+{ord(c):04X}" for c in text)
    shown = text if text.isprintable() and not text.isspace() else "·"
    return f"“{shown}” {codes}"


def _gap_line(side: str, gap: GapDecision) -> str:
    """One gap decision (spec §6) as the numbers the rule compared and its verdict."""
    verdict = "space" if gap.space else f"no space ({gap.reason})"
    return f"{side} {_num(gap.gap)} vs threshold {_num(gap.threshold)} → {verdict}"


def decision_lines(model: PageModel, index: int) -> list[str]:
    """Each decision of the engine about glyph `index`, one plain-text line each."""
    lines: list[str] = []
    record = model.dropped.get(index)
    if record is not None and record.reason == DropReason.OUTSIDE_VISIBLE_BOX:
        box = record.box or model.visible_box
        lines.append(
            f"dropped: quad centre outside the visible box [{', '.join(_num(v) for v in box)}] (§4)"
        )
    elif record is not None and record.reason == DropReason.DUPLICATE:
        lines.append(
            f"dropped: duplicate of #{record.kept} — along {_num(record.along)}, "
            f"across {_num(record.across)}, size ×{record.size_ratio:.3f} (§5)"
        )
    for copy in model.kept_copies.get(index, ()):
        lines.append(f"kept: its copy #{copy} was dropped as a duplicate (§5)")
    gap = model.gaps_before.get(index)
    if gap is not None:
        lines.append(_gap_line(f"gap before (from #{gap.previous})", gap))
    gap = model.gaps_after.get(index)
    if gap is not None:
        lines.append(_gap_line(f"gap after (to #{gap.current})", gap))
    line = model.breaks_before.get(index)
    if line is not None:
        verdict = "new line" if line.broke else "same line"
        lines.append(
            f"line move from #{line.previous} {_num(line.projection)} vs threshold "
            f"{_num(line.threshold)} → {verdict}"
        )
    for pane in model.panes.values():
        positions = pane.chars_of([index])
        if len(positions):
            lines.append(f"{pane.title}: character {int(positions[0])} of {len(pane.text)}")
    return lines


def record_rows(model: PageModel, index: int) -> list[tuple[str, str]]:
    glyph = model.glyphs[index]
    return [
        ("glyph", f"#{index} ({model.status[index].replace('_', ' ')})"),
        ("unicode", char_label(glyph.text)),
        ("code", f"0x{glyph.code:0{glyph.code_length * 2}X} ({glyph.code_length} byte)"),
        ("decode source", glyph.decode_source),
        ("font", f"{glyph.font_key} {glyph.font_name}"),
        ("font size", _num(glyph.font_size)),
        ("origin", _point(glyph.origin)),
        ("glyph end", _point(glyph.glyph_end)),
        ("baseline end", _point(glyph.baseline_end)),
        ("quad", " ".join(_point(p) for p in glyph.quad)),
        ("writing mode", "vertical (1)" if glyph.writing_mode else "horizontal (0)"),
        ("render mode", str(glyph.render_mode)),
        ("MCID", "—" if glyph.mcid is None else str(glyph.mcid)),
        ("token index", str(glyph.token_index)),
        ("operator / element", f"{glyph.operator_index} / {glyph.element_index}"),
        ("form", f"{glyph.form_path} (depth {glyph.form_depth})" if glyph.form_depth else "—"),
        ("draw order", str(glyph.draw_order)),
    ]


def glyph_tooltip(model: PageModel, index: int) -> str:
    """Compact HTML: the glyph's identity and every decision that touched it."""
    glyph = model.glyphs[index]
    head = (
        f"<b>{escape(char_label(glyph.text))}</b> &nbsp;#{index} · {escape(glyph.font_key)} "
        f"{glyph.font_size:.1f}pt · {escape(glyph.decode_source)}"
    )
    rows = [
        f"origin {_point(glyph.origin)} · MCID {'—' if glyph.mcid is None else glyph.mcid}"
        + (f" · form {escape(glyph.form_path)}" if glyph.form_depth else "")
    ]
    rows += [escape(line) for line in decision_lines(model, index)]
    return "<p style='white-space:pre'>" + head + "<br>" + "<br>".join(rows) + "</p>"


def glyph_details(model: PageModel, index: int) -> str:
    """The details panel: the full record as a table, then the decisions."""
    cells = "".join(
        f"<tr><td style='color:#555;padding-right:8px'>{escape(k)}</td><td>{escape(v)}</td></tr>"
        for k, v in record_rows(model, index)
    )
    decisions = "".join(f"<li>{escape(line)}</li>" for line in decision_lines(model, index))
    return (
        f"<table cellspacing='0'>{cells}</table>"
        f"<p><b>Decisions</b></p><ul style='margin-left:-20px'>{decisions or '<li>none</li>'}</ul>"
    )


def selection_text(pane: PaneText, glyph_indices: Iterable[int]) -> str:
    """The pane's text of the given glyphs, in the pane's order, with the spaces and line
    breaks the rules inserted between them (spec §6). Where unselected glyphs lie between two
    selected ones, one separator stands for them: a line break if one was skipped, else a
    space, so a rectangle across two columns does not run their words together."""
    positions = pane.chars_of(glyph_indices)
    if not len(positions):
        return ""
    low, high = int(positions[0]), int(positions[-1]) + 1
    wanted = np.zeros(high - low, dtype=bool)
    wanted[positions - low] = True
    owners = pane.char_glyphs[low:high]
    text = pane.text[low:high]
    parts: list[str] = []
    inserted = ""  # characters a rule inserted since the last kept character
    skipped = False  # an unselected glyph's character lies since the last kept one
    for offset, char in enumerate(text):
        if wanted[offset]:
            if skipped:
                parts.append("\n" if "\n" in inserted else " ")
            else:
                parts.append(inserted)
            parts.append(char)
            inserted, skipped = "", False
        elif owners[offset] < 0:
            inserted += char
        else:
            skipped = True
    return "".join(parts)


def selection_summary(model: PageModel, indices: Iterable[int]) -> str:
    indices = list(indices)
    if not indices:
        return "<p style='color:#666'>Click a glyph, drag a rectangle, or select text.</p>"
    if len(indices) == 1:
        return glyph_details(model, indices[0])
    shown = indices[:DETAILS_GLYPH_CAP]
    cap_note = (
        f" (text of the first {len(shown):,} of {len(indices):,} glyphs)"
        if len(shown) < len(indices)
        else ""
    )
    text = selection_text(model.panes["reading"], shown)
    outside = [i for i in shown if model.status[i] != GlyphStatus.VISIBLE]
    counts: dict[str, int] = {}
    for i in indices:
        counts[model.status[i]] = counts.get(model.status[i], 0) + 1
    status = ", ".join(f"{v:,} {k.replace('_', ' ')}" for k, v in sorted(counts.items()))
    dropped = (
        f"<p style='color:#555'>Not in the reading order (dropped): "
        f"{escape(''.join(model.glyphs[i].text or chr(0xFFFD) for i in outside[:200]))}</p>"
        if outside
        else ""
    )
    return (
        f"<p><b>{len(indices):,} glyphs selected</b> ({escape(status)}){cap_note}</p>"
        f"<pre style='white-space:pre'>{escape(text)}</pre>{dropped}"
    )
