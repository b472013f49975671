"""Every threshold of the extraction rules (spec §4–§9) in one immutable object.

Each field's default is the spec's; the inspector and the CLI (`--rule NAME=VALUE`,
`--rules FILE`) replace them. Every function that decides takes a `Rules`; no module
reads a constant of its own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from glyphscope.core.errors import RuleError


@dataclass(frozen=True, slots=True)
class Rules:
    # §6 word spaces: gap after the preceding glyph end > ratio × current box height.
    space_gap_ratio: float = 0.15
    # §6 line breaks: origin move across the writing direction > ratio × larger box height.
    line_break_ratio: float = 0.5
    # §5 duplicates: size tolerance, offsets along/across the baseline (× size), scan window.
    duplicate_size_tolerance: float = 0.05
    duplicate_along: float = 0.1
    duplicate_across: float = 0.2
    duplicate_scan_window: float = 0.25
    # §8 columns: a horizontal gap wider than this multiple of the median advance splits.
    columns_gap_multiple: float = 3.0
    # §2 nested form XObjects; §9 structure tree depth.
    form_depth: int = 12
    structure_depth: int = 128
    # §9 structure order is trusted when untagged ≤ ratio × total glyphs.
    structure_trust_ratio: float = 0.25
    # Ligatures U+FB00–FB06 expanded in text output (after duplicate removal).
    expand_ligatures: bool = True
    # Resource limits: decoded size of one stream, operators and glyphs of one page, and
    # the depth of q nesting in one stream (§8.4.2; Annex C.2 gives 28 as a typical limit).
    max_stream_bytes: int = 64 * 1024 * 1024
    max_page_operators: int = 2_000_000
    max_page_glyphs: int = 1_000_000
    max_q_depth: int = 256

    def with_values(self, **values: object) -> Rules:
        """A copy with some fields replaced, values coerced to the field's type."""
        return replace(self, **{name: _coerce(name, value) for name, value in values.items()})

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        try:
            values = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RuleError(f"rules file is not JSON: {exc}") from None
        if not isinstance(values, dict):
            raise RuleError("rules file must hold a JSON object of NAME: VALUE")
        return cls().with_values(**values)

    @classmethod
    def load(cls, path: str | Path) -> Rules:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Rules))


_FIELD_TYPES = {f.name: type(f.default) for f in fields(Rules)}


def _coerce(name: str, value: object) -> object:
    kind = _FIELD_TYPES.get(name)
    if kind is None:
        raise RuleError(f"unknown rule {name!r}; known rules: {', '.join(Rules.names())}")
    if kind is bool:
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise RuleError(f"rule {name} takes true or false, not {value!r}")
        return bool(value)
    try:
        coerced = kind(float(value)) if kind is int else kind(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise RuleError(f"rule {name} takes a number, not {value!r}") from None
    if coerced < 0:
        raise RuleError(f"rule {name} must not be negative")
    return coerced
