"""Predefined CMaps (ISO 32000-1 §9.7.5.2, Table 118) and CID → Unicode tables (§9.10.2).

Identity-H/V are built in. The others, and the Adobe character collections' CID → Unicode
tables, are read from the gzip'd JSON files in `assets/cmaps/` (made by
`assets/cmaps/build_cmaps.py`) on first use and cached for the process. A missing folder or
file makes a lookup return None, so the decode step is skipped; it never raises.
"""

from __future__ import annotations

import json
import logging
import re
from functools import cache
from pathlib import Path

import glyphscope.assets.cmaps
from glyphscope.core.fonts.cmap.tables import CMap, CMapBuilder

_log = logging.getLogger(__name__)

_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")

# §9.7.5.2: both Identity CMaps take 2-byte codes with CID = code; -V is vertical (WMode 1).
_IDENTITY = {"Identity-H": 0, "Identity-V": 1}

# Registry-Ordering spellings seen in /CIDSystemInfo, normalised to the collection names.
_ORDERINGS = {
    "gb1": "Adobe-GB1",
    "cns1": "Adobe-CNS1",
    "japan1": "Adobe-Japan1",
    "japan2": "Adobe-Japan2",
    "korea1": "Adobe-Korea1",
    "kr": "Adobe-KR",
}


def _assets_dir() -> Path:
    return Path(glyphscope.assets.cmaps.__file__).resolve().parent


def _read_json(file_name: str) -> dict | None:
    import gzip  # with the first file read, not with the module: most documents read none

    path = _assets_dir() / file_name
    if not path.is_file():
        return None
    try:
        record = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, ValueError, EOFError) as error:
        _log.warning("predefined CMap data %s unreadable (%s); decode step skipped", path, error)
        return None
    return record if isinstance(record, dict) else None


def _runs(flat: list[int]) -> list[tuple[int, int, int]]:
    """Undo build_cmaps.delta_encode: [Δlow, high - low, Δvalue, ...] → (low, high, value)."""
    runs = []
    high, value = -1, 0
    for index in range(0, len(flat) - 2, 3):
        low = high + flat[index]
        high = low + flat[index + 1]
        value += flat[index + 2]
        runs.append((low, high, value))
    return runs


def _identity(writing_mode: int, name: str) -> CMap:
    builder = CMapBuilder(name)
    builder.writing_mode = writing_mode
    builder.add_codespace(b"\x00\x00", b"\xff\xff")
    builder.map_cid_range(0, 0xFFFF, 0)
    return builder.build()


def _ucs2(collection: str, name: str) -> CMap | None:
    """Adobe's `<collection>-UCS2` CMap, CID → Unicode, rebuilt from the shipped table.

    ToUnicode CMaps written against CIDs may `usecmap` it (a Korean producer writes
    `/Adobe-Korea1-UCS2 usecmap`, as pdf.js's built-in CMaps allow).
    """
    table = _cid_table(collection)
    if table is None:
        return None
    builder = CMapBuilder(name)
    builder.ordering = collection
    builder.add_codespace(b"\x00\x00", b"\xff\xff")
    for cid, text in enumerate(table):
        if text is not None:
            builder.map_unicode(cid, text)
    return builder.build()


@cache
def predefined_cmap(name: str) -> CMap | None:
    """The predefined CMap `name` (e.g. "90ms-RKSJ-H", "UniGB-UCS2-H"), or None.

    Besides Table 118 this knows Adobe's CID → Unicode CMaps ("Adobe-Japan1-UCS2"…), which
    embedded ToUnicode CMaps sometimes name in `usecmap`.
    """
    if name in _IDENTITY:
        return _identity(_IDENTITY[name], name)
    if not _SAFE_NAME.fullmatch(name):
        return None
    if name.endswith("-UCS2") and name[: -len("-UCS2")] in _ORDERINGS.values():
        return _ucs2(name[: -len("-UCS2")], name)
    record = _read_json(f"cmap-{name}.json.gz")
    if record is None:
        return None
    try:
        return _cmap_from_record(record, name)
    except (KeyError, TypeError, ValueError) as error:
        _log.warning("predefined CMap %s malformed (%s); decode step skipped", name, error)
        return None


def _cmap_from_record(record: dict, name: str) -> CMap:
    builder = CMapBuilder(record.get("name") or name)
    builder.writing_mode = int(record.get("writing_mode", 0))
    builder.ordering = record.get("ordering", "")
    used = record.get("usecmap")
    # §9.7.5: the data keeps `usecmap` as a name; the used CMap is shipped beside it.
    if used and used != name:
        builder.usecmap = used
        builder.parent = predefined_cmap(used)
    for low, high in record["codespaces"]:
        builder.add_codespace(bytes.fromhex(low), bytes.fromhex(high))
    for low, high, cid in _runs(record["cids"]):
        builder.map_cid_range(low, high, cid)
    for low, high, cid in _runs(record["notdefs"]):
        builder.map_notdef_range(low, high, cid)
    return builder.build()


@cache
def _cid_table(ordering: str) -> tuple[str | None, ...] | None:
    """CID-indexed Unicode strings of one character collection, or None without data."""
    if not _SAFE_NAME.fullmatch(ordering):
        return None
    record = _read_json(f"cid2unicode-{ordering}.json.gz")
    if record is None:
        return None
    try:
        runs = _runs(record["runs"])
        strings = {int(cid): text for cid, text in record["strings"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        _log.warning("CID → Unicode data for %s malformed (%s); step skipped", ordering, error)
        return None
    size = max([high + 1 for _low, high, _code in runs] + [cid + 1 for cid in strings] + [0])
    table: list[str | None] = [None] * size
    for low, high, code in runs:
        table[low : high + 1] = [chr(code + offset) for offset in range(high - low + 1)]
    for cid, text in strings.items():
        table[cid] = text
    return tuple(table)


def cid_to_unicode(ordering: str, cid: int) -> str | None:
    """Unicode for `cid` in the collection `ordering` ("Adobe-Japan1", "Adobe-KR"…), or None.

    Adobe-Korea1 and Adobe-KR are different collections with their own CIDs and tables;
    collections without shipped data (Adobe-Japan2, Adobe-Identity…) give None.
    """
    table = _cid_table(ordering)
    if table is None or not 0 <= cid < len(table):
        return None
    return table[cid]


def ordering_of(registry: str, ordering: str) -> str:
    """The collection name for a /CIDSystemInfo Registry and Ordering (§9.7.3).

    ("Adobe", "Japan1") → "Adobe-Japan1". Adobe's own orderings are matched without regard to
    case or stray spaces, since producers write "japan1" or "Japan1 ".
    """
    registry, ordering = registry.strip(), ordering.strip()
    if registry.lower() == "adobe":
        known = _ORDERINGS.get(ordering.lower())
        if known:
            return known
    return f"{registry}-{ordering}"
