"""glyphscope-sweep report: one self-contained HTML file with ranked and changed pages."""

from __future__ import annotations

from html.parser import HTMLParser

from glyphscope.sweep.cli import main
from glyphscope.sweep.thumbnails import png_bytes
from tests.sweep_support import GAP_PAGE, PLAIN_PAGE, write_pdf

# Code 1 of Helvetica (WinAnsi) is a control code no step of the chain decodes: unresolved.
UNRESOLVED_PAGE = b"BT /F1 10 Tf 72 720 Td (ok) Tj 0 -20 Td <01> Tj ET"


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self.links: list[str] = []
        self.svgs = 0
        self.images = 0
        self._row: str | None = None
        self._cells: list[str] = []
        self._in_code = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name in ("href", "src"):
            if name in attributes:
                self.links.append(attributes[name])
        if tag == "tr" and attributes.get("class") in ("ranked", "changed"):
            self._row, self._cells = attributes["class"], []
        if tag == "svg":
            self.svgs += 1
        if tag == "image":
            self.images += 1
        self._in_code = tag == "code"

    def handle_endtag(self, tag):
        if tag == "tr" and self._row:
            self.rows.setdefault(self._row, []).append(" | ".join(self._cells))
            self._row = None
        if tag == "code":
            self._in_code = False

    def handle_data(self, data):
        if self._row and data.strip():
            self._cells.append(data.strip())


def _report(tmp_path) -> tuple[str, Collector]:
    folder = tmp_path / "corpus"
    folder.mkdir()
    write_pdf(folder / "gap.pdf", GAP_PAGE, PLAIN_PAGE)
    write_pdf(folder / "unresolved.pdf", UNRESOLVED_PAGE)
    database, output = tmp_path / "results.sqlite", tmp_path / "report.html"
    assert main([str(folder), "--db", str(database), "--quiet",
                 "--compare-rule", "space_gap_ratio=0.12"]) == 0  # fmt: skip
    assert main(["report", str(database), "-o", str(output)]) == 0
    html = output.read_text(encoding="utf-8")
    collector = Collector()
    collector.feed(html)
    collector.close()
    return html, collector


def test_report_ranks_pages_by_suspicion_with_reasons_and_commands(tmp_path):
    html, collector = _report(tmp_path)
    ranked = collector.rows["ranked"]
    assert len(ranked) == 3
    # gap.pdf page 1: pdfium reads "one two" where we read "onetwo" (F1 0): suspicion 1.
    assert ranked[0].startswith("1 | 1.00 | gap.pdf | 1 | pdfium F1 0.00; 3 words changed")
    assert "unresolved.pdf | 1 | 1 unresolved (Helvetica)" in ranked[1]
    assert "glyphscope " in ranked[0] and "--page 1" in ranked[0]
    assert "--layers glyphs,pdfium_diff,rule_changes,gaps,line_breaks" in ranked[0]


def test_report_lists_changed_pages_with_their_word_diff_by_kind(tmp_path):
    html, collector = _report(tmp_path)
    assert collector.rows["changed"] == [
        "gap.pdf | 1 | spaces gained 1; 3 words | onetwo | → | one two | "
        + collector.rows["changed"][0].split(" | ", 6)[6]
    ]
    assert "<h3>spaces gained (1 pages)</h3>" in html
    assert "space_gap_ratio 0.15 → 0.12" in html


def test_report_is_self_contained(tmp_path):
    html, collector = _report(tmp_path)
    assert collector.links and all(link.startswith("data:") for link in collector.links)
    assert "<script" not in html and "<link" not in html and "url(" not in html
    assert collector.images == 4  # a thumbnail per ranked page and per changed page
    assert collector.svgs == 4 + 3  # thumbnails and the three charts


def test_png_bytes_writes_a_valid_png_signature_and_size():
    import numpy as np

    data = png_bytes(np.zeros((2, 3, 3), dtype=np.uint8))
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[16:24] == b"\0\0\0\x03\0\0\0\x02"


def test_ranked_list_shows_at_most_three_pages_of_a_document(tmp_path):
    pdf = write_pdf(tmp_path / "many.pdf", *[UNRESOLVED_PAGE] * 5)
    database, output = tmp_path / "results.sqlite", tmp_path / "report.html"
    assert main([str(pdf), "--db", str(database), "--quiet", "--no-pdfium"]) == 0
    assert main(["report", str(database), "-o", str(output)]) == 0
    collector = Collector()
    collector.feed(output.read_text(encoding="utf-8"))
    ranked = collector.rows["ranked"]
    assert [row.split(" | ")[3] for row in ranked] == ["1", "2", "3"]
    assert "(+2 more pages of this document)" in ranked[2]


def test_a_page_that_cannot_be_drawn_gets_a_placeholder_and_the_report_is_written(
    tmp_path, monkeypatch
):
    from glyphscope.sweep import report

    def refuse(path, index, crop_box, rotate, marks):
        raise ValueError("Crop exceeds page dimensions")

    class InPlace:
        def run(self, function, *args):
            try:
                return True, refuse(*args)
            except ValueError as exc:
                return False, f"{type(exc).__name__}: {exc}"

        def stop(self):
            pass

    monkeypatch.setattr(report, "ContainedProcess", InPlace)
    html, collector = _report(tmp_path)
    assert collector.images == 0
    assert html.count("no picture: ValueError: Crop exceeds page dimensions") == 4


def test_a_failed_document_is_listed_first_with_its_error(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    write_pdf(folder / "plain.pdf", PLAIN_PAGE)
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7\nnothing else")
    database, output = tmp_path / "results.sqlite", tmp_path / "report.html"
    main([str(folder), "--db", str(database), "--quiet"])
    assert main(["report", str(database), "-o", str(output)]) == 0
    html = output.read_text(encoding="utf-8")
    failed = html.index("<h2>Failed documents (1)</h2>")
    assert failed < html.index("<h2>Run</h2>")
    assert "broken.pdf</td><td>error</td><td>" in html[failed:]
