"""core.fonts.cff reads a CFF program's Top DICT, charset and Encoding as fontTools.cffLib does:
on every CFF program of the corpus, on programs assembled here to reach each table format, and
on mutated and truncated ones (the same result, or the same error)."""

from __future__ import annotations

import io
import json
import struct
from importlib import resources

import pikepdf
import pytest
from fontTools.cffLib import CFFFontSet
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from glyphscope.core.fonts import cff
from glyphscope.core.fonts.encodings import standard_encoding_names
from glyphscope.core.fonts.program import _cff_unicode, _text_by_name
from tests.corpus import corpus_files
from tests.test_encodings import asset_generator
from tests.test_fontprogram import cff_program


def test_stored_cff_data_is_what_its_generator_makes_from_the_installed_fonttools():
    built = asset_generator("build_cff_data").build()
    stored = json.loads(
        resources.files("glyphscope.assets.fonts").joinpath("cff_data.json").read_text("ascii")
    )
    del built["source"], stored["source"]
    assert stored == built


def _fonttools_unicode(data: bytes, simple: bool):
    """The decode step as it read every CFF program through fontTools before core.fonts.cff."""
    fonts = CFFFontSet()
    fonts.decompile(io.BytesIO(data), None)
    top = fonts[fonts.fontNames[0]]
    if hasattr(top, "ROS"):
        return {}, {}, False
    if simple:
        encoding = top.Encoding
        standard = encoding == "StandardEncoding"
        if isinstance(encoding, str):
            encoding = standard_encoding_names() if standard else ()
        present = set(top.charset)
        names = {code: name for code, name in enumerate(encoding) if name in present}
        return _text_by_name(names), {}, standard
    return {}, _text_by_name(dict(enumerate(top.charset))), False


def _outcome(read, data: bytes, simple: bool):
    try:
        return read(data, simple)
    except Exception as error:  # noqa: BLE001 - the error itself is what is compared
        return type(error), str(error)


def _fonttools_top(data: bytes):
    fonts = CFFFontSet()
    fonts.decompile(io.BytesIO(data), None)
    return fonts[fonts.fontNames[0]]


def _attribute(read):
    try:
        return read()
    except Exception as error:  # noqa: BLE001
        return type(error), str(error)


def assert_reads_as_fonttools(data: bytes) -> None:
    for simple in (True, False):
        assert _outcome(_cff_unicode, data, simple) == _outcome(_fonttools_unicode, data, simple)


def assert_top_dict_as_fonttools(data: bytes) -> None:
    """The reader's own values, where it reads the program, are fontTools' (each attribute
    from a fresh read, as the decode step takes it)."""
    try:
        top = cff.read_top_dict(data)
    except cff.Unhandled:
        return
    assert top.cid_keyed == hasattr(_fonttools_top(data), "ROS")
    if top.cid_keyed:
        return
    for mine, theirs in (
        (lambda: top.charset, lambda: list(_fonttools_top(data).charset)),
        (lambda: top.encoding, lambda: _fonttools_top(data).Encoding),
    ):
        outcome = _attribute(mine)
        if isinstance(outcome, tuple) and outcome[0] is cff.Unhandled:
            continue  # the decode step reads this program through fontTools
        assert outcome == _attribute(theirs)


# Programs assembled here, one for each table format the reader handles.


def _index(items: list[bytes], off_size: int = 1) -> bytes:
    if not items:
        return b"\x00\x00"
    offsets = [1]
    for item in items:
        offsets.append(offsets[-1] + len(item))
    while offsets[-1] >= 1 << (8 * off_size):
        off_size += 1
    table = b"".join(offset.to_bytes(off_size, "big") for offset in offsets)
    return struct.pack(">HB", len(items), off_size) + table + b"".join(items)


def _number(value: int) -> bytes:
    return b"\x1d" + struct.pack(">l", value)  # the 5-byte form keeps the DICT's size fixed


def assemble(
    strings: list[str],
    glyphs: int,
    charset: bytes | int | None,
    encoding: bytes | int | None = None,
    prefix: bytes = b"",
    ros: bool = False,
) -> bytes:
    """A CFF: header, Name, Top DICT, String and Global Subr INDEXes, CharStrings (glyphs
    endchar charstrings), then the charset and Encoding tables when given as bytes (an int is
    the operator's predefined value, None leaves the operator out). prefix: more Top DICT data
    first (after ROS, which a CIDFont's Top DICT begins with)."""
    head = b"\x01\x00\x04\x04" + _index([b"GlyphscopeTest"])
    tail = _index([s.encode("latin-1") for s in strings]) + _index([])
    char_strings = _index([b"\x0e"] * glyphs)

    def top_dict(charset_at: int, encoding_at: int, char_strings_at: int) -> bytes:
        data = (_number(391) + _number(392) + _number(0) + b"\x0c\x1e") if ros else b""
        data += prefix
        if charset is not None:
            data += _number(charset if isinstance(charset, int) else charset_at) + b"\x0f"
        if encoding is not None:
            data += _number(encoding if isinstance(encoding, int) else encoding_at) + b"\x10"
        return data + _number(char_strings_at) + b"\x11"

    size = len(_index([top_dict(0, 0, 0)]))
    char_strings_at = len(head) + size + len(tail)
    charset_at = char_strings_at + len(char_strings)
    charset_data = charset if isinstance(charset, bytes) else b""
    encoding_at = charset_at + len(charset_data)
    top = _index([top_dict(charset_at, encoding_at, char_strings_at)])
    encoding_data = encoding if isinstance(encoding, bytes) else b""
    return head + top + tail + char_strings + charset_data + encoding_data


def _sids(*sids: int) -> bytes:
    return b"".join(struct.pack(">H", sid) for sid in sids)


_CUSTOM = ["Glyphscope-a", "Glyphscope-b", "Glyphscope-c", "Adobe", "Identity"]
# A Top DICT of what fonts carry besides: SIDs, a real number, arrays, a delta, a two-number
# operator (Private), an operator Table 9 does not define, and its operands kept for the next.
_PREFIX = (
    _number(393)
    + b"\x00"  # version
    + b"\x1e\x1a\x5f"  # real -1.5
    + b"\x0c\x02"  # ItalicAngle
    + b"\x8b\x8b\x8c\x8d\x05"  # FontBBox 0 0 1 2
    + b"\x8c\x8c\x0c\x17"  # BaseFontBlend (delta)
    + b"\x8c\x8c\x12"  # Private size 1 at 1
    + b"\x8c\x16"  # an undefined operator: 1 stays on the stack
    + b"\x8d\x0e"  # XUID [1, 2]
)

SEEDS = {
    "standard encoding, charset format 0": assemble(_CUSTOM, 4, b"\x00" + _sids(34, 391, 35), 0),
    "charset format 1, Encoding format 0 with supplements": assemble(
        _CUSTOM,
        5,
        b"\x01" + _sids(34) + b"\x00" + _sids(391) + b"\x02",
        b"\x80\x04\x41\x42\x00\x44" + b"\x02\x61" + _sids(392) + b"\x62" + _sids(34),
    ),
    "charset format 2, Encoding format 1 with a supplement": assemble(
        _CUSTOM,
        6,
        b"\x02" + _sids(66, 4),
        b"\x81\x02\x41\x02\x50\x01" + b"\x01\x20" + _sids(391),
        prefix=_PREFIX,
    ),
    "repeated names made unique": assemble(
        _CUSTOM, 6, b"\x00" + _sids(34, 34, 391, 34, 391), b"\x00\x05\x41\x42\x43\x44\x45"
    ),
    "ISOAdobe charset, Expert encoding": assemble([], 4, 0, 1),
    "Expert charset": assemble([], 4, 1),
    "ExpertSubset charset": assemble([], 200, 2),
    "no charset operator": assemble([], 3, None),
    "no charset operator, custom Encoding": assemble([], 3, None, b"\x00\x01\x41"),
    "CID-keyed": assemble(_CUSTOM, 4, b"\x02" + _sids(1, 2), ros=True),
    "fontTools' own": cff_program(),
}


@pytest.mark.parametrize("name", SEEDS)
def test_assembled_programs_read_as_fonttools_reads_them(name):
    data = SEEDS[name]
    assert_reads_as_fonttools(data)
    assert_top_dict_as_fonttools(data)


@pytest.mark.parametrize("name", [n for n in SEEDS if n != "no charset operator"])
def test_assembled_programs_are_read_without_fonttools(name):
    # Each seed but the first lies within what the reader reads itself (the one program with
    # no charset operator and no custom Encoding fails on the charset, as in fontTools).
    top = cff.read_top_dict(SEEDS[name])
    if not top.cid_keyed and "no charset" not in name:
        assert top.charset and top.encoding


def test_charset_format_and_supplement_give_the_names():
    top = cff.read_top_dict(SEEDS["charset format 1, Encoding format 0 with supplements"])
    assert top.charset == [".notdef", "A", "Glyphscope-a", "Glyphscope-b", "Glyphscope-c"]
    encoding = top.encoding
    assert (encoding[0x41], encoding[0x42], encoding[0x44]) == ("A", "Glyphscope-a", "Glyphscope-c")
    assert (encoding[0x61], encoding[0x62]) == ("Glyphscope-b", "A")


def test_a_cff2_or_damaged_header_is_left_to_fonttools():
    data = SEEDS["standard encoding, charset format 0"]
    for damaged in (b"\x02" + data[1:], data[:3], b""):
        with pytest.raises(cff.Unhandled):
            cff.read_top_dict(damaged)
        assert_reads_as_fonttools(damaged)


_MUTATION = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 1 << 16), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, 1 << 16), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 1 << 16), st.integers(0, 255)),
    st.tuples(st.just("delete"), st.integers(0, 1 << 16), st.just(0)),
)


def _mutated(data: bytes, mutations: list[tuple[str, int, int]]) -> bytes:
    buffer = bytearray(data)
    for kind, at, value in mutations:
        at = at % (len(buffer) + 1)
        if kind == "set" and at < len(buffer):
            buffer[at] = value
        elif kind == "cut":
            del buffer[at:]
        elif kind == "insert":
            buffer.insert(at, value)
        elif kind == "delete" and at < len(buffer):
            del buffer[at]
    return bytes(buffer)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SEEDS)), st.lists(_MUTATION, min_size=1, max_size=4))
def test_mutated_programs_read_as_fonttools_reads_them(seed, mutations):
    data = _mutated(SEEDS[seed], mutations)
    assert_reads_as_fonttools(data)
    assert_top_dict_as_fonttools(data)


# Every CFF program of the corpus.


def _corpus_programs() -> dict[bytes, str]:
    """Each distinct FontFile3 /Type1C or /CIDFontType0C program → the file it was found in."""
    programs: dict[bytes, str] = {}
    for entry in corpus_files():
        try:
            pdf = pikepdf.open(entry.path, password=entry.password or "")
        except pikepdf.PdfError:
            continue
        with pdf:
            for obj in pdf.objects:
                if not isinstance(obj, pikepdf.Dictionary) or "/FontFile3" not in obj:
                    continue
                stream = obj.FontFile3
                if not isinstance(stream, pikepdf.Stream) or stream.get("/Subtype") not in (
                    pikepdf.Name.Type1C,
                    pikepdf.Name.CIDFontType0C,
                ):
                    continue
                try:
                    programs.setdefault(stream.read_bytes(), entry.name)
                except pikepdf.PdfError:
                    continue
    return programs


@pytest.fixture(scope="module")
def corpus_programs() -> dict[bytes, str]:
    programs = _corpus_programs()
    if not programs:
        pytest.skip("../shared/corpus is absent")
    return programs


@pytest.mark.timeout(300)
def test_every_corpus_cff_program_reads_as_fonttools_reads_it(corpus_programs):
    for data, name in corpus_programs.items():
        try:
            assert_reads_as_fonttools(data)
            assert_top_dict_as_fonttools(data)
        except AssertionError as error:
            raise AssertionError(f"a CFF program of {name}") from error


@pytest.mark.timeout(300)
def test_every_corpus_cff_program_is_read_without_fonttools(corpus_programs):
    left = []
    for data, name in corpus_programs.items():
        try:
            cff.read_top_dict(data)
        except cff.Unhandled as error:
            left.append((name, str(error)))
    assert left == []
    assert len(corpus_programs) > 100  # the corpus's 430 distinct programs, less a few
