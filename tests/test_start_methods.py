"""The worker processes under the spawn start method (macOS's and Windows' default) as well as
the default one, and the POSIX-only modules imported only where they exist."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.sweep_support import outcomes, write_pdf

PAGE = b"BT /F1 10 Tf 72 700 Td (one two) Tj ET"


def test_a_sweep_runs_with_spawn_as_the_start_method(tmp_path):
    for name in ("a", "b", "c"):
        write_pdf(tmp_path / f"{name}.pdf", PAGE)
    database = tmp_path / "results.sqlite"
    code = (
        "import multiprocessing, sys; multiprocessing.set_start_method('spawn'); "
        "from glyphscope.sweep.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    args = [str(tmp_path), "--db", str(database), "--jobs", "2", "--quiet", "--no-pdfium"]
    result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode()
    assert outcomes(database) == {"a.pdf": "ok", "b.pdf": "ok", "c.pdf": "ok"}


def test_the_workers_import_where_resource_does_not_exist():
    # sys.modules["resource"] = None makes `import resource` fail, as on Windows.
    code = (
        "import sys; sys.modules['resource'] = None; "
        "import glyphscope.inspector.worker_child as child, glyphscope.sweep.child, "
        "glyphscope.sweep.isolation; "
        "child._limit_address_space(2**31)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "no RLIMIT_AS" in result.stderr and "without their memory cap" in result.stderr


@pytest.fixture
def spawned_worker(qtbot, monkeypatch):
    from glyphscope.inspector import worker_process

    monkeypatch.setenv(worker_process.START_METHOD_VARIABLE, "spawn")
    monkeypatch.setattr(worker_process, "_context", None)  # chosen afresh, then restored
    process = worker_process.WorkerProcess("spawned")
    yield process
    process.stop()


def test_an_inspector_worker_runs_a_job_under_spawn(qtbot, spawned_worker):
    from glyphscope.inspector import worker_process
    from tests import worker_jobs
    from tests.test_gui_workers import run_job

    assert worker_process._multiprocessing_context().get_start_method() == "spawn"
    assert run_job(qtbot, spawned_worker, "echo", worker_jobs.echo, [1, 2]) == (True, [1, 2])
    ok, pid = run_job(qtbot, spawned_worker, "pid", worker_jobs.pid)
    assert ok and pid != os.getpid()
