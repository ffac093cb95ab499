"""The exact solver's search for the cross games: General Sedgewick (1914) and Four Seasons, its modern form.

``engine.solver.solve`` hands a position to this search when its game has the cross's shape (``shape``): five
packets built down regardless of suit, one card moving at a time; four foundations built up in suit from a dealt
base rank, round the corner; the pack turned one card at a time onto a talon, once. The generic search leaves
nearly every deal of these games undecided at 10 s: it keys a position on the packets' order and finds its wins
by a guide written for columns. Here a position is the stock's length, the talon, the foundations' heights and the
five packets as a set (they are interchangeable), and three rules cut the search, each a reordering or dominance
argument:

- **A card nothing can use goes up at once, as the only child**: once every card that could be built on it (the
  next rank down, any suit; on an ace only a king, and only in Four Seasons) is on a foundation, it is of no more
  use on the cross or the talon, and foundation cards never come back.
- **After a card moves from one packet to another, the next move uses what it did**: it moves or builds on the
  card the move uncovered, fills the packet it emptied, or builds on the moved card. Any other move (a stock turn,
  a talon card played elsewhere, a card going up, the moved card moved on or up) leaves both packets' tops alone
  and could have been made first, or the moved card could have gone there directly; a move of another packet's
  card to a third packet commutes with it, and is kept in one order only: after the move of the lower card. (Until
  session 47 neither order was kept, and a Four Seasons position whose win needs two such moves in a row was
  proved lost.) The rule is part of a position's key, and a position under it is skipped where it was met under
  none (that search had every child), as in the compiled Klondike core.
- **A lone card is not moved into a space** (Four Seasons): the same position, the packets being interchangeable.

Depth-first, children in this order: cards up, talon cards onto the cross, packet moves, the stock turned last;
where that finds nothing in its first ``FIRST_RUN`` positions, restarts in shuffled orders (``solve``). It
answers ``SOLVED`` with the moves (each replayed through ``Table.play`` before it is returned), ``UNSOLVABLE``
when every position reachable was searched, or ``UNKNOWN`` when the budget ran out. The same search is compiled
(``engine/_cross.c``, built by the package's install, about 60 times as many positions a second); ``solve`` uses
it where it was built, and this module's Python search elsewhere.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> result = solve(Table.dealt(find_game("four-seasons"), 1), Budget(seconds=10.0))
>>> result.verdict.value, len(result.moves) > 52
('solved', True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.cards import RANK_OF, SUIT_OF, UNKNOWN
from engine.layout import per_game
from engine.moves import Move
from engine.rules import Base, Build, Game, MoveUnit, Role, SuitRule
from engine.solver import COMPILED_VERDICTS, Budget, SolveResult, Verdict, foundation_move
from engine.table import Table

try:
    from engine import _cross
except ImportError:  # pragma: no cover - the package is built with its extension; a bare source tree may not be
    _cross = None  # type: ignore[assignment]

COMPILED = _cross is not None
"""Whether the compiled search was built (``pip install`` builds it)."""

MAX_ENTRIES = 1 << 26
"""Positions one run of the compiled search may keep in its table (16 bytes each, at most twice over for its free
slots: 2 GiB at most); past it the run stops as if the budget were spent."""
_MAX_LINE = 47
"""The compiled search takes at most this many cards on the talon and in the stock (a deal has 46)."""

Progress = Callable[[int, float], None]

PACKETS = 5
_FOUNDATIONS = ("f1", "f2", "f3", "f4")
_TURN, _TALON, _PACKET = 0, 1, 2
"""A step of the search is (kind, from packet, to packet): packets 0..4, -1 for none or for a foundation."""
_UP = -1
FIRST_RUN = 50_000
"""Positions the first run, in the fixed order, may make before the shuffled restarts."""
RESTART_UNIT = 500
"""Positions in a restart of Luby length 1."""
_CHECK_CLOCK_EVERY = 1024
_PROGRESS_EVERY = 1 << 18
_COMPILED_PROGRESS_EVERY = 1 << 22
"""About a report a second from each search."""

Step = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class CrossShape:
    """What the search needs to know of a cross game."""

    wrap: bool
    """A king may go on an ace on the cross (Four Seasons)."""
    space_from_cross: bool
    """A packet's top card may fill an empty packet (Four Seasons); else only the pack or talon fill one."""


@per_game
def shape(game: Game) -> CrossShape | None:
    """The game's ``CrossShape`` if this search can take it, else None."""
    if game.hooks is not None or game.autofill_from is not None or game.packs != 1:
        return None
    if (game.stock.draw, game.stock.passes, game.stock.redeal_needs_play) != (1, 1, False):
        return None
    ids = {spec.id: spec for spec in game.piles}
    expected = {"s": Role.STOCK, "w": Role.WASTE} | dict.fromkeys(_FOUNDATIONS, Role.FOUNDATION)
    expected |= {f"t{n}": Role.TABLEAU for n in range(1, PACKETS + 1)}
    if {pile_id: spec.role for pile_id, spec in ids.items()} != expected:
        return None
    plain = frozenset({Role.WASTE, Role.TABLEAU})
    talon = ids["w"].rule
    if talon.gives is not MoveUnit.TOP_CARD or talon.accepts_from or talon.space_from:
        return None
    for pile_id in _FOUNDATIONS:
        rule = ids[pile_id].rule
        if (rule.build, rule.suits, rule.base, rule.wrap) != (Build.UP, SuitRule.SAME_SUIT, Base.DEALT, True):
            return None
        if rule.accepts_from != plain or rule.space_from != plain or rule.space_fallback:
            return None
    rules = {ids[f"t{n}"].rule for n in range(1, PACKETS + 1)}
    if len(rules) != 1:
        return None
    cross = rules.pop()
    if (cross.build, cross.suits, cross.base, cross.gives) != (Build.DOWN, SuitRule.ANY, Base.ANY, MoveUnit.TOP_CARD):
        return None
    if cross.accepts_from != plain or cross.space_fallback or cross.flip_uncovered:
        return None
    if cross.space_from not in (frozenset({Role.WASTE}), plain):
        return None
    return CrossShape(wrap=cross.wrap, space_from_cross=cross.space_from == plain)


def fits(table: Table) -> bool:
    """Whether this search takes the position: a cross game, every card known, nothing face down but the pack,
    and the foundations as the game builds them (one suit each, up from one base rank)."""
    if shape(table.game) is None or table.faces or table.hook_state:
        return False
    for pile_id in table.pile_ids:
        if UNKNOWN in table.codes(pile_id):
            return False
        if pile_id != "s" and table.face_down_count(pile_id):
            return False
    bases = set()
    for pile_id in _FOUNDATIONS:
        codes = table.codes(pile_id)
        if not codes:
            continue
        bases.add(RANK_OF[codes[0]])
        suit, rank = SUIT_OF[codes[0]], RANK_OF[codes[0]]
        if any(SUIT_OF[c] != suit or RANK_OF[c] != (rank - 1 + i) % 13 + 1 for i, c in enumerate(codes)):
            return False
    return len(bases) <= 1


class _Cross:
    """One search: the position is changed in place and put back (``_do`` / ``_undo``)."""

    def __init__(
        self,
        table: Table,
        cross: CrossShape,
        limits: _Limits,
        order: random.Random | None = None,
    ) -> None:
        self.wrap = cross.wrap
        self.space_from_cross = cross.space_from_cross
        self.stock = list(table.codes("s"))  # the top is the last
        self.talon = list(table.codes("w"))
        foundations = [table.codes(pile_id) for pile_id in _FOUNDATIONS]
        # Before the deal's foundation card is known the base does not matter: nothing can go up.
        self.base = next((RANK_OF[f[0]] for f in foundations if f), 0)
        self.height = [0, 0, 0, 0]
        self.up_by_rank = [0] * 14
        for codes in foundations:
            if codes:
                self.height[SUIT_OF[codes[0]]] = len(codes)
            for code in codes:
                self.up_by_rank[RANK_OF[code]] += 1
        self.packets = [list(table.codes(f"t{n}")) for n in range(1, PACKETS + 1)]
        self.limits = limits
        self.order = order
        self.seen: set[tuple[tuple[object, ...], tuple[int, int] | None]] = set()

    # -- the rules of the cross

    def _goes_up(self, code: int) -> bool:
        height = self.height[SUIT_OF[code]]
        return self.base > 0 and height < 13 and RANK_OF[code] == (self.base - 1 + height) % 13 + 1

    def _fits_on(self, code: int, under: int) -> bool:
        rank, below = RANK_OF[code], RANK_OF[under]
        return rank + 1 == below or (self.wrap and rank == 13 and below == 1)

    def _of_no_use(self, code: int) -> bool:
        """Every card that could be built on this one on the cross is on a foundation."""
        rank = RANK_OF[code]
        if rank == 1:
            return not self.wrap or self.up_by_rank[13] == 4
        return self.up_by_rank[rank - 1] == 4

    def _top(self, packet: int) -> int:
        """A packet's top card, or -1 for an empty packet (the rule's name for a packet a move emptied)."""
        cards = self.packets[packet]
        return cards[-1] if cards else -1

    def _position(self) -> tuple[object, ...]:
        """The position's key, without the rule it is under."""
        return len(self.stock), bytes(self.talon), bytes(self.height), tuple(sorted(map(bytes, self.packets)))

    # -- moves

    def _children(self, rule: tuple[int, int] | None) -> list[Step]:
        """The steps to try, in order; a card nothing can use going up is the only one."""
        packets, talon = self.packets, self.talon
        out: list[Step] = []
        if talon and self._goes_up(talon[-1]):
            if self._of_no_use(talon[-1]):
                return [(_TALON, -1, _UP)]
            out.append((_TALON, -1, _UP))
        for i, cards in enumerate(packets):
            if cards and self._goes_up(cards[-1]):
                if self._of_no_use(cards[-1]):
                    return [(_PACKET, i, _UP)]
                out.append((_PACKET, i, _UP))
        empty = next((i for i, cards in enumerate(packets) if not cards), -1)
        if talon:
            card = talon[-1]
            out += [(_TALON, -1, j) for j, under in enumerate(packets) if under and self._fits_on(card, under[-1])]
            if empty >= 0:
                out.append((_TALON, -1, empty))
        for i, cards in enumerate(packets):
            if not cards:
                continue
            card = cards[-1]
            out += [
                (_PACKET, i, j)
                for j, under in enumerate(packets)
                if j != i and under and self._fits_on(card, under[-1])
            ]
            if empty >= 0 and self.space_from_cross and len(cards) > 1:
                out.append((_PACKET, i, empty))
        if self.stock:
            out.append((_TURN, -1, -1))
        if self.order is not None:
            self.order.shuffle(out)
        if rule is None:
            return out
        uncovered, moved = rule
        kept: list[Step] = []
        for step in out:
            kind, source, target = step
            if kind == _TURN or (kind == _PACKET and self._top(source) == moved):
                continue
            uses_the_move = (kind == _PACKET and self._top(source) == uncovered) or (
                target >= 0 and self._top(target) in (uncovered, moved)
            )
            # A packet move that touches neither packet commutes with the move made: of the two orders, the one
            # moving the lower card first is kept (banning both lost wins that need two such moves in a row).
            commutes_after = kind == _PACKET and target != _UP and self._top(source) > moved
            if uses_the_move or commutes_after:
                kept.append(step)
        return kept

    def _do(self, step: Step) -> int:
        kind, source, target = step
        if kind == _TURN:
            self.talon.append(self.stock.pop())
            return -1
        card = self.talon.pop() if kind == _TALON else self.packets[source].pop()
        if target == _UP:
            self.height[SUIT_OF[card]] += 1
            self.up_by_rank[RANK_OF[card]] += 1
        else:
            self.packets[target].append(card)
        return card

    def _undo(self, step: Step, card: int) -> None:
        kind, source, target = step
        if kind == _TURN:
            self.stock.append(self.talon.pop())
            return
        if target == _UP:
            self.height[SUIT_OF[card]] -= 1
            self.up_by_rank[RANK_OF[card]] -= 1
        else:
            self.packets[target].pop()
        (self.talon if kind == _TALON else self.packets[source]).append(card)

    def _exact(self) -> tuple[object, ...]:
        """The position with its packets in place (``_position`` takes them as a set)."""
        return len(self.stock), bytes(self.talon), bytes(self.height), tuple(map(bytes, self.packets))

    def _won(self) -> bool:
        return self.height == [13, 13, 13, 13]

    # -- the search

    def run(self, cap: int | None) -> tuple[Verdict, list[Step]]:
        """Search until a win, the end of the positions reachable, ``cap`` new positions, or the limits."""
        limits = self.limits
        if self._won():
            return Verdict.SOLVED, []
        self.seen.add((self._position(), None))
        made_here = 0
        # A frame: the position's children, the next one to try, and the step (with its card) that led to it.
        stack: list[tuple[list[Step], int, Step | None, int]] = [(self._children(None), 0, None, -1)]
        path: list[Step] = []
        while stack:
            children, index, made, made_card = stack[-1]
            if index == len(children):
                stack.pop()
                if made is not None:
                    path.pop()
                    self._undo(made, made_card)
                continue
            stack[-1] = (children, index + 1, made, made_card)
            step = children[index]
            kind, source, target = step
            uncovered = -1
            if kind == _PACKET and target != _UP:
                cards = self.packets[source]
                uncovered = cards[-2] if len(cards) > 1 else -1
            card = self._do(step)
            if self._won():
                path.append(step)
                return Verdict.SOLVED, path
            rule = (uncovered, card) if kind == _PACKET and target != _UP else None
            position = self._position()
            key = (position, rule)
            if key in self.seen or (rule is not None and (position, None) in self.seen):
                self._undo(step, card)
                continue
            if limits.spent() or made_here == cap:
                self._undo(step, card)
                return Verdict.UNKNOWN, []
            self.seen.add(key)
            made_here += 1
            limits.count()
            path.append(step)
            stack.append((self._children(rule), 0, step, card))
        return Verdict.UNSOLVABLE, []


class _Limits:
    """The budget shared by every run of one solve: positions made in all, and CPU time."""

    def __init__(self, budget: Budget, progress: Progress | None) -> None:
        self.start = time.process_time()
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else self.start + budget.seconds
        self.progress = progress
        self.nodes = 0
        self.out_of_time = False

    def spent(self) -> bool:
        return self.out_of_time or (self.max_nodes is not None and self.nodes >= self.max_nodes)

    def count(self) -> None:
        self.nodes += 1
        if self.nodes % _CHECK_CLOCK_EVERY == 0:
            now = time.process_time()
            self.out_of_time = self.deadline is not None and now >= self.deadline
            if self.progress is not None and self.nodes % _PROGRESS_EVERY == 0:
                self.progress(self.nodes, now - self.start)


def luby(index: int) -> int:
    """The ``index``-th term (from 1) of Luby, Sinclair and Zuckerman's restart sequence 1, 1, 2, 1, 1, 2, 4, ...:
    within a constant factor of the best fixed restart length for any run-time distribution."""
    k = 1
    while (1 << k) - 1 < index:
        k += 1
    if index == (1 << k) - 1:
        return 1 << (k - 1)
    return luby(index - (1 << (k - 1)) + 1)


def shorten(table: Table, steps: list[Step]) -> list[Step]:
    """A win ``steps`` with its detours cut: from each position along it, the move (if any) that reaches the
    latest position further along, packets in place; repeated until nothing is cut. A depth-first win wanders
    (Four Seasons seed 2's first win takes 1,217 steps): the moves a player is shown should not."""
    cross = shape(table.game)
    assert cross is not None
    limits = _Limits(Budget(), None)
    while True:
        board = _Cross(table, cross, limits)
        keys: list[tuple[object, ...]] = []
        for step in steps:
            keys.append(board._exact())
            board._do(step)
        keys.append(board._exact())
        latest = {key: index for index, key in enumerate(keys)}
        board = _Cross(table, cross, limits)
        out: list[Step] = []
        index = 0
        while index < len(steps):
            best, jump = steps[index], index + 1
            for step in board._children(None):
                card = board._do(step)
                reached = latest.get(board._exact(), -1)
                board._undo(step, card)
                if reached > jump:
                    best, jump = step, reached
            board._do(best)
            out.append(best)
            index = jump
        if len(out) == len(steps):
            return out
        steps = out


def _engine_moves(table: Table, steps: list[Step]) -> tuple[Move, ...]:
    """The search's steps as the engine's moves, each checked legal by playing it on a copy of ``table``."""
    board = table.copy()
    moves: list[Move] = []
    for step in steps:
        move = _engine_move(board, step)
        board.play(move)
        moves.append(move)
    if board.foundation_count() != board.game.card_count:
        raise AssertionError("the cross search's solution does not win when replayed")
    return tuple(moves)


def _engine_move(table: Table, step: Step) -> Move:
    """One step of the search as the engine's move on ``table``, the position it is made from."""
    kind, source, target = step
    if kind == _TURN:
        return Move("s", "w", 1)
    source_id = "w" if kind == _TALON else f"t{source + 1}"
    return foundation_move(table, source_id) if target == _UP else Move(source_id, f"t{target + 1}", 1)


def solve(
    table: Table, budget: Budget | None = None, progress: Progress | None = None, *, compiled: bool = True
) -> SolveResult:
    """``engine.solver.solve`` for a position ``fits`` takes (default budget: ``Budget()``); ``table`` is left
    unchanged. ``compiled``: the compiled search where it was built (else the Python one).

    The first run takes the children in the order above for up to ``FIRST_RUN`` positions; where that finds
    nothing, runs that take them in a shuffled order (``random.Random(run)``: the same answer every time) restart
    from the position with fresh tables, for ``RESTART_UNIT`` times Luby's sequence of positions each, until the
    budget is spent. A deal of these games is either won within a few thousand positions by some order or not at
    all in a million by a fixed one; a run that reaches the end of every position proves the deal lost whatever
    its order.
    """
    verdict, steps, nodes, seconds = _search(table, Budget() if budget is None else budget, progress, compiled)
    moves = _engine_moves(table, shorten(table, steps)) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, nodes, seconds)


def judge(table: Table, nodes: int) -> tuple[Verdict, Move | None]:
    """A search of at most ``nodes`` positions for a hint (compiled where it was built): the verdict, and for
    ``SOLVED`` the first move of the win found, without shortening and replaying the whole win as ``solve``
    does (which costs more than a short search)."""
    verdict, steps, _, _ = _search(table, Budget(nodes=nodes, seconds=None), None, compiled=True)
    return verdict, _engine_move(table, steps[0]) if verdict is Verdict.SOLVED and steps else None


def _search(
    table: Table, budget: Budget, progress: Progress | None, compiled: bool
) -> tuple[Verdict, list[Step], int, float]:
    """``solve``'s runs: the verdict, the win's steps as found, positions made and CPU seconds."""
    cross = shape(table.game)
    if cross is None:
        raise ValueError(f"{table.game.name} is not a cross game")
    if compiled and COMPILED and len(table.codes("s")) + len(table.codes("w")) <= _MAX_LINE:
        return _compiled(table, cross, budget, progress)
    limits = _Limits(budget, progress)
    verdict, steps = _Cross(table, cross, limits).run(FIRST_RUN)
    run = 0
    while verdict is Verdict.UNKNOWN and not limits.spent():
        run += 1
        verdict, steps = _Cross(table, cross, limits, random.Random(run)).run(RESTART_UNIT * luby(run))
    return verdict, steps, limits.nodes, time.process_time() - limits.start


def _compiled(
    table: Table, cross: CrossShape, budget: Budget, progress: Progress | None
) -> tuple[Verdict, list[Step], int, float]:
    """``_search`` by the compiled search: the same rules, runs and budget (its shuffles its own)."""
    # The position as the Python search reads it (stock top last, heights by suit, the base rank).
    board = _Cross(table, cross, _Limits(budget, None))
    code, steps, nodes, seconds = _cross.solve(
        bytes(board.talon) + bytes(reversed(board.stock)),
        len(board.talon),
        (1 << len(board.talon)) - 1,
        bytes(board.height),
        board.base,
        [bytes(cards) for cards in board.packets],
        cross.wrap,
        cross.space_from_cross,
        FIRST_RUN,
        RESTART_UNIT,
        -1 if budget.nodes is None else budget.nodes,
        -1.0 if budget.seconds is None else budget.seconds,
        MAX_ENTRIES,
        progress,
        _COMPILED_PROGRESS_EVERY,
    )
    return COMPILED_VERDICTS[code], steps, nodes, seconds
