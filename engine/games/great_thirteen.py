"""The Great Thirteen, from Lady Cadogan's Illustrated Games of Solitaire (1914). Two packs.

The piles: eight ground packets (``g1``..``g8``, all face up: the player may examine the cards underneath), the
balcony (``b1``..``b8``, one card each, taken from the tops of the ground packets after the deal) and the eight
numeral columns (``n1``..``n8``), each built under the balcony card above it. Each has its own role (GROUND,
BALCONY, NUMERAL): the game has no foundations, and the numerals are built by arithmetic the records cannot say,
regardless of suit.

The hooks add every move:

- The deal (``arrange_pack``): eight packets of thirteen dealt together, left to right; a king on top of a
  packet is slipped underneath it (again, until a card that is not a king shows); then the top card of each
  packet goes to the balcony.
- Doubling: an empty numeral column takes a ground card worth twice its balcony card, less thirteen if over
  thirteen (knave 11, queen 12, king 13, suit ignored). Addition: a column takes a ground card worth its last
  numeral plus its balcony card, less thirteen if over. A column is complete on its king.
- Rule II: while a vacancy in the numerals can be filled, only vacancies may be filled.
- The re-deal, when no card can be placed: the leftmost packet not yet re-dealt (hook state ``redealt``, the
  position of the last packet re-dealt, 0 before) is dealt out whole, the card that was its bottom first, onto
  the positions to its right, round from No. 8 to No. 1, vacant positions (its own included) as well as packets
  (Rule III). Notation: ``g3:10>g4`` re-deals the ten cards of No. 3, starting on No. 4.

Success: every numeral column ends on its king. See docs/rules/the-great-thirteen.md for the readings chosen.
"""

from __future__ import annotations

from engine.cards import CARDS, RANK_OF, UNKNOWN
from engine.moves import Move
from engine.rules import DealStep, Game, GameHooks, MoveUnit, PileRule, PileSpec, Role
from engine.status import Problem, ProblemKind
from engine.table import Stage, Table

SOURCE = 'Lady Cadogan\'s Illustrated Games of Solitaire or Patience (1914), chapter "The Great Thirteen"'

KING = 13
PACKETS = 8
PACKET_SIZE = 13
COLUMN_SIZE = 12
"""Numerals in a complete column: twice, three times ... thirteen times the balcony card (the king)."""
GROUND = tuple(f"g{n}" for n in range(1, PACKETS + 1))
BALCONY = tuple(f"b{n}" for n in range(1, PACKETS + 1))
NUMERALS = tuple(f"n{n}" for n in range(1, PACKETS + 1))

# Rule I: the uppermost card of a ground packet alone is available. The numerals are built by the hooks.
GROUND_PACKET = PileRule(gives=MoveUnit.TOP_CARD)
BALCONY_CARD = PileRule()
NUMERAL_COLUMN = PileRule()

PILES = (
    *(PileSpec(b, Role.BALCONY, BALCONY_CARD, f"balcony {b[1:]}") for b in BALCONY),
    *(PileSpec(n, Role.NUMERAL, NUMERAL_COLUMN, f"numeral {n[1:]}") for n in NUMERALS),
    *(PileSpec(g, Role.GROUND, GROUND_PACKET, f"ground packet {g[1:]}") for g in GROUND),
)
# As the table is left by the deal: twelve cards on each packet, the thirteenth (its top) on the balcony.
DEAL = (
    *(DealStep(g, PACKET_SIZE - 1, True) for g in GROUND),
    *(DealStep(b, 1, True) for b in BALCONY),
)


def value(code: int) -> int:
    """The card's value: ace 1 ... ten 10, knave 11, queen 12, king 13."""
    return RANK_OF[code]


def reduce(total: int) -> int:
    """A sum less thirteen as often as it exceeds thirteen (13 itself is the king)."""
    return (total - 1) % KING + 1


def wanted(balcony: int, column: tuple[int, ...]) -> int | None:
    """The value the next numeral under ``balcony`` must have, None if the column takes nothing."""
    if balcony == UNKNOWN:
        return None
    if not column:
        return reduce(2 * value(balcony))  # doubling
    last = column[-1]
    if last == UNKNOWN or value(last) == KING:
        return None  # a column is complete on its king
    return reduce(value(last) + value(balcony))  # addition


def deal_layout(pack: list[int]) -> tuple[list[list[int]], list[int]]:
    """The ground packets (bottom first) and balcony cards that the deal makes from ``pack`` (top card last)."""
    remaining = list(pack)
    packets: list[list[int]] = []
    for _ in range(PACKETS):  # left to right, thirteen cards dealt together: the first card is the bottom one
        packet = [remaining.pop() for _ in range(min(PACKET_SIZE, len(remaining)))]
        # "If in this first deal any kings appear on the surface, slip them underneath the packets".
        for _ in range(len(packet)):
            if not packet or value(packet[-1]) != KING:
                break
            packet.insert(0, packet.pop())
        packets.append(packet)
    balcony = [packet.pop() for packet in packets]
    return packets, balcony


def first_to_redeal(table: Table) -> int | None:
    """Index (0-based) of the packet the re-deal takes up next, None when every packet has been re-dealt."""
    done = max(table.hook_state[0], 0)
    for position in range(done, PACKETS):
        if table.codes(GROUND[position]):
            return position
    return None


def numeral_moves(table: Table) -> list[Move]:
    """Ground cards that may go to the numerals now, Rule II's vacancies first."""
    fills: list[Move] = []
    adds: list[Move] = []
    tops = [(g, codes[-1]) for g in GROUND if (codes := table.codes(g)) and table.is_face_up(g, len(codes) - 1)]
    tops = [(g, top) for g, top in tops if top != UNKNOWN]
    for b, n in zip(BALCONY, NUMERALS, strict=True):
        balcony = table.codes(b)
        if len(balcony) != 1:
            continue
        column = table.codes(n)
        want = wanted(balcony[0], column)
        if want is None:
            continue
        for g, top in tops:
            if value(top) == want:
                (adds if column else fills).append(Move(g, n, 1))
    return fills or adds


def won(table: Table) -> bool:
    """Every numeral column ends on a king ("if the game succeeds")."""
    return all((codes := table.codes(n)) and codes[-1] != UNKNOWN and value(codes[-1]) == KING for n in NUMERALS)


class GreatThirteenHooks(GameHooks):
    state_fields = ("redealt",)
    """Position (1..8) of the last ground packet re-dealt; 0 before the re-deal."""

    def won(self, table: Table) -> bool | None:
        return won(table)

    def arrange_pack(self, pack: list[int]) -> list[int]:
        packets, balcony = deal_layout(pack)
        order = [code for packet in packets for code in packet] + balcony
        return order[::-1]  # the deal steps take the last card first

    def moves(self, table: Table, generic: list[Move]) -> list[Move]:
        plays = numeral_moves(table)
        if plays:
            return plays
        # "When further progress is impossible": the next packet is re-dealt.
        position = first_to_redeal(table)
        if position is None:
            return []
        src = GROUND[position]
        return [Move(src, GROUND[(position + 1) % PACKETS], len(table.codes(src)))]

    def push(self, table: Table, move: Move) -> object | None:
        if move.dst not in GROUND:
            return None  # a card to the numerals: the Table moves it
        position = GROUND.index(move.src)
        packet = table.raw_pile(move.src)
        cards = packet[:]
        packet.clear()
        # Turned face downward: what was its bottom card is dealt first, on the position to its right.
        for k, code in enumerate(cards):
            table.raw_pile(GROUND[(position + 1 + k) % PACKETS]).append(code)
        table.set_hook_state((position + 1,))
        return len(cards)

    def undo(self, table: Table, move: Move, token: object) -> None:
        assert isinstance(token, int)
        position = GROUND.index(move.src)
        cards = [0] * token
        for k in range(token - 1, -1, -1):
            cards[k] = table.raw_pile(GROUND[(position + 1 + k) % PACKETS]).pop()
        table.raw_pile(move.src).extend(cards)

    def describe(self, table: Table, move: Move) -> str | None:
        if move.src in GROUND and move.dst in GROUND:
            return (
                f"re-deal {table.game.pile(move.src).name}: its {move.count} cards one by one onto the positions "
                f"from No. {move.dst[1:]} round to No. 8 and on from No. 1, vacant or not"
            )
        return None

    def problems(self, table: Table) -> list[Problem]:
        out: list[Problem] = []
        game = table.game
        for b, n in zip(BALCONY, NUMERALS, strict=True):
            balcony = table.codes(b)
            if len(balcony) != 1 and table.stage is not Stage.DEAL:  # the deal check counts it at the deal
                out.append(
                    Problem(
                        ProblemKind.WRONG_PILE_SIZE,
                        f"{game.pile(b).name} has {len(balcony)} cards, it holds exactly one",
                        (b,),
                    )
                )
            elif len(balcony) == 1 and balcony[0] != UNKNOWN and value(balcony[0]) == KING:
                out.append(
                    Problem(
                        ProblemKind.IMPOSSIBLE_CARD,
                        f"the {CARDS[balcony[0]].sentence} is on {game.pile(b).name}: kings are slipped under "
                        "their packets before the balcony is taken",
                        (b,),
                        (str(CARDS[balcony[0]]),),
                    )
                )
            column = table.codes(n)
            if len(column) > COLUMN_SIZE:
                out.append(
                    Problem(
                        ProblemKind.WRONG_PILE_SIZE,
                        f"{game.pile(n).name} has {len(column)} cards; a column is complete with twelve, on its king",
                        (n,),
                    )
                )
            if len(balcony) != 1:
                continue
            for k, code in enumerate(column):
                want = wanted(balcony[0], column[:k])
                if code == UNKNOWN or want is None or value(code) == want:
                    continue
                how = "twice" if k == 0 else "the card above plus"
                out.append(
                    Problem(
                        ProblemKind.IMPOSSIBLE_CARD,
                        f"in {game.pile(n).name} the {CARDS[code].sentence} is numeral {k + 1}, but it must be "
                        f"worth {how} the balcony card ({want})",
                        (n,),
                        (str(CARDS[code]),),
                    )
                )
                break
        done = table.hook_state[0] if table.hook_state else 0
        if not 0 <= done <= PACKETS:
            out.append(Problem(ProblemKind.WRONG_PILES, f"the re-deal cannot have reached packet No. {done}", GROUND))
        return out


THE_GREAT_THIRTEEN = Game(
    name="the-great-thirteen",
    title="The Great Thirteen",
    source=SOURCE,
    summary="Eight ground packets of thirteen and a balcony of their top cards; under each balcony card a numeral "
    "column built by doubling, then by adding the balcony card, modulo thirteen, to a king; one re-deal, packet "
    "by packet.",
    piles=PILES,
    deal=DEAL,
    packs=2,
    aliases=("great-thirteen",),
    scoring=None,  # the 1914 wager of $5 a foundation card does not belong to this chapter
    rules_doc="docs/rules/the-great-thirteen.md",
    notes=(
        "No foundations: the balcony (b1..b8) and the numerals (n1..n8) have roles of their own; the game is won "
        "when every numeral column ends on a king (great_thirteen.won), and Table.outcome() follows it.",
    ),
    hooks=GreatThirteenHooks(),
)

GAMES = (THE_GREAT_THIRTEEN,)
