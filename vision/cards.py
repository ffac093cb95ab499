"""The 52 card names in the class order every vision model uses (engine notation: ``AS``, ``10H``, ``QC``)."""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_CLASS = {n: i for i, n in enumerate(NAMES)}


def class_of(name: str) -> int:
    """The class id of a card name (case-insensitive suit: ``10h`` and ``10H`` are the same card)."""
    return _CLASS[name[:-1].upper() + name[-1].upper()]
