"""The type checker and the linter are part of the test suite, so .ci/run fails on either.

mypy runs through .ci/typecheck.py, which checks core/ and the public API (src/glyphscope/)
under their installed glyphscope.* names ([tool.mypy] in pyproject.toml).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPECHECK = ROOT / ".ci" / "typecheck.py"


def _run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_mypy_reports_no_errors_in_core_and_the_public_api():
    result = _run(TYPECHECK)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].startswith("Success: no issues found")


def test_mypy_sees_the_types_behind_glyphscope_imports(tmp_path):
    """A wrong use of an engine type in another module is an error, not an Any that passes
    (what plain mypy makes of every glyphscope.* import under the package-dir mapping)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from glyphscope.core.rules import Rules\n\nratio: str = Rules().space_gap_ratio\n",
        encoding="utf-8",
    )
    checked = ("core", "src/glyphscope", "assets/__init__.py", "assets/cmaps/__init__.py")
    # Its own cache: mypy's shared one remembers a probe.py of an earlier run by its old path.
    result = _run(TYPECHECK, "--cache-dir", tmp_path / "cache", *checked, probe)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f'{probe}:3: error: Incompatible types in assignment (expression has type "float"' in (
        result.stdout
    )


def test_ruff_check_is_clean():
    result = _run("-m", "ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_leaves_every_file_unchanged():
    result = _run("-m", "ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
