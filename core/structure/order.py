"""Structure-order text (spec §9, `ExtractLoadedPageStructureText`; ISO 32000-1 §14.8.4).

For a tagged page the structure tree, not geometry, gives the order: the walk
(core.structure.tree) yields the page's MCIDs in author order, and the visible glyphs,
bucketed by the MCID the interpreter recorded on each (§14.6, no second pass over the
content stream), are replayed in that order, drawing order kept inside each MCID. Spaces and
line breaks are then rebuilt from geometry by the reading-order assembler (spec §6).

Glyphs outside every referenced MCID are never dropped: they follow as a geometric tail, in
the baseline lines layout text reads (core.text.lines, in the page's dominant writing frame),
and are counted (`untagged`); the structure is trusted only when
untagged ≤ structure_trust_ratio × total (the seed's `Untagged * 4 <= TotalGlyphs`).

Form XObject glyphs carry the MCID of the innermost marked-content sequence around them,
the page's one when the form has none of its own. Their bucket is (form, MCID) when the tree
references that form's MCIDs through an MCR /Stm (§14.7.4.3: a form's MCIDs are its own),
otherwise the page MCID.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np
import pikepdf

from glyphscope.core.errors import PageIndexError
from glyphscope.core.glyph_table import dictionary_encoded
from glyphscope.core.interpret.content import form_resources, form_xobject
from glyphscope.core.pdf.document import PdfPage
from glyphscope.core.pdf.objects import inherited_attribute
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.structure.replacements import element_groups
from glyphscope.core.structure.tree import (
    McidKey,
    ObjGen,
    StructureNode,
    StructureWalk,
    document_index,
)
from glyphscope.core.text.arrays import GlyphRows
from glyphscope.core.text.lines import dominant_rotation, line_order

if TYPE_CHECKING:
    from glyphscope.core.text.reading import TextResult

NO_TREE = "no structure tree"
NOT_TAGGED = "page not tagged"
NOT_REFERENCED = "tree does not reference this page's MCIDs"
STRUCTURE = "structure"
READING_ORDER = "reading order"


@dataclass(frozen=True, slots=True)
class NoStructure:
    """Why a page has no structure-order text (one of NO_TREE, NOT_TAGGED, NOT_REFERENCED)."""

    reason: str


@dataclass(frozen=True, slots=True)
class StructureOrder:
    """The replay order of a page's visible glyphs.

    glyph_order: glyph indices, structured part first, then the untagged tail.
    mcid_order: the page content's MCIDs in author order (each once).
    spans: MCID → [start, end) in glyph_order (empty when no visible glyph has it);
    form_spans the same for (form objgen, MCID) sequences referenced through /Stm.
    untagged: the tail, in its geometric order. total: visible glyphs replayed.
    """

    glyph_order: tuple[int, ...]
    mcid_order: tuple[int, ...]
    spans: dict[int, tuple[int, int]]
    untagged: tuple[int, ...]
    total: int
    form_spans: dict[tuple[ObjGen, int], tuple[int, int]] = field(default_factory=dict)

    def trusted(self, rules: Rules) -> bool:
        return len(self.untagged) <= rules.structure_trust_ratio * self.total


@dataclass(frozen=True, slots=True)
class StructureResult:
    text: TextResult
    glyph_order: tuple[int, ...]
    mcid_order: tuple[int, ...]
    spans: dict[int, tuple[int, int]]
    untagged: tuple[int, ...]
    total: int
    trusted: bool
    warnings: tuple[str, ...]
    form_spans: dict[tuple[ObjGen, int], tuple[int, int]] = field(default_factory=dict)


def order_glyphs(
    mcid_keys: Sequence[McidKey],
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None = None,
) -> StructureOrder:
    """Replay `visible` glyphs in the walk's MCID order, then the untagged geometric tail.

    `form_chain(form_path)` gives the objgens of the forms on a glyph's form path, innermost
    first; needed only when some key names a form (MCR /Stm).
    """
    stm_forms = {form for form, _ in mcid_keys if form is not None}
    rows = GlyphRows(glyphs, visible)
    numbers = {key: number for number, key in enumerate(dict.fromkeys(mcid_keys))}
    paths = rows.strings("form_path") if stm_forms and form_chain is not None else None
    # The bucket of each row (-1: the tail), worked out once per distinct (MCID, form path),
    # in the order they first appear.
    mcids = rows.mcids()
    keys: list = mcids if paths is None else list(zip(mcids, paths, strict=True))
    places, distinct = dictionary_encoded(keys)
    bucket_of = np.empty(len(distinct), dtype=np.intp)
    for place, key in enumerate(distinct):
        mcid, path = (key, "") if paths is None else key
        glyph_key = _glyph_key(mcid, path, stm_forms, form_chain)
        bucket_of[place] = numbers.get(glyph_key, -1) if glyph_key is not None else -1
    buckets = bucket_of[places]
    # Each bucket in drawing order (a stable sort: rows drawn alike keep their visible
    # order), the tail (bucket -1) in visible order.
    draw = np.where(buckets < 0, np.arange(len(rows)), rows.draw_orders())
    replay = np.lexsort((draw, buckets))
    bounds = np.searchsorted(buckets[replay], np.arange(-1, len(numbers) + 1))
    members = [rows.index[replay[a:b]].tolist() for a, b in pairwise(bounds.tolist())]
    tail = members[0]
    glyph_order: list[int] = []
    spans: dict[int, tuple[int, int]] = {}
    form_spans: dict[tuple[ObjGen, int], tuple[int, int]] = {}
    for key in mcid_keys:
        start = len(glyph_order)
        glyph_order.extend(members[numbers[key] + 1])
        form, mcid = key
        if form is None:
            spans[mcid] = (start, len(glyph_order))
        else:
            form_spans[(form, mcid)] = (start, len(glyph_order))
    # The tail is read in baseline lines, in the frame layout text uses for the whole page:
    # on a page drawn turned it follows the page's lines rather than crossing them.
    rotation = dominant_rotation(glyphs, visible) if tail else 0
    untagged = line_order(glyphs, tail, rotation, rules)
    return StructureOrder(
        glyph_order=tuple(glyph_order + untagged),
        mcid_order=tuple(mcid for form, mcid in mcid_keys if form is None),
        spans=spans,
        untagged=tuple(untagged),
        total=len(visible),
        form_spans=form_spans,
    )


def _glyph_key(
    mcid: int | None,
    form_path: str,
    stm_forms: set[ObjGen],
    form_chain: Callable[[str], tuple[ObjGen, ...]] | None,
) -> McidKey | None:
    """The bucket key of a glyph with this MCID and form path."""
    if mcid is None:
        return None
    if form_path and stm_forms and form_chain is not None:
        for form in form_chain(form_path):
            if form in stm_forms:
                return (form, mcid)
    return (None, mcid)


def _form_chain(page: pikepdf.Page) -> Callable[[str], tuple[ObjGen, ...]]:
    """Resolve an interpreter form path ("/Fm1/Fm2") to form objgens, innermost first, the
    way the interpreter found them: the same form lookup and the same resources each form is
    drawn with (§7.8.3), so a damaged /Resources cannot send the two different ways.

    A form name that is not UTF-8 is in the path #-escaped (§7.3.5) and is not looked up
    again from that text: the chain stops there and its glyphs keep the page's MCID bucket."""

    page_resources = inherited_attribute(page, "/Resources")
    cache: dict[str, tuple[ObjGen, ...]] = {}

    def chain(form_path: str) -> tuple[ObjGen, ...]:
        if form_path not in cache:
            resources, forms = page_resources, []
            for name in form_path.split("/")[1:]:
                form = form_xobject(resources, "/" + name)
                if form is None:
                    break
                forms.append(form.objgen)
                resources = form_resources(form, resources)
            cache[form_path] = tuple(reversed(forms))
        return cache[form_path]

    return chain


def structure_walk(pdf: pikepdf.Pdf, page: pikepdf.Page, rules: Rules) -> StructureWalk | None:
    """The walk for one page; None when the catalog has no /StructTreeRoot dictionary. The
    tree is walked once per document (core.structure.tree.document_index), not per page."""
    struct_root = pdf.Root.get("/StructTreeRoot")
    if not isinstance(struct_root, pikepdf.Dictionary):
        return None
    index = document_index(pdf, struct_root, rules)
    return index.page_walk(struct_root, page.obj, single_page=len(pdf.pages) == 1)


def structure_outcome_for(
    pdf: pikepdf.Pdf,
    page: pikepdf.Page,
    glyphs: Sequence[Glyph],
    visible: Sequence[int],
    rules: Rules,
) -> StructureResult | NoStructure:
    """Structure-order text of `page` of `pdf`, or why there is none (spec §9, seed's three
    False cases). The text comes from core.text.reading.reading_order over the replay order."""
    walk = structure_walk(pdf, page, rules)
    if walk is None:
        return NoStructure(NO_TREE)
    if all(mcid is None for mcid in GlyphRows(glyphs, visible).mcids()):
        return NoStructure(NOT_TAGGED)
    order = order_glyphs(walk.mcid_keys, glyphs, visible, rules, _form_chain(page))
    if len(order.untagged) == order.total and "/StructParents" not in page.obj:
        return NoStructure(NOT_REFERENCED)
    from glyphscope.core.text.prepared import replace_groups
    from glyphscope.core.text.reading import reading_order

    ranges: dict[tuple[ObjGen | None, int], tuple[int, int]] = {
        (None, mcid): span for mcid, span in order.spans.items()
    }
    for (form, mcid), span in order.form_spans.items():
        ranges[(form, mcid)] = span
    groups = element_groups(walk.root, order.glyph_order, ranges, rules)
    text_glyphs, text_order = glyphs, order.glyph_order
    if groups:
        prepared = replace_groups(glyphs, order.glyph_order, groups, rules)
        text_glyphs, text_order = prepared.glyphs, prepared.order
    return StructureResult(
        text=reading_order(text_glyphs, text_order, rules, decisions=False).text,
        glyph_order=order.glyph_order,
        mcid_order=order.mcid_order,
        spans=order.spans,
        untagged=order.untagged,
        total=order.total,
        trusted=order.trusted(rules),
        warnings=walk.warnings,
        form_spans=order.form_spans,
    )


def structure_outcome(
    page: PdfPage, glyphs: Sequence[Glyph], visible: Sequence[int], rules: Rules
) -> StructureResult | NoStructure:
    """`structure_outcome_for` on a PdfPage; the inspector shows the reason."""
    return structure_outcome_for(page.document.pdf, page.pdf_page, glyphs, visible, rules)


def trusted_text(
    result: StructureResult | None, reading_fallback: str | Callable[[], str]
) -> tuple[str, str]:
    """(text, STRUCTURE or READING_ORDER): the structure text when there is one and it is
    trusted, else the reading-order text (called only when needed if given as a callable)."""
    if result is not None and result.trusted:
        return result.text.text, STRUCTURE
    text = reading_fallback() if callable(reading_fallback) else reading_fallback
    return text, READING_ORDER


def structure_tree(pdf: pikepdf.Pdf, page: int | ObjGen, rules: Rules) -> StructureNode | None:
    """The structure elements touching one page (0-based index or page objgen), under a
    "StructTreeRoot" node, for the inspector; None without a /StructTreeRoot."""
    if isinstance(page, int):
        if not 0 <= page < len(pdf.pages):
            raise PageIndexError(f"page index {page} outside 0..{len(pdf.pages) - 1}")
        pdf_page = pdf.pages[page]
    else:
        pdf_page = _page_by_objgen(pdf, page)
    walk = structure_walk(pdf, pdf_page, rules)
    return None if walk is None else walk.root


def _page_by_objgen(pdf: pikepdf.Pdf, objgen: ObjGen) -> pikepdf.Page:
    for pdf_page in pdf.pages:
        if pdf_page.obj.objgen == objgen:
            return pdf_page
    raise PageIndexError(f"no page is object {objgen[0]} {objgen[1]} R")
