"""Every stage beyond the interpreter runs under core.stages.guarded: a failure injected into
one keeps the page's text as the stage before made it and names the stage in a warning."""

from __future__ import annotations

import importlib
import io

import pytest

from glyphscope.core import analysis
from glyphscope.core.analysis import analyse_page
from glyphscope.core.document import Document
from glyphscope.core.output import write_document_text
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder


def _document() -> Document:
    builder = PdfBuilder()
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (Hello world) Tj ET",
        fonts={"F1": builder.standard_font("Helvetica")},
    )
    return Document.open(builder.to_bytes())


def _broken(*args, **kwargs):
    raise RuntimeError("injected")


@pytest.mark.parametrize(
    ("name", "stage"),
    [
        ("prepare_glyphs", "replacement text and accents"),
        ("layout_with_arrays", "layout grid"),
        ("columns_text", "columns"),
        ("structure_outcome", "structure order"),
        ("analysis_json", "decision log"),
    ],
)
def test_a_failing_stage_of_the_analysis_keeps_the_text_and_names_the_stage(
    monkeypatch, name, stage
):
    monkeypatch.setattr(analysis, name, _broken)
    result = analyse_page(_document().page(0), Rules())
    assert result.reading.text == "Hello world"
    log = result.to_json()
    assert f"{stage} failed: RuntimeError: injected" in log["warnings"]
    if name != "analysis_json":
        assert f"{stage} failed: RuntimeError: injected" in result.warnings
        assert result.layout.text.strip() == "Hello world"
        assert result.columns.text.text.strip() == "Hello world"


def test_a_failing_hidden_text_stage_keeps_the_text_and_names_the_stage(monkeypatch):
    from glyphscope.core.text import ink

    monkeypatch.setattr(ink, "_page_hidden", _broken)
    result = analyse_page(_document().page(0), Rules())
    assert result.reading.text == "Hello world"
    assert "hidden text failed: RuntimeError: injected" in result.warnings
    assert result.hidden == ()


def test_a_failing_bidi_step_leaves_the_line_in_painted_order(monkeypatch):
    from glyphscope.core.text import reading

    def broken_bidi(text, char_glyphs, glyphs, rules, **kwargs):
        if rules.bidi_reorder:
            raise AssertionError("LRI not allowed here")
        return text, tuple(char_glyphs), ()

    monkeypatch.setattr(reading, "logical_order", broken_bidi)
    result = analyse_page(_document().page(0), Rules())
    assert result.reading.text == "Hello world"
    assert "bidi failed: AssertionError: LRI not allowed here" in result.warnings


@pytest.mark.parametrize(
    ("mode", "name", "module", "stage"),
    [
        ("text", "prepare_glyphs", "glyphscope.core.output", "replacement text and accents"),
        ("layout", "layout_text", "glyphscope.core.text.layout", "layout grid"),
        ("columns", "columns_text", "glyphscope.core.text.columns", "columns"),
        ("structure", "structure_outcome", "glyphscope.core.structure.order", "structure order"),
    ],
)
def test_a_failing_stage_of_a_text_mode_keeps_the_text_and_notes_the_stage(
    monkeypatch, mode, name, module, stage
):
    monkeypatch.setattr(importlib.import_module(module), name, _broken)
    out = io.BytesIO()
    report = write_document_text(_document(), out, mode=mode)
    assert out.getvalue().decode().strip() == "Hello world"
    assert f"page 1: {stage} failed: RuntimeError: injected" in report.notes


def test_a_failing_annotation_stage_keeps_the_page_content(monkeypatch):
    from glyphscope.core.interpret import annotations

    monkeypatch.setattr(annotations, "page_appearances", _broken)
    extraction = _document().page(0).extract(Rules(annotations=True))
    assert "".join(glyph.text for glyph in extraction.glyphs) == "Hello world"
    assert "annotations failed: RuntimeError: injected" in extraction.warnings
