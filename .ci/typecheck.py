"""Run mypy over the files [tool.mypy] names, each checked under its installed module name.

setuptools' package-dir installs `core/` as `glyphscope.core` and `src/glyphscope/` as
`glyphscope`, a mapping mypy cannot read: plain `mypy` names `core/text/reading.py`
`core.text.reading`, cannot find `glyphscope.core.…` (the editable install is an import
hook), and so types every import between the engine's modules as Any. Here each file is
given to mypy under the name the installed package gives it, so every cross-module call is
checked. Prints mypy's report and exits with its status: `.venv/bin/python .ci/typecheck.py`.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from mypy import build, util
from mypy.errors import CompileError
from mypy.main import process_options

# The packages whose folder setuptools maps (pyproject.toml [tool.setuptools] package-dir).
MAPPED_PACKAGES = (
    "glyphscope",
    "glyphscope.core",
    "glyphscope.widgets",
    "glyphscope.inspector",
    "glyphscope.assets",
    "glyphscope.sweep",
)


def installed_roots() -> dict[Path, str]:
    """Folder → package name, as the installed distribution resolves them."""
    roots = {}
    for package in MAPPED_PACKAGES:
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            roots[Path(next(iter(spec.submodule_search_locations))).resolve()] = package
    return roots


def module_name(path: Path, roots: dict[Path, str]) -> str | None:
    """The installed module name of a source file, from the deepest mapped folder holding it."""
    path = path.resolve()
    for root in sorted(roots, key=lambda folder: len(folder.parts), reverse=True):
        if path.is_relative_to(root):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            return ".".join((roots[root], *parts))
    return None


def main() -> int:
    sources, options = process_options(sys.argv[1:])
    roots = installed_roots()
    for source in sources:
        if source.path is not None:
            source.module = module_name(Path(source.path), roots) or source.module
    formatter = util.FancyFormatter(sys.stdout, sys.stderr, options.hide_error_codes)
    try:
        result = build.build(sources, options)
    except CompileError as error:  # a syntax error or a blocking configuration error
        print("\n".join(error.messages))
        return 2
    for line in result.errors:
        print(line)
    files = {line.split(":", 1)[0] for line in result.errors if ": error:" in line}
    count = sum(": error:" in line for line in result.errors)
    if count:
        print(formatter.format_error(count, len(files), len(sources), use_color=False))
        return 1
    print(formatter.format_success(len(sources), use_color=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
