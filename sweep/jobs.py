"""What one document asks of a worker and what the worker answers: plain, picklable records.

A job carries the rules as JSON so it crosses process and machine boundaries unchanged; a
result carries only numbers, short strings and texts, never engine objects.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import glyphscope

# Outcomes of one document (the `documents.outcome` column).
OK = "ok"
ERROR = "error"  # a typed error of glyphscope.errors: not a PDF, damaged, wrong password…
TIMEOUT = "timeout"
MEMORY = "memory"
CRASH = "crash"  # the worker process died: a signal (segfault, abort) or an exit
OUTCOMES = (OK, ERROR, TIMEOUT, MEMORY, CRASH)

MODES = ("reading", "layout", "columns", "structure")


@dataclass(frozen=True, slots=True)
class SweepSettings:
    """Everything that decides a document's result besides its bytes and the engine."""

    rules: str  # Rules.to_json() of the rule set every page is read with
    compare: str | None = None  # the second rule set, under --compare
    modes: tuple[str, ...] = MODES
    pdfium: bool = True  # word agreement with pypdfium2's text

    def digest(self) -> str:
        """The rules hash a resumed sweep matches on (with sha256 and engine version)."""
        canonical = json.dumps(
            {
                "rules": json.loads(self.rules),
                "compare": None if self.compare is None else json.loads(self.compare),
                "modes": list(self.modes),
                "pdfium": self.pdfium,
            },
            sort_keys=True,
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def engine_version() -> str:
    return glyphscope.__version__


@dataclass(frozen=True, slots=True)
class DocumentJob:
    path: str
    settings: SweepSettings
    passwords: tuple[str, ...] = ()  # tried in order when the document is encrypted
    data: bytes | None = None  # the file itself when workers cannot read the path (--send-bytes)
    # A test seam: "abort", "segfault", "hang", "memory" or "exit" make the worker misbehave
    # before it opens the document, "kill_dask_worker" the Dask task itself (see
    # isolation.TEST_HOOK_VARIABLE).
    hook: str = ""


@dataclass(frozen=True, slots=True)
class PageResult:
    page: int  # 1-based
    glyphs: int  # every painted glyph, page and forms
    visible: int
    dropped_off_box: int
    dropped_duplicates: int
    unresolved: int
    unresolved_fonts: tuple[str, ...]
    decode_sources: dict[str, int]
    truncated: bool
    warnings: tuple[str, ...]
    structure_trusted: bool | None  # None: no structure order on this page
    untagged: int
    structure_total: int
    texts: dict[str, str]  # mode → text; structure only where the page has a structure order
    crop_box: tuple[float, float, float, float]
    rotate: int
    # Boxes of the glyphs worth marking on a thumbnail: (kind, x0, y0, x1, y1) in user space.
    marks: tuple[tuple[str, float, float, float, float], ...] = ()
    pdfium_f1: float | None = None
    pdfium_words: int | None = None
    compare_texts: dict[str, str] = field(default_factory=dict)
    # Under --compare: RuleChanges counts and the reading-order words that differ.
    changes: dict[str, int] = field(default_factory=dict)
    words_changed: int = 0


@dataclass(frozen=True, slots=True)
class DocumentResult:
    outcome: str
    error: str = ""
    page_count: int = 0
    producer: str = ""
    tagged: bool = False
    encrypted: bool = False
    pages: tuple[PageResult, ...] = ()
    seconds: float = 0.0
