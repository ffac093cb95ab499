from collections.abc import Callable

def solve(
    balcony: bytes,
    lengths: bytes,
    packets: list[bytes],
    redealt: int,
    independence: bool,
    first_run: int,
    restart_unit: int,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    progress_every: int,
    /,
) -> tuple[int, list[tuple[int, int, int, int]], int, float]: ...
