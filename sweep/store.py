"""The results file: SQLite, one writer (the sweep's main process), WAL so readers never block it.

Schema version 1 (documented in the README, "Sweep results"). Texts are stored as zlib-compressed
UTF-8 JSON objects of mode → text (`pack_texts` / `unpack_texts`); lists and counters as JSON.
A document is done when a row exists for its path with the same sha256, rules hash and engine
version: a resumed sweep skips it, a changed file or new rules read it again.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from datetime import datetime, timezone
from pathlib import Path

from glyphscope.sweep.compare import CHANGE_KINDS
from glyphscope.sweep.jobs import DocumentResult, PageResult, SweepSettings

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    stopped INTEGER NOT NULL DEFAULT 0,
    engine_version TEXT NOT NULL,
    rules_hash TEXT NOT NULL,
    rules TEXT NOT NULL,
    compare_rules TEXT,
    modes TEXT NOT NULL,
    pdfium INTEGER NOT NULL,
    command TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    rules_hash TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    page_count INTEGER NOT NULL,
    producer TEXT NOT NULL,
    tagged INTEGER NOT NULL,
    encrypted INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    error TEXT NOT NULL,
    seconds REAL NOT NULL,
    UNIQUE (path, rules_hash, engine_version)
);
CREATE TABLE IF NOT EXISTS pages (
    document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    page INTEGER NOT NULL,
    glyphs INTEGER NOT NULL,
    visible INTEGER NOT NULL,
    dropped_off_box INTEGER NOT NULL,
    dropped_duplicates INTEGER NOT NULL,
    unresolved INTEGER NOT NULL,
    unresolved_fonts TEXT NOT NULL,
    decode_sources TEXT NOT NULL,
    truncated INTEGER NOT NULL,
    warnings TEXT NOT NULL,
    warning_count INTEGER NOT NULL,
    structure_trusted INTEGER,
    untagged INTEGER NOT NULL,
    structure_total INTEGER NOT NULL,
    pdfium_f1 REAL,
    pdfium_words INTEGER,
    crop_box TEXT NOT NULL,
    rotate INTEGER NOT NULL,
    marks BLOB NOT NULL,
    texts BLOB NOT NULL,
    compare_texts BLOB,
    spaces_gained INTEGER,
    spaces_lost INTEGER,
    lines_split INTEGER,
    lines_joined INTEGER,
    glyphs_newly_dropped INTEGER,
    glyphs_newly_kept INTEGER,
    comparable INTEGER,
    words_changed INTEGER,
    changed INTEGER,
    PRIMARY KEY (document_id, page)
);
"""

PAGE_COLUMNS = (
    "document_id",
    "page",
    "glyphs",
    "visible",
    "dropped_off_box",
    "dropped_duplicates",
    "unresolved",
    "unresolved_fonts",
    "decode_sources",
    "truncated",
    "warnings",
    "warning_count",
    "structure_trusted",
    "untagged",
    "structure_total",
    "pdfium_f1",
    "pdfium_words",
    "crop_box",
    "rotate",
    "marks",
    "texts",
    "compare_texts",
    *CHANGE_KINDS,
    "comparable",
    "words_changed",
    "changed",
)


class SchemaError(Exception):
    """A results file written by another schema version (or not a results file)."""


def pack_texts(texts: dict[str, str]) -> bytes:
    return zlib.compress(json.dumps(texts, ensure_ascii=False).encode("utf-8"), 6)


def unpack_texts(blob: bytes | None) -> dict[str, str]:
    return {} if blob is None else json.loads(zlib.decompress(blob).decode("utf-8"))


def unpack_marks(blob: bytes) -> list[list]:
    return json.loads(zlib.decompress(blob).decode("utf-8"))


def connect(path: str | Path, *, create: bool = False) -> sqlite3.Connection:
    """Open a results file (creating the schema when `create`), checking its version."""
    if not create and not Path(path).is_file():
        raise SchemaError(f"{path}: no such results file")
    connection = sqlite3.connect(str(path), timeout=30)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    try:
        version = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'")
        row = version.fetchone()
    except sqlite3.DatabaseError as exc:
        if not create or "no such table" not in str(exc):
            connection.close()
            raise SchemaError(f"{path} is not a glyphscope-sweep results file: {exc}") from None
        row = None
    if row is None:
        if not create:
            connection.close()
            raise SchemaError(f"{path} has no glyphscope-sweep schema")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.executescript(SCHEMA)
        connection.execute(
            "INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
        )
        connection.commit()
    elif int(row[0]) != SCHEMA_VERSION:
        connection.close()
        raise SchemaError(
            f"{path} has results schema {row[0]}; this glyphscope-sweep reads {SCHEMA_VERSION}"
        )
    return connection


class ResultStore:
    """The sweep's one writer. Each document is one transaction: all its pages or none."""

    def __init__(self, path: str | Path) -> None:
        self.connection = connect(path, create=True)
        # WAL without a sync per commit: a power cut may lose the last documents, never
        # corrupt the file, and a resumed sweep redoes whatever was lost.
        self.connection.execute("PRAGMA synchronous = NORMAL")

    def start_run(self, settings: SweepSettings, engine_version: str, command: str) -> int:
        cursor = self.connection.execute(
            "INSERT INTO runs (started, engine_version, rules_hash, rules, compare_rules, "
            "modes, pdfium, command) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _now(),
                engine_version,
                settings.digest(),
                settings.rules,
                settings.compare,
                ",".join(settings.modes),
                int(settings.pdfium),
                command,
            ),
        )
        self.connection.commit()
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def finish_run(self, run_id: int, *, stopped: bool) -> None:
        self.connection.execute(
            "UPDATE runs SET finished = ?, stopped = ? WHERE id = ?", (_now(), int(stopped), run_id)
        )
        self.connection.commit()

    def done(
        self, rules_hash: str, engine_version: str, retry: tuple[str, ...] = ()
    ) -> set[tuple[str, str]]:
        """(path, sha256) of every document already read with these rules by this engine,
        less those whose outcome is one of `retry`."""
        rows = self.connection.execute(
            "SELECT path, sha256, outcome FROM documents"
            " WHERE rules_hash = ? AND engine_version = ?",
            (rules_hash, engine_version),
        )
        return {(row[0], row[1]) for row in rows if row[2] not in retry}

    def record(
        self,
        run_id: int,
        path: str,
        size: int,
        sha256: str,
        rules_hash: str,
        engine_version: str,
        result: DocumentResult,
    ) -> None:
        with self.connection:
            self.connection.execute(
                "DELETE FROM documents WHERE path = ? AND rules_hash = ? AND engine_version = ?",
                (path, rules_hash, engine_version),
            )
            cursor = self.connection.execute(
                "INSERT INTO documents (run_id, path, size, sha256, rules_hash, engine_version,"
                " page_count, producer, tagged, encrypted, outcome, error, seconds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    path,
                    size,
                    sha256,
                    rules_hash,
                    engine_version,
                    result.page_count,
                    result.producer,
                    int(result.tagged),
                    int(result.encrypted),
                    result.outcome,
                    result.error,
                    result.seconds,
                ),
            )
            document_id = cursor.lastrowid
            assert document_id is not None
            placeholders = ", ".join("?" for _ in PAGE_COLUMNS)
            self.connection.executemany(
                f"INSERT INTO pages ({', '.join(PAGE_COLUMNS)}) VALUES ({placeholders})",
                [_page_row(document_id, page) for page in result.pages],
            )

    def close(self) -> None:
        self.connection.close()


def _page_row(document_id: int, page: PageResult) -> tuple:
    compared = bool(page.changes)
    changes = [page.changes.get(kind) if compared else None for kind in CHANGE_KINDS]
    changed = None
    if compared:
        changed = int(page.words_changed > 0 or any(changes) or not page.changes["comparable"])
    return (
        document_id,
        page.page,
        page.glyphs,
        page.visible,
        page.dropped_off_box,
        page.dropped_duplicates,
        page.unresolved,
        json.dumps(list(page.unresolved_fonts)),
        json.dumps(page.decode_sources, sort_keys=True),
        int(page.truncated),
        json.dumps(list(page.warnings), ensure_ascii=False),
        len(page.warnings),
        None if page.structure_trusted is None else int(page.structure_trusted),
        page.untagged,
        page.structure_total,
        page.pdfium_f1,
        page.pdfium_words,
        json.dumps(list(page.crop_box)),
        page.rotate,
        zlib.compress(json.dumps([list(mark) for mark in page.marks]).encode("utf-8")),
        pack_texts(page.texts),
        pack_texts(page.compare_texts) if compared else None,
        *changes,
        page.changes.get("comparable") if compared else None,
        page.words_changed if compared else None,
        changed,
    )


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
