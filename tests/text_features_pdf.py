"""One page with every reader-facing text feature of issue 12, for the GUI tests and the
screenshots: a Hebrew line painted in visual order, "naïve" with a separate dieresis over a
dotless i, an ActualText span, a FreeText annotation, and hidden text of each kind."""

from __future__ import annotations

from pathlib import Path

import pikepdf

from tests.pdfbuilder import PdfBuilder, standard_widths, tounicode_cmap

HEBREW = {0x41: "\u05e9", 0x42: "\u05dc", 0x43: "\u05d5", 0x44: "\u05dd"}


def text_features_pdf(path: Path) -> Path:
    builder = PdfBuilder()
    widths = standard_widths("Helvetica")
    widths[128] = 278
    latin = builder.standard_font("Helvetica", widths=widths, differences=[128, "dotlessi"])
    hebrew = builder.standard_font(
        "Helvetica", widths=dict.fromkeys(range(32, 127), 600), to_unicode=tounicode_cmap(HEBREW)
    )
    content = (
        b"BT /F2 24 Tf 72 700 Td (DCBA BA) Tj ET "
        b"BT /F1 24 Tf 72 650 Td [(na\\250) 305 (\\200ve)] TJ ET "
        b"BT /F1 24 Tf 72 600 Td (Dr. ) Tj /Span <</ActualText (Doctor)>> BDC (No) Tj EMC ET "
        b"q BT /F1 18 Tf 3 Tr 72 540 Td (invisible) Tj ET Q "
        b"q 300 500 100 20 re W n BT /F1 18 Tf 72 500 Td (clipped away) Tj ET Q "
        b"1 1 1 rg BT /F1 18 Tf 72 460 Td (white on white) Tj ET 0 0 0 rg "
        b"BT /F1 0.5 Tf 72 440 Td (tiny type) Tj ET"
    )
    index = builder.add_page(content, fonts={"F1": latin, "F2": hebrew})
    appearance = builder.form_xobject(
        b"BT /F1 14 Tf 4 6 Td (Note text) Tj ET", bbox=(0, 0, 150, 24), fonts={"F1": latin}
    )
    annotation = builder.pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.FreeText,
            Rect=pikepdf.Array([350, 640, 500, 664]),
            AP=pikepdf.Dictionary(N=appearance),
        )
    )
    builder.page_object(index).Annots = pikepdf.Array([annotation])
    path.write_bytes(builder.to_bytes())
    return path
