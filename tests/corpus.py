"""The real-world corpus in ../shared/corpus: its index rows, passwords and reference texts."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"


@dataclass(frozen=True, slots=True)
class CorpusFile:
    path: Path
    row: dict[str, str]

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def password(self) -> str | None:
        return self.row.get("password") or None

    @property
    def reference_text(self) -> str | None:
        ref = CORPUS / "refs" / f"{self.path.name}.pdftotext.txt"
        return ref.read_text(encoding="utf-8", errors="replace") if ref.exists() else None

    def flag(self, column: str) -> bool:
        return self.row.get(column) == "1"


def corpus_files() -> list[CorpusFile]:
    """Every indexed corpus PDF; empty when ../shared is absent."""
    index = CORPUS / "index.csv"
    if not index.exists():
        return []
    with index.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [
        CorpusFile(CORPUS / row["file"], row) for row in rows if (CORPUS / row["file"]).exists()
    ]
