# Types of the compiled structure walk (_walk.pyx), for type checkers.

import pikepdf

from glyphscope.core.rules import Rules
from glyphscope.core.structure.records import DocumentStructure

def walk(struct_root: pikepdf.Dictionary, rules: Rules) -> DocumentStructure: ...
