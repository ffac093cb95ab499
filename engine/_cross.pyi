from collections.abc import Callable

def solve(
    line: bytes,
    cursor: int,
    mask: int,
    heights: bytes,
    base: int,
    packets: list[bytes],
    wrap: bool,
    space_from_cross: bool,
    first_run: int,
    restart_unit: int,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    progress_every: int,
    /,
) -> tuple[int, list[tuple[int, int, int]], int, float]: ...
