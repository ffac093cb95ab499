"""Verification: explain the change between two tables as legal moves, or name the illegal move.

The camera gives a sequence of still tables. Between two of them the player made one move, or a few if
the camera missed a still moment. ``explain`` searches the legal move sequences (shortest first) for one
whose result agrees with what was seen; cards the camera could not read (unknown) agree with anything,
and cards it reads for the first time (a face-down card turned up) are filled in. When no legal
sequence explains the change, ``explain`` looks for a single move made against the rules and says which
rule it broke.

>>> from engine.games import find_game
>>> from engine.table import Table
>>> before = Table.dealt(find_game("klondike"), seed=3)
>>> after = before.copy(); after.push(Move.parse("t2>t1"))
>>> explain(before, after).moves
(Move(src='t2', dst='t1', count=1),)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from engine.cards import CARDS, RANK_OF, RANK_WORDS, RED_OF, SUIT_OF, UNKNOWN
from engine.moves import Move
from engine.reference import reference_is_legal
from engine.rules import Base, Build, MoveUnit, Role, SuitRule
from engine.table import Table


@dataclass(frozen=True, slots=True)
class Explanation:
    moves: tuple[Move, ...]
    """The moves that explain the change (empty when nothing changed)."""
    legal: bool
    sentences: tuple[str, ...]
    reason: str = ""
    """For an illegal move: the rule it broke, in words."""
    revealed: tuple[tuple[str, int, int], ...] = ()
    """Cards read for the first time: (pile, index, card code)."""


def agrees(model: Table, seen: Table, partial: bool = False) -> bool:
    """Does the observed table agree with the model, unknown cards matching anything?

    ``partial``: the observation lists only the cards the camera can see, face up, top-aligned (no
    face-down cards, only the top card of a squared packet): each seen pile must match the top of the
    model's face-up cards, and a tableau cascade must show all of them.
    """
    return all(pile_agrees(model, seen, pile, partial) for pile in model.pile_ids)


def pile_agrees(model: Table, seen: Table, pile: str, partial: bool = False) -> bool:
    """``agrees`` for one pile."""
    ours, theirs = model.codes(pile), seen.codes(pile)
    if partial:
        face_up = len(ours) - model.face_down_count(pile)
        cascade = model.game.pile(pile).role is Role.TABLEAU
        if len(theirs) > face_up or (len(theirs) != face_up if cascade else (face_up > 0) != (len(theirs) > 0)):
            return False
        ours = ours[len(ours) - len(theirs) :]
    elif len(ours) != len(theirs) or model.face_down_count(pile) != seen.face_down_count(pile):
        return False
    return all(a in (b, UNKNOWN) or b == UNKNOWN for a, b in zip(ours, theirs, strict=True))


def _seen_card(model: Table, seen: Table, pile: str, index: int, partial: bool) -> int:
    """The observed card at the model's position ``index`` of ``pile`` (UNKNOWN if not seen there)."""
    theirs = seen.codes(pile)
    if partial:
        index -= len(model.codes(pile)) - len(theirs)
    return theirs[index] if 0 <= index < len(theirs) else UNKNOWN


def reveal(model: Table, seen: Table, partial: bool = False) -> tuple[Table, tuple[tuple[str, int, int], ...]]:
    """A copy of ``model`` with the cards the observation reads where the model did not know them."""
    revealed: list[tuple[str, int, int]] = []
    piles: list[list[int]] = []
    for pile in model.pile_ids:
        ours = list(model.codes(pile))
        for k, a in enumerate(ours):
            b = _seen_card(model, seen, pile, k, partial)
            if a == UNKNOWN and b != UNKNOWN:
                ours[k] = b
                revealed.append((pile, k, b))
        piles.append(ours)
    table = Table(
        model.game,
        piles,
        [model.face_down_count(p) for p in model.pile_ids],
        passes=model.passes,
        waste_played=model.waste_played,
        stage=model.stage,
    )
    return table, tuple(revealed)


def explain(
    before: Table, seen: Table, max_moves: int = 3, partial: bool = False, *, prune: bool = True
) -> Explanation | None:
    """The shortest legal move sequence (up to ``max_moves``) from ``before`` to what was ``seen``, else
    the single illegal move that explains it, else None (the reading is not explained by any move). ``prune``:
    the last moves' children are made only where they may agree (``_may_agree``; the same answer, sooner)."""
    if agrees(before, seen, partial):
        return Explanation((), True, ())
    fresh = _newly_seen(before, seen)
    # each line of moves with the tables it went through: a card a move turned up is named in the next move's
    # sentence as the line took it to be ("move the 5 of clubs", not "an unknown card")
    frontier: list[tuple[Table, tuple[Move, ...], tuple[Table, ...]]] = [
        (root, (), ()) for root in _unknown_tops(before, seen, fresh, partial)
    ]
    visited = {before.key()}
    turns = _stock_turns(before)
    for depth in range(max_moves):
        last = depth == max_moves - 1
        next_frontier: list[tuple[Table, tuple[Move, ...], tuple[Table, ...]]] = []
        for table, line, path in frontier:
            for move in sorted(table.generate_moves(), key=turns):
                if prune and last and not _may_agree(table, move, seen, partial):
                    continue  # (the last moves' children are only looked at for agreement: none of these agrees)
                for child in _children(table, move, seen, fresh, partial):
                    key = child.key()
                    if key in visited:
                        continue
                    visited.add(key)
                    if agrees(child, seen, partial):
                        found = (*line, move)
                        _, revealed = reveal(table_after(before, found), seen, partial)
                        said = tuple(t.describe(m) for t, m in zip((*path, table), found, strict=True))
                        return Explanation(found, True, said, revealed=revealed)
                    next_frontier.append((child, (*line, move), (*path, table)))
        frontier = next_frontier
        if len(frontier) > 5_000:
            break
    return _illegal(before, seen, partial)


def _may_agree(table: Table, move: Move, seen: Table, partial: bool) -> bool:
    """Whether a child of ``table`` by ``move`` (``_children``) may agree with ``seen``: the child with the cards
    the move turned up left unknown must. Naming an unknown card only narrows what it agrees with, so when this is
    False none of the named children agrees either (a search's last moves: most of its work, spared)."""
    child = table.copy()
    child.push(move)
    return agrees(child, seen, partial)


def _stock_turns(table: Table) -> Callable[[Move], bool]:
    """Whether a move of ``table``'s game turns the stock (or turns the waste back over): ``explain`` tries such
    moves last, so that of two moves that could go in either order the turn comes after the other. A player turns
    the stock when the cards in sight offer nothing more (measured on the recorded games, where a move and a turn
    read in one change were told turn first, out of order: heldout3's jk-legal-2 and heldout5's nk-legal-2 with
    the enrolled reader, heldout4's mc-illegal-1 with the plain one)."""
    stock = {spec.id for spec in table.game.piles_with_role(Role.STOCK)}
    waste = {spec.id for spec in table.game.piles_with_role(Role.WASTE)}
    return lambda move: move.src in stock or (move.src in waste and move.dst in stock)


def _newly_seen(before: Table, seen: Table) -> list[int]:
    """Cards the observation reads that the model did not know anywhere: the cards turned up since."""
    known: dict[int, int] = {}
    for pile in before.pile_ids:
        for code in before.codes(pile):
            known[code] = known.get(code, 0) + 1
    fresh: list[int] = []
    for pile in seen.pile_ids:
        for code in seen.codes(pile):
            if code == UNKNOWN:
                continue
            if known.get(code, 0) > 0:
                known[code] -= 1
            else:
                fresh.append(code)
    return fresh


def _children(table: Table, move: Move, seen: Table, fresh: list[int], partial: bool) -> list[Table]:
    """The table after ``move``; when the move turned up a card the model did not know, one child per
    identity it may have (the card read at its place, else each newly seen card), so that later moves
    in the same sequence can use it."""
    child = table.copy()
    child.push(move)
    slots = [
        pile
        for pile in (move.src, move.dst)
        if (codes := child.codes(pile)) and codes[-1] == UNKNOWN and child.face_down_count(pile) < len(codes)
    ]
    if not slots or not fresh:
        return [child]
    children = [child]
    for pile in slots:
        index = len(child.codes(pile)) - 1
        at_place = _seen_card(child, seen, pile, index, partial)
        # the card read at its place, unless the table holds it already (the card turned up was played on at
        # once: a stock turned and its card put on a column, the waste's old top read in its place)
        held = at_place != UNKNOWN and _copies(child, at_place) >= child.game.packs
        if at_place != UNKNOWN and not held:
            # or a new card read on another pile: this one turned up and played at once, the card read at its
            # place the one under it (c-legal-1: a stock turn's 5C played to its foundation, the 3C under it read)
            options = [at_place, *(code for code in dict.fromkeys(fresh) if code not in seen.codes(pile))]
        else:
            options = list(dict.fromkeys(fresh))
        # (an earlier move of the same sequence may have taken a card already)
        grown = _each_named(children, pile, index, options)
        # a card read where the table holds it already may be the sequence's own guess (a waste card played, the
        # one under it taken for the card read on top, then a turn): the turned card stays unknown as well; so does
        # one on a packet whose place shows a card: a packet shows only its top cards, so the place is counted from
        # the top and a later move of the sequence may cover it (gc-legal-1: two turns, the first turn's top taken
        # for the second turn's top read at its place, needed a third turn); a cascade shows every face-up card
        packet = at_place != UNKNOWN and child.game.pile(pile).role is not Role.TABLEAU
        children = [*children, *grown] if held or packet else grown or children
    return children


UNKNOWN_TOP_ROOTS = 256
"""The most search roots ``_unknown_tops`` makes by naming several unknown tops at once; past it each further pile's
top is named alone (on ``before``), so that k unknown tops and n fresh cards give about k x n roots, not (n + 1)^k."""


def _unknown_tops(before: Table, seen: Table, fresh: list[int], partial: bool) -> list[Table]:
    """``before``, and with a camera's readings (``partial``) also ``before`` with each face-up card it holds unknown
    on top of a pile (turned up earlier and never read) taken for each card read now that it does not know, unless
    read in that very place: such a card can only be moved once it is named (a reserve's new top never read, then
    put into a space, read there: heldout13's xc-illegal-1, the noisy reader). Several such tops are named together
    while the roots stay within ``UNKNOWN_TOP_ROOTS``."""
    roots = [before.copy()]
    if not partial or not fresh:
        return roots
    for pile in before.pile_ids:
        codes = before.codes(pile)
        if not codes or codes[-1] != UNKNOWN or before.face_down_count(pile) >= len(codes):
            continue
        at_place = _seen_card(before, seen, pile, len(codes) - 1, partial)
        options = [code for code in dict.fromkeys(fresh) if code != at_place]
        named = _each_named(roots, pile, len(codes) - 1, options)
        if len(roots) + len(named) > UNKNOWN_TOP_ROOTS:
            named = _each_named(roots[:1], pile, len(codes) - 1, options)
        roots += named
    return roots


def _each_named(tables: list[Table], pile: str, index: int, options: list[int]) -> list[Table]:
    """Each table with its unknown card at ``index`` of ``pile`` named as each of ``options``; a card a table
    already holds as often as the game's packs allow cannot be that card (no table with a duplicate card)."""
    named: list[Table] = []
    for table in tables:
        counts = Counter(code for pile_id in table.pile_ids for code in table.codes(pile_id))
        named += [with_card(table, pile, index, code) for code in options if counts[code] < table.game.packs]
    return named


def _copies(table: Table, code: int) -> int:
    return sum(table.codes(pile).count(code) for pile in table.pile_ids)


def with_card(table: Table, pile: str, index: int, code: int) -> Table:
    """A copy of ``table`` with the card at ``index`` of ``pile`` (bottom first) replaced by ``code``."""
    piles = [list(table.codes(p)) for p in table.pile_ids]
    piles[table.pile_ids.index(pile)][index] = code
    return with_piles(table, piles)


def with_piles(table: Table, piles: list[list[int]]) -> Table:
    """A copy of ``table`` holding ``piles`` (per pile, bottom first, face-down cards included and counted as in
    ``table``), everything else kept."""
    return Table(
        table.game,
        piles,
        [table.face_down_count(p) for p in table.pile_ids],
        passes=table.passes,
        waste_played=table.waste_played,
        stage=table.stage,
    )


def table_after(start: Table, moves: tuple[Move, ...]) -> Table:
    table = start.copy()
    for move in moves:
        table.push(move)
    return table


def _illegal(before: Table, seen: Table, partial: bool, prune: bool = True) -> Explanation | None:
    """Try every physical move of top cards (legal or not); one whose result agrees is the illegal move.

    ``prune``: in a game without hooks a move changes only its two piles (and the reserve that refills a
    space): piles that disagree elsewhere rule every move out, and only moves between the disagreeing piles
    are tried (the same answer, found without trying the others; a test compares both ways)."""
    model = before.copy()
    must: set[str] = set()
    if prune and before.game.hooks is None:
        refill = before.game.autofill_from
        must = {p for p in before.pile_ids if p != refill and not pile_agrees(before, seen, p, partial)}
        if len(must) > 2:
            return None
    for src in model.pile_ids:
        for dst in model.pile_ids:
            if src == dst or not must <= {src, dst}:
                continue
            for count in range(1, len(model.codes(src)) + 1):
                move = Move(src, dst, count)
                model.push(move)
                match = agrees(model, seen, partial)
                model.pop()
                if match and not reference_is_legal(before, move):
                    return Explanation((move,), False, (before.describe(move),), why_illegal(before, move))
    return None


def _colour(code: int) -> str:
    return "red" if RED_OF[code] else "black"


NOT_READ = "was not read"
"""How ``why_illegal`` ends a reason it could not judge: the move's card, or the card it went on, is unknown."""


def judged(reason: str) -> bool:
    """Whether ``why_illegal``'s ``reason`` judges the move by its cards: a move of a card never read, or onto
    one, breaks no rule anyone can name (the camera missed a card)."""
    return not reason.endswith(NOT_READ)


def why_illegal(table: Table, move: Move) -> str:
    """The rule ``move`` breaks in this position, in words a player understands."""
    game = table.game
    if move.src not in table.pile_ids or move.dst not in table.pile_ids:
        return f"{move} names a pile this game does not have"
    src_spec, dst_spec = game.pile(move.src), game.pile(move.dst)
    src, dst = table.codes(move.src), table.codes(move.dst)
    if move.count > len(src):
        return f"{src_spec.name} has only {len(src)} cards"
    if src_spec.rule.gives is MoveUnit.NONE and src_spec.role is not Role.STOCK:
        return f"cards may not be taken from {src_spec.name}"
    if len(src) - move.count < table.face_down_count(move.src):
        return "a face-down card may not be moved"
    card = src[len(src) - move.count]
    if card == UNKNOWN:
        return f"the moved card {NOT_READ}"
    name = f"{_colour(card)} {RANK_WORDS[RANK_OF[card] - 1]}"
    rule = dst_spec.rule
    if dst_spec.role is Role.FOUNDATION and move.count > 1:
        return "foundations take one card at a time"
    if src_spec.role is Role.TABLEAU and dst_spec.role is not Role.FOUNDATION:
        unit = src_spec.rule.gives
        face_up = len(src) - table.face_down_count(move.src)
        if unit is MoveUnit.WHOLE_RUN and move.count != face_up:
            return f"the {face_up} face-up cards of {src_spec.name} move together or not at all"
        if unit is MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO and move.count != len(src) and len(src) != 2:
            return f"only a whole column moves (or the top card of a column of two), not part of {src_spec.name}"
    if not dst:
        if rule.base is Base.KING and RANK_OF[card] != 13:
            return f"only a king may fill {dst_spec.name}, not a {name}"
        if rule.base is Base.ACE and RANK_OF[card] != 1:
            return f"{dst_spec.name} must start with an ace, not a {name}"
        if rule.base is Base.DEALT:
            base = table.base_rank()
            if base is not None and RANK_OF[card] != base:
                return f"{dst_spec.name} must start with a {RANK_WORDS[base - 1]}, not a {name}"
        if src_spec.role not in rule.space_from | rule.space_fallback:
            return f"{dst_spec.name} may not be filled from {src_spec.name}"
        return f"{dst_spec.name} may not be filled from {src_spec.name} now"
    under = dst[-1]
    if under == UNKNOWN:
        return f"the top card of {dst_spec.name} {NOT_READ}"
    under_name = f"{_colour(under)} {RANK_WORDS[RANK_OF[under] - 1]}"
    if rule.suits is SuitRule.ALTERNATE_COLOUR and RED_OF[card] == RED_OF[under]:
        return f"{name} on {under_name} is not allowed: colours must alternate"
    if rule.suits is SuitRule.SAME_SUIT and SUIT_OF[card] != SUIT_OF[under]:
        return f"the {CARDS[card].sentence} may not go on the {CARDS[under].sentence}: it must follow suit"
    direction = "down" if rule.build is Build.DOWN else "up"
    if rule.build is not Build.NONE:
        return f"{name} on {under_name} is not allowed: {dst_spec.name} builds {direction} one rank at a time"
    return f"nothing may be put on {dst_spec.name}"


@dataclass(frozen=True, slots=True)
class Step:
    index: int
    """Index of the observed table that ends this step."""
    explanation: Explanation | None


@dataclass(frozen=True, slots=True)
class GameReport:
    steps: tuple[Step, ...]
    final: Table
    first_illegal: int | None
    """Index of the step with the first illegal move, if any."""
    unexplained: tuple[int, ...]

    @property
    def legal(self) -> bool:
        return self.first_illegal is None and not self.unexplained


def verify_tables(observed: list[Table], max_moves: int = 3, partial: bool = False) -> GameReport:
    """Check a recorded game given as its sequence of still tables: every change explained by legal moves.

    After an illegal move the game goes on from what was seen, so later moves are still checked.
    """
    if not observed:
        raise ValueError("no tables to verify")
    model = observed[0].copy()
    steps: list[Step] = []
    first_illegal: int | None = None
    unexplained: list[int] = []
    for index, (_, seen) in enumerate(pairwise(observed), start=1):
        explanation = explain(model, seen, max_moves, partial)
        steps.append(Step(index, explanation))
        if explanation is None:
            unexplained.append(index)
            model = seen.copy()
            continue
        if not explanation.legal and first_illegal is None:
            first_illegal = index
        for move in explanation.moves:
            model.push(move)
        model, _ = reveal(model, seen, partial)
    return GameReport(tuple(steps), model, first_illegal, tuple(unexplained))
