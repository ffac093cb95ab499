"""The cross games' search (``engine.cross_search``): General Sedgewick and Four Seasons end positions with known
answers, agreement with the generic search, seeded deals replayed through ``Table.play``, budgets."""

from __future__ import annotations

import random

import pytest

from engine import cross_search
from engine.cards import RANK_LETTERS, parse_code
from engine.games import GAMES, find_game
from engine.solver import Budget, SolveResult, Verdict, replay, solve
from engine.table import Table
from engine.testing import make_table

CROSS_GAMES = ("general-sedgewick", "four-seasons")
CORES = ("compiled", "python")
"""The search compiled (``engine/_cross.c``) and in Python (``cross_search._Cross``): each test below runs both."""


def cross_solve(table: Table, budget: Budget, core: str, progress: cross_search.Progress | None = None) -> SolveResult:
    return cross_search.solve(table, budget, progress, compiled=core == "compiled")


def cross_end(game: str, base: int, piles: dict[str, str]) -> Table:
    """A cross game's position with ``piles`` as given and every other card on the foundations, built from
    rank ``base`` up in suit (round the corner) to the first card of the suit that ``piles`` hold."""
    listed = {parse_code(card.upper()) for text in piles.values() for card in text.split()}
    foundations: dict[str, str] = {}
    for suit in "SHDC":
        run: list[str] = []
        for step in range(13):
            card = RANK_LETTERS[(base - 1 + step) % 13] + suit
            if parse_code(card) in listed:
                break
            run.append(card)
        if run:
            foundations[f"f{len(foundations) + 1}"] = " ".join(run)
    return make_table(game, {**foundations, **piles})


# Met along Four Seasons seed 1's win (base 8): the 2 of clubs may go up, but that loses; it must go onto the 3
# of hearts so that the cross can be rearranged round the kings on aces. Under the 1914 rules (no king on an ace
# on the cross) the same position is lost whatever is done.
SACRIFICE = {
    "w": "QH AH 7S 2H 6H JS 7D JH 5C 6S 7H",
    "t1": "6D 5D 4S 3H",
    "t2": "2C",
    "t3": "7C 6C 5H 4D 3S",
    "t4": "5S 4C 3D 2S AS KH QS",
    "t5": "4H 3C 2D AD KS",
}
# Met along General Sedgewick seed 12's win (base 10): the 4 of diamonds may go up, but it must go onto the 5 of
# spades instead, so that the 5 of hearts beneath it goes up and the 4 of spades comes onto it later.
SEDGEWICK_SACRIFICE = {
    "s": "8h",
    "w": "7S 2S 6H 9H 8C 7H 9S",
    "t1": "6S 5S",
    "t2": "5H 4D",
    "t3": "9C 8S 7D",
    "t4": "8D 7C 6D 5D 4S 3S",
    "t5": "9D",
}
# Base 7, the foundations wanting the 5 of hearts and the 6 of spades: the 5 goes up from its packet, the 6s after.
SIMPLE_WIN = {"t1": "6S 5H", "t2": "6H"}
# SACRIFICE after the 2 of clubs went up: the kings on the cross can no longer come down onto aces in time.
TWO_UP = {pile: cards for pile, cards in SACRIFICE.items() if pile != "t2"}

# Four Seasons, base 2, found by comparing the search with the generic one on random end positions: its wins need
# two packet moves in a row that touch four different packets; the search used to keep neither order of such a
# pair after a packet move, and proved this position lost.
COMMUTING = {
    "t1": "QD 9H",
    "t2": "AH 10D JH",
    "t3": "AS JS JD AD 8D QS KC",
    "t4": "10H KH",
    "t5": "8H AC KS KD QH 9D",
}

POSITIONS: dict[str, tuple[str, int, dict[str, str], Verdict]] = {
    "sedgewick-solvable": ("general-sedgewick", 7, SIMPLE_WIN, Verdict.SOLVED),
    "sedgewick-no-king-on-an-ace": ("general-sedgewick", 8, SACRIFICE, Verdict.UNSOLVABLE),
    "sedgewick-sacrifice": ("general-sedgewick", 10, SEDGEWICK_SACRIFICE, Verdict.SOLVED),
    "four-seasons-solvable": ("four-seasons", 7, SIMPLE_WIN, Verdict.SOLVED),
    "four-seasons-two-up": ("four-seasons", 8, TWO_UP, Verdict.UNSOLVABLE),
    "four-seasons-sacrifice": ("four-seasons", 8, SACRIFICE, Verdict.SOLVED),
    "four-seasons-commuting-moves": ("four-seasons", 2, COMMUTING, Verdict.SOLVED),
}


def position(name: str) -> Table:
    game, base, piles, _ = POSITIONS[name]
    return cross_end(game, base, piles)


def test_the_cross_search_takes_exactly_the_cross_games() -> None:
    taken = {game.name for game in GAMES if cross_search.shape(game) is not None}
    assert taken == set(CROSS_GAMES)
    assert cross_search.shape(find_game("general-sedgewick")) == cross_search.CrossShape(False, False)
    assert cross_search.shape(find_game("four-seasons")) == cross_search.CrossShape(True, True)


def test_the_compiled_search_is_built() -> None:
    """The package's install builds ``engine._cross`` (gcc and the Python headers, which ``run`` installs)."""
    assert cross_search.COMPILED


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_known_answers(name: str, core: str) -> None:
    table = position(name)
    assert cross_search.fits(table)
    before = table.key()
    result = cross_solve(table, Budget(nodes=100_000, seconds=None), core)
    assert result.verdict is POSITIONS[name][3]
    assert table.key() == before, "solve must leave the table as it found it"
    if result.verdict is Verdict.SOLVED:
        assert replay(table, result.moves).foundation_count() == 52


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(("name", "tempting"), [("four-seasons-sacrifice", "t2>f4"), ("sedgewick-sacrifice", "t2>f3")])
def test_a_card_that_may_go_up_must_stay_on_the_cross(name: str, tempting: str, core: str) -> None:
    table = position(name)
    up = next(move for move in table.generate_moves() if move.dst.startswith("f"))
    assert str(up) == tempting
    after = table.copy()
    after.play(up)
    assert cross_solve(after, Budget(nodes=100_000, seconds=None), core).verdict is Verdict.UNSOLVABLE
    result = cross_solve(table, Budget(nodes=100_000, seconds=None), core)
    assert result.verdict is Verdict.SOLVED
    assert result.moves[0] != up
    assert replay(table, result.moves).foundation_count() == 52


def _sidesteps(game: str, seed: int, count: int) -> list[Table]:
    """Positions along the search's own win of a deal, and one random legal move aside from each."""
    table = Table.dealt(find_game(game), seed)
    win = solve(table, Budget(nodes=200_000, seconds=None))
    assert win.verdict is Verdict.SOLVED
    rng = random.Random(seed)
    board = table.copy()
    out: list[Table] = []
    for move in win.moves:
        board.play(move)
        out.append(board.copy())
        moves = board.generate_moves()
        if moves:
            aside = board.copy()
            aside.play(rng.choice(moves))
            out.append(aside)
    return rng.sample(out, min(count, len(out)))


@pytest.mark.parametrize(("game", "seed"), [("four-seasons", 1), ("four-seasons", 8), ("general-sedgewick", 12)])
def test_the_cross_search_agrees_with_the_generic_search(game: str, seed: int) -> None:
    """The pruning rules (packets as a set, a moved card's next use, cards of no use going up) never turn a win
    into a loss nor the reverse: against the generic depth-first search wherever both decide."""
    compared = 0
    for table in _sidesteps(game, seed, 40):
        ours = solve(table, Budget(nodes=20_000, seconds=None))
        generic = solve(table, Budget(nodes=20_000, seconds=None), compiled=False, best_first=False)
        if Verdict.UNKNOWN in (ours.verdict, generic.verdict):
            continue
        assert ours.verdict is generic.verdict, table.key()
        compared += 1
    assert compared >= 15


@pytest.mark.parametrize(
    ("game", "seed"), [("four-seasons", 1), ("four-seasons", 4), ("four-seasons", 8), ("general-sedgewick", 12)]
)
def test_seeded_deals_solve_and_replay(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    result = solve(table, Budget(nodes=100_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert replay(table, result.moves).foundation_count() == 52


@pytest.mark.parametrize(
    ("game", "seed", "nodes"),
    [("general-sedgewick", 12, 20_000), ("general-sedgewick", 0, 20_000), ("four-seasons", 4, 20_000)],
)
def test_the_compiled_first_run_is_the_python_one(game: str, seed: int, nodes: int) -> None:
    """Same children, order, rules and keys: the first runs make the same positions and find the same win (or
    none) within the same budget."""
    table = Table.dealt(find_game(game), seed)
    budget = Budget(nodes=nodes, seconds=None)
    compiled, python = cross_solve(table, budget, "compiled"), cross_solve(table, budget, "python")
    assert (compiled.verdict, compiled.nodes, compiled.moves) == (python.verdict, python.nodes, python.moves)


@pytest.mark.parametrize("core", CORES)
def test_restarts_find_a_win_the_first_order_misses(core: str) -> None:
    """General Sedgewick seed 1: the first run, in the fixed order, finds nothing in its positions; the
    shuffled restarts win, the same way every time (each core shuffles with its own random numbers)."""
    table = Table.dealt(find_game("general-sedgewick"), 1)
    first = cross_solve(table, Budget(nodes=cross_search.FIRST_RUN, seconds=None), core)
    assert first.verdict is Verdict.UNKNOWN
    result = cross_solve(table, Budget(nodes=200_000, seconds=None), core)
    assert result.verdict is Verdict.SOLVED
    assert result.nodes > cross_search.FIRST_RUN
    assert replay(table, result.moves).foundation_count() == 52
    again = cross_solve(table, Budget(nodes=200_000, seconds=None), core)
    assert (again.moves, again.nodes) == (result.moves, result.nodes)


@pytest.mark.parametrize(("index", "term"), [(1, 1), (2, 1), (3, 2), (6, 2), (7, 4), (14, 4), (15, 8), (16, 1)])
def test_restart_lengths_follow_lubys_sequence(index: int, term: int) -> None:
    assert cross_search.luby(index) == term


@pytest.mark.parametrize("core", CORES)
def test_the_node_budget_is_kept_and_progress_reported(monkeypatch: pytest.MonkeyPatch, core: str) -> None:
    monkeypatch.setattr(cross_search, "_PROGRESS_EVERY", 1024)
    monkeypatch.setattr(cross_search, "_COMPILED_PROGRESS_EVERY", 1024)
    reports: list[tuple[int, float]] = []
    table = Table.dealt(find_game("general-sedgewick"), 0)
    result = cross_solve(
        table, Budget(nodes=5_000, seconds=None), core, lambda nodes, seconds: reports.append((nodes, seconds))
    )
    assert result.verdict is Verdict.UNKNOWN
    assert result.nodes == 5_000
    assert result.moves == ()
    assert [nodes for nodes, _ in reports] == [1024, 2048, 3072, 4096]
    timed = cross_solve(table, Budget(nodes=None, seconds=0.2), core)
    assert timed.verdict is Verdict.UNKNOWN
    assert 0.2 <= timed.seconds < 2.0


def test_positions_the_search_cannot_take_go_to_the_generic_search() -> None:
    table = position("four-seasons-solvable")
    assert cross_search.fits(table)
    face_down = make_table("four-seasons", {"f1": "7C", "t1": "5h 6S"})
    assert not cross_search.fits(face_down)  # a face-down card on the cross: not a position the game makes
    mixed_bases = make_table("four-seasons", {"f1": "7C", "f2": "8H", "t1": "6S"})
    assert not cross_search.fits(mixed_bases)
    with pytest.raises(ValueError, match="not a cross game"):
        cross_search.solve(Table.dealt(find_game("klondike"), 1))


def test_a_longer_line_than_the_compiled_search_takes_is_searched_in_python() -> None:
    """A table made by hand may hold more cards in the stock and talon than a deal (46): the compiled search's
    keys hold 47, so the Python search takes it, with the same answer."""
    stock = " ".join(f"{rank}{suit}" for suit in "SHDC" for rank in RANK_LETTERS if f"{rank}{suit}" != "7C")
    table = make_table("four-seasons", {"f1": "7C", "s": stock})
    assert cross_search.fits(table)
    assert len(table.codes("s")) == 51
    result = cross_search.solve(table, Budget(nodes=50_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert replay(table, result.moves).foundation_count() == 52


def test_a_wandering_win_is_shortened() -> None:
    """Four Seasons seed 2: the first run's win wanders (over 1,000 steps); cut, it still wins, in a quarter of
    them, and cutting again cuts nothing."""
    table = Table.dealt(find_game("four-seasons"), 2)
    cross = cross_search.shape(table.game)
    assert cross is not None
    limits = cross_search._Limits(Budget(nodes=None, seconds=None), None)
    verdict, steps = cross_search._Cross(table, cross, limits).run(None)
    assert verdict is Verdict.SOLVED
    assert len(steps) > 1_000
    short = cross_search.shorten(table, steps)
    assert len(short) < len(steps) // 4
    assert replay(table, cross_search._engine_moves(table, short)).foundation_count() == 52
    assert cross_search.shorten(table, short) == short
    result = solve(table, Budget(nodes=None, seconds=10.0))
    assert len(result.moves) == len(short)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_judgement_gives_the_verdict_and_a_first_move_that_keeps_the_win(name: str) -> None:
    """``judge`` (a hint's search of one sample): the known answer, and for a win its first move, after which
    the position is still won."""
    table = position(name)
    verdict, first = cross_search.judge(table, 100_000)
    assert verdict is POSITIONS[name][3]
    if verdict is not Verdict.SOLVED:
        assert first is None
        return
    assert first is not None
    assert first in table.generate_moves()
    table.play(first)
    assert cross_search.solve(table, Budget(nodes=100_000, seconds=None)).verdict is Verdict.SOLVED


def test_a_judgement_keeps_its_node_budget() -> None:
    table = Table.dealt(find_game("general-sedgewick"), 0)
    assert cross_search.judge(table, 2_000) == (Verdict.UNKNOWN, None)
