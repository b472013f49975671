"""What one glyph contributes to text output: blanks, CJK classes, ligature expansion.

Shared by the reading, layout and columns assemblers so every mode turns a glyph into the
same characters (spec §1: an unresolved glyph becomes a space, never nothing).
"""

from __future__ import annotations

import functools
import unicodedata

from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules

# Latin ligatures of the Alphabetic Presentation Forms block, expanded only in text output
# and only after duplicate removal, so a fake-bold "ﬁ" is still compared as one glyph.
LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",  # LATIN SMALL LIGATURE LONG S T: NFKC folds ſ to s
    "\ufb06": "st",
}

# Ranges whose characters are set without word spaces; justification stretches the gaps
# between them without making word boundaries (spec §6). Inclusive code point ranges.
# Hangul is not among them: Korean separates words with spaces, so a gap between two
# syllables is a word boundary like any other.
CJK_RANGES = (
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3190, 0x31FF),  # Kanbun, Bopomofo Extended, CJK Strokes, Katakana Phonetic Ext.
    (0x3200, 0x33FF),  # Enclosed CJK Letters and Months, CJK Compatibility
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms (vertical punctuation)
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
    (0x20000, 0x3FFFF),  # Supplementary and Tertiary Ideographic Planes
)


def is_blank_char(char: str) -> bool:
    """Spec §5: code points ≤ U+0020, U+00A0 and U+3000 are blank."""
    return char <= " " or char == "\u00a0" or char == "\u3000"


def is_blank_text(text: str) -> bool:
    """A glyph whose text is all blank characters (false for "", the unresolved glyph)."""
    return text != "" and all(is_blank_char(c) for c in text)


def is_whitespace_text(text: str) -> bool:
    """A glyph that already separates words in output: blank, other white space, or
    unresolved (which is written as a space)."""
    if len(text) == 1:  # the common case, without a generator
        return text <= " " or text.isspace()
    return text == "" or all(c <= " " or c.isspace() for c in text)


@functools.lru_cache(maxsize=8192)
def text_classes(text: str) -> tuple[bool, bool, bool, bool]:
    """The classes of a glyph's text that the text stages test, kept per text (a page has
    few distinct texts, and a document repeats them page after page): is_whitespace_text,
    whether its first and its last character are CJK (False for ""), is_blank_text."""
    return (
        is_whitespace_text(text),
        text != "" and is_cjk_char(text[0]),
        text != "" and is_cjk_char(text[-1]),
        is_blank_text(text),
    )


def is_resolved_whitespace_text(text: str) -> bool:
    """A glyph whose own text is white space: is_whitespace_text without the unresolved ""
    (which is written as a space, but is no blank the page painted)."""
    return text != "" and text_classes(text)[0]


def is_cjk_char(char: str) -> bool:
    code = ord(char)
    for low, high in CJK_RANGES:
        if code < low:
            return False
        if code <= high:
            return True
    return False


def expand_ligatures(text: str) -> str:
    if not any("\ufb00" <= c <= "\ufb06" for c in text):
        return text
    return "".join(LIGATURES.get(c, c) for c in text)


def is_arabic_presentation_form(char: str) -> bool:
    return "\ufb50" <= char <= "\ufdff" or "\ufe70" <= char <= "\ufeff"


def fold_presentation_forms(text: str) -> str:
    """Arabic Presentation Forms-A and -B to their base letters (compatibility decomposition
    of those two blocks only, as PDFBox does): search and indexing want the letters, the glyph
    record keeps the decoded shape."""
    if not any(is_arabic_presentation_form(c) for c in text):
        return text
    return "".join(
        unicodedata.normalize("NFKC", c) if is_arabic_presentation_form(c) else c for c in text
    )


# C0 controls mapped by a ToUnicode CMap (tab, CR, NUL…) would break lines or terminals.
_CONTROLS_TO_SPACE = {code: " " for code in range(0x20)}


def glyph_output_text(glyph: Glyph, rules: Rules) -> str:
    """The characters a glyph writes: a space when unresolved (spec §1), C0 controls as
    spaces, ligatures expanded when `rules.expand_ligatures`, Arabic presentation forms folded
    when `rules.fold_presentation_forms`."""
    return output_text(glyph.text, rules)


def output_text(text: str, rules: Rules) -> str:
    """glyph_output_text of a glyph whose text is `text`."""
    if text == "":
        return " "
    if min(text) < " ":
        text = text.translate(_CONTROLS_TO_SPACE)
    if max(text) < "\ufb00":
        return text
    if rules.expand_ligatures:
        text = expand_ligatures(text)
    return fold_presentation_forms(text) if rules.fold_presentation_forms else text
