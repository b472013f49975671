"""The pixel test behind the `no_ink` hidden-text reason (core.text.hidden).

A glyph leaves no ink when the rendered page does not change inside its box once text is taken
away: white on white, under an image, behind an opaque shape. The page is copied into a
one-page document twice, once as it is and once with every text object forced to render mode
3 (§9.3.6: neither fill nor stroke; 4–6 become 7 so clipping by text stays), in its own
stream and in every form it draws; pdfium renders both, unrotated, over the visible box, at
a scale where the median glyph is `rules.hidden_ink_pixels` pixels tall. A glyph whose box
differs nowhere by more than `rules.hidden_ink_tolerance` (0–255 per channel) leaves no ink.
A page that would render to more than `rules.hidden_ink_max_pixels` is not tested (a huge
MediaBox, §14.11.2: the bitmaps alone would exhaust memory), nor one with a stream pdfium
would read whole that decodes past `rules.max_stream_bytes`; the result's warning says so.
Annotation glyphs are not tested (pdfium draws the page without annotations here). Ink shared
with other text counts for both: a hidden glyph under a visible one is not found.

Costs two renders and one page copy per page, so it runs only when asked (the CLI's hidden
selections; in the inspector the copy is made on the analysis thread and rendered on the
render thread, which owns pdfium); `InkTest.seconds` says how long it took.

pdfium ends the process (SIGABRT) on inputs it cannot allocate for, such as 100,000 nested
marked-content sequences: `no_ink_glyphs` renders in a process of its own (core.contained:
2 GB of address space, 30 s a page), and a render that takes that process down, runs out of
memory or time is a test skipped with a warning.
"""

from __future__ import annotations

import functools
import io
import math
import statistics
import time
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pikepdf
import pypdfium2

from glyphscope.core.contained import ContainedProcess
from glyphscope.core.geometry import quad_bounds
from glyphscope.core.interpret.content import page_streams
from glyphscope.core.pdf.document import PdfPage
from glyphscope.core.pdf.objects import inherited_attribute
from glyphscope.core.pdf.streams import decode_stream
from glyphscope.core.records import Glyph
from glyphscope.core.rules import Rules
from glyphscope.core.stages import guarded
from glyphscope.core.text.arrays import GlyphRows, quad_heights
from glyphscope.core.text.chars import is_blank_text
from glyphscope.core.text.hidden import Clip, HiddenGlyph, hidden_glyphs
from glyphscope.core.text.visible import VisibleResult

MIN_SCALE, MAX_SCALE = 0.25, 4.0


class InkTest(NamedTuple):
    no_ink: frozenset[int]
    tested: int
    scale: float
    seconds: float
    warning: str = ""


def page_hidden(
    page: PdfPage,
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, Clip]],
    visible: VisibleResult,
    rules: Rules,
    *,
    ink: bool,
    warnings: list[str],
) -> tuple[tuple[HiddenGlyph, ...], InkTest | None]:
    """The hidden glyphs of a page, with the pixel test when `ink`, under the stage guard
    (core.stages): a failure finds nothing hidden and names itself in `warnings`, as does a
    pixel test that could not run."""
    found, ink_test = guarded(
        "hidden text",
        warnings,
        lambda: _page_hidden(page, glyphs, clips, visible, rules, ink=ink),
        lambda: ((), None),
    )
    if ink_test is not None and ink_test.warning:
        warnings.append(ink_test.warning)
    return found, ink_test


def _page_hidden(
    page: PdfPage,
    glyphs: Sequence[Glyph],
    clips: Sequence[tuple[int, Clip]],
    visible: VisibleResult,
    rules: Rules,
    *,
    ink: bool,
) -> tuple[tuple[HiddenGlyph, ...], InkTest | None]:
    ink_test = None
    if ink:
        ink_test = no_ink_glyphs(page, glyphs, ink_candidates(glyphs, visible.visible), rules)
    no_ink = ink_test.no_ink if ink_test is not None else ()
    return hidden_glyphs(glyphs, clips, visible.dropped, rules, no_ink), ink_test


def ink_candidates(glyphs: Sequence[Glyph], visible: Sequence[int]) -> list[int]:
    """The glyphs the pixel test looks at: visible ones that should paint something."""
    texts = GlyphRows(glyphs, visible).texts()
    blank = {text: is_blank_text(text) for text in set(texts)}
    return [i for i, text in zip(visible, texts, strict=True) if not blank[text]]


class InkRequest(NamedTuple):
    """The pikepdf half of the pixel test, done: the page as it is and without text (PDF
    bytes), the scale, the visible box's top-left corner and the tested glyphs' boxes. The
    pdfium half (`run_ink_test`) needs nothing else, so it can run on the thread that owns
    pdfium (pdfium is not thread-safe; the inspector's render thread)."""

    with_text: bytes
    without_text: bytes
    scale: float
    left: float
    top: float
    boxes: tuple[tuple[int, tuple[float, float, float, float]], ...]
    tolerance: float
    seconds: float


def no_ink_glyphs(
    page: PdfPage, glyphs: Sequence[Glyph], candidates: Sequence[int], rules: Rules
) -> InkTest:
    """Which of `candidates` leave no ink on the rendered page (the pikepdf half here, the
    pdfium half in a contained process)."""
    request = ink_request(page, glyphs, candidates, rules)
    if isinstance(request, InkTest):
        return request
    ok, answer = _renderer().run(run_ink_test, request)
    if ok and isinstance(answer, InkTest):
        return answer
    warning = f"pixel test skipped: {answer}"
    return InkTest(frozenset(), 0, request.scale, request.seconds, warning)


@functools.cache
def _renderer() -> ContainedProcess:
    """The process the pixel tests of this one render in (core.contained)."""
    return ContainedProcess()


def ink_request(
    page: PdfPage, glyphs: Sequence[Glyph], candidates: Sequence[int], rules: Rules
) -> InkRequest | InkTest:
    """The two one-page documents to render, or the finished (empty) test when there is
    nothing to test or the page cannot be copied."""
    started = time.perf_counter()
    paths = GlyphRows(glyphs, candidates).strings("form_path")
    tested = [i for i, path in zip(candidates, paths, strict=True) if not path.startswith("[annot")]
    rows = GlyphRows(glyphs, tested)
    heights = [h for h in quad_heights(rows.quads()).tolist() if h > 0]
    if not heights:
        return InkTest(frozenset(), 0, 0.0, time.perf_counter() - started)
    scale = min(MAX_SCALE, max(MIN_SCALE, rules.hidden_ink_pixels / statistics.median(heights)))
    x0, y0, x1, y1 = page.visible_box
    pixels = (x1 - x0) * scale * (y1 - y0) * scale
    if not pixels <= rules.hidden_ink_max_pixels:  # also catches NaN from infinite boxes
        warning = (
            f"pixel test skipped: the page would render to {pixels:.3g} pixels at scale "
            f"{scale:g}, over hidden_ink_max_pixels ({rules.hidden_ink_max_pixels})"
        )
        return InkTest(frozenset(), 0, scale, time.perf_counter() - started, warning)
    try:
        with_text, without_text = _documents(page, rules)
    except _TooBigForPdfium as exc:
        warning = f"pixel test skipped: {exc}"
        return InkTest(frozenset(), 0, scale, time.perf_counter() - started, warning)
    except (pikepdf.PdfError, ValueError, TypeError, RuntimeError, IndexError) as exc:
        # RuntimeError: pikepdf passes on C++ failures (std::bad_cast for a name key that
        # is not UTF-8 when the resources are rebuilt) as such; IndexError: qpdf's reading
        # of an inline image with nothing between BI and EI.
        warning = f"pixel test skipped: {type(exc).__name__}: {exc}"
        return InkTest(frozenset(), 0, scale, time.perf_counter() - started, warning)
    boxes = tuple(zip(tested, map(quad_bounds, rows.quads().tolist()), strict=True))
    left, top = x0, y1
    seconds = time.perf_counter() - started
    tolerance = rules.hidden_ink_tolerance
    return InkRequest(with_text, without_text, scale, left, top, boxes, tolerance, seconds)


def run_ink_test(request: InkRequest) -> InkTest:
    """Render both documents with pdfium and compare each glyph's box."""
    started = time.perf_counter()
    scale = request.scale
    try:
        with_text = _render(request.with_text, scale)
        without_text = _render(request.without_text, scale)
    except (pypdfium2.PdfiumError, ValueError) as exc:
        seconds = request.seconds + time.perf_counter() - started
        warning = f"pixel test skipped: {type(exc).__name__}: {exc}"
        return InkTest(frozenset(), 0, scale, seconds, warning)
    rows, columns = with_text.shape[:2]
    no_ink = set()
    for index, (x0, y0, x1, y1) in request.boxes:
        c0 = max(0, math.floor((x0 - request.left) * scale))
        c1 = min(columns, math.ceil((x1 - request.left) * scale))
        r0 = max(0, math.floor((request.top - y1) * scale))
        r1 = min(rows, math.ceil((request.top - y0) * scale))
        if c1 <= c0 or r1 <= r0:
            continue
        a = with_text[r0:r1, c0:c1].astype(np.int16)
        b = without_text[r0:r1, c0:c1].astype(np.int16)
        if int(np.abs(a - b).max()) <= request.tolerance:
            no_ink.add(index)
    seconds = request.seconds + time.perf_counter() - started
    return InkTest(frozenset(no_ink), len(request.boxes), scale, seconds)


class _TooBigForPdfium(ValueError):
    """A stream of the page's copy decodes past the stream cap (see _check_streams)."""


def _check_streams(pdf: pikepdf.Pdf, max_bytes: int) -> None:
    """pdfium reads a content, form, font, ICC profile, function or CMap stream whole, and
    ends the process (SIGABRT) when the allocation fails: a few megabytes of Flate data that
    expand to gigabytes abort it under any address-space cap. Each such stream of the copy
    is decoded under the engine's own cap first. Images are left out: pdfium decodes them
    row by row, and a 2.7 GB image renders in 150 MB."""
    for obj in pdf.objects:
        if not isinstance(obj, pikepdf.Stream) or obj.get("/Subtype") == "/Image":
            continue
        if decode_stream(obj, max_bytes).truncated:
            raise _TooBigForPdfium(
                f"object {obj.objgen[0]} decodes to more than {max_bytes} bytes, which pdfium "
                f"would hold whole"
            )


def _documents(page: PdfPage, rules: Rules) -> tuple[bytes, bytes]:
    copy = pikepdf.new()
    source = page.pdf_page
    resources = inherited_attribute(source, "/Resources")
    streams = page_streams(page) or []
    stub = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=pikepdf.Array(list(page.visible_box)),
    )
    if isinstance(resources, pikepdf.Dictionary):
        stub.Resources = _copy(copy, resources)
    parts = [decode_stream(s, rules.max_stream_bytes).data for s in streams]
    stub.Contents = copy.make_stream(b"\n".join(part or b"" for part in parts))
    copy.pages.append(pikepdf.Page(stub))
    _check_streams(copy, rules.max_stream_bytes)
    with_text = _saved(copy)
    _neutralise(copy, copy.pages[0].obj, set())
    return with_text, _saved(copy)


def _saved(pdf: pikepdf.Pdf) -> bytes:
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def _copy(pdf: pikepdf.Pdf, value: object) -> object:
    """`value` of another document in `pdf`: indirect objects by copy_foreign, direct
    containers rebuilt around copies of what they hold."""
    if isinstance(value, pikepdf.Object) and value.is_indirect:
        return pdf.copy_foreign(value)
    if isinstance(value, pikepdf.Dictionary):
        return pikepdf.Dictionary({key: _copy(pdf, item) for key, item in value.items()})
    if isinstance(value, pikepdf.Array):
        return pikepdf.Array([_copy(pdf, item) for item in value])
    return value


def _render(data: bytes, scale: float) -> np.ndarray:
    document = pypdfium2.PdfDocument(data)
    try:
        bitmap = document[0].render(scale=scale, may_draw_forms=False)
        return bitmap.to_numpy().copy()
    finally:
        document.close()


def _neutralise(pdf: pikepdf.Pdf, owner: pikepdf.Object, done: set[tuple[int, int]]) -> None:
    """Render mode 3 for every text object of `owner` (a page or form) and its forms."""
    instructions: list = []
    for instruction in pikepdf.parse_content_stream(owner):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            instructions.append(instruction)
            continue
        name = str(instruction.operator)
        if name == "Tr":
            operands = instruction.operands
            mode = int(operands[0]) if operands else 0
            instructions.append(([7 if mode >= 4 else 3], instruction.operator))
            continue
        instructions.append(instruction)
        if name == "BT":
            instructions.append(([3], pikepdf.Operator("Tr")))
    data = pikepdf.unparse_content_stream(instructions)
    if isinstance(owner, pikepdf.Stream):
        owner.write(data)
    else:
        owner.Contents = pdf.make_stream(data)
    resources = owner.get("/Resources")
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None
    if not isinstance(xobjects, pikepdf.Dictionary):
        return
    for form in xobjects.values():
        if (
            isinstance(form, pikepdf.Stream)
            and form.get("/Subtype") == "/Form"
            and form.objgen not in done
        ):
            done.add(form.objgen)
            _neutralise(pdf, form, done)
