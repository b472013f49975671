"""The structure tree (§14.7) and structure-order text (spec §9, §14.8.4)."""

from glyphscope.core.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.structure.order": (
            "NoStructure",
            "StructureOrder",
            "StructureResult",
            "order_glyphs",
            "structure_outcome",
            "structure_outcome_for",
            "structure_tree",
            "structure_walk",
            "trusted_text",
        ),
        "glyphscope.core.structure.records": (
            "McidKey",
            "ObjectReference",
            "ObjGen",
            "StructureNode",
            "StructureWalk",
        ),
        "glyphscope.core.structure.root": (
            "number_tree_lookup",
            "page_parent_elements",
            "parent_tree_entries",
            "relevant_elements",
            "role_map",
        ),
        "glyphscope.core.structure.tree": ("walk_structure",),
    },
)
