"""Where one glyph's text came from, step by step: output characters → glyph record → the
showing operator → the font → the decode step that answered (spec §1, §3; ISO 32000-1 §9.10)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTextBrowser

from glyphscope.core.fonts.loader import FontInfo
from glyphscope.core.interpret.content import OperatorRecord
from glyphscope.core.records import DecodeSource, Glyph
from glyphscope.core.view.explain import char_label
from glyphscope.core.view.page_model import PageModel
from glyphscope.core.view.text_provenance import text_step_html


@dataclass(frozen=True, slots=True)
class DecodeStep:
    """One step of the decode chain; `fonts` says which fonts take it: "any", "composite",
    "simple", "program first" (an embedded simple font without /BaseEncoding) or
    "program last" (every other font)."""

    source: str
    description: str
    fonts: str


# The fallback chain of spec §1 in the order core/simplefonts.py and core/cidfonts.py try it.
DECODE_CHAIN = (
    DecodeStep(DecodeSource.TO_UNICODE.value, "the font's /ToUnicode CMap (§9.10.3)", "any"),
    DecodeStep(
        DecodeSource.ENCODING_CMAP.value,
        "a Unicode-keyed Type0 /Encoding CMap, embedded or named (§9.7.5)",
        "composite",
    ),
    DecodeStep(
        DecodeSource.DIFFERENCES.value,
        "a /Differences glyph name (§9.6.6.1, Adobe Glyph List)",
        "simple",
    ),
    DecodeStep(
        DecodeSource.PREDEFINED_CMAP.value,
        "the CID collection's CID → Unicode table (§9.7.5.2)",
        "composite",
    ),
    DecodeStep(
        DecodeSource.FONT_PROGRAM.value,
        "the embedded program's own encoding, the implicit base without /BaseEncoding "
        "(Table 114); tried before the standard tables",
        "program first",
    ),
    DecodeStep(
        DecodeSource.BUILTIN_ENCODING.value,
        "a standard table: the /BaseEncoding named (WinAnsi, MacRoman, Standard), Symbol or "
        "ZapfDingbats for those fonts, else StandardEncoding (§9.6.6.1)",
        "simple",
    ),
    DecodeStep(
        DecodeSource.FONT_PROGRAM.value,
        "the embedded font program's own cmap or glyph names",
        "program last",
    ),
    DecodeStep(
        DecodeSource.TEX_ENCODING.value,
        "a TeX encoding (OT1, T1, OML, OMS, TS1) named by the font or shown by a dvips font's "
        "codes, or a TeX glyph name outside the AGL",
        "simple",
    ),
    DecodeStep(
        DecodeSource.GLYPH_NAME_NUMBER.value,
        "a glyph named by its own code (/a65) read as that code, when every /Differences "
        "name is so (a guess)",
        "simple",
    ),
)


FONT_OBJECT_HREF = "cos:font"
FONT_OBJECT_LINK = f"<p><a href='{FONT_OBJECT_HREF}'>Show the font dictionary in Objects</a></p>"


def decode_steps(info: FontInfo | None) -> tuple[DecodeStep, ...]:
    """The steps of DECODE_CHAIN a font takes (all of them when its record is not known)."""
    if info is None:
        return DECODE_CHAIN
    if info.subtype == "Type0":
        taken = {"any", "composite", "program last"}
    # core/simplefonts.py labels the encoding of a font that reads its program first so.
    elif info.encoding.startswith("font program"):
        taken = {"any", "simple", "program first"}
    else:
        taken = {"any", "simple", "program last"}
    return tuple(step for step in DECODE_CHAIN if step.fonts in taken)


FONT_ROWS = (
    ("subtype", "subtype"),
    ("base font", "base_font"),
    ("encoding", "encoding"),
    ("ToUnicode present", "has_to_unicode"),
    ("widths source", "widths_source"),
    ("/W sorted on read", "w_sorted_on_read"),
    ("descendant", "descendant_subtype"),
    ("CIDSystemInfo", "cid_system_info"),
    ("embedded program", "embedded_program"),
    ("writing mode", "writing_mode"),
)


def operator_lookup(operators) -> dict[tuple[str, int], OperatorRecord]:
    return {(record.form_path, record.index): record for record in operators}


def _table(rows) -> str:
    cells = "".join(
        f"<tr><td style='color:#555;padding-right:10px'>{escape(k)}</td><td>{v}</td></tr>"
        for k, v in rows
    )
    return f"<table cellspacing='0'>{cells}</table>"


def _section(number: int, title: str, body: str) -> str:
    return f"<h4 style='margin:8px 0 2px 0'>{number}. {escape(title)}</h4>{body}"


def output_rows(model: PageModel, index: int) -> list[tuple[str, str]]:
    rows = []
    for pane in model.panes.values():
        positions = [int(p) for p in pane.chars_of([index])]
        if positions:
            chars = "".join(pane.text[p] for p in positions)
            where = f"characters {positions[0]}–{positions[-1]}" if len(positions) > 1 else ""
            where = where or f"character {positions[0]}"
            rows.append((pane.title, f"“{escape(chars)}” at {where} of {len(pane.text)}"))
        else:
            rows.append((pane.title, "<i>not written</i>"))
    return rows


def operator_rows(glyph: Glyph, record: OperatorRecord | None) -> list[tuple[str, str]]:
    stream = "page content stream" if not glyph.form_path else f"form XObject {glyph.form_path}"
    rows = [
        ("stream", escape(stream) + (f" (depth {glyph.form_depth})" if glyph.form_depth else "")),
        ("operator index", f"<b>{glyph.operator_index}</b>"),
        (
            "token index",
            f"{glyph.token_index}" + (" (form glyph, §3)" if glyph.token_index < 0 else ""),
        ),
    ]
    if record is not None:
        element = f"element {glyph.element_index}" if record.operator == "TJ" else "—"
        rows.append(
            ("operator", f"<code>{escape(record.operands)} {escape(record.operator)}</code>")
        )
        rows.append(("TJ array element", element))
    else:
        rows.append(("TJ array element", str(glyph.element_index)))
    return rows


def font_rows(glyph: Glyph, info: FontInfo | None) -> list[tuple[str, str]]:
    rows = [
        ("resource key", f"/{escape(glyph.font_key)}"),
        ("name as drawn", escape(glyph.font_name)),
    ]
    if info is None:
        return rows + [("font record", "<i>not loaded yet</i>")]
    for label, attribute in FONT_ROWS:
        value = getattr(info, attribute)
        if isinstance(value, bool):
            value = "yes" if value else "no"
        rows.append((label, escape(str(value)) if value not in ("", None) else "—"))
    if info.problems:
        rows.append(("problems", "<br>".join(escape(p) for p in info.problems)))
    return rows


def decode_rows(glyph: Glyph, info: FontInfo | None = None) -> str:
    answered = glyph.decode_source
    items = []
    reached = False
    for step in decode_steps(info):
        source, description = step.source, step.description
        if source == answered and not reached:
            reached = True
            items.append(
                f"<li><b>{escape(source)}</b> — {escape(description)} "
                f"<b style='color:#2e7d32'>→ answered “{escape(glyph.text)}”</b></li>"
            )
        elif not reached:
            items.append(f"<li style='color:#777'>{escape(source)} — {escape(description)}</li>")
    if answered == DecodeSource.UNRESOLVED or not glyph.text:
        items.append(
            "<li><b style='color:#c62828'>unresolved</b> — no step answered: Unicode 0, "
            "written as a space so words stay apart (spec §1)</li>"
        )
    code = f"0x{glyph.code:0{max(glyph.code_length, 1) * 2}X} ({glyph.code_length} byte)"
    return f"<p>code {code}</p><ol style='margin-left:-20px'>{''.join(items)}</ol>"


def provenance_html(
    model: PageModel,
    index: int,
    operators: dict[tuple[str, int], OperatorRecord] | None,
    fonts: dict[tuple[str, str], FontInfo] | None,
) -> str:
    glyph = model.glyphs[index]
    record = (operators or {}).get((glyph.form_path, glyph.operator_index))
    info = (fonts or {}).get((glyph.form_path, glyph.font_key))
    record_rows = [
        ("glyph", f"#{index} ({escape(model.status[index].replace('_', ' '))})"),
        ("unicode", escape(char_label(glyph.text))),
        ("font size as drawn", f"{glyph.font_size:.2f}"),
        ("origin", f"({glyph.origin[0]:.2f}, {glyph.origin[1]:.2f})"),
        ("MCID", "—" if glyph.mcid is None else str(glyph.mcid)),
        ("draw order", str(glyph.draw_order)),
    ]
    text_steps = text_step_html(model, index)
    return (
        _section(1, "Output characters", _table(output_rows(model, index)))
        + _section(2, "Glyph record", _table(record_rows))
        + _section(3, "Showing operator", _table(operator_rows(glyph, record)))
        + _section(4, "Font", _table(font_rows(glyph, info)) + FONT_OBJECT_LINK)
        + _section(5, "Decode step", decode_rows(glyph, info))
        + (_section(6, "Text read", text_steps) if text_steps else "")
    )


class ProvenancePanel(QTextBrowser):
    # (form path, font resource key) of the shown glyph's font: open it in the object browser
    fontObjectWanted = Signal(str, str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("provenance")
        self.setOpenLinks(False)
        self._font: tuple[str, str] | None = None
        self.anchorClicked.connect(self._on_link)
        self.show_glyph(None, None)

    def _on_link(self, url) -> None:
        if url.toString() == FONT_OBJECT_HREF and self._font is not None:
            self.fontObjectWanted.emit(*self._font)

    def show_glyph(self, model: PageModel | None, index: int | None, operators=None, fonts=None):
        self._font = None
        if model is None or index is None or not 0 <= index < model.count:
            self.setHtml(
                "<p style='color:#666'>Select a glyph to see where its text came from.</p>"
            )
            return
        glyph = model.glyphs[index]
        self._font = (glyph.form_path, glyph.font_key)
        self.setHtml(provenance_html(model, index, operators, fonts))
