"""Save as regression case: the current page, the rules and the text of each mode, written as a
case folder the core test suite runs (core/regression.py, tests/test_regression_cases.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from core.errors import GlyphscopeError
from core.regression import case_name, write_case
from inspector.qa_worker import JobFailure

REPOSITORY_CASES = Path(__file__).resolve().parent.parent / "tests" / "regression_cases"


def default_cases_root() -> Path:
    """The repository's case folder when the inspector runs from a checkout, else home."""
    return REPOSITORY_CASES if REPOSITORY_CASES.is_dir() else Path.home()


def suggested_name(path: str | None, page_index: int) -> str:
    stem = Path(path).stem if path else "page"
    return case_name(f"{stem}-p{page_index + 1}")


def ask_regression_case(window) -> tuple[str, str] | None:
    """(folder, case name) from the user, or None."""
    root = QFileDialog.getExistingDirectory(
        window, "Folder of regression cases", str(default_cases_root())
    )
    if not root:
        return None
    name, ok = QInputDialog.getText(
        window,
        "Save as regression case",
        "Case name (letters, digits, - and _):",
        text=suggested_name(window.path, window.page_index),
    )
    return (root, name) if ok and name.strip() else None


def write_regression_case(features, request: tuple[str, str], result) -> None:
    """Write the case from the QA thread's single-page result; tell the user what happened.
    `features` is the inspector.qa_features.QaFeatures that asked."""
    root, name = request
    window = features.window
    index, rules, single = result
    if isinstance(single, JobFailure):
        _report(features, f"The page could not be copied: {single.message}", error=True)
        return
    page_pdf, source_texts = single
    try:
        case, differing = write_case(
            root, name, page_pdf, rules, Path(window.path or "").name, index + 1, source_texts
        )
    except (GlyphscopeError, OSError) as exc:
        _report(features, f"The case was not written: {exc}", error=True)
        return
    message = f"Saved {case.folder}"
    if differing:
        message += (
            f"\nThe page alone reads differently from the page in its file in: "
            f"{', '.join(differing)} (the expected text is the page alone's)."
        )
    _report(features, message)
    features.regressionCaseSaved.emit(str(case.folder), differing)


def _report(features, message: str, error: bool = False) -> None:
    window = features.window
    window.statusBar().showMessage(message.splitlines()[0], 10000)
    if getattr(features, "interactive", True):
        box = QMessageBox.warning if error else QMessageBox.information
        box(window, "Save as regression case", message)
