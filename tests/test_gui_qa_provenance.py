"""Provenance, content stream, fonts and structure panels (pytest-qt, offscreen)."""

from __future__ import annotations

from pathlib import Path

from tests.pdfbuilder import MCR, Element, PdfBuilder, tounicode_cmap
from tests.qa_support import glyph_indices, open_and_wait, qa_window

__all__ = ["qa_window"]

# Page stream operators, by index: 0 BT, 1 Tf, 2 Td, 3 TJ, 4 ET, 5 BT, 6 Tf, 7 Td, 8 Tj, 9 ET,
# 10 Do. F2 maps its codes through a ToUnicode CMap; the form draws "Form" with F1.
PROVENANCE_CONTENT = (
    b"BT /F1 10 Tf 20 125 Td [(TJ)-600(spaced)] TJ ET\nBT /F2 10 Tf 20 100 Td <0102> Tj ET\n/Fm1 Do"
)


def provenance_pdf(path: Path) -> Path:
    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    mapped = b.standard_font(
        "Courier", encoding=None, to_unicode=tounicode_cmap({1: "O", 2: "K"}, code_bytes=1)
    )
    form = b.form_xobject(b"BT /F1 10 Tf 20 60 Td (Form) Tj ET", fonts={"F1": helv})
    b.add_page(
        PROVENANCE_CONTENT,
        media_box=(0, 0, 200, 160),
        fonts={"F1": helv, "F2": mapped},
        xobjects={"Fm1": form},
    )
    b.save(path)
    return path


# A tagged page: /Heading (role-mapped to H1) with MCID 0, /P with MCID 1, and an untagged
# page number "7" outside every marked-content sequence.
TAGGED_CONTENT = (
    b"/H1 <</MCID 0>> BDC BT /F1 14 Tf 20 130 Td (Title) Tj ET EMC\n"
    b"/P <</MCID 1>> BDC BT /F1 10 Tf 20 100 Td (Body) Tj ET EMC\n"
    b"BT /F1 8 Tf 100 20 Td (7) Tj ET"
)


def tagged_pdf(path: Path) -> Path:
    b = PdfBuilder()
    b.add_page(
        TAGGED_CONTENT, media_box=(0, 0, 200, 160), fonts={"F1": b.standard_font("Helvetica")}
    )
    b.struct_tree(
        Element("Document", [Element("Heading", [MCR(0, page=0)]), Element("P", [MCR(1, page=0)])]),
        role_map={"Heading": "H1"},
    )
    b.save(path)
    return path


def provenance_text(features) -> str:
    return features.provenance.toPlainText()


# -- provenance -------------------------------------------------------------------------------


def test_provenance_names_the_tj_operator_and_its_element(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (s,) = glyph_indices(window, "s")
    window.selection.set((s,), "page")
    text = provenance_text(features)
    assert "operator index\n3\n" in text
    assert "operator\n[ (TJ) -600 (spaced) ] TJ\n" in text
    assert "TJ array element\nelement 2\n" in text


def test_provenance_names_the_builtin_encoding_step_for_helvetica(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (s,) = glyph_indices(window, "s")
    window.selection.set((s,), "page")
    assert (
        "builtin_encoding — a standard table: the /BaseEncoding named (WinAnsi, MacRoman, "
        "Standard), Symbol or ZapfDingbats for those fonts, else StandardEncoding (§9.6.6.1) "
        "→ answered “s”" in provenance_text(features)
    )


def test_provenance_names_the_tounicode_step_and_the_font(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (k,) = glyph_indices(window, "K")
    window.selection.set((k,), "page")
    text = provenance_text(features)
    assert "tounicode — the font's /ToUnicode CMap (§9.10.3) → answered “K”" in text
    assert "operator index\n8\n" in text
    assert "ToUnicode present\nyes\n" in text
    assert "base font\nCourier\n" in text


def test_provenance_of_a_form_glyph_names_the_form_and_its_depth(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (f,) = glyph_indices(window, "F")
    window.selection.set((f,), "page")
    text = provenance_text(features)
    assert "stream\nform XObject /Fm1 (depth 1)\n" in text
    assert "operator index\n3\n" in text
    assert "token index\n-1 (form glyph, §3)\n" in text


def test_provenance_shows_the_output_characters_of_each_pane(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (s,) = glyph_indices(window, "s")
    window.selection.set((s,), "page")
    assert "Reading order\n“s” at character 3 of" in provenance_text(features)


# -- content stream ---------------------------------------------------------------------------


def test_content_stream_highlights_the_selected_glyphs_operator(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    (k,) = glyph_indices(window, "K")
    window.selection.set((k,), "page")
    pane = features.content_stream
    assert pane.highlighted_rows() == {pane.row_of("", 8)}
    assert pane.model.records[pane.row_of("", 8)].operator == "Tj"


def test_content_stream_lists_the_form_operators_after_the_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    records = features.content_stream.model.records
    assert [(r.form_path, r.operator) for r in records[10:]] == [
        ("", "Do"),
        ("/Fm1", "BT"),
        ("/Fm1", "Tf"),
        ("/Fm1", "Td"),
        ("/Fm1", "Tj"),
        ("/Fm1", "ET"),
    ]


def test_clicking_an_operator_selects_the_glyphs_it_painted(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    pane = features.content_stream
    pane.choose_row(pane.row_of("", 3))
    assert window.selection.indices == tuple(glyph_indices(window, "TJspaced"))


def test_clicking_a_form_operator_selects_the_form_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    pane = features.content_stream
    pane.choose_row(pane.row_of("/Fm1", 3))
    assert window.selection.indices == tuple(glyph_indices(window, "Form"))


# -- fonts ------------------------------------------------------------------------------------


def test_fonts_panel_lists_each_font_with_its_decode_counts(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    rows = [
        (u.key, u.info.base_font, u.info.subtype, len(u.glyphs), u.sources, u.unresolved)
        for u in features.fonts_panel.usage
    ]
    assert rows == [
        (("", "F1"), "Helvetica", "Type1", 8, (("builtin_encoding", 8),), 0),
        (("", "F2"), "Courier", "Type1", 2, (("tounicode", 2),), 0),
        (("/Fm1", "F1"), "Helvetica", "Type1", 4, (("builtin_encoding", 4),), 0),
    ]


def test_selecting_a_font_selects_its_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, provenance_pdf(tmp_path / "p.pdf"))
    features.fonts_panel.choose(1)
    assert window.selection.indices == tuple(glyph_indices(window, "OK"))


# -- structure --------------------------------------------------------------------------------


def structure_labels(features) -> list[str]:
    tree = features.structure_panel.tree
    labels = []

    def walk(item, depth):
        labels.append("  " * depth + item.text(0))
        for row in range(item.childCount()):
            walk(item.child(row), depth + 1)

    for row in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(row), 0)
    return labels


def test_structure_panel_shows_the_tree_with_the_role_mapped_type(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    assert structure_labels(features) == [
        "StructTreeRoot",
        "  Document",
        "    Heading → H1",
        "    P",
        "Untagged glyphs (1)",
        f"  #{glyph_indices(window, '7')[0]}",
    ]


def choose_element(features, label: str) -> None:
    """Make the one structure-tree row showing `label` the current item, as a click would."""
    (item,) = features.structure_panel.find_items(label)
    features.structure_panel.tree.setCurrentItem(item)


def test_selecting_an_element_lights_its_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    choose_element(features, "Heading → H1")
    assert window.selection.indices == tuple(glyph_indices(window, "Title"))


def test_selecting_a_parent_element_lights_its_descendants_glyphs(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    choose_element(features, "Document")
    assert window.selection.indices == tuple(glyph_indices(window, "TitleBody"))


def test_selecting_untagged_glyphs_lights_the_page_number(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    choose_element(features, "Untagged glyphs (1)")
    assert window.selection.indices == tuple(glyph_indices(window, "7"))


def test_structure_details_label_raw_and_derived_entries(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    choose_element(features, "Heading → H1")
    details = features.structure_panel.details.toPlainText()
    assert "Raw (as written in the file)" in details
    assert "Derived (worked out by the engine)" in details
    assert "standard type (RoleMap)\nH1" in details


def test_each_untagged_glyph_is_listed_and_selectable(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tagged_pdf(tmp_path / "t.pdf"))
    (seven,) = glyph_indices(window, "7")
    choose_element(features, f"#{seven}")
    assert window.selection.indices == (seven,)


# -- the decode chain -------------------------------------------------------------------------


def font_info(subtype: str, encoding: str):
    from glyphscope.core.fonts.loader import FontInfo

    return FontInfo("F", subtype, encoding, False, "/Widths", False, "", "", "", 0, ())


def test_a_composite_font_reads_cmap_then_collection_then_program():
    from glyphscope.widgets.provenance_panel import decode_steps

    steps = [step.source for step in decode_steps(font_info("Type0", "Identity-H"))]
    assert steps == ["tounicode", "encoding_cmap", "predefined_cmap", "font_program"]


def test_an_embedded_font_without_base_encoding_reads_its_program_before_the_tables():
    from glyphscope.widgets.provenance_panel import decode_steps

    info = font_info("Type1", "font program, then StandardEncoding (default) + 2 Differences")
    steps = [step.source for step in decode_steps(info)]
    assert steps == [
        "tounicode",
        "differences",
        "font_program",
        "builtin_encoding",
        "tex_encoding",
        "glyph_name_number",
    ]


def test_a_font_with_a_base_encoding_reads_the_tables_before_its_program():
    from glyphscope.widgets.provenance_panel import decode_steps

    steps = [step.source for step in decode_steps(font_info("TrueType", "WinAnsiEncoding"))]
    assert steps == [
        "tounicode",
        "differences",
        "builtin_encoding",
        "font_program",
        "tex_encoding",
        "glyph_name_number",
    ]
