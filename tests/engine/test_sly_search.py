"""Sly's compiled search (``engine.sly_search``): its moves against the engine's, agreement with a plain
exhaustive search over the engine's own moves on late positions (wins and losses), seeded deals won and replayed
through ``Table.play``, budgets, and the hints it judges."""

from __future__ import annotations

import random

import pytest

from cadogan.__main__ import main
from engine import hint as hints
from engine import sly_search
from engine.cards import RANK_OF, SUIT_OF
from engine.formats import table_from_json, table_to_json
from engine.games import GAMES, find_game
from engine.games.sly import ACES, KINGS, PROMENADE
from engine.moves import Move
from engine.solver import Budget, Verdict, solve
from engine.table import Outcome, Table
from tests.engine.test_solver import plain_search

GAME = find_game("sly")


def test_the_search_takes_exactly_sly() -> None:
    assert {game.name for game in GAMES if sly_search.takes(game)} == {"sly"}


def test_the_compiled_search_is_built() -> None:
    """The package's install builds ``engine._sly`` (gcc and the Python headers, which ``run`` installs)."""
    assert sly_search.COMPILED


def _canonical(table: Table) -> tuple[object, ...]:
    """A position as the search tells positions apart: the packets as a set, each suit's foundations by kind,
    the pack, the turned card and the round's count."""
    piles = [(f in ACES, table.codes(f)) for f in (*ACES, *KINGS)]
    founds = sorted((ace, SUIT_OF[codes[0]], len(codes)) for ace, codes in piles if codes)
    packets = sorted(table.codes(p) for p in PROMENADE)
    return tuple(founds), tuple(packets), table.codes("s"), table.codes("w"), table.hook_state


def test_its_moves_are_the_engines_and_skip_only_moves_to_positions_another_reaches() -> None:
    """Along random games (rounds placed, vacancies refilled, plays between rounds): every legal move, and the
    moves it keeps reach every position the legal moves reach, each once."""
    kinds = set()
    for seed in range(20):
        table = Table.dealt(GAME, seed)
        rng = random.Random(seed)
        for _ in range(300):
            legal = table.generate_moves()
            if not legal:
                break
            assert sorted(map(str, sly_search.legal_steps(table))) == sorted(map(str, legal))
            kept = sly_search.legal_steps(table, dedup=True)
            assert set(kept) <= set(legal)

            def reached(move: Move, table: Table = table) -> tuple[object, ...]:
                board = table.copy()
                board.play(move)
                return _canonical(board)

            assert {reached(move) for move in legal} == {reached(move) for move in kept}
            assert len({reached(move) for move in kept}) == len(kept)
            kinds |= {(move.src[0], move.dst[0], table.hook_state[0] > 0) for move in legal}
            table.play(rng.choice(legal))
    # turns, placements in and between rounds, plays from the turned card and from the promenade
    assert {("s", "w", False), ("w", "p", True), ("w", "p", False), ("w", "f", False), ("p", "f", False)} <= kinds


def _text(code: int) -> str:
    return "A23456789TJQK"[RANK_OF[code] - 1].replace("T", "10") + "SHDC"[SUIT_OF[code]]


def _random_end(rng: random.Random) -> Table:
    """A late position at random: each foundation 9 to 13 cards high, the cards left on four packets at random
    and up to three in the pack, in a round or between rounds."""
    data = table_to_json(Table.dealt(GAME, 0))
    piles = data["piles"]
    for pile in piles:
        piles[pile] = []
    rest: list[int] = []
    for suit in range(4):
        up, down = rng.randint(9, 13), rng.randint(9, 13)
        piles[ACES[suit]] = [_text(suit * 13 + r) for r in range(up)]
        piles[KINGS[suit]] = [_text(suit * 13 + 12 - r) for r in range(down)]
        rest += [suit * 13 + r for r in range(up, 13)] + [suit * 13 + r for r in range(13 - down)]
    rng.shuffle(rest)
    pack = min(len(rest), rng.randrange(4))
    used = rng.sample(PROMENADE, 4)
    for code in rest[pack:]:
        piles[rng.choice(used)].append(_text(code))
    piles["s"] = [_text(code).lower() for code in rest[:pack]]
    data["state"] = {"placed": rng.choice([0, 0, 5, 19]) if pack else 0}
    return table_from_json(data)


def test_late_positions_agree_with_a_plain_search() -> None:
    """The packets as a set and the moves skipped never turn a win into a loss nor the reverse: on late positions
    at random, won and lost, every verdict is the plain search's, and every loss is proved (a run meets every
    position)."""
    rng = random.Random(1)
    verdicts = []
    for _ in range(40):
        position = _random_end(rng)
        plain = plain_search(position.copy(), 20_000)
        if plain is None:
            continue
        verdict, _, _, _ = sly_search._search(position, Budget(nodes=2_000_000, seconds=None), None)
        assert verdict is (Verdict.SOLVED if plain else Verdict.UNSOLVABLE), table_to_json(position)
        verdicts.append(plain)
    assert verdicts.count(True) >= 8
    assert verdicts.count(False) >= 15


@pytest.mark.parametrize("seed", [0, 4, 15])
def test_seeded_deals_are_won_and_replay(seed: int) -> None:
    table = Table.dealt(GAME, seed)
    before = table.key()
    result = solve(table, Budget(nodes=None, seconds=30.0))  # the solver hands it to this search
    assert result.verdict is Verdict.SOLVED
    assert table.key() == before
    board = table.copy()
    for move in result.moves:
        board.play(move)
    assert board.outcome() is Outcome.WON


def test_a_card_goes_first_on_the_card_wanted_next_after_it_and_last_on_the_card_it_needs() -> None:
    """In a round, the 5 of spades turned, the spade ace foundation at the 3: the search's first placement is on
    the packet whose top is the 6 (wanted right after the 5), its last on the packet whose top is the 4 (the card
    the 5 needs first: covering it blocks both)."""
    data = table_to_json(Table.dealt(GAME, 0))
    piles = data["piles"]
    for pile in piles:
        piles[pile] = []
    rest = [code for code in range(52) for _ in range(2)]
    for code in (0, 1, 2, 4, 3, 5):  # AS 2S 3S on the foundation, 5S turned, 4S and 6S on packets
        rest.remove(code)
    random.Random(0).shuffle(rest)
    rest = [code for code in rest if code not in (3, 5)] + [3, 5]  # the other 4S and 6S deep in the pack
    piles["f1"] = ["AS", "2S", "3S"]
    piles["w"] = ["5S"]
    piles["p1"] = [_text(rest.pop(0)), "4S"]
    piles["p2"] = [_text(rest.pop(0)), "6S"]
    for packet in PROMENADE[2:]:  # no ace or king on top: no foundation could take it at once either
        top = next(code for code in rest if RANK_OF[code] not in (1, 13))
        rest.remove(top)
        piles[packet] = [_text(rest.pop(0)), _text(rest.pop(0)), _text(top)]
    piles["s"] = [_text(code).lower() for code in reversed(rest)]
    data["state"] = {"placed": 5}
    table = table_from_json(data)
    placements = [move for move in sly_search.legal_steps(table, dedup=True) if move.dst in PROMENADE]
    assert len(placements) == 20
    assert str(placements[0]) == "w>p2"
    assert str(placements[-1]) == "w>p1"


def test_a_budget_leaves_a_deal_undecided_and_reports_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 2 is neither won nor proved lost within 100,000 positions (nor within 10 s)."""
    table = Table.dealt(GAME, 2)
    verdict, steps, nodes, _ = sly_search._search(table, Budget(nodes=100_000, seconds=None), None)
    assert (verdict, steps) == (Verdict.UNKNOWN, [])
    assert 100_000 <= nodes < 101_000
    monkeypatch.setattr(sly_search, "_PROGRESS_EVERY", 4096)
    calls: list[tuple[int, float]] = []
    result = sly_search.solve(table, Budget(nodes=2 * 4096 + 1, seconds=None), lambda n, s: calls.append((n, s)))
    assert result.verdict is Verdict.UNKNOWN
    assert [n for n, _ in calls] == [4096, 8192]

    def stop(nodes: int, seconds: float) -> None:
        raise RuntimeError(f"stopped at {nodes}")

    with pytest.raises(RuntimeError, match=r"stopped at 4096$"):
        sly_search.solve(table, Budget(nodes=None, seconds=60.0), stop)


def test_positions_it_cannot_take() -> None:
    table = Table.dealt(GAME, 0)
    assert sly_search.fits(table)
    assert not sly_search.fits(Table.dealt(find_game("klondike"), 0))
    data = table_to_json(table)
    data["piles"]["s"][0] = "??"
    assert not sly_search.fits(table_from_json(data))
    data = table_to_json(table)
    data["piles"]["f1"] = [data["piles"]["p1"].pop()]  # not an ace on an ace foundation
    assert not sly_search.fits(table_from_json(data))
    with pytest.raises(ValueError, match="cannot take"):
        sly_search.solve(Table.dealt(find_game("klondike"), 0))


def test_hints_follow_a_win_found_by_the_search() -> None:
    """With every card known (the pack seen through), the hint is the next move of a win the search finds."""
    table = Table.dealt(GAME, 3)
    assert hints._searcher(table, compiled=True) is hints._Search.SLY
    advice = hints.hint(table, nodes=hints.nodes_for_seconds(1.0), seed=0)
    assert advice.chance == 1.0
    assert advice.move in table.generate_moves()
    data = table_to_json(table)
    data["piles"]["s"] = ["??"] * len(data["piles"]["s"])
    unseen = table_from_json(data)
    assert hints._searcher(unseen, compiled=True) is hints._Search.SLY
    assert hints.hint(unseen, nodes=hints.nodes_for_seconds(1.0), seed=0).move in unseen.generate_moves()


def test_cli_solves_a_seeded_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "sly", "--seed", "15", "--budget", "10s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "solved"
    table = Table.dealt(GAME, 15)
    for notation in lines[1:]:
        table.play(notation)
    assert table.outcome() is Outcome.WON
