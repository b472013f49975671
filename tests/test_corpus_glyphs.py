"""Every corpus file opens and yields glyphs for every page, or fails with a typed error."""

from __future__ import annotations

import pytest

from glyphscope.core.document import Document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.records import Glyph
from tests.corpus import corpus_files

FILES = corpus_files()


@pytest.mark.skipif(not FILES, reason="../shared/corpus is absent")
@pytest.mark.timeout(120)
@pytest.mark.parametrize("entry", FILES, ids=[f.name for f in FILES])
def test_corpus_file_yields_glyphs_or_a_typed_error(entry):
    try:
        document = Document.open(entry.path, password=entry.password)
    except GlyphscopeError:
        return
    with document:
        for page in document.pages:
            glyphs = page.glyphs()
            assert glyphs is None or all(isinstance(g, Glyph) for g in glyphs)
