"""The exact solver's search for Canfield, Foster's and the modern rules, compiled (``engine/_canfield.c``).

``engine.solver.solve`` hands a position to this search when its game has Canfield's shape (``shape``): a hand
turned by threes (or any number) onto a waste, passes without end (Foster's only while each pass plays a card
from the waste), a reserve giving its top card, four foundations built up in suit from a dealt base rank, round
the corner, and four columns built down in alternate colours that give their whole selves or a top card. The
generic search decides about half of Foster's deals within a second and leaves the rest open; this one keys a
position on what the game can tell apart and runs about a hundred times as fast:

- **The hand and waste are one line of cards** in the order the hand turns them: a redeal turns the waste over
  into the hand in that same order, and a card played from the waste leaves the line. A position holds which
  cards are still in the line and where the waste ends (always just after a card still there), so every way of
  turning to the same waste is one position.
- **The columns are a set**: they are interchangeable (a space takes the same cards whichever column it is), so
  a position with two columns swapped is the same position, and a card goes into the first space only.
- **A card nothing can use goes up at once, as the only child**: once both cards that could be put on it in a
  column (the next rank down in the other colour; on an ace a king, where the columns go round the corner) are
  on their foundations, it is of no more use on the table, and foundation cards never come back.

Depth-first, children in this order: cards up, the reserve's top onto the columns, the waste's, the columns'
moves, the hand turned (or the waste turned over) last; where that finds nothing in its first ``FIRST_RUN``
positions, restarts in shuffled orders with fresh tables for Luby's lengths of positions, as the cross games'
search (``engine.cross_search``). It answers ``SOLVED`` with the moves (the win shortened, then each move
replayed through ``Table.play`` before it is returned), ``UNSOLVABLE`` when a run searched every position
reachable, or ``UNKNOWN`` when the budget ran out.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> result = solve(Table.dealt(find_game("canfield/modern"), 0), Budget(seconds=10.0))
>>> result.verdict.value, len(result.moves) > 52
('solved', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import RANK_OF, SUIT_OF, UNKNOWN
from engine.layout import per_game
from engine.moves import Move
from engine.rules import Base, Build, Game, MoveUnit, Role, SuitRule
from engine.solver import COMPILED_VERDICTS, Budget, SolveResult, Verdict, foundation_move
from engine.table import Table

try:
    from engine import _canfield
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _canfield = None  # type: ignore[assignment]

COMPILED = _canfield is not None
"""Whether the compiled search was built (``pip install`` builds it); without it the generic search serves."""

MAX_ENTRIES = 1 << 26
"""Positions one run may keep in its table (16 bytes each, at most twice over for its free slots: 2 GiB at
most); past it the run stops as if the budget were spent."""
MAX_LINE = 36
"""The search takes at most this many cards in the hand and waste together (a deal has 34)."""
MAX_RESERVE = 15
"""... and at most this many in the reserve (a deal has 13)."""
COLUMNS = 4
FIRST_RUN = 200_000
"""Positions the first run, in the fixed order, may make before the shuffled restarts, in the modern game. Foster's
first run has no such limit: most of his deals are lost, a loss is proved only by a run that searches every
position reachable, and each restart spends the budget again on what the first run had seen (seeds 0-39 at 2 s:
38 decided without restarts, 31 with them after 200,000 positions); most modern deals are won, and the shuffled
runs find wins a fixed order misses (30 won with restarts, 25 without)."""
RESTART_UNIT = 2_000
"""Positions in a restart of Luby length 1."""
_PROGRESS_EVERY = 1 << 22
"""About a report a second."""

Progress = Callable[[int, float], None]
_WASTE, _RESERVE, _COLUMN = 1, 2, 3
_UP = -1
Step = tuple[int, int, int, int]
"""A step of the search: (kind, source column, target column or -1 for a foundation, count): for a column the
cards moved, for the waste the turns of the hand (a redeal counting as one) that bring the card up first."""

_FOUNDATIONS = ("f1", "f2", "f3", "f4")
_COLUMN_IDS = tuple(f"t{n}" for n in range(1, COLUMNS + 1))
_SOURCES = frozenset({Role.WASTE, Role.TABLEAU, Role.RESERVE})


@dataclass(frozen=True, slots=True)
class CanfieldShape:
    """What the search needs to know of a Canfield game."""

    draw: int
    needs_play: bool
    """A redeal needs a card played from the waste during the pass (Foster)."""
    wrap: bool
    """A king may go on an ace in the columns (the modern rule)."""
    foster: bool
    """A column gives its whole self or the top card of two, and the waste fills a space only once the reserve
    is out (Foster); else a column gives its top card or its whole self, and the reserve fills a space at once."""


@per_game
def shape(game: Game) -> CanfieldShape | None:
    """The game's ``CanfieldShape`` if this search can take it, else None."""
    if game.hooks is not None or game.packs != 1 or game.stock.passes is not None or game.stock.draw < 1:
        return None
    ids = {spec.id: spec for spec in game.piles}
    expected = {"s": Role.STOCK, "w": Role.WASTE, "r": Role.RESERVE} | dict.fromkeys(_FOUNDATIONS, Role.FOUNDATION)
    expected |= dict.fromkeys(_COLUMN_IDS, Role.TABLEAU)
    if {pile_id: spec.role for pile_id, spec in ids.items()} != expected:
        return None
    for pile_id in ("w", "r"):
        rule = ids[pile_id].rule
        if rule.gives is not MoveUnit.TOP_CARD or rule.accepts_from or rule.space_from:
            return None
    for pile_id in _FOUNDATIONS:
        rule = ids[pile_id].rule
        if (rule.build, rule.suits, rule.base, rule.wrap) != (Build.UP, SuitRule.SAME_SUIT, Base.DEALT, True):
            return None
        if rule.accepts_from != _SOURCES or rule.space_from != _SOURCES or rule.space_fallback:
            return None
    rules = {ids[pile_id].rule for pile_id in _COLUMN_IDS}
    if len(rules) != 1:
        return None
    column = rules.pop()
    if (column.build, column.suits, column.base) != (Build.DOWN, SuitRule.ALTERNATE_COLOUR, Base.ANY):
        return None
    if column.accepts_from != _SOURCES:
        return None
    foster = (
        column.gives is MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO
        and column.space_from == frozenset({Role.RESERVE})
        and column.space_fallback == frozenset({Role.WASTE})
        and game.autofill_from is None
    )
    modern = (
        column.gives is MoveUnit.WHOLE_PILE_OR_TOP_CARD
        and column.space_from == frozenset({Role.RESERVE, Role.WASTE})
        and not column.space_fallback
        and game.autofill_from == "r"
    )
    if not (foster or modern):
        return None
    return CanfieldShape(game.stock.draw, game.stock.redeal_needs_play, column.wrap, foster)


def fits(table: Table) -> bool:
    """Whether this search takes the position: a Canfield game whose search was built, every card known, nothing
    face down but the hand and the reserve, the foundations as the game builds them (one suit each, up from one
    base rank, which the deal has set), and no more cards in the hand, waste and reserve than it keys."""
    if not COMPILED or shape(table.game) is None or table.faces or table.hook_state:
        return False
    for pile_id in table.pile_ids:
        if UNKNOWN in table.codes(pile_id):
            return False
        if pile_id not in ("s", "r") and table.face_down_count(pile_id):
            return False
    base = table.base_rank()
    if base is None:
        return False
    suits: list[int] = []
    for pile_id in _FOUNDATIONS:
        codes = table.codes(pile_id)
        if not codes:
            continue
        suits.append(SUIT_OF[codes[0]])
        if any(SUIT_OF[c] != suits[-1] or RANK_OF[c] != (base - 1 + i) % 13 + 1 for i, c in enumerate(codes)):
            return False
    if len(set(suits)) != len(suits):  # two foundations of one suit
        return False
    line = len(table.codes("s")) + len(table.codes("w"))
    return line <= MAX_LINE and len(table.codes("r")) <= MAX_RESERVE


def solve(table: Table, budget: Budget | None = None, progress: Progress | None = None) -> SolveResult:
    """``engine.solver.solve`` for a position ``fits`` takes (default budget: ``Budget()``); ``table`` is left
    unchanged. The first run takes the children in the order above for up to ``FIRST_RUN`` positions; where that
    finds nothing, shuffled runs (their own random numbers: the same answer every time) restart from the position
    with fresh tables, ``RESTART_UNIT`` times Luby's sequence of positions each, until the budget is spent. A run
    that reaches the end of every position proves the deal lost whatever its order."""
    verdict, steps, nodes, seconds = _search(table, Budget() if budget is None else budget, progress)
    moves = shorten(table, _engine_moves(table, steps)) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, nodes, seconds)


def judge(table: Table, nodes: int) -> tuple[Verdict, Move | None]:
    """A search of at most ``nodes`` positions for a hint: the verdict, and for ``SOLVED`` the first move of the
    win found, without shortening and replaying the whole win as ``solve`` does."""
    verdict, steps, _, _ = _search(table, Budget(nodes=nodes, seconds=None), None)
    return verdict, _engine_move(table, steps[0]) if verdict is Verdict.SOLVED and steps else None


def _search(table: Table, budget: Budget, progress: Progress | None) -> tuple[Verdict, list[Step], int, float]:
    """The compiled runs: the verdict, the win's steps as found, positions made and CPU seconds."""
    game = shape(table.game)
    if game is None or not fits(table):
        raise ValueError(f"the Canfield search cannot take this {table.game.name} position")
    assert _canfield is not None  # fits says it was built
    waste, hand = table.codes("w"), table.codes("s")
    heights = [0, 0, 0, 0]
    for pile_id in _FOUNDATIONS:
        codes = table.codes(pile_id)
        if codes:
            heights[SUIT_OF[codes[0]]] = len(codes)
    base = table.base_rank()
    assert base is not None
    code, steps, nodes, seconds = _canfield.solve(
        bytes(waste) + bytes(reversed(hand)),
        len(waste),
        table.waste_played,
        bytes(table.codes("r")),
        bytes(heights),
        base,
        [bytes(table.codes(pile_id)) for pile_id in _COLUMN_IDS],
        game.draw,
        game.needs_play,
        game.wrap,
        game.foster,
        not game.foster,
        -1 if game.foster else FIRST_RUN,
        RESTART_UNIT,
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        _PROGRESS_EVERY,
    )
    return COMPILED_VERDICTS[code], steps, nodes, seconds


def _turn(table: Table) -> Move:
    """The hand turned onto the waste, or the waste turned over where the hand is out."""
    hand = len(table.codes("s"))
    return Move("s", "w", min(table.game.stock.draw, hand)) if hand else Move("w", "s", len(table.codes("w")))


def _engine_move(table: Table, step: Step) -> Move:
    """The first of the engine's moves that make one step of the search on ``table``, the position it is made
    from: a turn of the hand where the step plays a waste card the hand has yet to bring up."""
    kind, source, target, count = step
    if kind == _WASTE and count:
        return _turn(table)
    source_id = "w" if kind == _WASTE else "r" if kind == _RESERVE else _COLUMN_IDS[source]
    if target == _UP:
        return foundation_move(table, source_id)
    return Move(source_id, _COLUMN_IDS[target], 1 if kind == _WASTE else count)


def _engine_moves(table: Table, steps: list[Step]) -> list[Move]:
    """The search's steps as the engine's moves (a waste card's turns, then its play), each checked legal by
    playing it on a copy of ``table``."""
    board = table.copy()
    moves: list[Move] = []
    for kind, source, target, count in steps:
        for _ in range(count if kind == _WASTE else 0):
            moves.append(_turn(board))
            board.play(moves[-1])
        moves.append(_engine_move(board, (kind, source, target, 0 if kind == _WASTE else count)))
        board.play(moves[-1])
    if board.foundation_count() != board.game.card_count:
        raise AssertionError("the Canfield search's solution does not win when replayed")
    return moves


def _key(table: Table) -> tuple[object, ...]:
    """A position as ``shorten`` compares them: every pile in place, and Foster's 'played this pass'."""
    return tuple(table.codes(pile_id) for pile_id in table.pile_ids), table.waste_played


def shorten(table: Table, moves: list[Move]) -> tuple[Move, ...]:
    """A win ``moves`` with its detours cut: from each position along it, the legal move (if any) that reaches the
    latest position further along; repeated until nothing is cut, then replayed (``Table.play``). A depth-first
    win wanders (round the hand many times, cards to and fro between columns): the moves a player is shown
    should not."""
    while True:
        board = table.copy()
        keys = [_key(board)]
        for move in moves:
            board.push(move)
            keys.append(_key(board))
        latest = {key: index for index, key in enumerate(keys)}
        board = table.copy()
        out: list[Move] = []
        index = 0
        while index < len(moves):
            best, jump = moves[index], index + 1
            for move in board.generate_moves():
                board.push(move)
                reached = latest.get(_key(board), -1)
                board.pop()
                if reached > jump:
                    best, jump = move, reached
            board.push(best)
            out.append(best)
            index = jump
        if len(out) == len(moves):
            break
        moves = out
    board = table.copy()
    for move in moves:
        board.play(move)
    if board.foundation_count() != board.game.card_count:
        raise AssertionError("the Canfield search's shortened solution does not win when replayed")
    return tuple(moves)
