"""The logical structure walk (ISO 32000-1 §14.7): author order of the document's marked
content, walked once per document.

`walk_document` goes from /StructTreeRoot through /K kids in author order (§14.7.2) and
records every element it enters and every marked-content (§14.7.4.2) and object (§14.7.4.3)
reference, each with its page: the /Pg of an MCR or OBJR dictionary, else the nearest
element (itself or an ancestor) with /Pg. `core.structure.index` then gives each page its
ordered references and its tree of elements (`walk_structure`, one page's StructureWalk) from
one pass over that record, so a document's pages cost the tree once, not once a page.

It never raises on a corrupt tree: wrong types, missing /K, cycles and over-deep nesting are
skipped and recorded, each warning with the page of the element it was found under (a page
reports the damage on its own part of the tree and on the part no page owns).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

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
from glyphscope.core.structure.index import StructureIndex
from glyphscope.core.structure.records import (
    ELEMENT_TEXT_ENTRIES,
    DocumentStructure,
    McidKey,
    McidReference,
    ObjectPlacement,
    ObjectReference,
    ObjGen,
    StructureNode,
    StructureWalk,
    WalkedElement,
)
from glyphscope.core.structure.root import number_tree_lookup, role_map

__all__ = [
    "McidKey",
    "ObjGen",
    "ObjectReference",
    "StructureNode",
    "StructureWalk",
    "document_index",
    "number_tree_lookup",
    "role_map",
    "walk_document",
    "walk_structure",
]


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
    element: int
    page: ObjGen | None
    type: str
    kids: Iterator[object]
    depth: int
    objgen: ObjGen | None


class _Walk:
    """State of the document walk: what was entered, referenced, seen and what went wrong."""

    def __init__(self, struct_root: pikepdf.Dictionary, rules: Rules) -> None:
        self.depth_cap = rules.structure_depth
        self.role_map = struct_root.get("/RoleMap")
        self.elements: list[WalkedElement] = []
        self.mcids: list[McidReference] = []
        self.objects: list[ObjectPlacement] = []
        self.visited: set[ObjGen] = set()
        self.on_path: set[ObjGen] = set()
        self.warnings: list[tuple[str, int]] = []
        self.too_deep: list[int] = []
        # What was wrong with the element being made, recorded at it once it is numbered.
        self.pending: list[str] = []

    def warn(self, message: str, element: int) -> None:
        """Record `message`, found at the element numbered `element` in walk order."""
        self.warnings.append((message, element))

    def record_pending(self, element: int) -> None:
        for message in self.pending:
            self.warn(message, element)
        self.pending.clear()

    def run(self, struct_root: pikepdf.Dictionary) -> DocumentStructure:
        root_objgen = objgen_of(struct_root)
        self.elements.append(
            WalkedElement(-1, "StructTreeRoot", None, None, root_objgen, (), (), None, None, None)
        )
        stack = [_Frame(0, None, "StructTreeRoot", iter(_kids(struct_root)), 0, root_objgen)]
        if root_objgen is not None:
            self.on_path.add(root_objgen)
        while stack:
            frame = stack[-1]
            kid = next(frame.kids, _END)
            if kid is _END:
                stack.pop()
                self.on_path.discard(frame.objgen)
                continue
            try:
                self.visit_kid(frame, kid, stack)
            except (pikepdf.PdfError, TypeError, ValueError, KeyError, AttributeError) as exc:
                self.record_pending(frame.element)
                self.warn(f"a kid of /{frame.type} skipped: {exc}", frame.element)
        return DocumentStructure(
            elements=tuple(self.elements),
            mcids=tuple(self.mcids),
            objects=tuple(self.objects),
            warnings=tuple(self.warnings),
            too_deep=tuple(self.too_deep),
        )

    def visit_kid(self, frame: _Frame, kid: object, stack: list[_Frame]) -> None:
        """§14.7.2 Table 323 /K: an MCID, an MCR or OBJR dictionary, or a structure element."""
        if is_integer(kid):
            self.mcids.append(McidReference(frame.element, None, kid, frame.page))
            return
        if not isinstance(kid, pikepdf.Dictionary):
            self.warn(
                f"a kid of /{frame.type} is {type_label(kid)}, not a kid; skipped", frame.element
            )
            return
        # The keys once: asking a dictionary for an entry it lacks costs pikepdf far more.
        keys = kid.keys()
        kind = name_or_none(kid.get("/Type")) if "/Type" in keys else None
        untyped = kind is None and "/S" not in keys
        if kind == "MCR" or (untyped and "/MCID" in keys):
            mcid = kid.get("/MCID")
            if not is_integer(mcid):
                self.warn(
                    f"an MCR under /{frame.type} has no integer /MCID; skipped", frame.element
                )
                return
            page = _page_objgen(kid.get("/Pg")) or frame.page
            stream = kid.get("/Stm")
            form = objgen_of(stream) if isinstance(stream, pikepdf.Stream) else None
            self.mcids.append(McidReference(frame.element, form, mcid, page))
            return
        if kind == "OBJR" or (untyped and "/Obj" in keys):
            self.add_object(frame, kid, stack)
            return
        self.enter(frame, kid, stack, keys)

    def add_object(self, frame: _Frame, objr: pikepdf.Dictionary, stack: list[_Frame]) -> None:
        target = objr.get("/Obj")
        if isinstance(target, pikepdf.Dictionary) and "/S" in target:
            # Not an annotation or XObject (§14.7.4.3) but a structure element: some
            # writers nest elements this way; walk it as the kid it stands for.
            self.warn(
                f"an OBJR under /{frame.type} points to a structure element; walked", frame.element
            )
            self.enter(frame, target, stack)
            return
        page = _page_objgen(objr.get("/Pg")) or frame.page
        subtype = ""
        if isinstance(target, (pikepdf.Dictionary, pikepdf.Stream)):
            subtype = name_or_none(target.get("/Subtype")) or ""
        reference = ObjectReference(objgen_of(target), subtype)
        self.objects.append(ObjectPlacement(frame.element, reference, page))

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
            label = reference_label(objgen)
            self.warn(f"cyclic /K: {label} is its own ancestor; visited once", frame.element)
            return
        if objgen is not None and objgen in self.visited:
            label = reference_label(objgen)
            self.warn(f"{label} is the kid of two elements; visited once", frame.element)
            return
        if frame.depth + 1 > self.depth_cap:
            self.too_deep.append(frame.element)
            return
        explicit_page = _page_objgen(kid.get("/Pg")) if "/Pg" in keys else None
        kids = iter(_kids(kid, keys))
        if objgen is not None:
            self.visited.add(objgen)
            self.on_path.add(objgen)
        element = self.element(frame.element, kid, keys, objgen, explicit_page, frame.page)
        self.elements.append(element)
        index = len(self.elements) - 1
        self.record_pending(index)
        stack.append(_Frame(index, element.page, element.type, kids, frame.depth + 1, objgen))

    def element(
        self,
        parent: int,
        kid: pikepdf.Dictionary,
        keys: Collection[str],
        objgen: ObjGen | None,
        explicit_page: ObjGen | None,
        inherited_page: ObjGen | None,
    ) -> WalkedElement:
        page = explicit_page or inherited_page
        type_name = name_or_none(kid.get("/S")) if "/S" in keys else None
        if type_name is None:
            self.pending.append(f"structure element {reference_label(objgen)} has no /S name")
            type_name = ""
        mapped_type, cycle = role_map(type_name, self.role_map)
        if cycle:
            self.pending.append(cycle)
        raw = [("S", f"/{type_name}")]
        derived = []
        if mapped_type is not None:
            derived.append(("standard type", f"/{mapped_type} through /RoleMap"))
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
        return WalkedElement(
            parent=parent,
            type=type_name,
            mapped_type=mapped_type,
            page=page,
            objgen=objgen,
            raw=tuple(raw),
            derived=tuple(derived),
            alt=texts.get("Alt"),
            actual_text=texts.get("ActualText"),
            lang=texts.get("Lang"),
        )


def walk_document(struct_root: pikepdf.Dictionary, rules: Rules) -> DocumentStructure:
    """The structure tree walked once for the whole document (§14.7.2), compiled when the
    extension is built."""
    if _compiled_walk is not None:
        return _compiled_walk(struct_root, rules)
    return walk_document_in_python(struct_root, rules)


def walk_document_in_python(struct_root: pikepdf.Dictionary, rules: Rules) -> DocumentStructure:
    """`walk_document` by the Python walk, the path taken without the compiled one."""
    return _Walk(struct_root, rules).run(struct_root)


def walk_structure(
    struct_root: pikepdf.Dictionary,
    page: pikepdf.Dictionary,
    rules: Rules,
    single_page: bool = False,
) -> StructureWalk:
    """One page's StructureWalk from a walk of the whole tree; `single_page` when the
    document has one page, so references without any /Pg belong to it. A document's pages
    share one walk through `document_index`."""
    index = StructureIndex(walk_document(struct_root, rules), rules)
    return index.page_walk(struct_root, page, single_page)


def walk_structure_in_python(
    struct_root: pikepdf.Dictionary,
    page: pikepdf.Dictionary,
    rules: Rules,
    single_page: bool = False,
) -> StructureWalk:
    """`walk_structure` by the Python walk, the path taken without the compiled one."""
    index = StructureIndex(walk_document_in_python(struct_root, rules), rules)
    return index.page_walk(struct_root, page, single_page)


# The attribute of a pikepdf.Pdf holding its walks, by (/StructTreeRoot objgen, depth cap).
_CACHE = "_glyphscope_structure_index"


def document_index(
    pdf: pikepdf.Pdf, struct_root: pikepdf.Dictionary, rules: Rules
) -> StructureIndex:
    """The document's structure index, walked on first use and kept on the Pdf (the walk
    reads the structure_depth rule only; a document's tree is not edited while read)."""
    key = (struct_root.objgen, rules.structure_depth)
    cache: dict[tuple[ObjGen, int], StructureIndex] = pdf.__dict__.setdefault(_CACHE, {})
    if key not in cache:
        cache[key] = StructureIndex(walk_document(struct_root, rules), rules)
    return cache[key]


_compiled_walk: Callable[[pikepdf.Dictionary, Rules], DocumentStructure] | None
try:
    # _Walk compiled (_walk.pyx), when the extension was built.
    from glyphscope.core.structure._walk import walk as _compiled_walk
except ImportError:  # pragma: no cover - built by pip install wherever a C compiler is
    _compiled_walk = None
