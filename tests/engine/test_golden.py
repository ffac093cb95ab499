"""Golden playthroughs: seeded games played to their end; the move lists and final tables are stored.

Regenerate after an intended rule change with ``CADOGAN_REGENERATE_GOLDEN=1 pytest tests/engine/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.autoplay import greedy_playout
from engine.formats import table_to_json
from engine.games import find_game
from engine.moves import Move
from engine.table import Outcome, Stage, Table

GOLDEN = Path(__file__).parents[1] / "data" / "golden"
CASES = [("klondike", 2), ("klondike", 5), ("klondike/draw3", 4), ("canfield", 12), ("canfield/modern", 1)]


def _path(game: str, seed: int) -> Path:
    return GOLDEN / f"{game.replace('/', '-')}-seed{seed}.json"


def _play(game: str, seed: int) -> tuple[list[str], Table]:
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    moves = [str(move) for move in greedy_playout(table)]
    return moves, table


@pytest.mark.parametrize(("game", "seed"), CASES)
def test_golden_playthrough(game: str, seed: int) -> None:
    path = _path(game, seed)
    if os.environ.get("CADOGAN_REGENERATE_GOLDEN"):
        moves, final = _play(game, seed)
        record = {
            "game": game,
            "seed": seed,
            "outcome": final.outcome().value if final.outcome() else "unfinished",  # type: ignore[union-attr]
            "score": final.score(),
            "moves": moves,
            "final": table_to_json(final),
        }
        path.write_text(json.dumps(record, indent=1) + "\n")
    record = json.loads(path.read_text())
    # Replay the stored moves with legality checks: the rules still allow every one of them ...
    table = Table.dealt(find_game(game), seed)
    table.stage = Stage.PLAY
    for text in record["moves"]:
        table.play(Move.parse(text))
    assert table_to_json(table) == record["final"]
    assert table.score() == record["score"]
    outcome = table.outcome()
    assert (outcome.value if outcome else "unfinished") == record["outcome"]
    # ... and the deterministic player still chooses them.
    moves, _ = _play(game, seed)
    assert moves == record["moves"]


def test_golden_files_include_a_won_and_a_blocked_game() -> None:
    outcomes = {json.loads(_path(g, s).read_text())["outcome"] for g, s in CASES}
    assert {Outcome.WON.value, Outcome.BLOCKED.value} <= outcomes
