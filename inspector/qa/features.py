"""The QA and customer tools (second inspector issue), added to a main window from outside.

`install_qa_features(window)` adds the panels (Rules, Provenance, Content stream, Fonts,
Structure, Compare with pdfium, Search), three overlay layers (rule changes, differences from
pdfium, search hits), a QA menu with the exports and their shortcuts, and wires them to the
window's public API only: `add_panel`, `add_layer`, `selection`, `set_rules`, `go_to_page`,
`model`, `rules`, `path`, `password`, `page_index`, its signals, and its render worker (every
pdfium call stays in that one process).

Engine work the panels need beyond the window's analysis runs in worker processes: the current
page's operators, fonts and structure tree in the window's analysis worker (whose Document has
the page's extraction cached), other pages' text, analyses under the spec's rules and the
single-page PDF in a QA worker with its own Document (inspector.worker_process).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction

from glyphscope.core.qa.diffing import RuleChanges
from glyphscope.core.rules import Rules
from glyphscope.inspector.qa import actions as qa_actions
from glyphscope.inspector.qa.compare import CompareController
from glyphscope.inspector.qa.cos import CosController
from glyphscope.inspector.qa.regression import report_regression_case, save_regression_case
from glyphscope.inspector.qa.search import SearchController
from glyphscope.inspector.worker_process import WorkerProcess
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.qa import JobFailure, PageDetails, QaCore, page_details
from glyphscope.widgets.compare_panel import ComparePanel
from glyphscope.widgets.content_stream_pane import ContentStreamPane
from glyphscope.widgets.cos_panel import CosPanel
from glyphscope.widgets.fonts_panel import FontsPanel
from glyphscope.widgets.provenance_panel import ProvenancePanel, operator_lookup
from glyphscope.widgets.qa_layers import (
    RULE_CHANGE_COLOURS,
    MarkedGroup,
    pdfium_diff_layer,
    rule_changes_layer,
    search_hits_layer,
)
from glyphscope.widgets.rules_panel import COMPARE_DEFAULTS, RuleComparison, RulesPanel, compare
from glyphscope.widgets.search_panel import SearchPanel
from glyphscope.widgets.structure_panel import StructurePanel

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

CACHED_PAGES = 8
LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea
BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea


log = logging.getLogger(__name__)

# Pages of at most this many glyphs are compared on the GUI thread (a few milliseconds).
SYNC_COMPARE_GLYPHS = 2000


class PageCache(OrderedDict):
    """The analyses of the last few pages touched, oldest dropped first."""

    def put(self, index: int, analysis) -> None:
        self[index] = analysis
        self.move_to_end(index)
        while len(self) > CACHED_PAGES:
            self.popitem(last=False)


class QaFeatures(QObject):
    """Owns the QA panels, layers, actions and the QA worker of one main window."""

    # emitted after each result lands, for tests and status: what finished
    ruleChangesShown = Signal(object)  # RuleChanges
    detailsShown = Signal(int)  # page index
    pageCompared = Signal(int, object)  # page index, WordDiff or JobFailure
    documentCompared = Signal(int)  # pages compared
    searchFinished = Signal(str, int)  # query, hits
    regressionCaseSaved = Signal(str, tuple)  # folder, modes reading differently in the source
    cosShown = Signal(object)  # the glyphscope.core.pdf.cos.CosNode a link opened
    # a dense page's rule comparison made on the comparison thread (queued to the GUI thread)
    _compared = Signal(object, object)  # token, RuleComparison

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.core = QaCore()
        self.worker = WorkerProcess("qa-core", self)
        self.worker.jobFinished.connect(self._on_job)
        window.render_worker.jobFinished.connect(self._on_render_job)
        window.analysis_worker.jobFinished.connect(self._on_analysis_worker_job)
        self.details: PageDetails | None = None
        self._operators: dict = {}
        # Analyses kept for rule comparisons, a few pages each (a page's glyphs can be large).
        self._analyses = PageCache()  # page → last analysis shown (any rules)
        self._previous = PageCache()  # page → the analysis before the last change
        self._defaults = PageCache()  # page → analysis under the spec's rules
        self.changes: RuleChanges | None = None
        self._comparer = ThreadPoolExecutor(1, thread_name_prefix="rule comparison")
        self._compare_token: object | None = None  # the comparison the panel waits for
        self._compared.connect(self._on_compared, Qt.ConnectionType.QueuedConnection)
        self.searching = SearchController(self)
        self.comparing = CompareController(self)
        self.interactive = True  # False: report in the status bar only (tests, scripts)
        self.text_export = None  # the running glyphscope.inspector.export.exporters.TextExport
        # The running page exports (glyphscope.inspector.export.jobs.BackgroundExport) by kind.
        self.page_exports: dict = {}
        self.text_progress = None

        self.rule_layer = rule_changes_layer()
        self.diff_layer = pdfium_diff_layer()
        self.search_layer = search_hits_layer()
        for layer in (self.rule_layer, self.diff_layer, self.search_layer):
            window.add_layer(layer)

        self.rules_panel = RulesPanel()
        self.rules_panel.set_rules(window.rules)
        self.provenance = ProvenancePanel()
        self.content_stream = ContentStreamPane()
        self.fonts_panel = FontsPanel()
        self.structure_panel = StructurePanel()
        self.compare_panel = ComparePanel()
        self.search_panel = SearchPanel()
        self.cos_panel = CosPanel()
        self.objects = CosController(self, self.cos_panel)
        panels = (
            ("rules", "Rules", self.rules_panel, LEFT, "F6"),
            ("provenance", "Provenance", self.provenance, RIGHT, "F7"),
            ("content_stream", "Content stream", self.content_stream, BOTTOM, "F8"),
            ("fonts", "Fonts", self.fonts_panel, BOTTOM, "F9"),
            ("structure", "Structure", self.structure_panel, RIGHT, "F10"),
            ("compare", "Compare", self.compare_panel, RIGHT, "F11"),
            ("search", "Search", self.search_panel, LEFT, None),
            ("objects", "Objects", self.cos_panel, BOTTOM, "Ctrl+F12"),
        )
        self.docks = {}
        for panel_id, title, widget, area, key in panels:
            self.docks[panel_id] = window.add_panel(panel_id, title, widget, area, key)
        self._tabify()
        self.actions = self._build_menu()
        self._connect()
        window.installEventFilter(self)
        application = QCoreApplication.instance()
        if application is not None:
            application.aboutToQuit.connect(self.shutdown)
        if window.path and window.page_count:
            self._open_document(window.path, window.page_count)

    # -- layout -----------------------------------------------------------------------------
    def _tabify(self) -> None:
        window = self.window
        panels = window.panels
        if "layers" in panels:
            window.tabifyDockWidget(panels["layers"], self.docks["rules"])
            window.tabifyDockWidget(panels["layers"], self.docks["search"])
            panels["layers"].raise_()
        if "details" in panels:
            for panel_id in ("provenance", "structure", "compare"):
                window.tabifyDockWidget(panels["details"], self.docks[panel_id])
            panels["details"].raise_()
        if "text" in panels:
            for panel_id in ("content_stream", "fonts", "objects"):
                window.tabifyDockWidget(panels["text"], self.docks[panel_id])
            panels["text"].raise_()

    def _build_menu(self) -> dict[str, QAction]:
        return qa_actions.build(self)

    def _connect(self) -> None:
        window = self.window
        window.documentOpened.connect(self._open_document)
        window.documentClosed.connect(self._clear_panels)
        window.analysisReady.connect(self._on_analysis)
        window.rulesChanged.connect(self._on_rules_changed)
        window.layers_panel.layerToggled.connect(lambda _id, _on: self.mark_panes())
        window.pageChanged.connect(self._on_page_changed)
        window.selection.changed.connect(self._on_selection)
        self.rules_panel.rulesChanged.connect(self.apply_rules)
        self.rules_panel.compareModeChanged.connect(lambda _mode: self._show_rule_changes())
        for panel in (self.rules_panel, self.fonts_panel, self.structure_panel, self.compare_panel):
            name = panel.objectName()
            panel.glyphsChosen.connect(lambda glyphs, n=name: self.select(glyphs, n))
        self.content_stream.operatorChosen.connect(self.select_operator)
        self.provenance.fontObjectWanted.connect(self.objects.show_font)
        self.fonts_panel.fontObjectWanted.connect(self.objects.show_font)
        self.structure_panel.objectWanted.connect(
            lambda objgen: self.objects.show_link("object", objgen)
        )
        self.compare_panel.pageChosen.connect(window.go_to_page)
        self.compare_panel.documentRequested.connect(self.compare_document)
        self.compare_panel.cancelRequested.connect(self.comparing.cancel)
        self.docks["compare"].visibilityChanged.connect(
            lambda visible: visible and self.compare_page()
        )
        self.search_panel.searchRequested.connect(self.search)
        self.search_panel.hitChosen.connect(self.searching.show_hit)
        self.search_panel.cancelRequested.connect(self.searching.cancel)

    def eventFilter(self, watched, event) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.shutdown()
        return False

    @property
    def png_export(self):
        """The running PNG export of the page, if any."""
        return self.page_exports.get("png")

    def shutdown(self) -> None:
        """End the QA worker process and stop the page exports; safe to call twice."""
        exports = list(self.page_exports.values())
        for export in exports:
            export.cancel()
        # A stopped export's worker removes the files it had written: 2 s for all of them
        # together, not each, so quitting with four exports running waits no longer.
        deadline = time.monotonic() + 2.0
        for export in exports:
            export.wait(max(0.0, deadline - time.monotonic()))
        self.worker.stop(final=self.core.close)
        self._comparer.shutdown(wait=False, cancel_futures=True)

    # -- documents and pages ----------------------------------------------------------------
    def _open_document(self, path: str, _page_count: int) -> None:
        self._analyses.clear()
        self._previous.clear()
        self._defaults.clear()
        self.searching.reset()
        self.comparing.reset()
        self.search_layer.set_groups(())
        self.diff_layer.set_groups(())
        self.worker.submit(JobKind.OPEN, self.core.open, path, self.window.password)
        self.objects.open_document()

    def _clear_panels(self) -> None:
        """Nothing of the previous file stays on screen while the next one loads."""
        self.details = None
        self._operators = {}
        self.changes = None
        self.searching.reset()
        self.provenance.show_glyph(None, None)
        self.content_stream.set_operators([])
        self.fonts_panel.set_fonts(None, None)
        self.structure_panel.set_structure(None, None)
        self.compare_panel.show_page_diff(0, None, "")
        self.compare_panel.clear_document()
        self.rules_panel.show_changes(None)
        self.cos_panel.clear()
        for layer in (self.rule_layer, self.diff_layer, self.search_layer):
            layer.set_groups(())

    def _on_page_changed(self, _index: int) -> None:
        self.details = None
        self._operators = {}
        for layer in (self.rule_layer, self.diff_layer):
            layer.set_groups(())
        self.compare_panel.show_page_diff(0, None, "")

    def _on_analysis(self, index: int, model) -> None:
        analysis = model.analysis
        shown = self._analyses.get(index)
        if shown is not None and shown.rules != analysis.rules:
            self._previous.put(index, shown)
        self._analyses.put(index, analysis)
        if analysis.rules == Rules():
            self._defaults.put(index, analysis)
        window = self.window
        window.analysis_worker.submit(
            JobKind.QA_DETAILS, page_details, window.core, index, analysis.rules
        )
        self._show_rule_changes()
        self.searching.on_analysis(index)
        if _showing(self.docks["compare"]):
            self.compare_page()
        self.mark_panes()

    def _on_selection(self, indices: tuple, source: str) -> None:
        model = self.window.model
        current = indices[0] if indices else None
        fonts = self.details.fonts if self.details else None
        self.provenance.show_glyph(model, current, self._operators, fonts)
        if model is not None and source != "content-stream":
            glyphs = [model.glyphs[i] for i in indices if 0 <= i < model.count]
            self.content_stream.show_glyphs(glyphs, glyphs[0] if glyphs else None)

    def select(self, glyphs, source: str) -> None:
        self.window.selection.set(tuple(glyphs), source)

    def select_operator(self, form_path: str, index: int) -> None:
        """The glyphs one showing operator painted (Glyph.form_path, Glyph.operator_index)."""
        model = self.window.model
        if model is None:
            return
        glyphs = [
            i
            for i, g in enumerate(model.glyphs)
            if g.operator_index == index and g.form_path == form_path
        ]
        self.select(glyphs, "content-stream")
        row = self.content_stream.row_of(form_path, index)
        if row is not None:
            self.content_stream.model.set_marks({row}, set())

    # -- job results ------------------------------------------------------------------------
    def _on_job(self, kind: str, generation: int, result: object) -> None:
        if not self.worker.is_latest(kind, generation):
            return
        if kind.startswith("cos-"):
            self.objects.on_job(kind, result)
            return
        handler = {
            JobKind.DEFAULTS: self._on_default_analysis,
            JobKind.SEARCH: self.searching.on_batch,
            JobKind.COMPARE_PAGE: self.comparing.on_page_diff,
            JobKind.COMPARE_DOCUMENT: self.comparing.on_document_batch,
            JobKind.SINGLE_PAGE: self._on_single_page,
        }.get(kind)
        if handler is not None:
            handler(result)

    def _on_render_job(self, kind: str, generation: int, result: object) -> None:
        if not kind.startswith("qa-") or not self.window.render_worker.is_latest(kind, generation):
            return
        if kind == JobKind.QA_PDFIUM_PAGE:
            self.comparing.on_pdfium_page(result)
        elif kind == JobKind.QA_PDFIUM_BATCH:
            self.comparing.on_pdfium_batch(result)

    def _on_analysis_worker_job(self, kind: str, generation: int, result: object) -> None:
        if kind == JobKind.QA_DETAILS and self.window.analysis_worker.is_latest(kind, generation):
            self._on_details(result)

    def _on_details(self, details: PageDetails | JobFailure) -> None:
        model = self.window.model
        if (
            isinstance(details, JobFailure)
            or model is None
            or details.page_index != model.page_index
        ):
            if isinstance(details, JobFailure):
                self.content_stream.status.setText(f"Operators unavailable: {details.message}")
            return
        self.details = details
        self._operators = operator_lookup(details.operators)
        self.content_stream.set_operators(details.operators)
        self.fonts_panel.set_fonts(model, details.fonts)
        reason = model.panes["structure"].note if "structure" in model.panes else ""
        self.structure_panel.set_structure(details.structure_root, model, reason)
        self._on_selection(self.window.selection.indices, "details")
        self.detailsShown.emit(details.page_index)

    # -- rules ------------------------------------------------------------------------------
    def apply_rules(self, rules: Rules) -> None:
        """Re-analyse the current page with `rules` (on the window's analysis thread)."""
        if rules != self.window.rules:
            self.window.set_rules(rules)

    def _on_rules_changed(self, rules: Rules) -> None:
        # Rules set from elsewhere (a script, --rules, a test) show in the panel; the panel's
        # own edits come back here equal to what it shows.
        if rules != self.rules_panel.rules() and not self.rules_panel.editing:
            self.rules_panel.set_rules(rules)

    def _baseline(self, index: int):
        if self.rules_panel.compare.currentText() == COMPARE_DEFAULTS:
            return self._defaults.get(index), "the spec's rules"
        return self._previous.get(index), "the previous rules"

    def _show_rule_changes(self) -> None:
        model = self.window.model
        if model is None:
            return
        after = model.analysis
        before, label = self._baseline(model.page_index)
        self._compare_token = None  # a comparison still running is for what was shown before
        if before is None and self.rules_panel.compare.currentText() == COMPARE_DEFAULTS:
            self.rules_panel.show_changes(None, model, label)
            self.worker.submit(JobKind.DEFAULTS, self.core.analyse_defaults, model.page_index)
            return
        if before is None:
            self._show_comparison(None, model, label)
        elif model.count <= SYNC_COMPARE_GLYPHS:
            self._show_comparison(compare(before, after), model, label)
        else:
            # A dense page's comparison walks tens of thousands of decisions: on the
            # comparison thread, the GUI thread gets the interpreter every few milliseconds.
            token = self._compare_token = object()

            def deliver(done) -> None:  # on the comparison thread
                if not done.cancelled() and shiboken6.isValid(self):
                    self._compared.emit(token, (done, model, label))

            self._comparer.submit(compare, before, after).add_done_callback(deliver)

    def _on_compared(self, token: object, outcome) -> None:
        done, model, label = outcome
        if token is not self._compare_token or model is not self.window.model:
            return  # the page, its rules or the comparison mode changed meanwhile
        if done.exception() is not None:
            log.error("rule comparison failed", exc_info=done.exception())
            self._compare_token = None
            self.rules_panel.summary.setText(f"No comparison: {done.exception()}")
            return
        self._show_comparison(done.result(), model, label)

    def _show_comparison(self, comparison: RuleComparison | None, model, label: str) -> None:
        self._compare_token = None
        self.changes = comparison.changes if comparison is not None else None
        self.rules_panel.show_changes(comparison, model, label)
        colours = dict(RULE_CHANGE_COLOURS)
        groups = []
        if self.changes is not None and self.changes.comparable:
            groups = [
                MarkedGroup(category, colours[category], glyphs)
                for category, glyphs in self.changes.categories()
                if glyphs
            ]
        self.rule_layer.set_groups(groups)
        self.mark_panes()
        if self.changes is not None:
            self.ruleChangesShown.emit(self.changes)

    def _on_default_analysis(self, result) -> None:
        index, analysis = result
        if isinstance(analysis, JobFailure):
            self.rules_panel.summary.setText(f"No comparison: {analysis.message}")
            return
        self._defaults.put(index, analysis)
        self._show_rule_changes()

    def mark_panes(self) -> None:
        """Mark in the text panes the glyphs each visible QA layer marks on the page."""
        for layer in (self.rule_layer, self.diff_layer, self.search_layer):
            groups = [(g.glyphs, g.color) for g in layer.groups] if layer.isVisible() else ()
            self.window.text_panes.set_marks(layer.layer_id, groups)

    # -- search and compare (inspector/qa/search.py, inspector/qa/compare.py) ---------------
    def search(self, query, case_sensitive: bool = False) -> None:
        """Search every page's reading-order text (off the GUI thread); `query` is a string
        or a glyphscope.core.qa.search.SearchQuery."""
        self.searching.search(query, case_sensitive)

    def focus_search(self) -> None:
        dock = self.docks["search"]
        dock.show()
        dock.raise_()
        self.search_panel.focus_query()

    def compare_page(self) -> None:
        """pdfium's text of the current page (render thread), then the word diff (QA thread)."""
        self.comparing.compare_page()

    def compare_document(self) -> None:
        """Rank every page by how much our reading order and pdfium's text disagree."""
        self.comparing.compare_document()

    # -- regression cases -------------------------------------------------------------------
    def save_regression_case(self, root: str, name: str) -> None:
        """Write the current page as a regression case under `root` (see core.qa.regression);
        `regressionCaseSaved` fires when it is written."""
        if self.window.model is None:
            return
        source = Path(self.window.path or "").name
        self.worker.submit(
            JobKind.SINGLE_PAGE,
            save_regression_case,
            self.core,
            self.window.page_index,
            self.window.rules,
            (root, name),
            source,
        )

    def _on_single_page(self, outcome) -> None:
        report_regression_case(self, outcome)


def _showing(dock) -> bool:
    """The dock is on screen: shown, and the current tab when tabbed with others."""
    return dock.isVisible() and not dock.widget().visibleRegion().isEmpty()


def install_qa_features(window: MainWindow) -> None:
    """Add the QA panels, layers, menu and shortcuts to a MainWindow. The owner is a child
    of the window (`qa_features_of(window)` finds it)."""
    QaFeatures(window)


def qa_features_of(window: MainWindow) -> QaFeatures | None:
    return window.findChild(QaFeatures)
