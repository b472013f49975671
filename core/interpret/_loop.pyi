# Types of the interpreter's compiled loop (_loop.pyx), for type checkers.

from glyphscope.core.geometry import Matrix, Rect

class PathBox:
    left: float
    bottom: float
    right: float
    top: float
    clip_pending: bool
    def reset(self) -> None: ...
    def handle(
        self, operator: str, operands: list, ctm: Matrix, clip: Rect | None
    ) -> Rect | None: ...
    def box(self) -> Rect: ...

def run(
    interpreter: object,
    parsed: object,
    resources: object,
    state: object,
    form_depth: int,
    form_path: str,
) -> None: ...

class FontPieces:
    font: object
    def __init__(self, font: object) -> None: ...
    def __len__(self) -> int: ...
