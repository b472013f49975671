"""What a running sweep tells the person waiting: a bar on a terminal, plain lines otherwise,
and a summary at the end."""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

from glyphscope.sweep.jobs import OK, OUTCOMES, DocumentResult

BAR_WIDTH = 24


@dataclass
class Tally:
    total: int
    skipped: int = 0
    documents: int = 0
    pages: int = 0
    outcomes: Counter = field(default_factory=Counter)
    started: float = field(default_factory=time.perf_counter)
    writer_seconds: float = 0.0

    @property
    def failures(self) -> int:
        return self.documents - self.outcomes[OK]

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def pages_per_second(self) -> float:
        return self.pages / self.elapsed if self.elapsed > 0 else 0.0

    def seconds_left(self) -> float | None:
        remaining = self.total - self.skipped - self.documents
        if not self.documents:
            return None
        return remaining * self.elapsed / self.documents


class Progress:
    """Reports a Tally: redrawn in place on a TTY, one line every `interval` seconds otherwise."""

    def __init__(
        self, tally: Tally, stream: TextIO | None = None, interval: float = 10.0, quiet=False
    ) -> None:
        self.tally = tally
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.interval = 0.2 if self.tty else interval
        self.quiet = quiet
        self._last = 0.0

    def document(self, result: DocumentResult) -> None:
        self.tally.documents += 1
        self.tally.pages += len(result.pages)
        self.tally.outcomes[result.outcome] += 1
        tally = self.tally
        self.tick(force=tally.skipped + tally.documents >= tally.total)  # the last one shows

    def tick(self, force: bool = False) -> None:
        now = time.perf_counter()
        if self.quiet or (not force and now - self._last < self.interval):
            return
        self._last = now
        line = self.status_line()
        if self.tty:
            self.stream.write("\r\x1b[2K" + self._bar() + " " + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def status_line(self) -> str:
        tally = self.tally
        left = tally.seconds_left()
        return (
            f"{tally.skipped + tally.documents}/{tally.total} documents · {tally.pages} pages · "
            f"{tally.pages_per_second():.1f} pages/s · {tally.failures} failed · "
            f"{'?' if left is None else _clock(left)} left"
        )

    def finish(self, stopped: bool) -> str:
        tally = self.tally
        if self.tty and not self.quiet:
            self.stream.write("\r\x1b[2K")
        outcomes = ", ".join(f"{tally.outcomes[o]} {o}" for o in OUTCOMES if tally.outcomes[o])
        writer = tally.writer_seconds / tally.elapsed if tally.elapsed else 0.0
        summary = (
            f"{'stopped' if stopped else 'done'}: {tally.documents} documents read "
            f"({outcomes or 'none'}), {tally.skipped} already done, {tally.pages} pages in "
            f"{_clock(tally.elapsed)} ({tally.pages_per_second():.1f} pages/s; "
            f"SQLite writer {writer:.1%} of the time)"
        )
        if not self.quiet:
            self.stream.write(summary + "\n")
            self.stream.flush()
        return summary

    def _bar(self) -> str:
        tally = self.tally
        share = (tally.skipped + tally.documents) / tally.total if tally.total else 1.0
        filled = round(share * BAR_WIDTH)
        return "[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]"


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
