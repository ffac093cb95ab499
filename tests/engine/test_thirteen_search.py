"""The Great Thirteen's compiled search (``engine.thirteen_search``): which games and positions it takes, agreement
with a plain exhaustive search over the engine's own moves (before and after the last re-deal, with and without
the rule that keeps independent placements in one order), seeded deals won and replayed through ``Table.play``,
budgets, and the hints it judges."""

from __future__ import annotations

import random

import pytest

from cadogan.__main__ import main
from engine import hint as hints
from engine import thirteen_search
from engine.formats import table_from_json, table_to_json
from engine.games import GAMES, find_game
from engine.games.great_thirteen import GROUND, NUMERALS, won
from engine.moves import Move
from engine.solver import Budget, Verdict, solve
from engine.table import Outcome, Table
from tests.engine.test_solver import plain_search

GAME = find_game("the-great-thirteen")


def test_the_search_takes_exactly_the_great_thirteen() -> None:
    assert {game.name for game in GAMES if thirteen_search.takes(game)} == {"the-great-thirteen"}


def test_the_compiled_search_is_built() -> None:
    """The package's install builds ``engine._thirteen`` (gcc and the Python headers, which ``run`` installs)."""
    assert thirteen_search.COMPILED


def _win(seed: int) -> tuple[Table, tuple[Move, ...]]:
    table = Table.dealt(GAME, seed)
    result = thirteen_search.solve(table, Budget(nodes=5_000_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    return table, result.moves


def _shuffled_ground(table: Table, rng: random.Random) -> Table:
    """``table`` with its ground cards dealt anew into the same packet sizes: another position, won or lost."""
    data = table_to_json(table)
    piles = data["piles"]
    cards = [card for g in GROUND for card in piles[g]]
    rng.shuffle(cards)
    for g in GROUND:
        size = len(piles[g])
        piles[g], cards = cards[:size], cards[size:]
    return table_from_json(data)


def _vacated(table: Table, rng: random.Random) -> Table:
    """``table`` with its shortest column's cards put back on top of random ground packets, the first it took
    uppermost: a vacancy, which Rule II fills before any card is added to a column."""
    data = table_to_json(table)
    piles = data["piles"]
    column = min(NUMERALS, key=lambda n: len(piles[n]))
    for card in reversed(piles[column]):
        piles[rng.choice(GROUND)].append(card)
    piles[column] = []
    return table_from_json(data)


@pytest.mark.parametrize(("seed", "first"), [(6, 60), (5, 75), (0, 70), (3, 72)])
def test_the_search_agrees_with_a_plain_search(seed: int, first: int) -> None:
    """Positions along a win with the ground cards shuffled (before the last re-deal where ``first`` is early
    enough, after it otherwise), near the end a column emptied too: the values for cards, the columns and (after
    the last re-deal) packets as sets, and the one order of independent placements never turn a win into a loss
    nor the reverse."""
    table, moves = _win(seed)
    board = table.copy()
    positions: list[Table] = []
    rng = random.Random(seed)
    for index, move in enumerate(moves):
        if index >= first and index % 4 == 0:
            positions += [board.copy(), _shuffled_ground(board, rng), _shuffled_ground(board, rng)]
            vacated = [_vacated(board, rng)] if index >= 76 else []
            positions += vacated + [_shuffled_ground(table, rng) for table in vacated]
        board.play(move)
    verdicts = []
    for position in positions:
        plain = plain_search(position.copy(), 100_000, won)
        if plain is None:
            continue
        for independence in (True, False):
            verdict, _, _, _ = thirteen_search._search(
                position, Budget(nodes=2_000_000, seconds=None), None, independence=independence
            )
            assert verdict is (Verdict.SOLVED if plain else Verdict.UNSOLVABLE), (table_to_json(position), independence)
        verdicts.append(plain)
    assert len(verdicts) >= 12
    assert True in verdicts
    assert False in verdicts


@pytest.mark.parametrize("seed", [0, 3, 5, 6])
def test_seeded_deals_are_won_and_replay(seed: int) -> None:
    table = Table.dealt(GAME, seed)
    before = table.key()
    result = solve(table, Budget(seconds=30.0))  # the solver hands it to this search
    assert result.verdict is Verdict.SOLVED
    assert table.key() == before
    board = table.copy()
    for move in result.moves:
        board.play(move)
    assert board.outcome() is Outcome.WON
    assert sum(move.dst.startswith("n") for move in result.moves) == 96  # every ground card placed


def test_a_position_with_nothing_to_place_and_no_re_deal_left_is_lost() -> None:
    table, moves = _win(3)
    board = table.copy()
    for move in moves[:80]:
        board.play(move)
    # The last re-deal is behind (move 68): the ground cards dealt anew until nothing can be placed.
    stuck = None
    rng = random.Random(1)
    for _ in range(200):
        candidate = _shuffled_ground(board, rng)
        if not candidate.generate_moves():
            stuck = candidate
            break
    assert stuck is not None
    result = thirteen_search.solve(stuck, Budget(nodes=1_000, seconds=None))
    assert result.verdict is Verdict.UNSOLVABLE
    assert result.nodes == 0


def test_a_budget_leaves_a_deal_undecided_and_reports_progress() -> None:
    """Deal 2 is neither won nor proved lost within 100,000 positions (nor within 30 s)."""
    table = Table.dealt(GAME, 2)
    calls: list[tuple[int, float]] = []
    verdict, steps, nodes, _ = thirteen_search._search(
        table, Budget(nodes=100_000, seconds=None), lambda n, s: calls.append((n, s))
    )
    assert verdict is Verdict.UNKNOWN
    assert not steps
    assert 100_000 <= nodes < 110_000
    result = thirteen_search.solve(
        table, Budget(nodes=2 * thirteen_search._PROGRESS_EVERY + 1, seconds=None), lambda n, s: calls.append((n, s))
    )
    assert result.verdict is Verdict.UNKNOWN
    assert [n for n, _ in calls] == [thirteen_search._PROGRESS_EVERY, 2 * thirteen_search._PROGRESS_EVERY]


def test_positions_it_cannot_take() -> None:
    table = Table.dealt(GAME, 0)
    assert thirteen_search.fits(table)
    assert not thirteen_search.fits(Table.dealt(find_game("klondike"), 0))
    data = table_to_json(table)
    data["piles"]["g1"][0] = "??"
    assert not thirteen_search.fits(table_from_json(data))
    data = table_to_json(table)
    data["piles"]["n1"] = data["piles"]["g1"][-1:]  # a numeral the balcony card does not build
    data["piles"]["g1"] = data["piles"]["g1"][:-1]
    assert not thirteen_search.fits(table_from_json(data))
    with pytest.raises(ValueError, match="cannot take"):
        thirteen_search.solve(Table.dealt(find_game("klondike"), 0))


def test_hints_follow_a_win_found_by_the_search() -> None:
    """A dealt Great Thirteen table shows every card: the hint is the next move of a win, the same every time,
    and played hint by hint it wins."""
    table = Table.dealt(GAME, 5)
    assert hints._searcher(table, compiled=True) is hints._Search.THIRTEEN
    board = table.copy()
    history: list[Table] = []
    for _ in range(130):
        if board.outcome() is not None:
            break
        advice = hints.hint(board, nodes=hints.nodes_for_seconds(1.0), seed=0, history=history)
        assert advice.move is not None
        assert advice.chance == 1.0
        if not history:
            assert hints.hint(board, nodes=hints.nodes_for_seconds(1.0), seed=0) == advice
        history.append(board.copy())
        board.play(advice.move)
    assert board.outcome() is Outcome.WON


def test_cli_solves_a_seeded_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "the-great-thirteen", "--seed", "6", "--budget", "10s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "solved"
    table = Table.dealt(GAME, 6)
    for notation in lines[1:]:
        table.play(notation)
    assert table.outcome() is Outcome.WON


def test_the_solvability_bench_replays_its_wins() -> None:
    """``bench.solvability`` checks a win by the game's own outcome: The Great Thirteen has no foundations."""
    from bench.solvability import solve_deal

    record = solve_deal(("the-great-thirteen", 3, 10.0))
    assert record["verdict"] == "solved"
    assert record["replays"] is True


def test_hints_with_the_packets_unseen_judge_samples_by_the_search() -> None:
    """A camera sees only each packet's top card: the hint samples the cards under them, and this search judges
    each sample in hindsight (the player may look under the packets), the same hint for the same seed."""
    data = table_to_json(Table.dealt(GAME, 0))
    for g in GROUND:
        data["piles"][g] = ["??"] * (len(data["piles"][g]) - 1) + data["piles"][g][-1:]
    table = table_from_json(data)
    assert not thirteen_search.fits(table)
    assert thirteen_search.fits(hints.samples(table, 1, 0)[0], hindsight=True)
    assert not thirteen_search.fits(hints.samples(table, 1, 0)[0])  # solve replays through the engine: all seen
    assert hints._searcher(table, compiled=True) is hints._Search.THIRTEEN
    advice = hints.hint(table, nodes=hints.nodes_for_seconds(1.0), seed=3)
    assert advice.move in table.generate_moves()
    assert advice.samples == 64
    assert 0.0 < advice.chance < 1.0
    assert hints.hint(table, nodes=hints.nodes_for_seconds(1.0), seed=3) == advice


def test_an_error_in_the_progress_report_stops_the_search() -> None:
    """The compiled searches share their budget (``engine/_search_table.h``): a progress callback that raises
    (as Ctrl-C does) stops the search at once, and its error reaches the caller."""

    def stop(nodes: int, seconds: float) -> None:
        raise RuntimeError(f"stopped at {nodes}")

    with pytest.raises(RuntimeError, match=f"stopped at {thirteen_search._PROGRESS_EVERY}$"):
        thirteen_search.solve(Table.dealt(GAME, 2), Budget(nodes=None, seconds=60.0), stop)


def test_the_first_run_resumes_between_restarts_and_proves_a_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 492 is lost, proved in about 60,000 positions by a run in one order. Paused after 1,000 positions,
    with restarts far too short to meet every position themselves (Luby lengths of one position), it is proved
    only by the first run resumed after each restart with its table: 60,000 positions in slices."""
    monkeypatch.setattr(thirteen_search, "FIRST_RUN", 1_000)
    monkeypatch.setattr(thirteen_search, "RESTART_UNIT", 1)
    table = Table.dealt(GAME, 492)
    verdict, steps, nodes, _ = thirteen_search._search(table, Budget(nodes=1_000_000, seconds=None), None)
    assert verdict is Verdict.UNSOLVABLE
    assert not steps
    assert nodes < 1_000_000
    monkeypatch.setattr(thirteen_search, "FIRST_RUN", 100_000_000)  # one run: the same proof
    assert thirteen_search._search(table, Budget(nodes=1_000_000, seconds=None), None)[0] is Verdict.UNSOLVABLE
