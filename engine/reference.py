"""A slow, plain reading of the rule records: the oracle the conformance tests check ``Table`` against.

It enumerates every (source, target, count) triple and decides each one straight from the ``PileRule``s,
without the lookup tables and shortcuts of ``Table.generate_moves``.
"""

from __future__ import annotations

from collections.abc import Callable
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


def builds_on(table: Table, pile: str, below: int, above: int) -> bool:
    """May ``above`` be built on ``below`` on ``pile`` by the pile's rule record (hooks aside)? False for an
    unknown card."""
    return _fits(table.game.pile(pile).rule, below, above)


def _in_sequence(rule: PileRule, cards: tuple[int, ...]) -> bool:
    return all(_fits(rule, a, b) for a, b in pairwise(cards))


def reference_is_legal(table: Table, move: Move) -> bool:
    # Games with odd rules (hooks) have their own plain reading, written apart from the hooks.
    odd = _ODD_RULES.get(table.game.variant_of or table.game.name)
    if odd is not None:
        return odd(table, move)
    return _record_is_legal(table, move)


def _record_is_legal(table: Table, move: Move) -> bool:
    """What the rule records alone allow."""
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


# ------------------------------------------------------------------------------------------------ odd rules
def _foundations(table: Table) -> list[str]:
    return [spec.id for spec in table.game.piles if spec.role is Role.FOUNDATION]


def _queens_is_legal(table: Table, move: Move) -> bool:
    """The Queens: Rule IV key payment first, then the key's playable card, spaces refilled at once, full
    foundations, Rule V payment."""
    if move.count > 1 and not (move.dst == "s" and move.src in ("k", "w")):
        return False  # every pile gives one card at a time; only the two payments move more (and keeps this fast)
    key = table.codes("k")
    foundations = _foundations(table)
    nothing_played = all(len(table.codes(f)) == 0 for f in foundations)
    if key and RANK_OF[key[-1]] == 12 and nothing_played:
        return move == Move("k", "s", min(14, len(key)))

    def record_ok(m: Move) -> bool:
        if m.dst in foundations and len(table.codes(m.dst)) == 13:
            return False
        return _record_is_legal(table, m)

    key_can_play = any(record_ok(Move("k", f, 1)) for f in foundations)
    if key_can_play:
        return move.src == "k" and record_ok(move)
    played, turned = table.hook_state
    shutter = [spec.id for spec in table.game.piles if spec.role is Role.SHUTTER]
    if any(not table.codes(h) for h in shutter):
        # A space is refilled at once: the card just turned goes somewhere (never to the talon), else one is turned.
        if turned and table.codes("w"):
            return move.src == "w" and move.dst != "s" and record_ok(move)
        if table.codes("s"):
            return move == Move("s", "w", 1)
    if move.src == "w" and move.dst == "s":
        talon = table.codes("w")
        queens = sum(1 for c in talon if RANK_OF[c] == 12)
        if table.codes("s") or queens == 0 or not played:  # a payment needs a card played since the last one
            return False
        return move.count == queens + min(3 * queens, len(talon) - queens)
    return record_ok(move)


def _sly_is_legal(table: Table, move: Move) -> bool:
    """Sly: one turned card at a time, rounds of twenty (Rule IV) begun only when nothing more can be played,
    any card on any packet, one foundation of each suit and direction."""
    if move.count != 1:
        return False  # every move of Sly is one card (and this keeps the enumeration fast)
    ids = table.pile_ids
    if move.src not in ids or move.dst not in ids:
        return False
    promenade = [p for p in ids if table.game.pile(p).role is Role.PROMENADE]
    turned = table.codes("w")
    placed = table.hook_state[0]
    vacancy = not all(table.codes(p) for p in promenade)

    def promenade_plays() -> bool:
        """Between rounds: can a promenade card be played? Then the next round waits."""
        foundations = _foundations(table)
        return placed == 0 and any(_sly_is_legal(table, Move(p, f, 1)) for p in promenade for f in foundations)

    if move.src == "s":
        return not turned and _record_is_legal(table, move) and (vacancy or not promenade_plays())
    if move.src in promenade and placed != 0 and (turned or table.codes("s")):
        return False
    if move.src == "w" and move.dst in promenade and table.codes(move.dst):
        covered_ok = placed != 0 or not (vacancy or promenade_plays())
        return move.count == 1 and bool(turned) and covered_ok
    spec = table.game.pile(move.dst)
    if spec.role is Role.FOUNDATION and not table.codes(move.dst) and table.codes(move.src):
        suit = SUIT_OF[table.codes(move.src)[-1]]
        same_kind = [p.id for p in table.game.piles if p.rule == spec.rule and table.codes(p.id)]
        if any(SUIT_OF[table.codes(p)[0]] == suit for p in same_kind):
            return False
    return _record_is_legal(table, move)


def _louis_is_legal(table: Table, move: Move) -> bool:
    """Louis: the deal in circles to the next letter, Rule II's blocking, marriages after the deal, the
    gathering for three re-deals, the foundation interchange and laying a card aside from the second deal."""
    ids = table.pile_ids
    if move.src not in ids or move.dst not in ids:
        return False
    deal, position, circle = table.hook_state
    letters = [p.id for p in table.game.piles if p.role is Role.ALPHABET]
    turned, pack = table.codes("w"), table.codes("s")
    dealing = bool(turned) or bool(pack)
    if move.src == "g" and move.dst == "s":
        total = sum(len(table.codes(x)) for x in letters)
        return not dealing and deal < 4 and total > 0 and move.count == total
    if move.count != 1:
        return False
    if move.src == "s":
        return move.dst == "w" and not turned and bool(pack)
    if move.src == "w" and move.dst in letters:
        return bool(turned) and move.dst == letters[position]
    if table.game.pile(move.dst).role is Role.RESERVE:
        # Laying aside, from the second deal: the turned card, beside its suit's foundations, if it fits both.
        if move.src != "w" or deal < 2 or not turned or turned[-1] == UNKNOWN:
            return False
        card = turned[-1]
        aside = [p.id for p in table.game.piles if p.role is Role.RESERVE]
        fits = [f for f in _foundations(table) if _record_is_legal(table, Move("w", f, 1))]
        ups = [f for f in fits if table.game.pile(f).rule.build is Build.UP]
        return move.dst == aside[SUIT_OF[card]] and bool(ups) and len(fits) > len(ups)
    if move.src in letters and move.dst in letters:
        below, above = table.codes(move.dst), table.codes(move.src)
        if dealing or not below or not above or below[-1] == UNKNOWN or above[-1] == UNKNOWN:
            return False
        return SUIT_OF[below[-1]] == SUIT_OF[above[-1]] and abs(RANK_OF[below[-1]] - RANK_OF[above[-1]]) == 1
    if move.src in letters and dealing and not circle & (1 << letters.index(move.src)):
        return False
    if table.game.pile(move.src).role is Role.FOUNDATION and (deal < 2 or len(table.codes(move.src)) < 2):
        return False
    return _record_is_legal(table, move)


def _great_thirteen_is_legal(table: Table, move: Move) -> bool:
    """The Great Thirteen: ground top cards to the numeral column whose balcony card they double (vacancies,
    first, Rule II) or to which they add it, modulo thirteen; when nothing can be placed, the leftmost packet
    not yet re-dealt is dealt out whole, starting on the position to its right."""
    ids = table.pile_ids
    if move.src not in ids or move.dst not in ids:
        return False
    ground = [p.id for p in table.game.piles if p.role is Role.GROUND]
    numerals = [p.id for p in table.game.piles if p.role is Role.NUMERAL]
    balcony = [p.id for p in table.game.piles if p.role is Role.BALCONY]

    def placeable(src: str, dst: str, vacancy: bool) -> bool:
        """A ground top card fits the numeral column ``dst``: by doubling if ``vacancy``, else by addition."""
        column = table.codes(dst)
        above = table.codes(balcony[numerals.index(dst)])
        top = table.codes(src)
        if len(above) != 1 or above[0] == UNKNOWN or not top or top[-1] == UNKNOWN:
            return False
        if table.face_down_count(src) >= len(top) or (src in table.faces and not table.faces[src][-1]):
            return False
        step = RANK_OF[above[0]]
        if vacancy:
            if column:
                return False
            need = 2 * step
        else:
            if not column or column[-1] == UNKNOWN or RANK_OF[column[-1]] == 13:
                return False
            need = RANK_OF[column[-1]] + step
        while need > 13:
            need -= 13
        return RANK_OF[top[-1]] == need

    any_vacancy_fill = any(placeable(g, n, True) for g in ground for n in numerals)
    if move.src in ground and move.dst in numerals:
        if move.count != 1:
            return False
        if any_vacancy_fill:
            return placeable(move.src, move.dst, True)
        return placeable(move.src, move.dst, False)
    if move.src in ground and move.dst in ground:
        if any_vacancy_fill or any(placeable(g, n, False) for g in ground for n in numerals):
            return False
        done = table.hook_state[0]
        waiting = [g for g in ground[max(done, 0) :] if table.codes(g)]
        if not waiting or move.src != waiting[0]:
            return False
        after = ground[(ground.index(move.src) + 1) % len(ground)]
        return move.dst == after and move.count == len(table.codes(move.src))
    return False


_ODD_RULES: dict[str, Callable[[Table, Move], bool]] = {
    "louis": _louis_is_legal,
    "the-queens": _queens_is_legal,
    "sly": _sly_is_legal,
    "the-great-thirteen": _great_thirteen_is_legal,
}


def reference_moves(table: Table) -> set[Move]:
    """Every legal move, by trying every source, target and count."""
    found: set[Move] = set()
    total = sum(len(table.codes(pile)) for pile in table.pile_ids)
    stocks = {spec.id for spec in table.game.piles if spec.role is Role.STOCK}
    for src in table.pile_ids:
        for dst in table.pile_ids:
            if src == dst:
                continue
            # A move onto the stock may take more cards than its source holds: Louis gathers the whole alphabet,
            # written from its first packet (g:N>s).
            most = total if dst in stocks else len(table.codes(src))
            for count in range(1, most + 1):
                move = Move(src, dst, count)
                if reference_is_legal(table, move):
                    found.add(move)
    return found
