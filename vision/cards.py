"""The 52 card names in the class order every vision model uses (engine notation: ``AS``, ``10H``, ``QC``)."""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CLASS = {n: i for i, n in enumerate(NAMES)}


def class_of(name: str) -> int:
    """The class id of a card name (case-insensitive suit: ``10h`` and ``10H`` are the same card)."""
    return _CLASS[name[:-1].upper() + name[-1].upper()]


# Ranks whose index turned 180 degrees is the other's: on a deck whose index is the rank alone, printed upright in
# both corners (kde_ancient_egyptians), a 6 turned is a 9 to the pixel
TURN_TWIN_RANKS = frozenset({"6", "9"})


def turn_twins(a: str, b: str) -> bool:
    """Whether two card names are a 6 and a 9 of one suit: each other's index turned 180 degrees."""
    return a[-1] == b[-1] and {a[:-1], b[:-1]} == TURN_TWIN_RANKS
