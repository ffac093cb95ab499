"""The exact solver: hand-made end positions with known answers per game, seeded deals replayed through
``Table.play``, soundness of the pruning rules, budgets, and the ``cadogan solve`` command."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cadogan.__main__ import main
from engine.formats import dumps
from engine.games import GAMES, find_game
from engine.moves import Move
from engine.solver import Budget, UnknownCardsError, Verdict, replay, solve
from engine.solver_best import guide
from engine.solver_rules import canonical_key, key_parts, rank_moves, safe_move, solver_rules
from engine.table import Table
from engine.testing import KLONDIKE_TRAP, make_table, playout

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def run_of(suit: str, first: int = 1, last: int = 13) -> str:
    """Cards of one suit from rank ``first`` to ``last`` as table text, e.g. run_of("S", 1, 3) = 'AS 2S 3S'."""
    return " ".join(RANKS[r - 1] + suit for r in range(first, last + 1))


def klondike_end(spades: int, **piles: str) -> dict[str, str]:
    """Klondike piles with hearts, diamonds and clubs complete and spades built to ``spades``."""
    return {"f1": run_of("S", 1, spades), "f2": run_of("H"), "f3": run_of("D"), "f4": run_of("C"), **piles}


def locked_draw3() -> dict[str, str]:
    """Seven black tops that build on nothing, aces face down beneath them, and a stock of low red cards:
    the stock turns round and round but no card ever finds a place."""
    tops = ["KS", "KC", "QS", "QC", "JS", "JC", "10S"]
    stock = ["2h", "3h", "4d", "5d"]
    used = {card.upper() for card in tops + stock}
    rest = [r + s for s in "SHDC" for r in RANKS if r + s not in used]
    piles = {"s": " ".join(stock)}
    for n, top in enumerate(tops):
        down = rest[n::7]
        piles[f"t{n + 1}"] = " ".join([card.lower() for card in down] + [top])
    return piles


# (game, piles, extra table fields, verdict). The Canfield positions were met along seeded games.
POSITIONS: dict[str, tuple[str, dict[str, str], dict[str, object], Verdict]] = {
    "klondike-solvable": ("klondike", klondike_end(9, t1="KS QS", t2="JS", s="10s"), {}, Verdict.SOLVED),
    # The queen covers the jack and no red king can come down to take her (1914: foundations keep their cards).
    "klondike-blocked": ("klondike", klondike_end(10, t1="js QS", t2="KS"), {}, Verdict.UNSOLVABLE),
    # Not blocked at once: the 10 plays up and the king goes to a space, then nothing frees the jack.
    "klondike-deep-unsolvable": ("klondike", klondike_end(9, t1="js QS", s="ks 10s"), {}, Verdict.UNSOLVABLE),
    # Met along seed 1914-style play: the 8 of diamonds must go on the 9 of spades, not up to its foundation.
    "klondike-trap": (
        "klondike",
        KLONDIKE_TRAP,
        {"pass": 1},
        Verdict.SOLVED,
    ),
    "draw3-solvable": (
        "klondike/draw3",
        klondike_end(8, t1="QS", s="10s 9s ks js"),
        {},
        Verdict.SOLVED,
    ),
    # The same position wins under modern rules: a red king comes down from its foundation to take the queen.
    "draw3-comes-back": ("klondike/draw3", klondike_end(10, t1="js QS", t2="KS"), {}, Verdict.SOLVED),
    "draw3-unsolvable": ("klondike/draw3", locked_draw3(), {}, Verdict.UNSOLVABLE),
    # Turning the stock buries the jack of hearts for good: it must go on the queen of spades first.
    "draw3-trap": (
        "klondike/draw3",
        {
            "s": "10c 9h",
            "w": "6C QH 8S 3H JH",
            "f1": "AD 2D 3D 4D 5D 6D 7D",
            "f2": "AC 2C 3C 4C 5C",
            "f3": "AH 2H",
            "f4": "AS 2S 3S 4S",
            "t1": "KH QC JD 10S 9D 8C 7H 6S 5H",
            "t2": "KD QS",
            "t3": "KC QD JS 10D 9S 8H 7C 6H 5S 4H",
            "t4": "JC 10H 9C 8D 7S",
            "t5": "KS",
        },
        {"pass": 11},
        Verdict.SOLVED,
    ),
    "canfield-solvable": (
        "canfield",
        {
            "s": "3s",
            "w": "6C 5H 6H 4S KS 4D 6S QS",
            "f1": "7C 8C 9C 10C JC QC KC AC",
            "f2": "7S 8S 9S 10S JS",
            "f3": "7D 8D 9D 10D JD QD KD AD",
            "f4": "7H 8H 9H 10H JH QH KH AH 2H",
            "t1": "5S",
            "t2": "3D 2C",
            "t3": "5D 4C 3H 2S",
            "t4": "6D 5C 4H 3C 2D AS",
        },
        {"pass": 12, "waste_played": True},
        Verdict.SOLVED,
    ),
    "canfield-unsolvable": (
        "canfield",
        {
            "w": "6C 5H 6H 4S KS 4D 6S QS 3S",
            "f1": "7C 8C 9C 10C JC QC KC AC",
            "f2": "7S 8S 9S 10S JS",
            "f3": "7D 8D 9D 10D JD QD KD AD",
            "f4": "7H 8H 9H 10H JH QH KH AH 2H",
            "t1": "5S",
            "t2": "3D 2C",
            "t3": "5D 4C 3H 2S",
            "t4": "6D 5C 4H 3C 2D AS",
        },
        {"pass": 12, "waste_played": True},
        Verdict.UNSOLVABLE,
    ),
    "canfield-modern-solvable": (
        "canfield/modern",
        {
            "s": "Ah",
            "w": "QH JS",
            "f1": "4S 5S 6S 7S 8S 9S 10S",
            "f2": "4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "f3": "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C",
            "f4": "4H 5H 6H 7H 8H 9H 10H JH",
            "t1": "3S 2D",
            "t2": "3C 2H AS KH QS",
            "t3": "3D",
            "t4": "3H 2S AD KS",
        },
        {"pass": 6},
        Verdict.SOLVED,
    ),
    "canfield-modern-unsolvable": (
        "canfield/modern",
        {
            "s": "3d 10h 3s 9h",
            "w": "JC",
            "f1": "4H 5H 6H 7H 8H",
            "f2": "4C 5C 6C 7C 8C 9C 10C",
            "f3": "4D 5D 6D 7D 8D 9D 10D JD QD KD",
            "f4": "4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
            "t1": "2C AH",
            "t2": "2H AC KH QC JH",
            "t3": "3H 2S AD KC QH",
            "t4": "3C 2D",
        },
        {"pass": 9},
        Verdict.UNSOLVABLE,
    ),
}

# Positions whose first generated move loses while another wins: the solver must not take the obvious one.
TRAPS = ("klondike-trap", "draw3-trap", "canfield-solvable", "canfield-modern-solvable")


def position(name: str) -> Table:
    game, piles, extra, _ = POSITIONS[name]
    return make_table(game, piles, "play", **extra)


@pytest.mark.parametrize(
    ("best_first", "compiled"),
    [(True, False), (False, False), (True, True)],
    ids=["best-first", "depth-first", "compiled-core"],
)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_known_answers(name: str, best_first: bool, compiled: bool) -> None:
    """Every search answers right: the Python solver both ways, and the compiled core where the game has
    Klondike's shape (the others fall back to the Python solver)."""
    table = position(name)
    before = table.key()
    result = solve(table, Budget(nodes=200_000, seconds=None), best_first=best_first, compiled=compiled)
    assert result.verdict is POSITIONS[name][3]
    assert table.key() == before, "solve must leave the table as it found it"
    if result.verdict is Verdict.SOLVED:
        assert replay(table, result.moves).foundation_count() == 52


def plain_search(table: Table, limit: int, won: Callable[[Table], bool] | None = None) -> bool | None:
    """Win reachable? An exhaustive search with no pruning, no symmetry and no automatic moves (None: too big).
    ``won``: the game's own win where it is not every card on the foundations (The Great Thirteen)."""
    seen = {table.key()}
    stack = [iter(table.generate_moves())]
    while stack:
        move = next(stack[-1], None)
        if move is None:
            stack.pop()
            if stack:
                table.pop()
            continue
        table.push(move)
        key = table.key()
        if key in seen:
            table.pop()
            continue
        if won(table) if won is not None else table.foundation_count() == table.game.card_count:
            return True
        seen.add(key)
        if len(seen) > limit:
            return None
        stack.append(iter(table.generate_moves()))
    return False


SMALL = [n for n in sorted(POSITIONS) if n.startswith(("klondike-", "canfield-")) and "modern" not in n]


@pytest.mark.parametrize("name", SMALL)
def test_pruning_agrees_with_a_plain_search(name: str) -> None:
    """The symmetry, mirror and safe-move rules never turn a win into a loss (nor the reverse).

    Only where a plain search stays small: with foundation cards coming back (draw3) or unlimited passes
    over whole-column moves (modern Canfield) it does not, and those positions are left to the trap tests.
    """
    table = position(name)
    tables = [table]
    for move in table.generate_moves():
        child = table.copy()
        child.push(move)
        tables.append(child)
    compared = 0
    for each in tables:
        ours = solve(each, Budget(nodes=5_000, seconds=None)).verdict
        if ours is Verdict.UNKNOWN:
            continue
        plain = plain_search(each.copy(), 5_000)
        if plain is not None:
            assert (ours is Verdict.SOLVED) == plain
            compared += 1
    assert compared


@pytest.mark.parametrize("name", TRAPS)
def test_trap_needs_the_non_obvious_move(name: str) -> None:
    table = position(name)
    first = table.generate_moves()[0]
    table.push(first)
    assert solve(table, Budget(nodes=100_000, seconds=None)).verdict is Verdict.UNSOLVABLE
    table.pop()
    result = solve(table)
    assert result.verdict is Verdict.SOLVED
    assert result.moves[0] != first


@pytest.mark.parametrize(
    ("game", "seed"),
    [("klondike/draw3", 1), ("klondike/draw3", 9), ("canfield", 12), ("canfield/modern", 4)],
)
def test_seeded_deals_solve_and_replay(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    result = solve(table, Budget(nodes=100_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert replay(table, result.moves).foundation_count() == 52


@pytest.mark.parametrize(
    ("game", "seed"),
    [("klondike/draw3", 0), ("klondike/draw3", 8), ("klondike", 3), ("canfield", 12), ("canfield/modern", 4)],
)
def test_packed_children_match_the_table(game: str, seed: int) -> None:
    """Best-first search makes children on packed piles for games without hooks (``_Plain``): the same search
    over ``Table.push`` must meet the same positions in the same order, node for node."""
    from engine import solver_best
    from engine.solver import _Search

    table = Table.dealt(find_game(game), seed)
    results = []
    for run in (solver_best.best_first_plain, solver_best.best_first_table):
        search = _Search(table.copy(), Budget(nodes=4_000, seconds=None), None, 0.0)
        expanded: list[tuple[object, ...]] = []

        def recorded(
            search: _Search = search, expanded: list[tuple[object, ...]] = expanded, children: Any = search._children
        ) -> object:
            expanded.append(search.table.key()[:4])
            return children()

        def recorded_packed(
            piles: list[bytes],
            down: list[int],
            passes: int,
            played: bool,
            expanded: list[tuple[object, ...]] = expanded,
            children: Any = search.children_packed,
        ) -> object:
            expanded.append((tuple(tuple(pile) for pile in piles), tuple(down), passes, played))
            return children(piles, down, passes, played)

        search._children = recorded  # type: ignore[method-assign]
        search.children_packed = recorded_packed  # type: ignore[method-assign]
        results.append((run(search), search.nodes, search.path, expanded))
    assert len(results[0][3]) > 10
    assert results[0] == results[1]


@pytest.mark.parametrize("game", [game.name for game in GAMES if game.hooks is None])
def test_packed_moves_match_the_table(game: str) -> None:
    """The search's move generator on packed piles (``engine.solver._Moves``) gives ``Table.generate_moves``'s
    moves in the same order, along random playouts."""
    from engine.solver import _moves_for

    rules = solver_rules(find_game(game))
    generator = _moves_for(rules, find_game(game))
    compared = 0
    for seed in range(3):
        for table in playout(find_game(game), seed, 120):
            cards, down = key_parts(table.key())
            piles = [bytes(pile) for pile in cards]
            assert generator.moves(piles, list(down), table.passes, table.waste_played) == table.generate_moves()
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("game", ["klondike/draw3", "klondike", "klondike/vegas-draw3", "canfield", "canfield/modern"])
def test_stock_turned_on_lists_matches_the_table(game: str) -> None:
    """``_Search._turns`` turns copies of the stock and waste; pushing the turns on the table gives the same."""
    from engine.solver import _Search

    compared = 0
    for seed in range(3):
        for table in playout(find_game(game), seed, 150):
            search = _Search(table.copy(), Budget(), None, 0.0)
            moves = table.generate_moves()
            turn = next((m for m in moves if m.src == "s" or m.dst == "s"), None)
            if turn is None:
                continue
            cards, down = key_parts(table.key())
            assert search._turns(turn, cards, down) == search._turns_on_table(turn)
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("game", [game.name for game in GAMES])
def test_every_game_is_searched_within_budget(game: str) -> None:
    table = Table.dealt(find_game(game), 1)
    result = solve(table, Budget(nodes=3_000, seconds=None))
    assert result.nodes <= 3_000
    if result.verdict is Verdict.SOLVED:
        assert replay(table, result.moves).foundation_count() == table.game.card_count
    elif result.verdict is Verdict.UNSOLVABLE:  # proved at once: The Queens' key (engine.queens_search)
        assert game == "the-queens"
        assert result.reason is not None
    else:
        assert result.verdict is Verdict.UNKNOWN


@pytest.mark.parametrize("seed", [1, 30])
def test_searches_taking_short_turns_still_answer(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The steered and the plain search pause and resume every few nodes: the answer still replays, and the
    two together keep to the node budget."""
    from engine import solver_best

    monkeypatch.setattr(solver_best, "SLICES", (37, 23))
    table = Table.dealt(find_game("klondike/draw3"), seed)
    result = solve(table, Budget(nodes=60_000, seconds=None), compiled=False)
    assert result.nodes <= 60_000
    assert result.verdict is Verdict.SOLVED
    assert replay(table, result.moves).foundation_count() == 52
    lost = solve(position("draw3-unsolvable"), Budget(nodes=60_000, seconds=None), compiled=False)
    assert lost.verdict is Verdict.UNSOLVABLE


def test_node_budget_gives_unknown() -> None:
    result = solve(Table.dealt(find_game("klondike/draw3"), 4), Budget(nodes=500, seconds=None))
    assert result.verdict is Verdict.UNKNOWN
    assert result.moves == ()
    assert result.nodes == 500


def test_unknown_cards_are_refused() -> None:
    with pytest.raises(UnknownCardsError, match="unknown"):
        solve(make_table("klondike", klondike_end(10, t1="?? QS")))


def test_mirror_positions_share_a_key() -> None:
    rules = solver_rules(find_game("klondike"))
    one = make_table("klondike", klondike_end(10, t1="js QS", t2="KS"))
    two = make_table("klondike", klondike_end(10, t5="js QS", t7="KS"))
    other = make_table("klondike", klondike_end(10, t1="js QS", t2="ks"))
    assert canonical_key(rules, one.key()) == canonical_key(rules, two.key())
    assert canonical_key(rules, one.key()) != canonical_key(rules, other.key())


def test_safe_moves_wait_for_the_cards_they_could_hold() -> None:
    rules = solver_rules(find_game("klondike"))
    # The 2 of hearts could still hold the ace of clubs until both black aces are up.
    early = make_table("klondike", {"f1": "AH", "t1": "2H", "t2": "AC"})
    move = safe_move(rules, key_parts(early.key())[0], early.generate_moves())
    assert move is not None
    assert str(move).startswith("t2>")  # the ace goes first: nothing builds on an ace
    later = make_table("klondike", {"f1": "AH", "f2": "AC", "f3": "AS", "t1": "2H"})
    assert safe_move(rules, key_parts(later.key())[0], later.generate_moves()) is not None
    held = make_table("klondike", {"f1": "AH", "f2": "AC", "t1": "2H", "t2": "AS 3C"})
    moves = [m for m in held.generate_moves() if m.src == "t1"]
    assert safe_move(rules, key_parts(held.key())[0], moves) is None


def test_draw3_plays_only_aces_and_twos_automatically() -> None:
    # Foundation cards come back in modern Klondike, so a card that can hold another is not forced up while
    # that other card may still want it, except a two: it holds only aces, and an ace can always go straight up.
    rules = solver_rules(find_game("klondike/draw3"))
    two = make_table("klondike/draw3", {"f1": "AH", "t1": "2H"})
    assert str(safe_move(rules, key_parts(two.key())[0], two.generate_moves())) == "t1>f1"
    # The ace of spades is not up: it may still want the two of spades, which may want the three of hearts.
    table = make_table("klondike/draw3", {"f1": "AH 2H", "f2": "AC 2C", "t1": "3H", "t2": "KS"})
    assert safe_move(rules, key_parts(table.key())[0], table.generate_moves()) is None
    waste = make_table("klondike/draw3", {"f1": "AH", "w": "2H"})
    assert safe_move(rules, key_parts(waste.key())[0], waste.generate_moves()) is None


@pytest.mark.parametrize(
    ("foundations", "up"),
    [
        ({"f1": "AH 2H 3H", "f2": "AC 2C", "f3": "AS 2S", "f4": "AD"}, True),  # black up to 2, diamonds to 1
        ({"f1": "AH 2H 3H", "f2": "AC 2C 3C 4C 5C", "f3": "AS 2S", "f4": "AD"}, True),
        ({"f1": "AH 2H 3H", "f2": "AC 2C", "f3": "AS 2S"}, False),  # the three of diamonds may want a black four
        ({"f1": "AH 2H 3H", "f2": "AC", "f3": "AS 2S", "f4": "AD 2D 3D"}, False),  # the two of clubs may want a red 3
    ],
)
def test_draw3_plays_a_card_up_for_good_by_kellers_rule(foundations: dict[str, str], up: bool) -> None:
    # The four of hearts goes up at once when both black suits are up to the two and diamonds to the ace:
    # every card that could want it as a holder, or want those, can go up itself.
    rules = solver_rules(find_game("klondike/draw3"))
    table = make_table("klondike/draw3", {**foundations, "t1": "4H", "t2": "KS"})
    moves = table.generate_moves()
    assert (str(safe_move(rules, key_parts(table.key())[0], moves)) == "t1>f1") is up
    # ... and once up it is not taken back down (it would go straight back up).
    on_top = make_table("klondike/draw3", {**foundations, "f1": "AH 2H 3H 4H", "t2": "5S"})
    cards, down = key_parts(on_top.key())
    ranked = [str(move) for *_, move in rank_moves(rules, cards, down, on_top.generate_moves())]
    assert ("f1>t2" not in ranked) is up


def test_draw3_waste_card_up_for_good_is_not_built_on_a_column() -> None:
    rules = solver_rules(find_game("klondike/draw3"))
    table = make_table("klondike/draw3", {"f1": "AH 2H", "f2": "AC", "f3": "AS", "w": "3H", "t1": "4S"})
    cards, down = key_parts(table.key())
    plays = [str(move) for *_, move in rank_moves(rules, cards, down, table.generate_moves()) if move.dst != "s"]
    assert plays == ["w>f1"]
    # Not up for good (the ace of spades may want the two of hearts... and the three): built, or up.
    held = make_table("klondike/draw3", {"f1": "AH 2H", "f2": "AC", "w": "3H", "t1": "4S", "t2": "KD"})
    cards, down = key_parts(held.key())
    ranked = {str(move) for *_, move in rank_moves(rules, cards, down, held.generate_moves())}
    assert {"w>f1", "w>t1"} <= ranked


@pytest.mark.parametrize("game", ["klondike/draw3", "klondike/modern"])
def test_a_run_is_split_only_to_free_a_card_for_a_foundation(game: str) -> None:
    # The eight of hearts may move onto the nine of clubs off the nine of spades only when the nine can go up.
    rules = solver_rules(find_game(game))
    piles = {"t1": "5d 9S 8H", "t2": "9C", "t3": "KD"}
    table = make_table(game, {**piles, "f1": run_of("S", 1, 7)})
    cards, down = key_parts(table.key())
    assert "t1>t2" not in [str(move) for *_, move in rank_moves(rules, cards, down, table.generate_moves())]
    ready = make_table(game, {**piles, "f1": run_of("S", 1, 8)})
    cards, down = key_parts(ready.key())
    assert "t1>t2" in [str(move) for *_, move in rank_moves(rules, cards, down, ready.generate_moves())]
    # The 1914 rules move a run only as a whole: nothing to split, nothing pruned.
    assert not solver_rules(find_game("klondike")).partial_up


def random_draw3_ending(seed: int) -> Table:
    """A draw-3 position near the end: each suit up to a random height, the other cards shuffled into three
    columns (some face down) and the stock."""
    rng = random.Random(seed)
    heights = [rng.randint(3, 9) for _ in range(4)]
    piles = {f"f{n + 1}": run_of(suit, 1, heights[n]) for n, suit in enumerate("SHDC")}
    rest = [RANKS[r - 1] + suit for n, suit in enumerate("SHDC") for r in range(heights[n] + 1, 14)]
    rng.shuffle(rest)
    stock = rest[: len(rest) // 3]
    columns = rest[len(stock) :]
    piles["s"] = " ".join(card.lower() for card in stock)
    for n in range(3):
        column = columns[n::3]
        down = len(column) - rng.randint(1, 2)
        piles[f"t{n + 1}"] = " ".join([card.lower() for card in column[:down]] + column[down:])
    return make_table("klondike/draw3", piles, "play")


def test_draw3_low_cards_rule_keeps_every_win(monkeypatch: pytest.MonkeyPatch) -> None:
    """Draw-3 endings searched to the end with the rule for low cards (up at once, never back down) and
    without it: the same verdict, over both won and lost endings."""
    import dataclasses

    from engine import solver

    endings = [random_draw3_ending(seed) for seed in range(30)]
    budget = Budget(nodes=8_000, seconds=None)
    ours = [solve(table, budget, compiled=False).verdict for table in endings]
    off = dataclasses.replace(solver_rules(find_game("klondike/draw3")), low_first=False)
    monkeypatch.setattr(solver, "solver_rules", lambda game: off)
    without = [solve(table, budget, compiled=False).verdict for table in endings]
    decided = [(one, other) for one, other in zip(ours, without, strict=True) if Verdict.UNKNOWN not in (one, other)]
    assert [one for one, _ in decided] == [other for _, other in decided]
    assert Verdict.SOLVED in [one for one, _ in decided]
    assert Verdict.UNSOLVABLE in [one for one, _ in decided]


def random_klondike_ending(game: str, seed: int) -> Table:
    """A Klondike position near the end with face-up runs to split: each suit up to a random height, three to
    seven columns of face-down cards under an alternate-colour run, the rest in the stock."""
    rng = random.Random(seed)
    heights = [rng.randint(0, 7) for _ in range(4)]
    piles = {f"f{n + 1}": run_of(suit, 1, heights[n]) for n, suit in enumerate("SHDC")}
    pool = [(rank, suit) for n, suit in enumerate("SHDC") for rank in range(heights[n] + 1, 14)]
    rng.shuffle(pool)
    stock = pool[: rng.randint(0, len(pool) // 3)]
    del pool[: len(stock)]
    for n in range(rng.randint(3, 7)):
        down = pool[: rng.randint(0, 5)]
        del pool[: len(down)]
        run = [pool.pop(rng.randrange(len(pool)))] if pool else []
        while run and rng.random() < 0.8:
            rank, suit = run[-1]
            fits = [c for c in pool if c[0] == rank - 1 and (c[1] in "HD") != (suit in "HD")]
            if not fits:
                break
            run.append(fits[rng.randrange(len(fits))])
            pool.remove(run[-1])
        piles[f"t{n + 1}"] = " ".join([RANKS[r - 1] + x.lower() for r, x in down] + [RANKS[r - 1] + x for r, x in run])
    piles["s"] = " ".join(RANKS[r - 1] + x.lower() for r, x in pool + stock)
    return make_table(game, piles, "play")


@pytest.mark.parametrize("game", ["klondike/draw3", "klondike/modern"])
def test_keller_and_split_rules_keep_every_win(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Klondike endings with runs searched to the end with Keller's rule and the split rule, and with neither
    (only aces and twos up at once, any split): the same verdict, over both won and lost endings."""
    import dataclasses

    from engine import solver

    endings = [random_klondike_ending(game, seed) for seed in range(40)]
    budget = Budget(nodes=6_000, seconds=None)
    ours = [solve(table, budget, compiled=False).verdict for table in endings]
    off = dataclasses.replace(solver_rules(find_game(game)), low_first=False, partial_up=False)
    monkeypatch.setattr(solver, "solver_rules", lambda _: off)
    without = [solve(table, budget, compiled=False).verdict for table in endings]
    decided = [(one, other) for one, other in zip(ours, without, strict=True) if Verdict.UNKNOWN not in (one, other)]
    assert len(decided) >= 20
    assert [one for one, _ in decided] == [other for _, other in decided]
    assert Verdict.SOLVED in [one for one, _ in decided]
    if game == "klondike/draw3":  # drawing one, these endings are all won
        assert Verdict.UNSOLVABLE in [one for one, _ in decided]


# ----------------------------------------------------------------- the compiled core (engine.klondike_core)

KLONDIKE_SHAPED = ["klondike/draw3", "klondike/modern", "klondike", "klondike/vegas", "klondike/vegas-draw3"]


@pytest.mark.parametrize("game", KLONDIKE_SHAPED)
def test_compiled_core_agrees_with_the_python_search(game: str) -> None:
    """Endings with runs to split and a stock, searched by the compiled core (its own pruning: a foundation card
    brought down is used at once, a king goes into a column just emptied, nothing else goes up after a turn)
    and by the Python solver: the same verdict on every ending both decide, won and lost alike."""
    endings = [random_klondike_ending(game, seed) for seed in range(36)]
    core = [solve(table, Budget(nodes=400_000, seconds=None)) for table in endings]
    python = [solve(table, Budget(nodes=5_000, seconds=None), compiled=False).verdict for table in endings]
    decided = [(one.verdict, other) for one, other in zip(core, python, strict=True) if other is not Verdict.UNKNOWN]
    assert len(decided) >= 15
    assert [one for one, _ in decided] == [other for _, other in decided]
    assert Verdict.SOLVED in [one for one, _ in decided]
    for table, result in zip(endings, core, strict=True):
        if result.verdict is Verdict.SOLVED:
            assert replay(table, result.moves).foundation_count() == 52


def test_compiled_core_agrees_on_draw3_endings_with_a_stock() -> None:
    """Draw-3 endings with several cards face down and a stock to turn round: the core and the Python solver
    (whose rules ``test_draw3_low_cards_rule_keeps_every_win`` checks against a search without them) agree."""
    endings = [random_draw3_ending(seed) for seed in range(30)]
    core = [solve(table, Budget(nodes=400_000, seconds=None)).verdict for table in endings]
    python = [solve(table, Budget(nodes=8_000, seconds=None), compiled=False).verdict for table in endings]
    decided = [(one, other) for one, other in zip(core, python, strict=True) if Verdict.UNKNOWN not in (one, other)]
    assert len(decided) >= 15
    assert [one for one, _ in decided] == [other for _, other in decided]
    assert {Verdict.SOLVED, Verdict.UNSOLVABLE} <= {one for one, _ in decided}


@pytest.mark.parametrize("game", ["klondike/draw3", "klondike/modern", "klondike/vegas-draw3"])
def test_twin_blind_search_agrees_with_the_plain_core(game: str) -> None:
    """The twin-blind search (positions told apart only by which cards are up, turned, face down or at a column's
    bottom, not by which of two twins a run lies on) against the core's plain search, on endings with runs and a
    stock and on whole deals: the same verdict wherever both decide, won and lost alike."""
    from engine import klondike_core

    tables = [random_klondike_ending(game, seed) for seed in range(60)]
    tables += [random_draw3_ending(seed) for seed in range(30)] if game == "klondike/draw3" else []
    tables += [Table.dealt(find_game(game), seed) for seed in range(12)]
    budget = Budget(nodes=300_000, seconds=None)
    twin = [klondike_core.solve(table, budget, twin_blind=True).verdict for table in tables]
    plain = [klondike_core.solve(table, budget, twin_blind=False).verdict for table in tables]
    decided = [(one, other) for one, other in zip(twin, plain, strict=True) if Verdict.UNKNOWN not in (one, other)]
    assert len(decided) >= 40
    assert [one for one, _ in decided] == [other for _, other in decided]
    assert {Verdict.SOLVED, Verdict.UNSOLVABLE} <= {one for one, _ in decided}
    # On these it decides every position the plain search decides (it has fewer positions to search).
    assert all(
        one is not Verdict.UNKNOWN for one, other in zip(twin, plain, strict=True) if other is not Verdict.UNKNOWN
    )


def test_twin_blind_wins_trade_a_run_between_twins() -> None:
    """A card under a run goes up by moving the run onto the card's twin first (the twin-blind search moves no
    other run off a face-up card): the core tells it as the two moves, and the engine replays them."""
    trades = 0
    for seed in range(12):
        table = Table.dealt(find_game("klondike/draw3"), seed)
        result = solve(table, Budget(nodes=2_000_000, seconds=None))
        assert result.verdict is Verdict.SOLVED
        board = table.copy()
        for move, after in zip(result.moves, (*result.moves[1:], None), strict=True):
            column = board.codes(move.src)
            left_up = len(column) - board.face_down_count(move.src) - move.count
            if move.src.startswith("t") and move.dst.startswith("t") and left_up > 0:
                assert after is not None
                assert after.src == move.src
                assert after.dst.startswith("f")
                under = column[-move.count - 1]
                onto = board.codes(move.dst)[-1]
                # the twin: the same rank, the other suit of the same colour (suits S H D C: S with C, H with D)
                assert onto % 13 == under % 13
                assert {onto // 13, under // 13} in ({0, 3}, {1, 2})
                trades += 1
            board.play(move)
        assert board.foundation_count() == 52
    assert trades > 0


@pytest.mark.parametrize("twin_blind", [True, False], ids=["twin-blind", "plain"])
def test_the_cores_table_keeps_every_position_as_it_grows(twin_blind: bool) -> None:
    """The transposition table doubles as it fills, moving its entries within the grown memory: a search whose
    table starts at 16 slots and grows some sixteen times makes exactly the positions of the same search in a
    table that never grows (a position lost in a growth would be searched again)."""
    from engine import klondike_core

    table = Table.dealt(find_game("klondike/draw3"), 12)
    budget = Budget(nodes=None, seconds=None)
    grown = klondike_core.solve(table, budget, twin_blind=twin_blind, table_bits=4)
    fixed = klondike_core.solve(table, budget, twin_blind=twin_blind, table_bits=21)
    assert grown.verdict is fixed.verdict is Verdict.UNSOLVABLE
    assert grown.nodes == fixed.nodes > 400_000


@pytest.mark.parametrize(("game", "seed"), [("klondike/draw3", 3), ("klondike/draw3", 6), ("klondike/modern", 2)])
def test_compiled_core_solves_seeded_deals(game: str, seed: int) -> None:
    """Whole deals: the core's solution, stock turns and passes included, replays through ``Table.play``."""
    from engine import klondike_core

    table = Table.dealt(find_game(game), seed)
    assert klondike_core.fits(table)
    result = solve(table, Budget(nodes=3_000_000, seconds=None))
    assert result.verdict is Verdict.SOLVED
    assert any(move.src == "s" for move in result.moves)
    assert replay(table, result.moves).foundation_count() == 52
    assert result.nodes < 3_000_000


def test_compiled_core_keeps_to_its_budget_and_reports_progress() -> None:
    seen: list[tuple[int, float]] = []
    table = Table.dealt(find_game("klondike/draw3"), 18)  # undecided after millions of positions
    result = solve(table, Budget(nodes=2_200_000, seconds=None), lambda nodes, cpu: seen.append((nodes, cpu)))
    assert result.verdict is Verdict.UNKNOWN
    assert result.nodes == 2_200_000
    assert [nodes for nodes, _ in seen] == [1 << 20, 2 << 20]
    assert solve(table, Budget(nodes=None, seconds=0.05)).verdict is Verdict.UNKNOWN


def test_compiled_core_takes_only_klondike_shaped_positions() -> None:
    from engine import klondike_core

    shapes = {game.name: klondike_core.shape(game) for game in GAMES}
    assert {name for name, shape in shapes.items() if shape is not None} == set(KLONDIKE_SHAPED)
    assert shapes["klondike/draw3"] == klondike_core.Shape(draw=3, passes=None, any_run=True, gives_back=True)
    assert shapes["klondike"] == klondike_core.Shape(draw=1, passes=1, any_run=False, gives_back=False)
    assert not klondike_core.fits(make_table("klondike", klondike_end(10, t1="?? QS")))
    assert not klondike_core.fits(Table.dealt(find_game("canfield"), 1))
    with pytest.raises(ValueError, match="cannot search"):
        klondike_core.solve(Table.dealt(find_game("canfield"), 1))


# ----------------------------------------------------------------- the command


def test_cli_solves_a_seeded_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "klondike/draw3", "--seed", "1", "--explain"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "solved"
    table = Table.dealt(find_game("klondike/draw3"), 1)
    for line in lines[1:]:
        notation, sentence = line.split(maxsplit=1)
        assert sentence == table.describe(Move.parse(notation))
        table.play(notation)
    assert table.foundation_count() == 52
    assert "positions" in err


def test_cli_solves_a_table_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    path.write_text(dumps(position("klondike-deep-unsolvable")))
    assert main(["solve", str(path), "--budget", "5s", "--quiet"]) == 0
    assert capsys.readouterr().out == "unsolvable\n"


def test_cli_refuses_unknown_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "live.json"
    path.write_text(dumps(make_table("klondike", klondike_end(10, t1="?? QS"))))
    assert main(["solve", str(path)]) == 2
    assert "cadogan hint" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "no-such-game"],
        ["solve", "klondike", "--budget", "soon"],
        ["solve", "missing.json"],
    ],
)
def test_cli_bad_input_is_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("cadogan solve:")


def test_best_first_reports_how_near_it_came() -> None:
    table = Table.dealt(find_game("klondike/draw3"), 6)
    short = solve(table, Budget(nodes=300, seconds=None), compiled=False)
    assert short.verdict is Verdict.UNKNOWN
    assert short.closest is not None
    assert 0 < short.closest < guide(table)
    assert solve(table, Budget(nodes=300, seconds=None), best_first=False, compiled=False).closest is None


def test_pyksolve_solutions_replay_through_the_engine() -> None:
    # the `bench` extra (pyksolve) is installed by `bash run`; bench/ imports when pytest runs from the repository
    import pyksolve.solver as pyksolve

    from bench.solver_vs_pyksolve import klondike_solver_moves, replays, run_pyksolve

    table = Table.dealt(find_game("klondike/draw3"), 1)
    verdict, _, text = run_pyksolve(pyksolve.Solitaire(), table, 200_000)
    assert verdict is Verdict.SOLVED
    moves = klondike_solver_moves(table, text)
    assert replays(table, moves)
    assert not replays(table, moves[:-1])


def test_per_game_lookups_build_once_per_record_and_share_equal_records() -> None:
    """``engine.layout.per_game`` (game_index, solver_rules, the compiled core's shape): the same record is built
    for once; an equal record made apart gets the same result, as ``functools.cache`` gave."""
    import dataclasses

    from engine.layout import per_game
    from engine.rules import Game

    built: list[str] = []

    @per_game
    def name_of(game: Game) -> str:
        built.append(game.name)
        return game.name.upper()

    game = find_game("klondike/draw3")
    twin = dataclasses.replace(game)
    assert twin is not game
    assert twin == game
    assert [name_of(game), name_of(game), name_of(twin)] == ["KLONDIKE/DRAW3"] * 3
    assert built == ["klondike/draw3"]
