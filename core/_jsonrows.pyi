# Types of the compiled row writer (_jsonrows.pyx), for type checkers.

def join_rows(
    between: list[str], fields: list, count: int, separator: str, replaced: dict[int, str]
) -> str: ...
