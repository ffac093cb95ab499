"""The exact solver's search for The Great Thirteen, compiled (``engine/_thirteen.c``).

``engine.solver.solve`` hands a Great Thirteen position to this search. The generic search left every deal of
this game open at 10 s (session 19: 0 of 10): it keys a position on every card by suit and place and tries every
order of the placements. The game says far less than that, and this search keys a position on what it says:

- **Suit never matters** ("a total over thirteen counts its excess", suits never asked): a card is its value, and
  a numeral column is its length (its k-th card is worth k + 1 times its balcony card, modulo thirteen; every
  column takes each value but its balcony card's once, ending on the king). Columns under balcony cards of one
  value are interchangeable: a card goes onto the first of them of each length only, and the key holds their
  lengths as a set.
- **The packets in place while a re-deal may come, as a set once none can**: the re-deal deals a packet by place,
  so until the last packet that can be re-dealt is gone a packet's place matters; after it the packets are only
  stacks to take cards from.
- **Before the last re-deal, two independent placements are kept in one order**: a placement ``b`` after a
  placement ``a`` from another packet is cut where ``b`` could have been made first (the same packet's top onto
  a column of the same class) and comes first in a fixed order, unless ``b`` made first would open a vacancy's
  fill, which Rule II puts before ``a`` (or ``b`` takes its packet's last card, a conservative exception). Any
  sequence of placements sorts into the kept order by swapping such neighbours (each swap keeps every move legal
  and the position reached the same), so every win has a kept form. The rule depends on the position and the
  move just made, and the key holds both. After the last re-deal every placement is a child and the key forgets
  the move just made: a lost deal's proof searches every position there, and the rule, which saves moves but not
  positions, multiplied each position by the moves that lead to it (2-3 times the positions on seed 2's ends;
  seeds 0-499 at 10 s, before the first run resumed: 475 won, 3 proved lost, against 472 and 3).

Every placement the rules allow is a child (Rule II: a vacancy's fills alone while there are any); where none,
the next packet is re-dealt. Depth-first: a first run in a fixed order pauses after ``FIRST_RUN`` positions;
then shuffled runs of Luby lengths, each with a fresh table (as ``engine.cross_search``), take turns with the
first run, which resumes (its steps made again, its table kept) for as many positions as each shuffled run had.
The shuffled runs find the wins a fixed order misses (nearly every position lies after the last re-deal, where a
fixed order can spend millions of positions below one wrong early choice); the first run, which in the end meets
every position, proves a loss. It answers ``SOLVED`` with the moves (each replayed through ``Table.play``),
``UNSOLVABLE`` when a run searched every position reachable, or ``UNKNOWN`` when the budget ran out.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> result = solve(Table.dealt(find_game("the-great-thirteen"), 3), Budget(seconds=10.0))
>>> result.verdict.value, sum(move.dst.startswith("n") for move in result.moves)
('solved', 96)
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import UNKNOWN
from engine.games.great_thirteen import BALCONY, GROUND, NUMERALS, THE_GREAT_THIRTEEN, value, wanted
from engine.moves import Move
from engine.rules import Game
from engine.solver import COMPILED_VERDICTS, Budget, SolveResult, Verdict
from engine.table import Outcome, Table

try:
    from engine import _thirteen
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _thirteen = None  # type: ignore[assignment]

COMPILED = _thirteen is not None
"""Whether the compiled search was built (``pip install`` builds it); without it the generic search serves."""

MAX_ENTRIES = 1 << 26
"""Positions one run may keep in its table (16 bytes each, at most twice over for its free slots: 2 GiB at
most); past it the run stops as if the budget were spent."""
FIRST_RUN = 200_000
"""Positions the first run, in the fixed order, makes before the first shuffled restart (it resumes after each).
Measured on the 12 deals of seeds 0-59 that a 3 s run in one order left open: 9 won within 5 s with these
restarts (200,000 and 2,000), 8 with 50,000 and 500."""
RESTART_UNIT = 2_000
"""Positions in a restart of Luby length 1."""
_PROGRESS_EVERY = 1 << 22
"""About a report a second."""
_PLACE, _REDEAL = 0, 1

Progress = Callable[[int, float], None]
Step = tuple[int, int, int, int]
"""A step of the search: (kind, packet, column, count): 0 the packet's top card onto the column, 1 the packet
re-dealt (count: its cards; column -1)."""


def takes(game: Game) -> bool:
    """Whether this search was built and ``game`` is The Great Thirteen."""
    return COMPILED and game is THE_GREAT_THIRTEEN


def fits(table: Table, *, hindsight: bool = False) -> bool:
    """Whether this search takes the position: The Great Thirteen, the search built, every card known and face up,
    each balcony card in place and every numeral column as its balcony card builds it. ``hindsight``: a ground
    packet's face-down cards are taken as known too (a hint's sample of the cards a camera has not seen under
    the packets' tops: the player may look at them, the search reads them as the sample has them)."""
    if not takes(table.game) or table.faces or len(table.hook_state) != 1:
        return False
    for pile_id in table.pile_ids:
        if UNKNOWN in table.codes(pile_id):
            return False
        if table.face_down_count(pile_id) and not (hindsight and pile_id in GROUND):
            return False
    for b, n in zip(BALCONY, NUMERALS, strict=True):
        balcony, column = table.codes(b), table.codes(n)
        if len(balcony) != 1 or value(balcony[0]) == 13 or len(column) > 12:
            return False
        if any(wanted(balcony[0], column[:k]) != value(code) for k, code in enumerate(column)):
            return False
    return 0 <= table.hook_state[0] <= len(GROUND) and sum(len(table.codes(p)) for p in table.pile_ids) == 104


def solve(table: Table, budget: Budget | None = None, progress: Progress | None = None) -> SolveResult:
    """``engine.solver.solve`` for a position ``fits`` takes (default budget: ``Budget()``); ``table`` is left
    unchanged. A run that reaches the end of every position proves the deal lost whatever its order."""
    verdict, steps, nodes, seconds = _search(table, Budget() if budget is None else budget, progress)
    moves = _engine_moves(table, steps) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, nodes, seconds)


def judge(table: Table, nodes: int) -> tuple[Verdict, Move | None]:
    """A search of at most ``nodes`` positions for a hint's sample (``fits`` in hindsight): the verdict, and for
    ``SOLVED`` the first move of the win found, without replaying the whole win as ``solve`` does."""
    verdict, steps, _, _ = _search(table, Budget(nodes=nodes, seconds=None), None, hindsight=True)
    return verdict, _engine_move(table, steps[0]) if verdict is Verdict.SOLVED and steps else None


def _search(
    table: Table, budget: Budget, progress: Progress | None, *, independence: bool = True, hindsight: bool = False
) -> tuple[Verdict, list[Step], int, float]:
    """The compiled runs: the verdict, the win's steps as found, positions made and CPU seconds.
    ``independence``: the rule that keeps two independent placements in one order (off only to test it)."""
    if not fits(table, hindsight=hindsight):
        raise ValueError(f"The Great Thirteen's search cannot take this {table.game.name} position")
    assert _thirteen is not None  # fits says it was built
    code, steps, nodes, seconds = _thirteen.solve(
        bytes(value(table.codes(b)[0]) for b in BALCONY),
        bytes(len(table.codes(n)) for n in NUMERALS),
        [bytes(value(code) for code in table.codes(g)) for g in GROUND],
        table.hook_state[0],
        independence,
        FIRST_RUN,
        RESTART_UNIT,
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        _PROGRESS_EVERY,
    )
    return COMPILED_VERDICTS[code], steps, nodes, seconds


def _engine_move(table: Table, step: Step) -> Move:
    kind, packet, column, count = step
    if kind == _REDEAL:
        return Move(GROUND[packet], GROUND[(packet + 1) % len(GROUND)], count)
    return Move(GROUND[packet], NUMERALS[column], 1)


def _engine_moves(table: Table, steps: list[Step]) -> tuple[Move, ...]:
    """The search's steps as the engine's moves, each played (``Table.play`` checks it legal) on a copy."""
    board = table.copy()
    moves: list[Move] = []
    for step in steps:
        moves.append(_engine_move(board, step))
        board.play(moves[-1])
    if board.outcome() is not Outcome.WON:
        raise AssertionError("The Great Thirteen's search's solution does not win when replayed")
    return tuple(moves)
