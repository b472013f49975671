"""Regenerate glyph_list.json: the base encodings' glyph names and the Adobe Glyph List's text.

Both come from well-kept sources, never typed by hand: fontTools' StandardEncoding and
MacRoman lists, Python's cp1252 codec with the Adobe Glyph List's reverse mapping for WinAnsi
(Annex D.2), and fontTools.agl's glyph list (the full AGL, LEGACY_AGL2UV) for the text of each
name. They are stored because importing fontTools.agl builds its tables from the list's text,
a noticeable share of a one-file process's start-up, while a font's glyph names are nearly
always names of the list; core.fonts.encodings reads anything else (uniXXXX, f_f_i, .suffixes,
the ZapfDingbats names) through fontTools.agl at run time. tests/test_encodings.py checks
that the stored file is what this script makes from the installed fontTools.

Usage: python3 assets/fonts/build_glyph_list.py [--output FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent / "glyph_list.json"

Encoding = list["str | None"]


def _standard_encoding() -> Encoding:
    from fontTools.encodings.StandardEncoding import StandardEncoding

    return [None if name == ".notdef" else name for name in StandardEncoding]


def _agl_name(code_point: int) -> str | None:
    from fontTools.agl import LEGACY_AGL2UV, UV2AGL

    # AGLFN (UV2AGL) omits a few Latin-1 names WinAnsi uses (twosuperior, onesuperior…);
    # the full AGL has them.
    name = UV2AGL.get(code_point)
    if name is None:
        name = next((n for n, uvs in LEGACY_AGL2UV.items() if uvs == [code_point]), None)
    return name


def _win_ansi_encoding() -> Encoding:
    names: Encoding = [None] * 256
    for code in range(32, 256):
        try:
            character = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            # Annex D.2 note 6: unused WinAnsi codes above 40 (octal) map to bullet.
            names[code] = "bullet"
            continue
        names[code] = _agl_name(ord(character))
    # Annex D.2 notes 3 and 5: space is also encoded at 240 (octal) and hyphen at 255;
    # 177 (octal) is unused, so note 6 applies to it as well.
    names[0xA0] = "space"
    names[0xAD] = "hyphen"
    names[0x7F] = "bullet"
    return names


def _mac_roman_encoding() -> Encoding:
    # fontTools' list is Apple's Mac OS Roman; its 0-31 and 127 slots are control names and
    # Annex D.2 note 3 puts space (not nbspace) at 312 (octal). 'apple' is a private-use
    # glyph with no Unicode value, so it stays unassigned as in Annex D.
    from fontTools.encodings.MacRoman import MacRoman

    names: Encoding = list(MacRoman)
    for code in [*range(32), 127]:
        names[code] = None
    names[0xCA] = "space"
    names[0xF0] = None
    return names


def _agl_text() -> dict[str, str]:
    """Every name of the full AGL → its text, as fontTools.agl.toUnicode(name) gives it (for a
    name with no '.' or '_' and outside ZapfDingbats, toUnicode is the list's own entry)."""
    from fontTools.agl import LEGACY_AGL2UV, toUnicode

    names = [name for name in LEGACY_AGL2UV if "." not in name and "_" not in name]
    return {name: toUnicode(name) for name in names if toUnicode(name)}


def build() -> dict:
    import fontTools

    return {
        "source": f"fontTools {fontTools.version} (agl, encodings), Python's cp1252 codec",
        "encodings": {
            "StandardEncoding": _standard_encoding(),
            "WinAnsiEncoding": _win_ansi_encoding(),
            "MacRomanEncoding": _mac_roman_encoding(),
        },
        "agl": _agl_text(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    args.output.write_text(
        json.dumps(build(), ensure_ascii=True, separators=(",", ":"), sort_keys=True) + "\n",
        encoding="ascii",
    )


if __name__ == "__main__":
    main()
