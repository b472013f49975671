"""Opening PDF files, page boxes, bounded stream decoding, defensive object access (§7)."""

from glyphscope.core.pdf.document import PageBoxes, PdfDocument, PdfPage, Rect
from glyphscope.core.pdf.objects import get_entry, inherited_attribute
from glyphscope.core.pdf.streams import DecodedStream, decode_stream

__all__ = [
    "DecodedStream",
    "PageBoxes",
    "PdfDocument",
    "PdfPage",
    "Rect",
    "decode_stream",
    "get_entry",
    "inherited_attribute",
]
