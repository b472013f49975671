"""From painted glyphs to text: visible glyphs and duplicates (spec §4–§5), character classes
and ligatures, reading order (§6), baseline lines, layout (§7) and columns (§8)."""

from glyphscope.core.lazy import lazy_exports

__getattr__, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.text.chars": (
            "expand_ligatures",
            "glyph_output_text",
            "is_blank_char",
            "is_blank_text",
            "is_cjk_char",
            "is_whitespace_text",
        ),
        "glyphscope.core.text.columns": (
            "ColumnBand",
            "ColumnsResult",
            "Gutter",
            "Interval",
            "band_lines",
            "columns_text",
            "median_advance",
            "merge_ink",
            "narrow_gutters",
        ),
        "glyphscope.core.text.layout": (
            "LayoutResult",
            "grid_cells",
            "layout",
            "layout_text",
        ),
        "glyphscope.core.text.lines": (
            "baseline_rows",
            "dominant_rotation",
            "frame_matrix",
            "in_frame",
            "line_order",
        ),
        "glyphscope.core.text.reading": (
            "GapDecision",
            "GapReason",
            "LineBreakDecision",
            "ReadingResult",
            "TextBuilder",
            "TextResult",
            "VerticalColumn",
            "reading_order",
            "vertical_columns",
        ),
        "glyphscope.core.text.visible": (
            "DroppedGlyph",
            "DropReason",
            "GlyphStatus",
            "Rect",
            "VisibleResult",
            "drawn_size",
            "visible_glyphs",
        ),
    },
)
