"""Which pages to look at first: a suspicion score per page, its reasons, and the inspector
layers that show them. Shared by the HTML report and the inspector's Corpus panel.

The score adds one term per kind of trouble, each at most 1, so a page scores high by having
several troubles or one in full: unresolved glyphs (10 or more count fully), disagreement with
pdfium (1 − word F1), duplicates and off-box drops (a fifth of the painted glyphs or more), a
truncated page (a resource limit cut it short), untrusted structure (0.5).
"""

from __future__ import annotations

import shlex
import sqlite3
from dataclasses import dataclass

SUSPICION = """(
    MIN(1.0, p.unresolved / 10.0)
    + COALESCE(1.0 - p.pdfium_f1, 0.0)
    + MIN(1.0, 5.0 * p.dropped_duplicates / MAX(p.glyphs, 1))
    + MIN(1.0, 5.0 * p.dropped_off_box / MAX(p.glyphs, 1))
    + p.truncated
    + CASE WHEN p.structure_trusted = 0 THEN 0.5 ELSE 0.0 END
)"""


@dataclass(frozen=True, slots=True)
class RankedPage:
    document_id: int
    path: str
    producer: str
    page: int
    suspicion: float
    glyphs: int
    unresolved: int
    unresolved_fonts: str
    pdfium_f1: float | None
    dropped_duplicates: int
    dropped_off_box: int
    truncated: bool
    structure_trusted: bool | None
    untagged: int
    changed: bool | None
    words_changed: int | None

    def reasons(self) -> list[str]:
        reasons = []
        if self.unresolved:
            reasons.append(f"{self.unresolved} unresolved ({self.unresolved_fonts})")
        if self.pdfium_f1 is not None and self.pdfium_f1 < 0.999:
            reasons.append(f"pdfium F1 {self.pdfium_f1:.2f}")
        if self.dropped_duplicates:
            reasons.append(f"{self.dropped_duplicates} duplicates dropped")
        if self.dropped_off_box:
            reasons.append(f"{self.dropped_off_box} off-box dropped")
        if self.truncated:
            reasons.append("truncated")
        if self.structure_trusted is False:
            reasons.append(f"structure untrusted ({self.untagged} untagged)")
        if self.changed:
            reasons.append(f"{self.words_changed} words changed")
        return reasons

    def layers(self) -> list[str]:
        """Inspector layers (widgets.overlay_layers / qa_layers ids) that explain the row."""
        layers = ["glyphs"]
        if self.unresolved:
            layers.append("unresolved")
        if self.pdfium_f1 is not None and self.pdfium_f1 < 0.999:
            layers.append("pdfium_diff")
        if self.dropped_duplicates:
            layers.append("duplicates")
        if self.dropped_off_box:
            layers += ["dropped_outside", "boxes"]
        if self.structure_trusted is not None:
            layers.append("mcid")
        if self.changed:
            layers += ["rule_changes", "gaps", "line_breaks"]
        return layers


def latest_rules_hash(connection: sqlite3.Connection) -> str | None:
    row = connection.execute("SELECT rules_hash FROM runs ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else row[0]


def ranked_pages(
    connection: sqlite3.Connection, rules_hash: str | None = None, limit: int | None = None
) -> list[RankedPage]:
    """Pages of the latest run's rules (or `rules_hash`), most suspicious first."""
    rules_hash = rules_hash or latest_rules_hash(connection)
    rows = connection.execute(
        f"""SELECT d.id, d.path, d.producer, p.page, {SUSPICION} AS suspicion, p.glyphs,
            p.unresolved, p.unresolved_fonts, p.pdfium_f1, p.dropped_duplicates,
            p.dropped_off_box, p.truncated, p.structure_trusted, p.untagged, p.changed,
            p.words_changed
        FROM pages p JOIN documents d ON d.id = p.document_id
        WHERE d.rules_hash = ?
        ORDER BY suspicion DESC, COALESCE(p.words_changed, 0) DESC, d.path, p.page
        LIMIT ?""",
        (rules_hash, -1 if limit is None else limit),
    )
    return [
        RankedPage(
            document_id=row[0],
            path=row[1],
            producer=row[2],
            page=row[3],
            suspicion=round(row[4], 3),
            glyphs=row[5],
            unresolved=row[6],
            unresolved_fonts=", ".join(_json_list(row[7])),
            pdfium_f1=row[8],
            dropped_duplicates=row[9],
            dropped_off_box=row[10],
            truncated=bool(row[11]),
            structure_trusted=None if row[12] is None else bool(row[12]),
            untagged=row[13],
            changed=None if row[14] is None else bool(row[14]),
            words_changed=row[15],
        )
        for row in rows
    ]


def inspector_command(database: str, path: str, page: int, layers: list[str]) -> str:
    """The command that opens this page in the inspector with the row's layers on (and, from
    the results file, both rule sets of a --compare run)."""
    return shlex.join(
        ["glyphscope", path, "--page", str(page), "--layers", ",".join(layers), "--sweep", database]
    )


def _json_list(text: str) -> list[str]:
    import json

    return json.loads(text) if text else []
