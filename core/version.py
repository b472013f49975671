"""The installed distribution's version, read from its metadata (one source: pyproject.toml)."""

from importlib.metadata import PackageNotFoundError, version


def package_version() -> str:
    """The glyphscope distribution's version; "0+unknown" in a source tree never installed."""
    try:
        return version("glyphscope")
    except PackageNotFoundError:
        return "0+unknown"
