"""The explanation bundle: one self-contained HTML file that shows a customer why the text of a
page came out as it did, and opens in any browser with no network.

Everything is inline: the page picture (with overlays and legend) as a data: URI, the text of
each mode, tables of the decisions (word gaps, line breaks, dropped glyphs), the rules used,
and the whole decision log (glyphscope.core.analysis.PageAnalysis.to_json, documented in
core/ANALYSIS_JSON.md) as JSON in a <script type="application/json">. A Content-Security-Policy
forbids every fetch, so nothing is loaded even if a page's own text names a URL.
"""

from __future__ import annotations

from dataclasses import fields
from html import escape

from glyphscope.core.rules import Rules
from glyphscope.inspector.export.common import TEXT_PIECE, base64_text

JSON_ELEMENT_ID = "glyphscope-analysis"
# Rows a table shows; the rest are in the embedded JSON (a page can log 100,000 decisions).
MAX_TABLE_ROWS = 500
# Tables longer than this start collapsed, with a summary line.
OPEN_TABLE_ROWS = 40
CSP = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    "script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
)

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ccc; }
img.page { max-width: 100%; border: 1px solid #999; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; white-space: pre; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border: 1px solid #ddd; padding: 2px 6px; text-align: left; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.space { color: #00a651; } .nospace { color: #777; } .changed { color: #c62828; font-weight: bold; }
.note { color: #555; font-size: 12px; }
tr.sel td { background: #fff3b0; } summary { cursor: pointer; color: #1a237e; }
"""

SCRIPT = """
(function () {
  var status = document.getElementById('json-status');
  try {
    var data = JSON.parse(document.getElementById('JSON_ID').textContent);
    status.textContent = data.glyphs.length + ' glyph records, ' + data.gaps.length +
      ' gap decisions, ' + data.dropped.length + ' dropped glyphs loaded from the embedded JSON.';
    status.setAttribute('data-glyphs', String(data.glyphs.length));
    var input = document.getElementById('glyph-index');
    var out = document.getElementById('glyph-record');
    input.addEventListener('input', function () {
      var record = data.glyphs[parseInt(input.value, 10)];
      out.textContent = record ? JSON.stringify(record, null, 2) : '';
    });
  } catch (error) {
    status.textContent = 'The embedded JSON could not be read: ' + error;
    status.setAttribute('data-error', '1');
  }
})();
""".replace("JSON_ID", JSON_ELEMENT_ID)


def embedded_json_pieces(analysis) -> list[str]:
    """The decision log of `analysis` (a core.analysis.PageAnalysis) as JSON safe inside
    <script>: '<', '>' and '&' escaped as \\u sequences, still valid JSON. Written from the
    glyph and decision columns (PageAnalysis.to_json_text) without a dictionary per record;
    nan and ±inf as null, which a browser's JSON.parse rejects. In pieces of TEXT_PIECE
    characters, escaped a piece at a time (a dense page's log is 10 MB: one str.replace over
    it held the GIL 15 ms)."""
    text = analysis.to_json_text()
    return [
        text[start : start + TEXT_PIECE]
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        for start in range(0, len(text), TEXT_PIECE)
    ]


def _char(glyphs, index: int) -> str:
    text = glyphs[index].text if 0 <= index < len(glyphs) else ""
    return escape(text) if text.strip() else ("∅" if text == "" else "·")


def _table(headers, rows, total: int, selected=frozenset(), what: str = "rows") -> str:
    """A table of the first rows; `selected` (row numbers) are highlighted and come first.
    Long tables start collapsed under a summary, so the page reads in a minute."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    order = sorted(range(len(rows)), key=lambda n: n not in selected)
    body = "".join(
        ("<tr class='sel'>" if n in selected else "<tr>") + "".join(rows[n]) + "</tr>"
        for n in order
    )
    more = (
        f"<p class='note'>{total - MAX_TABLE_ROWS} more rows are in the embedded JSON.</p>"
        if total > MAX_TABLE_ROWS
        else ""
    )
    table = f"<table><tr>{head}</tr>{body}</table>{more}"
    if len(rows) <= OPEN_TABLE_ROWS:
        return table
    marked = f", {len(selected)} touching the selection (highlighted, first)" if selected else ""
    return f"<details><summary>{total} {escape(what)}{marked}</summary>{table}</details>"


def _touching(pairs, chosen: frozenset) -> frozenset:
    """Row numbers whose (previous, current) glyph pair touches a chosen glyph."""
    return frozenset(n for n, (a, b) in enumerate(pairs) if a in chosen or b in chosen)


def _num(value) -> str:
    return "" if value is None else f"<td class='num'>{value:.2f}</td>"


def gaps_table(analysis, selection=frozenset()) -> str:
    glyphs = analysis.glyphs
    rows = []
    for gap in analysis.gaps[:MAX_TABLE_ROWS]:
        verdict = (
            "<td class='space'>space</td>" if gap.space else "<td class='nospace'>no space</td>"
        )
        rows.append(
            [
                f"<td class='num'>{gap.previous}</td>",
                f"<td class='num'>{gap.current}</td>",
                f"<td>{_char(glyphs, gap.previous)} | {_char(glyphs, gap.current)}</td>",
                _num(gap.gap),
                _num(gap.threshold),
                verdict,
                f"<td>{escape(gap.reason)}</td>",
            ]
        )
    headers = ("previous", "current", "pair", "gap", "threshold", "decision", "reason")
    shown = [(g.previous, g.current) for g in analysis.gaps[:MAX_TABLE_ROWS]]
    selected = _touching(shown, selection)
    return _table(headers, rows, len(analysis.gaps), selected, "gap decisions")


def line_breaks_table(analysis, selection=frozenset()) -> str:
    glyphs = analysis.glyphs
    rows = [
        [
            f"<td class='num'>{b.previous}</td>",
            f"<td class='num'>{b.current}</td>",
            f"<td>{_char(glyphs, b.previous)} → {_char(glyphs, b.current)}</td>",
            _num(b.projection),
            _num(b.threshold),
            "<td>new line</td>" if b.broke else "<td class='nospace'>same line</td>",
        ]
        for b in analysis.line_breaks[:MAX_TABLE_ROWS]
    ]
    headers = ("previous", "current", "pair", "move across", "threshold", "decision")
    shown = [(b.previous, b.current) for b in analysis.line_breaks[:MAX_TABLE_ROWS]]
    selected = _touching(shown, selection)
    return _table(headers, rows, len(analysis.line_breaks), selected, "line decisions")


def dropped_table(analysis, selection=frozenset()) -> str:
    glyphs = analysis.glyphs
    rows = []
    for dropped in analysis.dropped[:MAX_TABLE_ROWS]:
        detail = ""
        if dropped.kept is not None:
            detail = (
                f"copy of #{dropped.kept}: along {dropped.along:.2f}, across {dropped.across:.2f}, "
                f"size ×{dropped.size_ratio:.3f}"
            )
        elif dropped.box is not None:
            detail = "centre outside [" + ", ".join(f"{v:g}" for v in dropped.box) + "]"
        rows.append(
            [
                f"<td class='num'>{dropped.index}</td>",
                f"<td>{_char(glyphs, dropped.index)}</td>",
                f"<td>{escape(dropped.reason)}</td>",
                f"<td>{escape(detail)}</td>",
            ]
        )
    shown = [(d.index, d.kept) for d in analysis.dropped[:MAX_TABLE_ROWS]]
    selected = _touching(shown, selection)
    headers = ("glyph", "char", "reason", "numbers")
    return _table(headers, rows, len(analysis.dropped), selected, "dropped glyphs")


def rules_table(rules: Rules) -> str:
    defaults = Rules()
    rows = []
    for field in fields(Rules):
        value, default = getattr(rules, field.name), getattr(defaults, field.name)
        css = " class='changed'" if value != default else ""
        rows.append(
            [
                f"<td>{field.name}</td>",
                f"<td{css}>{escape(str(value))}</td>",
                f"<td>{escape(str(default))}</td>",
            ]
        )
    return _table(("rule", "used", "spec default"), rows, len(rows))


def texts_section(panes) -> str:
    """`panes`: glyphscope.core.view.page_model.PaneText per mode (title, text, note)."""
    parts = []
    for pane in panes:
        note = f"<p class='note'>{escape(pane.note)}</p>" if pane.note else ""
        parts.append(f"<h3>{escape(pane.title)}</h3>{note}<pre>{escape(pane.text)}</pre>")
    return "".join(parts)


def explanation_parts(
    analysis, panes, page_png: bytes, source_name: str, layer_titles=(), selection=()
) -> list[str]:
    """The whole bundle, in parts. `analysis` is a core.analysis.PageAnalysis, `panes` the
    text panes shown (core.view.page_model.PaneText), `page_png` the page picture with its
    overlays; decisions touching the `selection` glyphs are highlighted and listed first.
    The page picture's base64 and the embedded JSON's pieces are parts of their own: a
    worker encodes them one by one (export.common.utf8_pieces) rather than joining and
    encoding 10 MB in two calls that hold the GIL 13 to 18 ms each."""
    chosen = frozenset(selection)
    number = analysis.page_number
    visible = len(analysis.visible)
    layers = ", ".join(layer_titles) or "none"
    title = f"{source_name} — page {number} — Glyphscope explanation"
    head = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{STYLE}</style>
</head>
<body>
<h1>{escape(title)}</h1>
<p>{len(analysis.glyphs)} glyphs painted, {visible} visible, {len(analysis.dropped)} dropped.
Overlay layers drawn: {escape(layers)}.</p>
<p id="json-status" class="note">The embedded JSON has not been read (scripts disabled?).</p>
<h2>The page</h2>
<img class="page" alt="page {number} with overlays" src="data:image/png;base64,"""
    middle = f"""">
<h2>Text in each mode</h2>
{texts_section(panes)}
<h2>Word-gap decisions (spec §6)</h2>
<p class="note">Gap from the previous glyph end to the current origin, against
space_gap_ratio × the current box height.</p>
{gaps_table(analysis, chosen)}
<h2>Line-break decisions (spec §6)</h2>
{line_breaks_table(analysis, chosen)}
<h2>Dropped glyphs (spec §4, §5)</h2>
{dropped_table(analysis, chosen)}
<h2>Rules used</h2>
{rules_table(analysis.rules)}
<h2>Glyph records</h2>
<p>Glyph index: <input id="glyph-index" type="number" min="0" value=""></p>
<pre id="glyph-record"></pre>
<script type="application/json" id="{JSON_ELEMENT_ID}">"""
    tail = f"""</script>
<script>{SCRIPT}</script>
</body>
</html>
"""
    return [head, base64_text(page_png), middle, *embedded_json_pieces(analysis), tail]
