"""--scheduler tcp://…: the same sweep through a Dask LocalCluster of two worker processes."""

from __future__ import annotations

import pytest

from glyphscope.sweep.cli import main
from glyphscope.sweep.isolation import TEST_HOOK_VARIABLE
from glyphscope.sweep.store import unpack_texts
from tests.sweep_support import GAP_PAGE, PLAIN_PAGE, outcomes, rows, write_pdf

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    import dask

    # A task whose worker dies is not retried elsewhere: the sweep records it at once.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        try:
            yield cluster.scheduler_address
        finally:
            cluster.close()


def test_a_sweep_through_the_tcp_scheduler_records_every_outcome(scheduler, tmp_path, monkeypatch):
    folder = tmp_path / "corpus"
    folder.mkdir()
    write_pdf(folder / "gap.pdf", GAP_PAGE)
    for name in ("plain1", "aborts", "kills_dask", "plain2"):
        write_pdf(folder / f"{name}.pdf", PLAIN_PAGE)
    monkeypatch.setenv(TEST_HOOK_VARIABLE, "aborts=abort,kills_dask=kill_dask_worker")
    database = tmp_path / "results.sqlite"
    code = main([str(folder), "--db", str(database), "--scheduler", scheduler, "--quiet",
                 "--compare-rule", "space_gap_ratio=0.12", "--timeout", "60"])  # fmt: skip
    assert code == 1  # two documents crashed (recorded); the sweep itself finished
    assert outcomes(database) == {
        "aborts.pdf": "crash",
        "gap.pdf": "ok",
        "kills_dask.pdf": "crash",
        "plain1.pdf": "ok",
        "plain2.pdf": "ok",
    }
    errors = {
        r["path"].rsplit("/", 1)[1]: r["error"] for r in rows(database, "SELECT * FROM documents")
    }
    assert errors["aborts.pdf"] == "worker killed by SIGABRT"
    assert errors["kills_dask.pdf"].startswith("dask task failed: KilledWorker")
    page = rows(database, "SELECT * FROM pages p JOIN documents d ON d.id = p.document_id"
                " WHERE d.path LIKE '%gap.pdf'")[0]  # fmt: skip
    assert unpack_texts(page["compare_texts"])["reading"] == "one two"
    assert page["spaces_gained"] == 1


def test_send_bytes_reads_files_the_workers_cannot_see(scheduler, tmp_path):
    pdf = write_pdf(tmp_path / "gap.pdf", GAP_PAGE)
    database = tmp_path / "results.sqlite"
    assert main([str(pdf), "--db", str(database), "--scheduler", scheduler, "--quiet",
                 "--send-bytes", "--no-pdfium"]) == 0  # fmt: skip
    page = rows(database, "SELECT texts FROM pages")[0]
    assert unpack_texts(page["texts"])["reading"] == "onetwo"
