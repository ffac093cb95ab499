"""A slow, plain reading of the rule records: the oracle the conformance tests check ``Table`` against.

It enumerates every (source, target, count) triple and decides each one straight from the ``PileRule``s,
without the lookup tables and shortcuts of ``Table.generate_moves``.
"""

from __future__ import annotations

from itertools import pairwise

from engine.cards import RANK_OF, RED_OF, SUIT_OF, UNKNOWN
from engine.moves import Move
from engine.rules import Base, Build, MoveUnit, PileRule, Role, SuitRule
from engine.table import Table


def _fits(rule: PileRule, below: int, above: int) -> bool:
    """May ``above`` be built on ``below`` under ``rule``?"""
    if below == UNKNOWN or above == UNKNOWN:
        return False
    low, high = RANK_OF[below], RANK_OF[above]
    if rule.build is Build.UP:
        ok = high == low + 1 or (rule.wrap and low == 13 and high == 1)
    elif rule.build is Build.DOWN:
        ok = high == low - 1 or (rule.wrap and low == 1 and high == 13)
    else:
        return False
    if rule.suits is SuitRule.SAME_SUIT:
        ok = ok and SUIT_OF[below] == SUIT_OF[above]
    elif rule.suits is SuitRule.ALTERNATE_COLOUR:
        ok = ok and RED_OF[below] != RED_OF[above]
    return ok


def _in_sequence(rule: PileRule, cards: tuple[int, ...]) -> bool:
    return all(_fits(rule, a, b) for a, b in pairwise(cards))


def reference_is_legal(table: Table, move: Move) -> bool:
    game = table.game
    ids = table.pile_ids
    if move.src not in ids or move.dst not in ids or move.src == move.dst:
        return False
    if move.src in table.faces or move.dst in table.faces:
        return False
    src_spec, dst_spec = game.pile(move.src), game.pile(move.dst)
    src, dst = table.codes(move.src), table.codes(move.dst)
    if src_spec.role is Role.STOCK:
        return dst_spec.role is Role.WASTE and bool(src) and move.count == min(game.stock.draw, len(src))
    if src_spec.role is Role.WASTE and dst_spec.role is Role.STOCK:
        passes_left = game.stock.passes is None or table.passes < game.stock.passes
        play_ok = not game.stock.redeal_needs_play or table.waste_played
        return not dst and bool(src) and move.count == len(src) and passes_left and play_ok
    if src_spec.rule.gives is MoveUnit.NONE or not 1 <= move.count <= len(src):
        return False
    down = table.face_down_count(move.src)
    moving = src[len(src) - move.count :]
    if len(src) - move.count < down or UNKNOWN in moving:
        return False
    rule = dst_spec.rule
    if dst_spec.role is Role.FOUNDATION:
        if move.count != 1:
            return False
        card = moving[0]
        if dst:
            return src_spec.role in rule.accepts_from and _fits(rule, dst[-1], card)
        if src_spec.role not in rule.space_from:
            return False
        return _base_ok(table, rule.base, card)
    if not _unit_allows(src_spec.rule, src, down, move.count):
        return False
    card = moving[0]
    if dst:
        if table.face_down_count(move.dst) >= len(dst):
            return False
        return src_spec.role in rule.accepts_from and _fits(rule, dst[-1], card)
    if src_spec.role not in rule.space_from:
        if src_spec.role not in rule.space_fallback:
            return False
        preferred = [p.id for p in game.piles if p.role in rule.space_from]
        if any(table.codes(pile_id) for pile_id in preferred):
            return False
    return _base_ok(table, rule.base, card)


def _base_ok(table: Table, base: Base, card: int) -> bool:
    if base is Base.ANY:
        return True
    if base is Base.ACE:
        return RANK_OF[card] == 1
    if base is Base.KING:
        return RANK_OF[card] == 13
    if base is Base.DEALT:
        rank = table.base_rank()
        return rank is None or RANK_OF[card] == rank
    return False


def _unit_allows(rule: PileRule, src: tuple[int, ...], down: int, count: int) -> bool:
    unit = rule.gives
    moving = src[len(src) - count :]
    whole_pile = count == len(src) and down == 0 and _in_sequence(rule, src)
    if unit is MoveUnit.TOP_CARD:
        return count == 1
    if unit is MoveUnit.ANY_RUN:
        return _in_sequence(rule, moving)
    if unit is MoveUnit.WHOLE_RUN:
        return count == len(src) - down and _in_sequence(rule, moving)
    if unit is MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO:
        return whole_pile or (count == 1 and len(src) == 2)
    if unit is MoveUnit.WHOLE_PILE_OR_TOP_CARD:
        return whole_pile or count == 1
    return False


def reference_moves(table: Table) -> set[Move]:
    """Every legal move, by trying every source, target and count."""
    found: set[Move] = set()
    for src in table.pile_ids:
        for dst in table.pile_ids:
            if src == dst:
                continue
            for count in range(1, len(table.codes(src)) + 1):
                move = Move(src, dst, count)
                if reference_is_legal(table, move):
                    found.add(move)
    return found
