"""What the structure walk reads from /StructTreeRoot besides its kids (ISO 32000-1 §14.7):
the /ParentTree, a number tree (§7.9.7) giving each page's parent elements (§14.7.4.4), and
the /RoleMap (§14.7.3) taking custom structure types to standard ones.
"""

from __future__ import annotations

import pikepdf

from glyphscope.core.pdf.objects import ObjGen, is_integer, name_or_none, objgen_of

# §14.8.4 standard structure types (ISO 32000-1) and the PDF 2.0 additions a RoleMap may
# legitimately target; role mapping stops at the first of these.
STANDARD_TYPES = frozenset(
    "Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private "
    "P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody Table TR TH TD THead TBody TFoot "
    "Span Quote Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP "
    "Figure Formula Form DocumentFragment Aside Title FENote Sub Em Strong Artifact".split()
)


def number_tree_lookup(node: object, key: int, max_depth: int) -> object | None:
    """The value for `key` in a number tree (§7.9.7): /Nums pairs, /Kids, /Limits.

    /Limits only prunes when it is two integers; a node reached twice is read once; nodes
    deeper than `max_depth` are ignored. /Nums is scanned in full because files with
    unsorted arrays exist.
    """
    stack: list[tuple[object, int]] = [(node, 0)]
    seen: set[ObjGen] = set()
    while stack:
        current, depth = stack.pop()
        if not isinstance(current, pikepdf.Dictionary) or depth > max_depth:
            continue
        objgen = objgen_of(current)
        if objgen is not None:
            if objgen in seen:
                continue
            seen.add(objgen)
        limits = current.get("/Limits")
        if (
            isinstance(limits, pikepdf.Array)
            and len(limits) == 2
            and all(is_integer(limit) for limit in limits)
            and not limits[0] <= key <= limits[1]
        ):
            continue
        nums = current.get("/Nums")
        if isinstance(nums, pikepdf.Array):
            for position in range(0, len(nums) - 1, 2):
                if nums[position] == key and is_integer(nums[position]):
                    return nums[position + 1]
        kids = current.get("/Kids")
        if isinstance(kids, pikepdf.Array):
            stack.extend((kid, depth + 1) for kid in reversed(list(kids)))
    return None


def role_map(type_name: str, mapping: object) -> tuple[str | None, str | None]:
    """(type /RoleMap (§14.7.3) leads to, or None when unmapped; warning or None).

    Chains are followed (Para → Normal → P) and stop at a standard type or at a type with no
    mapping (returned: the inspector shows where the chain ends). A cycle reaches no type
    (None, recorded). A standard type is never remapped (§14.8.4).
    """
    if type_name in STANDARD_TYPES or not isinstance(mapping, pikepdf.Dictionary):
        return None, None
    current = type_name
    seen = {current}
    while current not in STANDARD_TYPES:
        target = name_or_none(mapping.get("/" + current))
        if target is None:
            break
        if target in seen:
            return None, f"/RoleMap cycle at /{target} while mapping /{type_name}"
        seen.add(target)
        current = target
    return (current if current != type_name else None), None


def page_parent_elements(
    struct_root: pikepdf.Dictionary, page: pikepdf.Dictionary, max_depth: int
) -> list[object] | None:
    """The /ParentTree array for the page's /StructParents (§14.7.4.4): element per MCID."""
    key = page.get("/StructParents")
    if not is_integer(key):
        return None
    entry = number_tree_lookup(struct_root.get("/ParentTree"), key, max_depth)
    if not isinstance(entry, pikepdf.Array):
        return None
    return list(entry)


def parent_tree_entries(
    struct_root: pikepdf.Dictionary,
    page: pikepdf.Dictionary,
    mcid_parents: list[object],
    max_depth: int,
) -> list[object]:
    """Every /ParentTree value belonging to the page: its MCIDs' parents (given), its
    annotations' and its XObjects' (/StructParent of an OBJR target, /StructParents of a
    form)."""
    entries = list(mcid_parents)
    parent_tree = struct_root.get("/ParentTree")
    owners: list[object] = []
    annotations = page.get("/Annots")
    if isinstance(annotations, pikepdf.Array):
        owners.extend(annotations)
    resources = page.get("/Resources")
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    if isinstance(xobjects, pikepdf.Dictionary):
        owners.extend(xobjects.values())
    for owner in owners:
        if not isinstance(owner, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        for key_name in ("/StructParent", "/StructParents"):
            key = owner.get(key_name)
            if is_integer(key):
                value = number_tree_lookup(parent_tree, key, max_depth)
                entries.extend(value if isinstance(value, pikepdf.Array) else [value])
    return entries


def relevant_elements(entries: list[object], max_depth: int) -> set[ObjGen]:
    """The listed elements and all their /P ancestors: every element worth entering."""
    relevant: set[ObjGen] = set()
    for entry in entries:
        current, depth = entry, 0
        while isinstance(current, pikepdf.Dictionary) and depth <= max_depth:
            objgen = objgen_of(current)
            if objgen is None or objgen in relevant:
                break
            relevant.add(objgen)
            current, depth = current.get("/P"), depth + 1
    return relevant
