"""General Sedgewick (Cadogan 1914) and Four Seasons: one test per rule sentence, and faulty layouts.

Each test is named after the sentence of the chapter it checks (chapters/general-sedgewick.txt).
"""

from __future__ import annotations

import pytest

from engine.games import find_game
from engine.moves import Move
from engine.status import ProblemKind
from engine.table import Outcome, Table
from engine.testing import Edit, assert_faulty_layout, both, drop_from_stock, make_table, play_stage, set_pile

GAME = "general-sedgewick"
K = ProblemKind


def legal(table: Table) -> set[str]:
    return {str(m) for m in table.generate_moves()}


# ------------------------------------------------------------------------------------------------ the rules
def test_sedgewick_rule_i_the_five_cross_cards_are_available() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "6H", "t2": "9C", "t3": "8D", "t4": "KS", "t5": "2C"})
    # every one of the five may move: 6H to the foundation, 8D onto 9C, 9C? nothing above it is a 10.
    assert {"t1>f1", "t3>t2"} <= legal(table)


def test_sedgewick_rule_i_only_the_uppermost_card_of_a_packet_is_available() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "6H 9C", "t2": "10D", "t3": "KS"})
    moves = legal(table)
    assert "t1>t2" in moves  # the 9 of clubs on top
    assert "t1>f1" not in moves  # the 6 of hearts beneath it is not available
    assert not any(m.startswith("t1:") for m in moves)  # never two cards at once


def test_sedgewick_rule_ii_the_foundations_follow_suit() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "6C", "t2": "6H"})
    assert "t2>f1" in legal(table)
    assert "t1>f1" not in legal(table)


def test_sedgewick_rule_iii_cards_on_the_cross_transfer_in_descending_sequence() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "8D", "t2": "9C", "t3": "7S"})
    moves = legal(table)
    assert "t1>t2" in moves  # 8 on 9
    assert "t3>t1" in moves  # 7 on 8
    assert "t2>t1" not in moves  # 9 on 8 ascends


def test_sedgewick_rule_iii_cards_from_pack_or_talon_go_on_the_cross() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "8D", "w": "2S 7C", "s": "4h"})
    assert "w>t1" in legal(table)


def test_sedgewick_rule_iv_cards_on_the_cross_need_not_follow_suit() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "8D", "t2": "7S", "t3": "7D"})
    assert {"t2>t1", "t3>t1"} <= legal(table)


def test_sedgewick_play_deal_five_cards_in_a_cross_the_next_in_the_upper_left_corner() -> None:
    table = Table.dealt(find_game(GAME), 3)
    assert [len(table.codes(f"t{n}")) for n in range(1, 6)] == [1] * 5
    assert table.codes("f1")
    assert not any(table.codes(f"f{n}") for n in range(2, 5))
    assert len(table.codes("s")) == 46
    assert find_game(GAME).pile("f1").name == "the upper-left corner"


def test_sedgewick_play_the_three_others_of_similar_value_go_in_the_other_corners() -> None:
    table = make_table(GAME, {"f1": "KD", "t1": "KS", "t2": "QS", "w": "KH"})
    moves = legal(table)
    assert {"t1>f2", "t1>f3", "t1>f4", "w>f2"} <= moves
    assert not any(m.startswith("t2>f") for m in moves)  # a queen starts no foundation when the base is a king


def test_sedgewick_play_the_foundation_cards_ascend_in_sequence_past_the_king() -> None:
    table = make_table(GAME, {"f1": "QD KD", "t1": "AD", "t2": "2D"})
    moves = legal(table)
    assert "t1>f1" in moves  # K then A: the rank of the base card is arbitrary, so foundations run round
    assert "t2>f1" not in moves


def test_sedgewick_play_filling_the_vacancies_from_pack_or_talon() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "9C", "w": "3S", "s": "4h"})
    moves = legal(table)
    assert "w>t2" in moves  # the talon's (or the turned card's) top fills a vacancy
    assert "t1>t2" not in moves  # a card of the cross does not: the book names pack and talon only


def test_sedgewick_play_the_non_suitable_cards_form_the_talon() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "9C", "s": "4h 2d"})
    table.play("s>w")
    assert table.codes("w")
    assert table.is_face_up("w", 0)
    table.play("s>w")
    assert len(table.codes("w")) == 2


def test_sedgewick_play_there_is_no_re_deal() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "9C", "t2": "9D", "t3": "9S", "t4": "9H", "t5": "2C", "w": "2D 4S"})
    assert not any(m.startswith("w:") and m.endswith(">s") for m in legal(table))
    assert table.outcome() is Outcome.BLOCKED


def test_sedgewick_play_continue_till_the_pack_is_exhausted() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "9C", "s": "4h"})
    assert "s>w" in legal(table)


def test_sedgewick_no_king_on_an_ace_on_the_cross() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "AC", "t2": "KS"})
    assert "t2>t1" not in legal(table)


def test_four_seasons_king_on_ace_and_any_card_fills_a_space() -> None:
    table = make_table("four-seasons", {"f1": "5H", "t1": "AC", "t2": "KS", "t3": "9D"})
    moves = legal(table)
    assert "t2>t1" in moves
    assert "t3>t4" in moves


def test_sedgewick_move_counts_are_single_cards() -> None:
    table = make_table(GAME, {"f1": "5H", "t1": "9C 8D", "t2": "10S"})
    assert Move("t1", "t2", 2) not in table.legal_moves


def test_sedgewick_is_listed_with_its_source() -> None:
    game = find_game("general-sedgewick")
    assert "General Sedgewick" in game.source
    assert "1914" in game.source
    assert find_game("four-seasons").variant_of == GAME


# ------------------------------------------------------------------------------------------------ faulty layouts


# Deal 3: cross t1 3H t2 QD t3 9D t4 9S t5 JH, upper-left corner KD, pack of 46 ending ... Qc 2c 5d (top last).
CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    (
        "the foundation card left in the pack",
        both(set_pile("f1", ""), lambda d: d["piles"]["s"].append("Kd")),
        [(K.WRONG_PILE_SIZE, ("f1",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    (
        "the first foundation in the wrong corner",
        both(set_pile("f1", ""), set_pile("f3", "KD")),
        [(K.WRONG_PILE_SIZE, ("f1",)), (K.WRONG_PILE_SIZE, ("f3",))],
    ),
    (
        "a sixth card on the cross",
        both(set_pile("t1", "3H 5D"), drop_from_stock("5d")),
        [(K.IMPOSSIBLE_CARD, ("t1",)), (K.WRONG_PILE_SIZE, ("s",)), (K.WRONG_PILE_SIZE, ("t1",))],
    ),
    ("a cross card dealt face down", set_pile("t4", "9s"), [(K.FACE_PATTERN, ("t4",))]),
    (
        "the queen of diamonds twice, the 3 of hearts missing",
        set_pile("t1", "QD"),
        [(K.DUPLICATE_CARD, ("t1", "t2")), (K.MISSING_CARD, ())],
    ),
    ("a card dropped from the pack", drop_from_stock("Ah"), [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))]),
    ("the top card of the pack face up", lambda d: d["piles"]["s"].__setitem__(-1, "5D"), [(K.FACE_PATTERN, ("s",))]),
    (
        "a card turned onto the talon during the deal",
        both(drop_from_stock("5d"), set_pile("w", "5D")),
        [(K.WRONG_PILE_SIZE, ("s",)), (K.WRONG_PILE_SIZE, ("w",))],
    ),
    ("a sixth packet in the cross", lambda d: d["piles"].__setitem__("t6", []), [(K.WRONG_PILES, ("t6",))]),
    (
        "in play: a queen in a corner when the foundations are kings",
        both(play_stage, set_pile("t2", ""), set_pile("f2", "QD")),
        [(K.FOUNDATION_BASE, ("f2",))],
    ),
    (
        "in play: the ace of clubs on the king of diamonds",
        both(play_stage, drop_from_stock("Ac"), set_pile("f1", "KD AC")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    (
        "in play: the 9 of spades on the 3 of hearts",
        both(play_stage, set_pile("t4", ""), set_pile("t1", "3H 9S")),
        [(K.IMPOSSIBLE_CARD, ("t1",))],
    ),
    ("in play: a face-down card on the cross", both(play_stage, set_pile("t3", "9d")), [(K.FACE_PATTERN, ("t3",))]),
    (
        "in play: a face-down card in the talon",
        both(play_stage, drop_from_stock("5d"), set_pile("w", "5d")),
        [(K.FACE_PATTERN, ("w",))],
    ),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=d) for d, e, x in CASES])
def test_faulty_sedgewick_layout_reports_exactly_its_problems(
    edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(GAME, edit, expected)


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("t3", "move the 6 of spades into the empty foot of the cross"),
        ("t1", "move the 6 of spades into the empty centre of the cross"),
        ("t4", "move the 6 of spades into the empty left arm"),
    ],
)
def test_a_move_into_an_empty_packet_is_said_plainly(target: str, said: str) -> None:
    table = make_table("four-seasons", {"f1": "7C", "t2": "6S"})
    assert table.describe(Move.parse(f"t2>{target}")) == said
