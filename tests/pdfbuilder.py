"""Write small PDFs from raw content-stream bytes, so every test shows the bytes it controls.

Streams are stored exactly as given: the builder never parses, normalises or re-serialises a
content stream, a CMap or a /W array. Fonts and forms are indirect pikepdf objects returned by
the builder's methods; pass them to `add_page(fonts=..., xobjects=...)` by resource name.

    b = PdfBuilder()
    helv = b.standard_font("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET", fonts={"F1": helv})
    data = b.to_bytes()
"""

from __future__ import annotations

import io
import unicodedata
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

import pikepdf
from fontTools import agl
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable
from pikepdf import Array, Dictionary, Name, Stream

from glyphscope.core.fonts.encodings import base_encoding, standard14_widths

FontRef = Dictionary
"""An indirect font dictionary, usable as a value of `fonts={"F1": ...}`."""
FormRef = Stream
"""An indirect form XObject stream, usable as a value of `xobjects={"Fm1": ...}`."""
Box = tuple[float, float, float, float]
Data = bytes | str
"""Stream data; str is encoded Latin-1 so that "\\xe9" is the single byte 0xE9."""


class Encrypt(NamedTuple):
    """Password encryption applied by `save` (§7.6.3)."""

    user: str
    owner: str
    algorithm: Literal["rc4-40", "rc4-128", "aes-128", "aes-256"] = "aes-256"


_ALGORITHMS = {
    "rc4-40": {"R": 2, "aes": False, "metadata": False},
    "rc4-128": {"R": 4, "aes": False, "metadata": False},
    "aes-128": {"R": 4, "aes": True},
    "aes-256": {"R": 6, "aes": True},
}


@dataclass(frozen=True, slots=True)
class MCR:
    """A marked-content reference dictionary (§14.7.4.3); `stm` for content inside a form."""

    mcid: int
    page: int | None = None
    stm: FormRef | None = None


@dataclass(frozen=True, slots=True)
class OBJR:
    """An object reference dictionary (§14.7.4.4), e.g. to an annotation."""

    obj: pikepdf.Object
    page: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Element:
    """A structure element (§14.7.2). `kids` is written as given: a list becomes an array,
    a single kid a bare /K value. Append an element to its own (or a descendant's) kids to
    make a cyclic tree. `entries` adds keys such as {"ActualText": "...", "Alt": "..."}."""

    type: str
    kids: list[Kid] | Kid = field(default_factory=list)
    page: int | None = None
    entries: Mapping[str, object] | None = None


Kid = int | MCR | OBJR | Element


def pdf_object(value: object) -> object:
    """Python to PDF: "/Name" strings become names, other strings and bytes become strings,
    mappings become dictionaries (keys with or without the slash), sequences arrays."""
    if isinstance(value, pikepdf.Object) or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return Name(value) if value.startswith("/") else pikepdf.String(value)
    if isinstance(value, bytes):
        return pikepdf.String(value)
    if isinstance(value, Mapping):
        return Dictionary({_key(k): pdf_object(v) for k, v in value.items()})
    return Array([pdf_object(v) for v in value])


def _key(name: str) -> str:
    return name if name.startswith("/") else "/" + name


def _bytes(data: Data) -> bytes:
    return data.encode("latin-1") if isinstance(data, str) else data


def _code_hex(code: int | bytes, code_bytes: int) -> str:
    raw = code if isinstance(code, bytes) else code.to_bytes(code_bytes, "big")
    return f"<{raw.hex().upper()}>"


def _utf16_hex(text: str) -> str:
    # §9.10.3: destinations are UTF-16BE, so U+1F600 becomes a surrogate pair.
    return f"<{text.encode('utf-16-be').hex().upper()}>"


def _blocks(keyword: str, lines: list[str], count_override: int | None) -> list[str]:
    out = []
    for start in range(0, len(lines), 100):  # §9.10.3: at most 100 entries per block
        chunk = lines[start : start + 100]
        count = len(chunk) if count_override is None else count_override
        out += [f"{count} begin{keyword}", *chunk, f"end{keyword}"]
    return out


def _cmap_text(name, cmap_type, system_info, wmode, codespace, code_bytes, body, usecmap):
    registry, ordering, supplement = system_info
    spaces = codespace or [(0, 256**code_bytes - 1)]
    ranges = [f"{_code_hex(lo, code_bytes)} {_code_hex(hi, code_bytes)}" for lo, hi in spaces]
    lines = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        *([f"/{usecmap} usecmap"] if usecmap else []),
        f"/CIDSystemInfo << /Registry ({registry}) /Ordering ({ordering}) "
        f"/Supplement {supplement} >> def",
        f"/CMapName /{name} def",
        f"/CMapType {cmap_type} def",
        *([f"/WMode {wmode} def"] if wmode is not None else []),
        *_blocks("codespacerange", ranges, None),
        *body,
        "endcmap",
        "CMapName currentdict /CMap defineresource pop",
        "end",
        "end",
    ]
    return "\n".join(lines) + "\n"


def tounicode_cmap(
    mapping: Mapping[int | bytes, str] | None = None,
    *,
    code_bytes: int = 1,
    bfranges: Sequence[tuple[int | bytes, int | bytes, str | Sequence[str]]] = (),
    codespace: Sequence[tuple[int | bytes, int | bytes]] | None = None,
    count_override: int | None = None,
    usecmap: str | None = None,
    name: str = "Adobe-Identity-UCS",
) -> str:
    """ToUnicode CMap text (§9.10.3). `mapping` gives bfchar entries (int codes are padded to
    `code_bytes`, bytes codes written as is); `bfranges` entries end in a start string or an
    array of strings; `count_override` writes that count before every block instead of the
    true one (real files have wrong counts)."""
    chars = [f"{_code_hex(c, code_bytes)} {_utf16_hex(t)}" for c, t in (mapping or {}).items()]
    ranges = []
    for lo, hi, dst in bfranges:
        target = _utf16_hex(dst) if isinstance(dst, str) else f"[{' '.join(map(_utf16_hex, dst))}]"
        ranges.append(f"{_code_hex(lo, code_bytes)} {_code_hex(hi, code_bytes)} {target}")
    body = _blocks("bfchar", chars, count_override) + _blocks("bfrange", ranges, count_override)
    return _cmap_text(name, 2, ("Adobe", "UCS", 0), None, codespace, code_bytes, body, usecmap)


def cid_cmap(
    cidchars: Mapping[int | bytes, int] | None = None,
    *,
    cidranges: Sequence[tuple[int | bytes, int | bytes, int]] = (),
    code_bytes: int = 2,
    codespace: Sequence[tuple[int | bytes, int | bytes]] | None = None,
    wmode: int = 0,
    name: str = "Glyphscope-Test-H",
    cid_system_info: tuple[str, str, int] = ("Adobe", "Identity", 0),
    count_override: int | None = None,
    usecmap: str | None = None,
) -> str:
    """Encoding CMap text mapping codes to CIDs (§9.7.5), for `type0_font(encoding=...)`."""
    chars = [f"{_code_hex(c, code_bytes)} {cid}" for c, cid in (cidchars or {}).items()]
    ranges = [
        f"{_code_hex(lo, code_bytes)} {_code_hex(hi, code_bytes)} {c}" for lo, hi, c in cidranges
    ]
    body = _blocks("cidchar", chars, count_override) + _blocks("cidrange", ranges, count_override)
    return _cmap_text(name, 1, cid_system_info, wmode, codespace, code_bytes, body, usecmap)


def standard_widths(base_font: str, encoding: str | None = "WinAnsiEncoding") -> dict[int, float]:
    """Widths per code of a standard-14 font under a base encoding (None: the font's built-in
    one), from the URW metric clones the engine also ships, so pdfium and we agree."""
    builtin = base_font if base_font in ("Symbol", "ZapfDingbats") else "StandardEncoding"
    names = base_encoding(encoding or builtin) or ()
    widths = standard14_widths(base_font)
    return {code: widths[name] for code, name in enumerate(names) if name in widths}


def _glyph_name(char: str) -> str:
    cp = ord(char)
    return agl.UV2AGL.get(cp) or (f"uni{cp:04X}" if cp <= 0xFFFF else f"u{cp:X}")


def truetype_program(
    chars: str,
    *,
    cmap: Literal["unicode", "symbol", "none"] = "unicode",
    glyph_names: bool = True,
    family: str = "GlyphscopeBox",
) -> bytes:
    """A tiny TrueType font: glyphs 1.. are boxes (blank for whitespace) for `chars` in
    order (GID = index + 1), 600 units wide or 1000 for wide East Asian characters. `cmap`
    "unicode" writes (3,1) char -> glyph; "symbol" writes (3,0) 0xF000 + ord(char) -> glyph
    (symbolic fonts, §9.6.6.4); `glyph_names` keeps AGL / uniXXXX names in 'post'."""
    glyph_of = {c: _glyph_name(c) for c in chars}
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", *glyph_of.values()])
    builder.setupCharacterMap({ord(c): g for c, g in glyph_of.items()} if cmap == "unicode" else {})
    if cmap != "unicode":
        builder.font["cmap"].tables = []
    if cmap == "symbol":
        table = CmapSubtable.newSubtable(4)
        table.platformID, table.platEncID, table.language = 3, 0, 0
        table.cmap = {0xF000 + ord(c): g for c, g in glyph_of.items() if ord(c) < 256}
        builder.font["cmap"].tables.append(table)
    advances = {".notdef": 600}
    for char, glyph in glyph_of.items():
        advances[glyph] = 1000 if unicodedata.east_asian_width(char) in "WF" else 600
    glyphs = {}
    for char, glyph_name in [("", ".notdef"), *glyph_of.items()]:
        pen = TTGlyphPen(None)
        if not char.isspace():
            advance = advances[glyph_name]
            pen.moveTo((50, 0))
            pen.lineTo((50, 700))
            pen.lineTo((advance - 50, 700))
            pen.lineTo((advance - 50, 0))
            pen.closePath()
        glyphs[glyph_name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({n: (a, 50) for n, a in advances.items()})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost(keepGlyphNames=glyph_names)
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


class PdfBuilder:
    """Collects pages, fonts, forms and structure into one pikepdf.Pdf (`.pdf`, for anything
    the helpers do not cover) and saves it without touching stream data."""

    def __init__(self) -> None:
        self.pdf = pikepdf.new()
        self._descriptors: dict[tuple[str, bytes | None, int], Dictionary] = {}

    def stream(self, data: Data, **entries: object) -> Stream:
        """An indirect stream holding `data` verbatim; `entries` go into its dictionary, e.g.
        `stream(zlib.compress(b"..."), Filter="/FlateDecode")` or a bogus filter."""
        result = Stream(self.pdf, _bytes(data))
        for key, value in entries.items():
            result[_key(key)] = pdf_object(value)
        return self.pdf.make_indirect(result)

    def _compressed(self, data: bytes, **entries: object) -> Stream:
        return self.stream(zlib.compress(data, 9), Filter="/FlateDecode", **entries)

    def _content(self, part: Data | Stream) -> Stream:
        return part if isinstance(part, Stream) else self.stream(part)

    def add_page(
        self,
        content: Data | Stream | Sequence[Data | Stream] | None = b"",
        *,
        media_box: Box = (0, 0, 612, 792),
        crop_box: Box | None = None,
        rotate: int = 0,
        user_unit: float | None = None,
        fonts: Mapping[str, FontRef] | None = None,
        xobjects: Mapping[str, FormRef] | None = None,
        properties: Mapping[str, object] | None = None,
        struct_parents: int | None = None,
        extra: Mapping[str, object] | None = None,
    ) -> int:
        """Append a page and return its 0-based index. A list `content` becomes a /Contents
        array (§7.7.3.3), None no /Contents at all. /Resources is written only when fonts,
        xobjects or properties is given (pass {} for an empty one). `extra` adds any other
        page entries."""
        page = Dictionary(Type=Name.Page, MediaBox=Array(media_box))
        if isinstance(content, (bytes, str, Stream)):
            page.Contents = self._content(content)
        elif content is not None:
            page.Contents = Array([self._content(part) for part in content])
        resources = self._resources(fonts, xobjects, properties)
        if resources is not None:
            page.Resources = resources
        if crop_box is not None:
            page.CropBox = Array(crop_box)
        if rotate:
            page.Rotate = rotate
        if user_unit is not None:
            page.UserUnit = user_unit
        if struct_parents is not None:
            page.StructParents = struct_parents
        for key, value in (extra or {}).items():
            page[_key(key)] = pdf_object(value)
        self.pdf.pages.append(pikepdf.Page(page))
        return len(self.pdf.pages) - 1

    def page_object(self, index: int) -> Dictionary:
        """The page dictionary of page `index` (for /Pg and hand edits)."""
        return self.pdf.pages[index].obj

    @staticmethod
    def _resources(fonts, xobjects, properties) -> Dictionary | None:
        if fonts is None and xobjects is None and properties is None:
            return None
        resources = Dictionary()
        for key, entries in (("/Font", fonts), ("/XObject", xobjects), ("/Properties", properties)):
            if entries is not None:
                resources[key] = pdf_object(dict(entries))
        return resources

    def add_resources(
        self,
        target: FormRef | int,
        *,
        fonts: Mapping[str, FontRef] | None = None,
        xobjects: Mapping[str, FormRef] | None = None,
        properties: Mapping[str, object] | None = None,
    ) -> None:
        """Merge resources into a form or a page (by index) after creation, which is how a
        form draws itself (`add_resources(a, xobjects={"A": a})`) or A -> B -> A cycles."""
        owner = self.page_object(target) if isinstance(target, int) else target
        if "/Resources" not in owner:
            owner.Resources = Dictionary()
        added = self._resources(fonts, xobjects, properties)
        for category, entries in added.items():
            if category not in owner.Resources:
                owner.Resources[category] = Dictionary()
            for name, value in entries.items():
                owner.Resources[category][name] = value

    def form_xobject(
        self,
        content: Data,
        *,
        bbox: Box = (0, 0, 612, 792),
        matrix: tuple[float, float, float, float, float, float] | None = None,
        fonts: Mapping[str, FontRef] | None = None,
        xobjects: Mapping[str, FormRef] | None = None,
        properties: Mapping[str, object] | None = None,
        struct_parents: int | None = None,
    ) -> FormRef:
        """A form XObject (§8.10). Without fonts/xobjects/properties it has NO /Resources and
        borrows those of the stream that draws it (§7.8.3)."""
        form = self.stream(content, Type="/XObject", Subtype="/Form", BBox=bbox)
        if matrix is not None:
            form.Matrix = Array(matrix)
        resources = self._resources(fonts, xobjects, properties)
        if resources is not None:
            form.Resources = resources
        if struct_parents is not None:
            form.StructParents = struct_parents
        return form

    def _simple_font(
        self, subtype, base_font, encoding, differences, widths, first_char, to_unicode
    ):
        font = Dictionary(Type=Name.Font, Subtype=Name("/" + subtype))
        if base_font is not None:  # §9.6.5: Type3 fonts have no /BaseFont
            font.BaseFont = Name("/" + base_font)
        if differences is not None:
            font.Encoding = Dictionary(Type=Name.Encoding, Differences=_differences(differences))
            if encoding is not None:
                font.Encoding.BaseEncoding = Name("/" + encoding)
        elif encoding is not None:
            font.Encoding = Name("/" + encoding)
        if widths is not None:
            if isinstance(widths, Mapping):
                first_char = min(widths)
                widths = [widths.get(code, 0) for code in range(first_char, max(widths) + 1)]
            font.FirstChar, font.LastChar = first_char, first_char + len(widths) - 1
            font.Widths = Array(widths)
        if to_unicode is not None:
            font.ToUnicode = self.stream(to_unicode)
        return font

    def standard_font(
        self,
        base_font: str = "Helvetica",
        *,
        encoding: str | None = "WinAnsiEncoding",
        differences: Sequence[int | str] | None = None,
        widths: Mapping[int, float] | Sequence[float] | None = None,
        first_char: int = 32,
        to_unicode: Data | None = None,
    ) -> FontRef:
        """A non-embedded Type1 font (§9.6.2). `encoding` None omits /Encoding (the font's
        built-in one); `differences` like [128, "fi", "fl"] makes an encoding dictionary;
        `widths` per code (mapping) or from `first_char` (list); `to_unicode` is CMap text."""
        font = self._simple_font(
            "Type1", base_font, encoding, differences, widths, first_char, to_unicode
        )
        return self.pdf.make_indirect(font)

    def _descriptor(self, font_name: str, program: bytes | None, flags: int) -> Dictionary:
        # One descriptor (and one embedded program) per font, however many fonts use it,
        # e.g. the -H and -V faces of one CJK font.
        key = (font_name, program, flags)
        if key not in self._descriptors:
            self._descriptors[key] = self._new_descriptor(font_name, program, flags)
        return self._descriptors[key]

    def _new_descriptor(self, font_name: str, program: bytes | None, flags: int) -> Dictionary:
        ascent, descent, bbox = 800, -200, [0, -200, 1000, 800]
        if program is not None:
            tt = TTFont(io.BytesIO(program))
            scale = 1000 / tt["head"].unitsPerEm
            ascent, descent = tt["hhea"].ascent * scale, tt["hhea"].descent * scale
            head = tt["head"]
            bbox = [round(v * scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)]
        descriptor = Dictionary(
            Type=Name.FontDescriptor,
            FontName=Name("/" + font_name),
            Flags=flags,
            FontBBox=Array(bbox),
            ItalicAngle=0,
            Ascent=round(ascent),
            Descent=round(descent),
            CapHeight=round(ascent * 0.875),
            StemV=80,
        )
        if program is not None:
            descriptor.FontFile2 = self._compressed(program, Length1=len(program))
        return self.pdf.make_indirect(descriptor)

    def truetype_font(
        self,
        program: bytes | None = None,
        *,
        chars: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,",
        base_font: str = "GlyphscopeBox",
        encoding: str | None = "WinAnsiEncoding",
        differences: Sequence[int | str] | None = None,
        widths: Mapping[int, float] | Sequence[float] | None = None,
        first_char: int = 32,
        flags: int = 32,
        to_unicode: Data | None = None,
    ) -> FontRef:
        """A simple TrueType font (§9.6.3) embedding `program` (default: truetype_program of
        `chars`) as /FontFile2. Widths default to the program's advances of the codes its
        (3,1) or (3,0) cmap reaches through cp1252. `flags` 32 nonsymbolic, 4 symbolic."""
        program = truetype_program(chars) if program is None else program
        if widths is None:
            widths = _program_widths(program)
        font = self._simple_font(
            "TrueType", base_font, encoding, differences, widths, first_char, to_unicode
        )
        font.FontDescriptor = self._descriptor(base_font, program, flags)
        return self.pdf.make_indirect(font)

    def type0_font(
        self,
        base_font: str = "GlyphscopeCID",
        *,
        encoding: Data = "Identity-H",
        cid_system_info: tuple[str, str, int] = ("Adobe", "Japan1", 6),
        w: Sequence[object] | None = None,
        dw: float | None = None,
        w2: Sequence[object] | None = None,
        dw2: tuple[float, float] | None = None,
        to_unicode: Data | None = None,
        cid_font_type: Literal["CIDFontType0", "CIDFontType2"] = "CIDFontType2",
        font_program: bytes | None = None,
    ) -> FontRef:
        """A composite font (§9.7). `encoding` is a CMap name, or CMap text (containing
        "begincmap") embedded as a /CMap stream. /W, /W2 are written exactly as given, e.g.
        [10, [500, 600], 1, 3, 250], so out-of-order or overlapping entries are expressible;
        dw / dw2 None omits /DW /DW2. `font_program` (TrueType bytes, GID = CID via
        /CIDToGIDMap /Identity) is embedded as /FontFile2."""
        registry, ordering, supplement = cid_system_info
        info = Dictionary(
            Registry=pikepdf.String(registry),
            Ordering=pikepdf.String(ordering),
            Supplement=supplement,
        )
        cid_font = Dictionary(
            Type=Name.Font,
            Subtype=Name("/" + cid_font_type),
            BaseFont=Name("/" + base_font),
            CIDSystemInfo=info,
            FontDescriptor=self._descriptor(base_font, font_program, 4),
        )
        if cid_font_type == "CIDFontType2":
            cid_font.CIDToGIDMap = Name.Identity
        for key, value in (("/W", w), ("/DW", dw), ("/W2", w2), ("/DW2", dw2)):
            if value is not None:
                cid_font[key] = pdf_object(value)
        text = _bytes(encoding)
        if b"begincmap" in text:
            cmap = self.stream(text, Type="/CMap", CIDSystemInfo=info)
            cmap.CMapName = Name("/" + _cmap_name(text))
            cmap.WMode = 1 if b"/WMode 1" in text else 0
        else:
            cmap = Name("/" + text.decode("latin-1"))
        font = Dictionary(
            Type=Name.Font,
            Subtype=Name.Type0,
            BaseFont=Name("/" + base_font),
            Encoding=cmap,
            DescendantFonts=Array([self.pdf.make_indirect(cid_font)]),
        )
        if to_unicode is not None:
            font.ToUnicode = self.stream(to_unicode)
        return self.pdf.make_indirect(font)

    def type3_font(
        self,
        char_procs: Mapping[str, Data],
        *,
        differences: Sequence[int | str],
        widths: Mapping[int, float] | Sequence[float],
        first_char: int = 32,
        font_matrix: tuple[float, float, float, float, float, float] = (0.001, 0, 0, 0.001, 0, 0),
        font_bbox: Box = (0, 0, 1000, 1000),
        fonts: Mapping[str, FontRef] | None = None,
        to_unicode: Data | None = None,
    ) -> FontRef:
        """A Type3 font (§9.6.5): glyph procedures by name, an encoding of `differences`,
        widths in glyph space (scaled by `font_matrix`)."""
        font = self._simple_font("Type3", None, None, differences, widths, first_char, to_unicode)
        font.FontMatrix = Array(font_matrix)
        font.FontBBox = Array(font_bbox)
        font.CharProcs = Dictionary({_key(n): self.stream(p) for n, p in char_procs.items()})
        resources = self._resources(fonts, None, None)
        if resources is not None:
            font.Resources = resources
        return self.pdf.make_indirect(font)

    def struct_tree(
        self,
        kids: Element | Sequence[Element],
        *,
        role_map: Mapping[str, str] | None = None,
        marked: bool | None = True,
        parent_tree: bool = True,
    ) -> Dictionary:
        """Add /StructTreeRoot (§14.7.2) with `kids` in author order; call after the pages
        exist. Element and MCR `page` indexes become /Pg. With `parent_tree`, writes the
        /ParentTree (§14.7.4.4): per page or form (MCR `stm`) an array MCID -> element, per
        OBJR object its element, giving /StructParents (/StructParent for OBJR objects) to
        those that lack it. An MCID whose page is unknown gets no entry. `marked` writes
        /MarkInfo /Marked (None: no /MarkInfo)."""
        root = self.pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
        parents: dict[tuple[int, int], tuple[pikepdf.Object, dict[int, Dictionary] | Dictionary]]
        parents = {}
        root.K = self._struct_kids(kids, root, None, {}, parents)
        if role_map is not None:
            root.RoleMap = Dictionary({_key(k): Name(_key(v)) for k, v in role_map.items()})
        if parent_tree:
            root.ParentTree, root.ParentTreeNextKey = self._parent_tree(parents.values())
        self.pdf.Root.StructTreeRoot = root
        if marked is not None:
            self.pdf.Root.MarkInfo = Dictionary(Marked=marked)
        return root

    def _parent_tree(self, parents) -> tuple[Dictionary, int]:
        owners = [self.page_object(i) for i in range(len(self.pdf.pages))]
        owners += [owner for owner, _ in parents]
        used = [int(o[k]) for o in owners for k in ("/StructParents", "/StructParent") if k in o]
        next_key = max(used, default=-1) + 1
        nums = {}
        for owner, entry in parents:
            # §14.7.4.4: content owners map MCIDs through an array, OBJR objects one element.
            key = "/StructParent" if isinstance(entry, Dictionary) else "/StructParents"
            if key not in owner:
                owner[key], next_key = next_key, next_key + 1
            if key == "/StructParent":
                nums[int(owner[key])] = entry
            else:
                nums[int(owner[key])] = Array([entry.get(m) for m in range(max(entry) + 1)])
        flat = [item for key in sorted(nums) for item in (key, nums[key])]
        return self.pdf.make_indirect(Dictionary(Nums=Array(flat))), next_key

    def _struct_kids(self, kids, parent, page, built, parents):
        if isinstance(kids, list | tuple):
            return Array([self._struct_kid(k, parent, page, built, parents) for k in kids])
        return self._struct_kid(kids, parent, page, built, parents)

    def _struct_kid(self, kid, parent, page, built, parents):
        """One /K entry; records in `parents` which element owns each MCID or OBJR."""
        if isinstance(kid, int | MCR):
            mcid = kid if isinstance(kid, int) else kid.mcid
            page = kid.page if isinstance(kid, MCR) and kid.page is not None else page
            stm = kid.stm if isinstance(kid, MCR) else None
            owner = stm
            if owner is None and page is not None:
                owner = self.page_object(page)
            if owner is not None:
                parents.setdefault(owner.objgen, (owner, {}))[1][mcid] = parent
            if isinstance(kid, int):
                return kid
            ref = Dictionary(Type=Name.MCR, MCID=mcid)
            if kid.page is not None:
                ref.Pg = self.page_object(kid.page)
            if stm is not None:
                ref.Stm = stm
            return ref
        if isinstance(kid, OBJR):
            ref = Dictionary(Type=Name.OBJR, Obj=kid.obj)
            if kid.page is not None:
                ref.Pg = self.page_object(kid.page)
            parents[kid.obj.objgen] = (kid.obj, parent)
            return ref
        if id(kid) in built:  # shared or cyclic: refer to the element already written
            return built[id(kid)]
        element = self.pdf.make_indirect(
            Dictionary(Type=Name.StructElem, S=Name(_key(kid.type)), P=parent)
        )
        built[id(kid)] = element
        if kid.page is not None:
            element.Pg = self.page_object(kid.page)
        for key, value in (kid.entries or {}).items():
            element[_key(key)] = pdf_object(value)
        inherited = kid.page if kid.page is not None else page
        element.K = self._struct_kids(kid.kids, element, inherited, built, parents)
        return element

    def save(
        self,
        path: str | Path | None = None,
        *,
        encrypt: Encrypt | tuple[str, str] | tuple[str, str, str] | None = None,
        compress: bool = False,
    ) -> bytes:
        """The PDF's bytes, also written to `path` if given. Streams keep their data and
        filters (`compress` Flate-encodes the unfiltered ones); no object streams, so the
        file stays readable; the /ID is deterministic. `encrypt` is an Encrypt or a plain
        (user, owner[, algorithm]) tuple."""
        buffer = io.BytesIO()
        # Encrypted output must be re-encoded stream by stream, so qpdf refuses a decode level.
        options: dict[str, object] = {
            "deterministic_id": True,
            "stream_decode_level": pikepdf.StreamDecodeLevel.none,
        }
        if encrypt is not None:
            user, owner, algorithm = Encrypt(*encrypt)
            encryption = pikepdf.Encryption(user=user, owner=owner, **_ALGORITHMS[algorithm])
            options = {"static_id": True, "encryption": encryption}
        self.pdf.save(
            buffer,
            compress_streams=compress,
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
            **options,
        )
        data = buffer.getvalue()
        if path is not None:
            Path(path).write_bytes(data)
        return data

    def to_bytes(self) -> bytes:
        """`save()` without a path."""
        return self.save()


def _differences(entries: Sequence[int | str]) -> Array:
    return Array([e if isinstance(e, int) else Name(_key(e)) for e in entries])


def _cmap_name(text: bytes) -> str:
    after = text.split(b"/CMapName", 1)[1].split() if b"/CMapName" in text else []
    return after[0].lstrip(b"/").decode("latin-1") if after else "Glyphscope-Embedded"


def _program_widths(program: bytes) -> dict[int, float]:
    font = TTFont(io.BytesIO(program))
    scale = 1000 / font["head"].unitsPerEm
    unicode_map = font.getBestCmap() or {}
    symbol = font["cmap"].getcmap(3, 0)
    widths = {}
    for code in range(32, 256):
        try:
            glyph = unicode_map.get(ord(bytes([code]).decode("cp1252")))
        except UnicodeDecodeError:
            glyph = None
        if glyph is None and symbol is not None:
            glyph = symbol.cmap.get(0xF000 + code)
        if glyph is not None:
            widths[code] = round(font["hmtx"][glyph][0] * scale, 3)
    return widths


def lzw_codes(codes: Sequence[int], early_change: int = 1) -> bytes:
    """Pack LZW codes (§7.4.4.2) MSB first at the width a decoder reads them: 9 bits after a
    clear (256), one more each time the table it builds reaches 511, 1023 and 2047 entries
    (one entry sooner with EarlyChange 1). Lets a test write any code sequence, bombs too."""
    out = bytearray()
    bits = count = 0
    width, entries, after_clear = 9, 258, True
    for code in codes:
        bits, count = (bits << width) | code, count + width
        while count >= 8:
            count -= 8
            out.append((bits >> count) & 0xFF)
            bits &= (1 << count) - 1
        if code == 256:
            width, entries, after_clear = 9, 258, True
            continue
        if not after_clear:
            # The decoder adds an entry on every code but the first after a clear.
            if entries + early_change in (511, 1023, 2047):
                width += 1
            entries += 1
        after_clear = False
    if count:
        out.append((bits << (8 - count)) & 0xFF)
    return bytes(out)


def lzw_encode(data: bytes, early_change: int = 1) -> bytes:
    """LZWDecode data (§7.4.4.2): clear first, a new clear before the table fills, EOD last."""
    codes = [256]
    table = {bytes((i,)): i for i in range(256)}
    word = b""
    for value in data:
        longer = word + bytes((value,))
        if longer in table:
            word = longer
            continue
        codes.append(table[word])
        table[longer] = len(table) + 2
        word = bytes((value,))
        if len(table) + 2 >= 4094:
            codes.append(256)
            table = {bytes((i,)): i for i in range(256)}
    if word:
        codes.append(table[word])
    codes.append(257)
    return lzw_codes(codes, early_change)
