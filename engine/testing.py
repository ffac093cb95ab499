"""Builders for tests of the engine and of the packages that use it (in the manner of numpy.testing)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

from engine.cards import UNKNOWN
from engine.formats import read_table, table_to_json
from engine.games import find_game
from engine.rules import Game, Role
from engine.status import ProblemKind, problems
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


def hide_face_down(table: Table) -> Table:
    """What a camera that counts backs sees: the same table with every face-down card unknown."""
    piles = [
        [UNKNOWN if k < table.face_down_count(p) else c for k, c in enumerate(table.codes(p))] for p in table.pile_ids
    ]
    downs = [table.face_down_count(p) for p in table.pile_ids]
    return Table(table.game, piles, downs, passes=table.passes, waste_played=table.waste_played, stage=table.stage)


def camera_view(table: Table) -> Table:
    """What a camera that cannot count backs reads: face-up cards only, and of a squared packet its top."""
    piles = []
    for p in table.pile_ids:
        codes = table.codes(p)[table.face_down_count(p) :]
        piles.append(list(codes) if table.game.pile(p).role is Role.TABLEAU else list(codes[-1:]))
    return Table(table.game, piles, [0] * len(piles), passes=table.passes)


# ---------------------------------------------------------------------------- faulty layouts: edits of table JSON
KLONDIKE_TRAP: dict[str, str] = {
    "w": "6C QH 8S 3H 10H 7S 5H 9H 4S 8D",
    "f1": "AD 2D 3D 4D 5D 6D 7D",
    "f2": "AC 2C 3C 4C 5C",
    "f3": "AH",
    "f4": "AS 2S 3S",
    "t1": "KH QC JD 10S 9D 8C 7H 6S",
    "t2": "KD QS JH 10C",
    "t3": "KC",
    "t4": "JC 10D 9C 8H 7C 6H 5S 4H",
    "t5": "KS QD JS",
    "t7": "2h 9S",
}
"""A 1914 Klondike position met in play where the 8 of diamonds must go on the 9 of spades, not up."""


Edit = Callable[[dict[str, Any]], None]
"""An edit of a table's JSON data, in place: one fault written into a deal."""


def deal_json(game: str, seed: int = 3) -> dict[str, Any]:
    return table_to_json(Table.dealt(find_game(game), seed))


def report(data: dict[str, Any]) -> list[tuple[ProblemKind, tuple[str, ...]]]:
    table, loading = read_table(data)
    return sorted(((p.kind, p.piles) for p in problems(table, loading)), key=lambda x: (x[0].value, x[1]))


def assert_faulty_layout(
    game: str, edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]], seed: int = 3
) -> None:
    """The seeded deal of ``game`` reports no problem; after ``edit`` it reports exactly ``expected``."""
    data = deal_json(game, seed)
    assert report(copy.deepcopy(data)) == []
    edit(data)
    assert report(data) == sorted(expected, key=lambda x: (x[0].value, x[1]))


def move_card(src: str, dst: str, text: str, *, at: int | None = None) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        piles = data["piles"]
        piles[src].remove(text)
        if dst.startswith(("f", "w")):
            text_there = text.upper()
        elif dst == "s":
            text_there = text[:-1] + text[-1].lower()
        else:
            text_there = text
        piles[dst].insert(len(piles[dst]) if at is None else at, text_there)

    return edit


def set_pile(pile: str, cards: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["piles"][pile] = cards.split()

    return edit


def both(*edits: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)

    return edit


def play_stage(data: dict[str, Any]) -> None:
    data["stage"] = "play"


def drop_from_stock(text: str) -> Edit:
    return lambda d: d["piles"]["s"].remove(text)
