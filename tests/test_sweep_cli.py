"""`glyphscope-sweep`'s exit statuses and usage: a failed document is told apart from a clean
run, and the report subcommand is in the usage."""

from __future__ import annotations

import pytest

from glyphscope.sweep.cli import main
from tests.sweep_support import outcomes, write_pdf

PAGE = b"BT /F1 10 Tf 72 700 Td (one two) Tj ET"


def _sweep(*args: object) -> int:
    return main([*map(str, args), "--quiet", "--no-pdfium"])


def test_a_sweep_with_a_failed_document_exits_1_and_records_it(tmp_path):
    write_pdf(tmp_path / "good.pdf", PAGE)
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf at all")
    database = tmp_path / "results.sqlite"
    assert _sweep(tmp_path, "--db", database) == 1
    assert outcomes(database) == {"broken.pdf": "error", "good.pdf": "ok"}


def test_a_sweep_of_readable_documents_exits_0(tmp_path):
    write_pdf(tmp_path / "good.pdf", PAGE)
    assert _sweep(tmp_path / "good.pdf", "--db", tmp_path / "results.sqlite") == 0


def test_a_source_that_does_not_exist_exits_1(tmp_path, capsys):
    write_pdf(tmp_path / "good.pdf", PAGE)
    status = _sweep(tmp_path / "good.pdf", tmp_path / "gone", "--db", tmp_path / "r.sqlite")
    assert status == 1
    assert "gone: no such file or folder" in capsys.readouterr().err


def test_usage_names_the_report_subcommand_and_help_the_exit_statuses(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    usage = out.split("\n\n")[0]
    assert "glyphscope-sweep SOURCE..." in usage
    assert "glyphscope-sweep report RESULTS.sqlite -o report.html" in usage
    assert "exit status:" in out and "130" in out
