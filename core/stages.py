"""The guard every stage beyond the interpreter runs under (issue 26: no stage may lose a page).

The interpreter and the spec's own stages (§4 box, §5 duplicates, §6 reading order) make a
page's text; the stages after them (hidden text, replacement text and accents, bidi, the
layout grid, columns, structure order, the decision log, annotation appearances) refine it.
A failure in one of those is a fault of the engine or of an input it did not foresee, never a
reason to lose the page: the page keeps the text the stage before produced (the `fallback`),
and its warnings say which stage failed and with what.

    reading = guarded("bidi", warnings, with_bidi, without_bidi)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from glyphscope.core.rules import Rules

_Result = TypeVar("_Result")


def stage_warning(stage: str, error: BaseException) -> str:
    """The page warning for a stage that failed: the stage and the exception."""
    return f"{stage} failed: {type(error).__name__}: {error}"


def guarded(
    stage: str,
    warnings: list[str],
    run: Callable[[], _Result],
    fallback: Callable[[], _Result],
) -> _Result:
    """`run()`, or when it raises, `fallback()` with a warning naming `stage` appended to
    `warnings`. A fallback that raises too is a fault of the stage before, and propagates."""
    try:
        return run()
    except Exception as error:  # any fault of a refining stage: the page keeps its text
        warnings.append(stage_warning(stage, error))
    return fallback()


def without_bidi(rules: Rules) -> Rules:
    """The rules with right-to-left reordering off: the text a failed bidi stage leaves."""
    return rules.with_values(bidi_reorder=False) if rules.bidi_reorder else rules
