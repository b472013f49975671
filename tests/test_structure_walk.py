"""The compiled document walk (`core/structure/_walk.pyx`) against the Python walk
(`tree.walk_document_in_python`): the same DocumentStructure (every element, reference and
warning in order) and so the same StructureWalk of every page, on random trees with cycles,
shared kids, MCR and OBJR dictionaries, junk kids, dangling and foreign /Pg, /ParentTree
entries and depth caps, and on the tagged corpus files. tests/test_structure.py runs its walk
tests on both."""

from __future__ import annotations

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glyphscope.core.rules import Rules
from glyphscope.core.structure.index import StructureIndex
from glyphscope.core.structure.tree import walk_document_in_python, walk_structure_in_python
from tests.corpus import corpus_files

compiled = pytest.importorskip("glyphscope.core.structure._walk")

_TYPES = ["P", "Span", "Table", "TR", "TD", "Para", "Loop", "H1"]


@st.composite
def _kid(draw, elements: int, pages: int):
    kind = draw(st.sampled_from(["mcid", "mcid", "element", "element", "mcr", "objr", "junk"]))
    if kind == "mcid":
        return ("mcid", draw(st.integers(0, 6)))
    if kind == "element":
        return ("element", draw(st.integers(0, elements - 1)))
    if kind == "mcr":
        return (
            "mcr",
            draw(st.one_of(st.integers(0, 6), st.just("x"))),
            draw(st.one_of(st.none(), st.integers(0, pages))),  # `pages`: a dangling /Pg
            draw(st.booleans()),  # typed /MCR or untyped
        )
    if kind == "objr":
        return (
            "objr",
            draw(st.one_of(st.integers(0, elements - 1), st.just("annotation"))),
            draw(st.one_of(st.none(), st.integers(0, pages - 1))),
            draw(st.booleans()),
        )
    return ("junk", draw(st.sampled_from(["string", "name", "real", "bool", "null", "dict"])))


@st.composite
def _trees(draw):
    pages = draw(st.integers(1, 3))
    elements = draw(st.integers(1, 12))
    shapes = [
        {
            "type": draw(st.one_of(st.sampled_from(_TYPES), st.none())),
            "page": draw(st.one_of(st.none(), st.integers(0, pages - 1))),
            "kids": draw(st.lists(_kid(elements, pages), max_size=5)),
            "single": draw(st.booleans()),  # one kid written bare, not in an array
            "texts": draw(st.lists(st.sampled_from(["Alt", "ActualText", "Lang", "T", "E"]))),
            "direct": draw(st.booleans()),
        }
        for _ in range(elements)
    ]
    roots = draw(st.lists(st.integers(0, elements - 1), min_size=1, max_size=3))
    parents = draw(
        st.lists(st.one_of(st.none(), st.integers(0, elements - 1)), max_size=6)
    )  # page 0's /ParentTree array, MCID -> element
    return pages, shapes, roots, parents


def _build(pages: int, shapes: list[dict], roots: list[int], parents: list[int | None]):
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page()
    page_objects = [page.obj for page in pdf.pages]
    annotation = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype="/Link"))
    made = []
    for shape in shapes:
        element = pikepdf.Dictionary(Type=pikepdf.Name.StructElem)
        if shape["type"] is not None:
            element.S = pikepdf.Name("/" + shape["type"])
        if shape["page"] is not None:
            element.Pg = page_objects[shape["page"]]
        for key in shape["texts"]:
            element[f"/{key}"] = pikepdf.String(f"{key} text")
        made.append(element if shape["direct"] else pdf.make_indirect(element))
    junk = {
        "string": pikepdf.String("junk"),
        "name": pikepdf.Name.Oops,
        "real": 1.5,
        "bool": True,
        "null": None,
        "dict": pikepdf.Dictionary(),
    }
    for element, shape in zip(made, shapes, strict=True):
        kids = []
        for kid in shape["kids"]:
            if shape["direct"] and kid[0] in ("element", "objr"):
                continue  # a direct object in a cycle of direct objects has no end in qpdf
            if kid[0] == "mcid":
                kids.append(kid[1])
            elif kid[0] == "element":
                kids.append(made[kid[1]])
            elif kid[0] == "mcr":
                _, mcid, page, typed = kid
                mcr = pikepdf.Dictionary(MCID=mcid)
                if typed:
                    mcr.Type = pikepdf.Name.MCR
                if page is not None:
                    mcr.Pg = (
                        page_objects[page]
                        if page < pages
                        else pdf.make_indirect(pikepdf.Dictionary())
                    )
                kids.append(mcr)
            elif kid[0] == "objr":
                _, target, page, typed = kid
                objr = pikepdf.Dictionary(
                    Obj=annotation if target == "annotation" else made[target]
                )
                if typed:
                    objr.Type = pikepdf.Name.OBJR
                if page is not None:
                    objr.Pg = page_objects[page]
                kids.append(objr)
            else:
                kids.append(junk[kid[1]])
        if shape["single"] and len(kids) == 1 and kids[0] is not None:
            element.K = kids[0]
        elif kids:
            element.K = pikepdf.Array(kids)
    root = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.StructTreeRoot,
            K=pikepdf.Array([made[index] for index in roots]),
            RoleMap=pikepdf.Dictionary(Para=pikepdf.Name.P, Loop=pikepdf.Name.Loop),
        )
    )
    if parents:
        array = pikepdf.Array([None if index is None else made[index] for index in parents])
        root.ParentTree = pdf.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array([0, array])))
        page_objects[0].StructParents = 0
    pdf.Root.StructTreeRoot = root
    return pdf, root, page_objects


def _both(root, page, rules: Rules, single_page: bool):
    python = walk_structure_in_python(root, page, rules, single_page)
    index = StructureIndex(compiled.walk(root, rules), rules)
    return index.page_walk(root, page, single_page), python


@settings(max_examples=400, deadline=None)
@given(_trees(), st.sampled_from([128, 3, 1, 0]), st.booleans())
def test_the_compiled_walk_is_the_python_walk_on_random_trees(tree, depth, single_page):
    pdf, root, pages = _build(*tree)
    rules = Rules(structure_depth=depth)
    assert compiled.walk(root, rules) == walk_document_in_python(root, rules)
    for page in pages:
        ours, theirs = _both(root, page, rules, single_page)
        assert ours == theirs
        assert type(ours.root) is type(theirs.root)


def test_the_compiled_walk_is_the_python_walk_on_a_cyclic_tree():
    pdf, root, pages = _build(
        1,
        [
            {
                "type": "P",
                "page": 0,
                "kids": [("mcid", 0), ("element", 1)],
                "single": False,
                "texts": ["Alt"],
                "direct": False,
            },
            {
                "type": "Span",
                "page": None,
                "kids": [("element", 0), ("mcid", 1)],
                "single": False,
                "texts": [],
                "direct": False,
            },
        ],
        [0],
        [0, 1],
    )
    ours, theirs = _both(root, pages[0], Rules(), True)
    assert ours == theirs
    assert any("cyclic /K" in warning for warning in ours.warnings)


_TAGGED = [file for file in corpus_files() if file.flag("tagged")]


@pytest.mark.parametrize("file", _TAGGED, ids=lambda file: file.name)
def test_the_compiled_walk_is_the_python_walk_on_tagged_corpus_pages(file):
    with pikepdf.open(file.path, password=file.password or "") as pdf:
        root = pdf.Root.get("/StructTreeRoot")
        if not isinstance(root, pikepdf.Dictionary):
            pytest.skip("no /StructTreeRoot")
        single_page = len(pdf.pages) == 1
        assert compiled.walk(root, Rules()) == walk_document_in_python(root, Rules())
        for page in pdf.pages:
            ours, theirs = _both(root, page.obj, Rules(), single_page)
            assert ours == theirs


def test_the_compiled_walk_ends_a_tree_deeper_than_the_c_stack_under_a_raised_depth_cap():
    # 20,000 nested elements: the walk is iterative, its records are freed through lists and
    # tuples (whose deallocation Python bounds), so neither walk nor freeing recurses in C.
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = pdf.pages[0].obj
    element = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.Span, Pg=page, K=0))
    for mcid in range(1, 20_001):
        kids = pikepdf.Array([element, mcid])
        element = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.Div, K=kids))
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot, K=element))
    ours, theirs = _both(root, page, Rules(structure_depth=10**9), True)
    assert ours.elements_visited == theirs.elements_visited == 20_001
    assert ours.mcid_keys == theirs.mcid_keys
    assert [mcid for _, mcid in ours.mcid_keys] == list(range(20_001))
    assert ours.warnings == theirs.warnings
