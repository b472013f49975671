"""Base encodings (Annex D), glyph names to Unicode, and the standard 14 fonts' data."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from fontTools.agl import LEGACY_AGL2UV, toUnicode
from hypothesis import given
from hypothesis import strategies as st

from glyphscope.core.fonts.encodings import (
    STANDARD_14,
    base_encoding,
    glyph_name_to_unicode,
    standard14_name,
    standard14_widths,
)


def asset_generator(name: str):
    """The script beside assets/fonts' data that makes `name` (build_glyph_list, …), loaded
    as a module (the scripts stay out of the installed package)."""
    path = Path(__file__).resolve().parent.parent / "assets" / "fonts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stored_glyph_list_is_what_its_generator_makes_from_the_installed_fonttools():
    built = asset_generator("build_glyph_list").build()
    stored = json.loads(
        resources.files("glyphscope.assets.fonts").joinpath("glyph_list.json").read_text("ascii")
    )
    assert (stored["encodings"], stored["agl"]) == (built["encodings"], built["agl"])


def test_glyph_names_read_as_fonttools_reads_them():
    # The stored list answers for its own names; every other name goes to fontTools.agl.
    names = [
        *LEGACY_AGL2UV,
        *("uni0041", "u1F600", "f_f_i", "A.sc", "a12", "g18", ".notdef", "", "_", "A..sc"),
        *("g18_uni0041", "f_uni0066", "uacute_g3", "u_A", "uniD800", "u12345678", "T_h.alt"),
    ]
    for zapf_dingbats in (False, True):
        for name in names:
            expected = toUnicode(name, zapf_dingbats) or None
            assert glyph_name_to_unicode(name, zapf_dingbats) == expected, name


# Components the AGL specification treats differently: list names (some beginning with "u"),
# the "uni" and "u" forms, names of neither kind, and the period and underscore it splits at.
_NAME_PARTS = st.sampled_from(
    ["A", "f", "i", "uacute", "u", "uni", "0041", "1F600", "D800", "g18", "a1", ".", "_", "sc"]
)


@given(st.lists(_NAME_PARTS, max_size=6).map("".join), st.booleans())
def test_any_glyph_name_reads_as_fonttools_reads_it(name, zapf_dingbats):
    assert glyph_name_to_unicode(name, zapf_dingbats) == (toUnicode(name, zapf_dingbats) or None)


def test_names_without_uni_or_u_components_do_not_import_fonttools_agl():
    # fontTools.agl builds its tables at import: a subset font's g-names, .notdef, suffixed
    # and ligature names of the list are read from the stored list alone.
    names = ["g18", ".notdef", "A.sc", "f_f_i", "uacute", "g18_A"]
    code = (
        "import sys; from glyphscope.core.fonts.encodings import glyph_name_to_unicode as g; "
        f"texts = [g(n) for n in {names!r}]; "
        "print(texts, 'fontTools.agl' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[None, None, 'A', 'ffi', 'ú', 'A'] False"


def test_every_base_encoding_has_256_entries():
    names = ("StandardEncoding", "WinAnsiEncoding", "MacRomanEncoding", "Symbol", "ZapfDingbats")
    assert [len(base_encoding(name)) for name in names] == [256] * 5


def test_unknown_base_encoding_is_none():
    assert base_encoding("MacExpertEncoding") is None


def test_winansi_0x80_is_euro():
    assert base_encoding("WinAnsiEncoding")[0x80] == "Euro"


def test_winansi_control_codes_are_unassigned():
    assert set(base_encoding("WinAnsiEncoding")[:32]) == {None}


def test_winansi_unused_codes_map_to_bullet():
    # Annex D.2 note 6: unused codes above 40 (octal) map to bullet.
    winansi = base_encoding("WinAnsiEncoding")
    assert [winansi[code] for code in (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D)] == ["bullet"] * 6


def test_winansi_nbsp_is_space_and_soft_hyphen_is_hyphen():
    winansi = base_encoding("WinAnsiEncoding")
    assert (winansi[0xA0], winansi[0xAD]) == ("space", "hyphen")


def test_winansi_superiors_use_full_agl_names():
    winansi = base_encoding("WinAnsiEncoding")
    assert (winansi[0xB9], winansi[0xB2], winansi[0xB3]) == (
        "onesuperior",
        "twosuperior",
        "threesuperior",
    )


def test_winansi_agrees_with_pdfminer_latin_table_except_its_soft_hyphen():
    latin_enc = pytest.importorskip("pdfminer.latin_enc")
    winansi = base_encoding("WinAnsiEncoding")
    theirs = {win: name for name, _, _, win, _ in latin_enc.ENCODING if win is not None}
    differing = {code for code, name in theirs.items() if winansi[code] != name}
    assert differing == {0xAD}  # pdfminer writes 'space' where Annex D.2 note 5 says hyphen


def test_standard_encoding_0x27_is_quoteright():
    assert base_encoding("StandardEncoding")[0x27] == "quoteright"


def test_macroman_0xdb_is_currency_and_0xca_is_space():
    macroman = base_encoding("MacRomanEncoding")
    assert (macroman[0xDB], macroman[0xCA]) == ("currency", "space")


def test_symbol_builtin_encoding_comes_from_the_afm():
    assert base_encoding("Symbol")[0x22] == "universal"


def test_zapfdingbats_builtin_encoding_comes_from_the_afm():
    assert base_encoding("ZapfDingbats")[0x21] == "a1"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("A", "A"),
        ("uni20AC", "€"),
        ("uni00410042", "AB"),
        ("u1F600", "😀"),
        ("fi", "ﬁ"),
        ("f_f_i", "ffi"),
        ("A.sc", "A"),
        ("universal", "∀"),
    ],
)
def test_glyph_name_to_unicode_follows_the_agl_specification(name, text):
    assert glyph_name_to_unicode(name) == text


def test_unknown_glyph_name_gives_none():
    assert glyph_name_to_unicode("g123") is None


def test_zapfdingbats_names_count_only_for_zapfdingbats():
    assert (glyph_name_to_unicode("a1"), glyph_name_to_unicode("a1", True)) == (None, "✁")


@pytest.mark.parametrize(
    ("base_font", "standard"),
    [
        ("Helvetica", "Helvetica"),
        ("ABCDEF+Helvetica-Bold", "Helvetica-Bold"),
        ("Arial", "Helvetica"),
        ("ArialMT", "Helvetica"),
        ("Arial,Bold", "Helvetica-Bold"),
        ("Arial-BoldItalicMT", "Helvetica-BoldOblique"),
        ("TimesNewRoman", "Times-Roman"),
        ("TimesNewRoman,Italic", "Times-Italic"),
        ("Times-Roman,Bold", "Times-Bold"),
        ("TimesNewRomanPS-BoldMT", "Times-Bold"),
        ("CourierNew", "Courier"),
        ("CourierNew,BoldItalic", "Courier-BoldOblique"),
        ("SymbolMT", "Symbol"),
        ("Calibri", None),
        ("Helvetica-Narrow", None),
    ],
)
def test_standard14_name_resolves_aliases(base_font, standard):
    assert standard14_name(base_font) == standard


def test_standard14_widths_are_the_urw_metrics():
    assert (
        standard14_widths("Helvetica")["A"],
        standard14_widths("Times-Roman")["A"],
        standard14_widths("Courier")["A"],
    ) == (667, 722, 600)


def test_every_standard14_font_has_a_space_width():
    assert all("space" in standard14_widths(font) for font in STANDARD_14)
