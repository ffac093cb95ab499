"""The "Louis" Patience, from Lady Cadogan's Illustrated Games of Solitaire (1914). Two packs.

Records: four ace foundations built up in suit (``f1``..``f4``: spades, hearts, diamonds, clubs) and four king
foundations built down in suit (``f5``..``f8``), withdrawn from the pack before the deal; the alphabet of twelve
packets ``a b c d e f g h i k l m`` (no j); the pack (``s``), the card just turned (``w``) and, per suit, the cards
laid aside (``x1``..``x4``: spades, hearts, diamonds, clubs). The hooks add:

- the deal in circles: each turned card goes to the next letter, a to m and round again, unless it is played at
  once to a foundation (then the next card takes that letter);
- Rule II: during the deal only the cards of the current circle are available;
- marriages (same suit, one rank up or down) between alphabet cards once the whole pack is dealt;
- the gathering, g first and f last, and the next deal (``g:N>s``); three re-deals, four deals in all;
- from the second deal on, a card may change from an ace foundation to the king foundation of its suit and back;
- from the second deal on, a turned card that fits both foundations of its suit may be laid aside (``w>x1``), to be
  played later on either of them (``x1>f5``).

The hook state is (deal, position, circle): the deal number (1..4), the index of the letter the next card goes to
(0..11), and a bit per letter whose top card was dealt in the current circle. See docs/rules/louis.md.
"""

from __future__ import annotations

from engine.cards import CARDS, RANK_OF, SUIT_OF
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

SOURCE = "Lady Cadogan's Illustrated Games of Solitaire or Patience (1914), chapter \"The 'Louis' Patience\""

LETTERS = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "k", "l", "m")
GATHER = ("g", "h", "i", "k", "l", "m", "a", "b", "c", "d", "e", "f")
"""'take up the alphabet in succession, beginning with the letter g, and ending with f'."""
ACES = ("f1", "f2", "f3", "f4")
KINGS = ("f5", "f6", "f7", "f8")
ASIDE = ("x1", "x2", "x3", "x4")
"""'you may even lay the card aside for the moment': a place per suit, in the order of the foundations."""
FOUNDATIONS = frozenset((*ACES, *KINGS))
DEALS = 4
"""'There may be three re-deals': four deals in all."""

_FEEDS = frozenset({Role.WASTE, Role.ALPHABET, Role.FOUNDATION, Role.RESERVE})
# Rule I. Foundations give their top card only for the interchange, which the hooks allow from the second deal.
ACE_FOUNDATION = PileRule(build=Build.UP, suits=SuitRule.SAME_SUIT, accepts_from=_FEEDS, gives=MoveUnit.TOP_CARD)
KING_FOUNDATION = PileRule(build=Build.DOWN, suits=SuitRule.SAME_SUIT, accepts_from=_FEEDS, gives=MoveUnit.TOP_CARD)
PACKET = PileRule(base=Base.NONE, gives=MoveUnit.TOP_CARD)  # placing and marrying are the hooks' moves
TURNED = PileRule(gives=MoveUnit.TOP_CARD)
# Cards laid aside go only to the foundations of their suit (the records); laying aside is the hooks' move.
LAID_ASIDE = PileRule(gives=MoveUnit.TOP_CARD)
STOCK = PileRule()

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
PILES = (
    PileSpec("s", Role.STOCK, STOCK, "the pack"),
    PileSpec("w", Role.WASTE, TURNED, "the turned card"),
    *(PileSpec(f, Role.FOUNDATION, ACE_FOUNDATION, f"the ace of {SUIT_NAMES[n]}") for n, f in enumerate(ACES)),
    *(PileSpec(f, Role.FOUNDATION, KING_FOUNDATION, f"the king of {SUIT_NAMES[n]}") for n, f in enumerate(KINGS)),
    *(PileSpec(x, Role.ALPHABET, PACKET, f"packet {x}") for x in LETTERS),
    *(PileSpec(x, Role.RESERVE, LAID_ASIDE, f"the {SUIT_NAMES[n]} laid aside") for n, x in enumerate(ASIDE)),
)
DEAL = tuple(DealStep(f, 1, True) for f in (*ACES, *KINGS))


def suitable_alike(table: Table, code: int) -> bool:
    """The card fits both the ascending and the descending foundation of its suit ('suitable alike')."""
    suit, rank = SUIT_OF[code], RANK_OF[code]
    up, down = table.codes(ACES[suit]), table.codes(KINGS[suit])
    if not up or not down or up[-1] < 0 or down[-1] < 0:
        return False
    below, above = up[-1], down[-1]
    return SUIT_OF[below] == suit == SUIT_OF[above] and RANK_OF[below] == rank - 1 and RANK_OF[above] == rank + 1


def withdraw_foundations(pack: list[int]) -> list[int]:
    """The pack with one ace and one king of each suit (the first met from the top) put on top, in the order the
    deal steps take them (f1 first)."""
    rest = list(pack)
    wanted = [suit * 13 for suit in range(4)] + [suit * 13 + 12 for suit in range(4)]
    for code in wanted:
        rest.pop(len(rest) - 1 - rest[::-1].index(code))
    return rest + wanted[::-1]


def _aside_problems(table: Table) -> list[Problem]:
    """Cards are laid aside from the second deal on, each beside the foundations of its own suit. A card is
    suitable alike only while twelve cards of its suit are on the foundations and no card of that suit can move
    between them, so the cards laid aside of one suit are copies of one card."""
    out: list[Problem] = []
    deal = table.hook_state[0] if table.hook_state else 1
    for suit, x in enumerate(ASIDE):
        codes = [c for c in table.codes(x) if c >= 0]
        name = table.game.pile(x).name
        if codes and deal < 2:
            out.append(Problem(ProblemKind.IMPOSSIBLE_CARD, f"{name} holds cards in the first deal", (x,)))
        for code in codes:
            if SUIT_OF[code] != suit:
                out.append(
                    Problem(
                        ProblemKind.IMPOSSIBLE_CARD,
                        f"the {CARDS[code].sentence} is in {name}",
                        (x,),
                        (str(CARDS[code]),),
                    )
                )
        if len({RANK_OF[c] for c in codes if SUIT_OF[c] == suit}) > 1:
            out.append(
                Problem(ProblemKind.IMPOSSIBLE_CARD, f"{name} holds cards of different ranks: only one fits", (x,))
            )
    return out


class LouisHooks(GameHooks):
    state_fields = ("deal", "position", "circle")

    def initial_state(self) -> tuple[int, ...]:
        return (1, 0, 0)

    def arrange_pack(self, pack: list[int]) -> list[int]:
        return withdraw_foundations(pack)

    def moves(self, table: Table, generic: list[Move]) -> list[Move]:
        deal, position, circle = table.hook_state
        turned = table.codes("w")
        dealing = bool(turned) or bool(table.codes("s"))
        out: list[Move] = []
        for move in generic:
            if move.src == "s" and turned:
                continue  # the turned card is placed before the next is turned
            if dealing and move.src in LETTERS and not circle >> LETTERS.index(move.src) & 1:
                continue  # Rule II: an earlier circle is blocked until the whole pack is dealt
            if move.src in FOUNDATIONS and (deal < 2 or len(table.codes(move.src)) == 1):
                continue  # the interchange begins with the second deal; the withdrawn cards stay
            out.append(move)
        if turned:
            out.append(Move("w", LETTERS[position], 1))
            if deal >= 2 and turned[-1] >= 0 and suitable_alike(table, turned[-1]):
                out.append(Move("w", ASIDE[SUIT_OF[turned[-1]]], 1))  # lay the card aside
        elif not dealing:
            out += self._marriages(table)
            if deal < DEALS and any(table.codes(x) for x in LETTERS):
                out.append(Move("g", "s", sum(len(table.codes(x)) for x in LETTERS)))
        return out

    @staticmethod
    def _marriages(table: Table) -> list[Move]:
        tops = {x: codes[-1] for x in LETTERS if (codes := table.codes(x)) and codes[-1] >= 0}
        return [
            Move(src, dst, 1)
            for src, card in tops.items()
            for dst, under in tops.items()
            if src != dst and SUIT_OF[card] == SUIT_OF[under] and abs(RANK_OF[card] - RANK_OF[under]) == 1
        ]

    def push(self, table: Table, move: Move) -> object | None:
        deal, position, circle = table.hook_state
        if move.src == "w" and move.dst in LETTERS:
            bit = 1 << position
            table.set_hook_state((deal, (position + 1) % 12, bit if position == 0 else circle | bit))
            return None
        if move.src in LETTERS and circle:
            table.set_hook_state((deal, position, circle & ~(1 << LETTERS.index(move.src))))
        if move.src == "g" and move.dst == "s":
            gathered: list[int] = []
            sizes = []
            for x in GATHER:
                packet = table.raw_pile(x)
                sizes.append(len(packet))
                gathered += packet
                packet.clear()
            pack = table.raw_pile("s")
            pack.extend(gathered[::-1])  # turned face down: the bottom card of packet g is dealt first
            table.set_face_down_count("s", len(pack))
            table.set_hook_state((deal + 1, 0, 0))
            return tuple(sizes)
        return None

    def undo(self, table: Table, move: Move, token: object) -> None:
        assert isinstance(token, tuple)
        pack = table.raw_pile("s")
        gathered = pack[::-1]
        pack.clear()
        table.set_face_down_count("s", 0)
        start = 0
        for x, size in zip(GATHER, token, strict=True):
            table.raw_pile(x).extend(gathered[start : start + size])
            start += size

    def describe(self, table: Table, move: Move) -> str | None:
        if move.src == "g" and move.dst == "s":
            return "take up the alphabet, g first and f last, and turn it over for the next deal"
        if move.dst in ASIDE and move.src == "w" and (turned := table.codes("w")) and turned[-1] >= 0:
            suit = SUIT_NAMES[SUIT_OF[turned[-1]]]
            return f"lay the {CARDS[turned[-1]].sentence} aside, to play it later on either foundation of {suit}"
        return None

    def problems(self, table: Table) -> list[Problem]:
        out: list[Problem] = []
        for n, f in enumerate((*ACES, *KINGS)):
            codes = table.codes(f)
            want = (n % 4) * 13 + (0 if n < 4 else 12)
            if codes and codes[0] >= 0 and codes[0] != want:
                out.append(
                    Problem(
                        ProblemKind.FOUNDATION_BASE,
                        f"{table.game.pile(f).name} starts with the {CARDS[codes[0]].sentence}",
                        (f,),
                        (str(CARDS[codes[0]]),),
                    )
                )
        out += _aside_problems(table)
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


LOUIS = Game(
    name="louis",
    title='The "Louis" Patience',
    source=SOURCE,
    summary="Four aces up and four kings down withdrawn as foundations; the pack dealt in circles on an alphabet "
    "of twelve, each circle blocking the last; marriages up or down in suit; three re-deals, in which a card may "
    "change foundations or be laid aside.",
    piles=PILES,
    deal=DEAL,
    stock=StockRule(draw=1, passes=1),
    packs=2,
    aliases=("the-louis-patience", "louis-patience"),
    rules_doc="docs/rules/louis.md",
    hooks=LouisHooks(),
)

GAMES = (LOUIS,)
