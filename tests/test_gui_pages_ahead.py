"""How a page gets to the screen: its overlays before its panes, the neighbouring pages made
ahead while the window is idle and shown at once, a rule change that makes them stale, and
the error banner of a page whose analysis fails on the way (inspector.session.page,
inspector.workers.page_ahead)."""

from __future__ import annotations

from functools import partial

import pytest
from PySide6.QtWidgets import QLabel

from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.page_timing import FROM_CACHE, FROM_PREFETCH
from tests import worker_jobs
from tests.pdfbuilder import PdfBuilder
from tests.qa_support import TIMEOUT_MS
from tests.test_gui_pdfs import text_pages_pdf


def reading_text(win) -> str:
    return win.text_panes.panes["reading"].editor.toPlainText()


@pytest.fixture
def three_pages(tmp_path):
    path = tmp_path / "three.pdf"
    text_pages_pdf(path, 3)
    return path


def open_and_wait(qtbot, win, path) -> None:
    with qtbot.waitSignal(win.pageReady, timeout=TIMEOUT_MS):
        win.open_file(str(path))


def made_ahead(win, index: int) -> bool:
    """Page `index`'s model and image are kept, ready to be shown."""
    return (index, win.rules) in win._models and (
        win.ahead.render(index, win.view.render_scale()) is not None
    )


def test_a_page_shows_its_overlays_before_its_panes(qtbot, window, three_pages, tmp_path):
    release = tmp_path / "release"
    # The second job (layout, columns, structure) waits for the test; the first one is real.
    window._core.analyse = partial(worker_jobs.analyse_when_released, str(release))
    with qtbot.waitSignal(window.pageShown, timeout=TIMEOUT_MS):
        window.open_file(str(three_pages))
    assert window.layers["glyphs"].model is not None
    assert window.layers["glyphs"].model.count == len("Page 1")
    assert not window.page_is_ready
    assert window.model is None  # selection, hit tests and exports wait for the whole page
    assert reading_text(window) == ""
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        release.touch()
    assert reading_text(window) == "Page 1"
    assert window.model is window.layers["glyphs"].model  # completed in place, not redrawn
    assert window.model.panes["layout"].text.strip() == "Page 1"


def test_a_document_opens_with_its_page_analysed_and_rendered_behind_the_open(
    qtbot, window, three_pages
):
    asked_again = worker_jobs.record_submissions(window.analysis_worker, JobKind.ANALYSE_VIEW)
    window.open_file(str(three_pages), page=1)
    # Out before pdfium's answer has reached the window (no page is known yet).
    assert window.page_count == 0
    assert window.ahead.model_job((1, window.rules)) is not None
    assert window.ahead.render_job((1, window.view.render_scale())) is not None
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        pass
    assert window.page_timing.analysis_source in (FROM_PREFETCH, FROM_CACHE)
    assert asked_again == []  # not analysed twice
    assert reading_text(window) == "Page 2"
    assert window.rendered.index == 1


def test_the_next_page_made_ahead_shows_at_once(qtbot, window, three_pages):
    open_and_wait(qtbot, window, three_pages)
    qtbot.waitUntil(lambda: made_ahead(window, 1), timeout=TIMEOUT_MS)
    window.go_to_page(1)
    assert window.page_is_ready  # nothing to wait for: shown by go_to_page itself
    assert reading_text(window) == "Page 2"
    assert window.rendered.index == 1
    assert window.page_timing.analysis_source == FROM_CACHE
    assert window.page_timing.render_source == FROM_CACHE
    window.go_to_page(0)  # and back: the page left is kept too
    assert window.page_is_ready
    assert reading_text(window) == "Page 1"


def test_a_page_is_analysed_ahead_in_two_jobs_as_a_page_turned_to_is(qtbot, window, three_pages):
    views = worker_jobs.record_submissions(window.analysis_worker, JobKind.AHEAD_VIEW)
    texts = worker_jobs.record_submissions(window.analysis_worker, JobKind.AHEAD)
    open_and_wait(qtbot, window, three_pages)
    qtbot.waitUntil(lambda: made_ahead(window, 1), timeout=TIMEOUT_MS)
    # The page the document opens on first, behind the workers' open (PageAhead.open_page).
    assert (views[:2], texts[:2]) == ([0, 1], [0, 1])
    model = window._models[(1, window.rules)]
    assert model.panes["reading"].text == "Page 2" and model.count == len("Page 2")


def test_a_page_turned_to_before_its_text_modes_arrive_shows_its_overlays_at_once(
    qtbot, window, three_pages, tmp_path
):
    open_and_wait(qtbot, window, three_pages)
    release = tmp_path / "release"
    window._core.analyse = partial(worker_jobs.analyse_when_released, str(release))
    key = (1, window.rules)
    qtbot.waitUntil(lambda: window.ahead.view_model(key) is not None, timeout=TIMEOUT_MS)
    window.go_to_page(1)
    overlays = window.layers["glyphs"].model
    assert overlays is window.ahead.view_model(key) and overlays.page_index == 1
    assert window.model is None and not window.page_is_ready
    assert window.page_timing.analysis_source == FROM_PREFETCH
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        release.touch()
    assert reading_text(window) == "Page 2"
    assert window.model is overlays  # completed in place, not redrawn
    assert window.ahead.view_model(key) is None


def test_a_page_turned_to_before_its_view_model_arrives_shows_it_when_it_does(
    qtbot, window, three_pages, tmp_path
):
    open_and_wait(qtbot, window, three_pages)
    view_release, text_release = tmp_path / "view", tmp_path / "text"
    window._core.analyse_view = partial(worker_jobs.view_when_released, str(view_release))
    window._core.analyse = partial(worker_jobs.analyse_when_released, str(text_release))
    key = (1, window.rules)
    qtbot.waitUntil(lambda: window.ahead.model_job(key) is not None, timeout=TIMEOUT_MS)
    window.go_to_page(1)
    assert window.layers["glyphs"].model is None and window.ahead.view_model(key) is None
    with qtbot.waitSignal(window.pageShown, timeout=TIMEOUT_MS):
        view_release.touch()
    overlays = window.layers["glyphs"].model
    assert overlays.page_index == 1 and window.model is None  # the panes are still to come
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        text_release.touch()
    assert window.page_timing.analysis_source == FROM_PREFETCH  # not analysed again
    assert window.model is overlays
    assert reading_text(window) == "Page 2"


def test_a_rule_change_makes_the_pages_made_ahead_stale(qtbot, window, three_pages, tmp_path):
    open_and_wait(qtbot, window, three_pages)
    old_rules = window.rules
    release = tmp_path / "release"
    window._core.analyse = partial(worker_jobs.analyse_when_released, str(release))
    qtbot.waitUntil(lambda: window.ahead.model_job((1, old_rules)) is not None, timeout=TIMEOUT_MS)
    new_rules = old_rules.with_values(space_gap_ratio=0.2)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.set_rules(new_rules)
        assert window.ahead.model_job((1, old_rules)) is None
        release.touch()
    assert window.model.analysis.rules == new_rules
    qtbot.wait(300)
    assert (1, old_rules) not in window._models  # its result was dropped
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(1)
    assert window.model.analysis.rules == new_rules
    assert reading_text(window) == "Page 2"


def test_a_page_awaited_from_ahead_whose_worker_dies_shows_its_error(
    qtbot, window, three_pages, tmp_path
):
    open_and_wait(qtbot, window, three_pages)
    release = tmp_path / "release"
    window._core.analyse = partial(worker_jobs.abort_when_released, str(release))
    qtbot.waitUntil(
        lambda: window.ahead.model_job((1, window.rules)) is not None, timeout=TIMEOUT_MS
    )
    window.go_to_page(1)
    assert window.page_timing.analysis_source == FROM_PREFETCH  # not analysed twice
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        release.touch()
    assert window.banner.text().startswith(
        "Page 2 could not be analysed: the core-analysis worker died (SIGABRT"
    )
    assert window.page_failures["analysis"] == window.banner.text()
    assert window.rendered.index == 1


def test_a_page_whose_analysis_failed_ahead_shows_its_error_when_turned_to(
    qtbot, window, three_pages
):
    window._core.analyse = partial(worker_jobs.analyse_failing_on, 1)
    open_and_wait(qtbot, window, three_pages)
    failed = ("model", (1, window.rules))
    qtbot.waitUntil(lambda: failed in window.ahead._failed, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(1)
    assert window.banner.text().startswith("Page 2 could not be analysed: content stream exploded")


def test_a_failing_view_job_shows_its_error_and_the_rest_is_not_analysed(
    qtbot, window, three_pages, tmp_path
):
    open_and_wait(qtbot, window, three_pages)
    mark = tmp_path / "analysed"
    window._core.analyse_view = worker_jobs.view_failing
    window._core.analyse = partial(worker_jobs.analyse_leaving_mark, str(mark))
    window.ahead.clear()
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(2)
    assert window.banner.text().startswith("Page 3 could not be analysed: content stream exploded")
    qtbot.wait(300)
    assert not (tmp_path / "analysed-2").exists()


def test_turning_quickly_is_never_kept_waiting_by_work_ahead(qtbot, window, three_pages):
    open_and_wait(qtbot, window, three_pages)
    # Turned before the window was idle long enough: nothing was made ahead.
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(2)
    assert window.page_timing.analysis_source != FROM_PREFETCH
    assert reading_text(window) == "Page 3"


def test_a_file_the_engine_cannot_read_says_so_once_its_page_shows(qtbot, window, corpus_dir):
    # pdfium reads this file; the engine, opening it at the same time, finds its page tree
    # damaged: said after pdfium's answer, not hidden by the page it shows.
    path = corpus_dir / "pdfjs__pages-tree-refs.pdf"
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.open_file(str(path))
    assert window.banner.isVisible()
    assert window.banner.text().startswith("Text analysis is unavailable for this file")
    assert window.page_failures["analysis"] == window.banner.text()
    assert window.rendered is not None and window.rendered.rendered


def test_the_pixel_test_waits_for_idle_time_and_a_page_turned_past_skips_it(
    qtbot, window, three_pages
):
    asked = worker_jobs.record_submissions(window.analysis_worker, "ink-request")
    open_and_wait(qtbot, window, three_pages)
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(2)  # at once: page 1's test was never started
    assert asked == []
    with qtbot.waitSignal(window.hiddenTextReady, timeout=TIMEOUT_MS):
        pass  # idle: the page shown is tested
    assert asked == [2]


def test_turning_a_page_updates_the_legends_counts_in_its_widgets(qtbot, window, tmp_path):
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    for text in (b"ab", b"abcd"):
        builder.add_page(b"BT /F1 24 Tf 72 700 Td (%s) Tj ET" % text, fonts={"F1": helvetica})
    builder.save(tmp_path / "two.pdf")
    open_and_wait(qtbot, window, tmp_path / "two.pdf")
    legend = window.layers_panel._legends["glyphs"]

    def counts() -> list[str]:
        return [label.text() for label in legend.findChildren(QLabel) if "(" in label.text()]

    first = counts()
    with qtbot.waitSignal(window.pageReady, timeout=TIMEOUT_MS):
        window.go_to_page(1)
    assert window.layers_panel._legends["glyphs"] is legend  # no widget rebuilt
    assert counts() == [e.label for e in window.layers["glyphs"].legend_for(window.model)]
    assert counts() != first and sum(" (4)" in label for label in counts()) == 1
