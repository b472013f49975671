"""Content streams and their interpretation (§7.8, §8.4, §9.3, §9.4): every shown glyph."""

from glyphscope.core.interpret.content import (
    OperatorRecord,
    ParsedContent,
    form_resources,
    form_xobject,
    list_operators,
    operator_name,
    page_resources,
    page_streams,
    parse_content,
)
from glyphscope.core.interpret.interpreter import (
    PageExtraction,
    extract_page,
    interpret_page,
    page_glyphs,
)
from glyphscope.core.interpret.state import (
    GraphicsState,
    matrix_operand,
    position_text,
    set_text_state,
)

__all__ = [
    "GraphicsState",
    "OperatorRecord",
    "PageExtraction",
    "ParsedContent",
    "extract_page",
    "form_resources",
    "form_xobject",
    "interpret_page",
    "list_operators",
    "matrix_operand",
    "operator_name",
    "page_glyphs",
    "page_resources",
    "page_streams",
    "parse_content",
    "position_text",
    "set_text_state",
]
