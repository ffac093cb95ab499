"""The Queens' compiled search (``engine.queens_search``): its moves against the engine's, the key's check against
an exhaustive count of the ways to split each suit, agreement with a plain exhaustive search over the engine's own
moves (with and without the safe cards' rule), seeded deals won and replayed or proved lost, budgets, and the
hints it judges."""

from __future__ import annotations

import itertools
import random

import pytest

from cadogan.__main__ import main
from engine import hint as hints
from engine import queens_search
from engine.cards import RANK_OF, SUIT_OF
from engine.formats import table_from_json, table_to_json
from engine.games import GAMES, find_game
from engine.games.queens import FOUNDATIONS, SHUTTER_IDS
from engine.moves import Move
from engine.solver import Budget, Verdict, solve
from engine.table import Outcome, Table
from tests.engine.test_solver import plain_search

GAME = find_game("the-queens")
WON_SEEDS = (212, 333, 499, 571, 704, 721)
"""Deals of seeds 0-999 the key lets through (the 6 of them): each is won."""


def test_the_search_takes_exactly_the_queens() -> None:
    assert {game.name for game in GAMES if queens_search.takes(game)} == {"the-queens"}


def test_the_compiled_search_is_built() -> None:
    """The package's install builds ``engine._queens`` (gcc and the Python headers, which ``run`` installs)."""
    assert queens_search.COMPILED


def _playouts(seeds: range, length: int) -> list[Table]:
    """Positions along random games: every one met, in order."""
    tables = []
    for seed in seeds:
        table = Table.dealt(GAME, seed)
        rng = random.Random(seed)
        for _ in range(length):
            tables.append(table.copy())
            moves = table.generate_moves()
            if not moves:
                break
            table.play(rng.choice(moves))
    return tables


def _canonical(table: Table) -> tuple[object, ...]:
    """A position as the search tells positions apart: shutter piles as a set, each suit's foundations as a set
    of heights, the key, pack and talon in order and the hook state."""
    founds = sorted((SUIT_OF[c[0]], len(c)) for c in (table.codes(f) for f in FOUNDATIONS) if c)
    piles = sorted(table.codes(h) for h in SHUTTER_IDS)
    lines = table.codes("k"), table.codes("s"), table.codes("w")
    return tuple(founds), tuple(map(tuple, piles)), *lines, table.hook_state


def test_its_moves_are_the_engines_and_skip_only_moves_to_positions_another_reaches() -> None:
    """Along random games (payments of the key and of the talon's queens met): every legal move, and the moves
    it keeps reach every position the legal moves reach but the position itself (a marriage between two piles
    of one bottom card swaps their lengths), each once."""
    tables = _playouts(range(40), 700)
    payments = {"k": 0, "w": 0}
    for table in tables:
        legal = table.generate_moves()
        assert sorted(map(str, queens_search.legal_steps(table))) == sorted(map(str, legal))
        kept = queens_search.legal_steps(table, dedup=True)
        assert set(kept) <= set(legal)

        def reached(move: Move, table: Table = table) -> tuple[object, ...]:
            board = table.copy()
            board.play(move)
            return _canonical(board)

        here = {_canonical(table)}
        assert {reached(move) for move in legal} - here == {reached(move) for move in kept}
        assert len({reached(move) for move in kept}) == len(kept)
        for move in legal:
            if move.dst == "s":
                payments[move.src] += 1
    assert payments["k"] >= 1
    assert payments["w"] >= 10


def _copies_ok(chains: list[list[int | None]]) -> bool:
    """Every chain's key cards lie higher in the key the lower their rank (a key card goes up after its chain's
    lower cards)."""
    for chain in chains:
        places = [p for p in chain if p is not None]
        if any(a <= b for a, b in itertools.pairwise(places)):
            return False
    return True


def _blocked_by_count(key: list[int], heights: dict[int, list[int]]) -> bool:
    """The key's check by counting: for each suit, every way to give the copies of each rank still to go up to
    the two foundations that need them."""
    for suit in range(4):
        h = sorted([*heights.get(suit, []), 0, 0])[-2:]
        places: dict[int, list[int | None]] = {j: [] for j in range(13)}
        for place, code in enumerate(key):
            if SUIT_OF[code] == suit:
                places[0 if RANK_OF[code] == 13 else RANK_OF[code]].append(place)
        options = []
        for j in range(13):
            needing = [c for c in range(2) if h[c] <= j]
            copies = places[j] + [None] * (len(needing) - len(places[j]))
            options.append([dict(zip(needing, order, strict=True)) for order in set(itertools.permutations(copies))])
        if not any(
            _copies_ok([[given[j].get(c) for j in range(13)] for c in range(2)])
            for given in itertools.product(*options)
        ):
            return True
    return False


def _random_key_position(rng: random.Random) -> tuple[Table, list[int], dict[int, list[int]]]:
    """A position of The Queens with random foundations (at least one card on them: no payment of the key to
    come) and a random key of the cards left, the rest in the pack."""
    heights = {suit: [rng.choice([0, 0, 1, 2, 3, 5, 8]) for _ in range(2)] for suit in range(4)}
    heights[rng.randrange(4)][0] = rng.randrange(1, 13)
    data = table_to_json(Table.dealt(GAME, 0))
    piles = data["piles"]
    for pile in piles:
        piles[pile] = []
    rest: list[int] = []
    slot = 0
    for suit, pair in heights.items():
        for height in pair:
            order = [suit * 13 + 12] + [suit * 13 + r for r in range(12)]
            if height:
                piles[FOUNDATIONS[slot]] = [_text(code) for code in order[:height]]
                slot += 1
            rest += order[height:]
    rng.shuffle(rest)
    size = rng.randrange(4, 33)
    key, pack = rest[:size], rest[size:]
    piles["k"] = [_text(code) for code in key]
    piles["s"] = [_text(code).lower() for code in pack]
    return table_from_json(data), key, {s: [h for h in pair if h] for s, pair in heights.items()}


def _text(code: int) -> str:
    return "A23456789TJQK"[RANK_OF[code] - 1].replace("T", "10") + "SHDC"[SUIT_OF[code]]


def test_the_keys_check_is_an_exhaustive_count_of_the_splits() -> None:
    """On random positions (keys of 4 to 32 cards, foundations begun at random), the check says lost exactly
    where no way to give each suit's copies to its two foundations lets every key card go up after the cards
    its foundation needs first."""
    rng = random.Random(5)
    verdicts = []
    for _ in range(300):
        table, key, heights = _random_key_position(rng)
        assert table.codes("k") == tuple(key)
        verdict = queens_search.blocked(table)
        assert verdict is _blocked_by_count(key, heights), table_to_json(table)
        verdicts.append(verdict)
    assert 20 <= verdicts.count(True) <= 280


def test_a_queen_to_be_paid_for_on_the_key_waits_for_the_check() -> None:
    """Seed 38's key has a queen on top: it pays 14 cards out before play, so the check waits (the deal is lost
    once the payment is made, one position later)."""
    table = Table.dealt(GAME, 38)
    assert [str(m) for m in table.generate_moves()] == ["k:14>s"]
    assert not queens_search.blocked(table)
    paid = table.copy()
    paid.play("k:14>s")
    assert queens_search.blocked(paid)
    result = queens_search.solve(table, Budget(nodes=1_000, seconds=None))
    assert (result.verdict, result.nodes) == (Verdict.UNSOLVABLE, 1)


def _end_positions(seed: int, first: int, rng: random.Random) -> list[Table]:
    """Positions along a won deal from move ``first`` on, and each with its pack and talon cards dealt anew: the
    pack's and the talon's sizes kept, or all in the talon with no payment left (no card played since the last),
    or two of them put on the key. Won and lost ones."""
    table = Table.dealt(GAME, seed)
    moves = queens_search.solve(table).moves
    board = table.copy()
    out = []
    for index, move in enumerate(moves):
        if index >= first and index % 6 == 0:
            out.append(board.copy())
            for variant in ("kept", "talon", "key"):
                data = table_to_json(board)
                piles = data["piles"]
                cards = [c.upper() for c in piles["s"] + piles["w"]]
                rng.shuffle(cards)
                if variant == "key":
                    piles["k"], cards = piles["k"] + cards[:2], cards[2:]
                size = 0 if variant == "talon" else len(piles["s"])
                piles["s"], piles["w"] = [c.lower() for c in cards[:size]], cards[size:]
                if variant == "talon":
                    data["state"] = {"played_since_payment": rng.randrange(2), "turned": 0}
                out.append(table_from_json(data))
        board.play(move)
    return out


def _agree(position: Table, limit: int) -> bool | None:
    """The plain search's verdict (None: past ``limit`` positions), which this search's must match with the safe
    cards' rule and without."""
    plain = plain_search(position.copy(), limit)
    if plain is not None:
        for safe in (True, False):
            verdict, _, _, _ = queens_search._search(position, Budget(nodes=2_000_000, seconds=None), None, safe=safe)
            assert verdict is (Verdict.SOLVED if plain else Verdict.UNSOLVABLE), (table_to_json(position), safe)
    return plain


@pytest.mark.parametrize(("seed", "first"), [(333, 290), (571, 300), (721, 300)])
def test_the_search_agrees_with_a_plain_search(seed: int, first: int) -> None:
    """Along won deals, the pack and talon dealt anew: the sets (shutter piles, a suit's foundations), the moves
    skipped, the safe cards' rule and the key's check never turn a win into a loss (a wrong cut could only do
    that: every win replays through the engine), and the losses are the plain search's too."""
    verdicts = [_agree(position, 30_000) for position in _end_positions(seed, first, random.Random(seed))]
    assert verdicts.count(True) >= 30
    assert False in verdicts


def _random_end(rng: random.Random) -> Table:
    """A late position at random: each foundation 7 to 13 cards high, a shutter pile for most of the seven (a
    card and the cards below it of its suit while the coin says so), up to five cards on the key, and the rest
    in the pack and the talon (the pack empty half the time), the flags at random."""
    data = table_to_json(Table.dealt(GAME, 0))
    piles = data["piles"]
    for pile in piles:
        piles[pile] = []
    rest: list[int] = []
    for slot, (suit, _) in enumerate(itertools.product(range(4), range(2))):
        order = [suit * 13 + 12] + [suit * 13 + r for r in range(12)]
        height = rng.randint(7, 13)
        piles[FOUNDATIONS[slot]] = [_text(code) for code in order[:height]]
        rest += order[height:]
    rng.shuffle(rest)
    for pile in SHUTTER_IDS:
        if not rest or rng.random() < 0.1:
            continue
        run = [rest.pop()]
        while rng.random() < 0.5 and run[-1] % 13 and run[-1] - 1 in rest:
            rest.remove(run[-1] - 1)
            run.append(run[-1] - 1)
        piles[pile] = [_text(code) for code in run]
    keyed = min(len(rest), rng.randrange(6))
    piles["k"], rest = [_text(code) for code in rest[:keyed]], rest[keyed:]
    pack = rng.randrange(len(rest) + 1) if rng.random() < 0.5 else 0
    piles["s"], piles["w"] = [_text(code).lower() for code in rest[:pack]], [_text(code) for code in rest[pack:]]
    data["state"] = {"played_since_payment": rng.randrange(2), "turned": rng.randrange(2) if piles["w"] else 0}
    return table_from_json(data)


def test_random_end_positions_agree_with_a_plain_search() -> None:
    """Late positions at random, many with cards on the key the check lets through: the same verdicts. (This
    found the check proving a won position lost: a suit's two chains taken as interchangeable where their
    foundations stood at different heights.)"""
    rng = random.Random(1)
    verdicts = []
    for _ in range(60):
        position = _random_end(rng)
        verdicts.append((_agree(position, 20_000), bool(position.codes("k")) and not queens_search.blocked(position)))
    assert sum(plain is not None for plain, _ in verdicts) >= 45
    assert sum(plain is True and keyed for plain, keyed in verdicts) >= 20


@pytest.mark.parametrize("seed", WON_SEEDS)
def test_the_deals_the_key_lets_through_are_won_and_replay(seed: int) -> None:
    table = Table.dealt(GAME, seed)
    before = table.key()
    result = solve(table, Budget(seconds=10.0))  # the solver hands it to this search
    assert result.verdict is Verdict.SOLVED
    assert table.key() == before
    board = table.copy()
    for move in result.moves:
        board.play(move)
    assert board.outcome() is Outcome.WON


def test_the_other_deals_are_proved_lost_by_the_key() -> None:
    """Seeds 0-999 but ``WON_SEEDS``: each proved lost at once, by the key (at most a payment first)."""
    for seed in range(1000):
        if seed in WON_SEEDS:
            continue
        result = queens_search.solve(Table.dealt(GAME, seed), Budget(nodes=100_000, seconds=None))
        assert result.verdict is Verdict.UNSOLVABLE, seed
        assert result.nodes <= 2, seed


def _talon_of_everything(seed: int, pack: int) -> Table:
    """Deal ``seed`` with no key, its other cards shuffled (``random.Random(seed)``), ``pack`` of them in the pack
    and the rest in the talon, a card played since the last payment or not (at random)."""
    rng = random.Random(seed)
    data = table_to_json(Table.dealt(GAME, seed))
    piles = data["piles"]
    cards = [card.upper() for card in piles["k"] + piles["s"]]
    rng.shuffle(cards)
    piles["k"], piles["s"], piles["w"] = [], [card.lower() for card in cards[:pack]], cards[pack:]
    data["state"] = {"played_since_payment": rng.randrange(2), "turned": 0}
    return table_from_json(data)


def test_a_budget_leaves_a_position_undecided_and_reports_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 25 with no key and 68 of its cards in the talon is neither won nor proved lost within 3 s (3.4
    million positions): a budget of positions stops it there, reporting progress as it goes."""
    table = _talon_of_everything(25, 29)
    verdict, steps, nodes, _ = queens_search._search(table, Budget(nodes=100_000, seconds=None), None)
    assert (verdict, steps) == (Verdict.UNKNOWN, [])
    assert 100_000 <= nodes < 101_000
    monkeypatch.setattr(queens_search, "_PROGRESS_EVERY", 4096)
    calls: list[tuple[int, float]] = []
    result = queens_search.solve(table, Budget(nodes=2 * 4096 + 1, seconds=None), lambda n, s: calls.append((n, s)))
    assert result.verdict is Verdict.UNKNOWN
    assert [n for n, _ in calls] == [4096, 8192]

    def stop(nodes: int, seconds: float) -> None:
        raise RuntimeError(f"stopped at {nodes}")

    with pytest.raises(RuntimeError, match=r"stopped at 4096$"):
        queens_search.solve(table, Budget(nodes=None, seconds=60.0), stop)


def test_positions_it_cannot_take() -> None:
    table = Table.dealt(GAME, 0)
    assert queens_search.fits(table)
    assert not queens_search.fits(Table.dealt(find_game("klondike"), 0))
    data = table_to_json(table)
    data["piles"]["s"][0] = "??"
    assert not queens_search.fits(table_from_json(data))
    data = table_to_json(table)
    data["piles"]["h1"].append(data["piles"]["k"].pop())  # the 4 of spades onto the 2 of clubs: no run
    assert not queens_search.fits(table_from_json(data))
    with pytest.raises(ValueError, match="cannot take"):
        queens_search.solve(Table.dealt(find_game("klondike"), 0))


def test_hints_follow_a_win_found_by_the_search() -> None:
    """A camera sees the key, the shutter and the talon but not the pack: on a deal the key lets through, every
    way the pack may lie is won, and played hint by hint the deal is won."""
    table = Table.dealt(GAME, 212)
    data = table_to_json(table)
    data["piles"]["s"] = ["??"] * len(data["piles"]["s"])
    unseen = table_from_json(data)
    assert hints._searcher(unseen, compiled=True) is hints._Search.QUEENS
    advice = hints.hint(unseen, nodes=hints.nodes_for_seconds(1.0), seed=0)
    assert (str(advice.move), advice.chance, advice.samples) == ("k:14>s", 1.0, 64)  # Rule IV: the only move
    board = table.copy()
    for move in queens_search.solve(table).moves[:250]:  # the hints play the last hundred moves and more
        board.play(move)
    history: list[Table] = []
    for _ in range(500):
        if board.outcome() is not None:
            break
        advice = hints.hint(board, nodes=hints.nodes_for_seconds(1.0), seed=0, history=history)
        assert advice.move is not None
        history.append(board.copy())
        board.play(advice.move)
    assert board.outcome() is Outcome.WON


def test_cli_solves_a_seeded_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "the-queens", "--seed", "333", "--budget", "10s"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "solved"
    table = Table.dealt(GAME, 333)
    for notation in lines[1:]:
        table.play(notation)
    assert table.outcome() is Outcome.WON
    assert main(["solve", "the-queens", "--seed", "0", "--budget", "10s", "--explain"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "unsolvable",
        "lost whatever is played: the key holds the spades in an order their two foundations cannot take: a spade "
        "in the key would have to go up before a spade it needs, which lies under it in the key",
    ]


@pytest.mark.parametrize(("seed", "suit"), [(0, "spades"), (38, "spades"), (461, "clubs"), (212, None)])
def test_a_loss_by_the_key_says_which_suit(seed: int, suit: str | None) -> None:
    """Deal 0's spades block it; deal 38 pays for a queen first, and then its spades do; deal 461 pays for two
    queens first; deal 212 is won."""
    table = Table.dealt(GAME, seed)
    reason = queens_search.key_reason(table)
    assert (reason is None) is (suit is None)
    if suit is not None:
        assert reason is not None
        assert f"the key holds the {suit} in an order" in reason
        assert solve(table).reason == reason
    else:
        assert solve(table).reason is None
