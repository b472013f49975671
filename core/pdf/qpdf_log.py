"""qpdf's log messages as warnings of the result they arose in.

pikepdf forwards qpdf's log to the Python logger "pikepdf". With no handler configured,
Python's last-resort handler prints its warnings on stderr, ahead of (and unrelated to) the
CLI's one-line error. One handler, attached on import, records each message into the
collector active in the current thread or task (a document being opened, a page being
interpreted), so it becomes one of that result's warnings instead.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

# A hostile file can make qpdf complain about every object; a result keeps the first ones.
MAX_MESSAGES = 100

_COLLECTOR: ContextVar[list[str] | None] = ContextVar("glyphscope_qpdf_log", default=None)


class _Collect(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        messages = _COLLECTOR.get()
        if messages is not None and len(messages) < MAX_MESSAGES:
            messages.append(f"qpdf: {record.getMessage()}")


_HANDLER = _Collect(logging.WARNING)
_LOGGER = logging.getLogger("pikepdf")
if not any(isinstance(handler, _Collect) for handler in _LOGGER.handlers):
    _LOGGER.addHandler(_HANDLER)


@contextmanager
def collect_qpdf_messages() -> Iterator[list[str]]:
    """The qpdf messages logged while the block runs (nested blocks collect their own)."""
    messages: list[str] = []
    reset = _COLLECTOR.set(messages)
    try:
        yield messages
    finally:
        _COLLECTOR.reset(reset)
