"""The page as vector SVG: the rendered page image underneath, and every overlay layer as SVG
elements of its own (a group per layer with its class and title, each glyph quad a polygon
titled with the glyph it outlines, labels as text), so the picture stays sharp at any zoom
and a reader can hover a quad to see which glyph it is.

Coordinates are the page view's scene (display points); the overlay groups carry the user
space → display matrix (§8.3.2, the page's /Rotate and crop offset) like the screen does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage

from glyphscope.core.view.explain import char_label
from glyphscope.inspector.export.common import (
    LEGEND_MARGIN,
    LEGEND_ROW,
    LEGEND_WIDTH,
    LegendSection,
    base64_text,
    legend_height,
    legend_sections,
    page_rect,
    png_bytes,
)
from glyphscope.inspector.export.render import PageRender, RenderRequest, render_now
from glyphscope.inspector.workers.render import capped_scale
from glyphscope.widgets.overlay_layers import GlyphQuadsLayer, SelectionLayer
from glyphscope.widgets.page_view import to_qtransform

if TYPE_CHECKING:
    from glyphscope.inspector.main_window import MainWindow

LABEL_SIZE = 8.0  # display points


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


# Points formatted per numpy call: np.char.mod holds the GIL for the whole of a call (it
# formats each number with Python's %), about 1 us a number, and the page export's worker
# thread made a dense layer's 50,000 points in one call, 45 to 75 ms in which the GUI thread
# could not run.
POINTS_PER_CALL = 1024


def _point_rows(points: np.ndarray) -> list[str]:
    """Each row of an (N, k, 2) array of points as SVG's "x,y x,y …" text, each number as
    _num writes it. Formatted by numpy with no tuple or list per point: a dense layer's
    hundreds of thousands of small containers made the garbage collector, whose passes hold
    the GIL, cost more than the text itself and stall the GUI thread for 200 ms at a time."""
    if not len(points):
        return []
    step = max(1, POINTS_PER_CALL // points.shape[1])
    rows: list[str] = []
    for start in range(0, len(points), step):
        rows += _formatted_rows(points[start : start + step])
    return rows


def _formatted_rows(points: np.ndarray) -> list[str]:
    # Formatted flat: np.char.mod lists its result, and a list per row and point is garbage.
    flat = np.char.mod("%.2f", points.reshape(-1)).reshape(points.shape)
    numbers = np.char.rstrip(np.char.rstrip(flat, "0"), ".")
    pairs = np.char.add(np.char.add(numbers[..., 0], ","), numbers[..., 1])
    rows = pairs[:, 0]
    for column in range(1, pairs.shape[1]):
        rows = np.char.add(np.char.add(rows, " "), pairs[:, column])
    return rows.tolist()


def _stroke_attributes(stroke) -> str:
    fill = (
        f'fill="{stroke.color}" fill-opacity="{stroke.fill_alpha / 255:.2f}"'
        if stroke.fill_alpha
        else 'fill="none"'
    )
    dash = ' stroke-dasharray="4 3"' if stroke.dash else ""
    return (
        f'stroke="{stroke.color}" stroke-opacity="{stroke.line_alpha / 255:.2f}" '
        f'stroke-width="{_num(stroke.width)}" vector-effect="non-scaling-stroke" {fill}{dash}'
    )


def _inside(points: np.ndarray, box: tuple[float, float, float, float] | None) -> np.ndarray:
    """Which rows of an (N, k, 2) array of user-space points reach into `box` (x0, y0, x1,
    y1, user space): all of them without a box."""
    if box is None or not len(points):
        return np.ones(len(points), bool)
    x0, y0, x1, y1 = box
    xs, ys = points[..., 0], points[..., 1]
    return (xs.max(1) >= x0) & (xs.min(1) <= x1) & (ys.max(1) >= y0) & (ys.min(1) <= y1)


def _layer_group(layer, model, box=None) -> list[str]:
    out = [
        f'<g class="layer layer-{layer.layer_id}" id="layer-{layer.layer_id}">',
        f"<title>{escape(layer.title)}</title>",
    ]
    for number, stroke in enumerate(layer.strokes(model)):
        if stroke.shape.empty:
            continue
        out.append(f'<g class="stroke stroke-{number}" {_stroke_attributes(stroke)}>')
        # Polylines through every point, the closing one included, as the screen strokes them.
        shape = stroke.shape
        points = shape.points
        if box is not None:  # a region's SVG: what the region shows, not the whole page
            points = points[_inside(points, box)]
        if shape.closed:
            points = np.concatenate([points, points[:, :1]], axis=1)
        out += [f'<polyline points="{row}"/>' for row in _point_rows(points)]
        out.append("</g>")
    out.append("</g>")
    return out


def _glyph_titles(model, indices, box=None) -> list[str]:
    """One transparent polygon per glyph with its title (hover shows which glyph it is)."""
    out = ['<g class="glyph-titles" fill="transparent" stroke="none">']
    indices = np.asarray(list(indices), dtype=np.int64)
    if box is not None and len(indices):
        indices = indices[_inside(model.quads[indices], box)]
    indices = indices.tolist()
    rows = _point_rows(model.quads[indices]) if indices else []
    for i, points in zip(indices, rows, strict=True):
        glyph = model.glyphs[i]
        title = (
            f"#{i} {char_label(glyph.text)} · /{glyph.font_key} {glyph.font_size:.1f} pt · "
            f"{glyph.decode_source} · {model.status[i].replace('_', ' ')}"
        )
        out.append(
            f'<polygon class="glyph" data-index="{i}" points="{points}">'
            f"<title>{escape(title)}</title></polygon>"
        )
    out.append("</g>")
    return out


def _labels(layer, model, matrix) -> list[str]:
    out = []
    for x, y, text, colour, *placement in layer.labels(model):
        if placement and placement[0] in ("box left", "box right"):
            x1, y1 = placement[1]
            shown = matrix.mapRect(QRectF(x, y, x1 - x, y1 - y).normalized())
            left = placement[0] == "box left"
            anchor_x, anchor_y = (shown.left() if left else shown.right()), shown.top() - 1
            align = "start" if left else "end"
        else:
            point = matrix.map(QRectF(x, y, 0, 0).topLeft())
            anchor_x, anchor_y, align = point.x() + 1, point.y() - 1, "start"
        out.append(
            f'<text class="label label-{layer.layer_id}" x="{_num(anchor_x)}" '
            f'y="{_num(anchor_y)}" fill="{colour}" font-size="{_num(LABEL_SIZE)}" '
            f'text-anchor="{align}" font-family="sans-serif">{escape(text)}</text>'
        )
    return out


def _legend(sections, left: float) -> list[str]:
    out = [f'<g class="legend" transform="translate({_num(left)} 0)" font-family="sans-serif">']
    y = LEGEND_MARGIN
    for section in sections:
        out.append(
            f'<text x="{_num(LEGEND_MARGIN)}" y="{_num(y + 11)}" font-size="10" '
            f'font-weight="bold">{escape(section.title)}</text>'
        )
        y += LEGEND_ROW
        for entry in section.entries:
            x = LEGEND_MARGIN + 4
            if entry.style in ("line", "dash"):
                dash = ' stroke-dasharray="4 3"' if entry.style == "dash" else ""
                out.append(
                    f'<line x1="{_num(x)}" y1="{_num(y + 7)}" x2="{_num(x + 20)}" '
                    f'y2="{_num(y + 7)}" stroke="{entry.color}" stroke-width="1.6"{dash}/>'
                )
            else:
                opacity = "0" if entry.style == "box" else "0.31"
                out.append(
                    f'<rect x="{_num(x)}" y="{_num(y + 3)}" width="20" height="9" '
                    f'stroke="{entry.color}" fill="{entry.color}" fill-opacity="{opacity}"/>'
                )
            out.append(
                f'<text x="{_num(x + 26)}" y="{_num(y + 11)}" font-size="10" fill="#222">'
                f"{escape(entry.label)}</text>"
            )
            y += LEGEND_ROW
        y += 4
    out.append("</g>")
    return out


@dataclass(frozen=True, slots=True)
class SvgPage:
    """What the SVG of a page is made of, taken on the GUI thread (svg_page) so that the text
    can be written on another one (svg_text): the layers' strokes are built from the model
    alone, as the layer painter's thread builds them."""

    model: object  # glyphscope.core.view.page_model.PageModel
    page_index: int
    matrix: tuple[float, ...]  # user space → display (geometry.matrix)
    page_size: tuple[float, float]
    area: tuple[float, float, float, float]  # scene left, top, width, height
    sections: tuple[LegendSection, ...]
    page_image: QImage | None  # pdfium's render of the area shown (export.render)
    image_rect: tuple[float, float, float, float]  # the scene rectangle page_image covers
    layers: tuple  # OverlayLayer, in the order their labels are drawn
    stacked: tuple  # the same, bottom first
    selection: SelectionLayer | None
    region: bool = False  # the area is a region of the page: only its overlays are written


# The page image under a whole page's SVG: 2 pixels per display point (144 dpi), sharp on
# screen and in print at the SVG's size; a selection's is the selection PNG's 3. Either is
# made smaller when it would hold more than SVG_MAX_PIXELS (a poster's page).
SVG_PAGE_SCALE = 2.0
SVG_REGION_SCALE = 3.0
SVG_MAX_PIXELS = 16_000_000


def svg_render_request(window: MainWindow, region: QRectF | None = None) -> RenderRequest:
    """What the SVG's page image is rendered as: the page (or the region's part of it)."""
    if region is None:
        width, height = window.view.geometry.size if window.view.geometry else (1.0, 1.0)
        area, scale = QRectF(0, 0, width, height), SVG_PAGE_SCALE
    else:
        area, scale = QRectF(region), SVG_REGION_SCALE
    return RenderRequest(capped_scale(scale, area.width(), area.height(), SVG_MAX_PIXELS), area)


def svg_page(
    window: MainWindow,
    layer_ids: Sequence[str],
    legend: bool = True,
    selection: Sequence[int] = (),
    region: QRectF | None = None,
    page: PageRender | None = None,
) -> SvgPage:
    """The current page's SVG inputs with `layer_ids`; `selection` glyphs are outlined on
    top, and `region` (scene rectangle) crops the picture to a part of the page. `page`:
    pdfium's render of that area (svg_render_request); without it (a page pdfium cannot
    render), the view's image of the page cut to the area."""
    model = window.model
    geometry = window.view.geometry
    area = region if region is not None else page_rect(window)
    if page is None:
        page = view_image(window, region)
    count = model.count
    chosen = [i for i in selection if 0 <= i < count]
    outline = None
    if chosen:
        # A layer of its own: the window's selection layer shows the user's selection.
        outline = SelectionLayer()
        outline.set_model(model)
        outline.set_selected(tuple(chosen))
    shown = tuple(window.layers[lid] for lid in layer_ids if lid in window.layers)
    rect = page.rect if page is not None else QRectF()
    return SvgPage(
        model,
        window.page_index,
        tuple(geometry.matrix),
        tuple(geometry.size),
        (area.left(), area.top(), area.width(), area.height()),
        tuple(legend_sections(window, layer_ids) if legend else ()),
        page.image if page is not None else None,
        (rect.left(), rect.top(), rect.width(), rect.height()),
        shown,
        tuple(sorted(shown, key=lambda layer: layer.zValue())),
        outline,
        region is not None,
    )


def view_image(window: MainWindow, region: QRectF | None = None) -> PageRender | None:
    """The page view's own image of the page (blank paper when pdfium cannot render it), cut
    to the pixels covering `region` when there is one."""
    rendered = window.rendered
    geometry = window.view.geometry
    if rendered is None or rendered.image.isNull() or geometry is None:
        return None
    width, height = geometry.size
    image = QImage(rendered.image)  # shared, copied only if the page's image changes
    sx, sy = image.width() / max(width, 1e-9), image.height() / max(height, 1e-9)
    rect = QRectF(0, 0, width, height)
    if region is not None:
        inside = region.intersected(rect)
        if inside.isEmpty():
            return None
        x0, y0 = math.floor(inside.left() * sx), math.floor(inside.top() * sy)
        x1, y1 = math.ceil(inside.right() * sx), math.ceil(inside.bottom() * sy)
        image = image.copy(x0, y0, max(x1 - x0, 1), max(y1 - y0, 1))
        rect = QRectF(x0 / sx, y0 / sy, image.width() / sx, image.height() / sy)
    return PageRender(image, rect, sx)


# Lines of the SVG joined per piece of svg_parts: str.join holds the GIL for the whole of a
# call, and a dense page's SVG is 10 MB.
LINES_PER_PIECE = 2048


def svg_text(page: SvgPage) -> str:
    """The SVG of `page`; safe off the GUI thread."""
    return "".join(svg_parts(page))


def svg_parts(page: SvgPage) -> list[str]:
    """svg_text's text in pieces of a few thousand lines (that file's bytes are their UTF-8
    one after the other), each joined by a call short enough for the GUI thread not to
    wait on the GIL; safe off the GUI thread."""
    model = page.model
    matrix = to_qtransform(page.matrix)
    left, top, area_width, area_height = page.area
    sections = page.sections
    width = area_width + (LEGEND_WIDTH if sections else 0.0)
    # As tall as the legend when that is taller than the page (as the PNG export is).
    height = max(area_height, legend_height(sections)) if sections else area_height
    a, b, c, d, e, f = page.matrix
    box = None
    if page.region:  # the overlays the region shows (a margin for their strokes' width)
        inverse, _invertible = matrix.inverted()
        shown = inverse.mapRect(QRectF(left, top, area_width, area_height))
        box = (shown.left() - 2, shown.top() - 2, shown.right() + 2, shown.bottom() + 2)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_num(width)}pt" '
        f'height="{_num(height)}pt" viewBox="0 0 {_num(width)} {_num(height)}">',
        f"<title>Glyphscope: page {page.page_index + 1}</title>",
        '<rect class="background" width="100%" height="100%" fill="#ffffff"/>',
        f'<svg class="page" x="0" y="0" width="{_num(area_width)}" '
        f'height="{_num(area_height)}" viewBox="{_num(left)} {_num(top)} '
        f'{_num(area_width)} {_num(area_height)}">',
    ]
    if page.page_image is not None:
        data = base64_text(png_bytes(page.page_image))
        x, y, image_width, image_height = page.image_rect
        out.append(
            f'<image class="page-image" x="{_num(x)}" y="{_num(y)}" '
            f'width="{_num(image_width)}" height="{_num(image_height)}" '
            f'preserveAspectRatio="none" href="data:image/png;base64,{data}"/>'
        )
    out.append(
        f'<g class="overlays" transform="matrix({_num(a)} {_num(b)} {_num(c)} {_num(d)} '
        f'{_num(e)} {_num(f)})">'
    )
    for layer in page.stacked:
        out += _layer_group(layer, model, box)
        if isinstance(layer, GlyphQuadsLayer):
            out += _glyph_titles(model, range(model.count), box)
    if page.selection is not None:
        out += _layer_group(page.selection, model, box)
    out.append("</g>")
    for layer in page.layers:
        out += _labels(layer, model, matrix)
    out.append("</svg>")
    if sections:
        out += _legend(sections, area_width)
    out.append("</svg>")
    return [
        "\n".join(out[start : start + LINES_PER_PIECE]) + "\n"
        for start in range(0, len(out), LINES_PER_PIECE)
    ]


def page_svg(
    window: MainWindow,
    layer_ids: Sequence[str],
    legend: bool = True,
    selection: Sequence[int] = (),
    region: QRectF | None = None,
) -> str:
    """The SVG text of the current page (svg_page's arguments), written now, its page image
    rendered by pdfium for it (waited for on the calling thread)."""
    page = render_now(window, svg_render_request(window, region))
    return svg_text(svg_page(window, layer_ids, legend, selection, region, page))
