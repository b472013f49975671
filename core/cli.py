"""`glyphscope-extract`: the engine on the command line.

    glyphscope-extract --mode glyphs|text|layout|columns|structure|visible|explain|hidden
                       [--pages 1-3,7] [--password PW] [--separator S] [--bom]
                       [--output FILE | --output-dir DIR] [--file-separator S]
                       [--rule NAME=VALUE ...] [--rules FILE] [--annotations]
                       [--hidden include|exclude|only] FILE [FILE ...]

Pages are 1-based, like pdftotext's -f/-l. FILE `-` reads the PDF from stdin; `-o -` writes
to stdout. Several files are read in one process (start-up paid once): to stdout or --output,
each file's output follows the --file-separator line ("==> FILE <==" by default, as head(1)
writes); with --output-dir, each goes to DIR/<name>.txt (.jsonl for glyphs and visible, .json
for explain). Errors: one line on stderr per failing file, the other files are still read.
The exit statuses (EXIT_STATUSES) follow grep's and pdftotext's: 2 for a command line that
cannot be carried out, a status of its own for input that cannot be read, and output cut off
by a closed pipe (`| head`) ends quietly, as grep's does.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, NoReturn

from glyphscope.core.errors import GlyphscopeError, PageRangeError, RuleError, TextModeError
from glyphscope.core.records import HiddenSelection
from glyphscope.core.rules import Rules

if TYPE_CHECKING:
    from glyphscope.core.document import Document

# The engine is imported by the functions that use it, not here: `main` sets up the process
# (BLAS threads) before numpy loads, and each mode loads only its own stages.

# Each mode and what it writes, for --help (the README's "The command line" says more).
MODE_HELP = {
    "glyphs": "JSON Lines, one record per glyph the page content paints (forms excluded)",
    "text": "reading-order text (the default)",
    "layout": "the page's look as monospaced text: columns and tables side by side",
    "columns": "text column by column, split at wide horizontal gaps",
    "structure": "the tagged structure tree's order (§14.8.4), reading order where untagged",
    "visible": "JSON Lines of the visible glyphs: page and forms, off-box and duplicates dropped",
    "explain": "the decision log as one JSON document",
    "hidden": "JSON Lines, one object per run of text a reader cannot see",
}
MODES = tuple(MODE_HELP)
EXIT_PARTIAL = 1
EXIT_USAGE = 2
EXIT_UNREADABLE = 3
EXIT_NO_STRUCTURE = 3
# A closed pipe ends the process as SIGPIPE ends grep and pdftotext: the status a shell shows
# for them (128 + 13), no message.
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE if hasattr(signal, "SIGPIPE") else 1
EXIT_STATUSES = f"""exit status:
  0    every file was read
  1    partial: some of several files could not be read (each named on stderr)
  2    usage: a bad option or value (--pages, --rule, --rules, --mode), or output that
       cannot be written
  3    no file could be read (missing, not a PDF, damaged, encrypted without the right
       password); in structure mode also: no page had a usable structure tree
  {EXIT_BROKEN_PIPE:<4} the reader of the output went away (| head): quiet, as grep and pdftotext"""
# The errors that say the command line asks for something impossible, whatever the file.
_USAGE_ERRORS = (PageRangeError, RuleError, TextModeError)
# A file's status when it could not be read (_overall turns it into 1 or 3).
_FAILED = -1
STDIN = "-"
_SUFFIXES = {"glyphs": ".jsonl", "visible": ".jsonl", "explain": ".json", "hidden": ".jsonl"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2 (argparse's own code)
        sys.stderr.write(f"glyphscope-extract: {message}\n")
        raise SystemExit(EXIT_USAGE)


class _Version(argparse.Action):
    """--version, reading the package metadata only when asked (importlib.metadata is a
    noticeable share of start-up)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from glyphscope.core.version import package_version

        sys.stdout.write(f"{parser.prog} {package_version()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    modes = "\n".join(f"  {mode:<10} {text}" for mode, text in MODE_HELP.items())
    parser = _Parser(
        prog="glyphscope-extract",
        description=__doc__.split("\n\n")[0],
        epilog=f"modes:\n{modes}\n\n{EXIT_STATUSES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument("files", metavar="FILE", nargs="+", help="PDF to read; - for stdin")
    parser.add_argument("--mode", choices=MODES, default="text", help="what to write (below)")
    parser.add_argument("--pages", default="", help="1-based pages, e.g. 1-3,7 (default: all)")
    parser.add_argument("--password", default=None)
    parser.add_argument("--separator", default="\f", help="between pages (default: form feed)")
    parser.add_argument("--bom", action="store_true", help="start text output with a UTF-8 BOM")
    outputs = parser.add_mutually_exclusive_group()
    outputs.add_argument(
        "--output", "-o", default=None, metavar="FILE", help="write here (- or none: stdout)"
    )
    outputs.add_argument(
        "--output-dir", default=None, metavar="DIR", help="one output file per input, in DIR"
    )
    parser.add_argument(
        "--file-separator",
        default="==> {file} <==\n",
        metavar="S",
        help="written before each file's output when several files go to one stream "
        "({file} is replaced by the file's path)",
    )
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
        choices=tuple(HiddenSelection),
        default=HiddenSelection.INCLUDE,
        help="text modes: keep (default), drop, or read only text a reader cannot see",
    )
    return parser


def _rules(args: argparse.Namespace) -> Rules:
    rules = Rules.load(args.rules) if args.rules else Rules()
    values = {}
    for item in args.rule:
        name, equals, value = item.partition("=")
        if not equals:
            raise RuleError(f"--rule takes NAME=VALUE, not {item!r}")
        values[name.strip()] = value.strip()
    if args.annotations:
        values["annotations"] = True
    return rules.with_values(**values)


def _write_json_lines(
    document: Document, pages: list[int], rules: Rules, out: BinaryIO, visible_only: bool
) -> None:
    from glyphscope.core.interpret.interpreter import page_rows
    from glyphscope.core.serialize import GlyphJson
    from glyphscope.core.text.visible import visible_rows

    # One glyph record a line; its non-finite numbers are null (glyph_to_json marks them).
    for index in pages:
        page = document.page(index)
        extraction = page.extract(rules)
        painted = extraction.glyphs
        if visible_only:
            # Only the §4/§5 visible set is written: no reading order, layout or structure.
            rows: Sequence[int] = visible_rows(painted, page.visible_box, rules)
        else:
            rows = page_rows(painted)  # the page's own glyphs (spec §3 "all glyphs")
        # Written from the columns a chunk at a time (core.jsontext): a page's records never
        # exist at once.
        for lines in GlyphJson(painted, page.number, rows).json_chunks(b"\n"):
            if lines:
                out.write(lines + b"\n")


def _write_hidden(document: Document, pages: list[int], rules: Rules, out: BinaryIO) -> None:
    """One JSON object per hidden run (core.text.hidden), the pixel test included."""
    from glyphscope.core.analysis import analyse_page
    from glyphscope.core.text.hidden import hidden_runs

    for index in pages:
        analysis = analyse_page(document.page(index), rules, ink=True)
        for run in hidden_runs(analysis.glyphs, analysis.hidden):
            record = {"page": analysis.page_number, **run._asdict()}
            record["glyphs"], record["reasons"] = list(run.glyphs), list(run.reasons)
            record["box"] = list(run.box)
            out.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")


def _write_explain(document: Document, pages: list[int], rules: Rules, out: BinaryIO) -> None:
    """The decision log of every page as one strict JSON document indented by two spaces,
    streamed: one page is analysed at a time and written from its columns a chunk of glyphs
    at a time (core.jsontext; every non-finite number is null)."""
    from glyphscope.core.analysis import analyse_page
    from glyphscope.core.jsontext import Converted, encoded
    from glyphscope.core.serialize import explain_report, json_rows

    def page_record(index: int) -> object:
        return analyse_page(document.page(index), rules).decision_log(json_rows)

    report = explain_report(document.source, rules, Converted(pages, page_record))
    out.writelines(encoded(report, indent=True))
    out.write(b"\n")


def run(args: argparse.Namespace, out: BinaryIO) -> int:
    """Write the output of every file of args to out, one after the other, raising the first
    error (the library's way; `main` reports errors per file instead)."""
    rules = _rules(args)
    return _overall([run_file(args, out, path, rules) for path in args.files])


def run_file(args: argparse.Namespace, out: BinaryIO, path: str, rules: Rules) -> int:
    """Write one file's output in args.mode to out; the exit status for that file."""
    from glyphscope.core.document import Document

    source = sys.stdin.buffer.read() if path == STDIN else path
    with Document.open(source, password=args.password) as document:
        return run_on(document, args, out, rules)


def run_on(
    document: Document, args: argparse.Namespace, out: BinaryIO, rules: Rules | None = None
) -> int:
    """`args.mode` of an open document (args.files and args.password are not read), so one
    caller can ask several modes of one document, sharing its page cache."""
    from glyphscope.core.output import parse_page_range, write_document_text

    rules = _rules(args) if rules is None else rules
    if document.lost_pages:  # a page the file declares never vanishes silently
        sys.stderr.write(f"glyphscope-extract: {document.source}: {document.lost_pages}\n")
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
    for line in report.notes:
        sys.stderr.write(line + "\n")
    if args.mode == "structure" and not report.structured_pages:
        return EXIT_NO_STRUCTURE
    return 0


def _run_file(args: argparse.Namespace, out: BinaryIO, path: str, rules: Rules) -> int:
    """run, with a failure reported on one stderr line (naming the file when there are
    several) instead of raised: EXIT_USAGE for a request no file can meet, _FAILED for a
    file that could not be read. A closed stdout (BrokenPipeError) ends every file: raised."""
    prefix = "glyphscope-extract: " + (f"{path}: " if len(args.files) > 1 else "")
    try:
        return run_file(args, out, path, rules)
    except _USAGE_ERRORS as exc:
        sys.stderr.write(f"{prefix}{exc}\n")
        return EXIT_USAGE
    except GlyphscopeError as exc:
        sys.stderr.write(f"{prefix}{exc}\n")
    except BrokenPipeError:
        raise
    except OSError as exc:
        sys.stderr.write(f"{prefix}{exc.strerror or exc}: {exc.filename or ''}\n")
    return _FAILED


def _run_files(args: argparse.Namespace, out: BinaryIO, rules: Rules) -> int:
    statuses = []
    for path in args.files:
        if len(args.files) > 1:
            out.write(args.file_separator.replace("{file}", path).encode("utf-8"))
        statuses.append(_run_file(args, out, path, rules))
        if len(args.files) > 1 and args.mode not in _SUFFIXES:
            out.write(b"\n")  # text output ends without a newline
    return _overall(statuses)


def _run_into_dir(args: argparse.Namespace, rules: Rules) -> int:
    directory = Path(args.output_dir)
    directory.mkdir(parents=True, exist_ok=True)
    statuses = []
    for path in args.files:
        name = "stdin" if path == STDIN else Path(path).stem
        target = directory / (name + _SUFFIXES.get(args.mode, ".txt"))
        with target.open("wb") as out:
            statuses.append(_run_file(args, out, path, rules))
    return _overall(statuses)


def _overall(statuses: list[int]) -> int:
    """One status for the files' statuses: a usage error outweighs everything, then files
    that could not be read (all of them: 3; some: 1, partial), then a file without
    structure."""
    if EXIT_USAGE in statuses:
        return EXIT_USAGE
    failed = statuses.count(_FAILED)
    if failed:
        return EXIT_UNREADABLE if failed == len(statuses) else EXIT_PARTIAL
    return max(statuses, default=0)


def main(argv: Sequence[str] | None = None) -> int:
    # numpy's OpenBLAS starts a thread per core when it loads; the engine makes no BLAS call,
    # and on a busy machine those threads cost a process tens of milliseconds of start-up.
    # A setting of the user's own is kept; in a process where numpy is loaded already this
    # changes nothing.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    args = build_parser().parse_args(argv)
    try:
        rules = _rules(args)
        if args.output_dir:
            return _run_into_dir(args, rules)
        if args.output and args.output != STDIN:
            with open(args.output, "wb") as out:
                return _run_files(args, out, rules)
        status = _run_files(args, sys.stdout.buffer, rules)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away (`| head`): the rest of the output has nowhere to go. Python's
        # own flush at exit would fail again and print "Exception ignored"; stdout goes to
        # devnull instead (the Python documentation's recipe, signal module, "Note on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except GlyphscopeError as exc:
        sys.stderr.write(f"glyphscope-extract: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        sys.stderr.write(f"glyphscope-extract: {exc.strerror or exc}: {exc.filename or ''}\n")
        return EXIT_USAGE


def script() -> int:
    """The `glyphscope-extract` command (and `python -m glyphscope.core.cli`): `main` in a
    process of its own, which it ends itself. Not for a caller of `main` in a process that goes
    on (a test, the inspector): it turns the cyclic garbage collector off and does not return
    when `main` returns."""
    # The collector's passes walk every object the imports made (numpy's, pikepdf's, the
    # engine's: most of what the process holds) and find next to nothing, since the stages
    # make no reference cycles of their own (as many objects are tracked after the 352 pages
    # of the corpus's longest file as after 3): turned off for the run, its passes no longer
    # cost a file's process tens of milliseconds.
    gc.disable()
    status = main()
    # Python's own exit would then free every module and object one by one (about 40 ms of
    # CPU, a third of a small file's pages): the output is flushed and the process ends with
    # main's status instead. A flush that fails (stdout a closed pipe) leaves the exit to Python,
    # which reports it as before. Every file was closed by main (with-blocks).
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return status
    os._exit(status)


if __name__ == "__main__":
    raise SystemExit(script())
