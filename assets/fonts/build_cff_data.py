"""Regenerate cff_data.json: the CFF format's built-in tables (Adobe Technical Note #5176).

core.fonts.cff reads a CFF font program's Top DICT, charset and Encoding itself instead of
importing fontTools.cffLib, whose import (with fontTools' OpenType table modules) is about an
eighth of the whole process of a document with a Type1C font. What it needs from the
specification is stored here, taken from fontTools.cffLib, never typed by hand: the 391
standard strings (Appendix A), the predefined charsets ISOAdobe, Expert and ExpertSubset
(Appendix C) and the Top DICT operators with their operand kinds (Table 9), so that a program
reads exactly as fontTools reads it. tests/test_cff.py checks that the stored file is what this
script makes from the installed fontTools.

Usage: python3 assets/fonts/build_cff_data.py [--output FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

OUTPUT = Path(__file__).resolve().parent / "cff_data.json"


def _operator_key(opcode: int | tuple[int, int]) -> str:
    # A two-byte operator (escape 12 and a second byte) is stored as "12 n".
    return " ".join(map(str, opcode)) if isinstance(opcode, tuple) else str(opcode)


def build() -> dict:
    import fontTools
    from fontTools.cffLib import (
        cffExpertSubsetStrings,
        cffIExpertStrings,
        cffISOAdobeStrings,
        cffStandardStrings,
        topDictOperators,
    )

    operands: dict[str, list[str]] = {}
    for opcode, _name, kind, _default, _converter in topDictOperators:
        operands[_operator_key(opcode)] = list(kind) if isinstance(kind, tuple) else [kind]
    return {
        "source": f"fontTools {fontTools.version} (cffLib)",
        "standard_strings": list(cffStandardStrings),
        "charsets": {
            "ISOAdobe": list(cffISOAdobeStrings),
            "Expert": list(cffIExpertStrings),
            "ExpertSubset": list(cffExpertSubsetStrings),
        },
        # Operator → the kinds of its operands, first to last: "number", "SID", "array"
        # (every operand on the stack) or "delta" (likewise, summed as it is read).
        "top_dict_operands": operands,
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
