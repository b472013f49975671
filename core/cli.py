"""`glyphscope-extract`: the engine on the command line.

    glyphscope-extract --mode glyphs|text|layout|columns|structure|visible|explain|hidden
                       [--pages 1-3,7] [--password PW] [--separator S] [--bom]
                       [--output FILE] [--rule NAME=VALUE ...] [--rules FILE]
                       [--annotations] [--hidden include|exclude|only] FILE

Pages are 1-based, like pdftotext's -f/-l. Errors: one line on stderr, exit status 2.
In structure mode the exit status is 3 when no requested page had a usable structure tree.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import BinaryIO, NoReturn

from glyphscope.core.document import Document
from glyphscope.core.errors import GlyphscopeError
from glyphscope.core.output import parse_page_range, write_document_text
from glyphscope.core.records import LazyJsonList
from glyphscope.core.rules import Rules
from glyphscope.core.serialize import explain_report, glyph_to_json
from glyphscope.core.text.hidden import INCLUDE, SELECTIONS, hidden_runs
from glyphscope.core.text.visible import visible_glyphs
from glyphscope.core.version import package_version

MODES = ("glyphs", "text", "layout", "columns", "structure", "visible", "explain", "hidden")
EXIT_ERROR = 2
EXIT_NO_STRUCTURE = 3
_WRITE_CHUNK = 1 << 16


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2 (argparse's own code)
        sys.stderr.write(f"glyphscope-extract: {message}\n")
        raise SystemExit(EXIT_ERROR)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="glyphscope-extract", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--mode", choices=MODES, default="text")
    parser.add_argument("--pages", default="", help="1-based pages, e.g. 1-3,7 (default: all)")
    parser.add_argument("--password", default=None)
    parser.add_argument("--separator", default="\f", help="between pages (default: form feed)")
    parser.add_argument("--bom", action="store_true", help="start text output with a UTF-8 BOM")
    parser.add_argument("--output", "-o", default=None, help="write here instead of stdout")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="NAME=VALUE", help="override a threshold"
    )
    parser.add_argument("--rules", default=None, metavar="FILE", help="rules as JSON")
    parser.add_argument(
        "--annotations",
        action="store_true",
        help="also read annotation and form-field appearances (§12.5.5), after page content",
    )
    parser.add_argument(
        "--hidden",
        choices=SELECTIONS,
        default=INCLUDE,
        help="text modes: keep (default), drop, or read only text a reader cannot see",
    )
    return parser


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.load(args.rules) if args.rules else Rules()
    values = {}
    for item in args.rule:
        name, equals, value = item.partition("=")
        if not equals:
            raise GlyphscopeError(f"--rule takes NAME=VALUE, not {item!r}")
        values[name.strip()] = value.strip()
    if args.annotations:
        values["annotations"] = True
    return rules.with_values(**values)


def _write_json_lines(
    document: Document, pages: list[int], rules: Rules, out: BinaryIO, visible_only: bool
) -> None:
    for index in pages:
        page = document.page(index)
        if visible_only:
            # Only the §4/§5 visible set is written: no reading order, layout or structure.
            extraction = page.extract(rules)
            painted = extraction.glyphs if extraction.readable else ()
            visible = visible_glyphs(painted, page.visible_box, rules).visible
            glyphs = [painted[i] for i in visible]
        else:
            glyphs = page.glyphs(rules) or []
        for glyph in glyphs:
            record = glyph_to_json(glyph, page.number)
            line = json.dumps(record, ensure_ascii=False, allow_nan=False)
            out.write(line.encode("utf-8") + b"\n")


def _write_hidden(document: Document, pages: list[int], rules: Rules, out: BinaryIO) -> None:
    """One JSON object per hidden run (core.text.hidden), the pixel test included."""
    from glyphscope.core.analysis import analyse_page

    for index in pages:
        analysis = analyse_page(document.page(index), rules, ink=True)
        for run in hidden_runs(analysis.glyphs, analysis.hidden):
            record = {"page": analysis.page_number, **run._asdict()}
            record["glyphs"], record["reasons"] = list(run.glyphs), list(run.reasons)
            record["box"] = list(run.box)
            out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")


def _write_explain(document: Document, pages: list[int], rules: Rules, out: BinaryIO) -> None:
    """The decision log of every page as one JSON document, streamed: one page is analysed at
    a time and its records are written as they are made (LazyJsonList), in chunks."""
    from glyphscope.core.analysis import analyse_page

    def page_record(index: int) -> object:
        return analyse_page(document.page(index), rules).streamed_json()

    report = explain_report(document.source, rules, LazyJsonList(pages, page_record))
    encoder = json.JSONEncoder(ensure_ascii=False, indent=1, allow_nan=False)
    buffer: list[str] = []
    size = 0
    for chunk in encoder.iterencode(report):
        buffer.append(chunk)
        size += len(chunk)
        if size >= _WRITE_CHUNK:
            out.write("".join(buffer).encode("utf-8"))
            buffer, size = [], 0
    buffer.append("\n")
    out.write("".join(buffer).encode("utf-8"))


def run(args: argparse.Namespace, out: BinaryIO) -> int:
    with Document.open(args.file, password=args.password) as document:
        return run_on(document, args, out)


def run_on(document: Document, args: argparse.Namespace, out: BinaryIO) -> int:
    """`args.mode` of an open document (args.file and args.password are not read again), so
    one caller can ask several modes of one document, sharing its page cache."""
    rules = _rules(args)
    pages = parse_page_range(args.pages, document.page_count)
    if args.mode in ("glyphs", "visible"):
        _write_json_lines(document, pages, rules, out, args.mode == "visible")
        return 0
    if args.mode == "explain":
        _write_explain(document, pages, rules, out)
        return 0
    if args.mode == "hidden":
        _write_hidden(document, pages, rules, out)
        return 0
    report = write_document_text(
        document, out, pages, args.mode, args.separator, args.bom, rules, args.hidden
    )
    if args.mode == "structure":
        for line in report.notes:
            sys.stderr.write(line + "\n")
        if not report.structured_pages:
            return EXIT_NO_STRUCTURE
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.output:
            with open(args.output, "wb") as out:
                return run(args, out)
        status = run(args, sys.stdout.buffer)
        sys.stdout.flush()
        return status
    except GlyphscopeError as exc:
        sys.stderr.write(f"glyphscope-extract: {exc}\n")
        return EXIT_ERROR
    except OSError as exc:
        sys.stderr.write(f"glyphscope-extract: {exc.strerror or exc}: {exc.filename or ''}\n")
        return EXIT_ERROR


if __name__ == "__main__":
    raise SystemExit(main())
