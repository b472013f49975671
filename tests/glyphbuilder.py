"""Glyph records built the way the interpreter builds them, for the text-stage tests
(visible glyphs, reading order, layout, columns): the test places every origin, advance and
angle itself, so the expected text follows from numbers the test shows.

    glyphs = renumber(make_run("alpha", 72.0, 700.0) + make_run("beta", 300.0, 700.0))
    visible_glyphs(glyphs, PAGE, RULES)
"""

from __future__ import annotations

import math

from glyphscope.core.records import DecodeSource, Glyph
from glyphscope.core.rules import Rules

RULES = Rules()  # the spec's defaults
PAGE = (0.0, 0.0, 612.0, 792.0)  # US Letter, the visible box of every synthetic page


def make_glyph(
    text: str,
    x: float,
    y: float,
    size: float = 10.0,
    advance: float | None = None,
    angle: float = 0.0,
    writing_mode: int = 0,
    draw_order: int = 0,
    pen_extra: float = 0.0,
    ascent: float = 0.8,
    descent: float = -0.2,
) -> Glyph:
    """A glyph record as the interpreter builds it: origin (x, y), `advance` user-space units
    along the writing direction `angle` (degrees; writing_mode 1 writes down the page), the box
    from descent to ascent × size across it. `pen_extra` is Tc/Tw added to the pen only."""
    if advance is None:
        advance = 0.5 * size if text.isascii() else size
    if writing_mode == 1:
        ux, uy = 0.0, -1.0
        low, high = -0.5 * size, 0.5 * size  # vertical glyphs are centred on the origin
    else:
        ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        low, high = descent * size, ascent * size
    nx, ny = -uy, ux
    p0 = (x + low * nx, y + low * ny)
    p3 = (x + high * nx, y + high * ny)
    quad = (
        p0,
        (p0[0] + advance * ux, p0[1] + advance * uy),
        (p3[0] + advance * ux, p3[1] + advance * uy),
        p3,
    )
    glyph_end = (x + advance * ux, y + advance * uy)
    pen = advance + pen_extra
    return Glyph(
        text=text,
        code=ord(text[0]) if text else 0,
        code_length=1,
        font_key="F1",
        font_name="Helvetica",
        font_size=size,
        origin=(x, y),
        glyph_end=glyph_end,
        baseline_end=(x + pen * ux, y + pen * uy),
        quad=quad,
        writing_mode=writing_mode,
        render_mode=0,
        mcid=None,
        token_index=0,
        form_depth=0,
        decode_source=DecodeSource.TO_UNICODE.value if text else DecodeSource.UNRESOLVED.value,
        draw_order=draw_order,
        operator_index=0,
        element_index=0,
        form_path="",
    )


def make_run(
    text: str, x: float, y: float, size: float = 10.0, advance: float | None = None, **kw
) -> list[Glyph]:
    """One glyph per character, each `advance` apart along the writing direction."""
    angle = kw.get("angle", 0.0)
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    glyphs = []
    for char in text:
        step = (0.5 * size if char.isascii() else size) if advance is None else advance
        glyphs.append(make_glyph(char, x, y, size, step, **kw))
        x, y = (
            x + (step + kw.get("pen_extra", 0.0)) * ux,
            y + (step + kw.get("pen_extra", 0.0)) * uy,
        )
    return glyphs


def renumber(glyphs: list[Glyph]) -> list[Glyph]:
    """The glyphs in list order as their drawing order."""
    return [g._replace(draw_order=i) for i, g in enumerate(glyphs)]
