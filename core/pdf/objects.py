"""Reading PDF objects defensively (§7.3): one set of coercions for the whole engine.

Every reader of a possibly damaged file asks these for names, strings, numbers, arrays,
dictionaries and object identities, so a value of the wrong type means the same thing (absent)
wherever it is met, and a non-UTF-8 name is read the same way by fonts and structure alike.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypeGuard

import pikepdf

ObjGen = tuple[int, int]


def get_entry(dictionary: object, key: str | pikepdf.Name) -> object | None:
    """dictionary[key] when dictionary is a PDF dictionary, else None (damaged resources).
    A name object as key finds entries whose names are not UTF-8 (§7.3.5)."""
    if isinstance(dictionary, pikepdf.Dictionary):
        return dictionary.get(key)
    return None


def inherited_attribute(page: pikepdf.Page, key: str) -> pikepdf.Object | None:
    """An inheritable page attribute (§7.7.3.4), looked up the /Parent chain, cycle-safe."""
    node: pikepdf.Object | None = page.obj
    seen: set[tuple[int, int]] = set()
    while isinstance(node, pikepdf.Dictionary) and node.objgen not in seen:
        if node.objgen != (0, 0):
            seen.add(node.objgen)
        if key in node:
            return node.get(key)
        node = node.get("/Parent")
    return None


def name_or_none(obj: object) -> str | None:
    """A name object's text without the slash; None when obj is not a name.

    §7.3.5: a name is a byte sequence, UTF-8 only by convention. One that is not UTF-8 (a GBK
    font name, a structure type written in a local code page) is given in its #-escaped form
    (`#D5#FD`), so it is still a name, shown and compared the same way everywhere.
    """
    if not isinstance(obj, pikepdf.Name):
        return None
    try:
        return str(obj)[1:]
    except UnicodeDecodeError:
        return obj.unparse().decode("ascii")[1:]


def pdf_name(obj: object) -> str:
    """`name_or_none`, with "" for a value that is not a name."""
    name = name_or_none(obj)
    return "" if name is None else name


def name_key(obj: object) -> str:
    """A resource-name operand (Tf, Do) as text with its slash, `/F1`, #-escaped when not
    UTF-8 (`name_or_none`); an operand that is not a name as str() (damaged content)."""
    return "/" + pdf_name(obj) if isinstance(obj, pikepdf.Name) else str(obj)


def text_or_none(obj: object) -> str | None:
    """A string object as text (§7.9.2.2: pikepdf decodes PDFDocEncoding and UTF-16BE)."""
    return str(obj) if isinstance(obj, (pikepdf.String, str)) else None


def pdf_text(obj: object) -> str:
    """`text_or_none`, with "" for a value that is not a string."""
    text = text_or_none(obj)
    return "" if text is None else text


def pdf_dictionary(obj: object) -> pikepdf.Dictionary | None:
    return obj if isinstance(obj, pikepdf.Dictionary) else None


def pdf_number(obj: object, default: float) -> float:
    """An integer or real object (§7.3.3) as a float; `default` when absent or not a number."""
    try:
        return float(obj) if obj is not None else default  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return default


def pdf_numbers(array: object, count: int) -> list[float] | None:
    """An array of exactly `count` numbers (a rectangle, a matrix), else None."""
    if not isinstance(array, pikepdf.Array) or len(array) != count:
        return None
    try:
        return [float(value) for value in array]
    except (TypeError, ValueError):
        return None


def is_integer(value: object) -> TypeGuard[int]:
    """An integer object (§7.3.3); booleans are not integers, even though Python says so."""
    return isinstance(value, int) and not isinstance(value, bool)


def reference_label(objgen: ObjGen | None) -> str:
    """How a warning names an object: its indirect reference as written (`12 0 R`, §7.3.10),
    or "direct object" when it has none."""
    return "direct object" if objgen is None else f"{objgen[0]} {objgen[1]} R"


def type_label(value: object) -> str:
    """The PDF object type of a value, as a warning names it (§7.3)."""
    for kind, name in _TYPE_LABELS:
        if isinstance(value, kind):
            return name
    return "null" if value is None else type(value).__name__


_TYPE_LABELS = (
    (bool, "boolean"),
    (pikepdf.Name, "name"),
    (pikepdf.String, "string"),
    (pikepdf.Array, "array"),
    (pikepdf.Stream, "stream"),
    (Decimal, "real number"),
)


def objgen_of(obj: object) -> ObjGen | None:
    """Identity of an indirect object; direct objects have none (and cannot form cycles)."""
    if isinstance(obj, pikepdf.Object):
        objgen = obj.objgen
        if objgen != (0, 0):
            return objgen
    return None
