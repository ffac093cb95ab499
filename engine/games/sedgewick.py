"""General Sedgewick, from Lady Cadogan's Illustrated Games of Solitaire (1914); and Four Seasons, its modern form.

The whole game fits the rule records: a cross of five packets (our tableau t1..t5: centre, top, bottom, left,
right), four corner foundations (f1 the upper-left, which the deal fills), the pack turned one card at a time
onto the talon (our waste), no re-deal. See docs/rules/general-sedgewick.md for the readings chosen.
"""

from __future__ import annotations

from dataclasses import replace

from engine.rules import Base, Build, DealStep, Game, MoveUnit, PileRule, PileSpec, Role, StockRule, SuitRule

SOURCE = 'Lady Cadogan\'s Illustrated Games of Solitaire or Patience (1914), chapter "General Sedgewick"'

# Rule II: the foundations follow suit; they ascend from the rank of the first foundation card, and since that
# rank is arbitrary a foundation runs on from king to ace (7 ... K, A ... 6).
FOUNDATION = PileRule(
    build=Build.UP,
    suits=SuitRule.SAME_SUIT,
    base=Base.DEALT,
    wrap=True,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU}),
    space_from=frozenset({Role.WASTE, Role.TABLEAU}),
)
# Rules I, III, IV: only the top card of a packet is available; cards go on the cross in descending sequence,
# regardless of suit, from other packets, the pack or the talon. Vacancies are filled "from pack or talon" only.
# The book's sequences run K down to A: no king on an ace on the cross.
CROSS_1914 = PileRule(
    build=Build.DOWN,
    suits=SuitRule.ANY,
    base=Base.ANY,
    accepts_from=frozenset({Role.WASTE, Role.TABLEAU}),
    space_from=frozenset({Role.WASTE}),
    gives=MoveUnit.TOP_CARD,
)
STOCK = PileRule()
TALON = PileRule(gives=MoveUnit.TOP_CARD)

CROSS_NAMES = (
    "the centre of the cross",
    "the top of the cross",
    "the foot of the cross",
    "the left arm",
    "the right arm",
)
CORNER_NAMES = ("the upper-left corner", "the upper-right corner", "the lower-left corner", "the lower-right corner")


def _piles(cross: PileRule) -> tuple[PileSpec, ...]:
    return (
        PileSpec("s", Role.STOCK, STOCK, "the pack"),
        PileSpec("w", Role.WASTE, TALON, "the talon"),
        *(PileSpec(f"f{n}", Role.FOUNDATION, FOUNDATION, CORNER_NAMES[n - 1]) for n in range(1, 5)),
        *(PileSpec(f"t{n}", Role.TABLEAU, cross, CROSS_NAMES[n - 1]) for n in range(1, 6)),
    )


# Five cards for the cross, then "the next card turned" to the upper-left corner.
DEAL = (*(DealStep(f"t{n}", 1, True) for n in range(1, 6)), DealStep("f1", 1, True))

GENERAL_SEDGEWICK = Game(
    name="general-sedgewick",
    title="General Sedgewick",
    source=SOURCE,
    summary="A cross of five, the sixth card in the upper-left corner sets the foundation rank; build down on "
    "the cross regardless of suit, one card at a time; vacancies from pack or talon; no re-deal.",
    piles=_piles(CROSS_1914),
    deal=DEAL,
    stock=StockRule(draw=1, passes=1),
    aliases=("sedgewick", "general-sedgwick"),
    rules_doc="docs/rules/general-sedgewick.md",
)

# PySolFC's Four Seasons: a king may go on an ace, and any available card (from the talon or the cross) may
# fill a space.
CROSS_MODERN = replace(CROSS_1914, wrap=True, space_from=frozenset({Role.WASTE, Role.TABLEAU}))

FOUR_SEASONS = replace(
    GENERAL_SEDGEWICK,
    name="four-seasons",
    title="Four Seasons",
    summary="Modern General Sedgewick: king on ace on the cross, any card from talon or cross fills a space.",
    piles=_piles(CROSS_MODERN),
    aliases=("general-sedgewick/modern", "vanishing-cross", "corner-card", "cross-currents"),
    variant_of="general-sedgewick",
)

GAMES = (GENERAL_SEDGEWICK, FOUR_SEASONS)
