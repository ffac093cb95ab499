"""Moves with one text notation both ways.

``SRC>DST`` moves the top card of pile SRC onto pile DST; ``SRC:N>DST`` moves the top N cards together.
Pile ids are the game's (``s`` stock, ``w`` waste, ``r`` reserve, ``f1``.. foundations, ``t1``.. tableau).
Turning cards from the stock is ``s:3>w`` (three cards); turning the waste over for a new pass is ``w:N>s``.

>>> Move.parse("t3>f1")
Move(src='t3', dst='f1', count=1)
>>> str(Move.parse("t7:4>t2"))
't7:4>t2'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.errors import NotationError

_MOVE_RE = re.compile(r"^\s*([a-z]+\d*)(?::(\d+))?\s*>\s*([a-z]+\d*)\s*$")


class Move(NamedTuple):
    """A move of ``count`` cards from the top of pile ``src`` to pile ``dst``.

    A NamedTuple rather than a dataclass: move generation creates (or looks up) many of them and tuples are
    the cheapest immutable value in CPython.
    """

    src: str
    dst: str
    count: int = 1  # type: ignore[assignment]  # shadows tuple.count on purpose: the number of cards

    @classmethod
    def parse(cls, text: str) -> Move:
        match = _MOVE_RE.match(text.lower())
        if match is None:
            raise NotationError(
                f"{text!r} is not a move: write SRC>DST or SRC:N>DST with pile ids, e.g. t3>f1, t7:3>t2, s:3>w"
            )
        src, count, dst = match.groups()
        number = int(count) if count else 1
        if number < 1:
            raise NotationError(f"{text!r} moves no card: the count must be at least 1")
        if src == dst:
            raise NotationError(f"{text!r} moves a pile onto itself")
        return cls(src, dst, number)

    def __str__(self) -> str:
        if self.count == 1:
            return f"{self.src}>{self.dst}"
        return f"{self.src}:{self.count}>{self.dst}"
