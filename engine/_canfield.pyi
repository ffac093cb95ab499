from collections.abc import Callable

def solve(
    line: bytes,
    cursor: int,
    played: bool,
    reserve: bytes,
    heights: bytes,
    base: int,
    piles: list[bytes],
    draw: int,
    needs_play: bool,
    wrap: bool,
    top_of_two: bool,
    autofill: bool,
    first_run: int,
    restart_unit: int,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    progress_every: int,
    /,
) -> tuple[int, list[tuple[int, int, int, int]], int, float]: ...
