"""Layout (spec §7), its baseline lines, columns (§8) and structure order's MCID buckets (§9)
lay out, split and replay exactly as their references: the compiled loops as the Python
references (tests/reference_paths.py), the page's rotation and the MCID buckets as they were
glyph by glyph (tests/text_reference.py). The same LayoutResult, ColumnsResult and
StructureOrder, compared by repr (so -0.0, nan and a numpy scalar in place of a float all
show), on random pages of horizontal, rotated and vertical glyphs, blanks, CJK, right-to-left
letters and damaged geometry, with the layout caps small enough to be reached, held as
records or as GlyphColumns."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from glyphscope.core.document import Document
from glyphscope.core.glyph_table import GlyphColumns
from glyphscope.core.rules import Rules
from glyphscope.core.structure.order import order_glyphs
from glyphscope.core.text import lines
from glyphscope.core.text.columns import columns_text
from glyphscope.core.text.layout import layout
from glyphscope.core.text.pairs import reading_pairs
from glyphscope.core.text.prepared import prepare_glyphs
from glyphscope.core.text.reading import reading_order
from glyphscope.core.text.visible import visible_glyphs
from tests import text_reference
from tests.pdfbuilder import PdfBuilder, tounicode_cmap
from tests.reference_paths import reference_paths
from tests.test_text_arrays import _pages

_rules = st.builds(
    Rules,
    line_break_ratio=st.sampled_from([0.5, 0.5, 0.0, 0.25, 2.0]),
    space_gap_ratio=st.sampled_from([0.15, 0.15, 0.0, 0.3]),
    bidi_reorder=st.booleans(),
    layout_max_columns=st.sampled_from([2000, 2000, 30, 3]),
    layout_max_blank_lines=st.sampled_from([200, 200, 2, 0]),
    layout_max_padding=st.sampled_from([1_000_000, 1_000_000, 40, 2]),
    columns_gap_multiple=st.sampled_from([3.0, 3.0, 1.0, 0.5]),
)


@settings(max_examples=400, deadline=None)
@given(_pages(), _rules)
def test_layout_compiled_is_the_reference_layout(page, rules):
    glyphs, order = page
    with reference_paths():
        expected = repr(layout(glyphs, order, rules))
    assert repr(layout(glyphs, order, rules)) == expected
    assert repr(layout(GlyphColumns.from_glyphs(glyphs), order, rules)) == expected


@settings(max_examples=200, deadline=None)
@given(_pages(), st.sampled_from([0, 90, 180, 270]), _rules)
def test_line_order_and_rotation_are_those_of_the_references(page, rotation, rules):
    glyphs, order = page
    with reference_paths():
        expected = lines.line_order(glyphs, order, rotation, rules)
    assert lines.line_order(glyphs, order, rotation, rules) == expected
    assert lines.dominant_rotation(glyphs, order) == text_reference.dominant_rotation(glyphs, order)


@settings(max_examples=400, deadline=None)
@given(_pages(), _rules, st.booleans())
def test_columns_compiled_split_as_the_reference(page, rules, given_grid):
    glyphs, order = page
    with reference_paths():
        grid = layout(glyphs, order, rules) if given_grid else None
        expected = repr(columns_text(glyphs, order, rules, grid=grid))
    assert repr(columns_text(glyphs, order, rules, grid=grid)) == expected
    columns = GlyphColumns.from_glyphs(glyphs)
    assert repr(columns_text(columns, order, rules, grid=grid)) == expected


_FORM = (12, 0)


def _chain(form_path: str) -> tuple:
    return (_FORM,) if form_path.startswith("/Fm1") else ()


@st.composite
def _tagged_pages(draw):
    glyphs, order = draw(_pages())
    marks = st.tuples(st.sampled_from([None, 0, 1, 2, 7]), st.sampled_from(["", "/Fm1", "/Fm2"]))
    tags = draw(st.lists(marks, min_size=len(glyphs), max_size=len(glyphs)))
    draw_orders = draw(st.permutations(range(len(glyphs))))
    glyphs = [
        glyph._replace(mcid=mcid, form_path=path, draw_order=drawn)
        for glyph, (mcid, path), drawn in zip(glyphs, tags, draw_orders, strict=True)
    ]
    keys = st.tuples(st.sampled_from([None, None, _FORM]), st.sampled_from([0, 1, 2, 3]))
    return glyphs, order, draw(st.lists(keys, max_size=6))


@settings(max_examples=300, deadline=None)
@given(_tagged_pages(), st.booleans())
def test_structure_buckets_over_the_mcid_column_replay_as_glyph_by_glyph(page, chained):
    glyphs, order, keys = page
    chain = _chain if chained else None
    expected = repr(text_reference.order_glyphs(keys, glyphs, order, Rules(), chain))
    assert repr(order_glyphs(keys, glyphs, order, Rules(), chain)) == expected
    # Columns hold no draw order: a row is drawn as its index says.
    renumbered = [glyph._replace(draw_order=i) for i, glyph in enumerate(glyphs)]
    expected = repr(text_reference.order_glyphs(keys, renumbered, order, Rules(), chain))
    columns = GlyphColumns.from_glyphs(renumbered)
    assert repr(order_glyphs(keys, columns, order, Rules(), chain)) == expected


# Built PDFs: runs of Latin (Helvetica), Hebrew (right to left, through a ToUnicode CMap) and
# CJK (a Type0 font, written horizontally with Identity-H or down the page with Identity-V),
# each under its own text matrix (turned 0°, 90°, 180°, 270° or 30°), on pages turned by
# /Rotate or not; the page's visible, prepared glyphs go to both paths as the analysis hands
# them over (GlyphColumns) and as records.
_CJK = {0x4E2D: "中", 0x6587: "文", 0x3042: "あ", 0x5B57: "字"}
_HEBREW = {0x41: "\u05e9", 0x42: "\u05dc", 0x43: "\u05d5"}
_TURNS = {0: (1, 0, 0, 1), 90: (0, 1, -1, 0), 180: (-1, 0, 0, -1), 270: (0, -1, 1, 0)}
_TURNS[30] = (0.866, 0.5, -0.5, 0.866)

_run = st.tuples(
    st.sampled_from(["latin", "latin", "hebrew", "cjk", "cjk_vertical"]),
    st.text(alphabet="abc XYZ", min_size=1, max_size=12),
    st.sampled_from([0, 0, 0, 90, 180, 270, 30]),
    st.integers(20, 560),
    st.integers(20, 760),
    st.sampled_from([6, 10, 10, 14, 30]),
)


def _built_page(runs, rotate: int):
    builder = PdfBuilder()
    fonts = {
        "F1": builder.standard_font("Helvetica"),
        "F2": builder.standard_font(
            "Helvetica",
            widths=dict.fromkeys(range(32, 127), 600),
            to_unicode=tounicode_cmap(_HEBREW),
        ),
        "F3": builder.type0_font(dw=1000, to_unicode=tounicode_cmap(_CJK, code_bytes=2)),
        "F4": builder.type0_font(
            encoding="Identity-V", dw=1000, to_unicode=tounicode_cmap(_CJK, code_bytes=2)
        ),
    }
    parts = []
    for kind, text, turn, x, y, size in runs:
        a, b, c, d = _TURNS[turn]
        if kind.startswith("cjk"):
            codes = list(_CJK)
            shown = "<" + "".join(f"{codes[ord(ch) % 4]:04X}" for ch in text) + ">"
            font = "F4" if kind == "cjk_vertical" else "F3"
        else:
            shown = "(" + (text.replace("a", "A").replace("b", "B") if kind == "hebrew" else text)
            shown += ")"
            font = "F2" if kind == "hebrew" else "F1"
        parts.append(f"BT /{font} {size} Tf {a} {b} {c} {d} {x} {y} Tm {shown} Tj ET")
    builder.add_page(" ".join(parts).encode(), fonts=fonts, rotate=rotate)
    return Document.open(builder.to_bytes()).page(0)


@settings(max_examples=60, deadline=None)
@given(st.lists(_run, max_size=8), st.sampled_from([0, 0, 90]))
def test_layout_and_columns_of_built_pages_are_those_of_the_references(runs, rotate):
    page = _built_page(runs, rotate)
    rules = Rules()
    extraction = page.extract()
    shown = visible_glyphs(extraction.glyphs, page.visible_box, rules)
    prepared = prepare_glyphs(extraction.glyphs, shown.visible, extraction.replacements, rules)
    glyphs, order = prepared.glyphs, prepared.order
    assert isinstance(glyphs, GlyphColumns)
    records = list(glyphs)
    with reference_paths():
        grid = repr(layout(records, order, rules))
        columns = repr(columns_text(records, order, rules))
    assert repr(layout(glyphs, order, rules)) == grid
    assert repr(layout(records, order, rules)) == grid
    assert repr(columns_text(glyphs, order, rules)) == columns
    assert repr(columns_text(records, order, rules)) == columns


@settings(max_examples=300, deadline=None)
@given(_pages(), _rules, st.lists(st.integers(1, 60), max_size=6))
def test_groups_read_as_one_order_broken_at_their_ends_read_as_each_alone(page, rules, cuts):
    # Columns text reads its groups (columns, then the off-grid glyphs, the only ones that
    # may be vertical) as one order with a line break wherever a group ends.
    glyphs, order = page
    ends = sorted({cut for cut in cuts if cut < len(order)})
    groups = [list(order[a:b]) for a, b in zip([0, *ends], [*ends, len(order)], strict=True)]
    vertical = {index for index in order if glyphs[index].writing_mode == 1}
    assume(not any(vertical.intersection(group) for group in groups[:-1]))
    chars: list[str] = []
    owners: list[int] = []
    for group in groups:
        text = reading_order(glyphs, group, rules, decisions=False).text
        if chars and text.text:
            chars.append("\n")
            owners.append(-1)
        chars.extend(text.text)
        owners.extend(text.char_glyphs)
    pairs = reading_pairs(glyphs, order, rules)
    broke = pairs.broke.copy()
    broke[[end - 1 for end in ends]] = True
    together = reading_order(
        glyphs, order, rules, decisions=False, pairs=pairs._replace(broke=broke)
    )
    assert (together.text.text, together.text.char_glyphs) == ("".join(chars), tuple(owners))
