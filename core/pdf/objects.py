"""Reading PDF objects defensively (§7.3): entries of possibly damaged dictionaries, inheritance."""

from __future__ import annotations

import pikepdf


def get_entry(dictionary: object, key: str) -> object | None:
    """dictionary[key] when dictionary is a PDF dictionary, else None (damaged resources)."""
    if isinstance(dictionary, pikepdf.Dictionary):
        return dictionary.get(key)
    return None


def inherited_attribute(page: pikepdf.Page, key: str) -> object | None:
    """An inheritable page attribute (§7.7.3.4), looked up the /Parent chain, cycle-safe."""
    node, seen = page.obj, set()
    while isinstance(node, pikepdf.Dictionary) and node.objgen not in seen:
        if node.objgen != (0, 0):
            seen.add(node.objgen)
        if key in node:
            return node.get(key)
        node = node.get("/Parent")
    return None
