# Types of reading order's compiled run loop (_builder.pyx), for type checkers.

def run(
    chars: list[str],
    owners: list[int],
    tail: int,
    indices: list[int],
    texts: list[str],
    blanks: list[bool],
    separators: list[int],
) -> int: ...
