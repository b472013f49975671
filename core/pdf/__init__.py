"""Opening PDF files, page boxes, bounded stream decoding, defensive object access (§7)."""

from glyphscope.core.geometry import Rect
from glyphscope.core.pdf.document import PageBoxes, PdfDocument, PdfPage
from glyphscope.core.pdf.objects import (
    ObjGen,
    get_entry,
    inherited_attribute,
    is_integer,
    name_key,
    name_or_none,
    objgen_of,
    pdf_dictionary,
    pdf_name,
    pdf_number,
    pdf_numbers,
    pdf_text,
    text_or_none,
)
from glyphscope.core.pdf.streams import DecodedStream, decode_stream

__all__ = [
    "DecodedStream",
    "ObjGen",
    "PageBoxes",
    "PdfDocument",
    "PdfPage",
    "Rect",
    "decode_stream",
    "get_entry",
    "inherited_attribute",
    "is_integer",
    "name_key",
    "name_or_none",
    "objgen_of",
    "pdf_dictionary",
    "pdf_name",
    "pdf_number",
    "pdf_numbers",
    "pdf_text",
    "text_or_none",
]
