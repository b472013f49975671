"""Every JSON shape the engine writes, in one place (the README documents them).

- a glyph: `glyph_to_json`, one line of `glyphscope-extract --mode glyphs` / `--mode visible`;
- a page's decision log: `analysis_json`, `PageAnalysis.to_json()`, one page of
  `--mode explain` and of the inspector's HTML bundle, built from the record shapes below
  (dropped glyphs, gap and line-break decisions, vertical columns, the three texts with their
  grids, columns and bands, structure order);
- the `--mode explain` report around the pages: `explain_report`.

Shapes are plain dicts and lists of JSON scalars, keys in the order written. Enum members
(DecodeSource, GapReason, DropReason) are str subclasses, so json writes their values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

import numpy as np

from glyphscope.core.columns import NO_MCID, GlyphColumns
from glyphscope.core.records import DecodeSource, Glyph, finite_json, has_finite_geometry
from glyphscope.core.rules import Rules

if TYPE_CHECKING:
    # Types only: the CLI's glyph and explain output import this module, and text mode must
    # not load layout, columns, structure or pdfium for it. The analysis serialises itself
    # through this module (PageAnalysis.to_json).
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.structure.order import StructureResult
    from glyphscope.core.text.bidi import BidiRun
    from glyphscope.core.text.columns import ColumnBand, ColumnsResult
    from glyphscope.core.text.ink import InkTest
    from glyphscope.core.text.layout import LayoutResult
    from glyphscope.core.text.reading import (
        GapDecision,
        LineBreakDecision,
        TextResult,
        VerticalColumn,
    )
    from glyphscope.core.text.visible import DroppedGlyph


def glyph_to_json(glyph: Glyph, page_number: int) -> dict:
    """The stable JSON shape of a glyph (CLI `--mode glyphs`); page_number is 1-based. A glyph
    with non-finite geometry has those numbers as null and `"non_finite": true`."""
    record = _glyph_json(glyph, page_number)
    if has_finite_geometry(glyph):
        return record
    finite = finite_json(record)
    assert isinstance(finite, dict)  # a dict stays a dict, its numbers made finite
    finite["non_finite"] = True
    return finite


def _glyph_json(glyph: Glyph, page_number: int) -> dict:
    return {
        "page": page_number,
        "unicode": glyph.text,
        "code": glyph.code,
        "code_length": glyph.code_length,
        "font": glyph.font_key,
        "font_name": glyph.font_name,
        "font_size": glyph.font_size,
        "origin": list(glyph.origin),
        "glyph_end": list(glyph.glyph_end),
        "baseline_end": list(glyph.baseline_end),
        "quad": [list(p) for p in glyph.quad],
        "writing_mode": glyph.writing_mode,
        "render_mode": glyph.render_mode,
        "mcid": glyph.mcid,
        "token_index": glyph.token_index,
        "form_depth": glyph.form_depth,
        "decode_source": glyph.decode_source,
        "draw_order": glyph.draw_order,
        "operator_index": glyph.operator_index,
        "element_index": glyph.element_index,
        "form_path": glyph.form_path,
    }


def _glyph_json_keys() -> tuple[str, ...]:
    """The keys glyph_to_json writes, read off it rather than kept as a second list."""
    point = (0.0, 0.0)
    blank = Glyph(
        "", 0, 0, "", "", 0.0, point, point, point, (point, point, point, point), 0, 0,
        None, 0, 0, DecodeSource.UNRESOLVED.value, 0, 0, 0, "",
    )  # fmt: skip
    return tuple(glyph_to_json(blank, 1))


GLYPH_JSON_KEYS = _glyph_json_keys()


# Rows of GlyphColumns converted to JSON at a time: a million-glyph page is written without
# its records or their JSON existing at once.
_JSON_CHUNK = 4096


class GlyphJson(Sequence[dict]):
    """glyph_to_json of `rows` of glyphs (all of them by default) in that order, each with its
    row as "index" first when `indexed`: what `--mode glyphs` and the decision log write.
    Over GlyphColumns the dictionaries are made from the arrays a chunk at a time, equal to
    glyph_to_json's; over records, by glyph_to_json itself."""

    def __init__(
        self,
        glyphs: Sequence[Glyph],
        page_number: int,
        rows: Sequence[int] | None = None,
        indexed: bool = False,
    ) -> None:
        self._glyphs, self._page_number, self._indexed = glyphs, page_number, indexed
        self._rows = range(len(glyphs)) if rows is None else rows

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, position: int) -> dict:  # type: ignore[override]
        index = self._rows[position]
        record = glyph_to_json(self._glyphs[index], self._page_number)
        return {"index": index, **record} if self._indexed else record

    def __iter__(self) -> Iterator[dict]:
        glyphs = self._glyphs
        if not isinstance(glyphs, GlyphColumns):
            for position in range(len(self._rows)):
                yield self[position]
            return
        rows = np.asarray(self._rows, dtype=np.int64)
        for start in range(0, len(rows), _JSON_CHUNK):
            yield from self._chunk(glyphs, rows[start : start + _JSON_CHUNK])

    def _chunk(self, glyphs: GlyphColumns, rows: np.ndarray) -> Iterator[dict]:
        page, indexed = self._page_number, self._indexed
        size, origin = glyphs.font_size[rows], glyphs.origin[rows]
        end, baseline_end, quad = (
            glyphs.glyph_end[rows],
            glyphs.baseline_end[rows],
            glyphs.quad[rows],
        )
        finite = (
            np.isfinite(size)
            & np.isfinite(origin).all(axis=1)
            & np.isfinite(end).all(axis=1)
            & np.isfinite(baseline_end).all(axis=1)
            & np.isfinite(quad).all(axis=(1, 2))
        ).tolist()
        mcids = [None if m == NO_MCID else m for m in glyphs.mcid[rows].tolist()]
        text, font_key, font_name = glyphs.text, glyphs.font_key, glyphs.font_name
        source, form_path = glyphs.decode_source, glyphs.form_path
        columns = zip(
            rows.tolist(),
            glyphs.code[rows].tolist(),
            glyphs.code_length[rows].tolist(),
            size.tolist(),
            origin.tolist(),
            end.tolist(),
            baseline_end.tolist(),
            quad.tolist(),
            glyphs.writing_mode[rows].tolist(),
            glyphs.render_mode[rows].tolist(),
            mcids,
            glyphs.token_index[rows].tolist(),
            glyphs.form_depth[rows].tolist(),
            glyphs.operator_index[rows].tolist(),
            glyphs.element_index[rows].tolist(),
            finite,
            strict=True,
        )
        for (
            row,
            code,
            length,
            size_,
            origin_,
            end_,
            base,
            quad_,
            wmode,
            rmode,
            mcid,
            token,
            depth,
            op,
            element,
            ok,
        ) in columns:  # noqa: E501
            record = {
                "page": page,
                "unicode": text[row],
                "code": code,
                "code_length": length,
                "font": font_key[row],
                "font_name": font_name[row],
                "font_size": size_,
                "origin": origin_,
                "glyph_end": end_,
                "baseline_end": base,
                "quad": quad_,
                "writing_mode": wmode,
                "render_mode": rmode,
                "mcid": mcid,
                "token_index": token,
                "form_depth": depth,
                "decode_source": source[row],
                "draw_order": row,
                "operator_index": op,
                "element_index": element,
                "form_path": form_path[row],
            }
            if not ok:
                made_finite = finite_json(record)
                assert isinstance(made_finite, dict)
                record = made_finite
                record["non_finite"] = True
            yield {"index": row, **record} if indexed else record


# list(items) or LazyJsonList(items): (items, convert=None) → a JSON array of them.
Listing = Callable[..., list]


def listed(items: Sequence, convert: Callable | None = None) -> list:
    return list(items) if convert is None else [convert(item) for item in items]


def text_json(text: TextResult, sequence: Listing = listed) -> dict:
    return {"text": text.text, "char_glyphs": sequence(text.char_glyphs)}


def dropped_json(dropped: DroppedGlyph) -> dict:
    record = asdict(dropped)
    record["box"] = None if dropped.box is None else list(dropped.box)
    return record


def gap_json(gap: GapDecision) -> dict:
    return gap._asdict()


def line_break_json(line_break: LineBreakDecision) -> dict:
    return line_break._asdict()


def vertical_column_json(column: VerticalColumn) -> dict:
    return {
        "glyphs": list(column.glyphs),
        "x_centre": column.x_centre,
        "top": column.top,
        "bottom": column.bottom,
    }


def layout_json(text: TextResult, grid: LayoutResult, sequence: Listing = listed) -> dict:
    """The layout text with the grid it was laid on (§7)."""
    return {
        **text_json(text, sequence),
        "rotation": grid.rotation,
        "cell_width": grid.cell_width,
        "cell_height": grid.cell_height,
        "left": grid.left,
        "lines": [list(line) for line in grid.lines],
        "off_grid": list(grid.off_grid),
    }


def band_json(band: ColumnBand) -> dict:
    return {
        "top": band.top,
        "bottom": band.bottom,
        "columns": [list(column) for column in band.columns],
        "gutters": [list(gutter) for gutter in band.gutters],
        "lines": band.lines,
    }


def columns_json(columns: ColumnsResult, sequence: Listing = listed) -> dict:
    """The columns text with the numbers behind the split (§8)."""
    return {
        **text_json(columns.text, sequence),
        "columns": [list(column) for column in columns.columns],
        "median_advance": columns.median_advance,
        "threshold": columns.threshold,
        "gaps": [list(gap) for gap in columns.gaps],
        "rotation": columns.rotation,
        "bands": [band_json(band) for band in columns.bands],
    }


def structure_json(result: StructureResult, sequence: Listing = listed) -> dict:
    """Structure-order text and its replay (§9)."""
    return {
        **text_json(result.text, sequence),
        "glyph_order": sequence(result.glyph_order),
        "mcid_order": list(result.mcid_order),
        "spans": {str(mcid): list(span) for mcid, span in result.spans.items()},
        "form_spans": [
            {"form": list(form), "mcid": mcid, "span": list(span)}
            for (form, mcid), span in result.form_spans.items()
        ],
        "untagged": sequence(result.untagged),
        "total": result.total,
        "trusted": result.trusted,
        "warnings": list(result.warnings),
    }


def analysis_json(analysis: PageAnalysis, sequence: Listing = listed) -> dict:
    """One page's decision log: every stage, every decision with its numbers. `sequence`
    makes the lists that grow with the glyph count (LazyJsonList for a streaming writer)."""
    number = analysis.page_number
    glyphs = analysis.glyphs
    structure = analysis.structure
    return {
        "page": number,
        "readable": analysis.readable,
        "truncated": analysis.truncated,
        "warnings": list(analysis.warnings),
        "media_box": list(analysis.media_box),
        "crop_box": list(analysis.crop_box),
        "visible_box": list(analysis.visible_box),
        "rules": asdict(analysis.rules),
        "glyphs": sequence(GlyphJson(glyphs, number, indexed=True)),
        "visible": sequence(analysis.visible),
        "dropped": sequence(analysis.dropped, dropped_json),
        "gaps": sequence(analysis.gaps, gap_json),
        "line_breaks": sequence(analysis.line_breaks, line_break_json),
        "vertical_columns": [vertical_column_json(c) for c in analysis.vertical_columns],
        "reading": text_json(analysis.reading, sequence),
        "layout": layout_json(analysis.layout, analysis.layout_grid, sequence),
        "columns": columns_json(analysis.columns, sequence),
        "structure": None if structure is None else structure_json(structure, sequence),
        "structure_reason": analysis.structure_reason,
        # Beyond the spec (issue 12): see the README's "Beyond the spec".
        "replacements": [
            {**r._asdict(), "glyphs": list(r.glyphs), "span": list(r.span)}
            for r in analysis.replacements
        ],
        "accents": [merge._asdict() for merge in analysis.accents],
        "annotations": [span._asdict() for span in analysis.annotations],
        "hidden": [
            {"index": item.glyph, "reasons": list(item.reasons)} for item in analysis.hidden
        ],
        "ink_test": None if analysis.ink is None else ink_json(analysis.ink),
        "bidi": {
            "reading": [bidi_json(run) for run in analysis.reading_bidi],
            "layout": [bidi_json(run) for run in analysis.layout_bidi],
        },
    }


def ink_json(ink: InkTest) -> dict:
    return {
        "no_ink": sorted(ink.no_ink),
        "tested": ink.tested,
        "scale": ink.scale,
        "seconds": ink.seconds,
    }


def bidi_json(run: BidiRun) -> dict:
    return {**run._asdict(), "glyphs": list(run.glyphs)}


def explain_report(source: str, rules: Rules, pages: list) -> dict:
    """`glyphscope-extract --mode explain`: the file, the rules in the `--rules FILE` format
    (Rules.to_json) and the decision log of each page."""
    return {"file": source, "rules": json.loads(rules.to_json()), "pages": pages}
