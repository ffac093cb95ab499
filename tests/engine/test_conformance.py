"""The conformance suite: one set of laws checked over every registered game and variant."""

from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.formats import schema_path, table_from_json, table_to_json
from engine.reference import reference_is_legal, reference_moves
from engine.rules import Game, Role
from engine.status import problems
from engine.table import Stage, Table
from engine.testing import playout

SEEDS = range(6)


def _cards(table: Table) -> Counter[int]:
    return Counter(code for pile in table.pile_ids for code in table.codes(pile))


@pytest.mark.parametrize("seed", SEEDS)
def test_playouts_conserve_every_card(game: Game, seed: int) -> None:
    start = _cards(Table.dealt(game, seed))
    assert sum(start.values()) == game.card_count
    for table in playout(game, seed):
        assert _cards(table) == start


@pytest.mark.parametrize("seed", SEEDS)
def test_push_then_pop_restores_the_table(game: Game, seed: int) -> None:
    for table in playout(game, seed, max_moves=120):
        before = table.key()
        for move in table.generate_moves():
            table.push(move)
            assert table.pop() == move
            assert table.key() == before


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_moves_match_the_reference_enumeration(game: Game, seed: int) -> None:
    for table in playout(game, seed, max_moves=80):
        generated = table.generate_moves()
        assert len(generated) == len(set(generated)), "a move is generated twice"
        assert all(table.is_legal(m) and reference_is_legal(table, m) for m in generated)
        assert set(generated) == reference_moves(table)


@pytest.mark.parametrize("seed", SEEDS)
def test_fresh_deal_passes_check(game: Game, seed: int) -> None:
    assert problems(Table.dealt(game, seed)) == []


@pytest.mark.parametrize("seed", SEEDS)
def test_positions_of_play_pass_check(game: Game, seed: int) -> None:
    for table in playout(game, seed, max_moves=60):
        assert problems(table) == []


def test_long_undo_chain_returns_to_the_deal(game: Game) -> None:
    walk = playout(game, 11, max_moves=150)
    table = next(walk)
    start = table.key()
    for _ in walk:
        pass
    while table.history:
        table.pop()
    assert table.key() == start


SCHEMA = json.loads(schema_path().read_text())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10**6), steps=st.integers(min_value=0, max_value=60))
def test_json_round_trips_during_play(game: Game, seed: int, steps: int) -> None:
    walk = playout(game, seed, max_moves=steps + 1)
    table = next(walk)
    for _ in range(steps):
        table = next(walk, table)
    data = table_to_json(table)
    jsonschema.validate(data, SCHEMA)
    again = table_from_json(json.loads(json.dumps(data)))
    assert again.key() == table.key()
    assert again.stage is Stage.PLAY


def test_outcome_won_when_all_cards_are_on_foundations(game: Game) -> None:
    from engine.table import Outcome

    table = Table.dealt(game, 0)
    codes = sorted(_cards(table).elements())
    # Put each suit in order on its own foundation, starting from the foundation base.
    base = table.base_rank() or 1
    foundations = [spec.id for spec in game.piles if spec.role is Role.FOUNDATION]
    if not foundations:
        # No foundations (The Great Thirteen): the game says itself when it is won; its own tests build wins.
        assert game.hooks is not None
        assert game.hooks.won(table) is False
        return
    piles: list[list[int]] = [[] for _ in table.pile_ids]
    for suit in range(4):
        for offset in range(13):
            rank = (base - 1 + offset) % 13 + 1
            for copy in range(game.packs):
                code = suit * 13 + rank - 1
                assert code in codes
                piles[table.pile_ids.index(foundations[suit + 4 * copy])].append(code)
    won = Table(game, piles, [0] * len(piles))
    if game.hooks is not None and game.hooks.won(won) is not None:
        # The game has its own criterion of success (The Great Thirteen): the outcome follows it.
        assert (won.outcome() is Outcome.WON) is game.hooks.won(won)
        return
    assert won.outcome() is Outcome.WON
    assert won.score() == 52 * game.packs * 5 - 52
