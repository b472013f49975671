# cython: language_level=3
"""The structure tree walk compiled (ISO 32000-1 §14.7.2, §14.7.4): `walk_structure`'s loop.

`walk` is `tree._Walk(...).run(...)` and `tree._freeze`, step for step: the same kids read in
the same order, the same entries asked for (a dictionary's keys once, then only the entries
it has), the same tests in the same order, so the same StructureWalk comes out, warnings and
their order included, and an exception from a damaged object stops a kid at the same point.
The walk's per-element Python (frames, the entering tests, the element records, freezing them
into StructureNodes) is C here; pikepdf's reads are the same calls. The Python walk stays as
the path taken when this extension is not built; tests/test_structure_walk.py holds the two
against each other.
"""

from cpython.object cimport PyObject_GenericSetAttr


import pikepdf

from glyphscope.core.pdf.objects import reference_label, type_label
from glyphscope.core.structure.records import (
    ELEMENT_TEXT_ENTRIES,
    ObjectReference,
    StructureNode,
    StructureWalk,
)
from glyphscope.core.structure.root import (
    page_parent_elements,
    parent_tree_entries,
    relevant_elements,
    role_map,
)

cdef object _Dictionary = pikepdf.Dictionary
cdef object _Array = pikepdf.Array
cdef object _Stream = pikepdf.Stream
cdef object _Name = pikepdf.Name
cdef object _String = pikepdf.String
cdef object _Object = pikepdf.Object
cdef object _PdfError = pikepdf.PdfError
cdef tuple _NO_OBJGEN = (0, 0)


cdef inline bint _is_integer(object value):
    return isinstance(value, int) and not isinstance(value, bool)


cdef object _objgen_of(object obj):
    cdef object objgen
    if isinstance(obj, _Object):
        objgen = obj.objgen
        if objgen != _NO_OBJGEN:
            return objgen
    return None


cdef object _name_or_none(object obj):
    if not isinstance(obj, _Name):
        return None
    try:
        return str(obj)[1:]
    except UnicodeDecodeError:
        return obj.unparse().decode("ascii")[1:]


cdef object _text_or_none(object obj):
    return str(obj) if isinstance(obj, (_String, str)) else None


cdef object _page_objgen(object value):
    if isinstance(value, _Dictionary):
        return _objgen_of(value)
    return None


cdef list _kids(object obj, object keys):
    kids = obj.get("/K") if keys is None or "/K" in keys else None
    if kids is None:
        return []
    if isinstance(kids, _Array):
        return list(kids)
    return [kids]


cdef class _Element:
    cdef str type
    cdef object mapped_type
    cdef object page
    cdef bint page_matches
    cdef object objgen
    cdef list raw
    cdef list derived
    cdef object alt
    cdef object actual_text
    cdef object lang
    cdef list mcids
    cdef list form_mcids
    cdef list objects
    cdef list children
    cdef bint touches_page

    def __cinit__(self, str type, object mapped_type, object page, bint page_matches,
                  object objgen, list raw, list derived):
        self.type = type
        self.mapped_type = mapped_type
        self.page = page
        self.page_matches = page_matches
        self.objgen = objgen
        self.raw = raw
        self.derived = derived
        self.alt = None
        self.actual_text = None
        self.lang = None
        self.mcids = []
        self.form_mcids = []
        self.objects = []
        self.children = []
        self.touches_page = False


cdef class _Frame:
    cdef _Element element
    cdef list kids
    cdef Py_ssize_t next_kid
    cdef Py_ssize_t depth
    cdef object objgen

    def __cinit__(self, _Element element, list kids, Py_ssize_t depth, object objgen):
        self.element = element
        self.kids = kids
        self.next_kid = 0
        self.depth = depth
        self.objgen = objgen


cdef void _label(_Element element, tuple entry):
    if entry not in element.derived:
        element.derived.append(entry)
        element.page_matches = True


cdef class _Walk:
    cdef object page
    cdef object depth_cap
    cdef bint single_page
    cdef object role_map
    cdef dict mcid_parents
    cdef object relevant
    cdef list keys
    cdef set seen_keys
    cdef set visited
    cdef set on_path
    cdef dict warnings
    cdef Py_ssize_t elements
    cdef Py_ssize_t too_deep
    cdef Py_ssize_t unplaced
    cdef dict repeated

    def __cinit__(self, struct_root, page, rules, bint single_page):
        self.page = _objgen_of(page)
        self.depth_cap = rules.structure_depth
        self.single_page = single_page
        self.role_map = struct_root.get("/RoleMap")
        parents = page_parent_elements(struct_root, page, self.depth_cap) or []
        self.mcid_parents = {mcid: _objgen_of(parent) for mcid, parent in enumerate(parents)}
        entries = parent_tree_entries(struct_root, page, parents, self.depth_cap)
        self.relevant = relevant_elements(entries, self.depth_cap) if entries else None
        self.keys = []
        self.seen_keys = set()
        self.visited = set()
        self.on_path = set()
        self.warnings = {}
        self.elements = 0
        self.too_deep = 0
        self.unplaced = 0
        self.repeated = {}

    cdef void warn(self, str message):
        self.warnings.setdefault(message, None)

    cdef object run(self, struct_root):
        cdef _Frame frame
        cdef list stack
        cdef _Element root
        root_objgen = _objgen_of(struct_root)
        root = _Element("StructTreeRoot", None, None, False, root_objgen, [], [])
        stack = [_Frame(root, _kids(struct_root, None), 0, root_objgen)]
        if root_objgen is not None:
            self.on_path.add(root_objgen)
        while stack:
            frame = stack[-1]
            if frame.next_kid >= len(frame.kids):
                stack.pop()
                self.on_path.discard(frame.objgen)
                if stack:
                    if frame.element.touches_page:
                        (<_Frame>stack[-1]).element.touches_page = True
                continue
            kid = frame.kids[frame.next_kid]
            frame.next_kid += 1
            try:
                self.visit_kid(frame, kid, stack)
            except (_PdfError, TypeError, ValueError, KeyError, AttributeError) as exc:
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

    cdef visit_kid(self, _Frame frame, object kid, list stack):
        cdef _Element element = frame.element
        if _is_integer(kid):
            self.add_mcid(element, None, kid, element.page)
            return
        if not isinstance(kid, _Dictionary):
            self.warn(f"a kid of /{element.type} is {type_label(kid)}, not a kid; skipped")
            return
        keys = kid.keys()
        kind = _name_or_none(kid.get("/Type")) if "/Type" in keys else None
        untyped = kind is None and "/S" not in keys
        if kind == "MCR" or (untyped and "/MCID" in keys):
            mcid = kid.get("/MCID")
            if not _is_integer(mcid):
                self.warn(f"an MCR under /{element.type} has no integer /MCID; skipped")
                return
            page = _page_objgen(kid.get("/Pg")) or element.page
            stream = kid.get("/Stm")
            form = _objgen_of(stream) if isinstance(stream, _Stream) else None
            self.add_mcid(element, form, mcid, page)
            return
        if kind == "OBJR" or (untyped and "/Obj" in keys):
            self.add_object(frame, kid, stack)
            return
        self.enter(frame, kid, stack, keys)

    cdef bint placed(self, _Element element, object form, object mcid, object page) except -1:
        if page is not None:
            return page == self.page
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

    cdef add_mcid(self, _Element element, object form, object mcid, object page):
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

    cdef add_object(self, _Frame frame, object objr, list stack):
        cdef _Element element = frame.element
        target = objr.get("/Obj")
        if isinstance(target, _Dictionary) and "/S" in target:
            self.warn(f"an OBJR under /{element.type} points to a structure element; walked")
            self.enter(frame, target, stack, None)
            return
        page = _page_objgen(objr.get("/Pg")) or element.page
        on_page = page == self.page if page is not None else self.single_page
        if not on_page:
            return
        subtype = ""
        if isinstance(target, (_Dictionary, _Stream)):
            subtype = _name_or_none(target.get("/Subtype")) or ""
        element.objects.append(ObjectReference(_objgen_of(target), subtype))
        element.touches_page = True

    cdef enter(self, _Frame frame, object kid, list stack, object keys):
        cdef _Element child
        if keys is None:
            keys = kid.keys()
        objgen = _objgen_of(kid)
        if objgen is not None and objgen in self.on_path:
            self.warn(
                f"cyclic /K: {reference_label(objgen)} is its own ancestor; visited once"
            )
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
        kids = _kids(kid, keys)
        if objgen is not None:
            self.visited.add(objgen)
            self.on_path.add(objgen)
        self.elements += 1
        child = self.element(kid, keys, objgen, explicit_page, frame.element.page)
        frame.element.children.append(child)
        stack.append(_Frame(child, kids, frame.depth + 1, objgen))

    cdef _Element element(
        self, object kid, object keys, object objgen, object explicit_page, object inherited_page
    ):
        cdef _Element made
        type_name = _name_or_none(kid.get("/S")) if "/S" in keys else None
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
            inherited = f"{reference_label(inherited_page)}, inherited from an ancestor"
            derived.append(("Pg", inherited))
        texts = {}
        for key, entry in ELEMENT_TEXT_ENTRIES:
            value = _text_or_none(kid.get(entry)) if entry in keys else None
            if value is not None:
                raw.append((key, value))
                texts[key] = value
        made = _Element(
            type_name, mapped_type, page, page is not None and page == self.page, objgen, raw,
            derived,
        )
        made.alt = texts.get("Alt")
        made.actual_text = texts.get("ActualText")
        made.lang = texts.get("Lang")
        return made


# StructureNode's fields in their order: the frozen dataclass's own __init__ sets each by
# object.__setattr__, as _node does, without a Python frame per node.
cdef tuple _NODE_FIELDS = tuple(StructureNode.__dataclass_fields__)


cdef object _node(tuple values):
    """StructureNode(*values), its fields set as its generated __init__ sets them."""
    node = object.__new__(StructureNode)
    for name, value in zip(_NODE_FIELDS, values):
        PyObject_GenericSetAttr(node, name, value)
    return node


cdef object _freeze(_Element root):
    """tree._freeze: children before parents, only the elements touching the page."""
    cdef list order = []
    cdef list stack = [root]
    cdef _Element element
    cdef _Element child
    cdef dict frozen = {}
    while stack:
        element = stack.pop()
        order.append(element)
        for child in element.children:
            if child.touches_page:
                stack.append(child)
    for element in reversed(order):
        frozen[id(element)] = _node((
            element.type,
            element.mapped_type,
            tuple(element.mcids),
            element.page_matches,
            tuple([frozen[id(child)] for child in element.children if child.touches_page]),
            tuple(element.raw),
            tuple(element.derived),
            element.objgen,
            element.alt,
            element.actual_text,
            element.lang,
            tuple(element.form_mcids),
            tuple(element.objects),
        ))
    return frozen[id(root)]


def walk(struct_root, page, rules, bint single_page):
    """tree.walk_structure's answer: the structure tree walked for one page (§14.7.2)."""
    return _Walk(struct_root, page, rules, single_page).run(struct_root)
