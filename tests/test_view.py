"""core.view: the inspector's model of an analysed page, built and tested without Qt."""

from __future__ import annotations

import subprocess
import sys

from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.rules import Rules
from glyphscope.core.text.visible import GlyphStatus
from glyphscope.core.view import PaneText, build_page_model
from tests.pdfbuilder import PdfBuilder


def _imported_after(statement: str) -> set[str]:
    """Top-level and glyphscope modules a fresh interpreter holds after `statement`."""
    code = f"import sys\n{statement}\nprint('\\n'.join(sys.modules))"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return {name for name in output.split() if "." not in name or name.startswith("glyphscope")}


def test_the_page_model_is_built_without_importing_qt():
    modules = _imported_after("import glyphscope.core.view")
    assert "PySide6" not in modules and "glyphscope.widgets" not in modules


def test_widgets_reach_the_page_model_without_importing_the_application():
    modules = _imported_after(
        "import glyphscope.widgets.glyph_table, glyphscope.widgets.overlay_layers, "
        "glyphscope.widgets.text_panes, glyphscope.widgets.explain"
    )
    assert "glyphscope.core.view.page_model" in modules
    assert not any(name.startswith("glyphscope.inspector") for name in modules)


def test_page_model_files_statuses_and_decisions_under_their_glyphs():
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (ab) Tj ET BT /F1 12 Tf 72 700 Td (a) Tj ET",
        fonts={"F1": font},
    )
    analysis = analyse_page(Document.open(builder.to_bytes()).page(0), Rules())
    model = build_page_model(0, analysis)
    assert model.status == (GlyphStatus.VISIBLE, GlyphStatus.VISIBLE, GlyphStatus.DUPLICATE)
    assert (model.kept_copies, model.gaps_before[1].reason) == ({0: [2]}, "below_threshold")
    assert model.panes["reading"].text == "ab"


def test_a_pane_maps_characters_to_glyphs_and_back():
    pane = PaneText.make("reading", "ab c", [0, 1, -1, 2])
    assert (pane.title, pane.note, list(pane.chars_of([1, 2])), pane.glyphs_in(0, 4)) == (
        "Reading order",
        "",
        [1, 3],
        [0, 1, 2],
    )
