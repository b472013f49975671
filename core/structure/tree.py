"""The logical structure walk (ISO 32000-1 §14.7): author order of one page's marked content.

`walk_structure` goes from /StructTreeRoot through /K kids in author order (§14.7.2) and
yields, for one page, the ordered marked-content references (§14.7.4) that fall on it, plus
a tree of the structure elements touching the page for the inspector. It never raises on a
corrupt tree: wrong types, missing /K, cycles and over-deep nesting are skipped and recorded.

Page of a content item (§14.7.2 Table 323, §14.7.4.2 Table 324): the /Pg of an MCR
dictionary, else the nearest element (itself or an ancestor) with /Pg. When no /Pg is found
anywhere, the page's /ParentTree entry decides (§14.7.4.4: the array of the page's
/StructParents lists the parent element of every MCID); without one, a one-page document
takes them.

The /ParentTree also bounds the work: an element that names another page in its own /Pg
and is neither listed for this page in the /ParentTree nor an ancestor (/P) of one listed
is not entered. Without a usable /ParentTree entry the whole tree is walked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field

import pikepdf

from glyphscope.core.pdf.objects import (
    is_integer,
    name_or_none,
    objgen_of,
    reference_label,
    text_or_none,
    type_label,
)
from glyphscope.core.rules import Rules
from glyphscope.core.structure.records import (
    ELEMENT_TEXT_ENTRIES,
    McidKey,
    ObjectReference,
    ObjGen,
    StructureNode,
    StructureWalk,
)
from glyphscope.core.structure.root import (
    number_tree_lookup,
    page_parent_elements,
    parent_tree_entries,
    relevant_elements,
    role_map,
)

__all__ = [
    "McidKey",
    "ObjGen",
    "ObjectReference",
    "StructureNode",
    "StructureWalk",
    "number_tree_lookup",
    "role_map",
    "walk_structure",
]


@dataclass(slots=True)
class _Element:
    """Walk-local mutable element; frozen into a StructureNode at the end."""

    type: str
    mapped_type: str | None
    page: ObjGen | None
    page_matches: bool
    objgen: ObjGen | None
    raw: list[tuple[str, str]]
    derived: list[tuple[str, str]]
    alt: str | None = None
    actual_text: str | None = None
    lang: str | None = None
    mcids: list[int] = field(default_factory=list)
    form_mcids: list[tuple[ObjGen, int]] = field(default_factory=list)
    objects: list[ObjectReference] = field(default_factory=list)
    children: list[_Element] = field(default_factory=list)
    touches_page: bool = False


def _kids(obj: pikepdf.Dictionary, keys: Collection[str] | None = None) -> list[object]:
    """§14.7.2: /K is one kid or an array of kids; absent means no kids. `keys`: obj.keys()
    when the caller has them."""
    kids = obj.get("/K") if keys is None or "/K" in keys else None
    if kids is None:
        return []
    if isinstance(kids, pikepdf.Array):
        return list(kids)
    return [kids]


def _page_objgen(value: object) -> ObjGen | None:
    if isinstance(value, pikepdf.Dictionary):
        return objgen_of(value)
    return None


_END = object()


@dataclass(slots=True)
class _Frame:
    element: _Element
    kids: Iterator[object]
    depth: int
    objgen: ObjGen | None


class _Walk:
    """State of one walk: the page, the /ParentTree view, what was seen, what went wrong."""

    def __init__(
        self,
        struct_root: pikepdf.Dictionary,
        page: pikepdf.Dictionary,
        rules: Rules,
        single_page: bool,
    ) -> None:
        self.page = objgen_of(page)
        self.depth_cap = rules.structure_depth
        self.single_page = single_page
        self.role_map = struct_root.get("/RoleMap")
        parents = page_parent_elements(struct_root, page, self.depth_cap) or []
        self.mcid_parents = {mcid: objgen_of(parent) for mcid, parent in enumerate(parents)}
        entries = parent_tree_entries(struct_root, page, parents, self.depth_cap)
        self.relevant = relevant_elements(entries, self.depth_cap) if entries else None
        self.keys: list[McidKey] = []
        self.seen_keys: set[McidKey] = set()
        self.visited: set[ObjGen] = set()
        self.on_path: set[ObjGen] = set()
        self.warnings: dict[str, None] = {}
        self.elements = 0
        self.too_deep = 0
        self.unplaced = 0
        self.repeated: dict[int, None] = {}

    def warn(self, message: str) -> None:
        self.warnings.setdefault(message, None)

    def run(self, struct_root: pikepdf.Dictionary) -> StructureWalk:
        root_objgen = objgen_of(struct_root)
        root = _Element("StructTreeRoot", None, None, False, root_objgen, [], [])
        stack = [_Frame(root, iter(_kids(struct_root)), 0, root_objgen)]
        if root_objgen is not None:
            self.on_path.add(root_objgen)
        while stack:
            frame = stack[-1]
            kid = next(frame.kids, _END)
            if kid is _END:
                stack.pop()
                self.on_path.discard(frame.objgen)
                if stack:
                    stack[-1].element.touches_page |= frame.element.touches_page
                continue
            try:
                self.visit_kid(frame, kid, stack)
            except (pikepdf.PdfError, TypeError, ValueError, KeyError, AttributeError) as exc:
                self.warn(f"a kid of /{frame.element.type} skipped: {exc}")
        if self.too_deep:
            self.warn(
                f"{self.too_deep} elements deeper than structure_depth {self.depth_cap} not visited"
            )
        if self.repeated:
            mcids = ", ".join(str(mcid) for mcid in self.repeated)
            self.warn(
                f"MCID {mcids} referenced more than once; replayed once, at its first reference"
            )
        if self.unplaced:
            self.warn(
                f"{self.unplaced} marked-content references have no /Pg and no /ParentTree "
                "entry; not placed on this page"
            )
        return StructureWalk(
            root=_freeze(root),
            mcid_keys=tuple(self.keys),
            elements_visited=self.elements,
            warnings=tuple(self.warnings),
        )

    def visit_kid(self, frame: _Frame, kid: object, stack: list[_Frame]) -> None:
        """§14.7.2 Table 323 /K: an MCID, an MCR or OBJR dictionary, or a structure element."""
        element = frame.element
        if is_integer(kid):
            self.add_mcid(element, None, kid, element.page)
            return
        if not isinstance(kid, pikepdf.Dictionary):
            self.warn(f"a kid of /{element.type} is {type_label(kid)}, not a kid; skipped")
            return
        # The keys once: asking a dictionary for an entry it lacks costs pikepdf far more.
        keys = kid.keys()
        kind = name_or_none(kid.get("/Type")) if "/Type" in keys else None
        untyped = kind is None and "/S" not in keys
        if kind == "MCR" or (untyped and "/MCID" in keys):
            mcid = kid.get("/MCID")
            if not is_integer(mcid):
                self.warn(f"an MCR under /{element.type} has no integer /MCID; skipped")
                return
            page = _page_objgen(kid.get("/Pg")) or element.page
            stream = kid.get("/Stm")
            form = objgen_of(stream) if isinstance(stream, pikepdf.Stream) else None
            self.add_mcid(element, form, mcid, page)
            return
        if kind == "OBJR" or (untyped and "/Obj" in keys):
            self.add_object(frame, kid, stack)
            return
        self.enter(frame, kid, stack, keys)

    def placed(
        self, element: _Element, form: ObjGen | None, mcid: int, page: ObjGen | None
    ) -> bool:
        """Whether a reference is on this page; labels a page not taken from /Pg."""
        if page is not None:
            return page == self.page
        # The /ParentTree goes first even in a one-page document: a page cut out of a
        # longer tagged file keeps the other pages' elements with their /Pg now dangling
        # (null, so absent) and their MCIDs colliding with this page's.
        if form is None and element.objgen is not None and self.mcid_parents:
            on_page = self.mcid_parents.get(mcid) == element.objgen
            if on_page:
                _label(element, ("Pg", "this page, from the /ParentTree (no /Pg)"))
            return on_page
        if self.single_page:
            _label(element, ("Pg", "the document's only page (no /Pg)"))
            return True
        self.unplaced += 1
        return False

    def add_mcid(
        self, element: _Element, form: ObjGen | None, mcid: int, page: ObjGen | None
    ) -> None:
        if not self.placed(element, form, mcid, page):
            return
        element.touches_page = True
        if form is None:
            element.mcids.append(mcid)
        else:
            element.form_mcids.append((form, mcid))
        key = (form, mcid)
        if key in self.seen_keys:
            self.repeated.setdefault(mcid, None)
            return
        self.seen_keys.add(key)
        self.keys.append(key)

    def add_object(self, frame: _Frame, objr: pikepdf.Dictionary, stack: list[_Frame]) -> None:
        element = frame.element
        target = objr.get("/Obj")
        if isinstance(target, pikepdf.Dictionary) and "/S" in target:
            # Not an annotation or XObject (§14.7.4.3) but a structure element: some
            # writers nest elements this way; walk it as the kid it stands for.
            self.warn(f"an OBJR under /{element.type} points to a structure element; walked")
            self.enter(frame, target, stack)
            return
        page = _page_objgen(objr.get("/Pg")) or element.page
        on_page = page == self.page if page is not None else self.single_page
        if not on_page:
            return
        subtype = ""
        if isinstance(target, (pikepdf.Dictionary, pikepdf.Stream)):
            subtype = name_or_none(target.get("/Subtype")) or ""
        element.objects.append(ObjectReference(objgen_of(target), subtype))
        element.touches_page = True

    def enter(
        self,
        frame: _Frame,
        kid: pikepdf.Dictionary,
        stack: list[_Frame],
        keys: Collection[str] | None = None,
    ) -> None:
        """Walk into the structure element `kid` (its `keys` when the caller has them)."""
        if keys is None:
            keys = kid.keys()
        objgen = objgen_of(kid)
        if objgen is not None and objgen in self.on_path:
            self.warn(f"cyclic /K: {reference_label(objgen)} is its own ancestor; visited once")
            return
        if objgen is not None and objgen in self.visited:
            self.warn(f"{reference_label(objgen)} is the kid of two elements; visited once")
            return
        if frame.depth + 1 > self.depth_cap:
            self.too_deep += 1
            return
        explicit_page = _page_objgen(kid.get("/Pg")) if "/Pg" in keys else None
        if (
            self.relevant is not None
            and objgen is not None
            and explicit_page is not None
            and explicit_page != self.page
            and objgen not in self.relevant
        ):
            return
        kids = iter(_kids(kid, keys))
        if objgen is not None:
            self.visited.add(objgen)
            self.on_path.add(objgen)
        self.elements += 1
        child = self.element(kid, keys, objgen, explicit_page, frame.element.page)
        frame.element.children.append(child)
        stack.append(_Frame(child, kids, frame.depth + 1, objgen))

    def element(
        self,
        kid: pikepdf.Dictionary,
        keys: Collection[str],
        objgen: ObjGen | None,
        explicit_page: ObjGen | None,
        inherited_page: ObjGen | None,
    ) -> _Element:
        type_name = name_or_none(kid.get("/S")) if "/S" in keys else None
        if type_name is None:
            self.warn(f"structure element {reference_label(objgen)} has no /S name")
            type_name = ""
        mapped_type, cycle = role_map(type_name, self.role_map)
        if cycle:
            self.warn(cycle)
        raw = [("S", f"/{type_name}")]
        derived = []
        if mapped_type is not None:
            derived.append(("standard type", f"/{mapped_type} through /RoleMap"))
        page = explicit_page or inherited_page
        if explicit_page is not None:
            raw.append(("Pg", reference_label(explicit_page)))
        elif inherited_page is not None:
            derived.append(("Pg", f"{reference_label(inherited_page)}, inherited from an ancestor"))
        texts = {}
        for key, entry in ELEMENT_TEXT_ENTRIES:
            value = text_or_none(kid.get(entry)) if entry in keys else None
            if value is not None:
                raw.append((key, value))
                texts[key] = value
        return _Element(
            type=type_name,
            mapped_type=mapped_type,
            page=page,
            page_matches=page is not None and page == self.page,
            objgen=objgen,
            raw=raw,
            derived=derived,
            alt=texts.get("Alt"),
            actual_text=texts.get("ActualText"),
            lang=texts.get("Lang"),
        )


# The text entries of a structure element (§14.7.2 Table 323, §14.9.3, §14.9.4) shown raw.
def _label(element: _Element, entry: tuple[str, str]) -> None:
    if entry not in element.derived:
        element.derived.append(entry)
        element.page_matches = True


def _freeze(root: _Element) -> StructureNode:
    """Mutable walk elements to StructureNodes, keeping only children that touch the page.

    Iterative (reversed pre-order puts children before parents) so a deep tree under a
    raised structure_depth cannot exhaust Python's recursion limit. An element that does not
    touch the page has no descendant that does (the walk passes touches_page up): it is
    neither kept nor frozen.
    """
    order: list[_Element] = []
    stack = [root]
    while stack:
        element = stack.pop()
        order.append(element)
        stack.extend(child for child in element.children if child.touches_page)
    frozen: dict[int, StructureNode] = {}
    for element in reversed(order):
        frozen[id(element)] = StructureNode(
            type=element.type,
            mapped_type=element.mapped_type,
            mcids=tuple(element.mcids),
            page_matches=element.page_matches,
            children=tuple(frozen[id(c)] for c in element.children if c.touches_page),
            raw=tuple(element.raw),
            derived=tuple(element.derived),
            objgen=element.objgen,
            alt=element.alt,
            actual_text=element.actual_text,
            lang=element.lang,
            form_mcids=tuple(element.form_mcids),
            objects=tuple(element.objects),
        )
    return frozen[id(root)]


def walk_structure(
    struct_root: pikepdf.Dictionary,
    page: pikepdf.Dictionary,
    rules: Rules,
    single_page: bool = False,
) -> StructureWalk:
    """Walk the structure tree (§14.7.2) for one page; `single_page` when the document has
    one page, so references without any /Pg belong to it."""
    if _compiled_walk is not None:
        return _compiled_walk(struct_root, page, rules, single_page)
    return walk_structure_in_python(struct_root, page, rules, single_page)


def walk_structure_in_python(
    struct_root: pikepdf.Dictionary,
    page: pikepdf.Dictionary,
    rules: Rules,
    single_page: bool = False,
) -> StructureWalk:
    """`walk_structure` by the Python walk, the path taken without the compiled one."""
    return _Walk(struct_root, page, rules, single_page).run(struct_root)


_compiled_walk: (
    Callable[[pikepdf.Dictionary, pikepdf.Dictionary, Rules, bool], StructureWalk] | None
)
try:
    # _Walk and _freeze compiled (_walk.pyx), when the extension was built.
    from glyphscope.core.structure._walk import walk as _compiled_walk
except ImportError:  # pragma: no cover - built by pip install wherever a C compiler is
    _compiled_walk = None
