"""Canfield, from R. F. Foster's Complete Hoyle, chapter CANFIELD."""

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

SOURCE = "R. F. Foster, Foster's Complete Hoyle, chapter CANFIELD"

FOUNDATION = PileRule(
    build=Build.UP,
    suits=SuitRule.SAME_SUIT,
    base=Base.DEALT,
    wrap=True,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU, Role.RESERVE}),
    space_from=frozenset({Role.WASTE, Role.TABLEAU, Role.RESERVE}),
)
# Foster: whole columns move; a column of exactly two cards may give its top card; spaces are filled from
# the stock (our reserve), and, once it is empty, from the waste (Foster is silent; the modern reading).
TABLEAU_FOSTER = PileRule(
    build=Build.DOWN,
    suits=SuitRule.ALTERNATE_COLOUR,
    base=Base.ANY,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU, Role.RESERVE}),
    space_from=frozenset({Role.RESERVE}),
    space_fallback=frozenset({Role.WASTE}),
    gives=MoveUnit.WHOLE_PILE_OR_TOP_OF_TWO,
)
RESERVE = PileRule(gives=MoveUnit.TOP_CARD)
WASTE = PileRule(gives=MoveUnit.TOP_CARD)
STOCK = PileRule()


def _piles(tableau: PileRule) -> tuple[PileSpec, ...]:
    return (
        PileSpec("s", Role.STOCK, STOCK, "the hand"),
        PileSpec("w", Role.WASTE, WASTE, "the waste"),
        PileSpec("r", Role.RESERVE, RESERVE, "the stock of thirteen"),
        *(PileSpec(f"f{n}", Role.FOUNDATION, FOUNDATION, f"foundation {n}") for n in range(1, 5)),
        *(PileSpec(f"t{n}", Role.TABLEAU, tableau, f"column {n}") for n in range(1, 5)),
    )


DEAL = (
    DealStep("r", 13, True),
    DealStep("f1", 1, True),
    *(DealStep(f"t{n}", 1, True) for n in range(1, 5)),
)

CANFIELD = Game(
    name="canfield",
    title="Canfield (Foster's rules)",
    source=SOURCE,
    summary="Thirteen-card stock, the fourteenth card sets the base, four columns, the hand turned by threes, "
    "passes until one plays nothing.",
    piles=_piles(TABLEAU_FOSTER),
    deal=DEAL,
    stock=StockRule(draw=3, passes=None, redeal_needs_play=True),
    aliases=("canfield/foster", "demon"),
    rules_doc="docs/rules/canfield.md",
)

TABLEAU_MODERN = replace(
    TABLEAU_FOSTER,
    wrap=True,
    space_from=frozenset({Role.RESERVE, Role.WASTE}),
    space_fallback=frozenset(),
    gives=MoveUnit.WHOLE_PILE_OR_TOP_CARD,
)

CANFIELD_MODERN = replace(
    CANFIELD,
    name="canfield/modern",
    title="Canfield, modern",
    summary="The reserve fills spaces at once; single card or whole column moves; K on A in the columns; "
    "unlimited passes by threes.",
    piles=_piles(TABLEAU_MODERN),
    stock=StockRule(draw=3, passes=None),
    aliases=("canfield-modern",),
    autofill_from="r",
    variant_of="canfield",
)

GAMES = (CANFIELD, CANFIELD_MODERN)
