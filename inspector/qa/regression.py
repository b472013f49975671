"""Save as regression case: the current page, the rules and the text of each mode, written as a
case folder the core test suite runs (core/regression.py, tests/test_regression_cases.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from glyphscope.core.qa.regression import case_name, write_case
from glyphscope.core.rules import Rules
from glyphscope.inspector.workers.qa import JobFailure, QaCore

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow
    from glyphscope.inspector.qa.features import QaFeatures

CASES_FOLDER = "Glyphscope regression cases"


def default_cases_root() -> Path:
    """A folder under the user's documents (never the source checkout, which a user of an
    installed inspector cannot or should not write to)."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents or Path.home()) / CASES_FOLDER


def suggested_name(path: str | None, page_index: int) -> str:
    stem = Path(path).stem if path else "page"
    return case_name(f"{stem}-p{page_index + 1}")


def ask_regression_case(window: MainWindow) -> tuple[str, str] | None:
    """(folder, case name) from the user, or None."""
    proposed = default_cases_root()
    proposed.mkdir(parents=True, exist_ok=True)
    root = QFileDialog.getExistingDirectory(window, "Folder of regression cases", str(proposed))
    if not root:
        return None
    name, ok = QInputDialog.getText(
        window,
        "Save as regression case",
        "Case name (letters, digits, - and _):",
        text=suggested_name(window.path, window.page_index),
    )
    return (root, name) if ok and name.strip() else None


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    """What became of one Save as regression case: the message for the user, and on success
    the case folder and the modes the page reads differently alone than in its file."""

    message: str
    error: bool
    folder: str = ""
    differing: tuple[str, ...] = ()


def save_regression_case(
    core: QaCore, index: int, rules: Rules, request: tuple[str, str], source: str
) -> CaseOutcome:
    """Copy page `index` out of the QA thread's document and write it as a case folder.
    Runs on the QA thread: writing the case reads the page alone in every mode (core analysis),
    which is too heavy for the GUI thread. Returns the outcome, never raises."""
    root, name = request
    single = core.single_page(index, rules)
    if isinstance(single, JobFailure):
        return CaseOutcome(f"The page could not be copied: {single.message}", error=True)
    page_pdf, source_texts = single
    try:
        case, differing = write_case(root, name, page_pdf, rules, source, index + 1, source_texts)
    except Exception as exc:  # told to the user: the QA thread's failed jobs reach no panel
        return CaseOutcome(f"The case was not written: {exc}", error=True)
    message = f"Saved {case.folder}"
    if differing:
        message += (
            f"\nThe page alone reads differently from the page in its file in: "
            f"{', '.join(differing)} (the expected text is the page alone's)."
        )
    return CaseOutcome(message, False, str(case.folder), differing)


def report_regression_case(features: QaFeatures, outcome: CaseOutcome) -> None:
    """Tell the user what became of the case (GUI thread). `features` is the
    glyphscope.inspector.qa.features.QaFeatures that asked."""
    _report(features, outcome.message, error=outcome.error)
    if not outcome.error:
        features.regressionCaseSaved.emit(outcome.folder, outcome.differing)


def _report(features: QaFeatures, message: str, error: bool = False) -> None:
    window = features.window
    window.statusBar().showMessage(message.splitlines()[0], 10000)
    if getattr(features, "interactive", True):
        box = QMessageBox.warning if error else QMessageBox.information
        box(window, "Save as regression case", message)
