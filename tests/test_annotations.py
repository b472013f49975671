"""Annotation and form-field appearances read with rules.annotations (§12.5.5), built PDFs."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder, standard_widths

ON = Rules(annotations=True)


def _document(annotations, content: bytes = b"BT /F1 10 Tf 72 700 Td (Page) Tj ET"):
    """A page with the given annotation dictionaries; "AP" entries are (content, bbox,
    matrix) tuples turned into appearance forms that use the page's font."""
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=standard_widths("Helvetica"))
    index = builder.add_page(content, fonts={"F1": font})
    pdf = builder.pdf
    annots = pikepdf.Array()
    for entries in annotations:
        annotation = pikepdf.Dictionary(Type=pikepdf.Name.Annot)
        for key, value in entries.items():
            if key == "AP":
                value = pikepdf.Dictionary(N=_form(builder, font, *value))
            elif key == "APStates":
                key = "AP"
                states = {f"/{n}": _form(builder, font, *form) for n, form in value.items()}
                value = pikepdf.Dictionary(N=pikepdf.Dictionary(states))
            elif isinstance(value, str) and value.startswith("/"):
                value = pikepdf.Name(value)
            elif isinstance(value, (list, tuple)):
                value = pikepdf.Array(value)
            annotation[f"/{key}"] = value
        annots.append(pdf.make_indirect(annotation))
    builder.page_object(index).Annots = annots
    widgets = [a for a in annots if a.get("/Subtype") == "/Widget"]
    if widgets:  # §12.7.2: a widget is a field of the document's interactive form
        pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array(widgets))
    return Document.open(builder.to_bytes())


def _form(builder, font, content: bytes, bbox=(0, 0, 100, 20), matrix=None):
    form = builder.form_xobject(content, bbox=bbox, matrix=matrix, fonts={"F1": font})
    return form


FREE_TEXT = {
    "Subtype": "/FreeText",
    "Rect": [200, 500, 300, 520],
    "AP": (b"BT /F1 10 Tf 2 5 Td (Note) Tj ET",),
}


def test_annotations_are_off_by_default():
    assert _document([FREE_TEXT]).page(0).text() == "Page"


def test_free_text_appearance_is_read_after_the_page_content():
    page = _document([FREE_TEXT]).page(0)
    assert page.text(rules=ON) == "Page\nNote"


def test_appearance_is_placed_on_the_rect_and_its_glyphs_name_the_annotation():
    analysis = _document([FREE_TEXT]).page(0).analysis(ON)
    note = analysis.glyphs[4]
    assert note.origin == pytest.approx((202.0, 505.0))
    assert note.form_path.startswith("[annot ")
    (span,) = analysis.to_json()["annotations"]
    assert (span["start"], span["end"], span["subtype"]) == (4, 8, "FreeText")
    assert span["object_number"] > 0
    assert analysis.to_json()["glyphs"][4]["token_index"] == -1


def test_bbox_is_scaled_onto_the_rect_through_the_matrix():
    # BBox 0 0 50 10 rotated by the /Matrix a quarter turn: its box maps onto a 20 × 100 Rect.
    rotated = {
        "Subtype": "/FreeText",
        "Rect": [100, 100, 120, 200],
        "AP": (b"BT /F1 10 Tf 0 0 Td (A) Tj ET", (0, 0, 50, 10), (0, 1, -1, 0, 0, 0)),
    }
    glyph = _document([rotated]).page(0).analysis(ON).glyphs[4]
    # Form (0, 0) → Matrix (0, 0) → the box [-10, 0, 0, 50] scaled by (2, 2) onto the Rect.
    assert glyph.origin == pytest.approx((120.0, 100.0))


def test_hidden_and_noview_annotations_are_skipped():
    hidden = {**FREE_TEXT, "F": 2}
    no_view = {**FREE_TEXT, "F": 32}
    assert _document([hidden, no_view]).page(0).text(rules=ON) == "Page"


def test_widget_appearance_state_is_chosen_by_as():
    widget = {
        "Subtype": "/Widget",
        "Rect": [72, 600, 172, 620],
        "AS": "/On",
        "APStates": {"On": (b"BT /F1 10 Tf 0 5 Td (Yes) Tj ET",), "Off": (b"",)},
    }
    assert _document([widget]).page(0).text(rules=ON) == "Page\nYes"


def test_annotation_without_appearance_adds_nothing():
    assert (
        _document([{"Subtype": "/Text", "Rect": [0, 0, 10, 10]}]).page(0).text(rules=ON) == "Page"
    )
