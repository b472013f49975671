"""A page's text before and after a change of the rules, line by line (HTML for a browser)."""

from __future__ import annotations

import difflib
from html import escape

from glyphscope.core.qa.diffing import LineChange

ADDED = "#c8f7c5"
REMOVED = "#ffd6d6"
CHANGED_LINE = "#fff6d5"


def _marked(text: str, spans: list[tuple[int, int]], colour: str) -> str:
    """`text` escaped, with the character spans [start, end) on a coloured background; a
    changed space shows as a middle dot so a lost or gained word space is visible."""
    out, position = [], 0
    for start, end in spans:
        out.append(escape(text[position:start]))
        changed = text[start:end].replace(" ", "·")
        out.append(f"<span style='background:{colour}'>{escape(changed)}</span>")
        position = end
    out.append(escape(text[position:]))
    return "".join(out)


def _line_pair(before: str, after: str) -> tuple[str, str]:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    removed, added = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed.append((i1, i2))
        if tag in ("replace", "insert"):
            added.append((j1, j2))
    return _marked(before, removed, REMOVED), _marked(after, added, ADDED)


def diff_html(rows: list[LineChange], before_label: str, after_label: str) -> str:
    """glyphscope.core.qa.diffing.line_diff rows inline: each changed line as "−" before and
    "+" after, one above the other, so a narrow dock shows both without scrolling sideways."""
    if not rows:
        return "<p style='color:#2e7d32'>The text is the same before and after.</p>"
    lines = [
        f"<p><span style='background:{REMOVED}'>− {escape(before_label)}</span> &nbsp; "
        f"<span style='background:{ADDED}'>+ {escape(after_label)}</span></p><pre>"
    ]
    for row in rows:
        # line_diff leaves a side None only where the tag says that side has no line.
        before, after = row.before or "", row.after or ""
        if row.tag == "gap":
            lines.append("<span style='color:#888'>  ⋯</span>")
        elif row.tag == "equal":
            lines.append("  " + escape(before))
        elif row.tag == "replace":
            left, right = _line_pair(before, after)
            lines.append(f"<span style='background:{CHANGED_LINE}'>− {left}</span>")
            lines.append(f"<span style='background:{CHANGED_LINE}'>+ {right}</span>")
        elif row.tag == "delete":
            lines.append(f"<span style='background:{REMOVED}'>− {escape(before)}</span>")
        else:
            lines.append(f"<span style='background:{ADDED}'>+ {escape(after)}</span>")
    return "\n".join(lines) + "</pre>"
