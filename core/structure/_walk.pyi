# Types of the compiled structure walk (_walk.pyx), for type checkers.

import pikepdf

from glyphscope.core.rules import Rules
from glyphscope.core.structure.records import StructureWalk

def walk(
    struct_root: pikepdf.Dictionary, page: pikepdf.Dictionary, rules: Rules, single_page: bool
) -> StructureWalk: ...
