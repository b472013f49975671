"""Regenerate the predefined CMap data in this folder from Debian's poppler-data.

    python3 -m glyphscope.assets.cmaps.build_cmaps [/usr/share/poppler/cMap]

Reads Adobe's CMap sources (BSD-3-Clause, see README.md) with
`glyphscope.core.fonts.cmap.parser.parse_cmap` and writes:
- `cmap-<Name>.json.gz` for each predefined encoding CMap of ISO 32000-1 §9.7.5.2 Table 118:
  codespace ranges and code → CID mappings, with a `usecmap` name kept as a reference (the
  used CMap is shipped too and `glyphscope.core.fonts.cmap.predefined` chains to it on load);
- `cid2unicode-<Registry-Ordering>.json.gz` for each character collection, from Adobe's
  `<collection>-UCS2` CMaps (CID → Unicode, the tables pdf.js uses).

Mappings are stored as flat, delta-encoded integer lists so gzip packs them tightly.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from glyphscope.core.fonts.cmap.parser import CMap, parse_cmap

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = Path("/usr/share/poppler/cMap")

COLLECTIONS = ("Adobe-GB1", "Adobe-CNS1", "Adobe-Japan1", "Adobe-Korea1", "Adobe-KR")

# ISO 32000-1 §9.7.5.2, Table 118 (Identity-H/V are built into core.fonts.cmap.predefined).
TABLE_118 = """
GB-EUC-H GB-EUC-V GBpc-EUC-H GBpc-EUC-V GBK-EUC-H GBK-EUC-V GBKp-EUC-H GBKp-EUC-V GBK2K-H GBK2K-V
UniGB-UCS2-H UniGB-UCS2-V UniGB-UTF16-H UniGB-UTF16-V
B5pc-H B5pc-V HKscs-B5-H HKscs-B5-V ETen-B5-H ETen-B5-V ETenms-B5-H ETenms-B5-V CNS-EUC-H CNS-EUC-V
UniCNS-UCS2-H UniCNS-UCS2-V UniCNS-UTF16-H UniCNS-UTF16-V
83pv-RKSJ-H 90ms-RKSJ-H 90ms-RKSJ-V 90msp-RKSJ-H 90msp-RKSJ-V 90pv-RKSJ-H Add-RKSJ-H Add-RKSJ-V
EUC-H EUC-V Ext-RKSJ-H Ext-RKSJ-V H V UniJIS-UCS2-H UniJIS-UCS2-V UniJIS-UCS2-HW-H UniJIS-UCS2-HW-V
UniJIS-UTF16-H UniJIS-UTF16-V
KSC-EUC-H KSC-EUC-V KSCms-UHC-H KSCms-UHC-V KSCms-UHC-HW-H KSCms-UHC-HW-V KSCpc-EUC-H
UniKS-UCS2-H UniKS-UCS2-V UniKS-UTF16-H UniKS-UTF16-V
""".split()


def find_source(source: Path, name: str) -> Path | None:
    for collection in source.iterdir():
        path = collection / name
        if path.is_file():
            return path
    return None


def load(source: Path, name: str) -> CMap | None:
    """Parse one source CMap on its own: its usecmap is recorded, not merged."""
    path = find_source(source, name)
    return parse_cmap(path.read_bytes(), lambda _name: None) if path else None


def merged_runs(ranges: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Sort (low, high, value of low) runs and join neighbours that continue each other."""
    runs: list[list[int]] = []
    for low, high, value in sorted(ranges):
        if runs and low == runs[-1][1] + 1 and value == runs[-1][2] + (low - runs[-1][0]):
            runs[-1][1] = high
        else:
            runs.append([low, high, value])
    return [tuple(run) for run in runs]


def delta_encode(runs: list[tuple[int, int, int]]) -> list[int]:
    """(low, high, value) → [low - previous high, high - low, value - previous value, ...]."""
    flat: list[int] = []
    previous_high, previous_value = -1, 0
    for low, high, value in runs:
        flat += [low - previous_high, high - low, value - previous_value]
        previous_high, previous_value = high, value
    return flat


def encoding_record(cmap: CMap) -> dict:
    return {
        "name": cmap.name,
        "writing_mode": cmap.writing_mode,
        "ordering": cmap.ordering,
        "usecmap": cmap.usecmap,
        "codespaces": [[space.lows.hex(), space.highs.hex()] for space in cmap.codespaces],
        "cids": delta_encode(merged_runs(list(cmap.cid_ranges()))),
        "notdefs": delta_encode(merged_runs(list(cmap.notdef_ranges()))),
    }


def without_variation_selectors(text: str) -> str:
    """Drop variation selectors: Adobe-Japan1-UCS2 gives glyph variants such as 逢 + U+E0100,
    but extracted text must find "逢" in a search; the glyph variant is not the text."""
    plain = "".join(
        c for c in text if not (0xFE00 <= ord(c) <= 0xFE0F or 0xE0100 <= ord(c) <= 0xE01EF)
    )
    return plain or text


def unicode_record(collection: str, ucs2: CMap) -> dict:
    """CID → Unicode: single code points as runs, anything longer as explicit strings."""
    singles: list[tuple[int, int, int]] = []
    strings: dict[str, str] = {}
    for cid in range(0x10000):  # CIDs are at most 65535 (Annex C)
        text = ucs2.unicode(cid)
        if text is None:
            continue
        text = without_variation_selectors(text)
        if len(text) == 1:
            singles.append((cid, cid, ord(text)))
        else:
            strings[str(cid)] = text
    return {"ordering": collection, "runs": delta_encode(merged_runs(singles)), "strings": strings}


def write(name: str, record: dict) -> int:
    payload = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    path = HERE / name
    # mtime=0 keeps the output byte-identical between runs.
    path.write_bytes(gzip.compress(payload, compresslevel=9, mtime=0))
    return path.stat().st_size


def build(source: Path) -> int:
    total = 0
    names = list(TABLE_118)
    for name in names:  # grows while running: a used CMap ships with its user
        cmap = load(source, name)
        if cmap is None or [p for p in cmap.problems if "usecmap" not in p]:
            raise SystemExit(f"{name}: missing or unreadable in {source}")
        if cmap.usecmap and cmap.usecmap not in names:
            names.append(cmap.usecmap)
        total += write(f"cmap-{name}.json.gz", encoding_record(cmap))
    for collection in COLLECTIONS:
        ucs2 = load(source, f"{collection}-UCS2")
        if ucs2 is None:
            raise SystemExit(f"{collection}-UCS2: missing in {source}")
        total += write(f"cid2unicode-{collection}.json.gz", unicode_record(collection, ucs2))
    return total


if __name__ == "__main__":
    size = build(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE)
    print(f"wrote {size} bytes to {HERE}")
