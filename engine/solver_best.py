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
"""

from __future__ import annotations

import heapq
from functools import cache
from typing import TYPE_CHECKING

from engine.layout import BASE_ACE, SUIT_SAME
from engine.moves import Move
from engine.solver_rules import SolverRules, key_parts, solver_rules
from engine.table import Stage, Table

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


def best_first(search: _Search) -> Verdict:
    if search.table.game.hooks is None and not search.table.faces:
        return best_first_plain(search)
    return best_first_table(search)


def best_first_table(search: _Search) -> Verdict:
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    root = search.table
    encoder = encoder_for(search.rules)
    stale = encoder.by_suit
    canonical, packed, h = encoder.encode(root.key())
    closest = h
    seen: set[bytes] = {canonical}
    # Per open or expanded position: (parent, the moves from it, g, h).
    parents: list[tuple[int, tuple[Move, ...], int, int]] = [(-1, (), 0, h)]
    heap: list[tuple[int, int, int, _Packed]] = [(h, 0, 0, packed)]
    counter = 0
    max_nodes = search.max_nodes if search.max_nodes is not None else -1
    encode = encoder.encode
    heappush, heappop = heapq.heappush, heapq.heappop
    while heap:
        _, _, node, packed = heappop(heap)
        table = unpack(root, packed)
        search.table = table
        children = search._children()
        if children is None:
            search.path = _path(parents, node)
            search.closest = 0
            return Verdict.SOLVED
        _, _, node_g, node_h = parents[node]
        push, pop, key_of = table.push, table.pop, table.key
        for sequence in children:
            if search.nodes == max_nodes or (search.nodes % 1024 == 0 and search._out_of_time()):
                search.closest = closest
                return Verdict.UNKNOWN
            for move in sequence:
                push(move)
            search.nodes += 1
            canonical, packed, h = encode(key_of())
            if canonical not in seen:
                seen.add(canonical)
                if h < closest:
                    closest = h
                g = node_g if h < node_h or not stale else node_g + 1
                parents.append((node, sequence, g, h))
                counter += 1
                # Newest first among equals: a depth-first flavour inside each class.
                heappush(heap, (h + g, -counter, len(parents) - 1, packed))
            for _ in sequence:
                pop()
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
    from engine.solver import Verdict  # a cycle: engine.solver imports this module

    root = search.table
    rules = search.rules
    game = root.game
    encoder = encoder_for(rules)
    stale = encoder.by_suit
    plain = _Plain(search, encoder)
    key = root.key()
    canonical, _, h = encoder.encode(key)
    closest = h
    cards, down0 = key_parts(key)
    seen: set[bytes] = {canonical}
    parents: list[tuple[int, tuple[Move, ...], int, int]] = [(-1, (), 0, h)]
    start = b"".join(bytes(p) + _TAIL[d] for p, d in zip(cards, down0, strict=True))
    heap: list[tuple[int, int, int, bytes, int, bool]] = [(h, 0, 0, start, root.passes, root.waste_played)]
    counter = 0
    max_nodes = search.max_nodes if search.max_nodes is not None else -1
    heappush, heappop = heapq.heappush, heapq.heappop
    apply = plain.apply
    contribution = encoder.contribution
    groups = rules.groups
    key_passes = rules.key_passes
    key_played = rules.key_played
    while heap:
        _, _, node, data, passes, played = heappop(heap)
        piles, down = _unpack_plain(data)
        table = Table(game, [list(p) for p in piles], down, passes=passes, waste_played=played, stage=Stage.PLAY)
        search.table = table
        children = search._children()
        if children is None:
            search.path = _path(parents, node)
            search.closest = 0
            return Verdict.SOLVED
        _, _, node_g, node_h = parents[node]
        tails = [pile + _TAIL[d] for pile, d in zip(piles, down, strict=True)]
        for sequence in children:
            if search.nodes == max_nodes or (search.nodes % 1024 == 0 and search._out_of_time()):
                search.closest = closest
                return Verdict.UNKNOWN
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
            if canonical not in seen:
                seen.add(canonical)
                if h < closest:
                    closest = h
                g = node_g if h < node_h or not stale else node_g + 1
                parents.append((node, sequence, g, h))
                counter += 1
                heappush(heap, (h + g, -counter, len(parents) - 1, b"".join(child_tails), child_passes, child_played))
    search.closest = closest
    return Verdict.UNSOLVABLE


def _path(parents: list[tuple[int, tuple[Move, ...], int, int]], node: int) -> list[Move]:
    sequences: list[tuple[Move, ...]] = []
    while node > 0:
        node, sequence, _, _ = parents[node]
        sequences.append(sequence)
    return [move for sequence in reversed(sequences) for move in sequence]
