"""glyphscope-sweep: discovery, the results file, compare counts, isolation, resume, Ctrl+C."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from glyphscope.core.rules import Rules
from glyphscope.sweep.cli import main
from glyphscope.sweep.isolation import TEST_HOOK_VARIABLE
from glyphscope.sweep.jobs import SweepSettings
from glyphscope.sweep.local import LocalBackend
from glyphscope.sweep.run import sweep
from glyphscope.sweep.sources import discover
from glyphscope.sweep.store import SCHEMA_VERSION, unpack_texts
from tests.pdfbuilder import Encrypt
from tests.sweep_support import GAP_PAGE, PLAIN_PAGE, outcomes, rows, write_pdf

COMPARE = ["--compare-rule", "space_gap_ratio=0.12"]


def run_cli(*args: str) -> int:
    return main([*args, "--quiet"])


def test_folders_are_searched_recursively_for_pdf_names(tmp_path):
    write_pdf(tmp_path / "a.pdf", PLAIN_PAGE)
    (tmp_path / "deep").mkdir()
    write_pdf(tmp_path / "deep" / "b.PDF", PLAIN_PAGE)
    (tmp_path / "notes.txt").write_text("not a pdf")
    found = discover([str(tmp_path), str(tmp_path / "missing.pdf")])
    assert [p.name for p in found.paths] == ["a.pdf", "b.PDF"]
    assert found.missing == [str(tmp_path / "missing.pdf")]


def test_glob_and_stdin_list_name_the_files(tmp_path):
    write_pdf(tmp_path / "keep.pdf", PLAIN_PAGE)
    write_pdf(tmp_path / "skip.pdf", PLAIN_PAGE)
    assert [p.name for p in discover([str(tmp_path)], "k*.pdf").paths] == ["keep.pdf"]
    stdin = io.StringIO(f"{tmp_path / 'skip.pdf'}\n\n{tmp_path / 'keep.pdf'}\n")
    assert [p.name for p in discover(["-"], stdin=stdin).paths] == ["skip.pdf", "keep.pdf"]


def test_results_file_is_wal_with_a_schema_version_and_compressed_texts(tmp_path):
    pdf = write_pdf(tmp_path / "gap.pdf", GAP_PAGE)
    database = tmp_path / "results.sqlite"
    assert run_cli(str(pdf), "--db", str(database)) == 0
    assert rows(database, "PRAGMA journal_mode")[0][0] == "wal"
    assert rows(database, "SELECT value FROM meta WHERE key = 'schema_version'")[0][0] == str(
        SCHEMA_VERSION
    )
    document = rows(database, "SELECT * FROM documents")[0]
    assert (document["outcome"], document["page_count"], document["tagged"]) == ("ok", 1, 0)
    page = rows(database, "SELECT * FROM pages")[0]
    assert (page["glyphs"], page["visible"], page["unresolved"]) == (6, 6, 0)
    assert unpack_texts(page["texts"])["reading"] == "onetwo"
    assert page["compare_texts"] is None and page["changed"] is None
    assert page["pdfium_f1"] == 0.0  # pdfium reads "one two": no word in common


def test_compare_run_counts_the_changed_words_and_decisions(tmp_path):
    gap = write_pdf(tmp_path / "gap.pdf", GAP_PAGE, PLAIN_PAGE)
    database = tmp_path / "results.sqlite"
    assert run_cli(str(gap), "--db", str(database), *COMPARE) == 0
    first, second = rows(database, "SELECT * FROM pages ORDER BY page")
    assert unpack_texts(first["texts"])["reading"] == "onetwo"
    assert unpack_texts(first["compare_texts"])["reading"] == "one two"
    assert (first["spaces_gained"], first["spaces_lost"], first["lines_split"]) == (1, 0, 0)
    assert (first["words_changed"], first["changed"], first["comparable"]) == (3, 1, 1)
    assert (second["spaces_gained"], second["words_changed"], second["changed"]) == (0, 0, 0)
    assert pytest.approx(first["pdfium_f1"]) == 0.0
    assert unpack_texts(second["compare_texts"]) == unpack_texts(second["texts"])


def test_modes_choose_the_texts_stored(tmp_path):
    pdf = write_pdf(tmp_path / "gap.pdf", PLAIN_PAGE)
    database = tmp_path / "results.sqlite"
    assert run_cli(str(pdf), "--db", str(database), "--modes", "reading,layout") == 0
    texts = unpack_texts(rows(database, "SELECT texts FROM pages")[0][0])
    assert set(texts) == {"reading", "layout"}


def test_password_file_opens_encrypted_documents(tmp_path):
    pdf = write_pdf(tmp_path / "locked.pdf", PLAIN_PAGE, encrypt=Encrypt("user", "owner"))
    passwords = tmp_path / "passwords.txt"
    passwords.write_text("wrong\nuser\n")
    database = tmp_path / "results.sqlite"
    assert run_cli(str(pdf), "--db", str(database), "--password-file", str(passwords)) == 0
    document = rows(database, "SELECT outcome, encrypted FROM documents")[0]
    assert (document["outcome"], document["encrypted"]) == ("ok", 1)
    other = tmp_path / "other.sqlite"
    assert run_cli(str(pdf), "--db", str(other)) == 1  # without the password: failed
    assert rows(other, "SELECT error FROM documents")[0][0].startswith("PasswordRequiredError")


def test_crashes_hangs_and_memory_blowups_are_outcomes_and_the_sweep_goes_on(tmp_path, monkeypatch):
    names = ["good1", "aborts", "segfaults", "exits", "hangs", "hoards", "good2"]
    for name in names:
        write_pdf(tmp_path / f"{name}.pdf", PLAIN_PAGE)
    (tmp_path / "broken.pdf").write_bytes(b"not a pdf at all")
    monkeypatch.setenv(
        TEST_HOOK_VARIABLE,
        "aborts=abort,segfaults=segfault,exits=exit,hangs=hang,hoards=memory",
    )
    database = tmp_path / "results.sqlite"
    code = run_cli(
        str(tmp_path), "--db", str(database), "--jobs", "2", "--timeout", "6",
        "--memory-limit", "1024", "--no-pdfium",
    )  # fmt: skip
    assert code == 1  # documents failed (each recorded); the sweep itself finished
    assert outcomes(database) == {
        "aborts.pdf": "crash",
        "broken.pdf": "error",
        "exits.pdf": "crash",
        "good1.pdf": "ok",
        "good2.pdf": "ok",
        "hangs.pdf": "timeout",
        "hoards.pdf": "memory",
        "segfaults.pdf": "crash",
    }
    errors = {Path(r["path"]).name: r["error"] for r in rows(database, "SELECT * FROM documents")}
    assert errors["segfaults.pdf"] == "worker killed by SIGSEGV"
    assert errors["aborts.pdf"] == "worker killed by SIGABRT"
    assert errors["exits.pdf"] == "worker exited with status 3"
    assert errors["broken.pdf"].startswith("NotAPdfError")
    assert len(rows(database, "SELECT * FROM pages")) == 2


def test_a_second_sweep_skips_what_is_done_and_reads_changed_files(tmp_path):
    first = write_pdf(tmp_path / "first.pdf", PLAIN_PAGE)
    write_pdf(tmp_path / "second.pdf", PLAIN_PAGE)
    database = tmp_path / "results.sqlite"
    settings = SweepSettings(Rules().to_json(), pdfium=False)

    def again():
        return sweep(
            discover([str(tmp_path)]).paths, database, settings, LocalBackend(1, 30, None),
            quiet=True,
        ).tally  # fmt: skip

    tally = again()
    assert (tally.documents, tally.skipped) == (2, 0)
    tally = again()
    assert (tally.documents, tally.skipped) == (0, 2)
    write_pdf(first, GAP_PAGE)  # new bytes, new sha256
    tally = again()
    assert (tally.documents, tally.skipped) == (1, 1)
    assert len(rows(database, "SELECT * FROM documents")) == 2
    texts = rows(database, "SELECT texts FROM pages p JOIN documents d ON d.id = p.document_id")
    assert sorted(unpack_texts(t[0])["reading"] for t in texts) == ["onetwo", "plain words"]


def test_new_rules_read_every_document_again(tmp_path):
    pdf = write_pdf(tmp_path / "a.pdf", PLAIN_PAGE)
    database = tmp_path / "results.sqlite"
    assert run_cli(str(pdf), "--db", str(database), "--no-pdfium") == 0
    assert run_cli(str(pdf), "--db", str(database), "--no-pdfium", *COMPARE) == 0
    assert len(rows(database, "SELECT * FROM documents")) == 2
    assert len(rows(database, "SELECT DISTINCT rules_hash FROM runs")) == 2


def _start_sweep(folder: Path, database: Path, hooks: str, *extra: str) -> subprocess.Popen:
    environment = {**os.environ, TEST_HOOK_VARIABLE: hooks}
    command = [sys.executable, "-m", "glyphscope.sweep.cli", str(folder), "--db", str(database)]
    return subprocess.Popen(
        [*command, "--no-pdfium", "--timeout", "60", *extra],
        env=environment,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_documents(database: Path, count: int, deadline: float = 60) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if database.exists():
            try:
                if len(rows(database, "SELECT id FROM documents")) >= count:
                    return
            except Exception:  # the schema may not be written yet
                pass
        time.sleep(0.1)
    raise AssertionError(f"fewer than {count} documents recorded in {deadline} s")


def _worker_pids(parent: int) -> list[int]:
    """Children of `parent`, from /proc/PID/stat (field 4, after the parenthesised name)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that ended while we looked
            continue
        if int(fields[1]) == parent:
            pids.append(int(stat.parent.name))
    return pids


def _wait_until_gone(pids: list[int], deadline: float = 10) -> None:
    end = time.monotonic() + deadline
    while any(Path(f"/proc/{pid}").exists() for pid in pids):
        if time.monotonic() > end:
            raise AssertionError(f"worker processes {pids} outlived the sweep")
        time.sleep(0.1)


def _corpus_of(folder: Path, count: int) -> None:
    folder.mkdir()
    for index in range(count):
        write_pdf(folder / f"doc{index}.pdf", PLAIN_PAGE)


def test_a_killed_sweep_resumes_where_it_stopped(tmp_path):
    folder, database = tmp_path / "corpus", tmp_path / "results.sqlite"
    _corpus_of(folder, 5)
    process = _start_sweep(folder, database, "doc2=hang")  # one worker: stuck on doc2
    _wait_for_documents(database, 2)
    stuck = _worker_pids(process.pid)
    assert stuck
    process.kill()
    process.wait(timeout=30)
    assert sorted(outcomes(database)) == ["doc0.pdf", "doc1.pdf"]
    _wait_until_gone(stuck)  # the stuck worker died with the sweep
    resumed = _start_sweep(folder, database, "")
    _, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0
    assert "3 documents read (3 ok), 2 already done" in stderr
    assert set(outcomes(database).values()) == {"ok"} and len(outcomes(database)) == 5


def test_ctrl_c_stops_cleanly_keeping_what_is_done(tmp_path):
    folder, database = tmp_path / "corpus", tmp_path / "results.sqlite"
    _corpus_of(folder, 5)
    process = _start_sweep(folder, database, "doc2=hang")
    _wait_for_documents(database, 2)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "stopped: 2 documents read (2 ok)" in stderr
    assert sorted(outcomes(database)) == ["doc0.pdf", "doc1.pdf"]
    run = rows(database, "SELECT stopped, finished FROM runs")[0]
    assert run["stopped"] == 1 and run["finished"]


def test_progress_prints_plain_lines_and_a_summary_when_not_a_terminal(tmp_path):
    pdf = write_pdf(tmp_path / "a.pdf", PLAIN_PAGE)
    stream = io.StringIO()
    outcome = sweep(
        [pdf], tmp_path / "r.sqlite", SweepSettings(Rules().to_json(), pdfium=False),
        LocalBackend(1, 30, None), progress_stream=stream, progress_interval=0,
    )  # fmt: skip
    lines = stream.getvalue().splitlines()
    assert "1/1 documents · 1 pages" in lines[-2]
    assert lines[-1].startswith("done: 1 documents read (1 ok), 0 already done, 1 pages in")
    assert "\r" not in stream.getvalue()
    assert outcome.summary == lines[-1]


def test_an_unknown_mode_is_a_one_line_error(tmp_path, capsys):
    assert main(["x.pdf", "--db", str(tmp_path / "r.sqlite"), "--modes", "poetry"]) == 2
    assert "unknown mode(s) poetry" in capsys.readouterr().err


def test_rules_files_are_read_for_both_sets(tmp_path):
    pdf = write_pdf(tmp_path / "gap.pdf", GAP_PAGE)
    rules_a, rules_b = tmp_path / "a.json", tmp_path / "b.json"
    rules_a.write_text(json.dumps({"space_gap_ratio": 0.12}))
    rules_b.write_text(json.dumps({"space_gap_ratio": 0.15}))
    database = tmp_path / "results.sqlite"
    assert run_cli(str(pdf), "--db", str(database), "--rules", str(rules_a),
                   "--compare", str(rules_b), "--no-pdfium") == 0  # fmt: skip
    page = rows(database, "SELECT * FROM pages")[0]
    assert unpack_texts(page["texts"])["reading"] == "one two"
    assert (page["spaces_lost"], page["words_changed"]) == (1, 3)


def test_retry_reads_again_the_documents_recorded_with_those_outcomes(tmp_path, monkeypatch):
    write_pdf(tmp_path / "slow.pdf", PLAIN_PAGE)
    write_pdf(tmp_path / "fine.pdf", PLAIN_PAGE)
    database = tmp_path / "results.sqlite"
    monkeypatch.setenv(TEST_HOOK_VARIABLE, "slow=hang")
    options = ["--db", str(database), "--no-pdfium", "--timeout", "2"]
    assert run_cli(str(tmp_path), *options) == 1  # a document failed
    assert outcomes(database) == {"fine.pdf": "ok", "slow.pdf": "timeout"}
    monkeypatch.delenv(TEST_HOOK_VARIABLE)
    assert run_cli(str(tmp_path), *options) == 0  # recorded outcomes are done
    assert outcomes(database)["slow.pdf"] == "timeout"
    assert run_cli(str(tmp_path), *options, "--retry", "timeout,crash") == 0
    assert outcomes(database) == {"fine.pdf": "ok", "slow.pdf": "ok"}


def test_a_file_gone_since_discovery_is_recorded_as_an_error(tmp_path):
    gone = write_pdf(tmp_path / "gone.pdf", PLAIN_PAGE)
    paths = discover([str(tmp_path)]).paths
    gone.unlink()
    database = tmp_path / "results.sqlite"
    settings = SweepSettings(Rules().to_json(), pdfium=False)
    tally = sweep(paths, database, settings, LocalBackend(1, 30, None), quiet=True).tally
    assert (tally.documents, tally.failures) == (1, 1)
    document = rows(database, "SELECT outcome, error FROM documents")[0]
    assert document["outcome"] == "error"
    assert document["error"].startswith("UnreadableFileError:")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_on_a_terminal_is_a_bar_redrawn_in_place(tmp_path):
    pdf = write_pdf(tmp_path / "a.pdf", PLAIN_PAGE)
    stream = Terminal()
    sweep([pdf], tmp_path / "r.sqlite", SweepSettings(Rules().to_json(), pdfium=False),
          LocalBackend(1, 30, None), progress_stream=stream)  # fmt: skip
    output = stream.getvalue()
    assert "\r\x1b[2K[" + "#" * 24 + "] 1/1 documents · 1 pages · " in output
    assert "\n" not in output.removesuffix("\n")  # one line, redrawn
    assert output.rsplit("\r\x1b[2K", 1)[1].startswith("done: 1 documents read (1 ok)")
