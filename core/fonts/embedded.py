"""What font loading shares below the font records: which program a font descriptor embeds
(§9.9, Table 126) and the note a font leaves when a cap of the rules stops it reading. The
font-program reader (program.py) and the font records (dicts.py) both build on this, so
neither imports the other at module level."""

from __future__ import annotations

import pikepdf

from glyphscope.core.pdf.objects import pdf_name


class LimitNote(str):
    """A font problem that is a cap of the rules reached rather than damage: the interpreter
    reports these on the page (and marks it truncated), other problems only in FontInfo."""

    __slots__ = ()


def embedded_program_type(font_descriptor: pikepdf.Dictionary | None) -> str:
    """'FontFile', 'FontFile2', 'FontFile3/<Subtype>' or '' (not embedded, or no
    descriptor), §9.9 Table 126."""
    if font_descriptor is None:
        return ""
    for key in ("/FontFile", "/FontFile2", "/FontFile3"):
        stream = font_descriptor.get(key)
        if isinstance(stream, pikepdf.Stream):
            subtype = stream.get("/Subtype")
            return f"{key[1:]}/{pdf_name(subtype)}" if subtype is not None else key[1:]
    return ""
