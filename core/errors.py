"""Typed errors raised at the public edge of the engine. Nothing else escapes `core`.

Every one derives from GlyphscopeError; `glyphscope.errors` re-exports this module.
"""

from __future__ import annotations


class GlyphscopeError(Exception):
    """Base class: every error the engine raises on bad input."""


class NotAPdfError(GlyphscopeError):
    """The input is not a PDF file (no %PDF header and nothing qpdf can recover)."""


class DamagedPdfError(GlyphscopeError):
    """The file is a PDF but is damaged beyond what qpdf can repair."""


class PasswordRequiredError(GlyphscopeError):
    """The document is encrypted (§7.6) and no password was given."""


class WrongPasswordError(PasswordRequiredError):
    """A password was given but is neither the user nor the owner password."""


class PageIndexError(GlyphscopeError, IndexError):
    """A page number outside the document."""


class RuleError(GlyphscopeError, ValueError):
    """An unknown rule name or a value of the wrong type."""


class UnreadableFileError(GlyphscopeError):
    """The file could not be read at all (missing, a folder, no permission)."""


class PageRangeError(GlyphscopeError, ValueError):
    """A page range that is not "N", "N-M", "N-", "-M" or a comma list of them, or that names a
    page outside the document."""


class TextModeError(GlyphscopeError, ValueError):
    """A text mode other than the engine's (reading/text, layout, columns, structure)."""


class RegressionCaseError(GlyphscopeError):
    """A folder that is not a complete regression case, or a case that cannot be written."""


__all__ = [
    "DamagedPdfError",
    "GlyphscopeError",
    "NotAPdfError",
    "PageIndexError",
    "PageRangeError",
    "PasswordRequiredError",
    "RegressionCaseError",
    "RuleError",
    "TextModeError",
    "UnreadableFileError",
    "WrongPasswordError",
]
