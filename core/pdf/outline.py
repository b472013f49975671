"""The document outline (bookmarks, ISO 32000-1 §12.3.3) as flat records: each entry's title,
depth and the page its destination names (§12.3.2: an explicit [page /XYZ …] array, a named
destination looked up in /Dests or the /Names /Dests name tree, or a /GoTo action's /D)."""

from __future__ import annotations

from typing import NamedTuple

import pikepdf

# Entries read at most: a damaged outline can loop or hold millions of items.
MAX_ENTRIES = 10_000


class OutlineEntry(NamedTuple):
    title: str
    depth: int  # 0 for the top level
    page_index: int | None  # None: no destination, or one that names no page of this file


def outline_entries(pdf: pikepdf.Pdf, limit: int = MAX_ENTRIES) -> list[OutlineEntry]:
    """The outline in reading order (parents before their children)."""
    pages = {page.obj.objgen: index for index, page in enumerate(pdf.pages)}
    entries: list[OutlineEntry] = []
    try:
        with pdf.open_outline() as outline:
            stack = [(item, 0) for item in reversed(outline.root)]
            while stack and len(entries) < limit:
                item, depth = stack.pop()
                entries.append(OutlineEntry(item.title or "", depth, _page_of(pdf, item, pages)))
                stack.extend((child, depth + 1) for child in reversed(item.children))
    except (pikepdf.PdfError, pikepdf.OutlineStructureError, RuntimeError, ValueError):
        # A broken outline (a loop qpdf refuses): keep what was read before it.
        pass
    return entries


def _page_of(
    pdf: pikepdf.Pdf, item: pikepdf.OutlineItem, pages: dict[tuple[int, int], int]
) -> int | None:
    # An explicit array, a name or string to look up, or (inside /Dests) a dictionary (§12.3.2).
    destination: object = item.destination
    if destination is None and item.action is not None:
        action = item.action
        if action.get("/S") == pikepdf.Name.GoTo:
            destination = action.get("/D")
    if isinstance(destination, (pikepdf.Name, pikepdf.String, str, bytes)):
        destination = _named(pdf, destination)
    if isinstance(destination, pikepdf.Dictionary):
        destination = destination.get("/D")  # a named destination's dictionary form
    if isinstance(destination, pikepdf.Array) and len(destination):
        target = destination[0]
        if isinstance(target, int):  # a page number (remote-style, tolerated)
            return target if 0 <= target < len(pages) else None
        if isinstance(target, pikepdf.Object) and target.is_indirect:
            return pages.get(target.objgen)
    return None


def _named(
    pdf: pikepdf.Pdf, name: pikepdf.Name | pikepdf.String | str | bytes
) -> pikepdf.Object | None:
    root = pdf.Root
    key = str(name)
    old_style = root.get("/Dests")
    if isinstance(name, pikepdf.Name) and isinstance(old_style, pikepdf.Dictionary):
        return old_style.get(key)
    names = root.get("/Names")
    if isinstance(names, pikepdf.Dictionary) and "/Dests" in names:
        tree = pikepdf.NameTree(names.Dests)
        text = key[1:] if key.startswith("/") else key
        return tree.get(text)
    return None
