from collections.abc import Callable

def solve(
    pack: bytes,
    turned: bytes,
    foundations: list[bytes],
    packets: list[bytes],
    placed: int,
    first_run: int,
    restart_unit: int,
    noise: int,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    progress_every: int,
    /,
) -> tuple[int, list[tuple[int, int]], int, float]: ...
def moves(
    pack: bytes,
    turned: bytes,
    foundations: list[bytes],
    packets: list[bytes],
    placed: int,
    dedup: bool,
    /,
) -> list[tuple[int, int]]: ...
