"""Exact solver for fully known positions: depth-first search over the ``Table`` API.

The search keeps a transposition table of canonical positions (``engine.solver_rules.canonical_key``: piles of
the same kind sorted, so mirror-image positions meet), plays safe foundation moves at once as the only child
of a node, drops moves that only mirror another, and tries progress first. Every pruning rule is sound, so
``UNSOLVABLE`` means the whole reachable space was searched. Budgets (nodes, CPU seconds) turn a search that
runs out into ``UNKNOWN``.

>>> from engine.testing import make_table
>>> ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
>>> piles = {f"f{n}": " ".join(r + s for r in ranks) for n, s in enumerate("HDC", start=2)}
>>> piles |= {"f1": " ".join(r + "S" for r in ranks[:-2]), "t1": "KS", "t2": "QS"}
>>> result = solve(make_table("klondike", piles))
>>> result.verdict.value, [str(m) for m in result.moves]
('solved', ['t2>f1', 't1>f1'])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from engine.cards import UNKNOWN
from engine.errors import CadoganError
from engine.moves import Move
from engine.solver_rules import canonical_key, order_moves, safe_move, solver_rules
from engine.table import Table

Progress = Callable[[int, float], None]
"""Called now and then during a long search with (nodes so far, CPU seconds so far)."""

_CHECK_EVERY = 1024  # nodes between looks at the clock: process_time() costs about as much as a node


class Verdict(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"
    """The budget ran out first."""


class UnknownCardsError(CadoganError):
    """The exact solver was given a position with cards it cannot see (use ``engine.hint``)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits on one search; None means no limit of that kind."""

    nodes: int | None = 2_000_000
    seconds: float | None = 10.0


@dataclass(frozen=True, slots=True)
class SolveResult:
    verdict: Verdict
    moves: tuple[Move, ...]
    """For ``SOLVED``: moves from the given position to the win, each legal in turn (``Table.play``)."""
    nodes: int
    """Positions generated (pushed) by the search."""
    seconds: float
    """CPU seconds (``time.process_time``)."""


def unknown_count(table: Table) -> int:
    return sum(table.codes(pile_id).count(UNKNOWN) for pile_id in table.pile_ids)


def solve(table: Table, budget: Budget = Budget(), progress: Progress | None = None) -> SolveResult:
    """Search ``table`` (left unchanged) for a win within ``budget``."""
    hidden = unknown_count(table)
    if hidden:
        raise UnknownCardsError(
            f"the position has {hidden} unknown card(s); the exact solver needs every card (try `cadogan hint`)"
        )
    start = time.process_time()
    search = _Search(table.copy(), budget, progress, start)
    verdict = search.run()
    moves = tuple(search.path) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, search.nodes, time.process_time() - start)


class _Search:
    """One depth-first search; the table is pushed and popped in place."""

    def __init__(self, table: Table, budget: Budget, progress: Progress | None, start: float) -> None:
        self.table = table
        self.rules = solver_rules(table.game)
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else start + budget.seconds
        self.progress = progress
        self.start = start
        self.nodes = 0
        self.path: list[Move] = []

    def _children(self) -> list[Move] | None:
        """Moves to try from the current position, last to try first; None if the position is won."""
        table = self.table
        if table.foundation_count() == self.rules.card_count:
            return None
        key = table.key()
        cards = key[0]
        down = key[1]
        assert isinstance(cards, tuple) and isinstance(down, tuple)
        moves = table.generate_moves()
        safe = safe_move(self.rules, cards, moves)
        if safe is not None:
            return [safe]
        ordered = order_moves(self.rules, cards, down, moves)
        ordered.reverse()
        return ordered

    def _out_of_budget(self) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        now = time.process_time()
        if self.progress is not None and self.nodes % (_CHECK_EVERY * 64) == 0:
            self.progress(self.nodes, now - self.start)
        return self.deadline is not None and now >= self.deadline

    def run(self) -> Verdict:
        table = self.table
        rules = self.rules
        path = self.path
        seen: set[bytes] = {canonical_key(rules, table.key())}
        root = self._children()
        if root is None:
            return Verdict.SOLVED
        stack: list[list[Move]] = [root]
        push, pop, key = table.push, table.pop, table.key
        while stack:
            frame = stack[-1]
            if not frame:
                stack.pop()
                if path:
                    path.pop()
                    pop()
                continue
            move = frame.pop()
            push(move)
            self.nodes += 1
            if self.nodes % _CHECK_EVERY == 0 and self._out_of_budget():
                return Verdict.UNKNOWN
            position = canonical_key(rules, key())
            if position in seen:
                pop()
                continue
            seen.add(position)
            path.append(move)
            children = self._children()
            if children is None:
                return Verdict.SOLVED
            stack.append(children)
        return Verdict.UNSOLVABLE


def replay(table: Table, moves: tuple[Move, ...] | list[Move]) -> Table:
    """A copy of ``table`` after playing ``moves`` with full legality checks (raises ``IllegalMoveError``)."""
    copy = table.copy()
    for move in moves:
        copy.play(move)
    return copy
