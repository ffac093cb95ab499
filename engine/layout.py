"""Per-game lookup tables derived once from a ``Game`` record, for the hot paths of ``Table``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, wraps
from typing import TypeVar

from engine.moves import Move
from engine.rules import Base, Build, Game, MoveUnit, Role, SuitRule

SUIT_ANY, SUIT_SAME, SUIT_ALTERNATE = 0, 1, 2
BASE_NONE, BASE_ANY, BASE_ACE, BASE_KING, BASE_DEALT = 0, 1, 2, 3, 4

_SUIT_CODES = {SuitRule.ANY: SUIT_ANY, SuitRule.SAME_SUIT: SUIT_SAME, SuitRule.ALTERNATE_COLOUR: SUIT_ALTERNATE}
_BASE_CODES = {
    Base.NONE: BASE_NONE,
    Base.ANY: BASE_ANY,
    Base.ACE: BASE_ACE,
    Base.KING: BASE_KING,
    Base.DEALT: BASE_DEALT,
}


def _next_ranks(build: Build, wrap: bool) -> tuple[int, ...]:
    """For each rank (index 1..13), the rank a card built on it must have; 0 means nothing builds on it."""
    table = [0] * 14
    for rank in range(1, 14):
        if build is Build.UP:
            table[rank] = rank + 1 if rank < 13 else (1 if wrap else 0)
        elif build is Build.DOWN:
            table[rank] = rank - 1 if rank > 1 else (13 if wrap else 0)
    return tuple(table)


@dataclass(frozen=True, slots=True, eq=False)
class GameIndex:
    game: Game
    ids: tuple[str, ...]
    index: dict[str, int]
    roles: tuple[Role, ...]
    stock: int
    waste: int
    reserve: int
    foundations: tuple[int, ...]
    tableau: tuple[int, ...]
    gives: tuple[MoveUnit, ...]
    next_rank: tuple[tuple[int, ...], ...]
    suit_rule: tuple[int, ...]
    base: tuple[int, ...]
    flip: tuple[bool, ...]
    sources: tuple[int, ...]
    """Piles that may give cards, in generation order."""
    foundation_targets: tuple[tuple[int, ...], ...]
    """Per source pile: foundations that accept cards from it."""
    build_targets: tuple[tuple[tuple[int, bool, bool], ...], ...]
    """Per source pile: (non-foundation target, accepts when not empty, may fill when empty)."""
    space_fallback: tuple[tuple[tuple[int, ...], bool], ...]
    """Per pile: (piles whose emptiness opens the fallback, source role allowed only by fallback)."""
    fallback_ok: tuple[tuple[bool, ...], ...]
    """[target][source]: the source may fill target's space only through the fallback."""
    moves: tuple[tuple[list[Move], ...], ...]
    """[src][dst] -> list of cached Move objects indexed by count."""
    receivers: tuple[int, ...]
    """Piles that can receive cards from some other pile (foundations first)."""
    accept_codes: tuple[tuple[tuple[int, ...], ...], ...]
    """[pile][code of its top card] -> codes of the cards that may be built on it."""
    on_top_from: tuple[tuple[bool, ...], ...]
    """[target][source]: the target accepts cards from the source's role when not empty."""
    on_space_from: tuple[tuple[bool, ...], ...]
    """[target][source]: the source's role may fill the target when empty (directly or by fallback)."""
    is_foundation: tuple[bool, ...]

    def move(self, src: int, dst: int, count: int) -> Move:
        cached = self.moves[src][dst]
        while len(cached) <= count:
            cached.append(Move(self.ids[src], self.ids[dst], len(cached)))
        return cached[count]


def _accept_codes(build: Build, wrap: bool, suits: SuitRule) -> tuple[tuple[int, ...], ...]:
    next_rank = _next_ranks(build, wrap)
    table: list[tuple[int, ...]] = []
    for under in range(52):
        rank = next_rank[under % 13 + 1]
        if rank == 0:
            table.append(())
            continue
        suit = under // 13
        red = suit in (1, 2)
        if suits is SuitRule.SAME_SUIT:
            allowed = [suit]
        elif suits is SuitRule.ALTERNATE_COLOUR:
            allowed = [s for s in range(4) if (s in (1, 2)) != red]
        else:
            allowed = list(range(4))
        table.append(tuple(s * 13 + rank - 1 for s in allowed))
    return tuple(table)


T = TypeVar("T")


def per_game(build: Callable[[Game], T]) -> Callable[[Game], T]:
    """``build`` made once per game record, looked up by identity first: hashing a frozen ``Game`` walks all its
    fields, and these lookups sit in hot loops (the solver unpacking positions, a hint's many short searches).
    Equal records made apart share one result, as with ``functools.cache``."""
    by_value = cache(build)
    by_identity: dict[int, tuple[Game, T]] = {}

    @wraps(build)
    def lookup(game: Game) -> T:
        found = by_identity.get(id(game))
        if found is None or found[0] is not game:
            found = by_identity[id(game)] = (game, by_value(game))
        return found[1]

    return lookup


@per_game
def game_index(game: Game) -> GameIndex:
    """The lookup tables of ``game``, built once."""
    ids = tuple(spec.id for spec in game.piles)
    index = {pile_id: i for i, pile_id in enumerate(ids)}
    roles = tuple(spec.role for spec in game.piles)

    def first(role: Role) -> int:
        return next((i for i, r in enumerate(roles) if r is role), -1)

    sources = tuple(i for i, spec in enumerate(game.piles) if spec.rule.gives is not MoveUnit.NONE)
    foundation_targets: list[tuple[int, ...]] = []
    build_targets: list[tuple[tuple[int, bool, bool], ...]] = []
    for i in range(len(ids)):
        role = roles[i]
        founds: list[int] = []
        builds: list[tuple[int, bool, bool]] = []
        for j, spec in enumerate(game.piles):
            if j == i:
                continue
            rule = spec.rule
            on_top = role in rule.accepts_from
            on_space = role in rule.space_from or role in rule.space_fallback
            if not (on_top or on_space):
                continue
            if spec.role is Role.FOUNDATION:
                founds.append(j)
            else:
                builds.append((j, on_top, on_space))
        foundation_targets.append(tuple(founds))
        build_targets.append(tuple(builds))

    fallback_ok = tuple(
        tuple(roles[i] in spec.rule.space_fallback and roles[i] not in spec.rule.space_from for i in range(len(ids)))
        for spec in game.piles
    )
    space_fallback = tuple(
        (
            tuple(j for j, other in enumerate(game.piles) if other.role in spec.rule.space_from),
            bool(spec.rule.space_fallback),
        )
        for spec in game.piles
    )
    accept_codes = tuple(_accept_codes(spec.rule.build, spec.rule.wrap, spec.rule.suits) for spec in game.piles)
    n = len(ids)
    on_top_from = tuple(tuple(roles[i] in spec.rule.accepts_from for i in range(n)) for spec in game.piles)
    on_space_from = tuple(
        tuple(roles[i] in spec.rule.space_from or roles[i] in spec.rule.space_fallback for i in range(n))
        for spec in game.piles
    )
    receivers = tuple(
        j
        for j in sorted(range(n), key=lambda j: roles[j] is not Role.FOUNDATION)
        if any(on_top_from[j]) or any(on_space_from[j])
    )
    return GameIndex(
        receivers=receivers,
        accept_codes=accept_codes,
        on_top_from=on_top_from,
        on_space_from=on_space_from,
        is_foundation=tuple(r is Role.FOUNDATION for r in roles),
        game=game,
        ids=ids,
        index=index,
        roles=roles,
        stock=first(Role.STOCK),
        waste=first(Role.WASTE),
        reserve=first(Role.RESERVE),
        foundations=tuple(i for i, r in enumerate(roles) if r is Role.FOUNDATION),
        tableau=tuple(i for i, r in enumerate(roles) if r is Role.TABLEAU),
        gives=tuple(spec.rule.gives for spec in game.piles),
        next_rank=tuple(_next_ranks(spec.rule.build, spec.rule.wrap) for spec in game.piles),
        suit_rule=tuple(_SUIT_CODES[spec.rule.suits] for spec in game.piles),
        base=tuple(_BASE_CODES[spec.rule.base] for spec in game.piles),
        flip=tuple(spec.rule.flip_uncovered for spec in game.piles),
        sources=sources,
        foundation_targets=tuple(foundation_targets),
        build_targets=tuple(build_targets),
        space_fallback=space_fallback,
        fallback_ok=fallback_ok,
        # Prefilled up to the most cards a pile can hold, so move generation indexes without a call.
        moves=tuple(
            tuple([Move(ids[i], ids[j], count) for count in range(game.card_count + 1)] for j in range(n))
            for i in range(n)
        ),
    )
