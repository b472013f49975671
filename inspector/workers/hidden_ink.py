"""The hidden-text pixel test in the inspector: pdfium's half on the render thread.

Once a page is shown and the window idle (`start_pixel_test`, from inspector.workers.page_ahead, so
a page turned past is never kept waiting by its predecessor's test), the analysis thread
prepares its `PageModel.ink_request` (core.text.ink.ink_request, pikepdf only);
`request_ink` sends it to the render thread, which owns every pdfium call, and `apply_ink`
folds the answer into the page's analysis and redraws the Hidden-text layer and the status
count. A page whose test fails or is stale keeps the reasons found without it.
"""

from __future__ import annotations

from dataclasses import replace
from operator import attrgetter
from typing import TYPE_CHECKING

import numpy as np

from glyphscope.core.rules import Rules
from glyphscope.core.text.hidden import HiddenGlyph
from glyphscope.core.text.ink import InkRequest, InkTest, run_ink_test
from glyphscope.core.view.page_model import PageModel
from glyphscope.inspector.workers.kinds import JobKind

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow


def ink_job(page_index: int, rules: Rules, request: InkRequest) -> tuple[int, Rules, InkTest]:
    """Runs on the render thread."""
    return page_index, rules, run_ink_test(request)


def start_pixel_test(window: MainWindow, model: PageModel) -> None:
    """Start the pixel test of the page shown (unless it has run)."""
    if model.analysis.ink is not None:
        return
    if model.ink_request is None:
        window.analysis_worker.submit(
            JobKind.INK_REQUEST, window.core.ink_request, model.page_index, model.analysis.rules
        )
    else:
        request_ink(window, model)


def apply_ink_request(window: MainWindow, result: tuple[int, Rules, InkRequest | InkTest]) -> None:
    """The analysis thread prepared the test (CoreOwner.ink_request): kept with the page's
    model, and sent to the render thread if the page is still shown."""
    page_index, rules, request = result
    model = window._models.get((page_index, rules))
    if model is None or model.analysis.ink is not None:
        return
    model.ink_request = request
    if model is window.model:
        request_ink(window, model)


def request_ink(window: MainWindow, model: PageModel) -> None:
    request = model.ink_request
    if isinstance(request, InkTest):
        apply_ink(window, (model.page_index, model.analysis.rules, request))
    elif isinstance(request, InkRequest) and model.analysis.ink is None:
        window.render_worker.submit(
            JobKind.INK, ink_job, model.page_index, model.analysis.rules, request
        )


def apply_ink(window: MainWindow, result: tuple[int, Rules, InkTest]) -> None:
    """The render thread answered: the analysis worker folds the answer into the hidden
    glyphs (every glyph is walked again, which the window's thread must not do)."""
    page_index, rules, ink = result
    model = window._models.get((page_index, rules))
    if model is None or model.analysis.ink is not None:
        return
    window.analysis_worker.submit(
        JobKind.INK_HIDDEN, window.core.hidden_with_ink, page_index, rules, ink
    )


def apply_hidden(
    window: MainWindow, result: tuple[int, Rules, InkTest, tuple[HiddenGlyph, ...]]
) -> None:
    """The analysis worker's hidden glyphs with the pixel test's answers."""
    page_index, rules, ink, hidden = result
    model = window._models.get((page_index, rules))
    if model is None or model.analysis.ink is not None:
        return
    # What PageAnalysis.with_ink makes, with the hidden glyphs made in the worker.
    model.analysis = replace(model.analysis, hidden=hidden, ink=ink)
    model.ink_request = None
    if model is window.model:
        layer = window.layers.get("hidden_text")
        if layer is not None:
            layer.set_model(model)
        window.state_label.setText(status_text(model))
        window.hiddenTextReady.emit(page_index)


def status_text(model: PageModel) -> str:
    visible = int(model.arrays.visible.sum())
    state = f"{model.count} glyphs, {visible} visible"
    # Hidden among the glyphs the text modes read: off-box glyphs are dropped already.
    # Counted over the visible mask: shown with every page, and a dense page of tiny text
    # has a hidden record for each of its 20,000 glyphs.
    glyphs = np.fromiter(map(attrgetter("glyph"), model.analysis.hidden), dtype=np.int64)
    hidden = int(np.count_nonzero(model.arrays.visible[glyphs]))
    if hidden:
        state += f", {hidden} hidden"
    if model.truncated:
        state += " (truncated)"
    return state
