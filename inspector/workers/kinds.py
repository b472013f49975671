"""The kinds of the jobs the window submits to its worker processes.

A kind names what a job does; WorkerProcess keeps the newest generation per kind, so a job
supersedes an earlier one of its kind (a page turned past is never rendered). Kinds are
strings on the wire (the workers' jobFinished(str, int, object) signal): a member compares
equal to its value, hashes as it, and formats as it.
"""

from __future__ import annotations

from enum import Enum


class JobKind(str, Enum):
    # Every worker: open or close its document.
    OPEN = "open"
    # The render worker (pdfium).
    RENDER = "render"
    INK = "ink"  # the hidden-text pixel test's pdfium half
    AHEAD_RENDER = "ahead-render"
    CONTINUOUS_SIZES = "continuous-sizes"
    CONTINUOUS_PAGE = "continuous-page"
    SIDEBAR_THUMBNAIL = "sidebar-thumbnail"
    QA_PDFIUM_PAGE = "qa-pdfium-page"
    QA_PDFIUM_BATCH = "qa-pdfium-batch"
    # The analysis worker (the core Document).
    ANALYSE_VIEW = "analyse-view"
    ANALYSE = "analyse"
    INK_REQUEST = "ink-request"
    INK_HIDDEN = "ink-hidden"
    AHEAD_VIEW = "ahead-view"
    AHEAD = "ahead"
    QA_DETAILS = "qa-details"
    # The sidebar's outline worker.
    OUTLINE = "outline"
    # The QA worker; its object browser's jobs are "cos-…" kinds made per request.
    SEARCH = "search"
    DEFAULTS = "defaults"
    COMPARE_PAGE = "compare-page"
    COMPARE_DOCUMENT = "compare-document"
    SINGLE_PAGE = "single-page"
    COS_ROOTS = "cos-roots"

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)
