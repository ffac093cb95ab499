"""Cards: ranks, suits and the ``Card`` value type with one text notation.

Notation: rank ``A 2 3 4 5 6 7 8 9 10 J Q K`` then suit ``S H D C``: ``"10H"``, ``"QS"``. A lower-case
suit marks a face-down card in table files (the Solvitaire convention); ``"??"`` is a face-down card whose
identity is unknown (the camera cannot see it).

>>> Card.parse("10H")
Card(rank=10, suit=<Suit.HEARTS: 1>)
>>> str(Card.parse("qs"))
'QS'
>>> Card.parse("10H").sentence
'10 of hearts'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from engine.errors import NotationError

RANK_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


class Colour(Enum):
    BLACK = "black"
    RED = "red"


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def word(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. ``rank`` is 1 (ace) to 13 (king)."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if not ACE <= self.rank <= KING:
            raise NotationError(f"rank {self.rank} is not between 1 (ace) and 13 (king)")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"10H"``, ``"QS"``, ``"ah"`` (case-insensitive; ``T`` is accepted for 10)."""
        code = parse_code(text)
        if code < 0:
            raise NotationError(f"{text!r} is an unknown card, not a card identity")
        return CARDS[code]

    @property
    def code(self) -> int:
        """Index 0..51 (suit-major); the engine's internal representation."""
        return int(self.suit) * 13 + self.rank - 1

    @property
    def colour(self) -> Colour:
        return self.suit.colour

    @property
    def sentence(self) -> str:
        """English name for announcements: ``'7 of hearts'``, ``'queen of spades'``."""
        return f"{RANK_WORDS[self.rank - 1]} of {self.suit.word}"

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit.letter


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(ACE, KING + 1))
"""The 52 cards, indexed by ``Card.code``."""

UNKNOWN = -1
"""Internal code of a card whose identity is not known (a face-down card the camera cannot see)."""

# Lookup tables by card code, for the hot paths of move generation.
RANK_OF: tuple[int, ...] = tuple(card.rank for card in CARDS)
SUIT_OF: tuple[int, ...] = tuple(int(card.suit) for card in CARDS)
RED_OF: tuple[bool, ...] = tuple(card.colour is Colour.RED for card in CARDS)

_RANK_BY_TEXT = {letter: i + 1 for i, letter in enumerate(RANK_LETTERS)} | {"T": 10}
_SUIT_BY_LETTER = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}


def parse_code(text: str) -> int:
    """Card code of ``text``, or ``UNKNOWN`` for ``"??"``. Raises ``NotationError`` on anything else."""
    token = text.strip()
    if token in ("??", "XX", "xx"):
        return UNKNOWN
    if len(token) < 2 or len(token) > 3:
        raise NotationError(f"{text!r} is not a card: write rank then suit, e.g. 10H, QS, 7d, or ?? for unknown")
    rank = _RANK_BY_TEXT.get(token[:-1].upper())
    suit = _SUIT_BY_LETTER.get(token[-1].upper())
    if rank is None or suit is None:
        raise NotationError(f"{text!r} is not a card: write rank then suit, e.g. 10H, QS, 7d, or ?? for unknown")
    return int(suit) * 13 + rank - 1


def twin(code: int) -> int:
    """The card of the same rank and colour in the other suit (spades and clubs, hearts and diamonds): the card a
    reader that tells colours but not suits apart may take this one for."""
    suit, rank = divmod(code, 13)
    return (3 - suit) * 13 + rank


def code_text(code: int, face_up: bool = True) -> str:
    """Notation of a card code; face-down cards get a lower-case suit, unknown ones ``??``."""
    if code == UNKNOWN:
        return "??"
    text = str(CARDS[code])
    return text if face_up else text[:-1] + text[-1].lower()


def is_face_down_text(text: str) -> bool:
    """True for ``"??"`` and for a lower-case suit letter (the Solvitaire convention)."""
    token = text.strip()
    return token in ("??", "xx", "XX") or (len(token) >= 2 and token[-1].islower())


def full_deck(packs: int = 1) -> list[int]:
    """Card codes of ``packs`` packs, in a fixed order (the shuffle is the deal's job)."""
    return [code for _ in range(packs) for code in range(52)]
