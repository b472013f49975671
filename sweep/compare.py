"""Two rule sets on one page: what changed in the decisions and in the words.

The decision changes come from `glyphscope.core.qa.diffing.rule_changes` (the inspector's
Rule-changes layer draws the same record); the word diff is of reading-order text, before
(the --rules set) against after (the --compare set).
"""

from __future__ import annotations

import difflib
from typing import NamedTuple

from glyphscope.core.analysis import PageAnalysis
from glyphscope.core.qa.diffing import RuleChanges, rule_changes

# Column names of the pages table, in RuleChanges.categories() order.
CHANGE_KINDS = (
    "spaces_gained",
    "spaces_lost",
    "lines_split",
    "lines_joined",
    "glyphs_newly_dropped",
    "glyphs_newly_kept",
)
KIND_TITLES = {
    "spaces_gained": "spaces gained",
    "spaces_lost": "spaces lost",
    "lines_split": "lines split",
    "lines_joined": "lines joined",
    "glyphs_newly_dropped": "glyphs dropped",
    "glyphs_newly_kept": "glyphs kept",
    "not_comparable": "painted glyphs changed",
    "text_only": "text changed, decisions the same",
}


def decision_changes(before: PageAnalysis, after: PageAnalysis) -> tuple[RuleChanges, dict]:
    """The RuleChanges record and its counts by kind (all 0 when not comparable)."""
    changes = rule_changes(before, after)
    counts = {
        "spaces_gained": len(changes.spaces_gained),
        "spaces_lost": len(changes.spaces_lost),
        "lines_split": len(changes.lines_split),
        "lines_joined": len(changes.lines_joined),
        "glyphs_newly_dropped": len(changes.newly_dropped),
        "glyphs_newly_kept": len(changes.newly_kept),
        "comparable": int(changes.comparable),
    }
    return changes, counts


class Hunk(NamedTuple):
    before: str
    after: str


def word_hunks(before: str, after: str) -> list[Hunk]:
    """The runs of words that differ, white space ignored."""
    words_before, words_after = before.split(), after.split()
    matcher = difflib.SequenceMatcher(None, words_before, words_after, autojunk=False)
    return [
        Hunk(" ".join(words_before[a0:a1]), " ".join(words_after[b0:b1]))
        for tag, a0, a1, b0, b1 in matcher.get_opcodes()
        if tag != "equal"
    ]


def words_changed(before: str, after: str) -> int:
    """Words of either side that fall in a differing run (0 = the same words in order)."""
    return sum(len(h.before.split()) + len(h.after.split()) for h in word_hunks(before, after))


def main_kind(counts: dict[str, int]) -> str:
    """The kind of change a page is grouped under in the report: its most frequent one."""
    if not counts.get("comparable", 1):
        return "not_comparable"
    best = max(CHANGE_KINDS, key=lambda kind: counts.get(kind, 0))
    return best if counts.get(best, 0) else "text_only"
