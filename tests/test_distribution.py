"""The distribution as a user gets it: a wheel built from this tree, installed into a fresh
virtual environment (no system site-packages) and run from outside the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GENERATORS = (
    "make_sample.py",
    "build_cmaps.py",
    "build_standard14.py",
    "build_glyph_list.py",
    "build_cff_data.py",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        timeout=600,
    )
    (built,) = out.glob("glyphscope-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """bin/ of a fresh venv with the wheel and its declared dependencies, nothing else."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    pip = [str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, str(wheel)], check=True, timeout=900)
    return env_dir / "bin"


def _names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_wheel_installs_one_top_level_package(wheel):
    with zipfile.ZipFile(wheel) as archive:
        (top_level,) = [n for n in archive.namelist() if n.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["glyphscope"]
    assert {name.split("/")[0] for name in _names(wheel) if "dist-info" not in name} == {
        "glyphscope"
    }


def test_wheel_carries_every_data_file_and_no_generator_or_test(wheel):
    names = set(_names(wheel))
    assert "glyphscope/assets/sample.pdf" in names
    assert "glyphscope/assets/fonts/standard14.json" in names
    assert "glyphscope/assets/fonts/glyph_list.json" in names
    assert "glyphscope/assets/fonts/cff_data.json" in names
    assert "glyphscope/assets/cmaps/cmap-90ms-RKSJ-H.json.gz" in names
    assert "glyphscope/assets/cmaps/cid2unicode-Adobe-Japan1.json.gz" in names
    assert "glyphscope/py.typed" in names
    assert not [n for n in names if n.rsplit("/", 1)[-1] in GENERATORS]
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n]


def _run(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["XDG_CONFIG_HOME"] = str(cwd)
    return subprocess.run(
        [str(installed / args[0]), *args[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=300,
    )


def test_installed_wheel_extracts_the_bundled_sample(installed, tmp_path):
    sample = _run(
        installed,
        tmp_path,
        "python",
        "-c",
        "import importlib.resources as r; print(r.files('glyphscope.assets') / 'sample.pdf')",
    )
    path = sample.stdout.decode().strip()
    assert ROOT.as_posix() not in path  # the installed copy, not this checkout's
    result = _run(installed, tmp_path, "glyphscope-extract", "--mode", "text", path)
    assert result.returncode == 0, result.stderr.decode()
    assert "PDF Reference Manual" in result.stdout.decode()


def test_installed_wheel_draws_a_screenshot_offscreen(installed, tmp_path):
    shot = tmp_path / "shot.png"
    result = _run(installed, tmp_path, "glyphscope", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr.decode()
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_commands_print_the_metadata_version(installed, tmp_path):
    from importlib.metadata import version

    expected = version("glyphscope")
    for command in ("glyphscope-extract", "glyphscope"):
        result = _run(installed, tmp_path, command, "--version")
        assert result.stdout.decode().split() == [command, expected]


def test_installed_library_imports_without_generic_top_level_names(installed, tmp_path):
    script = (
        "import sys, glyphscope, glyphscope.errors, glyphscope.core.cli, glyphscope.inspector.app;"
        "print(sorted({'core', 'widgets', 'inspector', 'assets'} & set(sys.modules)))"
    )
    result = _run(installed, tmp_path, "python", "-c", script)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().strip() == "[]"


def test_installed_wheel_sweeps_in_isolated_workers_and_reports(installed, tmp_path):
    sample = _run(
        installed,
        tmp_path,
        "python",
        "-c",
        "import importlib.resources as r; print(r.files('glyphscope.assets') / 'sample.pdf')",
    )
    path = sample.stdout.decode().strip()
    database, report = tmp_path / "results.sqlite", tmp_path / "report.html"
    result = _run(installed, tmp_path, "glyphscope-sweep", path, "--db", str(database))
    assert result.returncode == 0, result.stderr.decode()
    assert "done: 1 documents read (1 ok)" in result.stderr.decode()
    result = _run(installed, tmp_path, "glyphscope-sweep", "report", str(database), "-o",
                  str(report))  # fmt: skip
    assert result.returncode == 0, result.stderr.decode()
    assert "Pages to look at first" in report.read_text(encoding="utf-8")
    version = _run(installed, tmp_path, "glyphscope-sweep", "--version")
    assert version.stdout.decode().split()[0] == "glyphscope-sweep"
