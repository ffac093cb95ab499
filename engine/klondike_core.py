"""The compiled core of the exact solver, for Klondike-shaped games (``engine/_klondike.c``).

``engine.solver.solve`` hands a position to this core when its game has Klondike's shape: a stock turning onto
a waste that gives its top card, four foundations built up in suit from the ace, seven columns built down in
alternate colours with kings in the spaces and face-down cards turned as they are uncovered (any run moving,
or only the whole face-up part as in 1914), foundation cards coming back or not, any draw and any number of
passes. ``shape`` says whether a game has it; every other game is searched by the Python solver.

The core's answer is translated into the engine's moves (with the stock turns it implies) and replayed with
full legality checks (``Table.play``): a solution that does not replay is a bug, raised as an
``AssertionError``, never returned.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> table = Table.dealt(find_game("klondike/draw3"), seed=3)
>>> result = solve(table, Budget(seconds=10.0))
>>> result.verdict.value, len(result.moves) > 50
('solved', True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import SUIT_OF, UNKNOWN
from engine.layout import game_index, per_game
from engine.moves import Move
from engine.rules import Base, Build, Game, MoveUnit, Role, SuitRule
from engine.solver import Budget, SolveResult, Verdict, foundation_move
from engine.table import Table

try:
    from engine import _klondike
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _klondike = None  # type: ignore[assignment]

AVAILABLE = _klondike is not None
"""Whether the compiled core was built (``pip install`` builds it; without a C compiler the Python solver
serves every game)."""

MAX_ENTRIES = 1 << 27
"""Positions the core's transposition table may hold (16 bytes each, at most twice over for its free slots):
at about 2 million new positions a CPU second, a 60 s search fits; past it the answer is 'unknown'."""

_T2F, _W2F, _W2T, _T2T, _F2T = range(5)
_WASTE_TO_STOCK_LIMIT = 200  # passes beyond this are as good as unlimited for the core's position key


@dataclass(frozen=True, slots=True)
class Shape:
    """What the core needs to know of a Klondike-shaped game."""

    draw: int
    passes: int | None
    any_run: bool
    """Any run of face-up cards in sequence moves (modern play); else only a column's whole face-up part."""
    gives_back: bool
    """A foundation's top card may come back down onto a column."""


@per_game
def shape(game: Game) -> Shape | None:
    """The game's ``Shape`` if the compiled core can search it, else None."""
    if game.hooks is not None or game.autofill_from is not None or game.packs != 1 or game.stock.redeal_needs_play:
        return None
    roles = [spec.role for spec in game.piles]
    if sorted(roles, key=lambda r: r.value) != sorted(
        [Role.STOCK, Role.WASTE] + [Role.FOUNDATION] * 4 + [Role.TABLEAU] * 7, key=lambda r: r.value
    ):
        return None
    g = game_index(game)
    if [g.ids[i] for i in g.foundations] != [f"f{n}" for n in range(1, 5)]:
        return None
    if [g.ids[i] for i in g.tableau] != [f"t{n}" for n in range(1, 8)]:
        return None
    plain = frozenset({Role.WASTE, Role.TABLEAU})
    back = plain | {Role.FOUNDATION}
    waste = game.piles[g.waste].rule
    if waste.gives is not MoveUnit.TOP_CARD or waste.accepts_from or waste.space_from:
        return None
    foundation_gives: set[MoveUnit] = set()
    for i in g.foundations:
        rule = game.piles[i].rule
        if (rule.build, rule.suits, rule.base, rule.wrap) != (Build.UP, SuitRule.SAME_SUIT, Base.ACE, False):
            return None
        if rule.accepts_from != plain or rule.space_from != plain or rule.space_fallback:
            return None
        foundation_gives.add(rule.gives)
    tableau: set[tuple[frozenset[Role], frozenset[Role], MoveUnit]] = set()
    for i in g.tableau:
        rule = game.piles[i].rule
        if (rule.build, rule.suits, rule.base, rule.wrap) != (Build.DOWN, SuitRule.ALTERNATE_COLOUR, Base.KING, False):
            return None
        if not rule.flip_uncovered or rule.space_fallback or rule.gives not in (MoveUnit.ANY_RUN, MoveUnit.WHOLE_RUN):
            return None
        tableau.add((rule.accepts_from, rule.space_from, rule.gives))
    if len(tableau) != 1 or len(foundation_gives) != 1:
        return None
    accepts, space, gives = tableau.pop()
    if (accepts, space) == (back, back) and foundation_gives == {MoveUnit.TOP_CARD}:
        gives_back = True
    elif (accepts, space) == (plain, plain):
        gives_back = False
    else:
        return None
    return Shape(game.stock.draw, game.stock.passes, gives is MoveUnit.ANY_RUN, gives_back)


def fits(table: Table) -> bool:
    """Whether the compiled core can search this position: its game has the shape, every card is known, and
    the piles are as the game makes them (face-down cards only at the bottom of the columns and in the stock,
    each foundation one suit from the ace up)."""
    if not AVAILABLE or shape(table.game) is None or table.faces or table.hook_state:
        return False
    for pile_id in table.pile_ids:
        codes = table.codes(pile_id)
        if UNKNOWN in codes:
            return False
        if pile_id.startswith("f") and codes:
            one_suit_from_the_ace = codes[0] % 13 == 0 and codes == tuple(range(codes[0], codes[0] + len(codes)))
            if table.face_down_count(pile_id) or not one_suit_from_the_ace:
                return False
        elif pile_id == "w" and table.face_down_count(pile_id):
            return False
    # The core's column arrays: 40 face-down cards, and 27 face-up ones with room for 13 more.
    return all(
        table.face_down_count(f"t{n}") <= 40 and len(table.codes(f"t{n}")) - table.face_down_count(f"t{n}") <= 27
        for n in range(1, 8)
    )


def solve(
    table: Table,
    budget: Budget | None = None,
    progress: Callable[[int, float], None] | None = None,
    *,
    twin_blind: bool = True,
    table_bits: int = 16,
) -> SolveResult:
    """``engine.solver.solve`` for a position the core ``fits`` (default budget: ``Budget()``); ``table`` is
    left unchanged. ``progress`` is called with (positions so far, CPU seconds) every 2**20 positions.

    ``twin_blind`` (where any run moves and every column's face-up cards are in sequence): positions are told
    apart only by which cards are up, in the talon, face down or at the bottom of a column, not by which of two
    twins (the two cards of a rank and colour) a run lies on, since a run moves from one twin to the other
    whenever that one is free (docs/solver.md); False: every face-up card's place counts.

    ``table_bits``: each search's transposition table starts with 2**table_bits slots and doubles as it fills
    (tests give a table that never grows, to check that the growing one keeps every position)."""
    result, steps = _search(
        table, Budget() if budget is None else budget, progress, twin_blind=twin_blind, table_bits=table_bits
    )
    if result.verdict is Verdict.SOLVED:
        return dataclasses.replace(result, moves=_engine_moves(table, steps))
    return result


@dataclass(frozen=True, slots=True)
class Judgement:
    """``judge``'s answer: what a hint needs of a search."""

    verdict: Verdict
    first: Move | None
    """For ``SOLVED``: the first move of the win found (a stock turn where the win starts with a waste card
    the stock must bring up), checked legal; else None."""
    closest: int | None
    """The lowest guide value the search met (0 when solved; None where the search does not report it)."""


def judge(table: Table, nodes: int) -> Judgement:
    """A search of at most ``nodes`` positions for a hint: the verdict and the first move of the win, without
    translating (and replaying) the whole winning line as ``solve`` does, which costs more than a short search.
    Not twin-blind: the hints were tuned and measured on the plain search (a twin-blind win may start with a
    run traded between twins, which is no move to advise)."""
    result, steps = _search(table, Budget(nodes=nodes, seconds=None), None, twin_blind=False)
    first = None
    if result.verdict is Verdict.SOLVED and steps:
        first = _engine_moves(table, steps[:1], whole=False)[0]
    return Judgement(result.verdict, first, result.closest)


def _search(
    table: Table,
    budget: Budget,
    progress: Callable[[int, float], None] | None,
    *,
    twin_blind: bool,
    table_bits: int = 16,
) -> tuple[SolveResult, list[tuple[int, int, int, int]]]:
    """The core's verdict (no moves yet) and its steps."""
    found = shape(table.game)
    if _klondike is None or found is None or not fits(table):
        raise ValueError(f"the compiled solver cannot search this {table.game.name} position")
    down: list[bytes] = []
    up: list[bytes] = []
    for n in range(1, 8):
        codes = table.codes(f"t{n}")
        hidden = table.face_down_count(f"t{n}")
        down.append(bytes(codes[:hidden]))
        up.append(bytes(codes[hidden:]))
    heights = [0, 0, 0, 0]
    for n in range(1, 5):
        codes = table.codes(f"f{n}")
        if codes:
            heights[SUIT_OF[codes[0]]] = len(codes)
    talon = bytes(table.codes("w")) + bytes(reversed(table.codes("s")))
    passes_left = -1 if found.passes is None else max(0, min(found.passes - table.passes, _WASTE_TO_STOCK_LIMIT))
    verdict, steps, nodes, seconds, closest, _ = _klondike.solve(
        down,
        up,
        bytes(heights),
        talon,
        len(table.codes("w")),
        found.draw,
        passes_left,
        found.any_run,
        found.gives_back,
        found.draw == 1,  # a waste card goes up at once only where one card is turned (engine.solver_rules)
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        twin_blind,
        table_bits,
    )
    result = Verdict.SOLVED if verdict == 0 else Verdict.UNSOLVABLE if verdict == 1 else Verdict.UNKNOWN
    return SolveResult(result, (), nodes, seconds, closest), steps


def guide(table: Table) -> int:
    """The core's estimate of the moves still needed (``SolveResult.closest`` is the lowest it met): every card
    not on a foundation needs a move, every face-down card in the columns a turn."""
    return (
        52
        - sum(len(table.codes(f"f{n}")) for n in range(1, 5))
        + sum(table.face_down_count(f"t{n}") for n in range(1, 8))
    )


def _engine_moves(table: Table, steps: list[tuple[int, int, int, int]], *, whole: bool = True) -> tuple[Move, ...]:
    """The core's steps as the engine's moves, stock turns included, each replayed with ``Table.play``; with
    ``whole``, they must win."""
    board = table.copy()
    out: list[Move] = []

    def play(move: Move) -> None:
        # Table.play's own check, once: a move the engine refuses is a bug of the core, not bad input.
        assert board.is_legal(move), f"the compiled solver's move {move} is not legal here"
        board.push(move)
        out.append(move)

    for kind, a, b, count in steps:
        if kind == _T2F:
            play(foundation_move(board, f"t{a + 1}"))
        elif kind == _T2T:
            play(Move(f"t{a + 1}", f"t{b + 1}", count))
        elif kind == _F2T:
            source = next(
                f"f{n}" for n in range(1, 5) if board.codes(f"f{n}")[:1] and SUIT_OF[board.codes(f"f{n}")[0]] == a
            )
            play(Move(source, f"t{b + 1}"))
        else:
            talon = board.codes("w") + tuple(reversed(board.codes("s")))
            card = talon[a]
            for _ in range(2 * len(talon) + 4):
                if board.codes("w")[-1:] == (card,):
                    break
                stock = board.codes("s")
                if stock:
                    play(Move("s", "w", min(table.game.stock.draw, len(stock))))
                else:
                    play(Move("w", "s", len(board.codes("w"))))
            play(foundation_move(board, "w") if kind == _W2F else Move("w", f"t{b + 1}"))
    assert not whole or board.foundation_count() == 52, "the compiled solver's moves do not win"
    return tuple(out)
