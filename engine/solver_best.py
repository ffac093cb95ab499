"""Best-first search over the same children as the depth-first search of ``engine.solver``.

Depth-first search commits to its first choices and can spend its whole budget under one bad early move;
best-first always expands the open position that looks nearest to a win. Open positions are kept packed
(bytes), not as tables, so a million of them fit in memory. Exhausting the open set without a win means
``UNSOLVABLE``, exactly as for depth-first search: the pruning rules are the same, and the guide below only
orders the search.

The guide (lower first) is ``h + g``. ``h`` estimates the moves still needed, in the manner of
Klondike-Solver's "minimum moves left": every card not on a foundation must move there, every face-down card
must be uncovered, and a card lying above a lower card of its own suit (foundations build up by suit) must
move once more before it can go up. ``g`` counts the steps on the way to a position that did not lower
``h``: shuffling cards about without progress costs, so the search prefers lines that make progress and
leaves a plateau once it has been searched around, instead of wandering down it depth-first. Where the
foundations do not build up by suit from the ace (Canfield), the guide is greedy on 2 x face-down cards +
cards not up, which searched better there.

Where they do, moves that Klondike-Solver never makes (a run split for no gain, a card taken back from a
foundation) cost more, and only the best few children of a position are queued at their own value, the rest
later (``_Open.add``): a narrow beam first, as in Klondike-Solver's fast mode, without losing exhaustiveness.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Generator, Sequence
from functools import cache
from typing import TYPE_CHECKING, cast

from engine.layout import BASE_ACE, SUIT_SAME
from engine.moves import Move
from engine.solver_rules import SolverRules, key_parts, solver_rules
from engine.table import BASE_CODES, Stage, Table

if TYPE_CHECKING:
    from engine.solver import Verdict, _Search

_Packed = tuple[bytes, bytes, int, bool, tuple[object, ...]]

_TAIL = tuple(bytes((255, n)) for n in range(256))
"""Separator and face-down count after a pile's codes in a canonical key."""
_LOW = (99, 99, 99, 99)


def unpack(table: Table, packed: _Packed) -> Table:
    cards, down, passes, played, extra = packed
    faces = dict(extra[0]) if extra and extra[0] else None  # type: ignore[call-overload]
    hook = extra[1] if len(extra) > 1 else None
    return Table(
        table.game,
        [list(p) for p in cards.split(b"\xff")[:-1]],
        list(down),
        passes=passes,
        waste_played=played,
        stage=Stage.PLAY,
        faces=faces,
        hook_state=hook,  # type: ignore[arg-type]
    )


class _Encoder:
    """Canonical key, packed form and guide of a ``Table.key()`` in one pass over its piles.

    The canonical key is ``engine.solver_rules.canonical_key``'s (interchangeable piles sorted, passes dropped
    where unlimited); the per-pile extra moves of ``h`` are cached by pile contents, since a move changes only
    one or two piles and the rest recur in millions of positions.
    """

    def __init__(self, rules: SolverRules) -> None:
        self.rules = rules
        g = rules.g
        self.tableau = frozenset(g.tableau)
        self.foundations = g.foundations
        # The buried-card count needs foundations built up by suit from the ace.
        self.by_suit = bool(g.foundations) and all(
            g.suit_rule[i] == SUIT_SAME and g.base[i] == BASE_ACE and g.next_rank[i][1] == 2 for i in g.foundations
        )
        self.buried: dict[bytes, int] = {}
        self.foundation_set = frozenset(g.foundations)

    def _buried(self, pile: bytes) -> int:
        """Cards of ``pile`` above a lower card of the same suit: each must move before it can go up."""
        low = list(_LOW)
        count = 0
        for code in pile:
            suit, rank = divmod(code, 13)
            if rank < low[suit]:
                low[suit] = rank
            else:
                count += 1
        if len(self.buried) > 2_000_000:
            self.buried.clear()
        self.buried[pile] = count
        return count

    def encode(self, key: tuple[object, ...]) -> tuple[bytes, _Packed, int]:
        rules = self.rules
        cards, down = key_parts(key)
        passes, played = key[2], key[3]
        assert isinstance(passes, int)
        piles = [bytes(p) for p in cards]
        parts: list[bytes] = []
        for members in rules.groups:
            if len(members) == 1:
                i = members[0]
                parts.append(piles[i] + _TAIL[down[i]])
            else:
                parts.extend(sorted([piles[i] + _TAIL[down[i]] for i in members]))
        if rules.key_passes:
            parts.append(bytes((254, min(passes, 250))))
        if rules.key_played:
            parts.append(b"\xfd\x01" if played else b"\xfd\x00")
        extra = key[4:]
        if any(extra):
            parts.append(repr(extra).encode())
        canonical = b"".join(parts)
        packed = (b"\xff".join(piles) + b"\xff", bytes(down), passes, bool(played), extra)
        left = rules.card_count
        for i in self.foundations:
            left -= len(cards[i])
        h = left
        by_suit = self.by_suit
        buried = self.buried
        for i in self.tableau:
            h += down[i]
            if by_suit:
                pile = piles[i]
                found = buried.get(pile)
                h += self._buried(pile) if found is None else found
            else:
                h += down[i]
        return canonical, packed, h

    def contribution(self, i: int, pile: bytes, down: int) -> int:
        """Pile ``i``'s part of the guide ``h``."""
        if i in self.foundation_set:
            return -len(pile)
        if i in self.tableau:
            if not self.by_suit:
                return 2 * down
            found = self.buried.get(pile)
            return down + (self._buried(pile) if found is None else found)
        return 0


@cache
def encoder_for(rules: SolverRules) -> _Encoder:
    """One encoder per game, so its cache of pile contributions serves every search (hints run many small ones)."""
    return _Encoder(rules)


def guide(table: Table) -> int:
    """The search guide ``h`` of a fully known position: an estimate of the moves still needed (0 when won)."""
    return encoder_for(solver_rules(table.game)).encode(table.key())[2]


PARTIAL_COST = 3
"""Added to ``g`` for a tableau move that splits a face-up run without uncovering, emptying or freeing a card
for a foundation (Klondike-Solver never makes one; here it only waits)."""
FROM_FOUNDATION_COST = 3
"""Added to ``g`` for a card taken back from a foundation."""
BEST_CHILDREN = 1
"""Of the new children of an expanded position, this many with the lowest ``h + g`` are queued as they are ..."""
DEFER_COST = 20
"""... and the others with this much more: the search first follows a narrow beam, like Klondike-Solver's
fast mode (best three children, then two, then one), but every child stays queued, so an exhausted queue still
means the whole space was searched."""

_Child = tuple[int, int, int, tuple[Move, ...], bytes, object, int]
"""(h + g, order made, g, the moves from the parent, canonical key, packed position, h) of a new child."""


class _Open:
    """The open positions of a best-first search, lowest ``h + g`` first (newest first among equals), with the
    path back to the root of every position queued.

    A position met again with a lower ``g`` before it is expanded is queued again and its old entry dropped
    (an entry deferred as a sibling may be reached later in the beam); an expanded position is never queued
    again, so each position is expanded at most once.
    """

    def __init__(self, canonical: bytes, h: int, packed: object) -> None:
        self.parents: list[tuple[int, tuple[Move, ...], int, int]] = [(-1, (), 0, h)]
        self.heap: list[tuple[int, int, int, object]] = [(h, 0, 0, packed)]
        self.best: dict[bytes, int] = {canonical: 0}
        self.dead = bytearray(1)
        self.expanded = bytearray(1)
        self.counter = 0

    def pop(self) -> tuple[int, object] | None:
        heap, dead = self.heap, self.dead
        while heap:
            _, _, node, packed = heapq.heappop(heap)
            if not dead[node]:
                self.expanded[node] = 1
                return node, packed
        return None

    def known(self, canonical: bytes) -> bool:
        """Whether ``canonical`` was expanded already (then it is never queued again)."""
        node = self.best.get(canonical)
        return node is not None and bool(self.expanded[node])

    def add(self, parent: int, fresh: list[_Child], narrow: bool) -> None:
        """Queue the new children of ``parent``; with ``narrow``, all but the best few are deferred."""
        parents, best, dead = self.parents, self.best, self.dead
        if narrow and len(fresh) > BEST_CHILDREN:
            fresh.sort()
        for rank, (f, _, g, sequence, canonical, packed, h) in enumerate(fresh):
            if narrow and rank >= BEST_CHILDREN:
                g += DEFER_COST
                f += DEFER_COST
            old = best.get(canonical)
            if old is not None:
                if self.expanded[old] or parents[old][2] <= g:
                    continue
                dead[old] = 1
            parents.append((parent, sequence, g, h))
            node = len(parents) - 1
            best[canonical] = node
            dead.append(0)
            self.expanded.append(0)
            self.counter += 1
            heapq.heappush(self.heap, (f, -self.counter, node, packed))

    def path(self, node: int) -> list[Move]:
        return _path(self.parents, node)


class _Costs:
    """The extra path cost of a child's last move (``PARTIAL_COST``, ``FROM_FOUNDATION_COST``), for games whose
    foundations build up by suit from the ace (elsewhere nothing is added)."""

    def __init__(self, rules: SolverRules) -> None:
        g = rules.g
        self.index = g.index
        self.tableau = frozenset(g.tableau)
        self.foundations = g.foundations
        self.foundation_set = frozenset(g.foundations)
        self.accept = g.accept_codes
        self.base_codes = [BASE_CODES.get(b, frozenset()) for b in g.base]

    def wanted_up(self, cards: Sequence[Sequence[int]]) -> set[int]:
        """The cards that the foundations take next."""
        ups: set[int] = set()
        for f in self.foundations:
            pile = cards[f]
            ups.update(self.accept[f][pile[-1]] if pile else self.base_codes[f])
        return ups

    def cost(
        self, sequence: tuple[Move, ...], cards: Sequence[Sequence[int]], down: Sequence[int], ups: set[int]
    ) -> int:
        last = sequence[-1]
        i = self.index[last.src]
        if i in self.tableau:
            if self.index[last.dst] in self.tableau:
                pile = cards[i]
                n = len(pile) - last.count
                if n > down[i] and pile[n - 1] not in ups:
                    return PARTIAL_COST
        elif i in self.foundation_set:
            return FROM_FOUNDATION_COST
        return 0


def best_first(search: _Search) -> Verdict:
    """Two searches taking turns (``SLICES``) where foundations build up by suit from the ace: the steered one
    (suspect moves cost more, a narrow beam first) and the plain ``h + g`` one. Either may answer: both are
    exhaustive. Elsewhere the plain search alone."""
    from engine.solver import Budget, Verdict, _Search  # a cycle: engine.solver imports this module

    steps = _plain_steps if search.table.game.hooks is None and not search.table.faces else _table_steps
    if not encoder_for(search.rules).by_suit:
        return _finish(steps(search, narrow=False))
    other = _Search(search.table.copy(), Budget(nodes=None, seconds=None), None, search.start)
    other.deadline = search.deadline
    total = search.max_nodes
    steered = (search, steps(search, narrow=True), SLICES[0])
    plain = (other, steps(other, narrow=False), SLICES[1])
    for each, run, size in itertools.cycle((steered, plain)):
        if each is other and other.nodes >= PLAIN_NODES:
            continue
        spent = search.nodes + other.nodes
        if (total is not None and spent >= total) or each._out_of_time():
            search.nodes = spent
            near = [c for c in (search.closest, other.closest) if c is not None]
            search.closest = min(near) if near else None
            return Verdict.UNKNOWN
        each.max_nodes = each.nodes + (size if total is None else min(size, total - spent))
        try:
            next(run)
        except StopIteration as stop:
            verdict: Verdict = stop.value  # solved or exhausted: either search may answer
            search.nodes += other.nodes
            if each is other:
                search.path = other.path
                search.closest = other.closest
            return verdict
    raise AssertionError("unreachable")


SLICES = (8192, 4096)
"""Nodes the steered search, then the plain one, runs before the other takes its turn: two thirds of the
budget for the steered search, which decides more deals alone; the plain one catches most of the deals that the
beam misses early (three of seeds 0-88 that the plain search had solved within 30,000 nodes)."""

PLAIN_NODES = 50_000
"""The plain search takes no more turns once it has spent this many nodes: it answers early or not at all (seeds
30 and 51 within 1,000 nodes, where the steered search goes wrong), and proving a deal lost then costs the
steered search's nodes plus these, not one and a half times them."""

_Steps = Generator[None, None, "Verdict"]
"""A search that pauses (yields) when its node budget is spent or its time is up, and returns its verdict."""


def _finish(steps: _Steps) -> Verdict:
    """Run ``steps`` once: a pause means the budget is spent."""
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    try:
        next(steps)
    except StopIteration as stop:
        verdict: Verdict = stop.value
        return verdict
    return Verdict.UNKNOWN


def best_first_table(search: _Search) -> Verdict:
    return _finish(_table_steps(search, narrow=True))


def _table_steps(search: _Search, narrow: bool) -> _Steps:
    """``best_first`` by pushing moves on a table: for games with hooks or odd face patterns."""
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    root = search.table
    encoder = encoder_for(search.rules)
    stale = encoder.by_suit
    costs = _Costs(search.rules)
    steer = narrow and stale
    canonical, packed, h = encoder.encode(root.key())
    closest = h
    frontier = _Open(canonical, h, packed)
    parents = frontier.parents
    encode = encoder.encode
    while (popped := frontier.pop()) is not None:
        node, state = popped
        table = unpack(root, cast(_Packed, state))
        search.table = table
        children = search._children()
        if children is None:
            search.path = frontier.path(node)
            search.closest = 0
            return Verdict.SOLVED
        _, _, node_g, node_h = parents[node]
        cards, down = key_parts(table.key())
        ups = costs.wanted_up(cards) if steer else set()
        push, pop, key_of = table.push, table.pop, table.key
        fresh: list[_Child] = []
        for sequence in children:
            while search.nodes == search.max_nodes or (search.nodes % 1024 == 0 and search._out_of_time()):
                search.closest = closest
                yield  # out of budget: the caller may give more nodes and resume, or stop here
            for move in sequence:
                push(move)
            search.nodes += 1
            canonical, packed, h = encode(key_of())
            for _ in sequence:
                pop()
            if frontier.known(canonical):
                continue
            if h < closest:
                closest = h
            g = node_g if h < node_h or not stale else node_g + 1
            if steer:
                g += costs.cost(sequence, cards, down, ups)
            fresh.append((h + g, len(fresh), g, sequence, canonical, packed, h))
        frontier.add(node, fresh, steer)
    search.closest = closest
    return Verdict.UNSOLVABLE


class _Plain:
    """Children evaluated without the table, for games without hooks or odd face patterns.

    A position is its piles as bytes (codes bottom first), the face-down counts, the pass and the 'played
    this pass' flag. The effect of each move on them mirrors ``Table.push`` for a game without hooks; only
    the piles a child's moves touch are rebuilt, and nothing is pushed or popped. The table is built for
    the positions that are expanded (``_children`` needs it), and a win is replayed by the caller.
    """

    def __init__(self, search: _Search, encoder: _Encoder) -> None:
        rules = search.rules
        g = rules.g
        game = search.table.game
        self.rules = rules
        self.g = g
        self.encoder = encoder
        self.index = g.index
        self.stock = g.stock
        self.waste = g.waste
        self.flip = g.flip
        self.needs_play = game.stock.redeal_needs_play
        fill = game.autofill_from
        self.fill = g.index[fill] if fill is not None else -1
        self.tableau = frozenset(g.tableau)

    def apply(
        self, piles: list[bytes], down: list[int], passes: int, played: bool, sequence: tuple[Move, ...]
    ) -> tuple[int, bool, set[int]]:
        """Make ``sequence`` on ``piles`` and ``down`` (changed in place); returns the new passes and flag, and
        the piles it touched."""
        index = self.index
        touched: set[int] = set()
        for move in sequence:
            i = index[move.src]
            j = index[move.dst]
            touched.add(i)
            touched.add(j)
            k = move.count
            src = piles[i]
            if i == self.stock and j == self.waste:
                piles[i] = src[:-k]
                piles[j] = piles[j] + src[: -k - 1 : -1] if k < len(src) else piles[j] + src[::-1]
                if down[i] > len(src) - k:
                    down[i] = len(src) - k
                continue
            if i == self.waste and j == self.stock and not piles[j] and k == len(src):
                piles[j] = src[::-1]
                piles[i] = b""
                down[i] = 0
                down[j] = len(src)
                passes += 1
                played = False
                continue
            n = len(src) - k
            piles[j] = piles[j] + src[n:]
            rest = src[:n]
            if down[i] > n:
                down[i] = n
            elif n and down[i] == n and self.flip[i]:
                down[i] = n - 1
            if i == self.waste and self.needs_play:
                played = True
            r = self.fill
            if r >= 0 and not rest and i in self.tableau and piles[r]:
                reserve = piles[r]
                rest = reserve[-1:]
                piles[r] = reserve[:-1]
                if down[r] > len(reserve) - 1:
                    down[r] = len(reserve) - 1
                touched.add(r)
            piles[i] = rest
        return passes, played, touched


def _unpack_plain(data: bytes) -> tuple[list[bytes], list[int]]:
    segments = data.split(b"\xff")
    piles = [segments[0]]
    down: list[int] = []
    for segment in segments[1:-1]:
        down.append(segment[0])
        piles.append(segment[1:])
    down.append(segments[-1][0])
    return piles, down


def best_first_plain(search: _Search) -> Verdict:
    """``best_first`` for a game without hooks: children are made on packed piles, not pushed on a table."""
    return _finish(_plain_steps(search, narrow=True))


def _plain_steps(search: _Search, narrow: bool) -> _Steps:
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    root = search.table
    rules = search.rules
    game = root.game
    encoder = encoder_for(rules)
    stale = encoder.by_suit
    costs = _Costs(rules)
    steer = narrow and stale
    plain = _Plain(search, encoder)
    key = root.key()
    canonical, _, h = encoder.encode(key)
    closest = h
    cards, down0 = key_parts(key)
    start = b"".join(bytes(p) + _TAIL[d] for p, d in zip(cards, down0, strict=True))
    frontier = _Open(canonical, h, (start, root.passes, root.waste_played))
    parents = frontier.parents
    apply = plain.apply
    contribution = encoder.contribution
    groups = rules.groups
    key_passes = rules.key_passes
    key_played = rules.key_played
    known = frontier.known
    packed_ok = search.generator.packed_ok
    waste = rules.g.waste
    while (popped := frontier.pop()) is not None:
        node, state = popped
        data, passes, played = cast(tuple[bytes, int, bool], state)
        piles, down = _unpack_plain(data)
        if packed_ok and (waste < 0 or not down[waste]):
            children = search.children_packed(piles, down, passes, played)
        else:  # face-down waste cards: turned on the table
            search.table = Table(game, piles, down, passes=passes, waste_played=played, stage=Stage.PLAY)
            children = search._children()
        if children is None:
            search.path = frontier.path(node)
            search.closest = 0
            return Verdict.SOLVED
        _, _, node_g, node_h = parents[node]
        tails = [pile + _TAIL[d] for pile, d in zip(piles, down, strict=True)]
        ups = costs.wanted_up(piles) if steer else set()
        fresh: list[_Child] = []
        for sequence in children:
            while search.nodes == search.max_nodes or (search.nodes % 1024 == 0 and search._out_of_time()):
                search.closest = closest
                yield  # out of budget: the caller may give more nodes and resume, or stop here
            child = piles.copy()
            child_down = down.copy()
            child_passes, child_played, touched = apply(child, child_down, passes, played, sequence)
            search.nodes += 1
            child_tails = tails.copy()
            h = node_h
            for i in touched:
                child_tails[i] = child[i] + _TAIL[child_down[i]]
                h += contribution(i, child[i], child_down[i]) - contribution(i, piles[i], down[i])
            parts: list[bytes] = []
            for members in groups:
                if len(members) == 1:
                    parts.append(child_tails[members[0]])
                else:
                    parts.extend(sorted([child_tails[i] for i in members]))
            if key_passes:
                parts.append(bytes((254, min(child_passes, 250))))
            if key_played:
                parts.append(b"\xfd\x01" if child_played else b"\xfd\x00")
            canonical = b"".join(parts)
            if known(canonical):
                continue
            if h < closest:
                closest = h
            g = node_g if h < node_h or not stale else node_g + 1
            if steer:
                g += costs.cost(sequence, piles, down, ups)
            packed = (b"".join(child_tails), child_passes, child_played)
            fresh.append((h + g, len(fresh), g, sequence, canonical, packed, h))
        frontier.add(node, fresh, steer)
    search.closest = closest
    return Verdict.UNSOLVABLE


def _path(parents: list[tuple[int, tuple[Move, ...], int, int]], node: int) -> list[Move]:
    sequences: list[tuple[Move, ...]] = []
    while node > 0:
        node, sequence, _, _ = parents[node]
        sequences.append(sequence)
    return [move for sequence in reversed(sequences) for move in sequence]
