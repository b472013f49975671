"""The package layering (issues 8, 24): no import cycle, no import-order dependence, no Qt in
core.

core's layers, lowest first: the shared vocabulary (errors, records, the glyph table, rules,
geometry, version, the JSON text writer, the compiled-extension switch), then pdf < fonts <
interpret < text < structure < analysis/output/serialize < document < cli/qa/view (the
Qt-free page model the widgets draw). A module imports only from its own layer or below (an
import for type checking only, under `if TYPE_CHECKING:`, is no dependency at run time and
may name a layer above: pdf's per-document caches are typed with the fonts and interpreter
records they hold); no two core modules import each other, directly or round a longer cycle,
at module level or inside a function; core imports nothing of the inspector, the widgets,
the sweep or Qt; widgets/ never imports the inspector application.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from importlib.util import find_spec
from pathlib import Path

from tests.pdfbuilder import PdfBuilder, tounicode_cmap

CORE = "glyphscope.core"
CORE_LAYERS = (
    (
        "errors",
        "records",
        "glyph_table",
        "rules",
        "geometry",
        "version",
        "lazy",
        "jsontext",
        "compiled",
        "contained",
        "stages",
    ),
    ("pdf",),
    ("fonts",),
    ("interpret",),
    ("text",),
    ("structure",),
    ("analysis", "output", "serialize"),
    ("document",),
    ("cli", "qa", "view"),
)


ROOT = Path(__file__).resolve().parent.parent
# pyproject.toml [tool.setuptools] package-dir; read from the checkout, so that a cycle makes
# the static tests report the import that closes it instead of failing to import anything.
PACKAGE_DIRS = {
    CORE: ROOT / "core",
    "glyphscope.widgets": ROOT / "widgets",
    "glyphscope.inspector": ROOT / "inspector",
}


def _modules(package: str) -> dict[str, Path]:
    """Every module of a package, by dotted name, found on disk (nothing imported)."""
    root = PACKAGE_DIRS[package]
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join((package, *parts))] = path
    return modules


def _imported(path: Path) -> set[str]:
    """The glyphscope modules a source file imports, at any level of the file."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.split(".")[0] == "glyphscope"}


def _runtime_imported(path: Path, known: Collection[str]) -> set[str]:
    """The glyphscope modules a source file imports when it runs, at module level or inside
    a function, leaving out `if TYPE_CHECKING:` blocks; `from package import module` names
    the module when it is one of `known`."""
    names: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
                visit(node.orelse)
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                submodules = (f"{node.module}.{alias.name}" for alias in node.names)
                names.update(name for name in submodules if name in known)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])
            for handler in getattr(node, "handlers", []):  # try's except clauses
                visit(handler.body)

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return {name for name in names if name.split(".")[0] == "glyphscope"}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in order:
                connect(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], order[imported])
        if low[module] == order[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in order:
            connect(module)
    return found


def _core_layer(module: str) -> int | None:
    """The layer of a glyphscope.core module; None for the package itself, non-core modules
    and a module of no layer."""
    if not module.startswith(CORE + "."):
        return None
    top = module[len(CORE) + 1 :].split(".")[0]
    return next((rank for rank, layer in enumerate(CORE_LAYERS) if top in layer), None)


def test_every_core_module_belongs_to_a_layer():
    for module in _modules(CORE):
        if module != CORE:
            assert _core_layer(module) is not None, module


def test_core_modules_import_only_their_own_layer_or_below():
    upward = []
    modules = _modules(CORE)
    for module, path in modules.items():
        rank = _core_layer(module)
        if rank is None:
            continue  # glyphscope.core re-exports the public API of every layer
        for imported in _runtime_imported(path, modules):
            if imported.startswith(CORE + "."):
                imported_rank = _core_layer(imported)
                if imported_rank is not None and imported_rank > rank:
                    upward.append(f"{module} imports {imported}")
            elif imported != CORE and not imported.startswith("glyphscope.assets"):
                upward.append(f"{module} imports {imported}")
    assert upward == []


def test_no_two_core_modules_import_each_other_even_inside_a_function():
    modules = _modules(CORE)
    graph = {
        module: {name for name in _runtime_imported(path, modules) if name in modules} - {module}
        for module, path in modules.items()
    }
    assert _cycles(graph) == []


def test_the_cycle_search_finds_a_cycle_round_three_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_widgets_never_import_the_inspector():
    offenders = [
        f"{module} imports {imported}"
        for module, path in _modules("glyphscope.widgets").items()
        for imported in _imported(path)
        if imported.startswith("glyphscope.inspector")
    ]
    assert offenders == []


def _run_python(code: str) -> subprocess.CompletedProcess[str]:
    # -I: a fresh interpreter that sees only the installed packages, not the checkout's
    # folders (so `core` or `tests` on the path cannot stand in for glyphscope.*).
    return subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=300
    )


def test_every_module_imports_first_in_a_fresh_interpreter():
    """Each module imported before any other glyphscope module: a cycle, or a module that
    works only when another was imported first, fails here."""
    # The widgets and the inspector are Qt's (the `gui` extra): checked where it is installed.
    gui = ("glyphscope.widgets", "glyphscope.inspector") if find_spec("PySide6") else ()
    modules = [module for package in (CORE, *gui) for module in _modules(package)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        outcomes = pool.map(lambda module: _run_python(f"import {module}"), modules)
        results = dict(zip(modules, outcomes, strict=True))
    failures = {
        module: (result.stderr.strip().splitlines() or [f"exit {result.returncode}"])[-1]
        for module, result in results.items()
        if result.returncode != 0
    }
    assert failures == {}


def test_core_imports_no_qt():
    imports = "; ".join(f"import {module}" for module in _modules(CORE))
    result = _run_python(
        f"{imports}; import sys; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


# What `glyphscope-extract --mode text` never loads (each is a share of every process's
# start-up): the hidden-text search and its pixel test, the other modes' stages, the decision
# log's writers and the inspector's model, annotation appearances (only the rule
# `annotations` reads them), pdfium, importlib.resources' readers (the font data is read
# beside its package), and the parsers of what this page's fonts do not have.
TEXT_PATH_NEVER = (
    "glyphscope.core.text.hidden",
    "glyphscope.core.interpret.annotations",
    "glyphscope.core.text.ink",
    "glyphscope.core.text.layout",
    "glyphscope.core.text.columns",
    "glyphscope.core.structure",
    "glyphscope.core.analysis",
    "glyphscope.core.serialize",
    "glyphscope.core.view",
    "glyphscope.core.qa",
    "pypdfium2",
    "fontTools",
    "bidi",
    "importlib.resources",
    "zipfile",
)
# Loaded only by a font that needs them: a CMap stream to parse, a program to read.
TEXT_PATH_ON_DEMAND = ("glyphscope.core.fonts.cmap.parser", "glyphscope.core.fonts.program")


def _text_path_modules(pdf: Path) -> set[str]:
    """The modules held after `glyphscope-extract --mode text` ran on pdf in a fresh
    interpreter (output to /dev/null)."""
    result = _run_python(
        "import json, os, sys, glyphscope.core.cli as cli; "
        f"cli.main(['--mode', 'text', '-o', os.devnull, {str(pdf)!r}]); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout))


def _loaded(modules: set[str], names: tuple[str, ...]) -> set[str]:
    return {name for name in names if any(m == name or m.startswith(name + ".") for m in modules)}


def test_text_mode_of_a_standard_font_page_loads_only_what_text_needs(tmp_path):
    # Helvetica through WinAnsiEncoding: no CMap stream, no font program.
    builder = PdfBuilder()
    builder.add_page(
        b"BT /F1 10 Tf 72 700 Td (Hello) Tj ET", fonts={"F1": builder.standard_font("Helvetica")}
    )
    pdf = tmp_path / "standard.pdf"
    pdf.write_bytes(builder.to_bytes())
    modules = _text_path_modules(pdf)
    assert "glyphscope.core.text.reading" in modules  # the text path did run
    assert _loaded(modules, TEXT_PATH_NEVER + TEXT_PATH_ON_DEMAND) == set()


def test_text_mode_parses_cmaps_only_for_a_font_with_a_cmap_stream(tmp_path):
    builder = PdfBuilder()
    font = builder.type0_font(to_unicode=tounicode_cmap({5: "A", 6: "B"}, code_bytes=2))
    builder.add_page(b"BT /F1 10 Tf 72 700 Td <00050006> Tj ET", fonts={"F1": font})
    pdf = tmp_path / "tounicode.pdf"
    pdf.write_bytes(builder.to_bytes())
    modules = _text_path_modules(pdf)
    assert "glyphscope.core.fonts.cmap.parser" in modules
    assert _loaded(modules, TEXT_PATH_NEVER + ("glyphscope.core.fonts.program",)) == set()
