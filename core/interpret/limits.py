"""What cuts interpretation short or skips an operator: shared by the interpreter's Python
loop (interpreter.py) and its compiled twin (_loop.pyx), which imports them from here rather
than from the interpreter that imports it."""

from __future__ import annotations

import pikepdf

# Recoverable failures of one operator: wrong operand count or type, a broken object.
OPERATOR_ERRORS = (ValueError, TypeError, IndexError, KeyError, ArithmeticError, pikepdf.PdfError)


class OperatorBudget(Exception):
    """Raised inside the interpreter when a page exceeds a limit of the rules on operators or
    q nesting (the glyph limit raises runs.GlyphBudget, inside the run that reaches it)."""


def malformed_reason(error: Exception) -> str:
    """Why an operator was skipped, in the warning: an operand read past the end of the
    operands is one missing (ISO 32000-1 §7.8.2: operands precede their operator, and each
    operator takes a fixed number), not Python's wording of the index error."""
    return "too few operands" if isinstance(error, IndexError) else str(error)
