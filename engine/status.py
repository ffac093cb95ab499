"""Position checks: every problem of a table at once, each with the piles and cards involved and a sentence.

This is the misdeal report of ``cadogan check``. The camera sees what it sees, so a ``Table`` may hold an
impossible position; here we say what is wrong with it in words a player understands.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise

from engine.cards import CARDS, RANK_OF, RANK_WORDS, RED_OF, SUIT_OF, UNKNOWN
from engine.layout import BASE_ACE, BASE_DEALT, BASE_KING, SUIT_ALTERNATE, SUIT_SAME, game_index
from engine.rules import Role
from engine.table import Stage, Table


class ProblemKind(Enum):
    DUPLICATE_CARD = "duplicate card"
    MISSING_CARD = "missing card"
    EXTRA_CARDS = "too many cards"
    WRONG_PILES = "wrong piles"
    WRONG_PILE_SIZE = "wrong number of cards in a pile"
    FACE_PATTERN = "face-up/face-down pattern wrong"
    FOUNDATION_SEQUENCE = "foundation out of suit or sequence"
    FOUNDATION_BASE = "wrong foundation base"
    IMPOSSIBLE_CARD = "a card where the rules could never have put it"
    UNKNOWN_FACE_UP = "a face-up card that was not read"


@dataclass(frozen=True, slots=True)
class Problem:
    kind: ProblemKind
    message: str
    piles: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.kind.value}: {self.message}"


def _name(table: Table, pile_id: str) -> str:
    return table.game.pile(pile_id).name


def problems(table: Table, extra: tuple[Problem, ...] = ()) -> list[Problem]:
    """Every problem of ``table``, in a stable order (card counts, then pile by pile)."""
    found = list(extra)
    found += _card_count_problems(table)
    if table.stage is Stage.DEAL:
        found += _deal_problems(table)
    found += _pile_problems(table)
    if table.game.hooks is not None:  # rules only the game's hooks know (e.g. one Sly foundation per suit)
        found += table.game.hooks.problems(table)
    return found


def _card_count_problems(table: Table) -> list[Problem]:
    game = table.game
    counts: Counter[int] = Counter()
    where: dict[int, list[str]] = {}
    for pile_id in table.pile_ids:
        for code in table.codes(pile_id):
            counts[code] += 1
            where.setdefault(code, []).append(pile_id)
    out: list[Problem] = []
    for code in sorted(c for c in counts if c != UNKNOWN):
        if counts[code] > game.packs:
            card = str(CARDS[code])
            places = ", ".join(_name(table, p) for p in where[code])
            times = "twice" if counts[code] == 2 else f"{counts[code]} times"
            out.append(
                Problem(
                    ProblemKind.DUPLICATE_CARD,
                    f"the {CARDS[code].sentence} is on the table {times} ({places})"
                    + ("" if game.packs == 1 else f" but there are only {game.packs} packs"),
                    tuple(dict.fromkeys(where[code])),
                    (card,),
                )
            )
    total = sum(counts.values())
    unknown = counts[UNKNOWN]
    missing = [code for code in range(52) if counts[code] < game.packs]
    missing_copies = sum(game.packs - counts[code] for code in missing)
    if total > game.card_count:
        out.append(
            Problem(
                ProblemKind.EXTRA_CARDS,
                f"there are {total} cards on the table, the game uses {game.card_count}",
            )
        )
    elif missing_copies > unknown:
        # Unknown cards may be any of the missing ones; name them only when no unknown card can be one.
        if unknown == 0:
            names = ", ".join(str(CARDS[c]) for c in missing)
            out.append(
                Problem(
                    ProblemKind.MISSING_CARD,
                    f"{len(missing)} card{'s are' if len(missing) != 1 else ' is'} missing: {names}",
                    (),
                    tuple(str(CARDS[c]) for c in missing),
                )
            )
        else:
            out.append(
                Problem(
                    ProblemKind.MISSING_CARD,
                    f"{missing_copies - unknown} card(s) missing: the table holds {total} of {game.card_count}",
                )
            )
    return out


def _deal_problems(table: Table) -> list[Problem]:
    out: list[Problem] = []
    sizes = table.game.deal_sizes()
    g = game_index(table.game)
    for pile_id in table.pile_ids:
        want_down, want_up = sizes[pile_id]
        if g.roles[g.index[pile_id]] is Role.STOCK:
            want_down = table.game.card_count - sum(d + u for p, (d, u) in sizes.items() if p != pile_id)
        have = len(table.codes(pile_id))
        name = _name(table, pile_id)
        if have != want_down + want_up:
            out.append(
                Problem(
                    ProblemKind.WRONG_PILE_SIZE,
                    f"{name} has {have} card{'s' if have != 1 else ''}, the deal puts {want_down + want_up} there",
                    (pile_id,),
                )
            )
            continue
        down = table.face_down_count(pile_id)
        if pile_id in table.faces:
            down = sum(not up for up in table.faces[pile_id])
        if down != want_down:
            out.append(
                Problem(
                    ProblemKind.FACE_PATTERN,
                    f"{name} has {down} face-down card{'s' if down != 1 else ''}, it should have {want_down}",
                    (pile_id,),
                )
            )
    return out


def _pile_problems(table: Table) -> list[Problem]:
    out: list[Problem] = []
    g = game_index(table.game)
    base_rank = table.base_rank()
    for i, pile_id in enumerate(g.ids):
        role = g.roles[i]
        codes = table.codes(pile_id)
        name = _name(table, pile_id)
        if pile_id in table.faces:
            out.append(
                Problem(
                    ProblemKind.FACE_PATTERN,
                    f"{name} has a face-down card lying on a face-up card",
                    (pile_id,),
                )
            )
            continue
        down = table.face_down_count(pile_id)
        # Right after the deal, the deal check already counts face-down cards pile by pile.
        if table.stage is not Stage.DEAL:
            out += _face_problems(table, i, pile_id, codes, down)
        face_up = codes[down:]
        if role is Role.FOUNDATION:
            out += _foundation_problems(table, i, pile_id, codes, base_rank)
        elif role in (Role.TABLEAU, Role.SHUTTER) and len(face_up) > 1:  # the Queens' shutter is built too
            out += _tableau_problems(table, i, pile_id, face_up)
        if role is not Role.STOCK and down < len(codes) and codes[-1] == UNKNOWN:
            out.append(Problem(ProblemKind.UNKNOWN_FACE_UP, f"the top card of {name} could not be read", (pile_id,)))
    return out


def _face_problems(table: Table, i: int, pile_id: str, codes: tuple[int, ...], down: int) -> list[Problem]:
    g = game_index(table.game)
    role = g.roles[i]
    name = _name(table, pile_id)
    dealt_down = table.game.deal_sizes()[pile_id][0]
    if role is Role.STOCK and down != len(codes):
        return [Problem(ProblemKind.FACE_PATTERN, f"{name} has face-up cards in it", (pile_id,))]
    if down and role is not Role.STOCK and (role is not Role.TABLEAU or dealt_down == 0):
        return [Problem(ProblemKind.FACE_PATTERN, f"{name} has face-down cards in it", (pile_id,))]
    if codes and down == len(codes) and g.flip[i]:
        return [
            Problem(
                ProblemKind.FACE_PATTERN,
                f"the top card of {name} is face down: it is turned up as soon as it is uncovered",
                (pile_id,),
            )
        ]
    return []


def _foundation_problems(
    table: Table, i: int, pile_id: str, codes: tuple[int, ...], base_rank: int | None
) -> list[Problem]:
    g = game_index(table.game)
    name = _name(table, pile_id)
    out: list[Problem] = []
    if not codes or codes[0] == UNKNOWN:
        return out
    base = g.base[i]
    first = CARDS[codes[0]]
    if (base == BASE_ACE and first.rank != 1) or (base == BASE_KING and first.rank != 13):
        want = "an ace" if base == BASE_ACE else "a king"
        out.append(
            Problem(
                ProblemKind.FOUNDATION_BASE,
                f"{name} starts with the {first.sentence}, it must start with {want}",
                (pile_id,),
                (str(first),),
            )
        )
    elif base == BASE_DEALT and base_rank is not None and first.rank != base_rank:
        # The deal puts the base card on the first foundation; every other one must start with that rank.
        out.append(
            Problem(
                ProblemKind.FOUNDATION_BASE,
                f"{name} starts with the {first.sentence}, but the foundations start with "
                f"{RANK_WORDS[base_rank - 1]}s in this deal",
                (pile_id,),
                (str(first),),
            )
        )
    next_rank = g.next_rank[i]
    for below, above in pairwise(codes):
        if below == UNKNOWN or above == UNKNOWN:
            continue
        if SUIT_OF[below] != SUIT_OF[above] or next_rank[RANK_OF[below]] != RANK_OF[above]:
            out.append(
                Problem(
                    ProblemKind.FOUNDATION_SEQUENCE,
                    f"on {name} the {CARDS[above].sentence} lies on the {CARDS[below].sentence}",
                    (pile_id,),
                    (str(CARDS[above]), str(CARDS[below])),
                )
            )
    return out


def _tableau_problems(table: Table, i: int, pile_id: str, face_up: tuple[int, ...]) -> list[Problem]:
    """Face-up cards in a column got there by building, so each must fit on the one below."""
    g = game_index(table.game)
    name = _name(table, pile_id)
    next_rank = g.next_rank[i]
    rule = g.suit_rule[i]
    out: list[Problem] = []
    for below, above in pairwise(face_up):
        if below == UNKNOWN or above == UNKNOWN:
            continue
        fits = next_rank[RANK_OF[below]] == RANK_OF[above]
        if rule == SUIT_ALTERNATE:
            fits = fits and RED_OF[below] != RED_OF[above]
        elif rule == SUIT_SAME:
            fits = fits and SUIT_OF[below] == SUIT_OF[above]
        if not fits:
            out.append(
                Problem(
                    ProblemKind.IMPOSSIBLE_CARD,
                    f"in {name} the {CARDS[above].sentence} lies on the {CARDS[below].sentence}, "
                    "which the building rule never allows",
                    (pile_id,),
                    (str(CARDS[above]), str(CARDS[below])),
                )
            )
    return out
