"""Sly, from Lady Cadogan's Illustrated Games of Solitaire (1914). Two packs.

The records give the piles: the promenade of twenty packets (``p1``..``p20``), four ace foundations built up in
suit (``f1``..``f4``), four king foundations built down in suit (``f5``..``f8``), the pack (``s``) and the card just
turned from it (``w``, never more than one card: there is no talon in Sly). The hooks add the rounds:

- The turned card must be placed (on a foundation or the promenade) before the next is turned.
- Between rounds, every promenade card that can be played is played and vacancies are refilled from the pack
  ("when no more can be played, deal out a second row"). A card is turned for the next round, and a turned card
  may go on a covered packet, only once no packet is vacant and no promenade card can be played; that card opens
  a round.
- In a round, the player places twenty cards on packets of his choice (cards played to the foundations as they
  are turned do not count). Nothing is played from the promenade until the twenty are placed, or the pack is
  exhausted. The count is the table's hook state ``placed`` (0 between rounds).
- One ace foundation and one king foundation per suit.

See docs/rules/sly.md for the readings chosen.
"""

from __future__ import annotations

from engine.cards import CARDS, SUIT_OF
from engine.moves import Move
from engine.rules import (
    Base,
    Build,
    DealStep,
    Game,
    GameHooks,
    MoveUnit,
    PileRule,
    PileSpec,
    Role,
    StockRule,
    SuitRule,
)
from engine.status import Problem, ProblemKind
from engine.table import Table

SOURCE = 'Lady Cadogan\'s Illustrated Games of Solitaire or Patience (1914), chapter "Sly"'

ROUND = 20
PROMENADE = tuple(f"p{n}" for n in range(1, 21))
ACES = ("f1", "f2", "f3", "f4")
KINGS = ("f5", "f6", "f7", "f8")

_FEEDS = frozenset({Role.WASTE, Role.PROMENADE})
# Rule I: the foundations follow suit, the aces ascending to kings, the kings descending to aces.
ACE_FOUNDATION = PileRule(
    build=Build.UP, suits=SuitRule.SAME_SUIT, base=Base.ACE, accepts_from=_FEEDS, space_from=_FEEDS
)
KING_FOUNDATION = PileRule(
    build=Build.DOWN, suits=SuitRule.SAME_SUIT, base=Base.KING, accepts_from=_FEEDS, space_from=_FEEDS
)
# Rules II, III: cards are placed on a packet whatever it holds (the hooks' move); only the top card is available;
# cards are never moved from packet to packet. A vacancy is refilled from the pack.
PACKET = PileRule(base=Base.ANY, space_from=frozenset({Role.WASTE}), gives=MoveUnit.TOP_CARD)
TURNED = PileRule(gives=MoveUnit.TOP_CARD)
STOCK = PileRule()

PILES = (
    PileSpec("s", Role.STOCK, STOCK, "the pack"),
    PileSpec("w", Role.WASTE, TURNED, "the turned card"),
    *(PileSpec(f, Role.FOUNDATION, ACE_FOUNDATION, f"ace foundation {n}") for n, f in enumerate(ACES, 1)),
    *(PileSpec(f, Role.FOUNDATION, KING_FOUNDATION, f"king foundation {n}") for n, f in enumerate(KINGS, 1)),
    *(PileSpec(p, Role.PROMENADE, PACKET, f"packet {p[1:]}") for p in PROMENADE),
)
DEAL = tuple(DealStep(p, 1, True) for p in PROMENADE)


def _started_suits(table: Table, group: tuple[str, ...]) -> list[int]:
    return [SUIT_OF[codes[0]] for f in group if (codes := table.codes(f)) and codes[0] >= 0]


class SlyHooks(GameHooks):
    state_fields = ("placed",)
    """Cards placed on the promenade in the current round of twenty; 0 between rounds."""

    def moves(self, table: Table, generic: list[Move]) -> list[Move]:
        placed = table.hook_state[0]
        turned = table.codes("w")
        pack_left = bool(turned) or bool(table.codes("s"))
        in_round = placed > 0 and pack_left
        vacancy = any(not table.codes(p) for p in PROMENADE)
        started = {"f1": _started_suits(table, ACES), "f5": _started_suits(table, KINGS)}
        out: list[Move] = []
        for move in generic:
            if move.src == "s" and turned:
                continue  # place the turned card first
            if in_round and move.src[0] == "p":
                continue  # Rule IV: nothing leaves the promenade until the twenty are placed
            if move.dst[0] == "f" and not table.codes(move.dst):
                group = started["f1" if move.dst in ACES else "f5"]
                if SUIT_OF[table.codes(move.src)[-1]] in group:
                    continue  # one ace and one king foundation per suit
            out.append(move)
        # "Between each deal examine the promenade, and play from it all available cards": the next round waits.
        plays_left = placed == 0 and any(move.src[0] == "p" for move in out)
        if plays_left and not vacancy:
            out = [move for move in out if move.src != "s"]
        if turned and (placed > 0 or not (vacancy or plays_left)):
            out += [Move("w", p, 1) for p in PROMENADE if table.codes(p)]
        return out

    def push(self, table: Table, move: Move) -> object | None:
        if move.src == "w" and move.dst[0] == "p":
            placed = table.hook_state[0]
            if placed > 0 or table.codes(move.dst):  # a refilled vacancy between rounds does not count
                table.set_hook_state(((placed + 1) % ROUND,))
        return None  # the Table moves the card itself

    def problems(self, table: Table) -> list[Problem]:
        out: list[Problem] = []
        for group, what in ((ACES, "ace"), (KINGS, "king")):
            seen: dict[int, str] = {}
            for f in group:
                codes = table.codes(f)
                if not codes or codes[0] < 0:
                    continue
                suit = SUIT_OF[codes[0]]
                if suit in seen:
                    out.append(
                        Problem(
                            ProblemKind.FOUNDATION_BASE,
                            f"two {what} foundations of one suit: {table.game.pile(seen[suit]).name} and "
                            f"{table.game.pile(f).name} both start with the {CARDS[codes[0]].sentence}",
                            (seen[suit], f),
                        )
                    )
                seen[suit] = f
        turned = len(table.codes("w"))
        if turned > 1:
            out.append(
                Problem(
                    ProblemKind.WRONG_PILE_SIZE,
                    f"{turned} cards are turned up beside the pack; each is placed before the next is turned",
                    ("w",),
                )
            )
        return out


SLY = Game(
    name="sly",
    title="Sly",
    source=SOURCE,
    summary="A promenade of twenty; rounds of twenty cards placed on packets of your choice, nothing played from "
    "the promenade until a round is placed; aces up and kings down in suit; no re-deal.",
    piles=PILES,
    deal=DEAL,
    stock=StockRule(draw=1, passes=1),
    packs=2,
    rules_doc="docs/rules/sly.md",
    hooks=SlyHooks(),
)

GAMES = (SLY,)
