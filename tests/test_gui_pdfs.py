"""PDFs the GUI tests open, built with tests/pdfbuilder.py, and checks that each shows the
decision it is built for (so a GUI test failing points at the GUI, not at the page)."""

from __future__ import annotations

from pathlib import Path

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import Encrypt, PdfBuilder, tounicode_cmap

MEDIA = (0, 0, 320, 220)
CROP = (10, 10, 310, 200)


def decisions_pdf(path: Path | None = None, rotate: int = 0) -> bytes:
    """One small page carrying every decision the overlay layers draw.

    - "Bold words" drawn twice 0.3 pt apart (a duplicate pair, §5);
    - "SLUG" above the CropBox, inside the MediaBox (dropped outside the visible box, §4);
    - "Form text" drawn by a form XObject (form depth 1, §8.10);
    - "Tagged" inside /Span <</MCID 3>> BDC … EMC (an MCID region);
    - two codes of a ToUnicode-less Identity-H font (unresolved glyphs, §1);
    - "縦書" in an Identity-V font (one vertical column, §6);
    - a second line (a line break), words with space characters and words apart only by a
      TJ adjustment (gap decisions: blank side, below threshold, space inserted).
    """
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    bare = b.type0_font("BareCID", encoding="Identity-H", cid_system_info=("Adobe", "Identity", 0))
    vertical = b.type0_font(
        "VertCID",
        encoding="Identity-V",
        cid_system_info=("Adobe", "Identity", 0),
        to_unicode=tounicode_cmap({1: "縦", 2: "書"}, code_bytes=2),
    )
    form = b.form_xobject(
        b"BT /F1 10 Tf 20 30 Td (Form text) Tj ET",
        bbox=(0, 0, 320, 220),
        fonts={"F1": helv},
    )
    content = b"\n".join(
        [
            b"BT /F1 14 Tf 20 160 Td (Bold words) Tj ET",
            b"BT /F1 14 Tf 20.3 160 Td (Bold words) Tj ET",
            b"BT /F1 10 Tf 20 140 Td (Second line here) Tj ET",
            b"BT /F1 10 Tf 20 125 Td [(TJ)-600(spaced)] TJ ET",
            b"BT /F1 8 Tf 20 205 Td (SLUG) Tj ET",
            b"/Span <</MCID 3>> BDC BT /F1 10 Tf 20 110 Td (Tagged) Tj ET EMC",
            b"BT /F2 12 Tf 20 80 Td <00070008> Tj ET",
            b"BT /F3 14 Tf 260 150 Td <00010002> Tj ET",
            b"/Fm1 Do",
        ]
    )
    b.add_page(
        content,
        media_box=MEDIA,
        crop_box=CROP,
        rotate=rotate,
        fonts={"F1": helv, "F2": bare, "F3": vertical},
        xobjects={"Fm1": form},
    )
    return b.save(path)


def text_pages_pdf(path: Path | None = None, pages: int = 3) -> bytes:
    """`pages` pages, page n saying "Page n" (navigation tests)."""
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    for number in range(1, pages + 1):
        b.add_page(b"BT /F1 24 Tf 72 700 Td (Page %d) Tj ET" % number, fonts={"F1": helv})
    return b.save(path)


def encrypted_pdf(path: Path, user: str = "secret") -> bytes:
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    b.add_page(b"BT /F1 24 Tf 72 700 Td (Locked) Tj ET", fonts={"F1": helv})
    return b.save(path, encrypt=Encrypt(user=user, owner="owner-" + user))


def _analysis(data: bytes, index: int = 0):
    with Document.open(data) as document:
        return analyse_page(document.page(index), Rules())


def test_decisions_page_drops_one_duplicate_copy_per_bold_letter():
    analysis = _analysis(decisions_pdf())
    duplicates = [d for d in analysis.dropped if d.reason == "duplicate"]
    assert len(duplicates) == len("Boldwords")


def test_decisions_page_drops_the_slug_outside_the_crop_box():
    analysis = _analysis(decisions_pdf())
    outside = [d.index for d in analysis.dropped if d.reason == "outside_visible_box"]
    assert "".join(analysis.glyphs[i].text for i in outside) == "SLUG"


def test_decisions_page_has_two_unresolved_glyphs_and_a_form_and_a_column():
    analysis = _analysis(decisions_pdf())
    assert sum(g.decode_source == "unresolved" for g in analysis.glyphs) == 2
    assert "".join(g.text for g in analysis.glyphs if g.form_depth == 1) == "Form text"
    assert len(analysis.vertical_columns) == 1


def test_decisions_page_inserts_a_space_for_the_tj_adjustment():
    analysis = _analysis(decisions_pdf())
    assert "TJ spaced" in analysis.reading.text
