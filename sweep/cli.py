"""`glyphscope-sweep SOURCE... --db RESULTS.sqlite [options]` and
`glyphscope-sweep report RESULTS.sqlite -o report.html` (see the README, "Corpus sweeps")."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import glyphscope
from glyphscope.core.version import package_version
from glyphscope.errors import GlyphscopeError
from glyphscope.sweep.jobs import MODES, OUTCOMES, SweepSettings
from glyphscope.sweep.sources import DEFAULT_GLOB, discover, read_passwords
from glyphscope.sweep.store import SchemaError

DEFAULT_TIMEOUT = 300.0
DEFAULT_MEMORY_MB = 4096
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_STOPPED = 130  # 128 + SIGINT, as a shell reports a command Ctrl+C ended
USAGE = """%(prog)s SOURCE... --db RESULTS.sqlite [options]
       %(prog)s report RESULTS.sqlite -o report.html [--top N] [--thumbnails N]"""
EXIT_STATUSES = """exit status:
  0    every document was read (or was done already, by an earlier run)
  1    some document failed (error, timeout, memory, crash: recorded in the database and
       listed first in the report), or a SOURCE does not exist
  2    usage: a bad option or value, a database or rules file that cannot be used
  130  stopped by Ctrl+C (what was done is kept; run again to finish)"""


def sweep_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="glyphscope-sweep",
        usage=USAGE,
        description="Read many PDFs with the engine and keep every page's results in SQLite.\n"
        "`glyphscope-sweep report RESULTS.sqlite -o report.html` writes the report.",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    parser.add_argument("sources", nargs="+", metavar="SOURCE", help="file, folder or - (stdin)")
    parser.add_argument("--db", required=True, metavar="RESULTS.sqlite")
    parser.add_argument("--glob", default=DEFAULT_GLOB, help="file names searched in folders")
    parser.add_argument("--rules", metavar="A.json", help="rule set to read with (JSON)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--compare", metavar="B.json", help="second rule set to compare with")
    parser.add_argument("--compare-rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--modes", default=",".join(MODES), help="text modes to store")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (local)")
    parser.add_argument("--scheduler", default="local", help="local or tcp://HOST:PORT")
    parser.add_argument("--send-bytes", action="store_true", help="send files to the workers")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S")
    parser.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_MB, metavar="MB")
    parser.add_argument("--password-file", metavar="F", help="passwords to try, one a line")
    parser.add_argument(
        "--retry",
        default="",
        metavar="OUTCOMES",
        help="read again documents recorded with these outcomes (e.g. timeout,crash,memory)",
    )
    parser.add_argument("--no-pdfium", action="store_true", help="skip agreement with pdfium")
    parser.add_argument("--quiet", action="store_true", help="no progress, no summary")
    return parser


def report_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="glyphscope-sweep report",
        description="Write a sweep's self-contained HTML report.",
        epilog="exit status: 0 written, 2 the database cannot be read or the report written",
    )
    parser.add_argument("database", metavar="RESULTS.sqlite")
    parser.add_argument("-o", "--output", required=True, metavar="report.html")
    parser.add_argument("--top", type=int, default=100, help="ranked pages listed")
    parser.add_argument("--thumbnails", type=int, default=40, help="rows given a thumbnail")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "report":
            return _report(report_parser().parse_args(argv[1:]))
        return _sweep(sweep_parser().parse_args(argv), argv)
    except (GlyphscopeError, SchemaError, OSError, RuntimeError) as exc:
        print(f"glyphscope-sweep: {exc}", file=sys.stderr)
        return EXIT_USAGE


def settings_from(args: argparse.Namespace) -> SweepSettings:
    modes = tuple(mode.strip() for mode in args.modes.split(",") if mode.strip())
    unknown = [mode for mode in modes if mode not in MODES]
    if unknown:
        raise GlyphscopeError(f"unknown mode(s) {', '.join(unknown)}; known: {', '.join(MODES)}")
    rules = _rules(args.rules, args.rule)
    compare = None
    if args.compare or args.compare_rule:
        compare = _rules(args.compare, args.compare_rule, base=args.rules).to_json()
    return SweepSettings(rules.to_json(), compare, modes, not args.no_pdfium)


def _rules(path: str | None, overrides: list[str], base: str | None = None) -> glyphscope.Rules:
    source = path or base
    rules = glyphscope.Rules.load(source) if source else glyphscope.Rules()
    values = dict(item.partition("=")[::2] for item in overrides)
    return rules.with_values(**values) if values else rules


def _sweep(args: argparse.Namespace, argv: list[str]) -> int:
    from glyphscope.sweep.run import sweep

    settings = settings_from(args)
    found = discover(args.sources, args.glob)
    for source in found.missing:
        print(f"glyphscope-sweep: {source}: no such file or folder", file=sys.stderr)
    passwords = read_passwords(args.password_file) if args.password_file else ()
    retry = tuple(outcome.strip() for outcome in args.retry.split(",") if outcome.strip())
    unknown = [outcome for outcome in retry if outcome not in OUTCOMES]
    if unknown:
        raise GlyphscopeError(f"--retry takes outcomes of {', '.join(OUTCOMES)}")
    memory = args.memory_limit or None
    if args.scheduler == "local":
        from glyphscope.sweep.local import LocalBackend

        backend = LocalBackend(args.jobs, args.timeout, memory)
    elif args.scheduler.startswith("tcp://"):
        from glyphscope.sweep.dask_backend import DaskBackend

        backend = DaskBackend(args.scheduler, args.timeout, memory)
    else:
        raise GlyphscopeError(f"--scheduler takes local or tcp://HOST:PORT, not {args.scheduler}")
    outcome = sweep(
        found.paths,
        args.db,
        settings,
        backend,
        passwords=passwords,
        send_bytes=args.send_bytes,
        retry=retry,
        command=shlex.join(["glyphscope-sweep", *argv]),
        quiet=args.quiet,
    )
    if outcome.stopped:
        return EXIT_STOPPED
    return EXIT_FAILED if outcome.tally.failures or found.missing else 0


def _report(args: argparse.Namespace) -> int:
    from glyphscope.sweep.report import write_report

    write_report(args.database, Path(args.output), top=args.top, thumbnails=args.thumbnails)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
