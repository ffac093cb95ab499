"""Builders for tests of the engine and of the packages that use it (in the manner of numpy.testing)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.formats import read_table
from engine.games import find_game
from engine.rules import Game
from engine.table import Stage, Table


def make_table(game: str, piles: dict[str, str], stage: str = "play", **extra: object) -> Table:
    """A table from ``{"t1": "5h 6c 7D", ...}``; unnamed piles are empty."""
    data: dict[str, object] = {
        "game": game,
        "stage": stage,
        "piles": {pile: text.split() for pile, text in piles.items()},
        **extra,
    }
    listed = data["piles"]
    assert isinstance(listed, dict)
    for pile in find_game(game).piles:
        listed.setdefault(pile.id, [])
    table, _ = read_table(data)
    return table


def playout(game: Game, seed: int, max_moves: int = 200) -> Iterator[Table]:
    """A seeded random playout, yielding the table before each move (the same object, mutated)."""
    rng = random.Random(seed)
    table = Table.dealt(game, seed)
    table.stage = Stage.PLAY
    for _ in range(max_moves):
        yield table
        moves = table.generate_moves()
        if not moves:
            return
        table.push(rng.choice(moves))
