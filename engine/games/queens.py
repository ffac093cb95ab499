"""The Queens, from Lady Cadogan's Illustrated Games of Solitaire (1914). Two packs.

The piles are records: the key (``k``, 32 face-up cards whose top card may go only to a foundation), the shutter
(``h1``..``h7``, rows of 4 and 3, built down in suit), eight king foundations built K, A, 2 ... Q in suit, the
pack (``s``) and the talon (``w``). The hooks add what the records cannot say:

- Rule IV, the key payment: while no card is on a foundation, a queen on top of the key sends the fourteen top
  cards of the key (the queen included) to the bottom of the pack. It is the only legal move then (``k:14>s``).
- The key first: when the top card of the key can be played, it must be played before anything else.
- Spaces refilled at once: while a shutter space is open, the card just turned from the pack is played, married
  or put in a space, and if no card is turned, the next one is turned; nothing else moves (once the pack is
  exhausted, a space waits for a card of the talon or of a fresh pack).
- A foundation is complete at its queen: no second king goes on it (two packs).
- Rule V, the talon payment: when the pack is exhausted, each queen in the talon pays for herself and three
  cards from the bottom of the talon; these make a fresh pack (``w:N>s``), dealt like the first.

See docs/rules/the-queens.md for the readings chosen.
"""

from __future__ import annotations

from engine.cards import CARDS, RANK_OF
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

SOURCE = 'Lady Cadogan\'s Illustrated Games of Solitaire or Patience (1914), chapter "The Queens"'

QUEEN = 12
KEY_SIZE = 32
KEY_PAYMENT = 14
"""Rule IV: fourteen cards from the top of the key for each queen, herself included."""
TALON_PAYMENT = 3
"""Rule V: three cards from the bottom of the talon for each queen, besides herself."""
FOUNDATIONS = tuple(f"f{n}" for n in range(1, 9))
SHUTTER_IDS = tuple(f"h{n}" for n in range(1, 8))

# Rule I and the play: the eight kings are the foundations, which ascend through aces to queens, in suit.
FOUNDATION = PileRule(
    build=Build.UP,
    suits=SuitRule.SAME_SUIT,
    base=Base.KING,
    wrap=True,
    accepts_from=frozenset({Role.KEY, Role.SHUTTER, Role.WASTE}),
    space_from=frozenset({Role.KEY, Role.SHUTTER, Role.WASTE}),
)
# "Cards on the shutter can marry in descending line with each other, or with cards from the pack or talon";
# Rule III: never with cards from the key. Spaces are refilled from the pack (through the talon, see the doc).
SHUTTER = PileRule(
    build=Build.DOWN,
    suits=SuitRule.SAME_SUIT,
    base=Base.ANY,
    accepts_from=frozenset({Role.SHUTTER, Role.WASTE}),
    space_from=frozenset({Role.WASTE}),
    gives=MoveUnit.TOP_CARD,
)
KEY = PileRule(gives=MoveUnit.TOP_CARD)  # Rule II: the uppermost card alone is available
TALON = PileRule(gives=MoveUnit.TOP_CARD)
STOCK = PileRule()

PILES = (
    PileSpec("s", Role.STOCK, STOCK, "the pack"),
    PileSpec("w", Role.WASTE, TALON, "the talon"),
    PileSpec("k", Role.KEY, KEY, "the key"),
    *(PileSpec(f, Role.FOUNDATION, FOUNDATION, f"foundation {f[1:]}") for f in FOUNDATIONS),
    *(PileSpec(h, Role.SHUTTER, SHUTTER, f"shutter {h[1:]}") for h in SHUTTER_IDS),
)
# Thirty-two cards to the key, then the shutter, four in the upper row and three below.
DEAL = (DealStep("k", KEY_SIZE, True), *(DealStep(h, 1, True) for h in SHUTTER_IDS))


def is_queen(code: int) -> bool:
    return code >= 0 and RANK_OF[code] == QUEEN


def talon_payment(talon: tuple[int, ...] | list[int]) -> list[int]:
    """Positions (bottom first) of the talon cards that make the fresh pack: every queen, and for each queen
    three other cards counted from the bottom (all the others if there are not enough)."""
    queens = [n for n, code in enumerate(talon) if is_queen(code)]
    others = [n for n, code in enumerate(talon) if not is_queen(code)]
    return sorted(queens + others[: TALON_PAYMENT * len(queens)])


class QueensHooks(GameHooks):
    # played_since_payment: 1 while a card has been played (to a foundation, or from the talon or the key) since
    # the last talon payment: a payment needs one, or the same cards could be paid and dealt round for ever.
    # turned: 1 while the top card of the talon is the card just turned from the pack, not yet part of the talon
    # (it is the card that fills an open space at once). See the doc.
    state_fields = ("played_since_payment", "turned")

    def initial_state(self) -> tuple[int, ...]:
        return (1, 0)

    def moves(self, table: Table, generic: list[Move]) -> list[Move]:
        key = table.codes("k")
        founded = [len(table.codes(f)) for f in FOUNDATIONS]
        if key and is_queen(key[-1]) and not any(founded):
            return [Move("k", "s", min(KEY_PAYMENT, len(key)))]  # Rule IV, compulsory, before any play
        # Two packs: a complete foundation (K..Q, 13 cards) takes no second king.
        moves = [m for m in generic if not (m.dst[0] == "f" and founded[int(m.dst[1:]) - 1] >= 13)]
        key_plays = [m for m in moves if m.src == "k"]
        if key_plays:  # "always first look to see if a card from the key is available, and play that"
            return key_plays
        talon = table.codes("w")
        if any(not table.codes(h) for h in SHUTTER_IDS):  # "refilling the spaces at once"
            if talon and table.hook_state[1]:
                return [m for m in moves if m.src == "w"]  # the card just turned: played, married or put in
            if table.codes("s"):
                return [Move("s", "w", 1)]
        if not table.codes("s") and table.hook_state[0] and any(is_queen(c) for c in talon):
            moves.append(Move("w", "s", len(talon_payment(talon))))
        return moves

    def push(self, table: Table, move: Move) -> object | None:
        played, turned = table.hook_state
        if move.dst[0] == "f" or (move.src == "w" and move.dst[0] == "h"):
            played = 1
        if move.src in ("s", "w"):
            turned = int(move.src == "s")  # a card turned, or the talon's top card gone
        table.set_hook_state((played, turned))
        if move.src == "k" and move.dst == "s":
            key, pack = table.raw_pile("k"), table.raw_pile("s")
            paid = key[-move.count :]
            del key[-move.count :]
            # The packet is turned face down and put under the pack: the queen ends at the very bottom.
            pack[:0] = paid[::-1]
            table.set_face_down_count("s", len(pack))
            return move.count
        if move.src == "w" and move.dst == "s":
            talon, pack = table.raw_pile("w"), table.raw_pile("s")
            taken = talon_payment(talon)
            chosen = set(taken)
            fresh = [talon[n] for n in taken]
            talon[:] = [code for n, code in enumerate(talon) if n not in chosen]
            # Turned over like a talon for a new deal: the card at the bottom of the talon is dealt first.
            pack.extend(fresh[::-1])
            table.set_face_down_count("s", len(pack))
            table.set_hook_state((0, 0))
            return tuple(taken)
        return None

    def undo(self, table: Table, move: Move, token: object) -> None:
        pack = table.raw_pile("s")
        if move.src == "k":
            assert isinstance(token, int)
            table.raw_pile("k").extend(pack[:token][::-1])
            del pack[:token]
        else:
            assert isinstance(token, tuple)
            talon = table.raw_pile("w")
            fresh = pack[::-1]
            pack.clear()
            rest = iter(talon[:])
            given = iter(fresh)
            talon[:] = [next(given) if n in token else next(rest) for n in range(len(talon) + len(fresh))]
        table.set_face_down_count("s", len(pack))

    def describe(self, table: Table, move: Move) -> str | None:
        if move.src == "k" and move.dst == "s":
            return f"pay for the queen on the key: put the {move.count} top cards of the key under the pack"
        if move.src == "w" and move.dst == "s":
            queens = sum(1 for code in table.codes("w") if is_queen(code))
            return (
                f"pay for the {queens} queen{'s' if queens != 1 else ''} of the talon: take "
                f"{'her' if queens == 1 else 'them'} and three cards each from the bottom of the talon "
                f"({move.count} cards) as a fresh pack"
            )
        return None

    def problems(self, table: Table) -> list[Problem]:
        out: list[Problem] = []
        for f in FOUNDATIONS:
            codes = table.codes(f)
            if len(codes) > 13:
                card = CARDS[codes[13]] if codes[13] >= 0 else None
                what = f"the {card.sentence}" if card else "a fourteenth card"
                out.append(
                    Problem(
                        ProblemKind.FOUNDATION_SEQUENCE,
                        f"{table.game.pile(f).name} is complete at its queen, but {what} lies on it",
                        (f,),
                    )
                )
        key = len(table.codes("k"))
        if key > KEY_SIZE:
            out.append(
                Problem(ProblemKind.WRONG_PILE_SIZE, f"the key has {key} cards, it never has more than 32", ("k",))
            )
        return out


THE_QUEENS = Game(
    name="the-queens",
    title="The Queens",
    source=SOURCE,
    summary="A key of 32 (queens on top paid with 14 cards), a shutter of 4 and 3 built down in suit, eight king "
    "foundations built K, A ... Q; talon queens pay three bottom talon cards each into a fresh pack.",
    piles=PILES,
    deal=DEAL,
    stock=StockRule(draw=1, passes=1),  # the talon is never re-dealt whole; the payments are the hooks' moves
    packs=2,
    aliases=("queens",),
    rules_doc="docs/rules/the-queens.md",
    hooks=QueensHooks(),
)

GAMES = (THE_QUEENS,)
