from collections.abc import Callable

def solve(
    down: list[bytes],
    up: list[bytes],
    heights: bytes,
    talon: bytes,
    pos: int,
    draw: int,
    passes_left: int,
    any_run: bool,
    gives_back: bool,
    draw_one_auto: bool,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    twin_blind: bool = False,
    first_bits: int = 16,
    /,
) -> tuple[int, list[tuple[int, int, int, int]], int, float, int, int]: ...
