"""What the solver derives once per game from its ``Game`` record: symmetric pile groups, safe foundation
moves and move ordering. Everything here is generic over the rule records; nothing names a game.

Soundness matters more than speed: the solver answers ``unsolvable`` only when the pruned search space is
exhausted, so every rule here must keep at least one winning line whenever one exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from engine.cards import RANK_OF, RED_OF
from engine.layout import BASE_ACE, BASE_KING, BASE_NONE, SUIT_ALTERNATE, SUIT_SAME, GameIndex, game_index, per_game
from engine.moves import Move
from engine.rules import Game, MoveUnit, Role

Cards = Sequence[Sequence[int]]
"""Per pile, its card codes bottom first: the first part of ``Table.key()`` (or the packed piles of
``engine.solver_best``)."""

# Move-ordering classes, lowest first. Depth-first search finds wins sooner when progress comes first.
TO_FOUNDATION, UNCOVERS, FROM_WASTE, EMPTIES, STOCK, BUILD, FROM_FOUNDATION = range(7)


@dataclass(frozen=True, slots=True, eq=False)
class SolverRules:
    """Per-game facts for the search, indexed like the game's piles."""

    g: GameIndex
    groups: tuple[tuple[int, ...], ...]
    """Piles whose contents may be permuted without changing the game (same role and rule), in key order."""
    group_of: dict[str, int]
    """Pile id -> index of its group in ``groups``."""
    index: dict[str, int]
    role: dict[str, Role]
    builders: tuple[tuple[int, ...], ...]
    """Card code -> codes of the cards that could ever be built on it outside the foundations."""
    auto_sources: frozenset[str]
    """Piles from which a card may be played to a foundation automatically (when it is safe)."""
    gives_back: bool
    """A foundation card may return to play: then only cards that nothing builds on are safe to play, and
    cards on which only such cards build (``leaves``)."""
    leaves: frozenset[int]
    """Cards that nothing is ever built on outside the foundations and that can always go straight up (the
    aces, where each suit has foundations of its own built up from the ace); empty where that is not so."""
    low_first: bool
    """Where foundation cards come back: a card still goes up at once, and never comes back down, when it is
    up for good by Keller's rule (``up_for_good``; one pack, each suit built up from the ace, every build
    downward, no spaces filled by rule); a waste card up for good is not built on the tableau instead."""
    partial_up: bool
    """A face-up run is split (its upper part moved onto another column) only when the card it leaves on top
    can go up to a foundation: the incomplete-pile dominance of Blake & Gent (JAIR 2026, Theorem 4, after
    Wolter and Birrell), for Klondike's tableau (alternate colours down, any run moves, kings into spaces)."""
    autofill: bool
    macros: bool
    """Stock turns only feed the waste: the search turns the stock only on the way to a waste play."""
    key_passes: bool
    key_played: bool
    card_count: int
    packs: int


def _symmetric_groups(game: Game, g: GameIndex) -> tuple[tuple[int, ...], ...]:
    """Foundations and tableau piles with identical rules are interchangeable; every other pile stands alone.

    Only these two roles: stock, waste and reserve are singletons in every game we know, and a future game whose
    foundations are tied to suits or places will give its piles different rules (or names the solver can
    refuse by setting them apart here).
    """
    groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for i, spec in enumerate(game.piles):
        if i in seen:
            continue
        if spec.role in (Role.FOUNDATION, Role.TABLEAU):
            members = tuple(
                j for j, other in enumerate(game.piles) if other.role is spec.role and other.rule == spec.rule
            )
        else:
            members = (i,)
        seen.update(members)
        groups.append(members)
    return tuple(groups)


@per_game
def solver_rules(game: Game) -> SolverRules:
    g = game_index(game)
    # A game with hooks has rules the records do not show: no symmetry and no automatic moves are assumed.
    plain = game.hooks is None
    groups = _symmetric_groups(game, g) if plain else tuple((i,) for i in range(len(g.ids)))
    group_of = {g.ids[i]: n for n, members in enumerate(groups) for i in members}
    builders: list[tuple[int, ...]] = []
    for code in range(52):
        found: set[int] = set()
        for j, spec in enumerate(game.piles):
            if spec.role is not Role.FOUNDATION and any(g.on_top_from[j]):
                found.update(g.accept_codes[j][code])
        builders.append(tuple(sorted(found)))
    gives_back = any(
        Role.FOUNDATION in spec.rule.accepts_from or Role.FOUNDATION in spec.rule.space_from for spec in game.piles
    )
    # An ace can always go up when every suit has its own foundations built from the ace: then a card that
    # holds only aces (a two) is never needed as a holder, even where foundation cards come back.
    by_suit = (
        bool(g.foundations)
        and len(g.foundations) == 4 * game.packs
        and all(g.suit_rule[i] == SUIT_SAME and g.base[i] == BASE_ACE for i in g.foundations)
    )
    leaves = frozenset(code for code in range(52) if not builders[code] and code % 13 == 0) if by_suit else frozenset()
    builds_down = all(RANK_OF[b] < RANK_OF[code] for code in range(52) for b in builders[code])
    no_fill_rule = game.autofill_from is None and not any(fallback for _, fallback in g.space_fallback)
    klondike_tableau = bool(g.tableau) and all(
        g.suit_rule[i] == SUIT_ALTERNATE and g.base[i] == BASE_KING and g.gives[i] is MoveUnit.ANY_RUN
        for i in g.tableau
    )
    auto: set[str] = set()
    for spec in game.piles if plain else ():
        # Playing a waste card changes which cards later passes turn up when more than one is turned at a
        # time, and spends Foster's 'played this pass' condition: safe only for draw one without that rule.
        if (
            spec.role is Role.TABLEAU
            or (spec.role is Role.RESERVE and game.autofill_from != spec.id)
            or (spec.role is Role.WASTE and game.stock.draw == 1 and not game.stock.redeal_needs_play)
        ):
            auto.add(spec.id)
    return SolverRules(
        g=g,
        groups=groups,
        group_of=group_of,
        index=dict(g.index),
        role={spec.id: spec.role for spec in game.piles},
        builders=tuple(builders),
        auto_sources=frozenset(auto),
        gives_back=gives_back,
        leaves=leaves,
        low_first=plain and game.packs == 1 and gives_back and by_suit and builds_down and no_fill_rule,
        partial_up=plain and game.packs == 1 and by_suit and builds_down and no_fill_rule and klondike_tableau,
        autofill=game.autofill_from is not None,
        macros=plain and g.stock >= 0 and g.waste >= 0,
        key_passes=game.stock.passes is not None,
        key_played=game.stock.redeal_needs_play,
        card_count=game.card_count,
        packs=game.packs,
    )


def key_parts(key: tuple[object, ...]) -> tuple[Cards, tuple[int, ...]]:
    """The cards and face-down counts of a ``Table.key()``."""
    return cast(Cards, key[0]), cast(tuple[int, ...], key[1])


def canonical_key(rules: SolverRules, key: tuple[object, ...]) -> bytes:
    """``Table.key()`` packed into bytes, interchangeable piles sorted, passes dropped where unlimited.

    Bytes rather than tuples: the transposition table holds millions of keys, and a packed key costs about a
    tenth of the memory of the tuples ``Table.key()`` is made of. Each pile is its codes (all below 52) then
    255 and its face-down count, so the packing is unambiguous.
    """
    cards, down = key_parts(key)
    passes, played = key[2], key[3]
    parts: list[bytes] = []
    for members in rules.groups:
        if len(members) == 1:
            i = members[0]
            parts.append(bytes(cards[i]) + bytes((255, down[i])))
        else:
            parts.extend(sorted([bytes(cards[i]) + bytes((255, down[i])) for i in members]))
    if rules.key_passes:
        assert isinstance(passes, int)
        parts.append(bytes((254, min(passes, 250))))
    if rules.key_played:
        parts.append(b"\xfd\x01" if played else b"\xfd\x00")
    extra = key[4:]  # the odd-face pattern and a game hook's state: rare, so plainly encoded
    if any(extra):
        parts.append(repr(extra).encode())
    return b"".join(parts)


def safe_move(rules: SolverRules, cards: Cards, moves: list[Move]) -> Move | None:
    """A foundation move that cannot spoil a win, if there is one.

    A card is safe to play up when every card that could be built on it elsewhere is already on a foundation
    (all copies): then it can never serve as a holder again, and leaving its pile only adds options (a run or
    pile that moves as a whole still moves without its top card). When foundation cards may come back into
    play, a card could be wanted again as a holder for a returning card, so only cards that nothing is ever
    built on (the aces of Klondike) are played, and cards that hold nothing but such cards (the twos): an ace
    can always go up instead of onto a two, so a winning line that uses the two as a holder, or takes it or the
    ace under it back down, still wins with those moves left out. Where each suit has one foundation from the
    ace (``low_first``), Keller's rule goes further (``up_for_good``).
    """
    index = rules.index
    on_foundations: dict[int, int] | None = None
    heights: list[int] | None = None
    for move in moves:
        if rules.role[move.dst] is not Role.FOUNDATION or move.src not in rules.auto_sources:
            continue
        src = cards[index[move.src]]
        if rules.autofill and len(src) == 1 and rules.role[move.src] is Role.TABLEAU:
            continue  # emptying a column pulls a reserve card into it: a change of position, not only a gain
        card = src[-1]
        wanted = rules.builders[card]
        if not wanted:
            return move
        if rules.gives_back:
            if all(code in rules.leaves for code in wanted):
                return move
            if rules.low_first:
                if heights is None:
                    heights = suit_heights(rules, cards)
                if up_for_good(card, heights):
                    return move
            continue
        if on_foundations is None:
            on_foundations = {}
            for i in rules.g.foundations:
                for code in cards[i]:
                    on_foundations[code] = on_foundations.get(code, 0) + 1
        if all(on_foundations.get(code, 0) >= rules.packs for code in wanted):
            return move
    return None


def suit_heights(rules: SolverRules, cards: Cards) -> list[int]:
    """How many cards of each suit (code // 13) are up, where each suit has one foundation built from the ace."""
    heights = [0, 0, 0, 0]
    for i in rules.g.foundations:
        pile = cards[i]
        if pile:
            heights[pile[0] // 13] = len(pile)
    return heights


def _keller(code: int) -> tuple[tuple[int, int], ...]:
    """(suit, lowest height it must have) for the other three suits, for ``code`` to be up for good."""
    rank = RANK_OF[code]
    suit = code // 13
    return tuple(
        (other, rank - 3 if RED_OF[other * 13] == RED_OF[code] else rank - 2) for other in range(4) if other != suit
    )


_NEEDS = tuple(_keller(code) for code in range(52))


def up_for_good(code: int, heights: list[int]) -> bool:
    """Keller's rule for games whose foundation cards come back (Blake & Gent, JAIR 2026, Theorem 1 and its
    corollary; Solvitaire's ``is_valid_auto_foundation_move``): a card that can go up goes up at once, and is
    never taken back down, when both suits of the other colour are up to at least two below its rank and the
    other suit of its colour to at least three below. Every card that could ever want it as a holder (the
    other colour's next lower cards) can then go up itself, and so can every card that could want those."""
    return all(heights[suit] >= need for suit, need in _NEEDS[code])


_ACES = frozenset(range(0, 52, 13))
_KINGS = frozenset(range(12, 52, 13))
_ALL = frozenset(range(52))


def playable_codes(rules: SolverRules, cards: Cards, down: Sequence[int], src: int) -> frozenset[int]:
    """Every card that might be played from pile ``src`` to some other pile as the layout stands: a superset
    (a looser test than ``Table.generate_moves``), used to skip positions where nothing can be played."""
    g = rules.g
    out: set[int] = set()
    for j in g.receivers:
        pile = cards[j]
        if pile:
            if g.on_top_from[j][src] and down[j] < len(pile) and pile[-1] >= 0:
                out.update(g.accept_codes[j][pile[-1]])
        elif g.on_space_from[j][src]:
            base = g.base[j]
            if base == BASE_ACE:
                out.update(_ACES)
            elif base == BASE_KING:
                out.update(_KINGS)
            elif base != BASE_NONE:
                return _ALL
    return frozenset(out)


def order_moves(rules: SolverRules, cards: Cards, down: Sequence[int], moves: list[Move]) -> list[Move]:
    """Drop moves that only mirror another, and sort the rest so that progress is tried first."""
    ranked = rank_moves(rules, cards, down, moves)
    ranked.sort()
    return [move for _, _, _, move in ranked]


def rank_moves(
    rules: SolverRules, cards: Cards, down: Sequence[int], moves: list[Move]
) -> list[tuple[int, int, int, Move]]:
    """(class, tie-break, position in ``moves``, move) for every move not dropped as a mirror of another."""
    index = rules.index
    role = rules.role
    group_of = rules.group_of
    ranked: list[tuple[int, int, int, Move]] = []
    empty_targets: set[tuple[str, int, int]] = set()
    heights: list[int] | None = None
    for n, move in enumerate(moves):
        i = index[move.src]
        j = index[move.dst]
        src = cards[i]
        src_role = role[move.src]
        dst_role = role[move.dst]
        if not cards[j] and dst_role is not Role.STOCK:
            # Interchangeable empty piles give mirror-image positions: try only the first of them.
            mirror = (move.src, move.count, group_of[move.dst])
            if mirror in empty_targets:
                continue
            empty_targets.add(mirror)
            if move.count == len(src) and group_of[move.src] == group_of[move.dst] and not rules.autofill:
                continue  # a whole pile into a space of the same kind only trades places
        left = len(src) - move.count
        if rules.partial_up and left > down[i] and src_role is Role.TABLEAU and dst_role is Role.TABLEAU and cards[j]:
            under = src[left - 1]
            if under >= 0 and src[left] in rules.g.accept_codes[i][under]:  # a split run, not a lift off a stray
                if heights is None:
                    heights = suit_heights(rules, cards)
                if heights[under // 13] != RANK_OF[under] - 1:
                    continue  # the card left on top cannot go up: the split can wait (``SolverRules.partial_up``)
        tie = 0
        if dst_role is Role.FOUNDATION:
            cls = TO_FOUNDATION
        elif src_role is Role.STOCK or dst_role is Role.STOCK:
            cls = STOCK
        elif src_role is Role.FOUNDATION:
            if rules.low_first:
                if heights is None:
                    heights = suit_heights(rules, cards)
                if up_for_good(src[-1], heights):
                    continue  # it would go straight back up (``safe_move``): coming down gains nothing
            cls = FROM_FOUNDATION
        elif src_role is Role.TABLEAU and left > 0 and left == down[i]:
            cls = UNCOVERS
            tie = -down[i]  # dig where most cards are hidden
        elif src_role is not Role.TABLEAU:
            if rules.low_first and src_role is Role.WASTE:
                card = src[-1]
                if heights is None:
                    heights = suit_heights(rules, cards)
                if heights[card // 13] == RANK_OF[card] - 1 and up_for_good(card, heights):
                    continue  # built on a column it would go up at once (``safe_move``): the same as going up now
            cls = FROM_WASTE
        elif left == 0:
            cls = EMPTIES
        else:
            cls = BUILD
        ranked.append((cls, tie, n, move))
    return ranked
