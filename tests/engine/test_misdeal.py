"""Misdeal and position checks: hand-written faulty layouts, each reported with exactly the right problems."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.formats import read_table, table_to_json
from engine.rules import Game
from engine.status import ProblemKind, problems
from engine.table import Table
from engine.testing import Edit, assert_faulty_layout, both, deal_json, move_card, play_stage, report, set_pile

K = ProblemKind


# Klondike deal 3: t1 3H | t2 Qd 2C | t3 9d Qc 4H | t4 9s 5s 10d JC | t5 Jh 8c 2h Kh 8H |
# t6 Kd As Ks 10s 4c 3C | t7 5d 7c Ac 8s 2d 5c 9C | stock Ah 3d ... 9h 6c (top last)
KLONDIKE_CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    (
        "column 4 dealt with one face-down card too few, and its cards do not build",
        set_pile("t4", "9s 5s 10D JC"),
        [(K.FACE_PATTERN, ("t4",)), (K.IMPOSSIBLE_CARD, ("t4",))],
    ),
    (
        "columns 2 and 3 swapped sizes",
        both(set_pile("t2", "Qd Qc 2C"), set_pile("t3", "9d 4H")),
        [(K.WRONG_PILE_SIZE, ("t2",)), (K.WRONG_PILE_SIZE, ("t3",))],
    ),
    (
        "the 2 of clubs twice, the 3 of hearts missing",
        set_pile("t1", "2C"),
        [(K.DUPLICATE_CARD, ("t1", "t2")), (K.MISSING_CARD, ())],
    ),
    (
        "a card dropped from the stock",
        lambda d: d["piles"]["s"].remove("6c"),
        [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("the top card of the stock face up", lambda d: d["piles"]["s"].__setitem__(-1, "6C"), [(K.FACE_PATTERN, ("s",))]),
    (
        "an ace already on a foundation",
        move_card("s", "f1", "Ah"),
        [(K.WRONG_PILE_SIZE, ("f1",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("an extra card under column 1", set_pile("t1", "?? 3H"), [(K.EXTRA_CARDS, ()), (K.WRONG_PILE_SIZE, ("t1",))]),
    (
        "a card turned onto the waste during the deal",
        move_card("s", "w", "6c"),
        [(K.WRONG_PILE_SIZE, ("s",)), (K.WRONG_PILE_SIZE, ("w",))],
    ),
    ("an eighth column", lambda d: d["piles"].__setitem__("t8", []), [(K.WRONG_PILES, ("t8",))]),
    ("a foundation left out of the file", lambda d: d["piles"].pop("f4"), [(K.WRONG_PILES, ("f4",))]),
    (
        "a face-down card of column 7 turned up in the middle",
        set_pile("t7", "5d 7c Ac 8s 2D 5c 9C"),
        [(K.FACE_PATTERN, ("t7",)), (K.FACE_PATTERN, ("t7",))],
    ),
    (
        "in play: the 3 of hearts on the ace of hearts",
        both(play_stage, move_card("s", "f1", "Ah"), move_card("t1", "f1", "3H")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    (
        "in play: a foundation started with a 2, leaving a face-down card on top of column 2",
        both(play_stage, move_card("t2", "f1", "2C")),
        [(K.FACE_PATTERN, ("t2",)), (K.FOUNDATION_BASE, ("f1",))],
    ),
]

# Canfield deal 3: reserve 3H QD ... AS 7C (top last) | f1 4H | t1 10D t2 2H t3 KS t4 AC | hand 34 cards
CANFIELD_CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    (
        "twelve cards in the stock of thirteen",
        move_card("r", "s", "3H", at=0),
        [(K.WRONG_PILE_SIZE, ("r",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    (
        "the fourteenth card dealt to column 1 instead of the foundation",
        move_card("f1", "t1", "4H"),
        [(K.IMPOSSIBLE_CARD, ("t1",)), (K.WRONG_PILE_SIZE, ("f1",)), (K.WRONG_PILE_SIZE, ("t1",))],
    ),
    (
        "the stock of thirteen dealt face down",
        lambda d: d["piles"].__setitem__("r", [c[:-1] + c[-1].lower() for c in d["piles"]["r"]]),
        [(K.FACE_PATTERN, ("r",))],
    ),
    (
        "the ace of clubs twice, the king of spades missing",
        set_pile("t3", "AC"),
        [(K.DUPLICATE_CARD, ("t3", "t4")), (K.MISSING_CARD, ())],
    ),
    (
        "a fifth column",
        both(set_pile("t3", ""), lambda d: d["piles"].__setitem__("t5", ["KS"])),
        [(K.MISSING_CARD, ()), (K.WRONG_PILES, ("t5",)), (K.WRONG_PILE_SIZE, ("t3",))],
    ),
    (
        "in play: a foundation started with a 5 when the base is 4",
        both(play_stage, move_card("r", "f2", "5S")),
        [(K.FOUNDATION_BASE, ("f2",))],
    ),
    (
        "in play: the 5 of spades on the 4 of hearts",
        both(play_stage, move_card("r", "f1", "5S")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    ("the top card of the hand face up", lambda d: d["piles"]["s"].__setitem__(-1, "JC"), [(K.FACE_PATTERN, ("s",))]),
    (
        "a card missing from the hand",
        lambda d: d["piles"]["s"].remove("Jc"),
        [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    (
        "three cards turned onto the waste during the deal",
        both(move_card("s", "w", "Jc"), move_card("s", "w", "Kh"), move_card("s", "w", "10s")),
        [(K.WRONG_PILE_SIZE, ("s",)), (K.WRONG_PILE_SIZE, ("w",))],
    ),
    ("column 2 dealt face down", set_pile("t2", "2h"), [(K.FACE_PATTERN, ("t2",))]),
    (
        "in play: a face-down card in a column",
        both(play_stage, set_pile("t2", "2h")),
        [(K.FACE_PATTERN, ("t2",))],
    ),
]


@pytest.mark.parametrize(
    ("game", "edit", "expected"),
    [pytest.param("klondike", e, x, id=d) for d, e, x in KLONDIKE_CASES]
    + [pytest.param("canfield", e, x, id=d) for d, e, x in CANFIELD_CASES],
)
def test_faulty_layout_reports_exactly_its_problems(
    game: str, edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(game, edit, expected)


def test_every_problem_has_a_sentence_naming_the_cards() -> None:
    data = deal_json("klondike")
    set_pile("t1", "2C")(data)
    table, _ = read_table(data)
    messages = [p.message for p in problems(table)]
    assert any("2 of clubs is on the table twice (column 1, column 2)" in m for m in messages)
    assert any("3H" in m for m in messages)


CORRUPTIONS = ("duplicate", "drop", "move", "turn")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_corruption_of_a_deal_is_reported(game: Game, data: st.DataObject) -> None:
    seed = data.draw(st.integers(min_value=0, max_value=10_000))
    table_data = json.loads(json.dumps(table_to_json(Table.dealt(game, seed))))
    piles: dict[str, list[str]] = table_data["piles"]
    filled = sorted(p for p, cards in piles.items() if cards)
    src = data.draw(st.sampled_from(filled))
    index = data.draw(st.integers(min_value=0, max_value=len(piles[src]) - 1))
    kind = data.draw(st.sampled_from(CORRUPTIONS))
    card = piles[src][index]
    if kind == "duplicate":
        other = data.draw(st.sampled_from([t for p in filled for t in piles[p] if t.upper() != card.upper()]))
        piles[src][index] = other
    elif kind == "drop":
        del piles[src][index]
    elif kind == "move":
        dst = data.draw(st.sampled_from(sorted(p for p in piles if p != src)))
        del piles[src][index]
        piles[dst].append(card)
    else:
        piles[src][index] = card.upper() if card[-1].islower() else card[:-1] + card[-1].lower()
    assert report(table_data) != []
