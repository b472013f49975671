"""The Objects panel (COS browser) of the QA tools: its reading runs on the QA thread, where
the QA Document's pikepdf Pdf lives, and links from Provenance, Fonts and Structure open the
object they name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from glyphscope.core.pdf.cos import CosNode
from glyphscope.inspector.workers.kinds import JobKind
from glyphscope.inspector.workers.qa import JobFailure
from glyphscope.widgets.cos_panel import CosPanel

if TYPE_CHECKING:
    from glyphscope.inspector.qa.features import QaFeatures


class CosController:
    """The object-browser half of glyphscope.inspector.qa.features.QaFeatures (`features`)."""

    def __init__(self, features: QaFeatures, panel: CosPanel) -> None:
        self.features = features
        self.panel = panel
        self._jobs = 0
        panel.childrenWanted.connect(lambda address: self._submit("children", address))
        panel.streamWanted.connect(lambda address: self._submit("stream", address))
        panel.objectWanted.connect(lambda objgen: self.show_link("object", objgen))

    def _submit(self, what: str, *args: object) -> None:
        core = self.features.core
        job = {"children": core.cos_children, "stream": core.cos_stream}[what]
        # A kind of its own per request: two expansions in a row must both be answered.
        self._jobs += 1
        self.features.worker.submit(f"cos-{what}-{self._jobs}", job, *args)

    def open_document(self) -> None:
        self.panel.clear()
        self.features.worker.submit(JobKind.COS_ROOTS, self.features.core.cos_roots)

    def show_link(self, what: str, *args: object) -> None:
        """Open the Objects panel at the object a link names (see QaCore.cos_link)."""
        dock = self.features.docks["objects"]
        dock.show()
        dock.raise_()
        self._jobs += 1
        self.features.worker.submit(
            f"cos-link-{self._jobs}", self.features.core.cos_link, what, *args
        )

    def show_font(self, form_path: str, font_key: str) -> None:
        self.show_link("font", self.features.window.page_index, form_path, font_key)

    def on_job(self, kind: str, result: Any) -> None:  # as the job of `kind` returned it
        panel = self.panel
        if kind == JobKind.COS_ROOTS:
            if isinstance(result, JobFailure):
                panel.stream_note.setText(f"No object tree: {result.message}")
            else:
                panel.set_roots(result)
        elif kind.startswith("cos-children-"):
            panel.add_children(*result)
        elif kind.startswith("cos-stream-"):
            panel.show_stream(*result)
        elif kind.startswith("cos-link-"):
            if isinstance(result, CosNode):
                panel.show_address(result)
                self.features.cosShown.emit(result)
            else:
                panel.stream_note.setText(f"Not found: {result.message}")
