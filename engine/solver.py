"""Exact solver for fully known positions: best-first (default) or depth-first search over the ``Table`` API.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from engine.cards import RANK_OF, RED_OF, SUIT_OF, UNKNOWN
from engine.errors import CadoganError
from engine.layout import BASE_DEALT, SUIT_ALTERNATE, SUIT_SAME, GameIndex
from engine.moves import Move
from engine.rules import Game, MoveUnit
from engine.solver_rules import (
    STOCK,
    Cards,
    SolverRules,
    canonical_key,
    key_parts,
    order_moves,
    playable_codes,
    rank_moves,
    safe_move,
    solver_rules,
)
from engine.table import ALL_CODES, BASE_CODES, RANK_CODES, Table

# Imported last: solver_best refers back to _Search and Verdict, which are defined below.

Progress = Callable[[int, float], None]
"""Called now and then during a long search with (nodes so far, CPU seconds so far)."""

_STOPS: dict[tuple[object, ...], list[tuple[tuple[Move, ...], tuple[int, ...], tuple[int, ...]]]] = {}
"""``_Search._stops`` by stock, waste, pass (where passes are limited) and 'played this pass' flag."""

_CHECK_EVERY = 1024  # nodes between looks at the clock: process_time() costs about as much as a node


class Verdict(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"
    """The budget ran out first."""


COMPILED_VERDICTS = (Verdict.SOLVED, Verdict.UNSOLVABLE, Verdict.UNKNOWN)
"""The verdicts the compiled searches (``engine/_cross.c``, ``_canfield.c``, ``_thirteen.c``, ``_queens.c``,
``_sly.c``) answer as 0, 1, 2."""


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
    """Positions generated (pushed) by the search (by both, where two best-first searches take turns)."""
    seconds: float
    """CPU seconds (``time.process_time``)."""
    closest: int | None = None
    """The lowest guide value met (an estimate of the moves still needed, 0 at a win): how near the search came
    to a win when it ran out of budget. Best-first: ``engine.solver_best.guide``; the compiled core:
    ``engine.klondike_core.guide``. None for the Python depth-first search."""
    reason: str | None = None
    """For ``UNSOLVABLE`` where one rule proves it whatever is played, that rule in a sentence (The Queens' key:
    ``engine.queens_search.key_reason``)."""


def unknown_count(table: Table) -> int:
    return sum(table.codes(pile_id).count(UNKNOWN) for pile_id in table.pile_ids)


def solve(
    table: Table,
    budget: Budget = Budget(),
    progress: Progress | None = None,
    *,
    best_first: bool = True,
    compiled: bool = True,
) -> SolveResult:
    """Search ``table`` (left unchanged) for a win within ``budget``.

    A Klondike-shaped position goes to the compiled core (``engine.klondike_core``: depth-first, about a
    hundred times as many positions a second), a cross game's (General Sedgewick, Four Seasons) to the search
    written for it (``engine.cross_search``, compiled too), a Canfield position to its own compiled search
    (``engine.canfield_search``), and The Great Thirteen's, The Queens' and Sly's each to its own
    (``engine.thirteen_search``, ``engine.queens_search``, ``engine.sly_search``), unless
    ``compiled`` is False; every other one is searched here, best-first (default) or depth-first.
    """
    hidden = unknown_count(table)
    if hidden:
        raise UnknownCardsError(
            f"the position has {hidden} unknown card(s); the exact solver needs every card (try `cadogan hint`)"
        )
    if compiled:
        from engine import klondike_core  # imported here: it imports this module

        if klondike_core.fits(table):
            return klondike_core.solve(table, budget, progress)
        from engine import cross_search  # imported here: it imports this module

        if cross_search.fits(table):
            return cross_search.solve(table, budget, progress)
        from engine import canfield_search  # imported here: it imports this module

        if canfield_search.fits(table):
            return canfield_search.solve(table, budget, progress)
        from engine import thirteen_search  # imported here: it imports this module

        if thirteen_search.fits(table):
            return thirteen_search.solve(table, budget, progress)
        from engine import queens_search  # imported here: it imports this module

        if queens_search.fits(table):
            return queens_search.solve(table, budget, progress)
        from engine import sly_search  # imported here: it imports this module

        if sly_search.fits(table):
            return sly_search.solve(table, budget, progress)
    start = time.process_time()
    search = _Search(table.copy(), budget, progress, start)
    verdict = _best_first(search) if best_first else search.run()
    moves = tuple(search.path) if verdict is Verdict.SOLVED else ()
    return SolveResult(verdict, moves, search.nodes, time.process_time() - start, search.closest)


class _Search:
    """One depth-first search; the table is pushed and popped in place.

    A child of a node is a short sequence of moves: one move, or, where the stock only feeds the waste,
    the stock turns that bring a waste card up followed by that card's play. Turning the stock changes
    nothing else, so turns can always wait until just before the waste card they are for is played; the
    positions between turns then need no place in the transposition table, which keeps it many times
    smaller (Klondike-Solver does the same).
    """

    def __init__(self, table: Table, budget: Budget, progress: Progress | None, start: float) -> None:
        self.table = table
        self.rules = solver_rules(table.game)
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else start + budget.seconds
        self.progress = progress
        self.start = start
        self.nodes = 0
        self.path: list[Move] = []
        self.closest: int | None = None
        g = self.rules.g
        self.stock = g.ids[g.stock] if g.stock >= 0 else ""
        self.waste = g.ids[g.waste] if g.waste >= 0 else ""
        self.passes = table.passes
        self.played = table.waste_played
        self.generator = _moves_for(self.rules, table.game)

    def _children(self) -> list[tuple[Move, ...]] | None:
        """Move sequences to try from the current position, last to try first; None if the position is won."""
        table = self.table
        if table.foundation_count() == self.rules.card_count:
            return None
        cards, down = key_parts(table.key())
        self.passes = table.passes
        self.played = table.waste_played
        return self._children_of(cards, down, table.generate_moves())

    def children_packed(
        self, piles: list[bytes], down: list[int], passes: int, played: bool
    ) -> list[tuple[Move, ...]] | None:
        """``_children`` of a position given as packed piles, for a game without hooks or odd face patterns
        whose waste gives its top card (``_Moves.packed_ok``); ``self.table`` is not used."""
        rules = self.rules
        if sum(len(piles[i]) for i in rules.g.foundations) == rules.card_count:
            return None
        self.passes = passes
        self.played = played
        return self._children_of(piles, down, self.generator.moves(piles, down, passes, played))

    def _children_of(self, cards: Cards, down: Sequence[int], moves: list[Move]) -> list[tuple[Move, ...]]:
        rules = self.rules
        safe = safe_move(rules, cards, moves)
        if safe is not None:
            return [(safe,)]
        if not rules.macros:
            return [(move,) for move in reversed(order_moves(rules, cards, down, moves))]
        stock, waste = self.stock, self.waste
        turn = next((m for m in moves if (m.src == stock and m.dst == waste) or m.dst == stock), None)
        if turn is not None:
            moves = [m for m in moves if m is not turn]
        ranked: list[tuple[int, int, int, tuple[Move, ...]]] = [
            (cls, tie, n, (move,)) for cls, tie, n, move in rank_moves(rules, cards, down, moves)
        ]
        if turn is not None:
            ranked.extend(self._turns(turn, cards, down))
        ranked.sort(reverse=True)
        return [sequence for _, _, _, sequence in ranked]

    def _turns(self, turn: Move, cards: Cards, down: Sequence[int]) -> list[tuple[int, int, int, tuple[Move, ...]]]:
        """Each waste play reachable by turning the stock, once round at most, after the turns it needs.

        The stock and waste are turned on copies of their lists, not on the table: a turn changes nothing
        else, and the waste card's plays are found as ``Table.generate_moves`` finds them for a pile that gives
        its top card (``_waste_plays``). Games whose waste gives more, or odd face patterns (face-down waste
        cards), use the table.
        """
        table = self.table
        rules = self.rules
        g = rules.g
        if g.gives[g.waste] is not MoveUnit.TOP_CARD or table.faces or down[g.waste]:
            return self._turns_on_table(turn)
        playable = playable_codes(rules, cards, down, g.waste)
        limited = rules.key_passes
        passes = self.passes
        played = self.played
        stock, waste = cards[g.stock], cards[g.waste]
        state = (rules, stock, waste, passes if limited else 0, played and rules.key_played)
        stops = _STOPS.get(state)
        if stops is None:
            stops = self._stops(turn, stock, waste, passes, played)
            if len(_STOPS) > 100_000:
                _STOPS.clear()
            _STOPS[state] = stops
        out: list[tuple[int, int, int, tuple[Move, ...]]] = []
        now: list[Sequence[int]] | None = None
        for prefix, stock_now, waste_now in stops:
            if waste_now and waste_now[-1] in playable:
                if now is None:
                    now = list(cards)
                now[g.stock] = stock_now
                now[g.waste] = waste_now
                now_cards = tuple(now)
                plays = self._waste_plays(now_cards, down)
                if plays:
                    # Turning is tried after the plays at hand (in a game with few passes it buries cards for
                    # good), nearer turns first within each class of play.
                    out.extend(
                        (STOCK, cls * 1000 + tie + len(prefix), n, (*prefix, move))
                        for cls, tie, n, move in rank_moves(rules, now_cards, down, plays)
                    )
        return out

    def _stops(
        self, turn: Move, stock: Sequence[int], waste: Sequence[int], passes: int, played: bool
    ) -> list[tuple[tuple[Move, ...], tuple[int, ...], tuple[int, ...]]]:
        """Each stock and waste reached by turning the stock from ``stock`` and ``waste``, once round at most,
        with the turns that reach it. They depend on nothing else, so they are worked out once per stock and
        waste (``_STOPS``) and serve every position that shares them."""
        g = self.rules.g
        draw = self.table.game.stock.draw
        limited = self.rules.key_passes
        stock_list = list(stock)
        waste_list = list(waste)
        turns: list[Move] = []
        seen = {(len(stock_list), passes if limited else 0)}
        stops: list[tuple[tuple[Move, ...], tuple[int, ...], tuple[int, ...]]] = []
        following: Move | None = turn
        while following is not None:
            if following.src == self.stock:
                moved = stock_list[-following.count :]
                del stock_list[-following.count :]
                moved.reverse()
                waste_list.extend(moved)
            else:
                stock_list = waste_list[::-1]
                waste_list = []
                passes += 1
                played = False
            turns.append(following)
            left = len(stock_list)
            state = (left, passes if limited else 0)
            if state in seen:
                break
            seen.add(state)
            stops.append((tuple(turns), tuple(stock_list), tuple(waste_list)))
            if left:
                following = g.move(g.stock, g.waste, min(draw, left))
            elif waste_list and self._may_redeal(passes, played):
                following = g.move(g.waste, g.stock, len(waste_list))
            else:
                following = None
        return stops

    def _may_redeal(self, passes: int, played: bool) -> bool:
        """``Table._may_redeal`` for a pass count and 'played this pass' flag."""
        rule = self.table.game.stock
        if rule.passes is not None and passes >= rule.passes:
            return False
        return not (rule.redeal_needs_play and not played)

    def _waste_plays(self, cards: Cards, down: Sequence[int]) -> list[Move]:
        """The moves of the waste's top card, in ``Table.generate_moves`` order (foundations, builds, spaces)."""
        g = self.rules.g
        w = g.waste
        top = cards[w][-1]
        founds: list[Move] = []
        builds: list[Move] = []
        spaces: list[Move] = []
        base_rank: int | None = -1
        for j in g.receivers:
            if j == g.stock or j == w:
                continue
            dst = cards[j]
            if dst:
                under = dst[-1]
                if not g.on_top_from[j][w] or under < 0 or down[j] >= len(dst) or top not in g.accept_codes[j][under]:
                    continue
                (founds if g.is_foundation[j] else builds).append(g.moves[w][j][1])
                continue
            if not g.on_space_from[j][w]:
                continue
            preferred, fallback = g.space_fallback[j]
            if g.fallback_ok[j][w] and not (fallback and not any(cards[k] for k in preferred)):
                continue
            base = g.base[j]
            if base == BASE_DEALT:
                if base_rank == -1:
                    base_rank = _base_rank(g, cards)
                codes = ALL_CODES if base_rank is None else RANK_CODES[base_rank]
            else:
                codes = BASE_CODES[base]
            if top in codes:
                spaces.append(g.moves[w][j][1])
        return founds + builds + spaces

    def _turns_on_table(self, turn: Move) -> list[tuple[int, int, int, tuple[Move, ...]]]:
        """``_turns`` by pushing the turns on the table: for any waste rule."""
        table = self.table
        rules = self.rules
        g = rules.g
        stock, waste = self.stock, self.waste
        draw = table.game.stock.draw
        limited = rules.key_passes
        cards, down = key_parts(table.key())
        # Turning changes only the waste's top card: skip the move generator where that card fits nowhere.
        playable = playable_codes(rules, cards, down, g.waste)
        turns: list[Move] = []
        seen = {(len(cards[g.stock]), table.passes if limited else 0)}
        out: list[tuple[int, int, int, tuple[Move, ...]]] = []
        following: Move | None = turn
        while following is not None:
            table.push(following)
            turns.append(following)
            left = len(table.codes(stock))
            state = (left, table.passes if limited else 0)
            if state in seen:
                break
            seen.add(state)
            top = table.codes(waste)[-1:]
            if not left or (top and top[0] in playable):
                moves = table.generate_moves()
                plays = [m for m in moves if m.src == waste and m.dst != stock]
                if plays:
                    now_cards, now_down = key_parts(table.key())
                    prefix = tuple(turns)
                    # Turning is tried after the plays at hand (in a game with few passes it buries cards for
                    # good), nearer turns first within each class of play.
                    out.extend(
                        (STOCK, cls * 1000 + tie + len(turns), n, (*prefix, move))
                        for cls, tie, n, move in rank_moves(rules, now_cards, now_down, plays)
                    )
                following = next((m for m in moves if (m.src == stock and m.dst == waste) or m.dst == stock), None)
            else:
                following = g.move(g.stock, g.waste, min(draw, left))
        for _ in turns:
            table.pop()
        return out

    def _out_of_time(self) -> bool:
        now = time.process_time()
        if self.progress is not None and self.nodes and self.nodes % (_CHECK_EVERY * 64) == 0:
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
        stack: list[list[tuple[Move, ...]]] = [root]
        taken: list[int] = []
        push, pop, key = table.push, table.pop, table.key
        max_nodes = self.max_nodes if self.max_nodes is not None else -1
        while stack:
            frame = stack[-1]
            if not frame:
                stack.pop()
                if taken:
                    for _ in range(taken.pop()):
                        path.pop()
                        pop()
                continue
            if self.nodes == max_nodes or (self.nodes % _CHECK_EVERY == 0 and self._out_of_time()):
                return Verdict.UNKNOWN
            sequence = frame.pop()
            for move in sequence:
                push(move)
            self.nodes += 1
            position = canonical_key(rules, key())
            if position in seen:
                for _ in sequence:
                    pop()
                continue
            seen.add(position)
            path.extend(sequence)
            taken.append(len(sequence))
            children = self._children()
            if children is None:
                return Verdict.SOLVED
            stack.append(children)
        return Verdict.UNSOLVABLE


def _base_rank(g: GameIndex, cards: Cards) -> int | None:
    """``Table.base_rank`` of ``cards``."""
    for i in g.foundations:
        pile = cards[i]
        if pile:
            return RANK_OF[pile[0]]
    return None


class _Moves:
    """``Table.generate_moves`` on packed piles (bytes, bottom first) for a game without hooks or odd face
    patterns, every card known: the same moves in the same order (``test_packed_moves_match_the_table``),
    without building a ``Table``, and with each pile's movable counts cached by its contents."""

    def __init__(self, rules: SolverRules, game: Game) -> None:
        g = rules.g
        self.g = g
        self.draw = game.stock.draw
        self.stock_rule = game.stock
        self.packed_ok = g.waste < 0 or g.gives[g.waste] is MoveUnit.TOP_CARD
        """Whether ``_Search._turns`` may turn the stock on lists (else it needs the table)."""
        self.counts: dict[tuple[int, bytes, int], tuple[int, ...]] = {}

    def moves(self, cards: list[bytes], down: list[int], passes: int, played: bool) -> list[Move]:
        g = self.g
        out: list[Move] = []
        if g.stock >= 0:
            stock = cards[g.stock]
            if stock:
                out.append(g.move(g.stock, g.waste, min(self.draw, len(stock))))
            elif g.waste >= 0 and cards[g.waste] and self._may_redeal(passes, played):
                out.append(g.move(g.waste, g.stock, len(cards[g.waste])))
        wants: dict[int, list[int]] = {}
        empties: list[tuple[int, frozenset[int], bool]] = []
        accept = g.accept_codes
        for j in g.receivers:
            dst = cards[j]
            if not dst:
                preferred, fallback = g.space_fallback[j]
                empties.append((j, self._base_codes(j, cards), fallback and not any(cards[k] for k in preferred)))
                continue
            if down[j] >= len(dst):
                continue
            for code in accept[j][dst[-1]]:
                if code in wants:
                    wants[code].append(j)
                else:
                    wants[code] = [j]
        cached = g.moves
        on_top_from = g.on_top_from
        on_space_from = g.on_space_from
        fallback_only = g.fallback_ok
        is_foundation = g.is_foundation
        for i in g.sources:
            src = cards[i]
            n = len(src)
            if n == 0 or down[i] >= n:
                continue
            top = src[-1]
            targets = wants.get(top)
            if targets is not None:
                for j in targets:
                    if is_foundation[j] and on_top_from[j][i]:
                        out.append(cached[i][j][1])
            unit = g.gives[i]
            if unit is MoveUnit.TOP_CARD:
                counts: tuple[int, ...] = (1,)
            elif unit is MoveUnit.WHOLE_RUN and not empties and src[down[i]] not in wants:
                continue
            else:
                state = (i, src, down[i])
                found = self.counts.get(state)
                if found is None:
                    if len(self.counts) > 200_000:  # a bound on memory: piles recur, the hit rate stays high
                        self.counts.clear()
                    found = self.counts[state] = _unit_counts(g, i, src, down[i])
                counts = found
            for count in counts:
                targets = wants.get(src[-count])
                if targets is not None:
                    for j in targets:
                        if not is_foundation[j] and on_top_from[j][i]:
                            out.append(cached[i][j][count])
            for j, base_codes, fallback_open in empties:
                if not on_space_from[j][i] or (fallback_only[j][i] and not fallback_open):
                    continue
                if is_foundation[j]:
                    if top in base_codes:
                        out.append(cached[i][j][1])
                    continue
                for count in counts:
                    if src[-count] in base_codes:
                        out.append(cached[i][j][count])
        return out

    def _base_codes(self, j: int, cards: Sequence[bytes]) -> frozenset[int]:
        base = self.g.base[j]
        if base == BASE_DEALT:
            found = _base_rank(self.g, cards)
            return ALL_CODES if found is None else RANK_CODES[found]
        return BASE_CODES[base]

    def _may_redeal(self, passes: int, played: bool) -> bool:
        rule = self.stock_rule
        if rule.passes is not None and passes >= rule.passes:
            return False
        return not (rule.redeal_needs_play and not played)


def _unit_counts(g: GameIndex, i: int, src: bytes, down: int) -> tuple[int, ...]:
    """``Table._unit_counts``: how many top cards of pile ``i`` may move together to a building pile."""
    unit = g.gives[i]
    n = len(src)
    next_rank = g.next_rank[i]
    rule = g.suit_rule[i]
    run = 1
    k = n - 1
    while k > down:
        upper, lower = src[k], src[k - 1]
        if next_rank[RANK_OF[lower]] != RANK_OF[upper]:
            break
        if rule == SUIT_ALTERNATE:
            if RED_OF[upper] == RED_OF[lower]:
                break
        elif rule == SUIT_SAME and SUIT_OF[upper] != SUIT_OF[lower]:
            break
        run += 1
        k -= 1
    if unit is MoveUnit.ANY_RUN:
        return tuple(range(1, run + 1))
    if unit is MoveUnit.WHOLE_RUN:
        return (n - down,) if run == n - down else ()
    whole = (n,) if down == 0 and run == n else ()
    if unit is MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO:
        return (*whole, 1) if n == 2 else whole if n > 1 else (1,)
    if unit is MoveUnit.WHOLE_PILE_OR_TOP_CARD:
        return (1, *whole) if n > 1 else (1,)
    return ()


@cache
def _moves_for(rules: SolverRules, game: Game) -> _Moves:
    return _Moves(rules, game)


def foundation_move(table: Table, source: str) -> Move:
    """The move of ``source``'s top card up, to the first foundation the engine lets it go to: how a search that
    only says "up" names its foundation."""
    for n in range(1, 5):
        move = Move(source, f"f{n}")
        if table.is_legal(move):
            return move
    raise AssertionError(f"a solver plays {source}'s top card up, but no foundation takes it")


def replay(table: Table, moves: tuple[Move, ...] | list[Move]) -> Table:
    """A copy of ``table`` after playing ``moves`` with full legality checks (raises ``IllegalMoveError``)."""
    copy = table.copy()
    for move in moves:
        copy.play(move)
    return copy


from engine.solver_best import best_first as _best_first  # noqa: E402
