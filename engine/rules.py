"""Rules as data: pile roles and per-pile rule records (PySolFC's vocabulary), the deal, the stock.

A game is a ``Game`` record: its piles, each with a ``PileRule``, the deal as ``DealStep``s and the stock
handling as a ``StockRule``. The ``Table`` interprets these records; no game has special code in the core.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations: table.py and status.py import this module
    from engine.moves import Move
    from engine.status import Problem
    from engine.table import Table


class Role(Enum):
    STOCK = "stock"
    WASTE = "waste"
    FOUNDATION = "foundation"
    TABLEAU = "tableau"
    RESERVE = "reserve"
    # The odd piles of Lady Cadogan's games; the core treats them like any other pile with its rule record.
    KEY = "key"
    """The Queens' packet of 32 face-up cards whose top card may go only to a foundation."""
    SHUTTER = "shutter"
    """The Queens' seven packets (rows of 4 and 3), built down in suit."""
    PROMENADE = "promenade"
    """Sly's twenty packets, on which the rounds of twenty cards are placed."""
    ALPHABET = "alphabet"
    """Louis' twelve packets lettered a to m (no j), dealt in circles."""
    GROUND = "ground"
    """The Great Thirteen's eight ground packets, whose top cards go to the numerals and which are re-dealt once."""
    NUMERAL = "numeral"
    """The Great Thirteen's eight numeral columns, built by adding the balcony card above (suit ignored)."""
    BALCONY = "balcony"
    """The Great Thirteen's eight balcony cards, one each, above the numeral columns; they never move."""


class Build(Enum):
    """Direction in which cards are built on a pile."""

    NONE = "none"
    UP = "up"
    DOWN = "down"


class SuitRule(Enum):
    """How the suit of a card placed on a pile must relate to the card below it."""

    ANY = "any suit"
    SAME_SUIT = "same suit"
    ALTERNATE_COLOUR = "alternate colour"


class Base(Enum):
    """What may be placed on the pile when it is empty."""

    NONE = "nothing"
    ANY = "any card"
    ACE = "an ace"
    KING = "a king"
    DEALT = "the dealt base rank"


class MoveUnit(Enum):
    """How many cards may leave a pile at once for another building pile (foundations take one at a time)."""

    NONE = "nothing"
    TOP_CARD = "top card only"
    WHOLE_RUN = "all face-up cards together"
    ANY_RUN = "any run of face-up cards in sequence"
    WHOLE_PILE_OR_TOP_OF_TWO = "the whole pile, or the top card of a two-card pile"
    WHOLE_PILE_OR_TOP_CARD = "the whole pile or the top card"


@dataclass(frozen=True, slots=True)
class PileRule:
    build: Build = Build.NONE
    suits: SuitRule = SuitRule.ANY
    base: Base = Base.NONE
    wrap: bool = False
    """A king may be built on an ace going down (or an ace on a king going up)."""
    accepts_from: frozenset[Role] = frozenset()
    """Roles of the piles that may give cards to this pile when it is not empty."""
    space_from: frozenset[Role] = frozenset()
    """Roles of the piles that may fill this pile when it is empty."""
    space_fallback: frozenset[Role] = frozenset()
    """Roles that may fill a space once every pile of the ``space_from`` roles is empty."""
    gives: MoveUnit = MoveUnit.NONE
    flip_uncovered: bool = False
    """A face-down card uncovered on this pile is turned face up at once, as part of the move."""


@dataclass(frozen=True, slots=True)
class PileSpec:
    id: str
    role: Role
    rule: PileRule
    name: str
    """How a player calls this pile: 'column 3', 'the waste'."""


@dataclass(frozen=True, slots=True)
class DealStep:
    pile: str
    count: int
    face_up: bool


@dataclass(frozen=True, slots=True)
class StockRule:
    draw: int = 1
    """Cards turned from the stock to the waste at a time."""
    passes: int | None = 1
    """Passes through the stock in all (1 = no redeal, None = unlimited)."""
    redeal_needs_play: bool = False
    """Foster's Canfield: the waste may be turned over again only if a card was played from it this pass."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """The 1914 wager: the pack is bought for ``buy_in`` and each foundation card pays ``per_card``."""

    buy_in: int = 52
    per_card: int = 5


class GameHooks:
    """Extension points for the few rules the records cannot say (The Queens' payments, Sly's rounds).

    A game sets ``Game.hooks`` to an instance of a subclass; ``Table`` calls it only when it is not None, so
    games without odd rules pay nothing. Per-table state a hook needs is a tuple of ints named by
    ``state_fields``: it is part of ``Table.key()`` and of the table JSON (``"state"``), and it is restored
    exactly by ``Table.pop``. The reference oracle (engine/reference.py) learns each odd rule separately.
    """

    state_fields: tuple[str, ...] = ()

    def initial_state(self) -> tuple[int, ...]:
        return (0,) * len(self.state_fields)

    def arrange_pack(self, pack: list[int]) -> list[int]:
        """The shuffled pack (top card last) as the deal steps should take it, e.g. Louis' foundation cards
        withdrawn first."""
        return pack

    def moves(self, table: Table, generic: list[Move]) -> list[Move]:
        """The legal moves, given ``generic``, those the rule records allow (add and remove moves here)."""
        return generic

    def push(self, table: Table, move: Move) -> object | None:
        """Called before ``move`` is made. Make it here and return an undo token (not None) when the records
        cannot make it; return None to let ``Table`` make it. May change ``table.hook_state`` either way."""
        return None

    def undo(self, table: Table, move: Move, token: object) -> None:
        """Undo a move this hook made in ``push`` (``Table.pop`` restores the hook state itself)."""
        raise NotImplementedError

    def describe(self, table: Table, move: Move) -> str | None:
        """A sentence for a move this hook makes (None: the Table's own wording)."""
        return None

    def won(self, table: Table) -> bool | None:
        """True when the game is won by its own criterion (e.g. The Great Thirteen: every numeral column
        ends on a king); None to use the default (every card on a foundation)."""
        return None

    def problems(self, table: Table) -> list[Problem]:
        """Position problems only this game's rules can see (added to ``engine.status.problems``)."""
        return []


@dataclass(frozen=True, slots=True)
class Game:
    name: str
    title: str
    source: str
    """Book and chapter the default rules come from."""
    summary: str
    piles: tuple[PileSpec, ...]
    deal: tuple[DealStep, ...]
    stock: StockRule = StockRule()
    packs: int = 1
    aliases: tuple[str, ...] = ()
    scoring: Scoring | None = Scoring()
    autofill_from: str | None = None
    """Pile id that fills every tableau space at once (modern Canfield's reserve)."""
    rules_doc: str = ""
    """Path of the rules page in docs/, relative to the repository."""
    variant_of: str | None = None
    notes: tuple[str, ...] = field(default=())
    hooks: GameHooks | None = None
    """The game's odd rules, if any (see ``GameHooks``)."""

    def pile(self, pile_id: str) -> PileSpec:
        for spec in self.piles:
            if spec.id == pile_id:
                return spec
        raise KeyError(pile_id)

    def piles_with_role(self, role: Role) -> tuple[PileSpec, ...]:
        return tuple(spec for spec in self.piles if spec.role is role)

    @property
    def card_count(self) -> int:
        return 52 * self.packs

    def deal_sizes(self) -> dict[str, tuple[int, int]]:
        """Per pile, (face-down, face-up) card counts right after the deal."""
        sizes = {spec.id: [0, 0] for spec in self.piles}
        for step in self.deal:
            sizes[step.pile][1 if step.face_up else 0] += step.count
        return {pile_id: (down, up) for pile_id, (down, up) in sizes.items()}
