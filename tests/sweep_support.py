"""Built PDFs and helpers shared by the sweep tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.pdfbuilder import Encrypt, PdfBuilder

# Helvetica 10: box height 10, so a 1.4 gap is a word space at space_gap_ratio 0.12 (1.2)
# and none at the default 0.15 (1.5): "onetwo" becomes "one two".
GAP_PAGE = b"BT /F1 10 Tf 72 720 Td [(one) -140 (two)] TJ ET"
PLAIN_PAGE = b"BT /F1 10 Tf 72 720 Td (plain words) Tj ET"


def write_pdf(path: Path, *pages: bytes, encrypt: Encrypt | None = None) -> Path:
    builder = PdfBuilder()
    helvetica = builder.standard_font("Helvetica")
    for content in pages:
        builder.add_page(content, fonts={"F1": helvetica})
    if encrypt is None:
        path.write_bytes(builder.to_bytes())
    else:
        builder.save(path, encrypt=encrypt)
    return path


def rows(database: Path, sql: str, *parameters) -> list[sqlite3.Row]:
    connection = sqlite3.connect(database)
    connection.row_factory = sqlite3.Row
    try:
        return connection.execute(sql, parameters).fetchall()
    finally:
        connection.close()


def outcomes(database: Path) -> dict[str, str]:
    """File name → outcome of every recorded document."""
    return {
        Path(row["path"]).name: row["outcome"]
        for row in rows(database, "SELECT path, outcome FROM documents")
    }
