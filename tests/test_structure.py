"""Structure-order text (spec §9): the structure walk, the replay by MCID, the no-result cases.

Walk tests build trees with tests/pdfbuilder.py and read them back through pikepdf; replay
tests use synthetic glyph records so the glyph index sequence is exact; end-to-end tests run
the interpreter and the reading-order assembler on real content streams.
"""

from __future__ import annotations

import io

import pikepdf
import pytest

from glyphscope.core.errors import PageIndexError
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.structure import tree
from glyphscope.core.structure.order import (
    NO_TREE,
    NOT_REFERENCED,
    NOT_TAGGED,
    READING_ORDER,
    STRUCTURE,
    NoStructure,
    order_glyphs,
    structure_outcome_for,
    structure_tree,
    structure_walk,
    trusted_text,
)
from glyphscope.core.structure.tree import number_tree_lookup, role_map, walk_structure
from tests.pdfbuilder import MCR, OBJR, Element, PdfBuilder

RULES = Rules()


@pytest.fixture(autouse=True, params=["compiled", "python"])
def walk_path(request, monkeypatch):
    """Every test on the compiled walk (_walk.pyx) and on the Python one."""
    if request.param == "python":
        monkeypatch.setattr(tree, "_compiled_walk", None)
    elif tree._compiled_walk is None:
        pytest.skip("the compiled walk is not built")


def _builder(pages: int = 1) -> PdfBuilder:
    builder = PdfBuilder()
    for _ in range(pages):
        builder.add_page(b"")
    return builder


def _walk(builder: PdfBuilder, page: int = 0, rules: Rules = RULES):
    pdf = builder.pdf
    return walk_structure(
        pdf.Root.StructTreeRoot, builder.page_object(page), rules, len(pdf.pages) == 1
    )


def _mcids(walk) -> list[int]:
    return [mcid for form, mcid in walk.mcid_keys]


def _glyph(
    text: str, x: float, y: float, mcid: int | None, draw_order: int, form_path: str = ""
) -> Glyph:
    size = 10.0
    quad = ((x, y - 2), (x + 5, y - 2), (x + 5, y + 8), (x, y + 8))
    return Glyph(
        text, ord(text), 1, "F1", "Helvetica", size, (x, y), (x + 5, y), (x + 5, y), quad,
        0, 0, mcid, draw_order, 1 if form_path else 0, "builtin_encoding", draw_order,
        draw_order, 0, form_path,
    )  # fmt: skip


# --- the walk --------------------------------------------------------------------------------


def test_walk_yields_mcids_in_author_order_not_number_order():
    builder = _builder()
    builder.struct_tree(
        Element("Document", [Element("P", [0]), Element("P", [2]), Element("P", [1, 3])], page=0)
    )
    assert _mcids(_walk(builder)) == [0, 2, 1, 3]


def test_walk_interleaves_mcids_and_child_elements_in_kid_order():
    builder = _builder()
    builder.struct_tree(Element("P", [0, Element("Span", [5]), 2], page=0))
    assert _mcids(_walk(builder)) == [0, 5, 2]


def test_walk_reads_a_single_kid_that_is_not_an_array():
    builder = _builder()
    builder.struct_tree(Element("Document", Element("P", 7), page=0))
    assert _mcids(_walk(builder)) == [7]


def test_pg_is_inherited_from_the_nearest_ancestor():
    builder = _builder(2)
    builder.struct_tree(
        Element(
            "Document", [Element("Sect", [Element("P", [0])], page=1), Element("P", [4])], page=0
        )
    )
    assert _mcids(_walk(builder, 0)) == [4]
    assert _mcids(_walk(builder, 1)) == [0]


def test_inherited_pg_is_labelled_derived_not_raw():
    builder = _builder(2)
    builder.struct_tree(Element("Sect", [Element("P", [0])], page=1))
    paragraph = _walk(builder, 1).root.children[0].children[0]
    ref = f"{builder.page_object(1).objgen[0]} 0 R"
    assert paragraph.derived == (("Pg", f"{ref}, inherited from an ancestor"),)
    assert dict(paragraph.raw) == {"S": "/P"}


def test_mcr_pg_overrides_the_element_page():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0, MCR(3, page=1), MCR(4)], page=0))
    assert _mcids(_walk(builder, 0)) == [0, 4]
    assert _mcids(_walk(builder, 1)) == [3]


def test_multi_page_tree_keeps_only_this_page_mcids():
    builder = _builder(3)
    builder.struct_tree(
        Element(
            "Document",
            [Element("P", [0, 1], page=0), Element("P", [0, 1], page=1), Element("P", [2], page=2)],
        )
    )
    assert [_mcids(_walk(builder, page)) for page in range(3)] == [[0, 1], [0, 1], [2]]


def test_cyclic_k_terminates_visits_once_and_warns():
    builder = _builder()
    section = Element("Sect", [0], page=0)
    section.kids.append(Element("P", [1, section]))
    builder.struct_tree(section)
    walk = _walk(builder)
    assert _mcids(walk) == [0, 1]
    assert walk.elements_visited == 2
    assert any("cyclic /K" in warning for warning in walk.warnings)


def test_element_shared_by_two_parents_is_visited_once():
    builder = _builder()
    shared = Element("P", [3])
    builder.struct_tree(Element("Document", [Element("Div", [shared]), shared], page=0))
    walk = _walk(builder)
    assert _mcids(walk) == [3]
    assert any("kid of two elements" in warning for warning in walk.warnings)


def _nested(depth: int) -> Element:
    """`depth` nested Div elements, each holding its own level number as an MCID."""
    element = Element("Div", [depth - 1], page=0)
    for level in range(depth - 2, -1, -1):
        element = Element("Div", [level, element], page=0)
    return element


def test_depth_cap_stops_at_structure_depth_levels():
    builder = _builder()
    builder.struct_tree(_nested(6))
    walk = _walk(builder, rules=RULES.with_values(structure_depth=4))
    assert _mcids(walk) == [0, 1, 2, 3]
    assert walk.warnings == ("1 elements deeper than structure_depth 4 not visited",)


def test_default_depth_cap_is_128_levels():
    builder = _builder()
    builder.struct_tree(_nested(130))
    assert _mcids(_walk(builder)) == list(range(128))


def test_mcid_referenced_twice_is_replayed_once_at_first_reference():
    builder = _builder()
    builder.struct_tree(Element("Document", [Element("P", [1]), Element("P", [0, 1])], page=0))
    walk = _walk(builder)
    assert _mcids(walk) == [1, 0]
    assert walk.warnings == (
        "MCID 1 referenced more than once; replayed once, at its first reference",
    )


def test_repeated_mcids_are_reported_in_one_warning():
    builder = _builder()
    builder.struct_tree(Element("Document", [Element("P", [1, 2]), Element("P", [2, 1])], page=0))
    assert _walk(builder).warnings == (
        "MCID 2, 1 referenced more than once; replayed once, at its first reference",
    )


def test_objr_is_recorded_without_an_mcid():
    builder = _builder()
    annotation = builder.pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot))
    annotation.Subtype = pikepdf.Name.Link
    builder.struct_tree(Element("Link", [OBJR(annotation), 2], page=0))
    walk = _walk(builder)
    link = walk.root.children[0]
    assert _mcids(walk) == [2]
    assert [(o.objgen, o.subtype) for o in link.objects] == [(annotation.objgen, "Link")]


def test_alt_actual_text_and_lang_are_read_from_the_element():
    builder = _builder()
    entries = {"Alt": "A chart", "ActualText": "x²", "Lang": "bg-BG"}
    builder.struct_tree(Element("Figure", [0], page=0, entries=entries))
    figure = _walk(builder).root.children[0]
    assert (figure.alt, figure.actual_text, figure.lang) == ("A chart", "x²", "bg-BG")


def test_corrupt_kids_are_skipped_with_warnings_never_raised():
    builder = _builder()
    root = builder.struct_tree(Element("P", [0], page=0))
    paragraph = root.K
    paragraph.K = pikepdf.Array(
        [pikepdf.String("junk"), pikepdf.Name.Oops, None, 1.5, True, 0, pikepdf.Dictionary()]
    )
    walk = _walk(builder)
    assert _mcids(walk) == [0]
    assert walk.warnings == (
        "a kid of /P is string, not a kid; skipped",
        "a kid of /P is name, not a kid; skipped",
        "a kid of /P is null, not a kid; skipped",
        "a kid of /P is real number, not a kid; skipped",
        "a kid of /P is boolean, not a kid; skipped",
        "structure element direct object has no /S name",
    )


def test_element_without_k_or_s_is_walked_without_raising():
    builder = _builder()
    root = builder.struct_tree(Element("P", [0], page=0))
    del root.K.K
    del root.K.S
    walk = _walk(builder)
    ref = f"{root.K.objgen[0]} 0 R"
    assert (_mcids(walk), walk.warnings) == ([], (f"structure element {ref} has no /S name",))


def test_structure_tree_without_k_yields_no_mcids():
    builder = _builder()
    root = builder.struct_tree(Element("P", [0], page=0))
    del root.K
    assert _mcids(_walk(builder)) == []


# --- role map --------------------------------------------------------------------------------


def test_role_map_follows_a_chain_to_a_standard_type():
    builder = _builder()
    builder.struct_tree(Element("Para", [0], page=0), role_map={"Para": "Normal", "Normal": "P"})
    paragraph = _walk(builder).root.children[0]
    assert (paragraph.type, paragraph.mapped_type) == ("Para", "P")
    assert paragraph.derived == (("standard type", "/P through /RoleMap"),)


def test_role_map_cycle_stops_and_is_reported():
    mapping = pikepdf.Dictionary({"/A": pikepdf.Name.B, "/B": pikepdf.Name.A})
    assert role_map("A", mapping) == (None, "/RoleMap cycle at /A while mapping /A")


def test_standard_type_is_not_remapped():
    assert role_map("P", pikepdf.Dictionary({"/P": pikepdf.Name.Span})) == (None, None)


# --- /ParentTree -----------------------------------------------------------------------------


def _number_tree() -> pikepdf.Dictionary:
    """Root with two leaves: [0..4] and [10..12] (§7.9.7)."""
    low = pikepdf.Dictionary(
        Limits=[0, 4], Nums=[0, pikepdf.String("zero"), 4, pikepdf.String("four")]
    )
    high = pikepdf.Dictionary(
        Limits=[10, 12], Nums=[10, pikepdf.String("ten"), 12, pikepdf.String("twelve")]
    )
    return pikepdf.Dictionary(Kids=[low, high])


def test_number_tree_lookup_descends_kids_within_limits():
    tree = _number_tree()
    assert [str(number_tree_lookup(tree, key, 128)) for key in (0, 4, 10, 12)] == [
        "zero",
        "four",
        "ten",
        "twelve",
    ]


def test_number_tree_lookup_misses_keys_outside_every_limit():
    assert [number_tree_lookup(_number_tree(), key, 128) for key in (5, 11, 13)] == [None] * 3


def test_number_tree_limits_prune_a_leaf_that_would_match():
    tree = pikepdf.Dictionary(Kids=[pikepdf.Dictionary(Limits=[0, 1], Nums=[7, 70])])
    assert number_tree_lookup(tree, 7, 128) is None


def test_parent_tree_places_mcids_of_elements_without_any_pg():
    builder = _builder(2)
    first, second = Element("P", [0]), Element("P", [0, 1])
    root = builder.struct_tree(Element("Document", [first, second]))
    pages = [builder.page_object(i) for i in range(2)]
    pages[0].StructParents, pages[1].StructParents = 0, 1
    p1, p2 = root.K.K
    root.ParentTree = pikepdf.Dictionary(
        Kids=[
            pikepdf.Dictionary(Limits=[0, 0], Nums=[0, [p1]]),
            pikepdf.Dictionary(Limits=[1, 1], Nums=[1, [p2, p2]]),
        ]
    )
    assert (_mcids(_walk(builder, 0)), _mcids(_walk(builder, 1))) == ([0], [0, 1])


def test_mcids_without_pg_or_parent_tree_are_not_placed_and_counted():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0, 1]), parent_tree=False)
    walk = _walk(builder, 0)
    assert _mcids(walk) == []
    assert walk.warnings == (
        "2 marked-content references have no /Pg and no /ParentTree entry; not placed on this page",
    )


def test_one_page_document_needs_no_pg():
    builder = _builder(1)
    builder.struct_tree(Element("P", [0, 1]), parent_tree=False)
    walk = _walk(builder)
    assert _mcids(walk) == [0, 1]
    assert walk.root.children[0].derived == (("Pg", "the document's only page (no /Pg)"),)


def test_parent_tree_rejects_pageless_mcids_of_a_page_cut_from_a_longer_file():
    builder = _builder(1)
    builder.struct_tree(
        Element("Document", [Element("P", [0, 1], page=0), Element("P", [0])])  # 2nd: /Pg gone
    )
    walk = _walk(builder)
    assert (_mcids(walk), walk.warnings) == ([0, 1], ())


def test_objr_pointing_to_a_structure_element_is_walked_as_that_element():
    builder = _builder()
    builder.struct_tree(Element("Document", [0], page=0))
    paragraph = builder.pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.P, K=1))
    document = builder.pdf.Root.StructTreeRoot.K
    document.K.append(pikepdf.Dictionary(Type=pikepdf.Name.OBJR, Obj=paragraph))
    walk = _walk(builder)
    assert _mcids(walk) == [0, 1]
    assert walk.warnings == ("an OBJR under /Document points to a structure element; walked",)


def _three_sections() -> PdfBuilder:
    builder = _builder(3)
    builder.struct_tree(
        Element(
            "Document",
            [Element("Sect", [Element("P", [page])], page=page) for page in range(3)],
        )
    )
    return builder


def test_a_document_is_walked_once_for_all_its_pages(monkeypatch):
    builder = _three_sections()
    walks = []
    walk_document = tree.walk_document
    monkeypatch.setattr(
        tree, "walk_document", lambda *args: walks.append(args) or walk_document(*args)
    )
    pdf = builder.pdf
    pages = [structure_walk(pdf, pdf.pages[index], RULES) for index in range(3)]
    assert [_mcids(walk) for walk in pages] == [[0], [1], [2]]
    assert [walk.elements_visited for walk in pages] == [7, 7, 7]  # the whole tree, once
    assert len(walks) == 1


def test_the_document_walk_is_kept_per_structure_depth():
    builder = _three_sections()
    pdf = builder.pdf
    shallow = structure_walk(pdf, pdf.pages[1], RULES.with_values(structure_depth=2))
    deep = structure_walk(pdf, pdf.pages[1], RULES)
    assert (_mcids(shallow), _mcids(deep)) == ([], [1])


def test_each_page_tree_holds_only_the_elements_touching_it():
    builder = _three_sections()
    document = _walk(builder, 1).root.children[0]
    sections = [(section.type, section.raw[1]) for section in document.children]
    assert sections == [("Sect", ("Pg", f"{builder.page_object(1).objgen[0]} 0 R"))]


# --- structure tree for the inspector --------------------------------------------------------


def test_structure_tree_keeps_only_elements_touching_the_page():
    builder = _builder(2)
    builder.struct_tree(
        Element("Document", [Element("H1", [0], page=0), Element("P", [0], page=1)])
    )
    root = structure_tree(builder.pdf, 1, RULES)
    document = root.children[0]
    assert (root.type, document.type, document.page_matches) == (
        "StructTreeRoot",
        "Document",
        False,
    )
    assert [(c.type, c.mcids, c.page_matches) for c in document.children] == [("P", (0,), True)]


def test_structure_tree_accepts_a_page_objgen():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0], page=1))
    root = structure_tree(builder.pdf, builder.page_object(1).objgen, RULES)
    assert root.children[0].mcids == (0,)


def test_structure_tree_rejects_a_page_index_outside_the_document():
    builder = _builder()
    builder.struct_tree(Element("P", [0], page=0))
    with pytest.raises(PageIndexError):
        structure_tree(builder.pdf, 1, RULES)


def test_structure_tree_is_none_without_struct_tree_root():
    assert structure_tree(_builder().pdf, 0, RULES) is None


# --- replay by MCID --------------------------------------------------------------------------


def _two_columns() -> list[Glyph]:
    """Content stream interleaves the columns line by line: L1 R1 L2 R2 (MCIDs 0 2 1 3)."""
    return [
        _glyph("a", 72, 700, 0, 0),
        _glyph("c", 320, 700, 2, 1),
        _glyph("b", 72, 680, 1, 2),
        _glyph("d", 320, 680, 3, 3),
    ]


def test_replay_reads_column_one_then_column_two():
    glyphs = _two_columns()
    order = order_glyphs([(None, 0), (None, 1), (None, 2), (None, 3)], glyphs, range(4), RULES)
    assert [glyphs[i].text for i in order.glyph_order] == ["a", "b", "c", "d"]
    assert order.spans == {0: (0, 1), 1: (1, 2), 2: (2, 3), 3: (3, 4)}


def test_replay_keeps_drawing_order_inside_one_mcid():
    glyphs = [_glyph("x", 300, 700, 0, 0), _glyph("y", 72, 700, 0, 1)]
    assert order_glyphs([(None, 0)], glyphs, [0, 1], RULES).glyph_order == (0, 1)


def test_replay_skips_glyphs_not_visible():
    glyphs = _two_columns()
    assert order_glyphs([(None, 0), (None, 1)], glyphs, [0, 1, 3], RULES).glyph_order == (0, 1, 3)


def test_mcid_without_visible_glyphs_gets_an_empty_span():
    order = order_glyphs([(None, 9), (None, 0)], _two_columns(), [0], RULES)
    assert (order.mcid_order, order.spans) == ((9, 0), {9: (0, 0), 0: (0, 1)})


def test_untagged_page_number_follows_as_counted_tail():
    glyphs = [*_two_columns(), _glyph("7", 300, 40, None, 4)]
    order = order_glyphs([(None, 0), (None, 1), (None, 2), (None, 3)], glyphs, range(5), RULES)
    assert (order.glyph_order, order.untagged, order.total) == ((0, 2, 1, 3, 4), (4,), 5)
    assert order.trusted(RULES) is True


def test_glyph_with_an_mcid_the_tree_never_references_is_untagged():
    order = order_glyphs([(None, 0)], _two_columns(), range(4), RULES)
    assert order.untagged == (1, 2, 3)


def test_trust_holds_at_exactly_one_untagged_in_four():
    glyphs = [_glyph("a", 72 + 6 * i, 700, 0 if i < 3 else None, i) for i in range(4)]
    order = order_glyphs([(None, 0)], glyphs, range(4), RULES)
    assert (len(order.untagged), order.total, order.trusted(RULES)) == (1, 4, True)


def test_trust_fails_above_one_untagged_in_four():
    glyphs = [_glyph("a", 72 + 6 * i, 700, 0 if i < 5 else None, i) for i in range(7)]
    order = order_glyphs([(None, 0)], glyphs, range(7), RULES)
    assert (len(order.untagged), order.total, order.trusted(RULES)) == (2, 7, False)


def test_tail_reads_top_to_bottom_then_left_to_right():
    glyphs = [
        _glyph("3", 300, 40, None, 0),
        _glyph("2", 80, 760, None, 1),
        _glyph("1", 72, 761, None, 2),  # same line: baseline 1 pt higher
        _glyph("4", 72, 30, None, 3),
    ]
    order = order_glyphs([], glyphs, range(4), RULES)
    assert [glyphs[i].text for i in order.untagged] == ["1", "2", "3", "4"]


def test_form_mcids_referenced_through_stm_get_their_own_bucket():
    form = (12, 0)
    glyphs = [
        _glyph("p", 72, 700, 0, 0),
        _glyph("f", 72, 680, 0, 1, form_path="/Fm1"),
    ]
    order = order_glyphs(
        [(form, 0), (None, 0)], glyphs, range(2), RULES, form_chain=lambda path: (form,)
    )
    assert (order.glyph_order, order.form_spans, order.spans) == (
        (1, 0),
        {(form, 0): (0, 1)},
        {0: (1, 2)},
    )


def test_form_glyph_without_stm_reference_uses_the_page_mcid():
    glyphs = [_glyph("f", 72, 680, 4, 0, form_path="/Fm1")]
    order = order_glyphs([(None, 4)], glyphs, [0], RULES, form_chain=lambda path: ((12, 0),))
    assert order.spans == {4: (0, 1)}


# --- no-result cases -------------------------------------------------------------------------


def _outcome(builder: PdfBuilder, glyphs: list[Glyph], page: int = 0):
    pdf = builder.pdf
    return structure_outcome_for(pdf, pdf.pages[page], glyphs, range(len(glyphs)), RULES)


def test_no_struct_tree_root_is_no_result():
    assert _outcome(_builder(), _two_columns()) == NoStructure(NO_TREE)


def test_page_whose_glyphs_have_no_mcid_is_no_result():
    builder = _builder()
    builder.struct_tree(Element("P", [0], page=0))
    glyphs = [_glyph("a", 72, 700, None, 0)]
    assert _outcome(builder, glyphs) == NoStructure(NOT_TAGGED)


def test_mcids_the_tree_never_references_without_struct_parents_is_no_result():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0, 1, 2, 3], page=1))
    assert "/StructParents" not in builder.page_object(0)
    assert _outcome(builder, _two_columns(), page=0) == NoStructure(NOT_REFERENCED)


def _reading_outcome(builder: PdfBuilder, glyphs: list[Glyph]):
    pytest.importorskip("glyphscope.core.text.reading", exc_type=ImportError)
    return _outcome(builder, glyphs)


def test_outcome_text_is_assembled_from_geometry_in_structure_order():
    builder = _builder()
    builder.struct_tree(Element("Document", [Element("P", [m]) for m in range(4)], page=0))
    result = _reading_outcome(builder, _two_columns())
    assert (result.text.text, result.glyph_order) == ("a\nb\nc\nd", (0, 2, 1, 3))


def test_page_with_struct_parents_but_no_referenced_mcids_is_all_tail_and_untrusted():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0, 1, 2, 3], page=1))
    builder.page_object(0).StructParents = 5
    result = _reading_outcome(builder, _two_columns())
    assert (result.untagged, result.total, result.trusted) == ((0, 1, 2, 3), 4, False)


def test_outcome_carries_the_walk_warnings():
    builder = _builder()
    builder.struct_tree(Element("Document", [Element("P", [0, 1]), Element("P", [1])], page=0))
    result = _reading_outcome(builder, _two_columns())
    assert result.warnings == (
        "MCID 1 referenced more than once; replayed once, at its first reference",
    )


# --- trusted_text ----------------------------------------------------------------------------


def test_trusted_text_without_result_uses_reading_order():
    assert trusted_text(None, lambda: "geometry") == ("geometry", READING_ORDER)


def test_trusted_text_with_untrusted_result_uses_reading_order():
    builder = _builder(2)
    builder.struct_tree(Element("P", [0], page=1))
    builder.page_object(0).StructParents = 5
    result = _reading_outcome(builder, _two_columns())
    assert trusted_text(result, "geometry") == ("geometry", READING_ORDER)


# --- end to end: interpreter + reading order -------------------------------------------------


def _two_column_pdf(page_number: bytes = b"") -> tuple[PdfBuilder, int]:
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    content = (
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Left one) Tj ET EMC\n"
        b"/P <</MCID 2>> BDC BT /F1 12 Tf 320 700 Td (Right one) Tj ET EMC\n"
        b"/P <</MCID 1>> BDC BT /F1 12 Tf 72 680 Td (Left two) Tj ET EMC\n"
        b"/P <</MCID 3>> BDC BT /F1 12 Tf 320 680 Td (Right two) Tj ET EMC\n" + page_number
    )
    index = builder.add_page(content, fonts={"F1": helvetica})
    builder.struct_tree(Element("Document", [Element("P", [m]) for m in (0, 1, 2, 3)], page=index))
    return builder, index


def _end_to_end(data: bytes | str, page_index: int = 0):
    pytest.importorskip("glyphscope.core.interpret.interpreter", exc_type=ImportError)
    pytest.importorskip("glyphscope.core.text.reading", exc_type=ImportError)
    from glyphscope.core.document import Document
    from glyphscope.core.structure.order import structure_outcome
    from glyphscope.core.text.visible import visible_glyphs

    document = Document.open(data)
    page = document.page(page_index)
    glyphs = list(page.extract(RULES).glyphs)
    visible = visible_glyphs(glyphs, page.visible_box, RULES).visible
    return structure_outcome(page, glyphs, visible, RULES)


def test_two_column_page_reads_in_structure_order():
    builder, _ = _two_column_pdf()
    result = _end_to_end(builder.to_bytes())
    assert result.text.text == "Left one\nLeft two\nRight one\nRight two"
    assert (result.mcid_order, result.untagged, result.trusted) == ((0, 1, 2, 3), (), True)


def test_untagged_page_number_is_appended_and_counted():
    builder, _ = _two_column_pdf(b"BT /F1 10 Tf 300 40 Td (12) Tj ET\n")
    result = _end_to_end(builder.to_bytes())
    assert result.text.text == "Left one\nLeft two\nRight one\nRight two\n12"
    assert (len(result.untagged), result.total, result.trusted) == (2, 36, True)


def test_long_untagged_footer_makes_the_structure_untrusted():
    builder, _ = _two_column_pdf(b"BT /F1 10 Tf 72 40 Td (untagged footer) Tj ET\n")
    result = _end_to_end(builder.to_bytes())
    assert result.text.text == "Left one\nLeft two\nRight one\nRight two\nuntagged footer"
    assert (len(result.untagged), result.total, result.trusted) == (15, 49, False)


def test_trusted_text_prefers_trusted_structure():
    builder, _ = _two_column_pdf()
    result = _end_to_end(builder.to_bytes())
    assert trusted_text(result, "geometry") == (
        "Left one\nLeft two\nRight one\nRight two",
        STRUCTURE,
    )


def test_form_mcids_referenced_through_stm_are_placed_by_the_tree():
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    form = builder.form_xobject(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 600 Td (Form) Tj ET EMC", fonts={"F1": helvetica}
    )
    builder.add_page(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Page) Tj ET EMC /Fm1 Do",
        fonts={"F1": helvetica},
        xobjects={"Fm1": form},
    )
    builder.struct_tree(Element("Document", [Element("P", [MCR(0, stm=form)]), 0], page=0))
    result = _end_to_end(builder.to_bytes())
    assert (result.text.text, result.untagged) == ("Form\nPage", ())
    assert ([(mcid, span) for (_, mcid), span in result.form_spans.items()], result.spans) == (
        [(0, (0, 4))],
        {0: (4, 8)},
    )


def test_form_without_marked_content_takes_the_mcid_around_its_do():
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    form = builder.form_xobject(b"BT /F1 12 Tf 72 600 Td (Form) Tj ET", fonts={"F1": helvetica})
    builder.add_page(
        b"/P <</MCID 1>> BDC /Fm1 Do EMC /P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Page) Tj "
        b"ET EMC",
        fonts={"F1": helvetica},
        xobjects={"Fm1": form},
    )
    builder.struct_tree(Element("Document", [Element("P", [0]), Element("P", [1])], page=0))
    result = _end_to_end(builder.to_bytes())
    assert (result.text.text, result.mcid_order) == ("Page\nForm", (0, 1))


def test_untagged_tail_of_a_turned_page_reads_in_the_lines_layout_reads():
    # Text running up a /Rotate 90 page (Tm turns it a quarter): the lines are columns of
    # user space. The untagged tail (a two-line note) is grouped into baseline lines in the
    # page's writing frame, as layout text groups them, not across them in raw user space.
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    builder.add_page(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 0 1 -1 0 100 300 Tm (Title) Tj ET EMC\n"
        b"BT /F1 12 Tf 0 1 -1 0 130 300 Tm (ab) Tj ET\n"
        b"BT /F1 12 Tf 0 1 -1 0 150 300 Tm (cd) Tj ET",
        fonts={"F1": helvetica},
        rotate=90,
    )
    builder.struct_tree(Element("Document", [Element("P", [0])], page=0))
    data = builder.to_bytes()
    result = _end_to_end(data)
    assert (result.text.text, result.untagged) == ("Title\nab\ncd", (5, 6, 7, 8))
    from glyphscope.core.document import Document

    assert Document.open(data).page(0).text("layout") == "Title\n\nab\ncd"


def test_structure_element_whose_type_is_not_utf8_keeps_its_mcids():
    # §7.3.5: a name is bytes. /S written in GBK (正文, "body text") is still a structure
    # type: the element is walked, its MCID replayed where the tree puts it, its type shown
    # #-escaped as font names are.
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    builder.add_page(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Second) Tj ET EMC\n"
        b"/P <</MCID 1>> BDC BT /F1 12 Tf 72 680 Td (First) Tj ET EMC",
        fonts={"F1": helvetica},
    )
    builder.struct_tree(Element("Document", [Element("ZZZZ", [1]), Element("P", [0])], page=0))
    data = builder.to_bytes()
    assert data.count(b"/ZZZZ") == 1
    data = data.replace(b"/ZZZZ", "/正文".encode("gbk"))  # same length: offsets stay right
    result = _end_to_end(data)
    assert (result.text.text, result.mcid_order, result.untagged) == ("First\nSecond", (1, 0), ())
    with pikepdf.open(io.BytesIO(data)) as pdf:
        document = structure_tree(pdf, 0, RULES).children[0]
    assert [(node.type, node.mcids) for node in document.children] == [
        ("#d5#fd#ce#c4", (1,)),
        ("P", (0,)),
    ]


def test_form_chain_reads_form_resources_as_the_interpreter_does():
    # §7.8.3: /Fm1's /Resources is not a dictionary, so the interpreter draws its /Fm2 from
    # the page's resources; the structure replay must find the same /Fm2 to place the MCID
    # the tree references through /Stm, not drop it into the untagged tail.
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    inner = builder.form_xobject(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 600 Td (Inner) Tj ET EMC", fonts={"F1": helvetica}
    )
    outer = builder.form_xobject(b"/Fm2 Do")
    outer.Resources = 7
    builder.add_page(
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (Page) Tj ET EMC /Fm1 Do",
        fonts={"F1": helvetica},
        xobjects={"Fm1": outer, "Fm2": inner},
    )
    builder.struct_tree(Element("Document", [Element("P", [MCR(0, stm=inner)]), 0], page=0))
    result = _end_to_end(builder.to_bytes())
    assert (result.text.text, result.untagged) == ("Inner\nPage", ())
    assert list(result.form_spans.values()) == [(0, 5)]


# --- real files ------------------------------------------------------------------------------


def test_corpus_tree_order_wins_and_mcid_the_parent_tree_disowns_goes_to_the_tail(corpus_dir):
    # pdfium's file: MCID 3 sits in element 5 but the /ParentTree gives it to element 6.
    result = _end_to_end(str(corpus_dir / "pdfium__tagged_marked_content.pdf"))
    assert result.text.text == "Top Left\nBottom Left Bottom Right\nTop Right"
    assert (result.mcid_order, len(result.untagged), result.total) == ((0, 1, 2), 9, 40)


def test_corpus_page_cut_from_a_longer_file_replays_each_mcid_once(corpus_dir):
    result = _end_to_end(str(corpus_dir / "pdfplumber__scotus-transcript-p1.pdf"))
    assert (result.warnings, len(result.untagged), result.total) == ((), 158, 723)
    assert result.text.text.startswith("IN THE SUPREME COURT OF THE UNITED STATES\n")


def test_corpus_objr_to_structure_elements_is_followed(corpus_dir):
    result = _end_to_end(str(corpus_dir / "pdfplumber__hello_structure.pdf"), page_index=1)
    assert result.text.text == "Goodbye Cruel World...\nI\u2019ll be back shortly!"
