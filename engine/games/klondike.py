"""Klondike, from "Canfield or Klondike" (U.S. Playing Card Co., reprinted in Lady Cadogan, 1914)."""

from __future__ import annotations

from dataclasses import replace

from engine.rules import (
    Base,
    Build,
    DealStep,
    Game,
    MoveUnit,
    PileRule,
    PileSpec,
    Role,
    StockRule,
    SuitRule,
)

SOURCE = 'Lady Cadogan\'s Illustrated Games of Solitaire (1914), "Canfield or Klondike" (U.S.P.C.C. rules)'

FOUNDATION = PileRule(
    build=Build.UP,
    suits=SuitRule.SAME_SUIT,
    base=Base.ACE,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU}),
    space_from=frozenset({Role.WASTE, Role.TABLEAU}),
)
TABLEAU_1914 = PileRule(
    build=Build.DOWN,
    suits=SuitRule.ALTERNATE_COLOUR,
    base=Base.KING,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU}),
    space_from=frozenset({Role.WASTE, Role.TABLEAU}),
    gives=MoveUnit.WHOLE_RUN,
    flip_uncovered=True,
)
STOCK = PileRule()
WASTE = PileRule(gives=MoveUnit.TOP_CARD)


def _piles(tableau: PileRule, foundation: PileRule) -> tuple[PileSpec, ...]:
    return (
        PileSpec("s", Role.STOCK, STOCK, "the stock"),
        PileSpec("w", Role.WASTE, WASTE, "the waste"),
        *(PileSpec(f"f{n}", Role.FOUNDATION, foundation, f"foundation {n}") for n in range(1, 5)),
        *(PileSpec(f"t{n}", Role.TABLEAU, tableau, f"column {n}") for n in range(1, 8)),
    )


def _deal() -> tuple[DealStep, ...]:
    """Row by row as the 1914 text says: one card face up, then face down to its right."""
    steps: list[DealStep] = []
    for row in range(1, 8):
        steps.append(DealStep(f"t{row}", 1, True))
        steps.extend(DealStep(f"t{col}", 1, False) for col in range(row + 1, 8))
    return tuple(steps)


KLONDIKE = Game(
    name="klondike",
    title="Klondike (1914 rules)",
    source=SOURCE,
    summary="Draw one, a single pass; a run of face-up cards moves only as a whole; spaces take kings only.",
    piles=_piles(TABLEAU_1914, FOUNDATION),
    deal=_deal(),
    stock=StockRule(draw=1, passes=1),
    aliases=("canfield-or-klondike", "klondike/1914"),
    rules_doc="docs/rules/klondike.md",
)

# Modern play: any run in sequence moves, and a foundation card may come back down to the tableau.
TABLEAU_MODERN = replace(
    TABLEAU_1914,
    gives=MoveUnit.ANY_RUN,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU, Role.FOUNDATION}),
    space_from=frozenset({Role.WASTE, Role.TABLEAU, Role.FOUNDATION}),
)
FOUNDATION_MODERN = replace(FOUNDATION, gives=MoveUnit.TOP_CARD)

KLONDIKE_DRAW3 = replace(
    KLONDIKE,
    name="klondike/draw3",
    title="Klondike, draw three",
    summary="Modern Klondike turning three cards at a time, unlimited passes, any run moves.",
    piles=_piles(TABLEAU_MODERN, FOUNDATION_MODERN),
    stock=StockRule(draw=3, passes=None),
    aliases=("klondike-draw3", "klondike3"),
    variant_of="klondike",
)
KLONDIKE_VEGAS = replace(
    KLONDIKE,
    name="klondike/vegas",
    title="Klondike, Vegas (draw one, one pass)",
    summary="Vegas scoring; draw one and a single pass, any run moves.",
    piles=_piles(TABLEAU_MODERN, FOUNDATION_MODERN),
    stock=StockRule(draw=1, passes=1),
    aliases=("vegas",),
    variant_of="klondike",
)
KLONDIKE_VEGAS_DRAW3 = replace(
    KLONDIKE_VEGAS,
    name="klondike/vegas-draw3",
    title="Klondike, Vegas (draw three, three passes)",
    summary="Vegas scoring; three cards at a time and three passes, any run moves.",
    stock=StockRule(draw=3, passes=3),
    aliases=("vegas-draw3",),
)
KLONDIKE_MODERN = replace(
    KLONDIKE,
    name="klondike/modern",
    title="Klondike, modern (draw one, unlimited passes)",
    summary="Draw one, unlimited passes, any run moves, foundation cards may come back.",
    piles=_piles(TABLEAU_MODERN, FOUNDATION_MODERN),
    stock=StockRule(draw=1, passes=None),
    aliases=("klondike-modern",),
    variant_of="klondike",
)

GAMES = (KLONDIKE, KLONDIKE_DRAW3, KLONDIKE_VEGAS, KLONDIKE_VEGAS_DRAW3, KLONDIKE_MODERN)
