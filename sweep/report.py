"""`glyphscope-sweep report RESULTS.sqlite -o report.html`: one self-contained HTML file.

Everything is inline (CSS, SVG charts, PNG thumbnails as data URIs), so the file opens offline
and can be mailed. Sections: the corpus summary, the charts, the ranked pages (each with its
reasons, a thumbnail with the affected glyphs marked and the inspector command), and for a
--compare run every changed page with its word diff, grouped by kind of change.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from datetime import datetime
from html import escape
from pathlib import Path

from glyphscope.core.contained import ContainedProcess
from glyphscope.core.qa.diffing import changed_rules
from glyphscope.core.rules import Rules
from glyphscope.sweep.compare import CHANGE_KINDS, KIND_TITLES, main_kind, word_hunks
from glyphscope.sweep.jobs import OUTCOMES
from glyphscope.sweep.plots import bar_chart, histogram
from glyphscope.sweep.ranking import RankedPage, inspector_command, latest_rules_hash, ranked_pages
from glyphscope.sweep.store import connect, unpack_marks, unpack_texts
from glyphscope.sweep.thumbnails import MARK_COLOURS, file_page_svg

HUNKS_PER_PAGE = 8
PAGES_PER_DOCUMENT = 3  # in the ranked list, so one bad document does not fill it
PAGES_PER_KIND = 60

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; text-align: left; }
th { background: #f3f3f3; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font-size: 12px; background: #f6f6f6; padding: 1px 3px; word-break: break-all; }
del { background: #fdd; text-decoration: none; } ins { background: #dfd; text-decoration: none; }
.plots { display: flex; flex-wrap: wrap; gap: 24px; }
.thumb { border: 1px solid #bbb; background: #fff; }
.legend span { display: inline-block; margin-right: 12px; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
.muted { color: #777; }
"""


def write_report(database: str | Path, output: Path, top: int = 100, thumbnails: int = 40) -> None:
    connection = connect(database)
    try:
        html = build_report(connection, str(database), top, thumbnails)
    finally:
        connection.close()
    output.write_text(html, encoding="utf-8")


def build_report(connection: sqlite3.Connection, database: str, top: int, thumbnails: int) -> str:
    rules_hash = latest_rules_hash(connection)
    run = connection.execute(
        "SELECT * FROM runs WHERE rules_hash = ? ORDER BY id DESC LIMIT 1", (rules_hash,)
    ).fetchone()
    pictures = Thumbnails(connection)
    try:
        ranked = ranked_pages(connection, rules_hash)
        body = [
            f"<h1>Glyphscope sweep: {escape(Path(database).name)}</h1>",
            _failures_section(connection, rules_hash),
            _run_section(connection, run),
            _summary_section(connection, rules_hash, run),
            _plots_section(connection, rules_hash, ranked, run),
            _ranked_section(_spread(ranked, top), database, pictures, thumbnails),
        ]
        if run is not None and run["compare_rules"]:
            body.append(_compare_section(connection, rules_hash, database, pictures, thumbnails))
    finally:
        pictures.close()
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Glyphscope sweep report</title><style>{STYLE}</style></head><body>"
        + "\n".join(body)
        + "</body></html>\n"
    )


# -- sections ----------------------------------------------------------------------------------


def _failures_section(connection: sqlite3.Connection, rules_hash: str | None) -> str:
    """The documents that failed (error, timeout, memory, crash), first, each with its error."""
    failed = connection.execute(
        "SELECT path, outcome, error FROM documents WHERE rules_hash = ? AND outcome != 'ok'"
        " ORDER BY outcome, path",
        (rules_hash,),
    ).fetchall()
    if not failed:
        return ""
    rows = "".join(
        f"<tr><td>{escape(path)}</td><td>{escape(outcome)}</td><td>{escape(error)}</td></tr>"
        for path, outcome, error in failed
    )
    return (
        f"<h2>Failed documents ({len(failed)})</h2>"
        f"<table><tr><th>file</th><th>outcome</th><th>error</th></tr>{rows}</table>"
    )


def _run_section(connection: sqlite3.Connection, run: sqlite3.Row | None) -> str:
    if run is None:
        return "<p>No sweep has written to this file yet.</p>"
    runs = connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    rows = [
        ("engine", run["engine_version"]),
        ("rules hash", run["rules_hash"]),
        ("last run", f"{run['started']} → {run['finished'] or 'not finished'}"
         + (" (stopped)" if run["stopped"] else "")),
        ("runs in this file", str(runs)),
        ("modes", run["modes"]),
        ("pdfium agreement", "on" if run["pdfium"] else "off"),
        ("rules", _rules_summary(run["rules"])),
    ]  # fmt: skip
    if run["compare_rules"]:
        rows.append(("compared with", _rule_change_text(run["rules"], run["compare_rules"])))
    rows.append(("command", f"<code>{escape(run['command'])}</code>"))
    cells = "".join(
        f"<tr><th>{escape(k)}</th><td>{v if k in ('command',) else escape(v)}</td></tr>"
        for k, v in rows
    )
    return f"<h2>Run</h2><table>{cells}</table>"


def _summary_section(
    connection: sqlite3.Connection, rules_hash: str | None, run: sqlite3.Row | None
) -> str:
    outcomes = dict(
        connection.execute(
            "SELECT outcome, COUNT(*) FROM documents WHERE rules_hash = ? GROUP BY outcome",
            (rules_hash,),
        ).fetchall()
    )
    totals = connection.execute(
        "SELECT COUNT(*), COALESCE(SUM(p.visible), 0), COALESCE(SUM(p.unresolved), 0),"
        " COALESCE(SUM(p.dropped_duplicates), 0), COALESCE(SUM(p.dropped_off_box), 0),"
        " COALESCE(SUM(p.glyphs), 0)"
        " FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.rules_hash = ?",
        (rules_hash,),
    ).fetchone()
    pages, visible, unresolved, duplicates, off_box, glyphs = totals
    seconds = connection.execute(
        "SELECT COALESCE(SUM(seconds), 0) FROM documents WHERE rules_hash = ?", (rules_hash,)
    ).fetchone()[0]
    outcome_cells = "".join(
        f"<tr><td>{o}</td><td class=num>{outcomes.get(o, 0)}</td></tr>" for o in OUTCOMES
    )
    figures = [
        ("documents", sum(outcomes.values())),
        ("pages", pages),
        ("pages per second, last run (wall clock)", _run_speed(connection, run)),
        ("pages per worker-second", f"{pages / seconds:.1f}" if seconds else "–"),
        ("glyphs painted", glyphs),
        ("unresolved glyph rate", f"{unresolved / visible:.3%}" if visible else "–"),
        ("duplicates dropped", duplicates),
        ("off-box glyphs dropped", off_box),
    ]
    figure_cells = "".join(
        f"<tr><th>{escape(k)}</th><td class=num>{escape(str(v))}</td></tr>" for k, v in figures
    )
    by_producer = connection.execute(
        "SELECT d.producer, COUNT(DISTINCT d.id), COUNT(*), SUM(p.unresolved), SUM(p.visible),"
        " SUM(p.dropped_duplicates), SUM(p.dropped_off_box)"
        " FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.rules_hash = ?"
        " GROUP BY d.producer ORDER BY COUNT(*) DESC LIMIT 25",
        (rules_hash,),
    ).fetchall()
    producer_rows = "".join(
        f"<tr><td>{escape(row[0] or '(none)')}</td><td class=num>{row[1]}</td>"
        f"<td class=num>{row[2]}</td>"
        f"<td class=num>{(row[3] / row[4] if row[4] else 0):.2%}</td>"
        f"<td class=num>{row[5]}</td><td class=num>{row[6]}</td></tr>"
        for row in by_producer
    )
    failures = connection.execute(
        "SELECT path, outcome, error FROM documents WHERE rules_hash = ? AND outcome != 'ok'"
        " ORDER BY outcome, path",
        (rules_hash,),
    ).fetchall()
    failure_rows = "".join(
        f"<tr><td title='{escape(row[0])}'>{escape(Path(row[0]).name)}</td>"
        f"<td>{escape(row[1])}</td><td>{escape(row[2])}</td></tr>"
        for row in failures
    )
    return (
        "<h2>Corpus</h2><div class=plots>"
        f"<table><tr><th>outcome</th><th>documents</th></tr>{outcome_cells}</table>"
        f"<table>{figure_cells}</table></div>"
        "<h3>By producer</h3><table><tr><th>producer</th><th>documents</th><th>pages</th>"
        "<th>unresolved</th><th>duplicates dropped</th><th>off-box dropped</th></tr>"
        f"{producer_rows}</table>"
        + (
            "<h3>Documents not read</h3><table><tr><th>document</th><th>outcome</th>"
            f"<th>why</th></tr>{failure_rows}</table>"
            if failures
            else ""
        )
    )


def _plots_section(
    connection: sqlite3.Connection,
    rules_hash: str | None,
    ranked: list[RankedPage],
    run: sqlite3.Row | None,
) -> str:
    disagreement = [1.0 - page.pdfium_f1 for page in ranked if page.pdfium_f1 is not None]
    plots = [
        histogram(
            disagreement,
            title=f"Disagreement with pdfium ({len(disagreement)} pages)",
            x_label="1 − word F1 against pdfium",
        )
    ]
    producers = connection.execute(
        "SELECT d.producer, COUNT(*) FROM pages p JOIN documents d ON d.id = p.document_id"
        " WHERE d.rules_hash = ? GROUP BY d.producer ORDER BY COUNT(*) DESC LIMIT 15",
        (rules_hash,),
    ).fetchall()
    plots.append(bar_chart([(p or "(none)", n) for p, n in producers], "Pages per producer"))
    if run is not None and run["compare_rules"]:
        sums = ", ".join(f"SUM(p.{kind} > 0)" for kind in CHANGE_KINDS)
        counts = connection.execute(
            f"SELECT {sums}, SUM(p.changed) FROM pages p JOIN documents d"
            " ON d.id = p.document_id WHERE d.rules_hash = ?",
            (rules_hash,),
        ).fetchone()
        items = [(KIND_TITLES[k], counts[i] or 0) for i, k in enumerate(CHANGE_KINDS)]
        items.append(("any change", counts[-1] or 0))
        change = _rule_change_text(run["rules"], run["compare_rules"])
        plots.append(bar_chart(items, f"Changed pages per kind: {change}"))
    return "<h2>Charts</h2><div class=plots>" + "".join(plots) + "</div>"


def _spread(ranked: list[RankedPage], top: int) -> list[tuple[int, RankedPage, int]]:
    """(rank, page, pages of its document left out) for the first `top` rows, at most
    PAGES_PER_DOCUMENT of each document; the last shown carries its document's remainder."""
    per_document: dict[int, int] = defaultdict(int)
    for page in ranked:
        per_document[page.document_id] += 1
    shown: list[tuple[int, RankedPage, int]] = []
    taken: dict[int, int] = defaultdict(int)
    for rank, page in enumerate(ranked, 1):
        if len(shown) == top:
            break
        taken[page.document_id] += 1
        if taken[page.document_id] > PAGES_PER_DOCUMENT:
            continue
        left = per_document[page.document_id] - PAGES_PER_DOCUMENT
        last = taken[page.document_id] == PAGES_PER_DOCUMENT
        shown.append((rank, page, left if last and left > 0 else 0))
    return shown


def _ranked_section(
    ranked: list[tuple[int, RankedPage, int]], database: str, pictures: Thumbnails, thumbnails: int
) -> str:
    rows = []
    for row_number, (rank, page, left_out) in enumerate(ranked, 1):
        picture = pictures.page(page.document_id, page.page) if row_number <= thumbnails else ""
        command = inspector_command(database, page.path, page.page, page.layers())
        more = f" (+{left_out} more pages of this document)" if left_out else ""
        rows.append(
            f"<tr class=ranked><td class=num>{rank}</td><td class=num>{page.suspicion:.2f}</td>"
            f"<td title='{escape(page.path)}'>{escape(Path(page.path).name)}</td>"
            f"<td class=num>{page.page}</td>"
            f"<td>{escape('; '.join(page.reasons()) or 'nothing found')}"
            f"<span class=muted>{more}</span></td>"
            f"<td>{picture}</td><td><code>{escape(command)}</code></td></tr>"
        )
    return (
        "<h2>Pages to look at first</h2>"
        f"<p class=muted>At most {PAGES_PER_DOCUMENT} pages of a document are listed, by rank "
        "(the Corpus panel lists them all). Suspicion adds, each at most 1: "
        "unresolved glyphs (10 count fully), "
        "1 − word F1 against pdfium, duplicates and off-box drops (a fifth of the glyphs "
        "counts fully), truncation, and 0.5 for untrusted structure.</p>"
        + _legend()
        + "<table><tr><th>#</th><th>suspicion</th><th>document</th><th>page</th>"
        "<th>why</th><th>page</th><th>open in the inspector</th></tr>" + "".join(rows) + "</table>"
    )


def _compare_section(
    connection: sqlite3.Connection,
    rules_hash: str | None,
    database: str,
    pictures: Thumbnails,
    thumbnails: int,
) -> str:
    columns = ", ".join(f"p.{kind}" for kind in CHANGE_KINDS)
    rows = connection.execute(
        f"SELECT d.id, d.path, p.page, {columns}, p.comparable, p.words_changed, p.texts,"
        " p.compare_texts FROM pages p JOIN documents d ON d.id = p.document_id"
        " WHERE d.rules_hash = ? AND p.changed = 1 ORDER BY p.words_changed DESC, d.path, p.page",
        (rules_hash,),
    ).fetchall()
    groups: dict[str, list] = defaultdict(list)
    for row in rows:
        counts = {kind: row[3 + i] for i, kind in enumerate(CHANGE_KINDS)}
        counts["comparable"] = row["comparable"]
        groups[main_kind(counts)].append((row, counts))
    parts = [f"<h2>Pages changed by the second rule set ({len(rows)})</h2>"]
    shown = 0
    for kind in (*CHANGE_KINDS, "not_comparable", "text_only"):
        members = groups.get(kind, [])
        if not members:
            continue
        parts.append(f"<h3>{escape(KIND_TITLES[kind])} ({len(members)} pages)</h3><table>")
        parts.append("<tr><th>document</th><th>page</th><th>changes</th><th>word diff</th>"
                     "<th>page</th><th>open in the inspector</th></tr>")  # fmt: skip
        for row, counts in members[:PAGES_PER_KIND]:
            shown += 1
            picture = pictures.page(row["id"], row["page"]) if shown <= thumbnails else ""
            layers = ["glyphs", "rule_changes", "gaps", "line_breaks"]
            command = inspector_command(database, row["path"], row["page"], layers)
            tally = ", ".join(
                f"{KIND_TITLES[k]} {counts[k]}" for k in CHANGE_KINDS if counts.get(k)
            )
            diff = _diff_html(
                unpack_texts(row["texts"]).get("reading", ""),
                unpack_texts(row["compare_texts"]).get("reading", ""),
            )
            parts.append(
                f"<tr class=changed><td title='{escape(row['path'])}'>"
                f"{escape(Path(row['path']).name)}</td><td class=num>{row['page']}</td>"
                f"<td>{escape(tally or KIND_TITLES[kind])}; {row['words_changed']} words</td>"
                f"<td>{diff}</td><td>{picture}</td><td><code>{escape(command)}</code></td></tr>"
            )
        if len(members) > PAGES_PER_KIND:
            parts.append(
                f"<tr><td colspan=6 class=muted>… {len(members) - PAGES_PER_KIND} more pages "
                "of this kind in the results file</td></tr>"
            )
        parts.append("</table>")
    return "".join(parts)


# -- pieces ------------------------------------------------------------------------------------


def _run_speed(connection: sqlite3.Connection, run: sqlite3.Row | None) -> str:
    """Pages the last run read over its duration (documents it skipped as done excluded)."""
    if run is None or not run["finished"]:
        return "–"
    pages = connection.execute(
        "SELECT COUNT(*) FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.run_id = ?",
        (run["id"],),
    ).fetchone()[0]
    seconds = (
        datetime.fromisoformat(run["finished"]) - datetime.fromisoformat(run["started"])
    ).total_seconds()
    return f"{pages / seconds:.1f} ({pages} pages in {seconds:.0f} s)" if seconds > 0 else "–"


def _diff_html(before: str, after: str) -> str:
    hunks = word_hunks(before, after)
    if not hunks:
        return "<span class=muted>same words; only line or space structure changed</span>"
    items = [
        f"<div><del>{escape(h.before) or '∅'}</del> → <ins>{escape(h.after) or '∅'}</ins></div>"
        for h in hunks[:HUNKS_PER_PAGE]
    ]
    if len(hunks) > HUNKS_PER_PAGE:
        items.append(f"<div class=muted>… {len(hunks) - HUNKS_PER_PAGE} more</div>")
    return "".join(items)


def _legend() -> str:
    spans = "".join(
        f'<span><i class=swatch style="background:{colour}"></i>{escape(kind)}</span>'
        for kind, colour in MARK_COLOURS.items()
    )
    return f"<p class=legend>Marks on the thumbnails: {spans}</p>"


def _rules_summary(rules_json: str) -> str:
    changed = changed_rules(Rules(), Rules.from_json(rules_json))
    if not changed:
        return "the spec's defaults"
    return ", ".join(f"{name}={new}" for name, _, new in changed)


def _rule_change_text(rules_json: str, compare_json: str) -> str:
    changed = changed_rules(Rules.from_json(rules_json), Rules.from_json(compare_json))
    return ", ".join(f"{name} {old} → {new}" for name, old, new in changed) or "the same rules"


class Thumbnails:
    """Page pictures by (document id, page), drawn in a contained process (core.contained,
    with the sweep's limits): a page pdfium cannot draw, or that takes the process down, gets
    a placeholder saying why, and the report goes on."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection
        self._process = ContainedProcess()

    def page(self, document_id: int, page: int) -> str:
        row = self._connection.execute(
            "SELECT d.path, p.crop_box, p.rotate, p.marks FROM pages p JOIN documents d"
            " ON d.id = p.document_id WHERE d.id = ? AND p.page = ?",
            (document_id, page),
        ).fetchone()
        try:
            args = (row[0], page - 1, json.loads(row[1]), row[2], unpack_marks(row[3]))
        except (TypeError, ValueError) as exc:  # no row, or a record the sweep left unreadable
            return _no_picture(f"{type(exc).__name__}: {exc}")
        ok, answer = self._process.run(file_page_svg, *args)
        return str(answer) if ok else _no_picture(str(answer))

    def close(self) -> None:
        self._process.stop()


def _no_picture(reason: str) -> str:
    return f"<span class=muted>no picture: {escape(reason)}</span>"
