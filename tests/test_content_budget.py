"""Operator budget while tokenising and the q nesting bound (issue 10): small files whose
content streams expand to millions of operators end cleanly, truncated, without tokenising
(or saving the state) more than the rules allow."""

from __future__ import annotations

import resource
import zlib

import pytest

from glyphscope.core.document import Document
from glyphscope.core.interpret import content
from glyphscope.core.rules import Rules
from tests.pdfbuilder import PdfBuilder

WIDTHS = {97: 500}


def _document(data: bytes) -> Document:
    builder = PdfBuilder()
    font = builder.standard_font("Helvetica", widths=WIDTHS)
    stream = builder.stream(zlib.compress(data, 9), Filter="/FlateDecode")
    builder.add_page(stream, fonts={"F1": font})
    return Document.open(builder.to_bytes())


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


SHOWN = b"BT /F1 10 Tf 10 10 Td (a) Tj ET "


@pytest.mark.timeout(120)
def test_64_mb_of_nested_q_stops_at_the_q_depth_bound():
    data = SHOWN + b"q " * (32 << 20)  # 64 MB decoded, some 66 KB compressed
    page = _document(data).page(0)
    extraction = page.extract()
    assert extraction.truncated
    assert "page truncated: q nesting deeper than 256" in extraction.warnings
    assert [g.text for g in extraction.glyphs] == ["a"]
    assert page.text("text") == "a"


@pytest.mark.timeout(120)
def test_a_million_nested_q_is_cut_at_the_depth_bound():
    data = SHOWN + b"q\n" * 1_000_000 + b"BT /F1 10 Tf (a) Tj ET" + b"Q\n" * 1_000_000
    extraction = _document(data).page(0).extract()
    assert extraction.truncated
    assert extraction.warnings[-1] == "page truncated: q nesting deeper than 256"
    assert len(extraction.glyphs) == 1


def test_q_depth_is_a_rule_and_balanced_nesting_within_it_is_untouched():
    data = b"q " * 5 + SHOWN + b"Q " * 5
    page = _document(data).page(0)
    assert not page.extract(Rules()).truncated
    shallow = page.extract(Rules(max_q_depth=4))
    assert shallow.truncated and shallow.glyphs == ()
    assert shallow.warnings[-1] == "page truncated: q nesting deeper than 4"


@pytest.mark.timeout(120)
def test_millions_of_balanced_operators_stop_one_past_the_operator_budget():
    data = SHOWN + b"q Q " * (4 << 20)  # 8 million operators, 32 MB decoded
    before = _peak_mb()
    extraction = _document(data).page(0).extract()
    assert extraction.truncated
    assert extraction.warnings[-1] == "page truncated: more than 2000000 operators"
    assert [g.text for g in extraction.glyphs] == ["a"]
    # The whole stream as qpdf objects took gigabytes; reading to the budget takes a few
    # hundred megabytes at most.
    assert _peak_mb() - before < 1024


def test_qpdf_path_tokenises_only_up_to_the_budget(monkeypatch):
    # An inline image sends the stream to qpdf; qpdf then reads only budget + 1 operators.
    monkeypatch.setattr(content, "_scanner", None)
    image = b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI "
    data = image + SHOWN + b"q Q " * 5000
    builder = PdfBuilder()
    stream = builder.stream(data)
    builder.add_page(stream)
    document = Document.open(builder.to_bytes())
    pdf = document.pdf
    parsed = content.parse_content(pdf, [pdf.pages[0].obj.Contents], "page", 1 << 20, 1000)
    assert len(parsed.instructions) == 1001
    assert parsed.instructions[0][1] == "INLINE IMAGE"
    assert parsed.instructions[-1][1] == "q"  # 1 + 5 + 995: the 498th q
    whole = content.parse_content(pdf, [pdf.pages[0].obj.Contents], "page", 1 << 20)
    assert len(whole.instructions) == 1 + 5 + 10000


@pytest.mark.parametrize("scanner", [True, False])
def test_budget_truncation_is_the_same_with_and_without_the_scanner(monkeypatch, scanner):
    if not scanner:
        monkeypatch.setattr(content, "_scanner", None)
    data = b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI " * scanner + SHOWN + b"q Q " * 5000
    extraction = _document(data).page(0).extract(Rules(max_page_operators=1000))
    assert extraction.truncated
    assert extraction.warnings[-1] == "page truncated: more than 1000 operators"
    assert [g.text for g in extraction.glyphs] == ["a"]
