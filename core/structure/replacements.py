"""A structure element's /ActualText (§14.9.4), or /E (§14.9.5) when `rules.use_expansion`,
read in structure order: the glyphs of the element's marked content (its own and its
descendants') write the replacement instead, through core.text.prepared.replace_groups. The
outermost element with replacement text wins, as for nested marked content."""

from __future__ import annotations

from glyphscope.core.rules import Rules
from glyphscope.core.structure.records import McidKey, StructureNode

STRUCTURE_ACTUAL_TEXT = "structure_actual_text"
STRUCTURE_EXPANSION = "structure_expansion"

Group = tuple[list[int], str, str, tuple[int, int]]


def element_groups(
    root: StructureNode,
    glyph_order: tuple[int, ...],
    ranges: dict[McidKey, tuple[int, int]],
    rules: Rules,
) -> list[Group]:
    """(glyphs in structure order, text, source, [start, end) in glyph_order) per element with
    replacement text; `ranges` maps each marked-content key to its range in glyph_order."""
    groups: list[Group] = []
    stack = [root]
    while stack:
        node = stack.pop()
        text, source = _replacement(node, rules)
        if text is None:
            stack.extend(reversed(node.children))
            continue
        places = sorted(place for key in _keys(node) for place in range(*ranges.get(key, (0, 0))))
        if places:
            groups.append(
                ([glyph_order[p] for p in places], text, source, (places[0], places[-1] + 1))
            )
    return groups


def _replacement(node: StructureNode, rules: Rules) -> tuple[str | None, str]:
    if rules.use_expansion:
        expansion = dict(node.raw).get("E")
        if expansion is not None:
            return expansion, STRUCTURE_EXPANSION
    return node.actual_text, STRUCTURE_ACTUAL_TEXT


def _keys(node: StructureNode) -> list[McidKey]:
    keys: list[McidKey] = []
    stack = [node]
    while stack:
        current = stack.pop()
        keys.extend((None, mcid) for mcid in current.mcids)
        keys.extend(current.form_mcids)
        stack.extend(current.children)
    return keys
