"""Records of the logical structure walk (ISO 32000-1 §14.7): what `walk_structure` returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from glyphscope.core.pdf.objects import ObjGen

# A marked-content sequence: (form XObject objgen when referenced through an MCR /Stm,
# None for the page's own content stream; MCID). §14.7.4.3: a form's MCIDs are its own.
McidKey = tuple["ObjGen | None", int]


# A structure element's entries read as text into its StructureNode, (field key, PDF key):
# /Alt §14.9.3, /ActualText §14.9.4, /Lang §14.9.2, /T and /E (Table 323, §14.9.5).
ELEMENT_TEXT_ENTRIES = tuple((key, f"/{key}") for key in ("Alt", "ActualText", "Lang", "T", "E"))


@dataclass(frozen=True, slots=True)
class ObjectReference:
    """An OBJR kid (§14.7.4.3 Table 325): a whole annotation or XObject, no MCID."""

    objgen: ObjGen | None
    subtype: str


@dataclass(frozen=True, slots=True)
class StructureNode:
    """One structure element that touches the page, for the inspector's Structure panel.

    `raw` holds attributes as written in the file; `derived` holds what the walk worked
    out (inherited /Pg, page from the /ParentTree, role-mapped type), labelled as such.
    `mcids` are this page's MCIDs directly under the element, in kid order;
    `form_mcids` the (form objgen, MCID) pairs of MCR kids with /Stm.
    """

    type: str
    mapped_type: str | None
    mcids: tuple[int, ...]
    page_matches: bool
    children: tuple[StructureNode, ...]
    raw: tuple[tuple[str, str], ...]
    derived: tuple[tuple[str, str], ...]
    objgen: ObjGen | None
    alt: str | None = None
    actual_text: str | None = None
    lang: str | None = None
    form_mcids: tuple[tuple[ObjGen, int], ...] = ()
    objects: tuple[ObjectReference, ...] = ()


@dataclass(frozen=True, slots=True)
class StructureWalk:
    """The walk's answer for one page.

    mcid_keys: the page's marked-content sequences in author order, each once (an MCID
    referenced twice is replayed at its first reference); a key's form, when not None, is a
    form XObject whose MCIDs the tree references through MCR /Stm.
    """

    root: StructureNode
    mcid_keys: tuple[McidKey, ...]
    elements_visited: int
    warnings: tuple[str, ...]


class WalkedElement(NamedTuple):
    """A structure element the document walk entered, at its place in author order.

    `parent`: the index of its parent element (0 is /StructTreeRoot itself, whose parent is
    -1); `page`: its /Pg, else its nearest ancestor's (§14.7.2 Table 323), else None; `raw`
    and `derived` as in StructureNode, before a page adds how it placed references without
    any /Pg (those labels belong to the page, not the element).
    """

    parent: int
    type: str
    mapped_type: str | None
    page: ObjGen | None
    objgen: ObjGen | None
    raw: tuple[tuple[str, str], ...]
    derived: tuple[tuple[str, str], ...]
    alt: str | None
    actual_text: str | None
    lang: str | None


class McidReference(NamedTuple):
    """A marked-content reference (§14.7.4.2): an MCID kid, or an MCR dictionary whose /Pg
    (when it has one) overrides the element's page; `form` the MCR's /Stm form XObject."""

    element: int
    form: ObjGen | None
    mcid: int
    page: ObjGen | None


class ObjectPlacement(NamedTuple):
    """An OBJR kid (§14.7.4.3) of an element, with its page (its /Pg, else the element's)."""

    element: int
    reference: ObjectReference
    page: ObjGen | None


@dataclass(frozen=True, slots=True)
class DocumentStructure:
    """The structure tree walked once for the whole document (§14.7.2), in author order:
    every element entered, every marked-content and object reference, and what went wrong,
    each warning with the element it was found at (`too_deep`: the element under which each
    element past the depth cap was left), so that a page reports what lies on its part of
    the tree. Pages read it through index.StructureIndex."""

    elements: tuple[WalkedElement, ...]
    mcids: tuple[McidReference, ...]
    objects: tuple[ObjectPlacement, ...]
    warnings: tuple[tuple[str, int], ...]
    too_deep: tuple[int, ...]
