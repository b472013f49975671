"""The inspector's worker processes: results come back, a worker that aborts, overruns its
memory or hangs is replaced and the job says why, the window lives on, quitting never waits,
and files pdfium refuses still open with the engine's analysis on blank pages."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from glyphscope.inspector.worker_process import WorkerProcess, WorkerStopped, worker_pid
from glyphscope.inspector.workers.kinds import JobKind
from tests import worker_jobs
from tests.hostile_pdfs import PDFIUM_BOMBS, damaged_copy
from tests.qa_support import TIMEOUT_MS
from tests.stalls import Watchdog, settle
from tests.test_gui_pdfs import text_pages_pdf

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def worker(qtbot):
    process = WorkerProcess("test-worker")
    yield process
    process.stop()


def run_job(qtbot, worker: WorkerProcess, kind: str, job, *args):
    """(succeeded, value) of one job."""
    outcome = []
    worker.jobFinished.connect(lambda k, g, value: outcome.append((True, value)))
    worker.jobFailed.connect(lambda k, g, error: outcome.append((False, error)))
    worker.submit(kind, job, *args)
    qtbot.waitUntil(lambda: bool(outcome), timeout=TIMEOUT_MS)
    worker.jobFinished.disconnect()
    worker.jobFailed.disconnect()
    return outcome[0]


# -- the worker process ----------------------------------------------------------------------


def test_a_job_runs_in_another_process_and_its_result_comes_back(qtbot, worker):
    assert run_job(qtbot, worker, "echo", worker_jobs.echo, {"page": 3}) == (True, {"page": 3})
    ok, pid = run_job(qtbot, worker, "pid", worker_jobs.pid)
    assert ok and pid != os.getpid() and pid == worker_pid(worker)


def test_a_job_that_raises_fails_with_its_exception(qtbot, worker):
    ok, error = run_job(qtbot, worker, "fail", worker_jobs.fail, None)
    assert not ok
    assert isinstance(error, RuntimeError) and str(error) == "a QA job failed"


def test_a_job_after_one_that_failed_is_skipped(qtbot, worker):
    finished = []
    worker.jobFinished.connect(lambda kind, g, value: finished.append(kind))
    worker.jobFailed.connect(lambda kind, g, error: finished.append(f"{kind} failed"))
    failing = worker.submit("first", worker_jobs.fail, None)
    worker.submit("second", worker_jobs.echo, 2, after=failing)
    worker.submit("third", worker_jobs.echo, 3)
    qtbot.waitUntil(lambda: "third" in finished, timeout=TIMEOUT_MS)
    assert finished == ["first failed", "third"]


def test_a_job_s_steps_are_timed_in_the_worker_and_on_the_way_back(qtbot, worker):
    worker.submit("warm", worker_jobs.echo, 0)  # the worker's start is not this job's
    outcome = []
    worker.jobFinished.connect(lambda kind, g, value: outcome.append((kind, g)))
    generation = worker.submit("sleep", worker_jobs.timed_sleep, 0.2)
    qtbot.waitUntil(lambda: ("sleep", generation) in outcome, timeout=TIMEOUT_MS)
    timing = worker.timings[generation]
    assert timing.submitted <= timing.dispatched <= timing.sent <= timing.received
    assert 0.2 <= timing.steps["sleeping"] <= timing.steps["job"]
    assert timing.received - timing.sent >= timing.steps["job"]
    assert {"pickle", "transfer", "unpickle"} <= set(timing.steps)


def test_a_worker_that_aborts_is_replaced_and_says_why(qtbot, worker):
    _, first = run_job(qtbot, worker, "pid", worker_jobs.pid)
    ok, error = run_job(qtbot, worker, "analyse", worker_jobs.analyse_by_aborting, 0, None)
    assert not ok and isinstance(error, WorkerStopped)
    assert "died (SIGABRT" in str(error) and "a new one was started" in str(error)
    ok, second = run_job(qtbot, worker, "pid", worker_jobs.pid)
    assert ok and second != first
    assert worker.restarts == 1


def test_a_job_over_the_memory_limit_fails_and_the_next_one_runs(qtbot):
    worker = WorkerProcess("small", memory_limit=1 * 2**30)
    try:
        ok, error = run_job(qtbot, worker, "allocate", worker_jobs.allocate, 3 * 2**30)
        assert not ok
        assert "out of memory" in str(error) or isinstance(error, WorkerStopped)
        assert run_job(qtbot, worker, "echo", worker_jobs.echo, 1) == (True, 1)
    finally:
        worker.stop()


def test_a_hanging_job_is_stopped_after_the_time_limit(qtbot):
    worker = WorkerProcess("slow", job_timeout_s=1.0)
    try:
        ok, error = run_job(qtbot, worker, "hang", worker_jobs.sleep_forever)
        assert not ok and "ran for more than 1 s" in str(error)
        assert run_job(qtbot, worker, "echo", worker_jobs.echo, 2) == (True, 2)
    finally:
        worker.stop()


def test_a_new_worker_opens_again_what_the_last_one_had_open(qtbot, worker, tmp_path):
    from glyphscope.inspector.workers.analysis import CoreOwner

    path = tmp_path / "two.pdf"
    text_pages_pdf(path, 2)
    core = CoreOwner()
    assert run_job(qtbot, worker, "open", core.open, str(path), None) == (True, 2)
    run_job(qtbot, worker, "analyse", worker_jobs.analyse_by_aborting, 0, None)
    ok, model = run_job(qtbot, worker, "analyse", core.analyse, 1, _rules())
    assert ok and model.panes["reading"].text == "Page 2"


def test_a_set_up_job_that_kills_the_new_worker_is_given_up(qtbot, worker, tmp_path):
    flag = tmp_path / "now-abort"
    assert run_job(qtbot, worker, "open", worker_jobs.abort_if_exists, str(flag)) == (
        True,
        "opened",
    )
    flag.touch()
    run_job(qtbot, worker, "analyse", worker_jobs.analyse_by_aborting, 0, None)
    # The replacement worker runs the "open" again, which now aborts it too: the job after
    # runs in a third worker that has nothing open, instead of never running.
    assert run_job(qtbot, worker, "echo", worker_jobs.echo, 3) == (True, 3)


def test_a_superseded_slow_job_is_abandoned_for_the_newer_one(qtbot, worker):
    results = []
    worker.jobFinished.connect(lambda kind, g, value: results.append(value))
    worker.submit("page", worker_jobs.sleep_forever)
    time.sleep(0.2)  # the first job is running
    latest = worker.submit("page", worker_jobs.echo, "the newer page")
    qtbot.waitUntil(lambda: results == ["the newer page"], timeout=TIMEOUT_MS)
    assert worker.is_latest("page", latest)


def test_stopping_during_a_long_job_returns_at_once(qtbot, worker):
    worker.submit("hang", worker_jobs.sleep_forever)
    time.sleep(0.3)
    started = time.monotonic()
    worker.stop()
    assert time.monotonic() - started < 3
    assert worker_pid(worker) is None


def _rules():
    from glyphscope.core.rules import Rules

    return Rules()


# -- the window ------------------------------------------------------------------------------


def open_and_wait(qtbot, win, path) -> None:
    with qtbot.waitSignal(win.pageReady, timeout=TIMEOUT_MS):
        win.open_file(str(path))


def reading_text(win) -> str:
    return win.text_panes.panes["reading"].editor.toPlainText()


def test_an_analysis_worker_that_aborts_shows_why_and_the_next_page_works(qtbot, window, tmp_path):
    path = tmp_path / "three.pdf"
    text_pages_pdf(path, 3)
    open_and_wait(qtbot, window, path)
    analyse = window._core.analyse
    window._core.analyse = worker_jobs.analyse_by_aborting
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    assert window.banner.text().startswith(
        "Page 2 could not be analysed: the core-analysis worker died (SIGABRT"
    )
    assert window.page_failures["analysis"] == window.banner.text()
    window._core.analyse = analyse
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    assert reading_text(window) == "Page 3"
    assert not window.banner.isVisible()


def test_a_render_worker_that_aborts_leaves_a_blank_page_under_the_analysis(
    qtbot, window, tmp_path
):
    path = tmp_path / "two.pdf"
    text_pages_pdf(path, 2)
    open_and_wait(qtbot, window, path)
    window._pdfium.render = worker_jobs.analyse_by_aborting
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    qtbot.waitUntil(lambda: window.rendered is not None and window.rendered.index == 1)
    assert not window.rendered.rendered
    assert window.rendered.geometry.media_box == (0.0, 0.0, 612.0, 792.0)
    assert "the page image is unavailable" in window.banner.text()
    assert "pdfium-render worker died (SIGABRT" in window.banner.text()
    assert reading_text(window) == "Page 2"


@pytest.mark.parametrize("kind", ["icc_profile_bomb", "font_program_pdfium_bomb"])
def test_a_file_that_aborts_pdfium_shows_why_and_the_next_page_renders(
    qtbot, window, tmp_path, kind
):
    # No injected abort: pdfium itself reads a 2.7 GB stream whole in the render worker (2 GB
    # cap) and aborts; the worker is replaced, the page keeps the engine's analysis.
    path = PDFIUM_BOMBS[kind](tmp_path / f"{kind}.pdf")
    open_and_wait(qtbot, window, path)
    qtbot.waitUntil(
        lambda: "the page image is unavailable" in window.banner.text(), timeout=TIMEOUT_MS
    )
    assert "pdfium-render worker died (SIGABRT" in window.banner.text()
    assert window.rendered is not None and not window.rendered.rendered
    assert reading_text(window) == "Bomb"
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.next_page()
    qtbot.waitUntil(
        lambda: window.rendered.index == 1 and window.rendered.rendered, timeout=TIMEOUT_MS
    )
    assert reading_text(window) == "After"
    assert not window.banner.isVisible()


def damaged_paper(corpus_dir: Path, tmp_path: Path) -> Path:
    # 2,000 random bytes over the start of a 117-page corpus file: pdfium refuses it
    # ("Data format error"), qpdf repairs it.
    source = corpus_dir / "sample-files__geotopo-komprimiert.pdf"
    if not source.exists():
        pytest.skip("the corpus file is absent")
    return damaged_copy(source, tmp_path / "damaged.pdf", seed=0, start=788)


def test_a_file_pdfium_refuses_opens_with_the_analysis_on_blank_pages(
    qtbot, window, tmp_path, corpus_dir
):
    path = damaged_paper(corpus_dir, tmp_path)
    open_and_wait(qtbot, window, path)
    assert window.page_count == 117
    assert not window.rendered.rendered
    width, height = window.rendered.image.width(), window.rendered.image.height()
    assert width > 0 and height > 0
    assert window.model is not None and window.model.count > 0
    banner = window.banner.text()
    assert banner.startswith("Page 1: the page image is unavailable (pdfium cannot read this")
    assert "Data format error" in banner or "damaged" in banner


def test_an_empty_file_is_refused_with_the_engine_error(qtbot, window, tmp_path):
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with qtbot.waitSignal(window.documentFailed, timeout=TIMEOUT_MS):
        window.open_file(str(empty))
    assert window.banner.text() == "Could not open empty.pdf: empty file"
    assert window.page_count == 0


def _run_app(*args: str, env_dir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GLYPHSCOPE_SETTINGS_DIR=str(env_dir))
    return subprocess.run(
        [sys.executable, "-m", "glyphscope.inspector.app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_screenshot_of_a_page_that_could_not_be_rendered_exits_1(tmp_path, corpus_dir):
    path = damaged_paper(corpus_dir, tmp_path)
    out = tmp_path / "shot.png"
    result = _run_app("--screenshot", str(out), str(path), env_dir=tmp_path)
    assert result.returncode == 1
    assert "the page image is unavailable" in result.stderr
    assert QImage(str(out)).width() == 1920  # the picture is still written


def test_screenshot_of_a_page_that_could_not_be_analysed_exits_1(tmp_path, corpus_dir):
    # pdfium reads this file; the engine finds its page tree damaged.
    path = corpus_dir / "pdfjs__pages-tree-refs.pdf"
    result = _run_app("--screenshot", str(tmp_path / "shot.png"), str(path), env_dir=tmp_path)
    assert result.returncode == 1
    assert "Text analysis is unavailable for this file" in result.stderr


QUIT_DURING_A_LONG_JOB = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from glyphscope.inspector.main_window import MainWindow
from tests import worker_jobs
app = QApplication(sys.argv)
window = MainWindow(persist=False)
window.show()
window.analysis_worker.submit("analyse", worker_jobs.sleep_forever)
window.render_worker.submit("render", worker_jobs.sleep_forever)
QTimer.singleShot(1500, window.close)
QTimer.singleShot(1600, app.quit)
app.exec()
print("quit")
"""


def test_quitting_while_a_long_job_runs_exits_cleanly(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", GLYPHSCOPE_SETTINGS_DIR=str(tmp_path))
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", QUIT_DURING_A_LONG_JOB],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "quit"
    assert "Destroyed while thread" not in result.stderr
    assert time.monotonic() - started < 60


def test_opening_a_file_analyses_only_the_first_page_and_reads_no_other(qtbot, window, tmp_path):
    path = tmp_path / "long.pdf"
    text_pages_pdf(path, 300)
    rendered = worker_jobs.record_submissions(window.render_worker, "render")
    opened_on = worker_jobs.record_submissions(window.render_worker, JobKind.AHEAD_RENDER)
    analysed = worker_jobs.record_submissions(window.analysis_worker, "analyse")
    analysed_on_open = worker_jobs.record_submissions(window.analysis_worker, JobKind.AHEAD)
    open_and_wait(qtbot, window, path)
    # The first page alone (made behind the open, drawn again at the scale the view settles
    # on).
    assert set(rendered + opened_on) == {0} and analysed + analysed_on_open == [0]


# -- the GUI thread never blocks ---------------------------------------------------------------


def many_pages_pdf(path: Path, pages: int) -> Path:
    from tests.pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    lines = b"".join(b"(Line %d of a page of the long file) '" % n for n in range(40))
    for number in range(1, pages + 1):
        content = b"BT /F1 10 Tf 14 TL 72 760 Td (Page %d) Tj " % number + lines + b" ET"
        builder.add_page(content, fonts={"F1": helv})
    builder.save(path)
    return path


def dense_page_pdf(path: Path) -> Path:
    """One page of 20,000 glyphs: 200 lines of 4-point text."""
    from tests.pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    helv = builder.standard_font("Helvetica")
    lines = b"".join(b"(%s) '" % (b"word " * 20) for _ in range(200))
    builder.add_page(b"BT /F1 4 Tf 5 TL 20 780 Td " + lines + b" ET", fonts={"F1": helv})
    builder.save(path)
    return path


def test_the_longest_gui_thread_stall_per_scenario(
    qtbot, window, tmp_path, corpus_dir, record_property, request
):
    """Reports (prints, and records as the test's `stalls` property) the longest GUI-thread
    stall of each scenario, from its action until every worker has been idle a while; no
    timed assertion (the machine's load decides the figure), only that every scenario
    completed."""
    from glyphscope.inspector.app import freeze_startup_objects
    from glyphscope.inspector.qa.features import install_qa_features, qa_features_of

    install_qa_features(window)  # its panels follow each page too, as in the application
    freeze_startup_objects()  # as the application does once its window is up
    request.addfinalizer(gc.unfreeze)
    window.set_layers(list(window.layers))  # every overlay drawn: the most work per page
    from glyphscope.widgets.layer_painter import layer_painter

    workers = (
        window.render_worker,
        window.analysis_worker,
        window.sidebar.outline_worker,
        qa_features_of(window).worker,
        layer_painter(),  # the overlays painted in the background count too
    )
    watchdog = Watchdog()
    stalls: dict[str, tuple[float, float, str]] = {}

    def measure(name: str, signal, action) -> None:
        gc.collect()  # the garbage of the previous scenario is not this one's
        settle(qtbot, workers)
        watchdog.reset()
        with qtbot.waitSignal(signal, timeout=120_000):
            action()
        settle(qtbot, workers)
        stalls[name] = (watchdog.longest, watchdog.longest_cpu, watchdog.report())

    bomb = corpus_dir / "pdfpig__ghostscript-691770-0.pdf"
    measure("RunLength bomb (corpus), open", window.pageReady, lambda: window.open_file(str(bomb)))
    long_file = many_pages_pdf(tmp_path / "long.pdf", 2000)
    measure("2,000-page file, open", window.pageReady, lambda: window.open_file(str(long_file)))
    measure("2,000-page file, last page", window.pageReady, window.last_page)
    measure("page flip", window.pageReady, window.previous_page)
    rules = window.rules.with_values(space_gap_ratio=0.5)
    measure("rule change", window.analysisReady, lambda: window.set_rules(rules))
    dense = dense_page_pdf(tmp_path / "dense.pdf")
    measure("20,000-glyph page, open", window.pageReady, lambda: window.open_file(str(dense)))
    dense_rules = window.rules.with_values(space_gap_ratio=0.3)
    measure(
        "20,000-glyph page, rule change",
        window.analysisReady,
        lambda: window.set_rules(dense_rules),
    )
    measure("20,000-glyph page, shown again", window.pageReady, lambda: window.go_to_page(0))
    watchdog.stop()
    print("\nlongest GUI-thread stall per scenario (wall time; the GUI thread's CPU in it):")
    for name, (stall, cpu, seen) in stalls.items():
        print(f"  {name:34} {stall * 1000:7.1f} ms  (cpu {cpu * 1000:6.1f} ms)\n{seen}", end="")
    record_property(
        "stalls_ms", {name: round(stall * 1000, 1) for name, (stall, _cpu, _s) in stalls.items()}
    )
    assert len(stalls) == 8
    assert window.model is not None and window.model.count == 20_000


def test_page_details_bound_what_a_hostile_operator_sends_to_the_window(tmp_path):
    from glyphscope.inspector.workers.analysis import CoreOwner
    from glyphscope.inspector.workers.qa import MAX_OPERAND_CHARS, page_details
    from tests.pdfbuilder import PdfBuilder

    builder = PdfBuilder()
    builder.add_page(b"q " + b"\x81" * 100_000 + b" Q")
    path = builder.save(tmp_path / "garbage.pdf") and tmp_path / "garbage.pdf"
    core = CoreOwner()
    core.open(str(path), None)
    core.analyse(0, _rules())
    details = page_details(core, 0, _rules())
    names = [record.operator for record in details.operators]
    assert names[0] == "q" and names[-1] == "Q"
    garbage = names[1]
    assert garbage.startswith("\x81" * MAX_OPERAND_CHARS)
    assert garbage.endswith("… (100,000 characters)")
