"""What a sweep reads: files as given, folders searched recursively, `-` for paths on stdin."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

DEFAULT_GLOB = "*.pdf"


class Discovery(NamedTuple):
    paths: list[Path]
    missing: list[str]  # sources that are neither a file nor a folder


def discover(
    sources: Sequence[str], pattern: str = DEFAULT_GLOB, stdin: TextIO | None = None
) -> Discovery:
    """Every file the sources name, each once, in the order given (folders sorted by path).

    A file named directly is read whatever its name; inside a folder only names matching
    `pattern` (case-insensitive for the default `*.pdf`, since `.PDF` is common).
    """
    paths: dict[Path, None] = {}
    missing: list[str] = []
    for source in _expand_stdin(sources, stdin or sys.stdin):
        path = Path(source).expanduser()
        if path.is_file():
            paths.setdefault(path.resolve(), None)
        elif path.is_dir():
            for found in sorted(_matching(path, pattern)):
                paths.setdefault(found.resolve(), None)
        else:
            missing.append(source)
    return Discovery(list(paths), missing)


def _expand_stdin(sources: Iterable[str], stdin: TextIO) -> Iterable[str]:
    for source in sources:
        if source == "-":
            yield from (line.strip() for line in stdin if line.strip())
        else:
            yield source


def _matching(folder: Path, pattern: str) -> Iterable[Path]:
    if pattern == DEFAULT_GLOB:
        return (p for p in folder.rglob("*") if p.suffix.lower() == ".pdf" and p.is_file())
    return (p for p in folder.rglob(pattern) if p.is_file())


def file_digest(path: Path) -> tuple[int, str]:
    """(size in bytes, sha256 hex) of a file."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def read_passwords(path: str | Path) -> tuple[str, ...]:
    """--password-file: one password a line, tried in order on encrypted documents."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return tuple(line for line in lines if line)
