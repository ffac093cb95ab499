"""Best-first search over the same children as the depth-first search of ``engine.solver``.

Depth-first search commits to its first choices and can spend its whole budget under one bad early move;
best-first always expands the open position that looks nearest to a win (fewest face-down cards, then most
cards up), as Klondike-Solver's fast mode does. Open positions are kept packed (``pack``), not as tables,
so a million of them fit in memory. Exhausting the open set without a win means ``UNSOLVABLE``, exactly as
for depth-first search: the pruning rules are the same.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

from engine.moves import Move
from engine.solver_rules import canonical_key, key_parts
from engine.table import Stage, Table

if TYPE_CHECKING:
    from engine.solver import Verdict, _Search

_Packed = tuple[bytes, bytes, int, bool, tuple[object, ...]]


def pack(table: Table) -> _Packed:
    key = table.key()
    cards, down = key_parts(key)
    passes, played = key[2], key[3]
    assert isinstance(passes, int)
    return b"".join(bytes(p) + b"\xff" for p in cards), bytes(down), passes, bool(played), key[4:]


def unpack(table: Table, packed: _Packed) -> Table:
    cards, down, passes, played, extra = packed
    faces = dict(extra[0]) if extra and extra[0] else None  # type: ignore[call-overload]
    hook = extra[1] if len(extra) > 1 else None
    return Table(
        table.game,
        [list(p) for p in cards.split(b"\xff")[:-1]],
        list(down),
        passes=passes,
        waste_played=played,
        stage=Stage.PLAY,
        faces=faces,
        hook_state=hook,  # type: ignore[arg-type]
    )


def _distance(search: _Search, table: Table) -> int:
    """Lower is nearer a win: hidden cards weigh most, then cards not yet on a foundation."""
    rules = search.rules
    _, down = key_parts(table.key())
    hidden = sum(down[i] for i in rules.g.tableau)
    return 2 * hidden + rules.card_count - table.foundation_count()


def best_first(search: _Search) -> Verdict:
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    root = search.table
    rules = search.rules
    seen: set[bytes] = {canonical_key(rules, root.key())}
    parents: list[tuple[int, tuple[Move, ...]]] = [(-1, ())]
    heap: list[tuple[int, int, int, _Packed]] = [(0, 0, 0, pack(root))]
    counter = 0
    max_nodes = search.max_nodes if search.max_nodes is not None else -1
    while heap:
        _, _, node, packed = heapq.heappop(heap)
        table = unpack(root, packed)
        search.table = table
        children = search._children()
        if children is None:
            search.path = _path(parents, node)
            return Verdict.SOLVED
        for sequence in children:
            if search.nodes == max_nodes or (search.nodes % 1024 == 0 and search._out_of_time()):
                return Verdict.UNKNOWN
            for move in sequence:
                table.push(move)
            search.nodes += 1
            position = canonical_key(rules, table.key())
            if position not in seen:
                seen.add(position)
                parents.append((node, sequence))
                counter += 1
                # Newest first among equals: a depth-first flavour inside each distance class.
                heapq.heappush(heap, (_distance(search, table), -counter, len(parents) - 1, pack(table)))
            for _ in sequence:
                table.pop()
    return Verdict.UNSOLVABLE


def _path(parents: list[tuple[int, tuple[Move, ...]]], node: int) -> list[Move]:
    sequences: list[tuple[Move, ...]] = []
    while node > 0:
        node, sequence = parents[node]
        sequences.append(sequence)
    return [move for sequence in reversed(sequences) for move in sequence]

