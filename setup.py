"""Build hooks that pyproject.toml cannot express: asset generator scripts stay out of the wheel."""

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPy(build_py):
    """The assets packages ship data only: their generator scripts are tools, not modules."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules = super().find_package_modules(package, package_dir)
        if package == "glyphscope.assets" or package.startswith("glyphscope.assets."):
            return [module for module in modules if module[1] == "__init__"]
        return modules


setup(cmdclass={"build_py": BuildPy})
