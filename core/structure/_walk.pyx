# cython: language_level=3
"""The document's structure tree walk compiled (ISO 32000-1 §14.7.2, §14.7.4).

`walk` is `tree._Walk(...).run(...)`, step for step: the same kids read in the same order,
the same entries asked for (a dictionary's keys once, then only the entries it has), the same
tests in the same order, so the same DocumentStructure comes out, warnings and their order
included, and an exception from a damaged object stops a kid at the same point. The walk's
per-element Python (frames, the entering tests) is C here; pikepdf's reads are the same calls.
The Python walk stays as the path taken when this extension is not built;
tests/test_structure_walk.py holds the two against each other.
"""

import pikepdf

from glyphscope.core.pdf.objects import reference_label, type_label
from glyphscope.core.structure.records import (
    ELEMENT_TEXT_ENTRIES,
    DocumentStructure,
    McidReference,
    ObjectPlacement,
    ObjectReference,
    WalkedElement,
)
from glyphscope.core.structure.root import role_map

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


cdef class _Frame:
    cdef Py_ssize_t element
    cdef object page
    cdef str type
    cdef list kids
    cdef Py_ssize_t next_kid
    cdef Py_ssize_t depth
    cdef object objgen

    def __cinit__(
        self, Py_ssize_t element, object page, str type, list kids, Py_ssize_t depth,
        object objgen,
    ):
        self.element = element
        self.page = page
        self.type = type
        self.kids = kids
        self.next_kid = 0
        self.depth = depth
        self.objgen = objgen


cdef class _Walk:
    cdef object depth_cap
    cdef object role_map
    cdef list elements
    cdef list mcids
    cdef list objects
    cdef set visited
    cdef set on_path
    cdef list warnings
    cdef list too_deep
    cdef list pending

    def __cinit__(self, struct_root, rules):
        self.depth_cap = rules.structure_depth
        self.role_map = struct_root.get("/RoleMap")
        self.elements = []
        self.mcids = []
        self.objects = []
        self.visited = set()
        self.on_path = set()
        self.warnings = []
        self.too_deep = []
        self.pending = []

    cdef void warn(self, str message, Py_ssize_t element):
        self.warnings.append((message, element))

    cdef void record_pending(self, Py_ssize_t element):
        for message in self.pending:
            self.warn(message, element)
        self.pending.clear()

    cdef object run(self, struct_root):
        cdef _Frame frame
        cdef list stack
        root_objgen = _objgen_of(struct_root)
        self.elements.append(
            WalkedElement(-1, "StructTreeRoot", None, None, root_objgen, (), (), None, None, None)
        )
        stack = [_Frame(0, None, "StructTreeRoot", _kids(struct_root, None), 0, root_objgen)]
        if root_objgen is not None:
            self.on_path.add(root_objgen)
        while stack:
            frame = stack[-1]
            if frame.next_kid >= len(frame.kids):
                stack.pop()
                self.on_path.discard(frame.objgen)
                continue
            kid = frame.kids[frame.next_kid]
            frame.next_kid += 1
            try:
                self.visit_kid(frame, kid, stack)
            except (_PdfError, TypeError, ValueError, KeyError, AttributeError) as exc:
                self.record_pending(frame.element)
                self.warn(f"a kid of /{frame.type} skipped: {exc}", frame.element)
        return DocumentStructure(
            elements=tuple(self.elements),
            mcids=tuple(self.mcids),
            objects=tuple(self.objects),
            warnings=tuple(self.warnings),
            too_deep=tuple(self.too_deep),
        )

    cdef visit_kid(self, _Frame frame, object kid, list stack):
        if _is_integer(kid):
            self.mcids.append(McidReference(frame.element, None, kid, frame.page))
            return
        if not isinstance(kid, _Dictionary):
            self.warn(f"a kid of /{frame.type} is {type_label(kid)}, not a kid; skipped", frame.element)
            return
        keys = kid.keys()
        kind = _name_or_none(kid.get("/Type")) if "/Type" in keys else None
        untyped = kind is None and "/S" not in keys
        if kind == "MCR" or (untyped and "/MCID" in keys):
            mcid = kid.get("/MCID")
            if not _is_integer(mcid):
                self.warn(f"an MCR under /{frame.type} has no integer /MCID; skipped", frame.element)
                return
            page = _page_objgen(kid.get("/Pg")) or frame.page
            stream = kid.get("/Stm")
            form = _objgen_of(stream) if isinstance(stream, _Stream) else None
            self.mcids.append(McidReference(frame.element, form, mcid, page))
            return
        if kind == "OBJR" or (untyped and "/Obj" in keys):
            self.add_object(frame, kid, stack)
            return
        self.enter(frame, kid, stack, keys)

    cdef add_object(self, _Frame frame, object objr, list stack):
        target = objr.get("/Obj")
        if isinstance(target, _Dictionary) and "/S" in target:
            self.warn(
                f"an OBJR under /{frame.type} points to a structure element; walked", frame.element
            )
            self.enter(frame, target, stack, None)
            return
        page = _page_objgen(objr.get("/Pg")) or frame.page
        subtype = ""
        if isinstance(target, (_Dictionary, _Stream)):
            subtype = _name_or_none(target.get("/Subtype")) or ""
        reference = ObjectReference(_objgen_of(target), subtype)
        self.objects.append(ObjectPlacement(frame.element, reference, page))

    cdef enter(self, _Frame frame, object kid, list stack, object keys):
        if keys is None:
            keys = kid.keys()
        objgen = _objgen_of(kid)
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
        kids = _kids(kid, keys)
        if objgen is not None:
            self.visited.add(objgen)
            self.on_path.add(objgen)
        element = self.element(frame.element, kid, keys, objgen, explicit_page, frame.page)
        self.elements.append(element)
        self.record_pending(len(self.elements) - 1)
        stack.append(
            _Frame(
                len(self.elements) - 1, element.page, element.type, kids, frame.depth + 1, objgen
            )
        )

    cdef object element(
        self, Py_ssize_t parent, object kid, object keys, object objgen, object explicit_page,
        object inherited_page,
    ):
        page = explicit_page or inherited_page
        type_name = _name_or_none(kid.get("/S")) if "/S" in keys else None
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
            inherited = f"{reference_label(inherited_page)}, inherited from an ancestor"
            derived.append(("Pg", inherited))
        texts = {}
        for key, entry in ELEMENT_TEXT_ENTRIES:
            value = _text_or_none(kid.get(entry)) if entry in keys else None
            if value is not None:
                raw.append((key, value))
                texts[key] = value
        return WalkedElement(
            parent,
            type_name,
            mapped_type,
            page,
            objgen,
            tuple(raw),
            tuple(derived),
            texts.get("Alt"),
            texts.get("ActualText"),
            texts.get("Lang"),
        )


def walk(struct_root, rules):
    """tree.walk_document's answer: the structure tree walked once for the document."""
    return _Walk(struct_root, rules).run(struct_root)
