"""The exact solver's search for The Queens, compiled (``engine/_queens.c``).

``engine.solver.solve`` hands a position of The Queens to this search. The generic search left every deal of
this game open at 10 s (sessions 19-48: 0 of 10), and nearly every deal is lost for a reason no search of moves
meets soon: **the key**. Its cards go up in the order they lie, top first, and only to the foundations (Rules II
and III), while each foundation takes one suit's cards in one order (king, ace, 2 ... queen). Two packs make two
foundations a suit, so a win splits each suit's 26 cards into two such chains; a key card goes up after the cards
of its chain below it in that order, so none of them may lie under it in the key. Where no split of some suit
does that, the position is lost whatever is played (``blocked``): a small search over each suit, rank by rank
from the queens down, two ways a rank at most (which copy goes to which chain), the cards on the foundations
already fixing their chains. The key only ever loses its top card to a foundation, but for the payment of a
queen on its top before any card is on a foundation (Rule IV), which sends cards out of it: the check waits while
one may come. Measured: seeds 0-1,999, **1,988 deals proved lost this way** before or just after the key's payment; the
12 others were all won, each within 500 positions.

The search itself makes the engine's own moves (``engine/games/queens.py``'s hooks: the key's payment and the key
first, the spaces refilled at once from the pack, the talon's payment) in C and keys a position on what the rules
tell apart:

- **The shutter piles as a set**: a shutter pile is always one suit's run down from its bottom card (cards marry
  one at a time, the next lower card of the same suit, and a space takes one card), so its suit, bottom card and
  length are the whole pile, and where a pile stands in the rows changes nothing.
- **A suit's two foundations as a set** of heights.
- The key's height, the pack and the talon in order, and the hooks' two flags (a card played since the last
  talon payment; the talon's top card just turned, the one an open space must take).

Children skip a move that reaches the very position another child reaches (a card onto the second of two
foundations of one suit and height or into a second space, a card from or onto a shutter pile like another) or
the position itself (a marriage between two piles of one bottom card only swaps their lengths).
A card to a foundation goes up as the only child where it is of no use anywhere else (``SAFE``): an ace (no card
marries onto an ace) or a card whose only partner on the shutter, the other copy of the card below it, is on a
foundation already; from the talon, or from a shutter pile it leaves a card on (emptying a pile would open a space
and force the pack's next cards into it). A position the key blocks has no children. Depth-first in one run
(positions the key lets through are won in a few hundred positions: no restarts). It answers ``SOLVED`` with the
moves (each replayed through ``Table.play``), ``UNSOLVABLE`` when the run met every position reachable, or
``UNKNOWN`` when the budget ran out. Each rule is checked against a plain search of the engine's moves
(``tests/engine/test_queens_search.py``).

>>> from engine.games import find_game
>>> from engine.table import Table
>>> solve(Table.dealt(find_game("the-queens"), 0)).verdict.value
'unsolvable'
>>> result = solve(Table.dealt(find_game("the-queens"), 212))
>>> result.verdict.value, len(result.moves) > 100
('solved', True)
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import UNKNOWN, Suit
from engine.games.queens import FOUNDATIONS, SHUTTER_IDS, THE_QUEENS
from engine.moves import Move
from engine.rules import Game
from engine.solver import COMPILED_VERDICTS, Budget, SolveResult, Verdict
from engine.table import Outcome, Table

try:
    from engine import _queens
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _queens = None  # type: ignore[assignment]

COMPILED = _queens is not None
"""Whether the compiled search was built (``pip install`` builds it); without it the generic search serves."""

MAX_ENTRIES = 1 << 26
"""Positions one run may keep in its table (16 bytes each, at most twice over for its free slots: 2 GiB at
most); past it the run stops as if the budget were spent."""
SAFE = True
"""A card of no use but on its foundation goes up as the only child (off only to test the rule)."""
_PROGRESS_EVERY = 1 << 22
"""About a report a second."""
PILES = ("s", "w", "k", *FOUNDATIONS, *SHUTTER_IDS)
"""The piles by the search's numbers: 0 the pack, 1 the talon, 2 the key, 3-10 the foundations, 11-17 the
shutter."""

Progress = Callable[[int, float], None]
Step = tuple[int, int, int]
"""A step of the search: (source, destination, count), piles numbered as ``PILES``."""


def takes(game: Game) -> bool:
    """Whether this search was built and ``game`` is The Queens."""
    return COMPILED and game is THE_QUEENS


def fits(table: Table) -> bool:
    """Whether this search takes the position: The Queens, the search built, every card known, nothing face down
    but the pack, and each pile as the game builds it (checked again by the search itself)."""
    if not takes(table.game) or table.faces or len(table.hook_state) != 2:
        return False
    for pile_id in table.pile_ids:
        if UNKNOWN in table.codes(pile_id) or (pile_id != "s" and table.face_down_count(pile_id)):
            return False
    try:
        _moves(table, dedup=True, safe=False)
    except ValueError:
        return False
    return True


def blocked(table: Table) -> bool:
    """Whether the key makes ``table`` (``fits``) lost: some suit's cards cannot make its two foundations without a
    key card going up after a card that lies under it in the key (the module doc)."""
    return _blocking_suit(table) is not None


def _blocking_suit(table: Table) -> Suit | None:
    if not fits(table):
        raise ValueError(f"The Queens' search cannot take this {table.game.name} position")
    assert _queens is not None  # fits says it was built
    suit = _queens.blocked(*_position(table))
    return None if suit < 0 else Suit(suit)


def key_reason(table: Table) -> str | None:
    """Why the key makes ``table`` (``fits``) lost whatever is played, in a sentence, or None where it does not
    (looked at after the key's payments while one is the only move)."""
    board = table.copy()
    while len(moves := board.generate_moves()) == 1 and moves[0].src == "k" and moves[0].dst == "s":
        board.play(moves[0])
    suit = _blocking_suit(board)
    if suit is None:
        return None
    return (
        f"the key holds the {suit.word} in an order their two foundations cannot take: a {suit.word[:-1]} in the "
        f"key would have to go up before a {suit.word[:-1]} it needs, which lies under it in the key"
    )


def legal_steps(table: Table, *, dedup: bool = False, safe: bool = False) -> list[Move]:
    """The moves the search makes from ``table`` (``fits``): every legal move, or with ``dedup`` one a position
    reached, and with ``safe`` a safe card's move alone where there is one. For tests against the engine's."""
    return [_engine_move(step) for step in _moves(table, dedup=dedup, safe=safe)]


def solve(table: Table, budget: Budget | None = None, progress: Progress | None = None) -> SolveResult:
    """``engine.solver.solve`` for a position ``fits`` takes (default budget: ``Budget()``); ``table`` is left
    unchanged."""
    verdict, steps, nodes, seconds = _search(table, Budget() if budget is None else budget, progress)
    moves = _engine_moves(table, steps) if verdict is Verdict.SOLVED else ()
    reason = key_reason(table) if verdict is Verdict.UNSOLVABLE else None
    return SolveResult(verdict, moves, nodes, seconds, reason=reason)


def judge(table: Table, nodes: int) -> tuple[Verdict, Move | None]:
    """A search of at most ``nodes`` positions for a hint's sample: the verdict, and for ``SOLVED`` the first
    move of the win found, without replaying the whole win as ``solve`` does."""
    verdict, steps, _, _ = _search(table, Budget(nodes=nodes, seconds=None), None)
    return verdict, _engine_move(steps[0]) if verdict is Verdict.SOLVED and steps else None


def _position(table: Table) -> tuple[bytes, bytes, bytes, list[bytes], list[bytes], int, int]:
    return (
        bytes(table.codes("k")),
        bytes(table.codes("s")),
        bytes(table.codes("w")),
        [bytes(table.codes(f)) for f in FOUNDATIONS],
        [bytes(table.codes(h)) for h in SHUTTER_IDS],
        table.hook_state[0],
        table.hook_state[1],
    )


def _moves(table: Table, *, dedup: bool, safe: bool) -> list[Step]:
    if _queens is None or not all(0 <= code < 52 for p in table.pile_ids for code in table.codes(p)):
        raise ValueError(f"The Queens' search cannot take this {table.game.name} position")
    return _queens.moves(*_position(table), dedup, safe)


def _search(
    table: Table, budget: Budget, progress: Progress | None, *, safe: bool = SAFE
) -> tuple[Verdict, list[Step], int, float]:
    """The compiled runs: the verdict, the win's steps as found, positions made and CPU seconds. ``safe``: the
    safe cards' rule (off only to test it)."""
    if not fits(table):
        raise ValueError(f"The Queens' search cannot take this {table.game.name} position")
    assert _queens is not None  # fits says it was built
    code, steps, nodes, seconds = _queens.solve(
        *_position(table),
        safe,
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        _PROGRESS_EVERY,
    )
    return COMPILED_VERDICTS[code], steps, nodes, seconds


def _engine_move(step: Step) -> Move:
    source, destination, count = step
    return Move(PILES[source], PILES[destination], count)


def _engine_moves(table: Table, steps: list[Step]) -> tuple[Move, ...]:
    """The search's steps as the engine's moves, each played (``Table.play`` checks it legal) on a copy."""
    board = table.copy()
    moves: list[Move] = []
    for step in steps:
        moves.append(_engine_move(step))
        board.play(moves[-1])
    if board.outcome() is not Outcome.WON:
        raise AssertionError("The Queens' search's solution does not win when replayed")
    return tuple(moves)
