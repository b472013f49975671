"""Regenerate standard14.json: the standard 14 fonts' glyph widths and built-in encodings.

ISO 32000-1 §9.6.2.2 lets a simple font naming one of the standard 14 fonts omit /Widths; a
reader then needs the font's own metrics. We take them from Debian's fonts-urw-base35 AFMs,
which are metric-compatible clones of the Adobe Core 14 (NimbusSans = Helvetica, NimbusRoman =
Times, NimbusMonoPS = Courier, StandardSymbolsPS = Symbol, D050000L = ZapfDingbats). Only
metrics and glyph names are copied, never glyph outlines (see LICENSE-standard14.md).

The Symbol and ZapfDingbats built-in encodings (§9.6.6.1, Annex D.4/D.5) are the AFMs' "C"
codes. (ZapfDingbats glyph names a1…a191 get their Unicode values from fontTools.agl at run
time, so they are not stored here.)

Usage: python3 assets/fonts/build_standard14.py [--afm-dir DIR] [--output FILE]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

AFM_DIR = Path("/usr/share/fonts/type1/urw-base35")
OUTPUT = Path(__file__).resolve().parent / "standard14.json"

# §9.6.2.2 standard 14 name → URW metric-compatible AFM.
URW_AFM = {
    "Courier": "NimbusMonoPS-Regular",
    "Courier-Bold": "NimbusMonoPS-Bold",
    "Courier-Oblique": "NimbusMonoPS-Italic",
    "Courier-BoldOblique": "NimbusMonoPS-BoldItalic",
    "Helvetica": "NimbusSans-Regular",
    "Helvetica-Bold": "NimbusSans-Bold",
    "Helvetica-Oblique": "NimbusSans-Italic",
    "Helvetica-BoldOblique": "NimbusSans-BoldItalic",
    "Times-Roman": "NimbusRoman-Regular",
    "Times-Bold": "NimbusRoman-Bold",
    "Times-Italic": "NimbusRoman-Italic",
    "Times-BoldItalic": "NimbusRoman-BoldItalic",
    "Symbol": "StandardSymbolsPS",
    "ZapfDingbats": "D050000L",
}

# Fonts whose AFM "C" codes are their built-in encoding (EncodingScheme FontSpecific).
SYMBOLIC = ("Symbol", "ZapfDingbats")


def read_afm(path: Path) -> tuple[dict[str, int], dict[int, str]]:
    """Glyph name → advance width (WX) and code → glyph name (C ≥ 0) from one AFM."""
    widths: dict[str, int] = {}
    codes: dict[int, str] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if not line.startswith("C "):
            continue
        fields = dict(
            part.strip().split(None, 1) for part in line.split(";") if len(part.split()) >= 2
        )
        name = fields["N"]
        widths[name] = round(float(fields["WX"]))
        code = int(fields["C"])
        if code >= 0:
            codes[code] = name
    return widths, codes


def build(afm_dir: Path) -> dict:
    metrics = {name: read_afm(afm_dir / f"{urw}.afm") for name, urw in URW_AFM.items()}
    # One shared, sorted name list; each font stores widths aligned to it (null = absent),
    # which keeps the file small and the loader trivial.
    names = sorted({glyph for widths, _ in metrics.values() for glyph in widths})
    fonts = {font: [widths.get(glyph) for glyph in names] for font, (widths, _) in metrics.items()}
    encodings = {
        font: {str(code): glyph for code, glyph in sorted(metrics[font][1].items())}
        for font in SYMBOLIC
    }
    return {
        "source": "Debian fonts-urw-base35 AFMs (metrics only), see LICENSE-standard14.md",
        "fonts_afm": URW_AFM,
        "glyph_names": names,
        "widths": fonts,
        "builtin_encodings": encodings,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--afm-dir", type=Path, default=AFM_DIR)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    data = build(args.afm_dir)
    args.output.write_text(
        json.dumps(data, ensure_ascii=True, separators=(",", ":"), sort_keys=True) + "\n",
        encoding="ascii",
    )


if __name__ == "__main__":
    main()
