"""The engine's output on a corpus sample equals the stored reference, exactly.

tests/reference/corpus/ holds, for about forty corpus files chosen to cover producers, font
kinds (Type 0/CID, Type 3, TeX, CJK, vertical, right-to-left), forms, tagged structure and
rotated pages, plus two dense pages of each of issue 9's benchmark files, what the engine
before the columnar rewrite produced: every glyph field, the decision log (visible set,
dropped records, texts of every mode with their char_glyphs, …) and the text of the four CLI
modes (tests/reference/regenerate.py says what and how). A change that must not alter output
keeps this test passing; a change that alters it on purpose regenerates the reference with
the new engine and says why in its commit.

Comparison is exact: same keys, same lengths, same JSON types, floats equal by repr (so 0.0
and -0.0 differ and NaN equals NaN). A difference names the file, page, field and the first
differing value.
"""

from __future__ import annotations

import pytest

from tests.corpus import CORPUS, corpus_files
from tests.reference.regenerate import REFERENCE, SAMPLE, document_record, read_reference

STORED = sorted(REFERENCE.glob("*.json.xz"))


def first_difference(expected: object, actual: object, path: str = "") -> str | None:
    """Where two JSON values first differ ("analysis.glyphs[12].origin[0]: 1.5 != 1.25"), or
    None when they are equal."""
    if type(expected) is not type(actual):
        return f"{path}: {expected!r} != {actual!r} (type {type(actual).__name__})"
    if isinstance(expected, dict):
        assert isinstance(actual, dict)
        if list(expected) != list(actual):
            missing = [key for key in expected if key not in actual]
            extra = [key for key in actual if key not in expected]
            detail = f"missing {missing}, extra {extra}" if missing or extra else "key order"
            return f"{path}: keys differ ({detail})"
        for key, value in expected.items():
            found = first_difference(value, actual[key], f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    if isinstance(expected, list):
        assert isinstance(actual, list)
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items expected, {len(actual)} found"
        return None
    if repr(expected) != repr(actual):
        return f"{path}: {expected!r} != {actual!r}"
    return None


def test_the_sample_and_the_stored_reference_agree():
    assert [path.name for path in STORED] == sorted(f"{name}.json.xz" for name in SAMPLE)


def test_first_difference_names_the_field_and_the_value():
    expected = {"glyphs": [{"origin": [1.0, 2.0]}], "text": "ab"}
    assert first_difference(expected, {"glyphs": [{"origin": [1.0, 2.5]}], "text": "ab"}) == (
        "glyphs[0].origin[1]: 2.0 != 2.5"
    )
    assert first_difference([0.0], [-0.0]) == "[0]: 0.0 != -0.0"
    assert first_difference([1], [1.0]) == "[0]: 1 != 1.0 (type float)"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "a: 1 items expected, 2 found"
    assert first_difference([float("nan")], [float("nan")]) is None


@pytest.mark.skipif(not (CORPUS / "index.csv").exists(), reason="../shared/corpus is absent")
@pytest.mark.parametrize(
    "stored", STORED, ids=[path.name.removesuffix(".json.xz") for path in STORED]
)
def test_engine_output_equals_the_stored_reference(stored):
    reference = read_reference(stored)
    corpus_file = {f.name: f for f in corpus_files()}[reference["file"]]
    pages = tuple(int(number) for number in reference.get("pages", {})) or None
    actual = document_record(corpus_file.path, corpus_file.password, pages)
    expected = {key: value for key, value in reference.items() if key not in ("file", "engine")}
    if "document_error" in expected or "document_error" in actual:
        assert actual == expected, reference["file"]
        return
    for number, page in expected["pages"].items():
        difference = first_difference(page, actual["pages"][number])
        assert difference is None, f"{reference['file']} page {number}: {difference}"
