"""Every error Glyphscope raises on bad input, each a subclass of GlyphscopeError."""

from glyphscope.core.errors import (
    DamagedPdfError,
    GlyphscopeError,
    NotAPdfError,
    PageIndexError,
    PageRangeError,
    PasswordRequiredError,
    RegressionCaseError,
    RuleError,
    TextModeError,
    UnreadableFileError,
    WrongPasswordError,
)

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
