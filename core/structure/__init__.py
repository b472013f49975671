"""The structure tree (§14.7) and structure-order text (spec §9, §14.8.4)."""

from glyphscope.core.structure.order import (
    NoStructure,
    StructureOrder,
    StructureResult,
    order_glyphs,
    structure_outcome,
    structure_outcome_for,
    structure_tree,
    structure_walk,
    trusted_text,
)
from glyphscope.core.structure.records import (
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
from glyphscope.core.structure.tree import walk_structure

__all__ = [
    "McidKey",
    "NoStructure",
    "ObjGen",
    "ObjectReference",
    "StructureNode",
    "StructureOrder",
    "StructureResult",
    "StructureWalk",
    "number_tree_lookup",
    "order_glyphs",
    "page_parent_elements",
    "parent_tree_entries",
    "relevant_elements",
    "role_map",
    "structure_outcome",
    "structure_outcome_for",
    "structure_tree",
    "structure_walk",
    "trusted_text",
    "walk_structure",
]
