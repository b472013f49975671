# Types of the compiled content-stream scanner (_scanner.pyx), for type checkers.

def scan(
    data: bytes,
    operators: dict[bytes, tuple[str, bool, str | None]],
    max_operators: int,
) -> tuple[list, list[tuple[int, int, int]], int, bool | None] | None: ...
