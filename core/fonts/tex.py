"""TeX font encodings and glyph names, for TeX fonts that carry no /ToUnicode.

Old pdfTeX and dvips output embeds Computer Modern and other TeX fonts as Type 1 or as
bitmap Type 3 fonts (glyphs named /a65 or by code only) with no /ToUnicode, so a ligature
code or a TeX-only glyph name decodes to nothing. When a font's name or its codes identify a
TeX encoding, the codes read through that encoding's table (decode source "tex_encoding"):

- by font name (subset prefix dropped): CMR/CMBX/CMTI/CMSL/CMSS/CMCSC… text fonts are OT1,
  CMTT typewriter fonts OT1 with ASCII where they differ, CMMI math italic OML, CMSY math
  symbols OMS, EC/TC fonts T1 and TS1;
- by codes, for dvips' numbered-name Type 3 fonts, which carry no font name: a font that
  uses the T1 ligature codes 27–31 without the OT1 ones (11–15) is T1; one that uses 11–15
  is OT1 (OML shares those codes for Greek letters; prose decides). Without either, the
  code-as-Latin-1 guess stands;
- TeX glyph names outside the Adobe Glyph List (/suppress, /visiblespace, /dotlessj,
  /compwordmark …), wherever a glyph name is read.

Accents come out as their spacing forms (¨ ´ ˆ …), which core.text.accents then merges into
their base letters. Tables from the LaTeX font encoding guide (encguide) and the fonts' AFMs.
"""

from __future__ import annotations

import re

# OT1 (cmr): 0x00–0x7F. NUL marks a code left to the other steps: 0x20 is the suppress overlay
# of Ł in the font, but producers that show code 32 mean a space.
_OT1 = (
    "ΓΔΘΛΞΠΣΥΦΨΩ"
    + "\ufb00\ufb01\ufb02\ufb03\ufb04"
    + "ıȷ`´ˇ˘¯˚¸ßæœøÆŒØ"
    + "\u0000!”#$%&’()*+,-./0123456789:;¡=¿?"
    + "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[“]ˆ˙"
    + "‘abcdefghijklmnopqrstuvwxyz–—˝˜¨"
)
# cmtt: OT1 with the ASCII characters a typewriter font keeps, and arrows at 11/12.
_OT1_TYPEWRITER_CHANGES = {
    0x0B: "↑",
    0x0C: "↓",
    0x0D: "'",
    0x0E: "¡",
    0x0F: "¿",
    0x20: "␣",
    0x22: '"',
    0x3C: "<",
    0x3E: ">",
    0x5C: "\\",
    0x5F: "_",
    0x7B: "{",
    0x7C: "|",
    0x7D: "}",
    0x7E: "~",
}
# OML (cmmi): 0x00–0x7F.
_OML = (
    "ΓΔΘΛΞΠΣΥΦΨΩ"
    + "αβγδϵζηθικλμνξπρστυϕχψωεϑϖϱςφ"
    + "↼↽⇀⇁\u0000\u0000▹◃"
    + "0123456789.,</>⋆"
    + "∂ABCDEFGHIJKLMNOPQRSTUVWXYZ♭♮♯⌣⌢"
    + "ℓabcdefghijklmnopqrstuvwxyzıȷ℘\u20d7⁀"
)
# OMS (cmsy): 0x00–0x7F; calligraphic capitals read as their letters.
_OMS = (
    "−⋅×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•"
    + "≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"
    + "←→↑↓↔↗↘≃⇐⇒⇑⇓⇔↖↙∝"
    + "′∞∈∋△▽\u0338\u0000∀∃¬∅ℜℑ⊤⊥"
    + "ℵABCDEFGHIJKLMNOPQRSTUVWXYZ∪∩⊎∧∨"
    + "⊢⊣⌊⌋⌈⌉{}⟨⟩|‖↕⇕\\≀"
    + "√⨿∇∫⊔⊓⊑⊒§†‡¶♣♢♡♠"
)
# T1 (Cork, EC fonts): 0x00–0xFF.
_T1 = (
    "`´ˆ˜¨˝˚ˇ˘¯˙¸˛‚‹›"
    + "“”„«»–—\u200c\u0000ıȷ\ufb00\ufb01\ufb02\ufb03\ufb04"
    + '␣!"#$%&’()*+,-./0123456789:;<=>?'
    + "@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_"
    + "‘abcdefghijklmnopqrstuvwxyz{|}~-"
    + "ĂĄĆČĎĚĘĞĹĽŁŃŇŊŐŔŘŚŠŞŤŢŰŮŸŹŽŻĲİđ§"
    + "ăąćčďěęğĺľłńňŋőŕřśšşťţűůÿźžżĳ¡¿£"
    + "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖŒØÙÚÛÜÝÞ\u0000"
    + "àáâãäåæçèéêëìíîïðñòóôõöœøùúûüýþß"
)
_T1_SS = 0xDF  # the capital sharp s is written as two letters
# TS1 (textcomp, TC fonts): the codes text uses; the rest stays unresolved.
_TS1 = {
    0x27: "'",
    0x2A: "∗",
    0x2C: ",",
    0x2D: "-",
    0x2E: ".",
    0x2F: "⁄",
    **{0x30 + digit: str(digit) for digit in range(10)},
    0x3C: "〈",
    0x3E: "〉",
    0x4D: "℧",
    0x4F: "○",
    0x57: "℧",
    0x5B: "⟦",
    0x5D: "⟧",
    0x60: "`",
    0x6E: "♪",
    0x7E: "~",
    0x88: "†",
    0x89: "‡",
    0x8A: "‖",
    0x8B: "‰",
    0x8C: "•",
    0x8D: "℃",
    0x8E: "$",
    0x8F: "¢",
    0x90: "ƒ",
    0x91: "₡",
    0x92: "₩",
    0x93: "₦",
    0x94: "₲",
    0x95: "₱",
    0x96: "₤",
    0x97: "℞",
    0x98: "‽",
    0x9A: "₫",
    0x9B: "™",
    0x9C: "‱",
    0x9D: "¶",
    0x9E: "฿",
    0x9F: "№",
    0xA2: "¢",
    0xA3: "£",
    0xA4: "¤",
    0xA5: "¥",
    0xA6: "¦",
    0xA7: "§",
    0xA8: "¨",
    0xA9: "©",
    0xAA: "ª",
    0xAC: "¬",
    0xAD: "℗",
    0xAE: "®",
    0xAF: "¯",
    0xB0: "°",
    0xB1: "±",
    0xB2: "²",
    0xB3: "³",
    0xB4: "´",
    0xB5: "µ",
    0xB6: "¶",
    0xB7: "·",
    0xB8: "※",
    0xB9: "¹",
    0xBA: "º",
    0xBB: "√",
    0xBC: "¼",
    0xBD: "½",
    0xBE: "¾",
    0xBF: "€",
    0xD6: "×",
    0xF6: "÷",
}


def _table(chars: str) -> dict[int, str]:
    return {code: char for code, char in enumerate(chars) if char != "\u0000"}


OT1 = _table(_OT1)
OT1_TYPEWRITER = {**OT1, **_OT1_TYPEWRITER_CHANGES}
OML = _table(_OML)
OMS = _table(_OMS)
T1 = {**_table(_T1), _T1_SS: "SS"}
TS1 = _TS1
ENCODINGS = {"OT1": OT1, "OT1-tt": OT1_TYPEWRITER, "OML": OML, "OMS": OMS, "T1": T1, "TS1": TS1}

# TeX glyph names that the Adobe Glyph List does not know (or maps to a private-use code).
TEX_GLYPH_NAMES = {
    "suppress": "\u0337",
    "visiblespace": "␣",
    "visualspace": "␣",
    "cwm": "\u200c",
    "compwordmark": "\u200c",
    "dotlessj": "ȷ",
    "Germandbls": "SS",
    "SS": "SS",
    "ringfitted": "˚",
    "Dbar": "Đ",
    "dbar": "đ",
    "Ng": "Ŋ",
    "ng": "ŋ",
    "lscript": "ℓ",
    "negationslash": "\u0338",
    "owner": "∋",
    "mapsto": "↦",
    "epsilon1": "ε",
    "pi1": "ϖ",
    "rho1": "ϱ",
    "angbracketleft": "⟨",
    "angbracketright": "⟩",
    "Omegainv": "℧",
    "star": "⋆",
    "tie": "⁀",
    "vector": "\u20d7",
    "circlecopyrt": "\u20dd",  # the circle TeX draws around a "c" for ©: enclosing mark
    "triangleright": "▹",
    "triangleleft": "◃",
    "turnstileleft": "⊢",
    "turnstileright": "⊣",
    "precedesequal": "⪯",
    "followsequal": "⪰",
    "equivasymptotic": "≍",
    "latticetop": "⊤",
    "coproduct": "⨿",
    "unionmulti": "⊎",
    "intersectionsq": "⊓",
    "unionsq": "⊔",
}

_SUBSET_PREFIX = re.compile(r"^[A-Z]{6}\+")
_BY_NAME = (
    (re.compile(r"^(CMTT|CMSLTT|CMITT|CMTCSC)\d"), "OT1-tt"),
    (re.compile(r"^(CMMI|CMMIB)\d"), "OML"),
    (re.compile(r"^(CMSY|CMBSY)\d"), "OMS"),
    (re.compile(r"^(EC|SF)[A-Z]{2}\d"), "T1"),
    (re.compile(r"^TC[A-Z]{2}\d"), "TS1"),
    (re.compile(r"^CM(R|BX|TI|SL|SS|CSC|U|DUNH|FF|FI|FIB|BXSL|BXTI|SSBX|SSDC|SSI|SSQ|B)\d"), "OT1"),
)


def encoding_for_font_name(font_name: str) -> str | None:
    """The TeX encoding a font's /BaseFont names, or None."""
    name = _SUBSET_PREFIX.sub("", font_name).upper()
    for pattern, encoding in _BY_NAME:
        if pattern.match(name):
            return encoding
    return None


def encoding_for_codes(codes: set[int]) -> str | None:
    """The TeX encoding a numbered-name Type 3 font (dvips) uses, judged from its codes."""
    ot1_ligatures = any(11 <= code <= 15 for code in codes)
    t1_ligatures = any(27 <= code <= 31 for code in codes)
    if t1_ligatures and not ot1_ligatures:
        return "T1"
    if ot1_ligatures:
        return "OT1"
    return None


def tex_text(encoding: str, code: int) -> str | None:
    return ENCODINGS[encoding].get(code)


def tex_glyph_name_text(name: str) -> str | None:
    """A TeX glyph name outside the Adobe Glyph List, with any .suffix dropped."""
    return TEX_GLYPH_NAMES.get(name.split(".", 1)[0] if "." in name[1:] else name)
