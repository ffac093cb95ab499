"""Canfield's compiled search (``engine.canfield_search``): which games and positions it takes, agreement with the
generic search and with a plain exhaustive one, seeded deals replayed through ``Table.play``, the hand's turns made
just before the card they are for, shortened wins, budgets."""

from __future__ import annotations

import random

import pytest

from engine import canfield_search
from engine.games import GAMES, find_game
from engine.moves import Move
from engine.solver import Budget, Verdict, replay, solve
from engine.table import Table
from engine.testing import make_table, playout
from tests.engine.test_solver import plain_search

CANFIELDS = ("canfield", "canfield/modern")


def test_the_search_takes_exactly_the_canfield_games() -> None:
    taken = {game.name for game in GAMES if canfield_search.shape(game) is not None}
    assert taken == set(CANFIELDS)
    assert canfield_search.shape(find_game("canfield")) == canfield_search.CanfieldShape(3, True, False, True)
    assert canfield_search.shape(find_game("canfield/modern")) == canfield_search.CanfieldShape(3, False, True, False)


def test_the_compiled_search_is_built() -> None:
    """The package's install builds ``engine._canfield`` (gcc and the Python headers, which ``run`` installs)."""
    assert canfield_search.COMPILED


def _positions(game: str, seed: int, count: int) -> list[Table]:
    """``count`` positions along a seeded random playout of a deal, the deal itself among them."""
    tables = [table.copy() for table in playout(find_game(game), seed, 80)]
    rng = random.Random(seed)
    return [tables[0], *rng.sample(tables[1:], min(count - 1, len(tables) - 1))]


@pytest.mark.parametrize(("game", "seed"), [("canfield", 3), ("canfield", 8), ("canfield/modern", 5)])
def test_the_search_agrees_with_the_generic_search(game: str, seed: int) -> None:
    """The line of turned cards, the columns as a set, the turns made just before their card's play and the cards
    of no use going up never turn a win into a loss nor the reverse: against the generic search (its own rules,
    written and tested apart) wherever both decide."""
    compared = 0
    for table in _positions(game, seed, 30):
        ours = solve(table, Budget(nodes=300_000, seconds=None))
        generic = solve(table, Budget(nodes=20_000, seconds=None), compiled=False)
        if Verdict.UNKNOWN in (ours.verdict, generic.verdict):
            continue
        assert ours.verdict is generic.verdict, table.key()
        compared += 1
    assert compared >= 10


# A Foster position with the hand out: the 2 of clubs (base 7) is third from the top of the waste and the
# columns hold what it needs. A redeal is allowed only after a card is played from the waste in this pass.
ENDGAME = {
    "w": "6C 2C 5H 6S 6H 4S KS",
    "f1": "7C 8C 9C 10C JC QC KC AC",
    "f2": "7S 8S 9S 10S JS QS",
    "f3": "7D 8D 9D 10D JD QD KD AD",
    "f4": "7H 8H 9H 10H JH QH KH AH 2H",
    "t1": "5S",
    "t2": "3D",
    "t3": "5D 4C 3H 2S",
    "t4": "6D 5C 4H 3C 2D AS",
    "r": "3S 4D",
}


def _near(table: Table, depth: int) -> list[Table]:
    """``table`` and every position up to ``depth`` legal moves from it, each once."""
    out, seen, frontier = [table], {table.key()}, [table]
    for _ in range(depth):
        following = []
        for board in frontier:
            for move in board.generate_moves():
                child = board.copy()
                child.play(move)
                if child.key() not in seen:
                    seen.add(child.key())
                    following.append(child)
        out += following
        frontier = following
    return out


# ENDGAME's waste in other orders (bottom first): which cards the turns by three bring up decides the game.
WASTE_ORDERS = ("6H 2C 5H 6C 4S 6S KS", "5H 6S 2C KS 6H 4S 6C", "6S KS 4S 5H 6C 6H 2C")


@pytest.mark.parametrize("waste", WASTE_ORDERS)
def test_end_positions_agree_with_an_exhaustive_search(waste: str) -> None:
    """A small Foster position, with and without a card played from the waste this pass, and every position
    up to three moves from it, against a search of every legal move."""
    verdicts: list[Verdict] = []
    for played in (True, False):
        table = make_table("canfield", {**ENDGAME, "w": waste}, "play", **{"pass": 4, "waste_played": played})
        for board in _near(table, 3):
            ours = canfield_search.solve(board, Budget(nodes=200_000, seconds=None))
            plain = plain_search(board.copy(), 200_000)
            assert plain is not None
            assert ours.verdict is (Verdict.SOLVED if plain else Verdict.UNSOLVABLE), board.history
            if ours.verdict is Verdict.SOLVED:
                assert replay(board, ours.moves).foundation_count() == 52
            verdicts.append(ours.verdict)
    assert len(verdicts) >= 10
    if waste == WASTE_ORDERS[1]:
        assert {Verdict.SOLVED, Verdict.UNSOLVABLE} <= set(verdicts)  # wins and losses both


@pytest.mark.parametrize(
    ("game", "seed"), [("canfield", 1), ("canfield", 12), ("canfield/modern", 0), ("canfield/modern", 4)]
)
def test_seeded_deals_solve_and_replay(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    before = table.key()
    result = canfield_search.solve(table, Budget(nodes=2_000_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert table.key() == before, "solve must leave the table as it found it"
    assert replay(table, result.moves).foundation_count() == 52


@pytest.mark.parametrize(("game", "seed"), [("canfield", 7), ("canfield", 21), ("canfield/modern", 21)])
def test_seeded_deals_proved_lost_agree_with_the_generic_search(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    assert canfield_search.solve(table, Budget(nodes=2_000_000, seconds=None)).verdict is Verdict.UNSOLVABLE
    assert solve(table, Budget(nodes=20_000, seconds=None), compiled=False).verdict is Verdict.UNSOLVABLE


# Met along a random playout of Foster's seed 140 (base ace, pass 4, a card played from the waste this pass): the
# 2 of clubs, alone on the waste, may go up and nothing could ever be put on it (both red aces are up), yet it
# must stay: it is the first card of the line the hand turns by threes, and taking it out shifts every later
# pass's threes by one card.
SHIFT = {
    "s": "KH JH 4H QD 8H 3S JD 8S 9H 10D KD 6S 6H 5S 3C 8C 6D 3H QC 8D 2D 10C 9C 10S 4D",
    "w": "2C",
    "r": "JC 7S 2S 5H KC 9D 4S 5C 2H AS 7D KS",
    "f1": "AC",
    "f3": "AH",
    "f4": "AD",
    "t1": "7H 6C 5D 4C 3D",
    "t2": "7C",
    "t3": "QS",
    "t4": "QH JS 10H 9S",
}


def test_a_card_of_no_use_on_the_waste_may_have_to_stay() -> None:
    """Where the hand turns more than one card, a waste card's going up is not only a gain (it is never the
    search's only child): both searches find the win with the 2 of clubs left down and prove it lost once up."""
    table = make_table("canfield", SHIFT, "play", **{"pass": 4, "waste_played": True})
    up = Move("w", "f1")
    assert table.is_legal(up)
    after = table.copy()
    after.play(up)
    budget = Budget(nodes=200_000, seconds=None)
    for board, verdict in ((table, Verdict.SOLVED), (after, Verdict.UNSOLVABLE)):
        assert canfield_search.solve(board, budget).verdict is verdict
        assert solve(board, budget, compiled=False).verdict is verdict
    result = canfield_search.solve(table, budget)
    assert up not in result.moves[:1]
    assert replay(table, result.moves).foundation_count() == 52


def test_turns_wait_for_the_card_they_bring_up() -> None:
    """A win's turns of the hand come just before the waste card they bring up is played (the search turns
    nothing for its own sake; a redeal counts as a turn), and a hint's first move is the win's first move, a turn
    where the win starts with a card still in the hand."""
    table = Table.dealt(find_game("canfield"), 1)
    verdict, steps, _, _ = canfield_search._search(table, Budget(nodes=2_000_000, seconds=None), None)
    assert verdict is Verdict.SOLVED
    moves = canfield_search._engine_moves(table, steps)
    turned = sum(count for kind, _, _, count in steps if kind == canfield_search._WASTE)
    assert turned > 20
    assert len(moves) == len(steps) + turned
    for index, move in enumerate(moves):
        if "s" in (move.src, move.dst):
            after = next(m for m in moves[index:] if "s" not in (m.src, m.dst))
            assert after.src == "w", moves[index:]
    verdict, first = canfield_search.judge(table, 2_000_000)
    assert verdict is Verdict.SOLVED
    assert first == moves[0]


def test_a_win_with_detours_is_shortened() -> None:
    """Modern seed 8's win as found (245 moves, turns of the hand counted) has detours; shortened, every position
    along it is met once, it still wins, and shortening it again cuts nothing."""
    table = Table.dealt(find_game("canfield/modern"), 8)
    verdict, steps, _, _ = canfield_search._search(table, Budget(nodes=2_000_000, seconds=None), None)
    assert verdict is Verdict.SOLVED
    found = canfield_search._engine_moves(table, steps)
    short = canfield_search.shorten(table, found)
    assert len(short) < len(found)
    assert canfield_search.shorten(table, list(short)) == short
    board = table.copy()
    keys = {canfield_search._key(board)}
    for move in short:
        board.play(move)
        keys.add(canfield_search._key(board))
    assert len(keys) == len(short) + 1
    assert board.foundation_count() == 52


def test_the_node_budget_is_kept_and_progress_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canfield_search, "_PROGRESS_EVERY", 1024)
    reports: list[tuple[int, float]] = []
    table = Table.dealt(find_game("canfield/modern"), 6)  # not decided within a few million positions
    result = canfield_search.solve(
        table, Budget(nodes=5_000, seconds=None), lambda nodes, seconds: reports.append((nodes, seconds))
    )
    assert result.verdict is Verdict.UNKNOWN
    assert result.nodes == 5_000
    assert result.moves == ()
    assert [nodes for nodes, _ in reports] == [1024, 2048, 3072, 4096]
    timed = canfield_search.solve(table, Budget(nodes=None, seconds=0.2))
    assert timed.verdict is Verdict.UNKNOWN
    assert 0.2 <= timed.seconds < 2.0


def test_positions_the_search_cannot_take_go_to_the_generic_search() -> None:
    table = make_table("canfield", ENDGAME, "play", **{"pass": 4, "waste_played": True})
    assert canfield_search.fits(table)
    unknown = make_table("canfield", {**ENDGAME, "r": "3S ??"}, "play", **{"pass": 4})
    assert not canfield_search.fits(unknown)
    no_base = make_table("canfield", {"t1": "5S", "s": "3s 4d"})
    assert not canfield_search.fits(no_base)  # no foundation card: the base rank is not set yet
    astray = make_table("canfield", {"f1": "7C 9C", "t1": "8C"})
    assert not canfield_search.fits(astray)
    assert not canfield_search.fits(Table.dealt(find_game("klondike"), 1))
    with pytest.raises(ValueError, match="cannot take"):
        canfield_search.solve(Table.dealt(find_game("klondike"), 1))
    # the generic search still answers these (solve falls back to it)
    assert solve(no_base, Budget(nodes=20_000, seconds=None)).verdict is Verdict.UNSOLVABLE


def test_a_redeal_waits_for_a_play_in_fosters_game() -> None:
    """ENDGAME's waste in an order whose win turns the waste over: with the hand out and nothing played from the
    waste this pass, no redeal is legal yet, and the search's win redeals only after a waste card is played."""
    table = make_table(
        "canfield", {**ENDGAME, "w": "6C 6S KS 4S 6H 5H 2C"}, "play", **{"pass": 4, "waste_played": False}
    )
    assert Move("w", "s", 7) not in table.generate_moves()
    result = canfield_search.solve(table, Budget(nodes=200_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    redeals = 0
    played = False
    for move in result.moves:
        if move.src == "w" and move.dst == "s":
            assert played, "a redeal before any waste card was played this pass"
            redeals += 1
            played = False
        elif move.src == "w":
            played = True
    assert redeals >= 1
    assert replay(table, result.moves).foundation_count() == 52
