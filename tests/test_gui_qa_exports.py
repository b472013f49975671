"""Save as regression case (picked up and passed by the core suite) and the whole-document text
export (mode, pages, separator, BOM; off the GUI thread, cancellable)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from glyphscope.core.output import UTF8_BOM
from glyphscope.core.qa.regression import load_case
from glyphscope.core.rules import Rules
from glyphscope.inspector.export.exporters import TextExport
from glyphscope.inspector.qa.actions import start_text_export
from tests.qa_support import TIMEOUT_MS, open_and_wait, qa_window, tj_pdf
from tests.test_gui_qa_compare import pages_pdf

__all__ = ["qa_window"]

ROOT = Path(__file__).resolve().parent.parent


def save_case(qtbot, features, root: Path, name: str):
    with qtbot.waitSignal(features.regressionCaseSaved, timeout=TIMEOUT_MS) as blocker:
        features.save_regression_case(str(root), name)
    return Path(blocker.args[0]), blocker.args[1]


# -- regression cases -------------------------------------------------------------------------


def test_a_saved_case_holds_the_page_the_rules_and_each_mode(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"), page=1)
    folder, differing = save_case(qtbot, features, tmp_path / "cases", "second page")
    assert folder == tmp_path / "cases" / "second-page"
    assert sorted(p.name for p in (folder / "expected").iterdir()) == [
        "columns.txt",
        "layout.txt",
        "structure.txt",
        "text.txt",
    ]
    case = load_case(folder)
    assert case.expected["text"] == "Page 2 text"
    assert (case.source, case.page_number, case.rules, differing) == ("pages.pdf", 2, Rules(), ())


def test_the_case_pdf_holds_only_the_saved_page(qtbot, qa_window, tmp_path):
    import pikepdf

    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"), page=2)
    folder, _ = save_case(qtbot, features, tmp_path / "cases", "third")
    with pikepdf.open(folder / "page.pdf") as pdf:
        assert len(pdf.pages) == 1


def test_a_case_saved_under_changed_rules_keeps_them(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    with qtbot.waitSignal(window.analysisReady, timeout=TIMEOUT_MS):
        window.set_rules(Rules().with_values(space_gap_ratio=0.7))
    folder, _ = save_case(qtbot, features, tmp_path / "cases", "tj-0.7")
    case = load_case(folder)
    assert case.rules.space_gap_ratio == 0.7
    assert case.expected["text"] == "TJspaced\nPlain words"


def test_a_saved_case_is_picked_up_by_the_core_suite_and_passes(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    save_case(qtbot, features, tmp_path / "cases", "tj")
    environment = dict(os.environ, GLYPHSCOPE_REGRESSION_CASES=str(tmp_path / "cases"))
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_regression_cases.py",
            "-k",
            "tj-",
        ],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout[-3000:]
    assert "4 passed" in completed.stdout


def test_saving_over_an_existing_case_is_refused(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, tj_pdf(tmp_path / "tj.pdf"))
    save_case(qtbot, features, tmp_path / "cases", "tj")
    features.save_regression_case(str(tmp_path / "cases"), "tj")
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith("The case was not written"),
        timeout=TIMEOUT_MS,
    )


# -- whole-document text ----------------------------------------------------------------------


def wait_for_message(qtbot, window, start: str) -> None:
    """The export reports in the status bar once its (queued) finished signal arrived."""
    qtbot.waitUntil(
        lambda: window.statusBar().currentMessage().startswith(start), timeout=TIMEOUT_MS
    )


def test_document_text_export_writes_the_chosen_pages_separator_and_bom(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    output = tmp_path / "out.txt"
    start_text_export(features, output, [2, 0], "text", "\n--\n", True)
    wait_for_message(qtbot, window, f"Wrote 2 pages to {output}")
    assert output.read_bytes() == UTF8_BOM + b"Page 3 text\n--\nPage 1 text"


def test_document_text_export_reports_progress_page_by_page(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    steps = []
    export = TextExport()
    export.progress.connect(lambda done, total: steps.append((done, total)))
    with qtbot.waitSignal(export.finished, timeout=TIMEOUT_MS):
        export.start(window.path, None, tmp_path / "all.txt", None, "text", "\f", False, Rules())
    assert steps == [(1, 3), (2, 3), (3, 3)]
    assert (tmp_path / "all.txt").read_text(encoding="utf-8") == (
        "Page 1 text\fPage 2 text\fPage 3 text"
    )


def test_the_progress_dialog_follows_the_export(qtbot, qa_window, tmp_path):
    window, features = qa_window
    open_and_wait(qtbot, window, pages_pdf(tmp_path / "pages.pdf"))
    start_text_export(features, tmp_path / "out.txt", None, "layout", "\f", False)
    wait_for_message(qtbot, window, "Wrote 3 pages")
    assert features.text_progress.maximum() == 3
    assert features.text_progress.wasCanceled() is False


def test_a_cancelled_export_leaves_no_file(tmp_path):
    path = pages_pdf(tmp_path / "pages.pdf")
    export = TextExport()
    export.cancel()
    output = tmp_path / "out.txt"
    written = export.write(str(path), None, str(output), None, "text", "\f", False, Rules())
    assert written is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pages.pdf"]
