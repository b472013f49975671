"""Build hooks that pyproject.toml cannot express: asset generator scripts stay out of the wheel,
and the compiled content-stream scanner, interpreter loop, text loops and structure walk are
built when Cython and a C compiler are present. A build that compiles none of them makes a pure
Python wheel (py3-none-any), not one tagged for this interpreter and platform."""

import sys

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

PYTHON_PATH_NOTICE = (
    "glyphscope: {what}; the engine uses its Python paths instead "
    "(the same output, several times slower)"
)


class BuildPy(build_py):
    """The assets packages ship data only: their generator scripts are tools, not modules."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules = super().find_package_modules(package, package_dir)
        if package == "glyphscope.assets" or package.startswith("glyphscope.assets."):
            return [module for module in modules if module[1] == "__init__"]
        return modules


class OptionalBuildExt(build_ext):
    """The extensions are optimisations: without a C compiler the package installs without them,
    glyphscope.core.interpret.content tokenises every stream with qpdf and the interpreter
    runs its loop in Python. The build says once which were not built; when none was, the
    distribution is left without extension modules, so that setuptools (Distribution.is_pure)
    installs and tags it as pure Python."""

    def run(self) -> None:
        self.not_built: list[str] = []
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - any compiler or platform failure
            self.not_built = [f"the compiled extensions ({exc})"]
            built_none = True
        else:
            built_none = len(self.not_built) == len(self.extensions)
        if self.not_built:
            what = "not built: " + "; ".join(self.not_built)
            print(PYTHON_PATH_NOTICE.format(what=what), file=sys.stderr)
        if built_none:
            self.distribution.ext_modules = []

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self.not_built.append(f"{ext.name} ({type(exc).__name__}: {exc})")


class BdistWheel(bdist_wheel):
    """Decides pure or platform after the build: bdist_wheel reads Distribution.is_pure() when
    its options are finalised, before build_ext has tried the compiler."""

    def run(self) -> None:
        if not self.skip_build:
            self.run_command("build")
        self.root_is_pure = self.distribution.is_pure()
        super().run()


def _extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:
        print(PYTHON_PATH_NOTICE.format(what="Cython is not installed"), file=sys.stderr)
        return []
    scanner = Extension("glyphscope.core.interpret._scanner", ["core/interpret/_scanner.pyx"])
    # Pens are summed as Python sums them: no fused multiply-add may change a last bit.
    exact = [] if sys.platform == "win32" else ["-ffp-contract=off"]
    loop = Extension(
        "glyphscope.core.interpret._loop", ["core/interpret/_loop.pyx"], extra_compile_args=exact
    )
    # The glyph columns' positions are the products and sums numpy makes: contraction off.
    glyph_table = Extension(
        "glyphscope.core.interpret._glyph_table",
        ["core/interpret/_glyph_table.pyx"],
        extra_compile_args=exact,
    )
    # Duplicate offsets are the products and sums numpy makes: contraction off.
    duplicates = Extension(
        "glyphscope.core.text._duplicates",
        ["core/text/_duplicates.pyx"],
        extra_compile_args=exact,
    )
    # Layout's line and grid loops compare and divide the doubles Python does, contraction off.
    grid = Extension(
        "glyphscope.core.text._grid", ["core/text/_grid.pyx"], extra_compile_args=exact
    )
    builder = Extension("glyphscope.core.text._builder", ["core/text/_builder.pyx"])
    # Reading order's pair numbers: the products and sums numpy makes, contraction off.
    pairs = Extension(
        "glyphscope.core.text._pairs", ["core/text/_pairs.pyx"], extra_compile_args=exact
    )
    walk = Extension("glyphscope.core.structure._walk", ["core/structure/_walk.pyx"])
    runlength = Extension("glyphscope.core.pdf._runlength", ["core/pdf/_runlength.pyx"])
    extensions = [scanner, loop, glyph_table, duplicates, grid, builder, pairs, walk, runlength]
    return cythonize(extensions, language_level=3, quiet=True)


setup(
    cmdclass={"build_py": BuildPy, "build_ext": OptionalBuildExt, "bdist_wheel": BdistWheel},
    ext_modules=_extensions(),
)
