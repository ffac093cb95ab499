"""The exact solver's search for Sly, compiled (``engine/_sly.c``).

``engine.solver.solve`` hands a position of Sly to this search. The generic search left every deal of this game
open at 10 s (sessions 19-48: 0 of 10): twenty packets to choose from for each of some eighty cards, each packet
told apart by its place, and no sense of which choice is good.

The search makes the engine's own moves (``engine/games/sly.py``'s hooks: a card placed before the next is
turned, the rounds of twenty, the plays and refills between rounds) in C and keys a position on **the packets as
a set** (any card may go on any packet, so a packet's place on the table never matters), each suit's two
foundations' heights, the pack's length, the turned card and the round's count. Children skip a move that
reaches the position another child reaches (a second vacancy, a packet like another, a second empty foundation
of a kind).

**Which packet first**: "it is advantageous to place cards in sequence … as they are then ready to be played",
and a card placed on a card wanted sooner blocks it. A card is wanted once its foundation has every card before
it (up from the ace or down from the king of its suit, whichever is nearer), each as soon as its first copy comes
free (on a packet's top or turned: at once; in the pack: as many turns on; under other cards: later still); of
two cards wanted at once, the one with fewer cards before it on its foundation first (the 4 of spades before the
5). The turned card goes first onto the packet whose top is wanted soonest after it, then onto a vacancy, then
onto a packet whose top is wanted before it, the top wanted latest first. Seeds 20-59 at 2 s a deal: 21 won
without the tie between cards wanted at once broken, 25 with it.

Depth-first: a first run in that order for ``FIRST_RUN`` positions, then runs of Luby lengths with random noise
(``NOISE``) added to the order, each with a fresh table (a fixed order spends its positions under one early
choice). Every run takes every child, so a run that meets every position proves the deal lost. It answers
``SOLVED`` with the moves (each replayed through ``Table.play``), ``UNSOLVABLE`` or ``UNKNOWN`` (the budget ran
out).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import UNKNOWN
from engine.games.sly import ACES, KINGS, PROMENADE, SLY
from engine.moves import Move
from engine.rules import Game
from engine.solver import COMPILED_VERDICTS, Budget, SolveResult, Verdict
from engine.table import Outcome, Table

try:
    from engine import _sly
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _sly = None  # type: ignore[assignment]

COMPILED = _sly is not None
"""Whether the compiled search was built (``pip install`` builds it); without it the generic search serves."""

MAX_ENTRIES = 1 << 26
"""Positions one run may keep in its table (16 bytes each, at most twice over for its free slots: 2 GiB at
most); past it the run stops as if the budget were spent."""
FIRST_RUN = 20_000
"""Positions the first run, in the order above, makes before the runs with noise begin."""
RESTART_UNIT = 500
"""Positions in a run of Luby length 1."""
NOISE = 1_600
"""The noise added to a placement's score (lower first: a fit scores 100 and up by how much later the packet's
top is wanted, 16 a turn; a vacancy 20,000; covering a card wanted sooner 30,000 and up, the later that one is
wanted the sooner). Measured on seeds 20-59 at 2 s a deal: noise 200, 800, 1,600, 3,200 and 6,400 won 19, 21,
25, 25 and 24; runs of 200 or 500 positions for Luby's 1, and a first run of 2,000 or 20,000, the same 25."""
_PROGRESS_EVERY = 1 << 22
"""About a report a second."""
PILES = ("s", "w", *ACES, *KINGS, *PROMENADE)
"""The piles by the search's numbers: 0 the pack, 1 the turned card, 2-9 the foundations, 10-29 the packets."""

Progress = Callable[[int, float], None]
Step = tuple[int, int]
"""A step of the search: (source, destination), piles numbered as ``PILES``."""


def takes(game: Game) -> bool:
    """Whether this search was built and ``game`` is Sly."""
    return COMPILED and game is SLY


def fits(table: Table) -> bool:
    """Whether this search takes the position: Sly, the search built, every card known, nothing face down but the
    pack, and each pile as the game builds it (checked again by the search itself)."""
    if not takes(table.game) or table.faces or len(table.hook_state) != 1:
        return False
    for pile_id in table.pile_ids:
        if UNKNOWN in table.codes(pile_id) or (pile_id != "s" and table.face_down_count(pile_id)):
            return False
    try:
        _moves(table, dedup=True)
    except ValueError:
        return False
    return True


def legal_steps(table: Table, *, dedup: bool = False) -> list[Move]:
    """The moves the search makes from ``table`` (``fits``), in its order: every legal move, or with ``dedup`` one
    a position reached. For tests against the engine's."""
    return [_engine_move(step) for step in _moves(table, dedup=dedup)]


def solve(table: Table, budget: Budget | None = None, progress: Progress | None = None) -> SolveResult:
    """``engine.solver.solve`` for a position ``fits`` takes (default budget: ``Budget()``); ``table`` is left
    unchanged."""
    verdict, steps, nodes, seconds = _search(table, Budget() if budget is None else budget, progress)
    moves = _engine_moves(table, steps) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, nodes, seconds)


def judge(table: Table, nodes: int) -> tuple[Verdict, Move | None]:
    """A search of at most ``nodes`` positions for a hint's sample: the verdict, and for ``SOLVED`` the first
    move of the win found, without replaying the whole win as ``solve`` does."""
    verdict, steps, _, _ = _search(table, Budget(nodes=nodes, seconds=None), None)
    return verdict, _engine_move(steps[0]) if verdict is Verdict.SOLVED and steps else None


def _position(table: Table) -> tuple[bytes, bytes, list[bytes], list[bytes], int]:
    return (
        bytes(table.codes("s")),
        bytes(table.codes("w")),
        [bytes(table.codes(f)) for f in (*ACES, *KINGS)],
        [bytes(table.codes(p)) for p in PROMENADE],
        table.hook_state[0],
    )


def _moves(table: Table, *, dedup: bool) -> list[Step]:
    if _sly is None or not all(0 <= code < 52 for p in table.pile_ids for code in table.codes(p)):
        raise ValueError(f"Sly's search cannot take this {table.game.name} position")
    return _sly.moves(*_position(table), dedup)


def _search(table: Table, budget: Budget, progress: Progress | None) -> tuple[Verdict, list[Step], int, float]:
    """The compiled runs: the verdict, the win's steps as found, positions made and CPU seconds."""
    if not fits(table):
        raise ValueError(f"Sly's search cannot take this {table.game.name} position")
    assert _sly is not None  # fits says it was built
    code, steps, nodes, seconds = _sly.solve(
        *_position(table),
        FIRST_RUN,
        RESTART_UNIT,
        NOISE,
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        _PROGRESS_EVERY,
    )
    return COMPILED_VERDICTS[code], steps, nodes, seconds


def _engine_move(step: Step) -> Move:
    source, destination = step
    return Move(PILES[source], PILES[destination], 1)


def _engine_moves(table: Table, steps: list[Step]) -> tuple[Move, ...]:
    """The search's steps as the engine's moves, each played (``Table.play`` checks it legal) on a copy."""
    board = table.copy()
    moves: list[Move] = []
    for step in steps:
        moves.append(_engine_move(step))
        board.play(moves[-1])
    if board.outcome() is not Outcome.WON:
        raise AssertionError("Sly's search's solution does not win when replayed")
    return tuple(moves)
