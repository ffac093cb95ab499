from collections.abc import Callable

def solve(
    key: bytes,
    pack: bytes,
    talon: bytes,
    foundations: list[bytes],
    shutter: list[bytes],
    played: int,
    turned: int,
    safe: bool,
    max_nodes: int,
    max_seconds: float,
    max_entries: int,
    progress: Callable[[int, float], None] | None,
    progress_every: int,
    /,
) -> tuple[int, list[tuple[int, int, int]], int, float]: ...
def moves(
    key: bytes,
    pack: bytes,
    talon: bytes,
    foundations: list[bytes],
    shutter: list[bytes],
    played: int,
    turned: int,
    dedup: bool,
    safe: bool,
    /,
) -> list[tuple[int, int, int]]: ...
def blocked(
    key: bytes,
    pack: bytes,
    talon: bytes,
    foundations: list[bytes],
    shutter: list[bytes],
    played: int,
    turned: int,
    /,
) -> int: ...
