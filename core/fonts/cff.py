"""What the decode step reads of a CFF font program (FontFile3 /Type1C and /CIDFontType0C,
ISO 32000-1 §9.9): whether it is CID-keyed, its charset and its built-in Encoding.

The format is Adobe Technical Note #5176 ("The Compact Font Format Specification"); the
program is read as fontTools.cffLib reads it, without importing cffLib, whose import (with
fontTools' OpenType table modules) is about an eighth of a one-file process that meets a
Type1C font: the header (§6), the Name, Top DICT, String and Global Subr INDEXes (§5, §7-§10),
the first font's Top DICT (§9, Table 9), the glyph count from its CharStrings INDEX, and the
charset (§13) and Encoding (§12) tables it points to. The standard strings, the predefined
charsets and the Top DICT operators' operand kinds come from assets/fonts/cff_data.json, made
from fontTools by its generator beside it.

Whatever this reader does not read exactly as fontTools does — a CFF2 table, a structure that
runs past the data, an operand of an unexpected kind, a table format it does not know, any
damage — raises `Unhandled`, and the caller reads the program through fontTools instead, so
a damaged program keeps fontTools' result and its error text (the one error raised here is
fontTools' own AttributeError for a Top DICT without a charset operator, which some
producers write) (tests/test_cff.py compares the
two on every CFF program of the corpus and on mutated programs).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from glyphscope.core.fonts.encodings import asset_json


class Unhandled(Exception):
    """The program holds something this reader does not read exactly as fontTools does."""


# Table 9's operators this reader takes values from; a two-byte operator (escape 12, then b1)
# is keyed 12 << 8 | b1.
_ROS = 12 << 8 | 30
_CHARSET = 15
_ENCODING = 16
_CHAR_STRINGS = 17

# A DICT operand byte 255 is reserved (Table 3): fontTools pushes a placeholder for it, which
# a number operator keeps and any other use fails on.
_RESERVED = object()

# Table 5, the nibbles of a real operand; 0xd is reserved and 0xf ends the number.
_REAL_NIBBLES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "E", "E-", None, "-")


# The classes here are plain ones, not dataclasses: this module is imported by a process's
# first CFF program, and a dataclass's creation (its methods compiled from source) would be
# most of the import.
class _Data:
    __slots__ = ("standard_strings", "charsets", "operands")

    def __init__(self, stored: dict) -> None:
        self.standard_strings: tuple[str, ...] = tuple(stored["standard_strings"])
        charsets = stored["charsets"]
        # By charset offset: 0 ISOAdobe, 1 Expert, 2 ExpertSubset.
        self.charsets = tuple(
            tuple(charsets[name]) for name in ("ISOAdobe", "Expert", "ExpertSubset")
        )
        self.operands: dict[int, tuple[str, ...]] = {}
        for key, kinds in stored["top_dict_operands"].items():
            b0, _, b1 = key.partition(" ")
            self.operands[int(b0) << 8 | int(b1) if b1 else int(b0)] = tuple(kinds)


@cache
def _data() -> _Data:
    return _Data(asset_json("cff_data.json"))


class TopDict:
    """The first font's Top DICT: the operand of each operator of interest as it was last
    given (values), the String INDEX (strings, SIDs from 391 on) and the glyph count its
    CharStrings INDEX holds (glyph_count, None without CharStrings)."""

    __slots__ = ("data", "strings", "values", "glyph_count", "_charset")

    def __init__(
        self,
        data: bytes,
        strings: tuple[str, ...],
        values: dict[int, object],
        glyph_count: int | None,
    ) -> None:
        self.data = data
        self.strings = strings
        self.values = values
        self.glyph_count = glyph_count
        self._charset: list[str] | None = None

    @property
    def cid_keyed(self) -> bool:
        """§18: a Top DICT with the ROS operator is a CIDFont's (§18 puts it first; fontTools,
        as here, takes it anywhere)."""
        return _ROS in self.values

    @property
    def charset(self) -> list[str]:
        """§13: the glyph names in glyph order, as fontTools makes them unique."""
        if self._charset is None:
            self._charset = self._read_charset()
        return self._charset

    def _read_charset(self) -> list[str]:
        offset = self.values.get(_CHARSET)
        if offset is None:
            # §9 gives charset a default (0, ISOAdobe) but fontTools' TopDict has none and
            # fails on the attribute: the error fontTools gives, which the caller records.
            raise AttributeError("charset")
        if type(offset) is not int or offset < 0 or self.glyph_count is None:
            raise Unhandled("charset not an offset, or no CharStrings")
        if offset <= 2:
            return list(_data().charsets[offset][: self.glyph_count])
        names = _charset_names(self.data, offset, self.glyph_count, self.strings)
        if len(names) != self.glyph_count:
            raise Unhandled("charset of another glyph count")
        return _unique(names)

    @property
    def encoding(self) -> str | list[str]:
        """§12: "StandardEncoding" or "ExpertEncoding" (offsets 0 and 1), else the glyph name
        of each of the 256 codes, ".notdef" where none is encoded."""
        offset = self.values.get(_ENCODING, 0)
        if type(offset) is not int or offset < 0:
            raise Unhandled("Encoding not an offset")
        if offset <= 1:
            return ("StandardEncoding", "ExpertEncoding")[offset]
        fmt = _card(self.data, offset, 1)
        if fmt & 0x7F not in (0, 1):
            raise Unhandled("Encoding format")
        charset = self.charset  # after the format, as fontTools reads them
        names = [".notdef"] * 256
        if fmt & 0x7F == 0:
            count = _card(self.data, offset + 1, 1)
            for glyph, code in enumerate(self.data[offset + 2 : offset + 2 + count], 1):
                if code != 0:  # as fontTools: code 0 leaves the slot (and the glyph) alone
                    names[code] = _glyph(charset, glyph)
            position = offset + 2 + count
        else:
            count = _card(self.data, offset + 1, 1)
            position = offset + 2
            glyph = 1
            for _ in range(count):
                first, left = _card(self.data, position, 1), _card(self.data, position + 1, 1)
                position += 2
                if first + left > 255:
                    raise Unhandled("Encoding range past code 255")
                for code in range(first, first + left + 1):
                    names[code] = _glyph(charset, glyph)
                    glyph += 1
        if len(self.data) < position:
            raise Unhandled("Encoding past the data")
        if fmt & 0x80:  # supplements: codes for glyphs encoded twice (Table 14)
            count = _card(self.data, position, 1)
            for index in range(count):
                entry = position + 1 + 3 * index
                code, sid = _card(self.data, entry, 1), _card(self.data, entry + 1, 2)
                names[code] = _string(self.strings, sid)
        return names


def _string(strings: Sequence[str], sid: object) -> str:
    """§10: a SID's string, the standard strings' first, then the String INDEX's."""
    standard = _data().standard_strings
    if type(sid) is not int or sid < 0 or sid >= len(standard) + len(strings):
        raise Unhandled("SID outside the strings")
    return standard[sid] if sid < len(standard) else strings[sid - len(standard)]


def read_top_dict(data: bytes) -> TopDict:
    """The header, the INDEXes before the first font's data, and its Top DICT. Raises
    Unhandled where fontTools would read the program otherwise or fail on it."""
    if len(data) < 4 or data[0] != 1:
        raise Unhandled("not a CFF version 1 header")
    # The header's hdrSize says where the Name INDEX starts (fontTools seeks there as given).
    names, position = _index(data, data[2])
    top_dicts, position = _index(data, position)
    strings, position = _index(data, position)
    _index(data, position)  # the Global Subr INDEX: fontTools reads its offsets, not its items
    if not names or not top_dicts:
        raise Unhandled("no font")
    for start, end in names:
        _item(data, start, end)
    string_texts = tuple(_item(data, start, end).decode("latin-1") for start, end in strings)
    values = _top_dict_values(_item(data, *top_dicts[0]), string_texts)
    char_strings = values.get(_CHAR_STRINGS)
    if char_strings is None:
        return TopDict(data, string_texts, values, None)
    if type(char_strings) is not int or char_strings < 0:
        raise Unhandled("CharStrings not an offset")
    return TopDict(data, string_texts, values, _card(data, char_strings, 2))


def _card(data: bytes, offset: int, size: int) -> int:
    return int.from_bytes(_bytes(data, offset, size), "big")


def _index(data: bytes, position: int) -> tuple[list[tuple[int, int]], int]:
    """§5: an INDEX at position: the (start, end) of each item and where the INDEX ends."""
    count = _card(data, position, 2)
    if count == 0:
        return [], position + 2
    off_size = _card(data, position + 2, 1)
    if not 1 <= off_size <= 4:
        raise Unhandled("INDEX offset size")
    first = position + 3
    after = first + (count + 1) * off_size
    if len(data) < after:
        raise Unhandled("INDEX offsets past the data")
    offsets = [
        int.from_bytes(data[at : at + off_size], "big") for at in range(first, after, off_size)
    ]
    base = after - 1  # offsets count from the byte before the item data
    spans = [(base + offsets[i], base + offsets[i + 1]) for i in range(count)]
    return spans, base + offsets[-1]


def _item(data: bytes, start: int, end: int) -> bytes:
    if end < start or len(data) < end:
        raise Unhandled("INDEX item past the data")
    return data[start:end]


def _top_dict_values(data: bytes, strings: Sequence[str]) -> dict[int, object]:
    """§4: the DICT's operands by operator, as fontTools' DictDecompiler keeps them: an
    operator Table 9 does not define leaves its operands to the next one; each defined one
    takes its operands from the top of the stack (an array or delta all of them)."""
    operand_kinds = _data().operands
    stack: list[object] = []
    values: dict[int, object] = {}
    index = 0
    while index < len(data):
        b0 = data[index]
        index += 1
        if b0 <= 27 or b0 == 31:
            if b0 == 12:
                operator = 12 << 8 | _card(data, index, 1)
                index += 1
            else:
                operator = b0
            kinds = operand_kinds.get(operator)
            if kinds is not None:
                # The last operand kind takes the top of the stack.
                operands = [_operand(stack, kind, strings) for kind in reversed(kinds)]
                values[operator] = operands[0] if len(operands) == 1 else operands[::-1]
        elif b0 == 28:
            stack.append(int.from_bytes(_bytes(data, index, 2), "big", signed=True))
            index += 2
        elif b0 == 29:
            stack.append(int.from_bytes(_bytes(data, index, 4), "big", signed=True))
            index += 4
        elif b0 == 30:
            number, index = _real(data, index)
            stack.append(number)
        elif b0 <= 246:
            stack.append(b0 - 139)
        elif b0 <= 250:
            stack.append((b0 - 247) * 256 + _card(data, index, 1) + 108)
            index += 1
        elif b0 <= 254:
            stack.append(-(b0 - 251) * 256 - _card(data, index, 1) - 108)
            index += 1
        else:
            stack.append(_RESERVED)
    if stack:
        raise Unhandled("operands left on the DICT's stack")
    return values


def _operand(stack: list[object], kind: str, strings: Sequence[str]) -> object:
    if kind in ("array", "delta"):
        operands = stack[:]
        stack.clear()
        # fontTools adds a delta's operands up as it reads them.
        if kind == "delta" and any(operand is _RESERVED for operand in operands):
            raise Unhandled("reserved operand in a delta")
        return operands
    if not stack:
        raise Unhandled("operator without its operand")
    operand = stack.pop()
    return _string(strings, operand) if kind == "SID" else operand


def _bytes(data: bytes, index: int, size: int) -> bytes:
    if len(data) < index + size:
        raise Unhandled("read past the data")
    return data[index : index + size]


def _real(data: bytes, index: int) -> tuple[float, int]:
    """Table 5: a real number in nibbles, read as fontTools reads it (float of the text)."""
    text = ""
    while True:
        b = _card(data, index, 1)
        index += 1
        for nibble in (b >> 4, b & 0x0F):
            if nibble == 0x0F:
                try:
                    return float(text), index
                except ValueError:
                    raise Unhandled("real operand") from None
            part = _REAL_NIBBLES[nibble]
            if part is None:
                raise Unhandled("reserved nibble in a real operand")
            text += part


def _charset_names(data: bytes, offset: int, glyph_count: int, strings: Sequence[str]) -> list[str]:
    """§13, formats 0, 1 and 2: the names of glyphs 1 on (glyph 0 is .notdef)."""
    fmt = _card(data, offset, 1)
    names = [".notdef"]
    if fmt == 0:
        sids = _bytes(data, offset + 1, 2 * max(glyph_count - 1, 0))
        for at in range(0, len(sids), 2):
            names.append(_string(strings, int.from_bytes(sids[at : at + 2], "big")))
        return names
    if fmt not in (1, 2):
        raise Unhandled("charset format")
    left_size = fmt  # format 1's nLeft is a Card8, format 2's a Card16
    position = offset + 1
    while len(names) < glyph_count:
        first = _card(data, position, 2)
        left = _card(data, position + 2, left_size)
        position += 2 + left_size
        _string(strings, first + left)  # the whole range must be strings, as its last is
        names.extend(_string(strings, sid) for sid in range(first, first + left + 1))
    return names


def _glyph(charset: Sequence[str], glyph: int) -> str:
    if glyph >= len(charset):
        raise Unhandled("Encoding names a glyph past the charset")
    return charset[glyph]


def _unique(names: list[str]) -> list[str]:
    """A repeated name becomes name.N as fontTools renames it (the lowest N for which the
    name is not taken, counting on from the last N given to that name)."""
    taken_in_charset = set(names)
    given: dict[str, int] = {}
    unique = []
    for name in names:
        if name in given:
            number = given[name]
            while f"{name}.{number}" in given or f"{name}.{number}" in taken_in_charset:
                number += 1
            given[name] = number + 1
            name = f"{name}.{number}"
        given[name] = 1
        unique.append(name)
    return unique
