"""Glyphscope's extraction engine: every shown glyph as a record, every decision explained.

A plain library with no Qt. Its sub-packages follow ISO 32000-1's own division:

- `pdf`: opening files, page boxes, bounded stream decoding, defensive object access (§7);
- `fonts`: simple and composite fonts, encodings, font programs, CMaps (§9.5–§9.10);
- `interpret`: content streams, the graphics and text state, the interpreter (§7.8, §8, §9.4);
- `text`: visible glyphs and duplicates, character classes, reading, layout and columns order;
- `structure`: the structure tree and structure-order text (§14.7, §14.8);
- `analysis` (every stage with its decisions), `output` (whole documents as text), `cli`;
- `qa`: rule-change diffs, comparison with pdfium's text, regression cases, search;
- `view`: the inspector's Qt-free model of an analysed page (arrays, hit index, pane texts).

    from glyphscope.core import open, Rules

    with open("file.pdf") as document:
        print(document.pages[0].text("reading", Rules(space_gap_ratio=0.2)))
"""

from typing import TYPE_CHECKING

from glyphscope.core import errors
from glyphscope.core.lazy import lazy_exports

if TYPE_CHECKING:  # the names as type checkers see them; at run time they load on first use
    from glyphscope.core.analysis import PageAnalysis, analyse_page
    from glyphscope.core.document import Document, Page, Pages, open
    from glyphscope.core.errors import *  # noqa: F403  (the names of errors.__all__)
    from glyphscope.core.output import write_document_text
    from glyphscope.core.pdf.document import PageBoxes
    from glyphscope.core.records import DecodeSource, Glyph
    from glyphscope.core.rules import Rules
    from glyphscope.core.text.reading import GapReason
    from glyphscope.core.text.visible import DropReason

__getattr__, __dir__, __all__ = lazy_exports(
    __name__,
    {
        "glyphscope.core.analysis": ("PageAnalysis", "analyse_page"),
        "glyphscope.core.document": ("Document", "Page", "Pages", "open"),
        "glyphscope.core.errors": tuple(errors.__all__),
        "glyphscope.core.output": ("write_document_text",),
        "glyphscope.core.pdf.document": ("PageBoxes",),
        "glyphscope.core.records": ("DecodeSource", "Glyph"),
        "glyphscope.core.rules": ("Rules",),
        "glyphscope.core.text.reading": ("GapReason",),
        "glyphscope.core.text.visible": ("DropReason",),
    },
)
