"""Where the time to a shown page goes: the window's record of one page's way to the screen.

`PageSession` fills a `PageTiming` per page shown (time.perf_counter seconds, 0.0: did not
happen); `page_steps` joins it with the workers' own records of the jobs that made the page
(inspector.worker_process.JobTiming) into named steps in milliseconds, which
tests/bench/bench_inspector.py prints per step. Nothing here changes what is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glyphscope.inspector.worker_process import WorkerProcess

# Where a page's image or model came from.
FROM_WORKER = "worker"  # a job submitted for the page shown
FROM_PREFETCH = "prefetch"  # a job submitted ahead (the page was expected), awaited
FROM_CACHE = "cache"  # made earlier and kept: shown without waiting


@dataclass(slots=True)
class PageTiming:
    index: int
    requested: float  # go_to_page, or open_file for a document's first page
    opened: float = 0.0  # the first page: pdfium's answer to the open arrived
    render_source: str = ""
    render_generation: int = 0  # the render thread's job whose image is shown (a worker's)
    analysis_source: str = ""
    # The analysis thread's job whose model the overlays draw, and the one that completed it
    # with the text modes (0: the same job).
    analysis_generation: int = 0
    panes_generation: int = 0
    image_shown: float = 0.0
    overlays_shown: float = 0.0
    panes_shown: float = 0.0
    ready: float = 0.0  # pageReady
    # GUI-thread work in seconds: "image" (the bitmap into the view), "overlays" (the layers
    # given the model), "panes" (text panes, glyph table, details, legends).
    gui: dict[str, float] = field(default_factory=dict)


def page_steps(
    timing: PageTiming, render_worker: WorkerProcess, analysis_worker: WorkerProcess
) -> dict[str, float]:
    """The page's steps in milliseconds: per worker job ("render", "analysis" for the model
    the overlays draw, "text modes" for the job that completed it) its wait in the queue
    ("queued"), a new worker's start ("start"), its run ("job") and the steps it timed, its
    pickling, its transfer and unpickling in the window's process and its wait for the GUI
    thread ("delivery"); then the GUI thread's steps, and "panes" (request to panes filled).
    Steps a page did not take are absent."""
    steps: dict[str, float] = {}
    if timing.opened:
        steps["open"] = timing.opened - timing.requested
    for prefix, thread, generation, shown, gui_step in (
        ("render", render_worker, timing.render_generation, timing.image_shown, "image"),
        (
            "analysis",
            analysis_worker,
            timing.analysis_generation,
            timing.overlays_shown,
            "overlays",
        ),
        ("text modes", analysis_worker, timing.panes_generation, timing.panes_shown, "panes"),
    ):
        job = thread.timings.get(generation) if generation else None
        if job is None or not job.received:
            continue
        if job.sent and job.dispatched:
            # A job submitted ahead of the request waited in the queue from the request on.
            submitted = max(job.submitted, timing.requested)
            steps[f"{prefix} queued"] = max(job.dispatched - submitted, 0.0)
            steps[f"{prefix} start"] = job.sent - job.dispatched
        for name, seconds in job.steps.items():
            steps[f"{prefix} {name}"] = seconds
        if shown:
            gui = timing.gui.get(gui_step, 0.0)
            steps[f"{prefix} delivery"] = max(shown - gui - job.received, 0.0)
    for name, seconds in timing.gui.items():
        steps[f"gui {name}"] = seconds
    if timing.panes_shown:
        steps["panes"] = timing.panes_shown - timing.requested
    return {name: seconds * 1000 for name, seconds in steps.items()}
