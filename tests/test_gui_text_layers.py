"""The inspector's layers and status for issue 12's text features (built PDF, offscreen)."""

from __future__ import annotations

import numpy as np
import pytest

from glyphscope.inspector.main_window import MainWindow
from glyphscope.widgets.provenance_panel import provenance_html
from glyphscope.widgets.text_layers import TEXT_LAYER_TYPES
from tests.qa_support import TIMEOUT_MS
from tests.text_features_pdf import text_features_pdf


@pytest.fixture
def features(qtbot, tmp_path):
    win = MainWindow(persist=False)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    with qtbot.waitSignals([win.pageReady, win.hiddenTextReady], timeout=TIMEOUT_MS):
        win.open_file(str(text_features_pdf(tmp_path / "features.pdf")))
    yield win
    win.shutdown()


def _turn_annotations(qtbot, win, on: bool) -> None:
    with qtbot.waitSignal(win.analysisReady, timeout=TIMEOUT_MS):
        win.actions_by_name["annotations"].trigger()
    assert win.rules.annotations is on


@pytest.mark.parametrize("layer_id", [t.layer_id for t in TEXT_LAYER_TYPES])
def test_each_text_layer_draws_on_the_features_page(qtbot, features, layer_id):
    if layer_id == "annotation_glyphs":
        _turn_annotations(qtbot, features, True)
    features.layers_panel.checks[layer_id].setChecked(True)
    assert features.layers[layer_id].isVisible()
    assert features.layers[layer_id].drawn_count() > 0


def test_reading_pane_shows_logical_hebrew_merged_accent_and_actual_text(features):
    text = features.model.panes["reading"].text
    assert text.splitlines()[:3] == [
        "\u05e9\u05dc \u05e9\u05dc\u05d5\u05dd",
        "na\u00efve",
        "Dr. Doctor",
    ]


def test_pixel_test_runs_on_the_render_thread_and_its_reasons_reach_the_status_bar(features):
    assert features.model.analysis.ink is not None
    hidden = features.model.analysis.hidden
    reasons = {reason for item in hidden for reason in item.reasons}
    assert {"invisible_render_mode", "clipped", "no_ink", "tiny"} <= reasons
    assert f"{len(hidden)} hidden" in features.state_label.text()  # all on the page


def test_annotation_toggle_reads_the_free_text_appearance(qtbot, features):
    assert "Note text" not in features.model.panes["reading"].text
    _turn_annotations(qtbot, features, True)
    assert features.model.panes["reading"].text.endswith("Note text")
    _turn_annotations(qtbot, features, False)


def test_provenance_names_actual_text_as_the_source(features):
    model = features.model
    (replacement,) = model.analysis.replacements
    html = provenance_html(model, replacement.glyphs[0], None, None)
    assert "actual_text" in html and "Doctor" in html


def test_selecting_any_glyph_of_a_span_or_accent_pair_highlights_their_text(features):
    model = features.model
    (replacement,) = model.analysis.replacements
    (merge,) = model.analysis.accents
    features.selection.set([replacement.glyphs[-1]], "page")
    assert set(features.selection_layer.selected) == set(replacement.glyphs)
    features.selection.set([merge.accent], "page")
    assert set(features.selection_layer.selected) == {merge.accent, merge.base}


def test_the_analysis_worker_folds_the_pixel_test_into_the_hidden_glyphs(tmp_path):
    """What the window applies when pdfium's half of the test answers is what
    PageAnalysis.with_ink makes, computed in the worker (kept or analysed again)."""
    from glyphscope.core.rules import Rules
    from glyphscope.core.text.ink import InkTest
    from glyphscope.inspector.workers.analysis import CoreOwner

    path = str(text_features_pdf(tmp_path / "features.pdf"))
    rules = Rules()
    core = CoreOwner()
    core.open(path, None)
    analysis = core.analyse(0, rules).analysis
    ink = InkTest(frozenset({analysis.visible[0]}), 1, 1.0, 0.0)
    expected = analysis.with_ink(ink).hidden
    assert core.hidden_with_ink(0, rules, ink) == (0, rules, ink, expected)
    fresh = CoreOwner()
    fresh.open(path, None)
    assert fresh.hidden_with_ink(0, rules, ink)[3] == expected
    core.close()
    fresh.close()


def test_the_status_line_counts_the_hidden_glyphs_among_the_visible_ones_from_arrays():
    from types import SimpleNamespace

    from glyphscope.core.text.hidden import HiddenGlyph
    from glyphscope.inspector.workers.hidden_ink import status_text

    visible = np.array([True, False, True, True])
    hidden = tuple(HiddenGlyph(i, ("tiny",)) for i in (0, 1, 3))
    model = SimpleNamespace(
        arrays=SimpleNamespace(visible=visible),
        analysis=SimpleNamespace(hidden=hidden),
        count=4,
        truncated=False,
    )
    assert status_text(model) == "4 glyphs, 3 visible, 2 hidden"
