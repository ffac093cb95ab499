"""Sly (Cadogan 1914): one test per rule sentence of the chapter, and faulty layouts.

Each test is named after the rule or sentence it checks (chapters/sly.txt).
"""

from __future__ import annotations

import pytest

from engine.formats import table_from_json, table_to_json
from engine.games import find_game
from engine.status import ProblemKind
from engine.table import Outcome, Table
from engine.testing import Edit, assert_faulty_layout, both, drop_from_stock, make_table, play_stage, set_pile

GAME = "sly"
K = ProblemKind

# A promenade with no vacancy and nothing playable: twenty nines and tens.
FULL = {f"p{n}": ("9" if n % 2 else "10") + "SHDC"[n % 4] for n in range(1, 21)}


def legal(table: Table) -> set[str]:
    return {str(m) for m in table.generate_moves()}


def sly(piles: dict[str, str], placed: int = 0) -> Table:
    return make_table(GAME, {**FULL, **piles}, state={"placed": placed})


# ------------------------------------------------------------------------------------------------ the rules
def test_sly_rule_i_the_foundations_follow_suit() -> None:
    table = sly({"f1": "AH", "f5": "KS", "p1": "2H", "p2": "2C", "p3": "QS", "p4": "QH"})
    moves = legal(table)
    assert {"p1>f1", "p3>f5"} <= moves
    assert not {"p2>f1", "p4>f5"} & moves


def test_sly_rule_ii_cards_on_the_promenade_need_not_follow_suit_or_sequence() -> None:
    table = sly({"w": "5D"}, placed=3)
    assert {f"w>p{n}" for n in range(1, 21)} <= legal(table)


def test_sly_rule_iii_only_the_uppermost_card_of_a_packet_is_available() -> None:
    table = sly({"f1": "AH", "p1": "2H 7C"})
    assert "p1>f1" not in legal(table)
    table = sly({"f1": "AH", "p1": "7C 2H"})
    assert "p1>f1" in legal(table)


def test_sly_rule_iv_cards_may_be_played_as_they_turn_up_in_the_deal() -> None:
    table = sly({"f1": "AH", "w": "2H"}, placed=5)
    assert "w>f1" in legal(table)
    table.play("w>f1")
    assert table.hook_state == (5,)  # played during the deal: it does not count among the twenty


def test_sly_rule_iv_a_card_placed_cannot_be_played_until_the_twenty_are_complete() -> None:
    table = sly({"f1": "AH", "p1": "7C 2H", "s": "3d"}, placed=19)
    assert "p1>f1" not in legal(table)
    table.play("s>w")
    table.play("w>p2")  # the twentieth card
    assert table.hook_state == (0,)
    assert "p1>f1" in legal(table)


def test_sly_play_the_promenade_is_twenty_cards_in_two_rows_of_ten() -> None:
    table = Table.dealt(find_game(GAME), 3)
    assert [len(table.codes(p)) for p in (f"p{n}" for n in range(1, 21))] == [1] * 20
    assert len(table.codes("s")) == 84


def test_sly_play_four_aces_and_four_kings_of_different_suits() -> None:
    table = sly({"f1": "AH", "p1": "AH", "p2": "AS", "f5": "KD", "p3": "KD", "p4": "KC", "p5": "KH"})
    moves = legal(table)
    assert not any(m.startswith("p1>f") for m in moves)  # a second ace of hearts starts nothing
    assert {"p2>f2", "p2>f3", "p2>f4"} <= moves
    assert not any(m.startswith("p3>f") for m in moves)
    assert {"p4>f6", "p5>f6"} <= moves
    assert "p5>f2" not in moves  # a king does not go to an ace's place


def test_sly_play_foundations_are_placed_at_once_as_they_appear_in_the_deal() -> None:
    table = sly({"w": "AS"})
    assert {"w>f1", "w>f2", "w>f3", "w>f4"} <= legal(table)


def test_sly_play_refilling_vacancies_from_the_pack() -> None:
    table = sly({"p7": "", "w": "5D", "s": "6d"})
    moves = legal(table)
    assert "w>p7" in moves
    assert "w>p1" not in moves  # a covered packet waits until every vacancy is refilled
    table.play("w>p7")
    assert table.hook_state == (0,)  # refilling a vacancy is not part of a round


def test_sly_play_when_no_more_can_be_played_deal_a_round_of_twenty() -> None:
    table = sly({"s": "6d 5d"})
    table.play("s>w")
    assert {f"w>p{n}" for n in range(1, 21)} <= legal(table)
    table.play("w>p4")
    assert table.hook_state == (1,)


def test_sly_play_between_each_deal_play_from_the_promenade_all_available_cards() -> None:
    table = sly({"f1": "AH", "p1": "7C 2H", "p2": "3H", "s": "6d 5d"})
    assert legal(table) == {"p1>f1"}  # the next round waits: no card is turned while a promenade card can play
    table.play("p1>f1")
    assert legal(table) == {"p2>f1"}  # the 7 of clubs it released cannot play; the 3 of hearts can
    table.play("p2>f1")
    assert legal(table) == {"s>w"}  # a vacancy is open: it is refilled from the pack


def test_sly_play_when_no_more_can_be_played_the_turned_card_opens_the_round() -> None:
    # A card turned between rounds that plays to a foundation may release a promenade card: that is played first.
    table = sly({"f1": "AH 2H", "p1": "4H", "s": "6d 3h"})
    table.play("s>w")
    assert {"w>f1", "w>p2"} <= legal(table)  # nothing else can play: the 3 of hearts may open the round
    table.play("w>f1")  # played as it turns up: the round has not begun, and the 4 of hearts is free to play
    assert legal(table) == {"p1>f1"}
    table.play("p1>f1")
    assert legal(table) == {"s>w"}
    table.play("s>w")  # the vacancy at p1 is refilled first
    assert "w>p1" in legal(table)
    assert "w>p2" not in legal(table)


def test_sly_play_a_card_turned_to_refill_may_not_open_the_round_while_cards_can_play() -> None:
    table = sly({"f1": "AH", "p1": "", "p2": "7C 2H", "w": "5D", "s": "6d"})
    assert legal(table) == {"w>p1", "p2>f1"}


def test_sly_play_several_cards_may_be_heaped_on_one_packet() -> None:
    table = sly({"s": "7d 6d 5d"})
    for _ in range(3):
        table.play("s>w")
        table.play("w>p4")
    assert len(table.codes("p4")) == 4
    assert table.hook_state == (3,)


def test_sly_play_each_card_is_placed_before_the_next_is_turned() -> None:
    table = sly({"w": "5D", "s": "6d"}, placed=2)
    assert "s>w" not in legal(table)


def test_sly_play_continue_until_the_pack_is_exhausted() -> None:
    # The last round may hold fewer than twenty cards: once the pack is exhausted, the promenade plays again.
    table = sly({"f1": "AH", "p1": "7C 2H"}, placed=7)
    assert "p1>f1" in legal(table)


def test_sly_play_cards_not_being_transferable_from_one_packet_to_another() -> None:
    table = sly({"p1": "7C 8C", "p2": "9C"})
    assert not any(m.startswith("p") and ">p" in m for m in legal(table))


def test_sly_play_there_is_no_re_deal() -> None:
    table = sly({})
    assert table.outcome() is Outcome.BLOCKED


def test_sly_round_count_survives_the_table_file() -> None:
    table = sly({"w": "5D", "s": "6d"}, placed=12)
    assert table_to_json(table)["state"] == {"placed": 12}
    assert table_from_json(table_to_json(table)).key() == table.key()


def test_sly_is_listed_with_its_source() -> None:
    assert "Sly" in find_game(GAME).source


# ------------------------------------------------------------------------------------------------ faulty layouts


# Deal 3: promenade 5D JH 5H 4H 9C KH 9S 3D 10H 9S 8C 2S 7C 8D 6H 4D QH AC JC QD, pack of 84 ending ... Qc 9d.
CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    (
        "a promenade of nineteen",
        both(set_pile("p20", ""), lambda d: d["piles"]["s"].append("Qd")),
        [(K.WRONG_PILE_SIZE, ("p20",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("a twenty-first packet", lambda d: d["piles"].__setitem__("p21", []), [(K.WRONG_PILES, ("p21",))]),
    ("a promenade card face down", set_pile("p3", "5h"), [(K.FACE_PATTERN, ("p3",))]),
    (
        "a third 9 of spades",
        set_pile("p1", "9S"),
        [(K.DUPLICATE_CARD, ("p1", "p7", "p10")), (K.MISSING_CARD, ())],
    ),
    ("a card dropped from the pack", drop_from_stock("Qc"), [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))]),
    (
        "the top of the pack face up",
        lambda d: d["piles"]["s"].__setitem__(-1, d["piles"]["s"][-1].upper()),
        [(K.FACE_PATTERN, ("s",))],
    ),
    (
        "a card turned during the deal",
        both(drop_from_stock("9d"), set_pile("w", "9D")),
        [(K.WRONG_PILE_SIZE, ("s",)), (K.WRONG_PILE_SIZE, ("w",))],
    ),
    (
        "in play: two ace foundations of clubs",
        both(play_stage, set_pile("p18", ""), set_pile("f1", "AC"), drop_from_stock("Ac"), set_pile("f3", "AC")),
        [(K.FOUNDATION_BASE, ("f1", "f3"))],
    ),
    (
        "in play: an ace in a king's place",
        both(play_stage, set_pile("p18", ""), set_pile("f6", "AC")),
        [(K.FOUNDATION_BASE, ("f6",))],
    ),
    (
        "in play: the 3 of diamonds on the ace of clubs",
        both(play_stage, set_pile("p18", ""), set_pile("p8", ""), set_pile("f1", "AC 3D")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    (
        "in play: two cards turned up beside the pack",
        both(play_stage, drop_from_stock("9d"), drop_from_stock("Qc"), set_pile("w", "9D QC")),
        [(K.WRONG_PILE_SIZE, ("w",))],
    ),
    (
        "in play: a face-down card on the promenade",
        both(play_stage, set_pile("p5", "9c")),
        [(K.FACE_PATTERN, ("p5",))],
    ),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=d) for d, e, x in CASES])
def test_faulty_sly_layout_reports_exactly_its_problems(
    edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(GAME, edit, expected)
