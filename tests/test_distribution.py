"""The distribution as a user gets it: the sdist `python -m build` writes, the wheel it then
builds from that sdist (in build's fresh, isolated environment), installed into a fresh
virtual environment (no system site-packages) and run from outside the checkout. Slow (two
builds and two environments); skipped where `build` or the package index is unavailable."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from importlib.util import find_spec
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
# What pip or build print when the package index cannot be reached: the test cannot run here.
_OFFLINE = (
    "No matching distribution found",
    "Could not find a version that satisfies",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Failed to establish a new connection",
)


def _checked(command: list[str], **options: object) -> subprocess.CompletedProcess:
    """Run a build or install step; skip the test when it failed for want of the index."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200, **options)
    if result.returncode != 0:
        output = result.stdout + result.stderr
        if any(sign in output for sign in _OFFLINE):
            pytest.skip(f"package index unavailable: {command[:4]}")
        pytest.fail(f"{' '.join(command)} exited {result.returncode}:\n{output[-4000:]}")
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(sdist, wheel): `python -m build` makes the sdist, then the wheel from the sdist."""
    if find_spec("build") is None:
        pytest.skip("the build package is not installed (the test extra has it)")
    out = tmp_path_factory.mktemp("dist")
    _checked([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)])
    (sdist,) = out.glob("glyphscope-*.tar.gz")
    (wheel,) = out.glob("glyphscope-*.whl")
    return sdist, wheel


@pytest.fixture(scope="module")
def sdist(built) -> Path:
    return built[0]


@pytest.fixture(scope="module")
def wheel(built) -> Path:
    return built[1]


def _venv(tmp_path_factory, requirement: str) -> Path:
    """bin/ of a fresh venv holding the requirement and its declared dependencies only."""
    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    _checked([str(env_dir / "bin" / "python"), "-m", "pip", "install", "-q", requirement])
    return env_dir / "bin"


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """`pip install glyphscope`: the engine and both command-line tools, no Qt."""
    return _venv(tmp_path_factory, str(wheel))


@pytest.fixture(scope="module")
def installed_gui(wheel, tmp_path_factory) -> Path:
    """`pip install 'glyphscope[gui]'`: with the inspector."""
    return _venv(tmp_path_factory, f"{wheel}[gui]")


def _names(archive_path: Path) -> list[str]:
    if archive_path.suffix == ".whl":
        with zipfile.ZipFile(archive_path) as archive:
            return archive.namelist()
    with tarfile.open(archive_path) as archive:
        return [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]


def test_sdist_holds_the_sources_the_extensions_are_built_from(sdist):
    names = set(_names(sdist))
    pyx = {str(path.relative_to(ROOT)) for path in ROOT.glob("core/**/*.pyx")}
    assert pyx and pyx <= names
    assert {str(path.relative_to(ROOT)) for path in ROOT.glob("core/**/*.pyi")} <= names
    assert {"README.md", "pyproject.toml", "setup.py", "MANIFEST.in"} <= names
    assert "assets/fonts/build_standard14.py" in names  # the data's source travels with it
    assert not [name for name in names if name.endswith((".c", ".so"))]


def test_the_wheel_carries_every_licence_its_metadata_names(wheel):
    names = _names(wheel)
    (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    with zipfile.ZipFile(wheel) as archive:
        headers = archive.read(metadata).decode().split("\n\n")[0].splitlines()
    files = [line.split(": ", 1)[1] for line in headers if line.startswith("License-File: ")]
    assert "LICENSE" in files and "assets/cmaps/LICENSE-Adobe-CMaps" in files
    assert "assets/fonts/LICENSE-standard14.md" in files
    assert [line for line in headers if line.startswith("License-Expression: MIT")]
    licences = {n.split(".dist-info/licenses/", 1)[1] for n in names if ".dist-info/licenses/" in n}
    assert set(files) <= licences


def test_wheel_installs_one_top_level_package(wheel):
    with zipfile.ZipFile(wheel) as archive:
        (top_level,) = [n for n in archive.namelist() if n.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["glyphscope"]
    assert {name.split("/")[0] for name in _names(wheel) if "dist-info" not in name} == {
        "glyphscope"
    }


def test_wheel_carries_every_data_file_and_no_generator_test_or_c(wheel):
    names = set(_names(wheel))
    assert "glyphscope/assets/sample.pdf" in names
    assert "glyphscope/assets/fonts/standard14.json" in names
    assert "glyphscope/assets/fonts/glyph_list.json" in names
    assert "glyphscope/assets/fonts/cff_data.json" in names
    assert "glyphscope/assets/cmaps/cmap-90ms-RKSJ-H.json.gz" in names
    assert "glyphscope/assets/cmaps/cid2unicode-Adobe-Japan1.json.gz" in names
    assert "glyphscope/py.typed" in names
    assert "glyphscope/core/interpret/_scanner.pyi" in names  # the compiled loops' stubs
    assert not [n for n in names if n.rsplit("/", 1)[-1] in GENERATORS]
    assert not [n for n in names if n.startswith("tests/") or "/tests/" in n]
    assert not [n for n in names if n.endswith((".c", ".pyx", ".h"))]


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


def _sample(installed: Path, cwd: Path) -> str:
    code = "import importlib.resources as r; print(r.files('glyphscope.assets') / 'sample.pdf')"
    path = _run(installed, cwd, "python", "-c", code).stdout.decode().strip()
    assert path and ROOT.as_posix() not in path  # the installed copy, not this checkout's
    return path


def test_engine_install_has_no_qt(installed, tmp_path):
    listed = _run(installed, tmp_path, "python", "-m", "pip", "list").stdout.decode().lower()
    assert "pikepdf" in listed
    assert "pyside6" not in listed and "shiboken6" not in listed


def test_installed_wheel_extracts_the_bundled_sample(installed, tmp_path):
    result = _run(
        installed, tmp_path, "glyphscope-extract", "--mode", "text", _sample(installed, tmp_path)
    )
    assert result.returncode == 0, result.stderr.decode()
    assert "PDF Reference Manual" in result.stdout.decode()


@pytest.mark.parametrize("command", [["glyphscope"], ["python", "-m", "glyphscope"]])
def test_the_inspector_without_qt_says_in_one_line_how_to_get_it(installed, tmp_path, command):
    result = _run(installed, tmp_path, *command)
    assert result.returncode == 1 and result.stdout == b""
    (line,) = result.stderr.decode().splitlines()
    assert "pip install 'glyphscope[gui]'" in line


def test_installed_library_imports_without_generic_top_level_names(installed, tmp_path):
    script = (
        "import sys, glyphscope, glyphscope.errors, glyphscope.core.cli, glyphscope.sweep.cli;"
        "glyphscope.open;"
        "print(sorted({'core', 'widgets', 'inspector', 'assets', 'sweep'} & set(sys.modules)))"
    )
    result = _run(installed, tmp_path, "python", "-c", script)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().strip() == "[]"


def test_installed_wheel_sweeps_in_isolated_workers_and_reports(installed, tmp_path):
    path = _sample(installed, tmp_path)
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


def test_gui_install_draws_a_screenshot_offscreen(installed_gui, tmp_path):
    shot = tmp_path / "shot.png"
    result = _run(installed_gui, tmp_path, "glyphscope", "--screenshot", str(shot))
    assert result.returncode == 0, result.stderr.decode()
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_commands_print_the_metadata_version(installed_gui, tmp_path):
    from importlib.metadata import version

    expected = version("glyphscope")
    for command in ("glyphscope-extract", "glyphscope", "glyphscope-sweep"):
        result = _run(installed_gui, tmp_path, command, "--version")
        assert result.stdout.decode().split() == [command, expected]


def test_a_build_without_a_compiler_makes_a_pure_wheel_and_says_so_once(sdist, tmp_path):
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path, filter="data")
    (source,) = tmp_path.glob("glyphscope-*")
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    result = _checked(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "out"), str(source)],
        env=env,
    )
    (wheel,) = (tmp_path / "out").glob("glyphscope-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    names = _names(wheel)
    assert not [name for name in names if name.endswith(".so")]
    with zipfile.ZipFile(wheel) as archive:
        (wheel_file,) = [n for n in names if n.endswith(".dist-info/WHEEL")]
        assert "Root-Is-Purelib: true" in archive.read(wheel_file).decode()
    assert (result.stdout + result.stderr).count("the engine uses its Python paths") == 1
