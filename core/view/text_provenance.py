"""The provenance pane's account of what happened to a glyph's text after decoding (issue
12): ActualText or /E read instead of it, an accent merged into it or into its base, the
right-to-left run that reordered it, and why a reader would not see it. Plain HTML."""

from __future__ import annotations

from html import escape

from glyphscope.core.text.prepared import EXPANSION
from glyphscope.core.view.page_model import PageModel


def text_step_items(model: PageModel, index: int) -> list[str]:
    analysis = model.analysis
    items = []
    for replacement in getattr(analysis, "replacements", ()):
        if index in replacement.glyphs:
            section = "§14.9.5 /E" if replacement.source == EXPANSION else "§14.9.4 /ActualText"
            owner = "writes" if replacement.glyphs[0] == index else "is covered by"
            items.append(
                f"<li><b>{escape(replacement.source)}</b> — marked content {section}: this "
                f"glyph {owner} “{escape(replacement.text)}” for glyphs "
                f"{', '.join(map(str, replacement.glyphs))} (the record keeps its decoded text)"
                "</li>"
            )
    for merge in getattr(analysis, "accents", ()):
        if index in (merge.accent, merge.base):
            items.append(
                f"<li><b>accent</b> — glyph {merge.accent} merged into base {merge.base} "
                f"(overlap {merge.overlap:.2f}): the base writes “{escape(merge.text)}”</li>"
            )
    for run in getattr(analysis, "reading_bidi", ()):
        if index in run.glyphs:
            action = "reordered to logical order" if run.reordered else "already logical"
            items.append(
                f"<li><b>bidi</b> — {run.direction} run, level {run.level} (UAX #9), "
                f"painted in {run.drawn} order: {action}</li>"
            )
    for hidden in getattr(analysis, "hidden", ()):
        if hidden.glyph == index:
            items.append(f"<li><b>hidden</b> — {escape(', '.join(hidden.reasons))}</li>")
    return items


def text_step_html(model: PageModel, index: int) -> str:
    items = text_step_items(model, index)
    return f"<ul style='margin-left:-20px'>{''.join(items)}</ul>" if items else ""


def linked_glyphs(model: PageModel | None, indices: tuple[int, ...]) -> tuple[int, ...]:
    """`indices` with the glyphs that write text together with them: every glyph of an
    ActualText span, an accent and its base. Selecting one shows the text they write."""
    if model is None or not indices:
        return indices
    chosen = set(indices)
    linked = list(indices)
    analysis = model.analysis
    groups = [r.glyphs for r in getattr(analysis, "replacements", ())]
    groups += [(m.base, m.accent) for m in getattr(analysis, "accents", ())]
    for group in groups:
        if chosen.intersection(group):
            linked.extend(i for i in group if i not in chosen)
            chosen.update(group)
    return tuple(linked)
