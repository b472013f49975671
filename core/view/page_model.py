"""The view model of one analysed page, prepared off the GUI thread (no Qt here).

`build_page_model` turns core's `PageAnalysis` into arrays and lookups the widgets draw from:
glyph quads as one numpy array, a spatial index, every decision filed under the glyphs it
touched, and each text pane's character → glyph map with its inverse.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, Generic, TypeVar, cast

import numpy as np

from glyphscope.core.analysis import PageAnalysis
from glyphscope.core.geometry import Rect
from glyphscope.core.glyph_table import NO_MCID, GlyphColumns
from glyphscope.core.structure.order import StructureResult
from glyphscope.core.text.columns import ColumnsResult
from glyphscope.core.text.decisions import DecisionColumns
from glyphscope.core.text.packed import ValueColumn
from glyphscope.core.text.reading import GapDecision, LineBreakDecision, TextResult
from glyphscope.core.text.visible import DroppedGlyph, GlyphStatus
from glyphscope.core.view.glyph_arrays import (
    Categories,
    DecisionArrays,
    GlyphArrays,
    decision_arrays,
    glyph_arrays,
)
from glyphscope.core.view.spatial import GlyphGrid

# The panes of the first inspector issue, in the order they are shown.
PANE_TITLES = {
    "reading": "Reading order",
    "layout": "Layout",
    "structure": "Structure order",
    "columns": "Columns",
}

NO_STRUCTURE_NOTE = (
    "No structure order for this page (§14.8.4): the document has no /StructTreeRoot, the "
    "page's text was never tagged, or the tree references none of its MCIDs. The engine "
    "never invents an order; read the reading-order pane instead."
)


def utf16_offsets(text: str) -> np.ndarray:
    """Qt cursor position of each Python character, plus the end (non-BMP chars take two)."""
    # "surrogatepass": a lone surrogate in the text is one character, as anywhere else.
    points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    widths = np.where(points > 0xFFFF, 2, 1)
    return np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)


_Decision = TypeVar("_Decision", GapDecision, LineBreakDecision)


class DecisionsByGlyph(Mapping[int, _Decision], Generic[_Decision]):
    """Glyph → the decision whose `keys` entry (its `previous` or `current` glyph) is that
    glyph, the later one where two are (as a dict filled in order would keep). Looked up in
    the decisions' key column, so filing a page's decisions makes no record: the one asked
    for is made then (GapColumns and LineBreakColumns make records on demand). Iterates in
    glyph order."""

    def __init__(self, decisions: Sequence[_Decision], keys: np.ndarray) -> None:
        self._decisions: Sequence[_Decision] = decisions
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        # The last of each run of equal keys: the later decision.
        last = np.ones(len(sorted_keys), dtype=bool)
        last[:-1] = sorted_keys[1:] != sorted_keys[:-1]
        self._keys = sorted_keys[last]
        self._positions = order[last]

    @classmethod
    def of(cls, decisions: Sequence[_Decision], key: str) -> DecisionsByGlyph[_Decision]:
        """The decisions filed under their `key` field ("previous" or "current")."""
        if isinstance(decisions, DecisionColumns):
            keys = getattr(decisions, key)
        else:
            keys = np.asarray([getattr(d, key) for d in decisions], dtype=np.int64)
        return cls(decisions, keys)

    def __getitem__(self, glyph: int) -> _Decision:
        if not isinstance(glyph, (int, np.integer)):
            raise KeyError(glyph)
        at = int(np.searchsorted(self._keys, glyph))
        if at == len(self._keys) or self._keys[at] != glyph:
            raise KeyError(glyph)
        return self._decisions[int(self._positions[at])]

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys.tolist())

    def __len__(self) -> int:
        return len(self._keys)


@dataclass(frozen=True, slots=True)
class PaneText:
    """One text mode's output and the glyph behind each character (-1: inserted by a rule).
    Built by `make`, which derives the lookup columns."""

    name: str
    title: str
    text: str
    char_glyphs: np.ndarray
    note: str
    # Character positions sorted by glyph, for glyph → characters lookups.
    _order: np.ndarray = field(repr=False)
    # Qt (UTF-16) cursor position of each character and of the end: non-BMP chars take two.
    offsets: np.ndarray = field(repr=False)
    # char_glyphs[_order], sorted once here rather than on every hover and selection.
    _sorted_glyphs: np.ndarray = field(repr=False)

    @classmethod
    def make(
        cls, name: str, text: str, char_glyphs: Iterable[int] | None, note: str = ""
    ) -> PaneText:
        mapping = np.full(len(text), -1, dtype=np.int64)
        if char_glyphs is not None:
            if not isinstance(char_glyphs, (np.ndarray, list, tuple)):
                char_glyphs = list(char_glyphs)
            given = np.asarray(char_glyphs, dtype=np.int64)[: len(text)]
            mapping[: len(given)] = given
        order = np.argsort(mapping, kind="stable")
        title = PANE_TITLES.get(name, name)
        return cls(name, title, text, mapping, note, order, utf16_offsets(text), mapping[order])

    def chars_of(self, glyph_indices: Iterable[int]) -> np.ndarray:
        """Positions of the characters that came from any of the given glyphs, ascending."""
        wanted = np.asarray(sorted(set(glyph_indices)), dtype=np.int64)
        if not len(wanted) or not len(self.char_glyphs):
            return np.zeros(0, dtype=np.int64)
        starts = np.searchsorted(self._sorted_glyphs, wanted, side="left")
        ends = np.searchsorted(self._sorted_glyphs, wanted, side="right")
        parts = [self._order[s:e] for s, e in zip(starts, ends, strict=True) if e > s]
        return np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    def glyphs_in(self, start: int, end: int) -> list[int]:
        """The glyphs behind characters [start, end), in order, without repeats."""
        seen = self.char_glyphs[max(start, 0) : max(end, 0)]
        return list(dict.fromkeys(int(i) for i in seen if i >= 0))


@dataclass(slots=True)
class PageModel:
    page_index: int
    analysis: PageAnalysis
    glyphs: GlyphColumns
    quads: np.ndarray  # (N, 4, 2) user space
    grid: GlyphGrid
    status: tuple[GlyphStatus, ...]  # per glyph
    dropped: dict[int, DroppedGlyph]  # by glyph index
    kept_copies: dict[int, list[int]]  # kept glyph → the duplicates dropped in its favour
    gaps_before: Mapping[int, GapDecision]  # glyph → the decision with current == glyph
    gaps_after: Mapping[int, GapDecision]  # glyph → the decision with previous == glyph
    breaks_before: Mapping[int, LineBreakDecision]  # glyph → the decision with current == glyph
    panes: dict[str, PaneText]
    media_box: Rect
    crop_box: Rect
    visible_box: Rect
    bounds: Rect  # everything drawn: boxes and every quad
    text_bounds: Rect  # the visible box and every quad (what "fit page" shows)
    fonts: tuple[str, ...]
    mcids: tuple[int, ...]
    reading_order: tuple[int, ...]  # visible glyphs in reading order (for the path layer)
    arrays: GlyphArrays
    decisions: DecisionArrays
    truncated: bool = False
    warnings: tuple[str, ...] = ()
    # The pikepdf half of the hidden-text pixel test (core.text.ink.InkRequest), prepared
    # with the analysis; the render thread runs the pdfium half.
    ink_request: object = None

    def __reduce__(self) -> tuple[Callable[..., PageModel], tuple[dict, ValueColumn]]:
        # Sent from the analysis worker to the window: the analysis packs its records
        # (PageAnalysis.__reduce__); the lookups derived from them are rebuilt on arrival
        # rather than pickled a second time, object by object.
        values = {name: getattr(self, name) for name in _SENT_FIELDS}
        if self.glyphs is not self.analysis.glyphs:
            values["glyphs"] = self.glyphs
        # The statuses go as the codes of `arrays.status` (the same values), not a pass over
        # every glyph's.
        statuses = self.arrays.status
        table = tuple(map(GlyphStatus, statuses.labels))
        return (_restore_page_model, (values, ValueColumn(table, statuses.codes)))

    @property
    def count(self) -> int:
        return len(self.glyphs)

    def glyph_rect(self, indices: Iterable[int]) -> Rect | None:
        """The user-space bounding box of the given glyphs' quads (None: none drawable)."""
        count = self.count
        wanted = np.asarray([i for i in indices if 0 <= i < count], dtype=np.int64)
        if not len(wanted):
            return None
        quads = self.quads[wanted]
        quads = quads[np.isfinite(quads).all(axis=(1, 2))]
        if not len(quads):
            return None
        return (
            float(quads[:, :, 0].min()),
            float(quads[:, :, 1].min()),
            float(quads[:, :, 0].max()),
            float(quads[:, :, 1].max()),
        )


def build_page_model(
    page_index: int, analysis: PageAnalysis, structure_reason: str = ""
) -> PageModel:
    """Everything the widgets need from one `core.analysis.PageAnalysis`; `structure_reason`
    says why there is no structure order (glyphscope.core.structure.order.NoStructure.reason)."""
    glyphs = analysis.glyphs
    if not isinstance(glyphs, GlyphColumns):
        glyphs = GlyphColumns.from_glyphs(glyphs)
    quads = glyphs.quad
    lookups = _lookups(analysis)
    dropped = lookups["dropped"]
    kept_copies: dict[int, list[int]] = defaultdict(list)
    for record in analysis.dropped:
        if record.kept is not None:
            kept_copies[record.kept].append(record.index)
    status_codes = _status_codes(len(glyphs), analysis.visible, analysis.dropped)
    status = tuple(_STATUS_MEMBERS[status_codes].tolist())
    statuses = Categories.of_codes(status_codes, _STATUSES)
    media_box = analysis.media_box
    crop_box = analysis.crop_box
    grid = GlyphGrid(quads)
    visible_box = analysis.visible_box
    return PageModel(
        page_index=page_index,
        analysis=analysis,
        glyphs=glyphs,
        quads=quads,
        grid=grid,
        status=status,
        kept_copies=dict(kept_copies),
        **lookups,
        panes=page_panes(analysis, structure_reason),
        media_box=media_box,
        crop_box=crop_box,
        visible_box=visible_box,
        bounds=_bounds(quads, (media_box, crop_box, visible_box)),
        text_bounds=_bounds(quads, (visible_box,)),
        fonts=tuple(sorted(set(glyphs.font_key))),
        mcids=tuple(np.unique(glyphs.mcid[glyphs.mcid != NO_MCID]).tolist()),
        reading_order=_reading_order(analysis),
        arrays=glyph_arrays(glyphs, statuses, dropped, grid.bounds, _larger_side(media_box)),
        decisions=decision_arrays(analysis.gaps, analysis.line_breaks),
        truncated=analysis.truncated,
        warnings=tuple(analysis.warnings),
    )


# Rebuilt from the analysis wherever a model is made or arrives (_lookups).
_DERIVED = ("glyphs", "status", "dropped", "gaps_before", "gaps_after", "breaks_before")
_SENT_FIELDS = tuple(f.name for f in fields(PageModel) if f.name not in _DERIVED)


_STATUSES = tuple(GlyphStatus)
_STATUS_MEMBERS = np.empty(len(_STATUSES), dtype=object)
_STATUS_MEMBERS[:] = _STATUSES


def _status_codes(
    count: int, visible: Sequence[int], dropped: Sequence[DroppedGlyph]
) -> np.ndarray:
    """Each glyph's status as its position in _STATUSES: visible, dropped for its record's
    reason (a dropped record wins over the visible list), or else outside the visible box."""
    table = _STATUSES
    codes = np.full(count, table.index(GlyphStatus.OUTSIDE_VISIBLE_BOX), dtype=np.int64)
    codes[np.asarray(visible, dtype=np.int64)] = table.index(GlyphStatus.VISIBLE)
    if dropped:
        reasons = list(map(attrgetter("reason"), dropped))
        code_of = {reason: table.index(GlyphStatus(reason)) for reason in set(reasons)}
        # A glyph dropped twice takes its later record's reason: the first of the reversed.
        indices = np.fromiter(map(attrgetter("index"), reversed(dropped)), dtype=np.int64)
        glyphs, first = np.unique(indices, return_index=True)
        reason_codes = np.fromiter(map(code_of.__getitem__, reversed(reasons)), dtype=np.int64)
        codes[glyphs] = reason_codes[first]
    return codes


def _lookups(analysis: PageAnalysis) -> dict[str, Any]:
    """The decisions filed under their glyphs (later decisions win, as in a dict display),
    over the decisions' key columns, so a model arriving in the window costs it no
    per-decision Python."""
    gaps, breaks, dropped = analysis.gaps, analysis.line_breaks, analysis.dropped
    return {
        "dropped": dict(zip(map(attrgetter("index"), dropped), dropped, strict=True)),
        "gaps_before": DecisionsByGlyph.of(gaps, "current"),
        "gaps_after": DecisionsByGlyph.of(gaps, "previous"),
        "breaks_before": DecisionsByGlyph.of(breaks, "current"),
    }


def _restore_page_model(values: dict, status: ValueColumn) -> PageModel:
    analysis = values["analysis"]
    values.setdefault("glyphs", analysis.glyphs)
    values.update(_lookups(analysis))
    statuses = cast("list[GlyphStatus]", status.values())
    return PageModel(status=tuple(statuses), **values)


def page_panes(analysis: PageAnalysis, structure_reason: str = "") -> dict[str, PaneText]:
    """Each text mode's pane (reading order, layout, structure, columns) of the analysis."""
    panes: dict[str, PaneText] = {}
    panes["reading"] = _pane("reading", analysis.reading)
    panes["layout"] = _pane("layout", analysis.layout)
    structure = analysis.structure
    if structure is None:
        note = f"No structure order: {structure_reason}." if structure_reason else NO_STRUCTURE_NOTE
        panes["structure"] = PaneText.make("structure", "", None, note)
    else:
        verdict = "trusted" if structure.trusted else "NOT trusted: fall back on geometry"
        note = (
            f"{len(structure.untagged)} of {structure.total} glyphs untagged "
            "(appended after the structured text); "
            f"structure order {verdict} (§9: trusted when untagged × 4 ≤ total)."
        )
        panes["structure"] = _pane("structure", structure, note)
    panes["columns"] = _pane("columns", analysis.columns)
    return panes


def _pane(
    name: str, result: TextResult | ColumnsResult | StructureResult, note: str = ""
) -> PaneText:
    text = result if isinstance(result, TextResult) else result.text
    return PaneText.make(name, text.text, text.char_glyphs, note)


def _reading_order(analysis: PageAnalysis) -> tuple[int, ...]:
    """Glyph indices in the order the reading-order text (spec §6) first writes them."""
    owners = np.asarray(analysis.reading.char_glyphs, dtype=np.int64)
    owners = owners[owners >= 0]
    _, first = np.unique(owners, return_index=True)
    return tuple(owners[np.sort(first)].tolist())


def _larger_side(box: Rect) -> float:
    return max(abs(box[2] - box[0]), abs(box[3] - box[1]))


def _bounds(quads: np.ndarray, boxes: Sequence[Rect]) -> Rect:
    xs = [b[0] for b in boxes] + [b[2] for b in boxes]
    ys = [b[1] for b in boxes] + [b[3] for b in boxes]
    if len(quads):
        finite = quads[np.isfinite(quads).all(axis=(1, 2))]
        if len(finite):
            xs += [float(finite[:, :, 0].min()), float(finite[:, :, 0].max())]
            ys += [float(finite[:, :, 1].min()), float(finite[:, :, 1].max())]
    return (min(xs), min(ys), max(xs), max(ys))
