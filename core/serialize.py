"""The JSON shapes the engine writes (the README documents them).

- a glyph: `glyph_to_json`, one line of `glyphscope-extract --mode glyphs` / `--mode visible`;
- the parts of a page's decision log (core.analysis.analysis_json, `PageAnalysis.to_json()`,
  one page of `--mode explain` and of the inspector's HTML bundle): dropped glyphs, gap and
  line-break decisions, vertical columns, the three texts with their grids, columns and
  bands, structure order, the rules;
- the `--mode explain` report around the pages: `explain_report`.

The same shapes are written as JSON text through orjson (core.jsontext: `--mode explain`,
`PageAnalysis.to_json_text`) without their dictionaries: GlyphJson and DecisionJson write
their rows from the columns.

Shapes are plain dicts and lists of JSON scalars, keys in the order written. Enum members
(DecodeSource, GapReason, DropReason) are str enums, written as their values.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from dataclasses import fields as dataclass_fields
from functools import cache
from itertools import repeat
from typing import TYPE_CHECKING

import numpy as np

from glyphscope.core.glyph_table import NO_MCID, GlyphColumns
from glyphscope.core.jsontext import (
    POINT_SLOT,
    QUAD_SLOT,
    SLOT,
    Converted,
    Field,
    column_field,
    dumps,
    join_rows,
    quoted,
    row_template,
    string_field,
    table_field,
)
from glyphscope.core.records import DecodeSource, Glyph, finite_json, has_finite_geometry
from glyphscope.core.rules import Rules
from glyphscope.core.text.decisions import DecisionColumns
from glyphscope.core.text.pairs import REASONS

if TYPE_CHECKING:
    # Types only: the CLI's glyph and explain output import this module, and text mode must
    # not load layout, columns, structure or pdfium for it.
    from glyphscope.core.structure.order import StructureResult
    from glyphscope.core.text.bidi import BidiRun
    from glyphscope.core.text.columns import ColumnBand, ColumnsResult
    from glyphscope.core.text.ink import InkTest
    from glyphscope.core.text.layout import LayoutResult
    from glyphscope.core.text.reading import (
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


def _blank_glyph() -> Glyph:
    point = (0.0, 0.0)
    return Glyph(
        "", 0, 0, "", "", 0.0, point, point, point, (point, point, point, point), 0, 0,
        None, 0, 0, DecodeSource.UNRESOLVED.value, 0, 0, 0, "",
    )  # fmt: skip


# The keys glyph_to_json writes, read off it rather than kept as a second list.
GLYPH_JSON_KEYS = tuple(glyph_to_json(_blank_glyph(), 1))


@cache
def _glyph_template(indexed: bool) -> list[bytes]:
    """The texts between the fields of a glyph record, with or without "index"."""
    example = dict.fromkeys(_INDEXED_KEYS if indexed else GLYPH_JSON_KEYS, SLOT)
    example.update(origin=POINT_SLOT, glyph_end=POINT_SLOT, baseline_end=POINT_SLOT)
    example["quad"] = QUAD_SLOT
    return row_template(example)


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
        for rows in self._chunks():
            yield from self._dicts(glyphs, rows)

    def json_chunks(self, separator: bytes) -> Iterator[bytes]:
        """The JSON text of the records (a jsontext.RowSource), a chunk at a time joined by
        `separator`: over GlyphColumns written from the arrays into one template, a glyph
        with non-finite geometry written from its dictionary."""
        glyphs = self._glyphs
        if not isinstance(glyphs, GlyphColumns):
            yield separator.join(map(dumps, self))
            return
        template = _glyph_template(self._indexed)
        # The glyph texts change from row to row: written through the page's text ids, each
        # distinct text quoted once for all the chunks.
        text_ids, texts = glyphs.text_ids()
        quoted_texts = list(map(quoted, texts))
        for rows in self._chunks():
            # Consecutive rows (the log's whole page) are read as views of the columns.
            at = slice(int(rows[0]), int(rows[-1]) + 1) if _consecutive(rows) else rows
            replaced = {}
            for position in _non_finite_rows(glyphs, at):
                (record,) = self._dicts(glyphs, rows[position : position + 1])
                replaced[position] = dumps(record)
            fields = self._fields(glyphs, rows, at, table_field(text_ids[at], quoted_texts))
            yield join_rows(template, fields, len(rows), separator, replaced)

    def _chunks(self) -> Iterator[np.ndarray]:
        given = self._rows
        if isinstance(given, range):
            rows = np.arange(given.start, given.stop, given.step, dtype=np.int64)
        else:
            rows = np.asarray(given, dtype=np.int64)
        for start in range(0, len(rows), _JSON_CHUNK):
            yield rows[start : start + _JSON_CHUNK]

    def _fields(
        self, glyphs: GlyphColumns, rows: np.ndarray, at: slice | np.ndarray, texts: Field
    ) -> list[Field]:
        """The fields of the template, a column each, in the record's order (`at`: the rows,
        or the slice they make; `texts`: their glyph texts)."""
        listed = rows.tolist()

        def strings(column: list[str]) -> Field:
            return string_field(list(map(column.__getitem__, listed)))

        indexes = column_field(rows)
        return [
            *([indexes] if self._indexed else []),
            int.__repr__(self._page_number).encode(),
            texts,
            column_field(glyphs.code[at]),
            column_field(glyphs.code_length[at]),
            strings(glyphs.font_key),
            strings(glyphs.font_name),
            column_field(glyphs.font_size[at]),
            column_field(glyphs.origin[at]),
            column_field(glyphs.glyph_end[at]),
            column_field(glyphs.baseline_end[at]),
            column_field(glyphs.quad[at]),
            column_field(glyphs.writing_mode[at]),
            column_field(glyphs.render_mode[at]),
            _nullable_field(glyphs.mcid[at], NO_MCID),
            column_field(glyphs.token_index[at]),
            column_field(glyphs.form_depth[at]),
            strings(glyphs.decode_source),
            indexes,
            column_field(glyphs.operator_index[at]),
            column_field(glyphs.element_index[at]),
            strings(glyphs.form_path),
        ]

    def _dicts(self, glyphs: GlyphColumns, rows: np.ndarray) -> list[dict]:
        """The records of `rows` as dictionaries, made from the arrays."""
        mcids = glyphs.mcid[rows].tolist()
        if NO_MCID in mcids:
            mcids = [None if m == NO_MCID else m for m in mcids]
        listed = rows.tolist()

        def strings(column: list[str]) -> list[str]:
            return list(map(column.__getitem__, listed))

        columns = [
            *([listed] if self._indexed else []),
            repeat(self._page_number, len(listed)),
            strings(glyphs.text),
            glyphs.code[rows].tolist(),
            glyphs.code_length[rows].tolist(),
            strings(glyphs.font_key),
            strings(glyphs.font_name),
            glyphs.font_size[rows].tolist(),
            glyphs.origin[rows].tolist(),
            glyphs.glyph_end[rows].tolist(),
            glyphs.baseline_end[rows].tolist(),
            glyphs.quad[rows].tolist(),
            glyphs.writing_mode[rows].tolist(),
            glyphs.render_mode[rows].tolist(),
            mcids,
            glyphs.token_index[rows].tolist(),
            glyphs.form_depth[rows].tolist(),
            strings(glyphs.decode_source),
            listed,
            glyphs.operator_index[rows].tolist(),
            glyphs.element_index[rows].tolist(),
            strings(glyphs.form_path),
        ]
        keys = repeat(_INDEXED_KEYS if self._indexed else GLYPH_JSON_KEYS)
        # dict(zip(keys, row)) mapped over the zipped columns: the dictionaries made in C.
        records = list(map(dict, map(zip, keys, zip(*columns, strict=True))))
        for position in np.flatnonzero(~_finite_rows(glyphs, rows)).tolist():
            made_finite = finite_json(records[position])
            assert isinstance(made_finite, dict)  # a dict stays a dict, its numbers finite
            made_finite["non_finite"] = True
            records[position] = made_finite
        return records


_INDEXED_KEYS = ("index", *GLYPH_JSON_KEYS)


def _nullable_field(values: np.ndarray, null: int) -> Field:
    """An integer column as a field, null where the value is `null` (the MCID's sentinel)."""
    missing = values == null
    if missing.all():
        return b"null"
    texts = column_field(values)
    if isinstance(texts, bytes) or not missing.any():
        return texts
    table = np.empty(len(texts), dtype=object)
    table[:] = texts
    table[missing] = b"null"
    return table.tolist()


def _consecutive(rows: np.ndarray) -> bool:
    """Whether `rows` (not empty) are first, first + 1, …, last."""
    return int(rows[-1]) - int(rows[0]) == len(rows) - 1 and bool((np.diff(rows) == 1).all())


def _non_finite_rows(glyphs: GlyphColumns, rows: slice | np.ndarray) -> list[int]:
    """The positions among `rows` of the glyphs without finite geometry: on most chunks none,
    told by one sum per column (a sum is finite when every number is, and where it is not,
    an overflow included, the rows are tested one by one)."""
    columns = (glyphs.font_size, glyphs.origin, glyphs.glyph_end, glyphs.baseline_end, glyphs.quad)
    with np.errstate(over="ignore", invalid="ignore"):
        if math.isfinite(sum(float(column[rows].sum()) for column in columns)):
            return []
    return np.flatnonzero(~_finite_rows(glyphs, rows)).tolist()


def _finite_rows(glyphs: GlyphColumns, rows: slice | np.ndarray) -> np.ndarray:
    """Per row, whether its size, origin, ends and quad are all finite (has_finite_geometry)."""
    with np.errstate(invalid="ignore"):
        return (
            np.isfinite(glyphs.font_size[rows])
            & np.isfinite(glyphs.origin[rows]).all(axis=1)
            & np.isfinite(glyphs.glyph_end[rows]).all(axis=1)
            & np.isfinite(glyphs.baseline_end[rows]).all(axis=1)
            & np.isfinite(glyphs.quad[rows]).all(axis=(1, 2))
        )


class DecisionJson(Sequence[dict]):
    """`record._asdict()` of each decision record (gap, line break) in turn; over
    DecisionColumns made from the arrays a chunk at a time, and written as JSON text from
    them (jsontext's row source)."""

    def __init__(self, decisions: Sequence[tuple]) -> None:
        self._decisions = decisions

    def __len__(self) -> int:
        return len(self._decisions)

    def __getitem__(self, position: int) -> dict:  # type: ignore[override]
        return self._decisions[position]._asdict()  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[dict]:
        decisions = self._decisions
        if not isinstance(decisions, DecisionColumns):
            yield from (decision._asdict() for decision in decisions)  # type: ignore[attr-defined]
            return
        for start in range(0, len(decisions), _JSON_CHUNK):
            yield from decisions.dicts(start, min(start + _JSON_CHUNK, len(decisions)))

    def json_chunks(self, separator: bytes) -> Iterator[bytes]:
        """The JSON text of the records (a jsontext.RowSource), written from the arrays over
        DecisionColumns."""
        decisions = self._decisions
        if not isinstance(decisions, DecisionColumns):
            yield separator.join(map(dumps, self))
            return
        template = _decision_template(decisions.record._fields)
        for start in range(0, len(decisions), _JSON_CHUNK):
            stop = min(start + _JSON_CHUNK, len(decisions))
            fields = [_decision_field(column[start:stop]) for column in decisions.arrays()]
            yield join_rows(template, fields, stop - start, separator)


@cache
def _decision_template(names: tuple[str, ...]) -> list[bytes]:
    return row_template(dict.fromkeys(names, SLOT))


_REASON_TEXTS = [quoted(reason.value) for reason in REASONS]


def _decision_field(column: np.ndarray) -> Field:
    """A decision column as a field (GapDecision.reason: positions in REASONS)."""
    if column.dtype == np.uint8:
        return table_field(column.astype(np.intp), _REASON_TEXTS)
    return column_field(column)


# listed or json_rows: (items, convert=None) → a JSON array of them.
Listing = Callable[..., object]


def listed(items: Sequence, convert: Callable | None = None) -> list:
    return list(items) if convert is None else [convert(item) for item in items]


def json_rows(items: Sequence, convert: Callable | None = None) -> object:
    """The Listing of core.jsontext: the items themselves (a row source writes its own text),
    or converted as they are written."""
    return items if convert is None else Converted(items, convert)


def text_json(text: TextResult, sequence: Listing = listed) -> dict:
    return {"text": text.text, "char_glyphs": sequence(text.char_glyphs)}


def dropped_json(dropped: DroppedGlyph) -> dict:
    record = asdict(dropped)
    record["box"] = None if dropped.box is None else list(dropped.box)
    return record


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


_SCALARS = (int, float, bool, str, type(None))


def rules_json(rules: Rules) -> dict:
    """`asdict(rules)`: its fields read off it by name when each is a plain scalar, as every
    Rules field is (asdict's deep copy of a scalar is the scalar itself; it costs some 70 µs a
    page, half of the rest of the log's dictionary)."""
    values = {name: getattr(rules, name) for name in _RULE_NAMES}
    if all(type(value) in _SCALARS for value in values.values()):
        return values
    return asdict(rules)


_RULE_NAMES = tuple(field.name for field in dataclass_fields(Rules))


def ink_json(ink: InkTest) -> dict:
    return {
        "no_ink": sorted(ink.no_ink),
        "tested": ink.tested,
        "scale": ink.scale,
        "seconds": ink.seconds,
    }


def bidi_json(run: BidiRun) -> dict:
    return {**run._asdict(), "glyphs": list(run.glyphs)}


def explain_report(source: str, rules: Rules, pages: object) -> dict:
    """`glyphscope-extract --mode explain`: the file, the rules in the `--rules FILE` format
    (Rules.to_json) and the decision log of each page (a list, or a row source)."""
    return {"file": source, "rules": json.loads(rules.to_json()), "pages": pages}
