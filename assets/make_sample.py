"""Regenerate assets/sample.pdf: the showcase the inspector opens when no file is given.

Every page exercises decisions of ../shared/spec/extraction-rules.md with real, visible text:

1. Cover — a title whose words are separated only by TJ adjustments ("PDF Reference Manual /
   November 4, 1998", §6 word spaces); a kerned line set at `1 Tf` with the size in a scaled
   `12 0 0 12 x y Tm` (spaces judged against box height, not Tf); a word tracked with -2 Tc and
   given back glyph by glyph through TJ (glyph end, not pen position); a superscript and a
   subscript by Ts rise and a big word beside a small caption (one line each); the fi and fl
   ligatures reached through /Differences glyph names.
2. Fake bold & slug — CropBox inside MediaBox: "Bold words" drawn twice 0.3 pt apart, a
   triple strike, text render mode 2 (one showing, never a duplicate), a drop shadow offset
   2 pt (a known limit: both kept), "fill" (legitimate repeat), a footer drawn twice at the
   same spot, a diagonal "DRAFT COPY" watermark (one line), and a printer's slug line with
   crop marks between CropBox and MediaBox (dropped by the visible-box filter).
3. Forms — a running header and footer drawn by form XObjects, and a nested form: the outer
   form has its own /Resources and /Matrix, the inner one has NO /Resources (borrows the
   outer form's font, §7.8.3) and a scaling /Matrix; page-stream body text between the Do's;
   an inline image whose data bytes spell "(fake) Tj" (skipped whole).
4. CJK — a subset of Droid Sans Fallback (Apache-2.0) as an Identity-H CIDFontType2:
   justified ideographs stretched by Tc (no spaces between CJK characters), "95后" with a
   negative Tc given back by TJ, two columns of vertical Japanese through Identity-V (read
   right to left), and an unresolved glyph: 〓 (U+3013) with no ToUnicode entry, no cmap entry
   and an Identity ordering, so no step of the fallback chain maps it. A Latin line in a
   DejaVu Sans subset CID font whose /W is written in descending CID order, and that same
   two-byte font chosen inside q … Q, followed by text that must fall back to Helvetica.
5. Tagged — two columns whose content stream interleaves them line by line (one MCID per
   line), a structure tree reading heading, note, column 1, column 2, and an untagged page
   number (the untagged tail).

The catalog has /MarkInfo /Marked true and a /StructTreeRoot, but only page 5 is tagged:
pages 1–4 have no marked content and no /StructParents, so structure order gives "no result"
there and the inspector falls back to geometry, which is itself a decision worth showing.

Latin text uses standard-14 fonts with /Widths from the URW metric clones (the same numbers
the engine uses), so pdfium's rendering and our measurements agree. The CJK and Latin CID
fonts are subsets of Debian's fonts-droid-fallback (Apache-2.0) and fonts-dejavu-core
(Bitstream Vera licence, embedding permitted); their licence notices stay in the fonts' name
tables.

Usage: python3 assets/make_sample.py [--output FILE]
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glyphscope.core.fonts.encodings import standard14_widths  # noqa: E402
from tests.pdfbuilder import (  # noqa: E402
    Element,
    PdfBuilder,
    standard_widths,
    tounicode_cmap,
)

OUTPUT = Path(__file__).resolve().parent / "sample.pdf"
DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

JUSTIFIED = [
    "日本語の文章は単語の間に空白を入れません",
    "両端揃えでは字間を広げて行の長さを揃えます",
    "最終行は揃えません",
]
VERTICAL = ["縦書きの日本語は", "右から左へ読みます"]
GETA = "〓"
LATIN_CID = "Line ends survive when /W is written out of CID order."
INSIDE_Q = "Inside q ... Q: a two-byte Identity-H font."

COLUMN_1 = (
    "Structure order walks the tree from the StructTreeRoot through its kids in author "
    "order, keeping only the marked-content references of this page. The content stream "
    "of this page draws the two columns line by line, interleaved, so reading order alone "
    "would alternate between them."
)
COLUMN_2 = (
    "The structure tree reads the whole of column one, then the whole of column two. "
    "Glyphs outside every referenced MCID, like the page number below, are never dropped: "
    "they follow the structured text as an untagged tail, and their number is reported."
)


def literal(text: str) -> bytes:
    """A PDF literal string in WinAnsi (cp1252) with ( ) \\ escaped (§7.3.4.2)."""
    raw = text.encode("cp1252")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def show(font: str, size: float, x: float, y: float, text: str) -> bytes:
    """One BT … ET block showing `text` at (x, y)."""
    return b"BT /%s %g Tf %g %g Td %s Tj ET\n" % (font.encode(), size, x, y, literal(text))


def hex_gids(gids: list[int]) -> bytes:
    return b"<" + "".join(f"{g:04X}" for g in gids).encode() + b">"


def giveback(word: str, tc: float, size: float) -> bytes:
    """A TJ array returning, after every glyph, the space a negative Tc took away (§9.4.3)."""
    adjust = f"{tc * 1000 / size:g}".encode()
    return b"[" + adjust.join(literal(ch) for ch in word) + b"] TJ"


def subset_font(path: Path, text: str, drop_cmap: str = "") -> tuple[bytes, dict[str, int]]:
    """Subset `path` to `text` (hinting and glyph names dropped, vertical forms kept) and
    return the program and each character's GID; characters in `drop_cmap` keep their glyph
    but lose their cmap entry."""
    options = subset.Options()
    options.hinting = False
    options.drop_tables += ["FFTM"]
    options.glyph_names = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright and licence notices
    font = TTFont(path, recalcTimestamp=False)  # keep the output byte-for-byte reproducible
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    best = font.getBestCmap()
    order = {name: gid for gid, name in enumerate(font.getGlyphOrder())}
    gids = {ch: order[best[ord(ch)]] for ch in sorted(set(text))}
    for table in font["cmap"].tables:
        for ch in drop_cmap:
            table.cmap.pop(ord(ch), None)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), gids


def advance_widths(program: bytes, gids: dict[str, int]) -> dict[int, float]:
    """GID -> advance in thousandths of an em, the unit of /W (§9.7.4.3)."""
    font = TTFont(io.BytesIO(program))
    scale = 1000 / font["head"].unitsPerEm
    names = font.getGlyphOrder()
    return {gid: round(font["hmtx"][names[gid]][0] * scale, 1) for gid in gids.values()}


class Sample:
    """The five pages, sharing fonts."""

    def __init__(self) -> None:
        self.builder = PdfBuilder()
        b = self.builder
        self.fonts = {
            name: b.standard_font(base, widths=standard_widths(base))
            for name, base in (("H", "Helvetica"), ("HB", "Helvetica-Bold"), ("T", "Times-Roman"))
        }
        # Codes 128 and 129 re-encoded by /Differences to the fi and fl ligature glyphs.
        glyph_widths = standard14_widths("Helvetica")
        ligature_widths = standard_widths("Helvetica") | {
            0x80: glyph_widths["fi"],
            0x81: glyph_widths["fl"],
        }
        self.fonts["HL"] = b.standard_font(
            "Helvetica", differences=[128, "fi", "fl"], widths=ligature_widths
        )
        cjk_text = "".join(JUSTIFIED + VERTICAL) + "后" + GETA
        program, self.cjk = subset_font(DROID, cjk_text, drop_cmap=GETA)
        widths = advance_widths(program, self.cjk)
        w = [item for gid in sorted(widths) for item in (gid, [widths[gid]])]
        to_unicode = tounicode_cmap(
            {gid: ch for ch, gid in self.cjk.items() if ch != GETA}, code_bytes=2
        )
        for key, encoding in (("J", "Identity-H"), ("JV", "Identity-V")):
            self.fonts[key] = b.type0_font(
                "DroidSansFallback",
                encoding=encoding,
                cid_system_info=("Adobe", "Identity", 0),
                w=w,
                to_unicode=to_unicode,
                font_program=program,
            )
        program, self.latin = subset_font(DEJAVU, LATIN_CID + INSIDE_Q)
        widths = advance_widths(program, self.latin)
        unsorted_w = [item for gid in sorted(widths, reverse=True) for item in (gid, [widths[gid]])]
        self.fonts["L"] = b.type0_font(
            "DejaVuSans",
            cid_system_info=("Adobe", "Identity", 0),
            w=unsorted_w,
            to_unicode=tounicode_cmap({g: ch for ch, g in self.latin.items()}, code_bytes=2),
            font_program=program,
        )

    def title(self, number: int, text: str) -> bytes:
        return show("HB", 20, 72, 730, f"{number}  {text}")

    def cover(self) -> None:
        content = [
            self.title(1, "Cover"),
            b"BT /HB 30 Tf 72 640 Td [(PDF)-280(Reference)-280(Manual)] TJ\n",
            b"0 -38 Td [(November)-280(4,)-280(1998)] TJ ET\n",
            show("H", 9, 72, 580, "The title has no space characters: words are apart only"),
            show("H", 9, 72, 569, "by TJ adjustments of -280/1000 em."),
            b"BT /H 1 Tf 12 0 0 12 72 520 Tm [(W)-18(ord)-250(exports)-250(write)-250(1)-250"
            b"(Tf)-250(and)-250(carry)-250(the)-250(size)-250(in)-250(a)-250(sc)-18(aled)-250"
            b"(Tm.)] TJ ET\n",
            show(
                "H", 9, 72, 505, "Set at 1 Tf in a 12 0 0 12 Tm, kerned by -18: spaces are judged"
            ),
            show("H", 9, 72, 494, "against the glyph box height, not the Tf operand."),
            b"BT /H 12 Tf 72 450 Td (Tracked by -2 Tc, given back by TJ: ) Tj -2 Tc "
            + giveback("Glyphscope", -2, 12)
            + b" 0 Tc ET\n",
            show("H", 9, 72, 435, "Gaps are measured from each glyph's end, not the pen position."),
            b"BT /H 12 Tf 72 390 Td (Rise stays on its line: E = mc) Tj 5 Ts /H 7 Tf (2) Tj"
            b" 0 Ts /H 12 Tf ( and H) Tj -2.5 Ts /H 7 Tf (2) Tj 0 Ts /H 12 Tf (O.) Tj ET\n",
            b"BT /HB 36 Tf 72 330 Td (Big) Tj /H 8 Tf ( word beside a small caption on one "
            b"baseline) Tj ET\n",
            b"BT /HL 12 Tf 72 280 Td (Ligatures from /Differences: \\200nd the \\201ow) Tj ET\n",
            show("H", 9, 72, 265, "Codes 128 and 129 name the glyphs fi and fl (text may expand)."),
        ]
        self.builder.add_page(b"".join(content), fonts=self.fonts)

    def fake_bold(self) -> None:
        footer = show(
            "H", 9, 72, 60, "Glyphscope sample \u2014 footer drawn twice at the same spot"
        )
        slug = show("H", 7, 40, 16, "SLUG  proof 3  Glyphscope sample.pdf  2026-11-30  C M Y K")
        marks = b"0.5 w 0 36 m 24 36 l S 36 0 m 36 24 l S 576 0 m 576 24 l S 588 36 m 612 36 l S\n"
        content = [
            b"q 0.85 g BT /HB 80 Tf 0.7071 0.7071 -0.7071 0.7071 150 170 Tm (DRAFT COPY) Tj ET Q\n",
            self.title(2, "Fake bold & slug"),
            show("H", 18, 72, 650, "Bold words"),
            show("H", 18, 72.3, 650, "Bold words"),
            show("H", 9, 200, 654, "drawn twice, 0.3 pt apart: read once"),
            show("H", 18, 72, 610, "Triple strike"),
            show("H", 18, 72.25, 610, "Triple strike"),
            show("H", 18, 72.5, 610, "Triple strike"),
            show("H", 9, 200, 614, "three times, 0.25 pt apart: the first drawn is kept"),
            b"BT /HB 18 Tf 2 Tr 0.6 w 72 570 Td (Outlined) Tj 0 Tr ET\n",
            show("H", 9, 200, 574, "render mode 2: one showing, fill then stroke"),
            b"q 0.6 g " + show("HB", 18, 74, 528, "Shadow") + b"Q\n",
            show("HB", 18, 72, 530, "Shadow"),
            show("H", 9, 200, 534, "a shadow 2 pt off: beyond 0.1 x size, both kept (known limit)"),
            show("H", 18, 72, 490, "fill"),
            show("H", 9, 200, 494, "the two l's are an advance apart: both kept"),
            footer,
            footer,
            slug,
            marks,
        ]
        self.builder.add_page(b"".join(content), crop_box=(36, 36, 576, 756), fonts=self.fonts)

    def forms(self) -> None:
        b = self.builder
        header = b.form_xobject(
            show("HB", 11, 72, 760, "Glyphscope sample \u2014 running header in a form XObject")
            + b"0.5 w 72 754 m 540 754 l S\n",
            fonts={"HB": self.fonts["HB"]},
        )
        footer = b.form_xobject(
            show("H", 9, 0, 0, "Running footer: a form placed by its /Matrix"),
            bbox=(0, -5, 300, 15),
            matrix=(1, 0, 0, 1, 72, 50),
            fonts={"H": self.fonts["H"]},
        )
        inner = b.form_xobject(
            show("H", 12, 10, 30, "Inner form: no /Resources, so it borrows the outer")
            + show("H", 12, 10, 14, "form's font; drawn at 80% by its own /Matrix.")
            + b"0 0 1 RG 0.5 w 5 5 300 45 re S\n",
            bbox=(0, 0, 320, 60),
            matrix=(0.8, 0, 0, 0.8, 20, 20),
        )
        outer = b.form_xobject(
            show("H", 12, 10, 110, "Outer form (depth 1) with its own /Resources and /Matrix,")
            + show("H", 12, 10, 95, "drawing the inner form (depth 2):")
            + b"q /Inner Do Q 1 0 0 RG 0.5 w 0 0 420 130 re S\n",
            bbox=(0, 0, 420, 130),
            matrix=(1, 0, 0, 1, 90, 420),
            fonts={"H": self.fonts["H"]},
            xobjects={"Inner": inner},
        )
        content = [
            b"/Header Do\n",
            self.title(3, "Forms"),
            show("T", 12, 72, 660, "Body text drawn by the page stream, before the nested form."),
            show("T", 12, 72, 645, "Form glyphs are woven in where their Do appears and carry"),
            show("T", 12, 72, 630, "token index -1."),
            b"/Outer Do\n",
            show("T", 12, 72, 380, "Body text after the nested form, still in the page stream."),
            # §8.9.7: the image data spells an operator; an interpreter must skip it whole.
            b"q 160 0 0 10 72 340 cm BI /W 16 /H 1 /BPC 8 /CS /G ID (fake) Tj ] TJ x\nEI Q\n",
            show("T", 12, 72, 320, "The grey strip above is an inline image whose data bytes"),
            show("T", 12, 72, 305, "spell (fake) Tj: skipped whole, never read as text."),
            b"/Footer Do\n",
        ]
        b.add_page(
            b"".join(content),
            fonts=self.fonts,
            xobjects={"Header": header, "Outer": outer, "Footer": footer},
        )

    def cjk_page(self) -> None:
        size, left, width = 16, 72, 468
        content = [self.title(4, "CJK")]
        for row, line in enumerate(JUSTIFIED):
            last = row == len(JUSTIFIED) - 1
            # Justification stretches ideographs with Tc alone (§9.3.2); no space codes exist.
            tc = 0 if last else (width - size * len(line)) / (len(line) - 1)
            gids = [self.cjk[ch] for ch in line]
            content.append(
                b"BT /J %d Tf %.3f Tc %d %d Td %s Tj ET\n"
                % (size, tc, left, 670 - row * 28, hex_gids(gids))
            )
        content += [
            show("H", 9, 72, 580, "Justified ideographs: Tc stretches them, no spaces are read."),
            b"BT /H 14 Tf 72 540 Td (Negative Tc given back by TJ: ) Tj -1.5 Tc "
            + giveback("95", -1.5, 14)
            + b" /J 14 Tf "
            + hex_gids([self.cjk["后"]])
            + b" Tj 0 Tc ET\n",
            b"BT /H 10 Tf 72 480 Td (Unresolved glyph, mapped by no step of the chain: ) Tj"
            b" /J 14 Tf %s Tj ET\n" % hex_gids([self.cjk[GETA]]),
            show("H", 10, 72, 440, "Vertical Japanese (Identity-V), two columns,"),
            show("H", 10, 72, 428, "read right to left, top to bottom:"),
        ]
        for column, line in enumerate(VERTICAL):
            gids = hex_gids([self.cjk[ch] for ch in line])
            content.append(b"BT /JV 18 Tf %d 460 Td %s Tj ET\n" % (520 - column * 30, gids))
        content += [
            b"BT /L 12 Tf 72 240 Td %s Tj ET\n" % hex_gids([self.latin[ch] for ch in LATIN_CID]),
            show("H", 9, 72, 226, "DejaVu Sans subset as a CID font; its /W lists CIDs in"),
            show("H", 9, 72, 215, "descending order, so a reader must sort it (stably) first."),
            show("H", 10, 72, 170, "Before q: Helvetica, one byte per code."),
            b"q BT /L 10 Tf 72 156 Td %s Tj ET Q\n" % hex_gids([self.latin[c] for c in INSIDE_Q]),
            # §9.3.1: Q restores the text state with the font; this BT sets no font of its own.
            b"BT 72 142 Td (After Q, with no Tf: Helvetica again, not the CID font.) Tj ET\n",
        ]
        self.builder.add_page(b"".join(content), fonts=self.fonts)

    def tagged(self) -> int:
        content = [b"/H1 <</MCID 0>> BDC\n", self.title(5, "Tagged"), b"EMC\n"]
        note = "Content order interleaves the columns; structure order does not."
        content += [b"/P <</MCID 1>> BDC\n", show("H", 9, 72, 700, note), b"EMC\n"]
        columns = [_wrap(COLUMN_1, 215), _wrap(COLUMN_2, 215)]
        first_mcid = [2, 2 + len(columns[0])]
        for row in range(max(map(len, columns))):
            for index, lines in enumerate(columns):
                if row < len(lines):
                    mcid = first_mcid[index] + row
                    x, y = (72, 320)[index], 660 - row * 14
                    content += [b"/Span <</MCID %d>> BDC\n" % mcid, show("T", 11, x, y, lines[row])]
                    content.append(b"EMC\n")
        content.append(show("H", 10, 303, 50, "5"))
        page = self.builder.add_page(b"".join(content), fonts=self.fonts)
        paragraphs = [
            Element("P", list(range(first, first + len(lines))))
            for first, lines in zip(first_mcid, columns, strict=True)
        ]
        document = Element(
            "Document", [Element("H1", [0]), Element("P", [1]), *paragraphs], page=page
        )
        self.builder.struct_tree(document)
        return page

    def build(self) -> PdfBuilder:
        self.cover()
        self.fake_bold()
        self.forms()
        self.cjk_page()
        self.tagged()
        self.builder.pdf.docinfo["/Title"] = "Glyphscope sample"
        self.builder.pdf.Root.Lang = "en"
        return self.builder


def _wrap(text: str, width: float, size: float = 11) -> list[str]:
    """Greedy line breaking by Times-Roman widths."""
    widths = standard_widths("Times-Roman")
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if sum(widths[b] for b in candidate.encode("cp1252")) * size / 1000 > width and line:
            lines.append(line)
            candidate = word
        line = candidate
    return [*lines, line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    Sample().build().save(args.output, compress=True)


if __name__ == "__main__":
    main()
