"""The content-stream interpreter (§7.8, §8.4, §9.3, §9.4): every shown glyph as a record.

One explicit state object holds the graphics and text state that `q` saves and `Q` restores
whole (§8.4.2, §9.3.1); the text matrices live outside it, as §9.4.2 says they are not part
of the graphics state. Content streams are tokenised by qpdf (`pikepdf.parse_content_stream`);
stream data comes through `glyphscope.core.pdf.streams.decode_stream`, which bounds decompression.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pikepdf

from glyphscope.core import compiled
from glyphscope.core.fonts.dicts import FontLimits
from glyphscope.core.fonts.loader import Font, FontInfo, load_font
from glyphscope.core.geometry import IDENTITY, Matrix, multiply, translate
from glyphscope.core.glyph_table import NO_MCID, GlyphColumns
from glyphscope.core.interpret.clipping import (
    PATH_OPERATORS,
    PathBox,
    form_bbox,
    intersect,
    transformed_box,
)
from glyphscope.core.interpret.content import (
    ParsedOperators,
    form_resources,
    form_xobject,
    page_resources,
    page_streams,
    read_operators,
)
from glyphscope.core.interpret.limits import OPERATOR_ERRORS, OperatorBudget, malformed_reason
from glyphscope.core.interpret.marked_content import MarkedContentTracker, ReplacementSpan
from glyphscope.core.interpret.runs import GlyphBudget, GlyphRuns
from glyphscope.core.interpret.state import (
    INT64_MAX,
    GraphicsState,
    matrix_operand,
    position_text,
    set_text_state,
)
from glyphscope.core.pdf.document import PdfPage
from glyphscope.core.pdf.objects import get_entry, name_key
from glyphscope.core.pdf.qpdf_log import collect_qpdf_messages
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.stages import guarded

if TYPE_CHECKING:
    from glyphscope.core.interpret.annotations import AnnotationSpan

# run, show and show_elements compiled (_loop.pyx), when the extension was built.
_loop = compiled.load("glyphscope.core.interpret._loop")

EXTRACTIONS_KEPT = 8


@dataclass(frozen=True, slots=True)
class PageExtraction:
    """What the interpreter found on one page.

    glyphs: page and form glyphs in drawing order. readable is False when the page has no
    content stream that could be read (spec §2 "no result"). truncated is True when a limit
    of the rules (stream size, operators, glyphs) cut the page short.
    """

    glyphs: GlyphColumns
    readable: bool
    truncated: bool
    warnings: tuple[str, ...]
    fonts: dict[tuple[str, str], FontInfo] = field(default_factory=dict)
    # §14.9.4/§14.9.5 marked content with /ActualText or /E, as glyph ranges.
    replacements: tuple[ReplacementSpan, ...] = ()
    # With rules.annotations: glyph ranges painted by annotation appearances (§12.5.5).
    annotations: tuple[AnnotationSpan, ...] = ()
    # The clipping box in force from each glyph index on (core.interpret.clipping).
    clips: tuple[tuple[int, tuple[float, float, float, float] | None], ...] = ()


class _Interpreter:
    def __init__(self, page: PdfPage, rules: Rules) -> None:
        self.pdf = page.document.pdf
        self.font_cache = page.document.font_cache
        self.rules = rules
        self.runs = GlyphRuns(rules.max_page_glyphs, page.document.piece_cache)
        self.warnings: list[str] = []
        self.fonts: dict[tuple[str, str], FontInfo] = {}
        self.resource_fonts: dict[tuple[str, str], Font] = {}
        # (form path, Tf operand) -> (font key, font), for the scanner's names (set_font).
        self.shown_fonts: dict[tuple[str, str], tuple[str, Font]] = {}
        self.font_limits = FontLimits.of(rules)
        self.used_fonts: dict[tuple[str, str], Font] = {}
        self.operators_run = 0
        self.truncated = False
        self.active_forms: set[tuple[int, int]] = set()
        self.parsed_forms: dict[tuple[int, int], ParsedOperators] = {}
        self.mcid_stack: list[int | None] = []
        self.marked = MarkedContentTracker()
        self.annotations: list[AnnotationSpan] = []
        self.path = PathBox() if _loop is None else _loop.PathBox()
        # (first glyph index, clipping box) each time a showing operator meets a new clip.
        self.clips: list[tuple[int, tuple[float, float, float, float] | None]] = []
        self.clip_in_force: tuple[float, float, float, float] | None = None
        self.skipped: dict[str, int] = {}
        self.warned: set[str] = set()

    # -- streams -------------------------------------------------------------------------

    def parse(self, streams: list[pikepdf.Stream], label: str) -> ParsedOperators:
        """Decode and tokenise streams joined as one, noting what went wrong."""
        rules = self.rules
        parsed = read_operators(
            self.pdf, streams, label, rules.max_stream_bytes, _INTERPRETED, rules.max_page_operators
        )
        self.warnings.extend(parsed.warnings)
        self.truncated = self.truncated or parsed.truncated
        return parsed

    # -- main loop ---------------------------------------------------------------------

    def run(
        self,
        parsed: ParsedOperators,
        resources: pikepdf.Dictionary | None,
        state: GraphicsState,
        form_depth: int,
        form_path: str,
    ) -> None:
        if _loop is not None:
            _loop.run(self, parsed, resources, state, form_depth, form_path)
            return
        text_matrix: Matrix = IDENTITY
        line_matrix: Matrix = IDENTITY
        stack: list[GraphicsState] = []
        mcid_floor = len(self.mcid_stack)
        marked_floor = self.marked.depth
        budget = self.rules.max_page_operators
        # Only the interpreted operators are listed; the others count against the budget
        # all the same, by their index (forms drawn in between add their own).
        previous = -1
        for index, operator, operands in parsed.operators or ():
            self.operators_run += index - previous
            previous = index
            if self.operators_run > budget:
                raise OperatorBudget(f"more than {budget} operators")
            try:
                if operator in _SHOWING:
                    text_matrix, line_matrix = self.show(
                        operator,
                        operands,
                        state,
                        text_matrix,
                        line_matrix,
                        index,
                        form_depth,
                        form_path,
                    )
                elif operator in _TEXT_POSITIONING:
                    text_matrix, line_matrix = position_text(operator, operands, state, line_matrix)
                elif operator in _TEXT_STATE:
                    set_text_state(operator, operands, state)
                elif operator == "Tf":
                    self.set_font(operands, state, resources, form_path)
                elif operator == "BT":
                    text_matrix = line_matrix = IDENTITY
                elif operator == "q":
                    if len(stack) >= self.rules.max_q_depth:
                        raise OperatorBudget(f"q nesting deeper than {self.rules.max_q_depth}")
                    stack.append(state.copy())
                elif operator == "Q":
                    if stack:
                        state = stack.pop()
                elif operator == "cm":
                    state.ctm = multiply(matrix_operand(operands), state.ctm)
                elif operator == "Do":
                    self.draw_xobject(operands[0], resources, state, form_depth, form_path)
                elif operator == "BDC":
                    self.begin_marked_content(operands, resources)
                elif operator == "BMC":
                    self.mcid_stack.append(self.mcid_stack[-1] if self.mcid_stack else None)
                    self.marked.begin(None, self.runs.count)
                elif operator == "EMC":
                    if len(self.mcid_stack) > mcid_floor:
                        self.mcid_stack.pop()
                    if self.marked.depth > marked_floor:
                        self.marked.end(self.runs.count)
                elif operator in PATH_OPERATORS:
                    state.clip = self.path.handle(operator, operands, state.ctm, state.clip)
            except OPERATOR_ERRORS as exc:
                self.skipped[operator] = self.skipped.get(operator, 0) + 1
                if self.skipped[operator] == 1:
                    where = form_path or "page"
                    self.warnings.append(
                        f"{where}: skipped malformed {operator} #{index}: {malformed_reason(exc)}"
                    )
        self.operators_run += parsed.count - 1 - previous
        if self.operators_run > budget:
            raise OperatorBudget(f"more than {budget} operators")
        del self.mcid_stack[mcid_floor:]
        self.marked.close_to(marked_floor, self.runs.count)

    # -- operators ---------------------------------------------------------------------

    def set_font(
        self,
        operands: list,
        state: GraphicsState,
        resources: pikepdf.Dictionary | None,
        form_path: str,
    ) -> None:
        name, size = operands[0], float(operands[1])
        if type(name) is str:
            # The scanner's plain name, seen before with this form path: its font and key as
            # the first time (the fonts and used fonts of the page already hold them).
            known = self.shown_fonts.get((form_path, name))
            if known is not None:
                state.font_key, state.font = known
                state.font_size = size
                return
        # §7.3.5: the resource name may be bytes that are not UTF-8 (a GBK font name); it is
        # looked up as the name object and shown #-escaped.
        is_name = isinstance(name, pikepdf.Name)
        key = name_key(name)
        state.font_key, state.font_size = key.lstrip("/"), size
        # A form path names one chain of resource dictionaries, so (form path, name) is one
        # font for the whole page: a page that repeats Tf thousands of times looks it up once.
        font = self.resource_fonts.get((form_path, key))
        if font is None:
            fonts = get_entry(resources, "/Font")
            font_dict = (
                fonts.get(name if is_name else key)
                if isinstance(fonts, pikepdf.Dictionary)
                else None
            )
            if not isinstance(font_dict, pikepdf.Dictionary):
                self.warn_once(f"{form_path or 'page'}: font {key} missing; Helvetica used")
                font_dict = _FALLBACK_FONT
            font = self.resource_fonts[(form_path, key)] = self.load(font_dict)
        state.font = font
        self.fonts.setdefault((form_path, state.font_key), font.info())
        self.used_fonts.setdefault((form_path, state.font_key), font)
        if type(name) is str:
            self.shown_fonts[(form_path, name)] = (state.font_key, font)

    def warn_once(self, message: str) -> None:
        """Record a finding once: a page may repeat the same fault thousands of times."""
        if message not in self.warned:
            self.warned.add(message)
            self.warnings.append(message)

    def load(self, font_dict: pikepdf.Dictionary) -> Font:
        """The document's Font for a dictionary, loaded once per document.

        An indirect font is keyed by its object number. A direct one (written inline in a
        /Font resource dictionary) has none, and pikepdf hands out a new wrapper on every
        lookup, so it is keyed by its own bytes (read once per page and resource name): the
        same dictionary, the same font; its indirect parts (descriptor, widths, program)
        appear there as references.
        """
        objgen = font_dict.objgen
        identity = objgen if objgen != (0, 0) else font_dict.unparse()
        cache_key = (identity, self.font_limits)
        font = self.font_cache.get(cache_key)
        if font is None:
            font = self.font_cache[cache_key] = load_font(font_dict, self.rules)
        return font

    def note_font_limits(self) -> None:
        """A font cap of the rules that was reached (a stream skipped, destinations cut) is a
        limit that changed the page's text: warn once per font and mark the page truncated."""
        for (form_path, key), font in self.used_fonts.items():
            for note in font.limits_hit():
                self.warn_once(f"{form_path or 'page'}: font {key}: {note}")
                self.truncated = True

    def begin_marked_content(self, operands: list, resources: pikepdf.Dictionary | None) -> None:
        """§14.6.2: the property list is inline or a name in the /Properties resource."""
        properties = operands[1] if len(operands) > 1 else None
        if isinstance(properties, (pikepdf.Name, str)):
            # Looked up as the name object: str() fails on a name that is not UTF-8 (§7.3.5),
            # and a skipped BDC would leave its EMC to close the sequence around it. The
            # scanner's plain names (str) are UTF-8 and found as text.
            properties = get_entry(get_entry(resources, "/Properties"), properties)
        mcid = None
        if isinstance(properties, dict):
            # The scanner's inline dictionary: integers are its only numbers, and any other
            # value is not numeric, which qpdf's object would refuse too.
            value = properties.get("/MCID")
            if type(value) is int and NO_MCID < value <= INT64_MAX:
                mcid = value
        elif isinstance(properties, pikepdf.Dictionary) and "/MCID" in properties:
            try:
                mcid = int(properties.MCID)
            except (TypeError, ValueError, OverflowError):
                mcid = None
            if mcid is not None and not NO_MCID < mcid <= INT64_MAX:
                mcid = None  # a real written as /MCID 1e300: no identifier a glyph can carry
        inherited = self.mcid_stack[-1] if self.mcid_stack else None
        self.mcid_stack.append(mcid if mcid is not None else inherited)
        self.marked.begin(properties, self.runs.count)

    def draw_xobject(
        self,
        name: object,
        resources: pikepdf.Dictionary | None,
        state: GraphicsState,
        form_depth: int,
        form_path: str,
    ) -> None:
        xobject = form_xobject(resources, name)
        if xobject is None:
            return
        # §8.10.1: the form's /Matrix maps form space into the user space current at Do.
        ctm = multiply(matrix_operand(xobject.get("/Matrix", IDENTITY)), state.ctm)
        self.draw_form(xobject, ctm, resources, state, form_depth, form_path + name_key(name))

    def draw_form(
        self,
        xobject: pikepdf.Stream,
        ctm: Matrix,
        resources: pikepdf.Dictionary | None,
        state: GraphicsState,
        form_depth: int,
        path: str,
    ) -> None:
        """Interpret a form with `ctm` as its CTM, guarding depth and cycles."""
        if form_depth + 1 > self.rules.form_depth:
            limit = self.rules.form_depth
            self.warn_once(f"{path}: form nesting deeper than {limit}; skipped")
            return
        objgen = xobject.objgen
        if objgen in self.active_forms:
            self.warn_once(f"{path}: form draws itself (cycle); skipped")
            return
        if objgen not in self.parsed_forms:
            self.parsed_forms[objgen] = self.parse([xobject], path)
        parsed = self.parsed_forms[objgen]
        if not parsed.count:
            return
        form_state = state.copy()
        form_state.ctm = ctm
        box = form_bbox(xobject)
        if box is not None:
            # §8.10.1: the form's /BBox clips what it paints.
            form_state.clip = intersect(state.clip, transformed_box(ctm, box))
        self.active_forms.add(objgen)
        try:
            inner = form_resources(xobject, resources)
            self.run(parsed, inner, form_state, form_depth + 1, path)
        finally:
            self.active_forms.discard(objgen)

    def draw_annotations(self, page: PdfPage) -> None:
        """After the page content: each visible annotation's normal appearance (§12.5.5)."""
        # Imported here: only the rule `annotations` (--annotations) reads appearances.
        from glyphscope.core.interpret.annotations import (
            AnnotationSpan,
            annotation_label,
            page_appearances,
        )

        for appearance in page_appearances(page, self.warnings):
            start = self.runs.count
            label = annotation_label(appearance)
            try:
                self.draw_form(
                    appearance.form, appearance.matrix, None, GraphicsState(IDENTITY), 0, label
                )
            except OPERATOR_ERRORS as exc:
                self.warnings.append(f"{label}: appearance skipped: {exc}")
            if self.runs.count > start:
                self.annotations.append(
                    AnnotationSpan(
                        start, self.runs.count, appearance.object_number, appearance.subtype
                    )
                )

    def show(
        self,
        operator: str,
        operands: list,
        state: GraphicsState,
        text_matrix: Matrix,
        line_matrix: Matrix,
        index: int,
        form_depth: int,
        form_path: str,
    ) -> tuple[Matrix, Matrix]:
        if operator == "TJ":
            elements = list(operands[0])
        else:
            if operator in ("'", '"'):
                if operator == '"':
                    state.word_spacing = float(operands[0])
                    state.character_spacing = float(operands[1])
                # §9.4.3 Table 109: ' is T* then Tj.
                text_matrix, line_matrix = position_text("T*", [], state, line_matrix)
            elements = [operands[-1]]
        font = state.font
        if font is None:
            font = state.font = self.fallback_font()
        if state.clip is not self.clip_in_force:
            self.clip_in_force = state.clip
            self.clips.append((self.runs.count, state.clip))
        pen = self.show_elements(elements, font, state, text_matrix, index, form_depth, form_path)
        # §9.4.4: after showing, Tm is translated by the total displacement.
        if font.writing_mode:
            return multiply(translate(0.0, pen), text_matrix), line_matrix
        return multiply(translate(pen, 0.0), text_matrix), line_matrix

    def fallback_font(self) -> Font:
        self.warn_once("text shown before any Tf; Helvetica used")
        return self.load(_FALLBACK_FONT)

    def show_elements(
        self,
        elements: list,
        font: Font,
        state: GraphicsState,
        text_matrix: Matrix,
        index: int,
        form_depth: int,
        form_path: str,
    ) -> float:
        """Record one run of glyphs (§9.4.4) and return the pen displacement in text space."""
        size = state.font_size
        scaling = state.horizontal_scaling
        char_spacing = state.character_spacing
        rise = state.text_rise
        a, b, c, d, e, f = multiply(text_matrix, state.ctm)
        vertical = font.writing_mode == 1
        runs = self.runs
        start = runs.count
        show_string = runs.show_string
        # §9.4.3: Tw applies to the single-byte code 32 only.
        space_spacing = char_spacing + state.word_spacing
        pen = 0.0
        try:
            for element_index, element in enumerate(elements):
                # Strings are bytes from the scanner, pikepdf.String from qpdf.
                if isinstance(element, (bytes, pikepdf.String)):
                    pen = show_string(
                        font,
                        bytes(element),
                        element_index,
                        pen,
                        size,
                        char_spacing,
                        space_spacing,
                        scaling,
                    )
                elif isinstance(element, (int, float)) or hasattr(element, "as_integer_ratio"):
                    # §9.4.3: a TJ number moves the pen back by number/1000 text-space units.
                    adjustment = float(element) / 1000.0 * size
                    pen -= adjustment if vertical else adjustment * scaling
        finally:
            mcid = self.mcid_stack[-1] if self.mcid_stack else None
            runs.end_run(
                start,
                (
                    *(a, b, c, d, e, f),
                    *(size, scaling, char_spacing, space_spacing, rise),
                    font.descent * size,
                    font.ascent * size,
                    abs(size) * math.hypot(c, d),
                ),
                (
                    1 if vertical else 0,
                    state.render_mode,
                    NO_MCID if mcid is None else mcid,
                    index if form_depth == 0 else -1,
                    form_depth,
                    index,
                ),
                (state.font_key, font.name, form_path),
            )
        return pen


_SHOWING = frozenset(("Tj", "TJ", "'", '"'))
_TEXT_POSITIONING = frozenset(("Td", "TD", "Tm", "T*"))
_TEXT_STATE = frozenset(("Tc", "Tw", "Tz", "TL", "Ts", "Tr"))
_INTERPRETED = (
    _SHOWING
    | _TEXT_POSITIONING
    | _TEXT_STATE
    | PATH_OPERATORS
    | {
        "Tf",
        "BT",
        "q",
        "Q",
        "cm",
        "Do",
        "BDC",
        "BMC",
        "EMC",
    }
)

_FALLBACK_FONT = pikepdf.Dictionary(
    Type=pikepdf.Name.Font,
    Subtype=pikepdf.Name.Type1,
    BaseFont=pikepdf.Name.Helvetica,
    Encoding=pikepdf.Name.WinAnsiEncoding,
)


def extract_page(page: PdfPage, rules: Rules) -> PageExtraction:
    """All painted glyphs of a page (its stream and every form it draws), with the findings.

    Cached per document for the last EXTRACTIONS_KEPT pages and limits, so re-analysing a page
    with new thresholds does not re-interpret it, and visiting every page of a long file does
    not keep them all."""
    key = (
        page.index,
        rules.form_depth,
        rules.max_stream_bytes,
        rules.max_page_operators,
        rules.max_page_glyphs,
        rules.annotations,
        FontLimits.of(rules),
        rules.max_q_depth,
    )
    cache = page.document.extraction_cache
    extraction: PageExtraction | None = cache.get(key)
    if extraction is None:
        extraction = cache[key] = interpret_page(page, rules)
        if len(cache) > EXTRACTIONS_KEPT:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return extraction


def page_glyphs(page: PdfPage, rules: Rules) -> list[Glyph] | None:
    """Glyphs the page content stream paints, form glyphs excluded (spec §3 "all glyphs").

    None ("no result") when the page has no readable content stream.
    """
    extraction = extract_page(page, rules)
    if not extraction.readable:
        return None
    glyphs = extraction.glyphs
    return [glyphs[row] for row in page_rows(glyphs)]


def page_rows(glyphs: GlyphColumns) -> list[int]:
    """The rows of the glyphs the page content stream paints itself (form depth 0)."""
    return np.flatnonzero(glyphs.form_depth == 0).tolist()


def interpret_page(page: PdfPage, rules: Rules) -> PageExtraction:
    """Interpret a page's content stream and every form it draws (uncached)."""
    with collect_qpdf_messages() as qpdf_messages:
        interpreter = _Interpreter(page, rules)
        readable = _interpret(interpreter, page)
    interpreter.warnings.extend(qpdf_messages)
    if not readable:
        return PageExtraction(
            GlyphColumns.empty(), False, interpreter.truncated, tuple(interpreter.warnings)
        )
    return PageExtraction(
        interpreter.runs.columns(),
        True,
        interpreter.truncated,
        tuple(interpreter.warnings),
        interpreter.fonts,
        tuple(interpreter.marked.spans),
        tuple(interpreter.annotations),
        tuple(interpreter.clips),
    )


def _interpret(interpreter: _Interpreter, page: PdfPage) -> bool:
    """Run the page stream through the interpreter; False when there is none to read."""
    streams = page_streams(page)
    parsed = interpreter.parse(streams, "page") if streams else None
    if parsed is None or parsed.operators is None:
        if streams is None:
            interpreter.warnings.append("page has no content stream")
        return False
    try:
        interpreter.run(parsed, page_resources(page), GraphicsState(IDENTITY), 0, "")
        if interpreter.rules.annotations:
            guarded(
                "annotations",
                interpreter.warnings,
                lambda: interpreter.draw_annotations(page),
                lambda: None,
            )
    except (OperatorBudget, GlyphBudget) as exc:
        interpreter.truncated = True
        interpreter.warnings.append(f"page truncated: {exc}")
    interpreter.note_font_limits()
    return True
