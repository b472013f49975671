"""One page's part of the document's structure walk (spec §9, ISO 32000-1 §14.7.4): its
marked-content references in author order and the elements touching it, read from an index
built in one pass over the walk (core.structure.tree.walk_document), so that a page costs its
own references and their ancestors, not the whole tree.

Page of a reference (§14.7.2 Table 323, §14.7.4.2 Table 324): the /Pg of an MCR dictionary,
else the nearest element (itself or an ancestor) with /Pg. When no /Pg is found anywhere,
the page's /ParentTree entry decides (§14.7.4.4: the array of the page's /StructParents lists
the parent element of every MCID); without one, a one-page document takes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pikepdf

from glyphscope.core.pdf.objects import objgen_of
from glyphscope.core.rules import Rules
from glyphscope.core.structure.records import (
    DocumentStructure,
    McidKey,
    ObjectReference,
    ObjGen,
    StructureNode,
    StructureWalk,
    WalkedElement,
)
from glyphscope.core.structure.root import page_parent_elements, parent_tree_entries

# How a page labels an element whose reference it placed without any /Pg.
_FROM_PARENT_TREE = ("Pg", "this page, from the /ParentTree (no /Pg)")
_ONLY_PAGE = ("Pg", "the document's only page (no /Pg)")


class StructureIndex:
    """The document walk indexed by page: each page's references, in author order."""

    def __init__(self, document: DocumentStructure, rules: Rules) -> None:
        self.document = document
        self.depth_cap = rules.structure_depth
        self.mcids: dict[ObjGen, list[int]] = {}
        # References with no /Pg anywhere, and those of them the /ParentTree can place (in
        # the page's content stream, under an indirect element) by (element, MCID).
        self.unpaged: list[int] = []
        self.by_parent: dict[tuple[ObjGen, int], list[int]] = {}
        elements = document.elements
        for position, reference in enumerate(document.mcids):
            if reference.page is not None:
                self.mcids.setdefault(reference.page, []).append(position)
                continue
            self.unpaged.append(position)
            parent = elements[reference.element].objgen
            if reference.form is None and parent is not None:
                self.by_parent.setdefault((parent, reference.mcid), []).append(position)
        self.unparentable = len(self.unpaged) - sum(map(len, self.by_parent.values()))
        self.objects: dict[ObjGen | None, list[int]] = {}
        for position, placement in enumerate(document.objects):
            self.objects.setdefault(placement.page, []).append(position)
        self.warnings = _FoundAt(elements, [element for _, element in document.warnings])
        self.too_deep = _FoundAt(elements, list(document.too_deep))

    def page_walk(
        self, struct_root: pikepdf.Dictionary, page: pikepdf.Dictionary, single_page: bool
    ) -> StructureWalk:
        """The StructureWalk of `page`; `single_page` when the document has one page, so
        references without any /Pg belong to it."""
        this_page = objgen_of(page)
        on_page = self.mcids.get(this_page, []) if this_page is not None else []
        placed: list[tuple[int, tuple[str, str] | None]] = [
            (position, None) for position in on_page
        ]
        unplaced = 0
        if self.unpaged:
            by_parent_tree, unplaced = self._unpaged(struct_root, page, single_page)
            placed = sorted(placed + by_parent_tree)
        references = self.document.mcids
        mcids: dict[int, list[int]] = {}
        form_mcids: dict[int, list[tuple[ObjGen, int]]] = {}
        labels: dict[int, dict[tuple[str, str], None]] = {}
        keys: list[McidKey] = []
        seen: set[McidKey] = set()
        repeated: dict[int, None] = {}
        for position, label in placed:
            element, form, mcid, _ = references[position]
            if label is not None:
                labels.setdefault(element, {})[label] = None
            if form is None:
                mcids.setdefault(element, []).append(mcid)
            else:
                form_mcids.setdefault(element, []).append((form, mcid))
            key = (form, mcid)
            if key in seen:
                repeated.setdefault(mcid, None)
                continue
            seen.add(key)
            keys.append(key)
        objects: dict[int, list[ObjectReference]] = {}
        placements = self.document.objects
        objects_on_page = self.objects.get(this_page, []) if this_page is not None else []
        if single_page:
            objects_on_page = sorted(objects_on_page + self.objects.get(None, []))
        for position in objects_on_page:
            objects.setdefault(placements[position].element, []).append(
                placements[position].reference
            )
        touching = self._touching((*mcids, *form_mcids, *objects))
        root = self._freeze(this_page, touching, mcids, form_mcids, objects, labels)
        # A page without a /ParentTree entry has no part of the tree of its own: it reports
        # every warning, as a walk of the whole tree for it would.
        everything = bool(self.document.warnings or self.document.too_deep) and not (
            parent_tree_entries(
                struct_root,
                page,
                page_parent_elements(struct_root, page, self.depth_cap) or [],
                self.depth_cap,
            )
        )
        warnings = self.warnings.found(this_page, touching, everything)
        too_deep = len(self.too_deep.found(this_page, touching, everything))
        return StructureWalk(
            root=root,
            mcid_keys=tuple(keys),
            elements_visited=len(self.document.elements) - 1,
            warnings=self._warnings(warnings, too_deep, repeated, unplaced),
        )

    def _unpaged(
        self, struct_root: pikepdf.Dictionary, page: pikepdf.Dictionary, single_page: bool
    ) -> tuple[list[tuple[int, tuple[str, str] | None]], int]:
        """The references without any /Pg that are on `page` (with the label saying why) and
        the number of those no page can take."""
        parents = page_parent_elements(struct_root, page, self.depth_cap) or []
        mcid_parents = {mcid: objgen_of(parent) for mcid, parent in enumerate(parents)}
        if single_page:
            # The /ParentTree goes first even in a one-page document: a page cut out of a
            # longer tagged file keeps the other pages' elements with their /Pg now
            # dangling (null, so absent) and their MCIDs colliding with this page's.
            found: list[tuple[int, tuple[str, str] | None]] = []
            references, elements = self.document.mcids, self.document.elements
            for position in self.unpaged:
                element, form, mcid, _ = references[position]
                parent = elements[element].objgen
                if form is None and parent is not None and mcid_parents:
                    if mcid_parents.get(mcid) == parent:
                        found.append((position, _FROM_PARENT_TREE))
                else:
                    found.append((position, _ONLY_PAGE))
            return found, 0
        if not mcid_parents:
            return [], len(self.unpaged)
        found = [
            (position, _FROM_PARENT_TREE)
            for mcid, parent in mcid_parents.items()
            if parent is not None
            for position in self.by_parent.get((parent, mcid), ())
        ]
        return found, self.unparentable

    def _touching(self, elements: Iterable[int]) -> set[int]:
        """The elements holding one of the page's references and their ancestors."""
        parents = self.document.elements
        touching = {0}
        for element in elements:
            while element not in touching:
                touching.add(element)
                element = parents[element].parent
        return touching

    def _freeze(
        self,
        this_page: ObjGen | None,
        touching: set[int],
        mcids: dict[int, list[int]],
        form_mcids: dict[int, list[tuple[ObjGen, int]]],
        objects: dict[int, list[ObjectReference]],
        labels: dict[int, dict[tuple[str, str], None]],
    ) -> StructureNode:
        """StructureNodes of the elements touching the page, children before parents, under
        the root."""
        elements = self.document.elements
        # Walk order is author order: an element's children, sorted, are in kid order.
        children: dict[int, list[StructureNode]] = {}
        for element in sorted(touching, reverse=True):
            record = elements[element]
            kids = children.pop(element, [])
            kids.reverse()
            node = StructureNode(
                type=record.type,
                mapped_type=record.mapped_type,
                mcids=tuple(mcids.get(element, ())),
                page_matches=(record.page is not None and record.page == this_page)
                or element in labels,
                children=tuple(kids),
                raw=record.raw,
                derived=record.derived + tuple(labels.get(element, ())),
                objgen=record.objgen,
                alt=record.alt,
                actual_text=record.actual_text,
                lang=record.lang,
                form_mcids=tuple(form_mcids.get(element, ())),
                objects=tuple(objects.get(element, ())),
            )
            if element == 0:
                return node
            children.setdefault(record.parent, []).append(node)
        raise AssertionError("the root is always touched")

    def _warnings(
        self, found: list[int], too_deep: int, repeated: dict[int, None], unplaced: int
    ) -> tuple[str, ...]:
        """The walk's warnings `found` on the page's part of the tree, once each in walk
        order, then the page's own."""
        messages = dict.fromkeys(self.document.warnings[position][0] for position in found)
        if too_deep:
            messages[
                f"{too_deep} elements deeper than structure_depth {self.depth_cap} not visited"
            ] = None
        if repeated:
            numbers = ", ".join(str(mcid) for mcid in repeated)
            messages[
                f"MCID {numbers} referenced more than once; replayed once, at its first reference"
            ] = None
        if unplaced:
            messages[
                f"{unplaced} marked-content references have no /Pg and no /ParentTree "
                "entry; not placed on this page"
            ] = None
        return tuple(messages)


class _FoundAt:
    """Where the walk found each of a list of problems (an element, by number), indexed so
    that a page finds those on its part of the tree: at an element of no page (every page),
    at an element whose page it is, or at an element touching it."""

    def __init__(self, elements: Sequence[WalkedElement], found_at: list[int]) -> None:
        self.count = len(found_at)
        self.everywhere: list[int] = []
        self.at_page: dict[ObjGen, list[int]] = {}
        self.at_element: dict[int, list[int]] = {}
        for position, element in enumerate(found_at):
            page = elements[element].page
            if page is None:
                self.everywhere.append(position)
            else:
                self.at_page.setdefault(page, []).append(position)
                self.at_element.setdefault(element, []).append(position)

    def found(self, this_page: ObjGen | None, touching: set[int], everything: bool) -> list[int]:
        """The positions on this page's part of the tree, in walk order; all of them when
        `everything`."""
        if everything:
            return list(range(self.count))
        if not self.at_element:
            return self.everywhere
        hits = set(self.everywhere)
        if this_page is not None:
            hits.update(self.at_page.get(this_page, ()))
        for element in touching:
            hits.update(self.at_element.get(element, ()))
        return sorted(hits)
