"""Agreement with pdfium: word F1 of our reading order against pypdfium2's text of the page.

Words are compared as a multiset after the same folding the inspector's pdfium diff uses
(`glyphscope.core.qa.diffing`: NFKC, pdfium's control characters removed), so order and
white space do not count and a word either side lacks costs once.
"""

from __future__ import annotations

from collections import Counter

from glyphscope.core.qa.diffing import clean_pdfium_text, comparison_key, words


def word_counts(text: str) -> Counter[str]:
    return Counter(comparison_key(word.text) for word in words(text))


def word_f1(ours: str, theirs: str) -> tuple[float, int]:
    """(F1, pdfium's word count); two texts without words agree fully."""
    mine = word_counts(ours)
    other = word_counts(clean_pdfium_text(theirs))
    total_mine, total_other = sum(mine.values()), sum(other.values())
    if not total_mine and not total_other:
        return 1.0, 0
    common = sum((mine & other).values())
    return 2 * common / (total_mine + total_other), total_other


def pdfium_page_texts(source: str | bytes, password: str | None) -> list[str] | None:
    """pdfium's text of every page, or None when pdfium cannot open the file."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(source, password=password or None)
    except pdfium.PdfiumError:
        return None
    try:
        texts = []
        for index in range(len(document)):
            page = document[index]
            try:
                text_page = page.get_textpage()
                try:
                    texts.append(text_page.get_text_range())
                finally:
                    text_page.close()
            finally:
                page.close()
        return texts
    finally:
        document.close()
