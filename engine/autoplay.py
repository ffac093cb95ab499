"""A simple greedy player: the demo's opponent until the solver gives hints. Deterministic.

It prefers, in order: a card to a foundation, a move that uncovers a face-down card, a move into or out of
a column that empties it for a king, any other building move, and last the stock. It never repeats a
position, so a playout always ends.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.moves import Move
from engine.rules import Role
from engine.table import Table

USELESS = 9


def _priority(table: Table, move: Move) -> int:
    game = table.game
    src = game.pile(move.src).role
    dst = game.pile(move.dst).role
    if dst is Role.FOUNDATION:
        return 0
    if src is Role.STOCK or dst is Role.STOCK:
        return 5
    if src is Role.TABLEAU:
        below = len(table.codes(move.src)) - move.count
        if below > 0 and below == table.face_down_count(move.src):
            return 1
        if below == 0:
            if dst is Role.TABLEAU and not table.codes(move.dst):
                return 9  # a whole column into a space only relocates it
            return 3
    if src is Role.FOUNDATION:
        return 6
    return 2


def greedy_playout(table: Table, max_moves: int = 1000) -> Iterator[Move]:
    """Play ``table`` forward greedily, yielding each move after pushing it."""
    seen = {table.key()}
    for _ in range(max_moves):
        best: Move | None = None
        ranked = sorted((_priority(table, m), n, m) for n, m in enumerate(table.generate_moves()))
        for priority, _, move in ranked:
            if priority >= USELESS:
                break
            table.push(move)
            key = table.key()
            table.pop()
            if key not in seen:
                best = move
                break
        if best is None:
            return
        table.push(best)
        seen.add(table.key())
        yield best
