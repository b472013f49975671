"""Differences between two readings of one page, as plain data the inspector draws.

- `rule_changes(before, after)`: what a change of the rules did to one page's decisions
  (spec §4–§6): word spaces gained and lost, lines split and joined, glyphs newly dropped
  and newly kept, each named by glyph indices so it can be drawn.
- `word_diff(ours, theirs)`: our reading-order text against another extractor's text (pdfium,
  through `PdfiumText`), word by word; every difference carries the glyph indices behind our
  words (`TextResult.char_glyphs`), so it can be shown on the page.

pypdfium2 is used here only as the comparison target; no engine decision reads it.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from glyphscope.core.records import TextMode
from glyphscope.core.rules import Rules
from glyphscope.core.text.decisions import GapColumns, LineBreakColumns
from glyphscope.core.text.reading import GapDecision, LineBreakDecision, TextResult

if TYPE_CHECKING:
    import pypdfium2

    from glyphscope.core.analysis import PageAnalysis

Pair = tuple[int, int]

_WORD = re.compile(r"\S+")
# pdfium marks soft line-end hyphens and unknown characters with non-characters and C0
# controls; they are not text either side would search for.
_NOT_TEXT = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True, slots=True)
class RuleChanges:
    """What one page's decisions became under other rules, glyph indices of `after`.

    A space is a (previous, current) pair with an inserted word space (§6); a line break a
    pair whose origin move broke the line. `comparable` is False when the rules changed which
    glyphs were painted (form depth, resource limits), so indices no longer line up.
    """

    changed_rules: tuple[tuple[str, object, object], ...]
    spaces_gained: tuple[Pair, ...]
    spaces_lost: tuple[Pair, ...]
    lines_split: tuple[Pair, ...]
    lines_joined: tuple[Pair, ...]
    newly_dropped: tuple[int, ...]
    newly_kept: tuple[int, ...]
    comparable: bool = True
    glyphs_before: int = 0
    glyphs_after: int = 0

    @property
    def total(self) -> int:
        return (
            len(self.spaces_gained)
            + len(self.spaces_lost)
            + len(self.lines_split)
            + len(self.lines_joined)
            + len(self.newly_dropped)
            + len(self.newly_kept)
        )

    def categories(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """(category, glyph indices) for each kind of change, in a fixed order."""
        return (
            ("spaces gained", _pair_glyphs(self.spaces_gained)),
            ("spaces lost", _pair_glyphs(self.spaces_lost)),
            ("lines split", _pair_glyphs(self.lines_split)),
            ("lines joined", _pair_glyphs(self.lines_joined)),
            ("glyphs newly dropped", self.newly_dropped),
            ("glyphs newly kept", self.newly_kept),
        )

    def summary(self) -> str:
        if not self.comparable:
            return (
                f"painted glyphs changed ({self.glyphs_before} → {self.glyphs_after}); "
                "decisions cannot be compared glyph by glyph"
            )
        return (
            f"spaces +{len(self.spaces_gained)} −{len(self.spaces_lost)} · "
            f"lines split {len(self.lines_split)}, joined {len(self.lines_joined)} · "
            f"glyphs dropped +{len(self.newly_dropped)}, kept +{len(self.newly_kept)}"
        )


def changed_rules(before: Rules, after: Rules) -> tuple[tuple[str, object, object], ...]:
    """(name, old value, new value) of every field that differs."""
    return tuple(
        (f.name, getattr(before, f.name), getattr(after, f.name))
        for f in fields(Rules)
        if getattr(before, f.name) != getattr(after, f.name)
    )


def rule_changes(before: PageAnalysis, after: PageAnalysis) -> RuleChanges:
    """Compare two analyses of one page made under different rules."""
    rules = changed_rules(before.rules, after.rules)
    if before.glyphs != after.glyphs:
        return RuleChanges(
            rules, (), (), (), (), (), (), False, len(before.glyphs), len(after.glyphs)
        )
    spaces_before, spaces_after = _spaces(before), _spaces(after)
    breaks_before, breaks_after = _breaks(before), _breaks(after)
    dropped_before = {d.index for d in before.dropped}
    dropped_after = {d.index for d in after.dropped}
    return RuleChanges(
        changed_rules=rules,
        spaces_gained=tuple(sorted(spaces_after - spaces_before)),
        spaces_lost=tuple(sorted(spaces_before - spaces_after)),
        lines_split=tuple(sorted(breaks_after - breaks_before)),
        lines_joined=tuple(sorted(breaks_before - breaks_after)),
        newly_dropped=tuple(sorted(dropped_after - dropped_before)),
        newly_kept=tuple(sorted(dropped_before - dropped_after)),
        glyphs_before=len(before.glyphs),
        glyphs_after=len(after.glyphs),
    )


# The text modes a page's analysis carries, as the inspector's panes name them.
TEXT_MODES = (TextMode.READING, TextMode.LAYOUT, TextMode.STRUCTURE, TextMode.COLUMNS)


def mode_text(analysis: PageAnalysis, mode: str) -> str:
    """One text mode's output of an analysis ("" when the page has no structure order)."""
    result = getattr(analysis, mode)
    if result is None:
        return ""
    # ColumnsResult and StructureResult wrap a TextResult in `.text`.
    while not isinstance(result.text, str):
        result = result.text
    return result.text


class LineChange(NamedTuple):
    """One row of a side-by-side text diff: tag is "equal", "replace", "delete" or
    "insert"; a side without the line holds None."""

    tag: str
    before: str | None
    after: str | None


def line_diff(before: str, after: str, context: int = 1) -> list[LineChange]:
    """The changed lines of two texts with `context` unchanged lines around each change
    (an empty list: the texts are equal); a "gap" row stands for unchanged lines left out.
    Rows of a replaced block are paired in order."""
    if before == after:
        # What the matcher finds, without its pass over every line: a dense page's hundreds
        # of alike lines took it 30 to 50 ms on the GUI thread after each rule change.
        return []
    old, new = before.split("\n"), after.split("\n")
    rows: list[LineChange] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(context):
        if rows:
            rows.append(LineChange("gap", None, None))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                rows += [LineChange("equal", line, line) for line in old[i1:i2]]
                continue
            olds, news = old[i1:i2], new[j1:j2]
            for k in range(max(len(olds), len(news))):
                left = olds[k] if k < len(olds) else None
                right = news[k] if k < len(news) else None
                if left is not None and right is not None:
                    kind = "replace"
                else:
                    kind = "delete" if right is None else "insert"
                rows.append(LineChange(kind, left, right))
    return rows


def decision_pairs(
    analysis: PageAnalysis, wanted: Collection[Pair] | None = None
) -> tuple[dict[Pair, object], dict[Pair, object]]:
    """The gap and line-break decisions of an analysis by (previous, current) glyph pair;
    only those of the `wanted` pairs when given (the few a panel lists, found with numpy
    rather than by filing a dense page's every decision)."""
    return _by_pair(analysis.gaps, wanted), _by_pair(analysis.line_breaks, wanted)


def _by_pair(
    decisions: Sequence[GapDecision] | Sequence[LineBreakDecision], wanted: Collection[Pair] | None
) -> dict[Pair, object]:
    if wanted is None:
        return {(d.previous, d.current): d for d in decisions}
    previous, current, _ = _columns(decisions, "previous")
    pairs = np.asarray(list(wanted), dtype=np.int64).reshape(-1, 2)
    if not len(pairs) or not len(previous):
        return {}
    base = int(max(current.max(), pairs[:, 1].max(), 0)) + 1
    chosen = np.flatnonzero(np.isin(previous * base + current, pairs[:, 0] * base + pairs[:, 1]))
    return {(decisions[i].previous, decisions[i].current): decisions[i] for i in chosen.tolist()}


def _columns(
    decisions: Sequence[GapDecision] | Sequence[LineBreakDecision], flag: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The decisions' previous and current glyphs and one more field, as numpy columns
    (C-level loops: a dense page has tens of thousands of decisions)."""
    if isinstance(decisions, (GapColumns, LineBreakColumns)):
        # The analysis' own columns: no record is made (reading them as records held the
        # GUI thread 10 ms per list on a dense page after each rule change).
        return decisions.previous, decisions.current, getattr(decisions, flag)
    count = len(decisions)
    return (
        np.fromiter(map(attrgetter("previous"), decisions), dtype=np.int64, count=count),
        np.fromiter(map(attrgetter("current"), decisions), dtype=np.int64, count=count),
        np.fromiter(map(attrgetter(flag), decisions), dtype=np.int64, count=count),
    )


def _flagged_pairs(
    decisions: Sequence[GapDecision] | Sequence[LineBreakDecision], flag: str
) -> set[Pair]:
    previous, current, flags = _columns(decisions, flag)
    chosen = flags != 0
    return set(zip(previous[chosen].tolist(), current[chosen].tolist(), strict=True))


def _spaces(analysis: PageAnalysis) -> set[Pair]:
    return _flagged_pairs(analysis.gaps, "space")


def _breaks(analysis: PageAnalysis) -> set[Pair]:
    return _flagged_pairs(analysis.line_breaks, "broke")


def _pair_glyphs(pairs: Iterable[Pair]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(index for pair in pairs for index in pair))


# -- word diff against another extractor ------------------------------------------------------


class Word(NamedTuple):
    text: str
    start: int  # [start, end) in the text it came from
    end: int


class WordDifference(NamedTuple):
    """One run of words that differ. kind: "replace", "missing" (only pdfium has it) or
    "extra" (only we have it). `glyphs` are the glyphs behind `ours`."""

    kind: str
    ours: str
    theirs: str
    our_span: tuple[int, int]
    glyphs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WordDiff:
    differences: tuple[WordDifference, ...]
    our_words: int
    their_words: int
    differing_words: int  # ours and theirs counted in differences

    @property
    def disagreement(self) -> float:
        """Share of all words, ours and theirs, that fall in a difference (0 = identical)."""
        total = self.our_words + self.their_words
        return self.differing_words / total if total else 0.0


def words(text: str) -> list[Word]:
    return [Word(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]


def comparison_key(word: str) -> str:
    """NFKC folds presentation forms both sides may or may not expand (ﬁ, full-width
    digits), so only differences a reader would see remain."""
    return unicodedata.normalize("NFKC", word)


def clean_pdfium_text(text: str) -> str:
    return _NOT_TEXT.sub(" ", text)


def word_diff(ours: TextResult, theirs: str) -> WordDiff:
    """Our reading-order text against `theirs`, word by word (white space ignored)."""
    our_words = words(ours.text)
    their_words = words(clean_pdfium_text(theirs))
    matcher = difflib.SequenceMatcher(
        None,
        [comparison_key(w.text) for w in our_words],
        [comparison_key(w.text) for w in their_words],
        autojunk=False,
    )
    differences: list[WordDifference] = []
    differing = 0
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        kind = {"replace": "replace", "delete": "extra", "insert": "missing"}[tag]
        mine = our_words[a0:a1]
        span = (mine[0].start, mine[-1].end) if mine else _insertion_point(our_words, a0)
        differences.append(
            WordDifference(
                kind=kind,
                ours=" ".join(w.text for w in mine),
                theirs=" ".join(w.text for w in their_words[b0:b1]),
                our_span=span,
                glyphs=_glyphs_in(ours.char_glyphs, *span),
            )
        )
        differing += (a1 - a0) + (b1 - b0)
    return WordDiff(tuple(differences), len(our_words), len(their_words), differing)


def _insertion_point(our_words: Sequence[Word], index: int) -> tuple[int, int]:
    """Where a word only pdfium has would go: the end of our preceding word (empty span)."""
    if index > 0:
        end = our_words[index - 1].end
        return (end, end)
    return (0, 0)


def _glyphs_in(char_glyphs: Sequence[int], start: int, end: int) -> tuple[int, ...]:
    return tuple(dict.fromkeys(i for i in char_glyphs[start:end] if i >= 0))


class PdfiumText:
    """pdfium's text of a document's pages: the comparison target. pdfium is not thread-safe;
    the inspector calls every method from its one pdfium thread."""

    def __init__(self) -> None:
        self._document: pypdfium2.PdfDocument | None = None
        self._source: tuple[str, str | None] | None = None

    def open(self, path: str, password: str | None = None) -> int:
        import pypdfium2 as pdfium

        if self._document is None or self._source != (path, password):
            self.close()
            self._document = pdfium.PdfDocument(path, password=password or None)
            self._source = (path, password)
        return len(self._document)

    def page_text(self, index: int) -> str:
        if self._document is None:
            raise ValueError("PdfiumText.page_text called before open")
        page = self._document[index]
        try:
            text_page = page.get_textpage()
            try:
                return text_page.get_text_range()
            finally:
                text_page.close()
        finally:
            page.close()

    def close(self) -> None:
        if self._document is not None:
            self._document.close()
        self._document = None
        self._source = None
