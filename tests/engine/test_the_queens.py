"""The Queens (Cadogan 1914): one test per rule sentence of the chapter, and faulty layouts.

Each test is named after the rule or sentence it checks (chapters/the-queens.txt).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import parse_code
from engine.formats import table_from_json, table_to_json
from engine.games import find_game
from engine.status import ProblemKind, problems
from engine.table import Outcome, Table
from engine.testing import Edit, assert_faulty_layout, both, drop_from_stock, make_table, play_stage, set_pile

GAME = "the-queens"
K = ProblemKind


def legal(table: Table) -> set[str]:
    return {str(m) for m in table.generate_moves()}


# A shutter on which nothing marries and no space is open.
FULL_SHUTTER = {f"h{n}": card for n, card in enumerate(["10D", "10S", "10H", "10C", "8D", "8S", "8H"], 1)}


def codes(text: str) -> tuple[int, ...]:
    return tuple(parse_code(t) for t in text.split())


# ------------------------------------------------------------------------------------------------ the rules
def test_queens_rule_i_the_foundations_follow_suit() -> None:
    table = make_table(GAME, {"k": "2C", "f1": "KH", **FULL_SHUTTER, "h1": "AH", "h2": "AS", "s": "5d"})
    moves = legal(table)
    assert "h1>f1" in moves
    assert "h2>f1" not in moves


def test_queens_rule_ii_only_the_uppermost_card_of_the_key_is_available() -> None:
    table = make_table(GAME, {"k": "AH 2C", "f1": "KH", "s": "5d"})
    assert "k>f1" not in legal(table)
    table = make_table(GAME, {"k": "2C AH", "f1": "KH", "f2": "KC", "s": "5d"})
    table.play("k>f1")
    assert "k>f2" not in legal(table)  # the 2 of clubs released, but the clubs foundation wants an ace


def test_queens_rule_ii_each_card_played_releases_the_one_it_covered() -> None:
    table = make_table(GAME, {"k": "AC AH", "f1": "KH", "f2": "KC", "s": "5d"})
    table.play("k>f1")
    assert "k>f2" in legal(table)


def test_queens_rule_iii_key_cards_go_only_on_the_foundations() -> None:
    table = make_table(GAME, {"k": "5C", "h1": "6C", "f1": "KH", "s": "5d"})
    assert not any(m.startswith("k") for m in legal(table))


def test_queens_rule_iv_key_payment_fourteen_cards_including_the_queen() -> None:
    table = Table.dealt(find_game(GAME), 38)
    key = table.codes("k")
    pack = table.codes("s")
    assert table.generate_moves() == [table.generate_moves()[0]]  # the payment is the only move
    table.play("k:14>s")
    assert table.codes("k") == key[:-14]
    # the packet, turned face down, goes under the pack: the queen is now its very bottom card
    assert table.codes("s") == key[-14:][::-1] + pack
    assert table.face_down_count("s") == len(table.codes("s"))
    table.pop()
    assert table.codes("k") == key


def test_queens_rule_iv_a_second_queen_is_paid_again() -> None:
    key = "5C " * 17 + "QH " + "6C " * 13 + "QS"
    table = make_table(GAME, {"k": key, "s": "5d"})
    table.play("k:14>s")
    assert legal(table) == {"k:14>s"}
    table.play("k:14>s")
    assert len(table.codes("k")) == 4


def test_queens_rule_iv_a_third_queen_takes_the_last_four_cards() -> None:
    table = make_table(GAME, {"k": "5C 6C 7C QD", "s": "5d"})
    assert legal(table) == {"k:4>s"}
    table.play("k:4>s")
    assert table.codes("k") == ()


def test_queens_rule_iv_applies_only_before_any_card_is_played() -> None:
    table = make_table(GAME, {"k": "5C QD", "f1": "KH", "s": "5d"})
    assert "k:2>s" not in legal(table)


def test_queens_rule_v_three_bottom_talon_cards_for_each_queen() -> None:
    talon = "2C 3C 4C QH 5C 6C 7C 8C QS 9C"
    table = make_table(GAME, {"w": talon, "k": "5D", "h1": "10D"})
    assert "w:8>s" in legal(table)  # two queens and six other cards from the bottom
    table.play("w:8>s")
    assert table.codes("w") == codes("8C 9C")
    # The fresh pack is dealt from the bottom of the talon upwards (its top card is the last in the list).
    assert table.codes("s") == codes("2C 3C 4C QH 5C 6C 7C QS")[::-1]
    table.pop()
    assert table.codes("w") == codes(talon)


def test_queens_rule_v_take_all_that_remain_when_the_talon_is_short() -> None:
    table = make_table(GAME, {"w": "2C QH QS 3C", "k": "5D", "h1": "10D"})
    assert "w:4>s" in legal(table)


def test_queens_play_the_key_is_thirty_two_cards_face_upward() -> None:
    table = Table.dealt(find_game(GAME), 3)
    assert len(table.codes("k")) == 32
    assert table.face_down_count("k") == 0


def test_queens_play_the_shutter_is_seven_cards_in_rows_of_four_and_three() -> None:
    table = Table.dealt(find_game(GAME), 3)
    assert [len(table.codes(f"h{n}")) for n in range(1, 8)] == [1] * 7
    assert len(table.codes("s")) == 104 - 32 - 7


def test_queens_play_kings_that_appear_go_to_a_row_above() -> None:
    table = make_table(GAME, {"k": "5D", **FULL_SHUTTER, "h1": "KD", "h2": "QD", "s": "5d"})
    moves = legal(table)
    assert {f"h1>f{n}" for n in range(1, 9)} <= moves
    assert not any(m.startswith("h2>f") for m in moves)


def test_queens_play_the_foundations_ascend_through_aces_to_queens() -> None:
    table = make_table(GAME, {"k": "5D", "f1": "KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH", **FULL_SHUTTER, "h1": "QH"})
    assert "h1>f1" in legal(table)


def test_queens_play_a_complete_foundation_takes_no_second_king() -> None:
    full = "KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"
    table = make_table(GAME, {"k": "5D", "f1": full, **FULL_SHUTTER, "h1": "KH", "s": "5d"})
    moves = legal(table)
    assert "h1>f1" not in moves
    assert "h1>f2" in moves


def test_queens_play_a_card_from_the_key_is_played_in_preference() -> None:
    table = make_table(GAME, {"k": "AD", "f1": "KD", "f2": "KH", "h1": "AH", "s": "5d"})
    assert legal(table) == {"k>f1"}


def test_queens_play_refilling_the_shutter_spaces_from_the_pack() -> None:
    table = make_table(GAME, {"k": "5D", "h1": "9C", "s": "5d 8s"})
    table.play("s>w")
    assert {"w>h2", "w>h7"} <= legal(table)
    assert "h1>h2" not in legal(table)  # a shutter card does not fill a space: the pack does


SPACE_AT_H2 = {"k": "5D", **FULL_SHUTTER, "h2": "", "f1": "KS AS 2S 3S 4S 5S 6S 7S 8S 9S"}
"""A space at h2 of the shutter, and a spade foundation that waits for a 10."""


def test_queens_play_refilling_the_spaces_at_once_the_next_card_of_the_pack_is_turned() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "h4": "10S", "w": "9D", "s": "4c 2c"})
    # The 10 of spades could go to its foundation and the 9 of diamonds marry the 10 of diamonds: not yet.
    assert legal(table) == {"s>w"}


def test_queens_play_refilling_the_spaces_at_once_the_turned_card_is_placed() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "h4": "10S", "s": "4c 2c"})
    table.play("s>w")
    assert legal(table) == {"w>h2"}  # never to the talon: the 2 of clubs fills the space
    table.play("w>h2")
    assert table.hook_state == (1, 0)
    assert {"h4>f1", "s>w"} <= legal(table)


def test_queens_play_refilling_the_spaces_at_once_a_turned_card_may_be_played_or_married_instead() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "s": "4c 9d 10s"})
    table.play("s>w")
    assert legal(table) == {"w>h2", "w>f1"}
    table.play("w>f1")
    assert legal(table) == {"s>w"}  # the space still waits for the next card
    table.play("s>w")
    assert legal(table) == {"w>h2", "w>h1"}  # the 9 of diamonds marries the 10 of diamonds, or fills the space


def test_queens_play_refilling_the_spaces_at_once_a_card_turned_before_the_space_opened() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "h2": "10S", "s": "4c 2c"})
    table.play("s>w")  # the 2 of clubs goes nowhere yet
    table.play("h2>f1")  # the space opens while it waits: it fills the space at once
    assert legal(table) == {"w>h2"}


def test_queens_play_the_key_comes_before_refilling_a_space() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "k": "10S", "s": "4c 2c"})
    assert legal(table) == {"k>f1"}


def test_queens_play_refilling_a_space_waits_when_the_pack_is_exhausted() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "h4": "10S", "w": "4C 2C"})
    assert {"w>h2", "h4>f1"} <= legal(table)  # no card to refill from the pack: play goes on


def test_queens_turned_card_state_travels_in_the_json() -> None:
    table = make_table(GAME, {**SPACE_AT_H2, "s": "4c 2c"})
    table.play("s>w")
    data = table_to_json(table)
    assert data["state"] == {"played_since_payment": 1, "turned": 1}
    assert table_from_json(data).key() == table.key()


def test_queens_play_the_shutter_marries_in_descending_line() -> None:
    table = make_table(GAME, {"k": "5D", **FULL_SHUTTER, "h1": "9C", "h2": "8C", "h3": "8S", "h4": "10C", "w": "8C"})
    moves = legal(table)
    assert {"h2>h1", "w>h1"} <= moves
    assert "h3>h1" not in moves  # in suit only
    assert "h1>h2" not in moves  # descending only


def test_queens_play_unsuitable_cards_form_a_talon_whose_top_is_available() -> None:
    table = make_table(GAME, {"k": "5D", "h1": "9C", "h2": "9D", "h3": "9H", "h4": "9S", "h5": "10C", "h6": "10D",
                              "h7": "10H", "s": "2s 3s"})  # fmt: skip
    table.play("s>w")
    table.play("s>w")
    assert table.codes("w") == codes("3S 2S")


def test_queens_play_the_talon_is_not_re_dealt_in_its_entirety() -> None:
    table = make_table(GAME, {"w": "2C 3C 4C 5C 6C", "k": "5D", **FULL_SHUTTER})
    assert not any(m.endswith(">s") for m in legal(table))  # no queen in the talon, no fresh pack
    assert table.outcome() is Outcome.BLOCKED


def test_queens_play_a_payment_needs_a_card_played_since_the_last() -> None:
    # Our reading (docs/rules/the-queens.md): otherwise the same queens could be paid for round and round.
    table = make_table(GAME, {"w": "2C QH 3C", "k": "5D", **FULL_SHUTTER}, state={"played_since_payment": 0})
    assert table.outcome() is Outcome.BLOCKED
    table = make_table(GAME, {"w": "2C QH 3C", "k": "5D", "h1": "10D", "f1": "KC AC"})
    table.play("w:3>s")
    assert table.hook_state == (0, 0)
    table.play("s>w")  # the 2 of clubs, turned first: it was the bottom card of the talon
    assert table.hook_state == (0, 1)
    table.play("w>f1")
    assert table.hook_state == (1, 0)


def test_queens_play_the_game_is_won_with_all_eight_foundations_king_to_queen() -> None:
    full = ["KH AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH".replace("H", suit) for suit in "SHDC"]
    piles = {f"f{n + 1}": full[n % 4] for n in range(8)}
    assert make_table(GAME, piles).outcome() is Outcome.WON


def test_queens_is_listed_with_its_source() -> None:
    assert "The Queens" in find_game(GAME).source


def test_queens_check_a_second_king_on_a_complete_foundation() -> None:
    table = make_table(GAME, {"f1": "KS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"})
    kinds = [(p.kind, p.piles) for p in problems(table)]
    assert (K.FOUNDATION_SEQUENCE, ("f1",)) in kinds


# ------------------------------------------------------------------------------------------------ faulty layouts


def key_to_stock(count: int) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        moved = data["piles"]["k"][-count:]
        del data["piles"]["k"][-count:]
        data["piles"]["s"][:0] = [c[:-1] + c[-1].lower() for c in moved]

    return edit


# Deal 3: key 5D JH ... 8H 6S (top last), shutter KD 4S 9D 6D QH 3S 5D, pack of 65 ending ... Jh Ks 5h.
CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    ("a key of thirty-one cards", key_to_stock(1), [(K.WRONG_PILE_SIZE, ("k",)), (K.WRONG_PILE_SIZE, ("s",))]),
    ("an eighth shutter packet", lambda d: d["piles"].__setitem__("h8", ["5H"]), [(K.WRONG_PILES, ("h8",))]),
    ("a shutter card face down", set_pile("h2", "4s"), [(K.FACE_PATTERN, ("h2",))]),
    (
        "the key dealt face down",
        lambda d: d["piles"].__setitem__("k", [c.lower() for c in d["piles"]["k"]]),
        [(K.FACE_PATTERN, ("k",))],
    ),
    (
        "a third 5 of diamonds",
        both(set_pile("h3", "5D"), drop_from_stock("Ks")),
        [(K.DUPLICATE_CARD, ("k", "h3", "h7")), (K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("a card dropped from the pack", drop_from_stock("Jh"), [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))]),
    (
        "the top of the pack face up",
        lambda d: d["piles"]["s"].__setitem__(-1, d["piles"]["s"][-1].upper()),
        [(K.FACE_PATTERN, ("s",))],
    ),
    (
        "in play: a foundation started with an ace",
        both(play_stage, drop_from_stock("Ah"), set_pile("f1", "AH")),
        [(K.FOUNDATION_BASE, ("f1",))],
    ),
    (
        "in play: the 2 of diamonds on the king of diamonds",
        both(play_stage, set_pile("h1", ""), drop_from_stock("2d"), set_pile("f1", "KD 2D")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    (
        "in play: the 9 of diamonds on the 4 of spades in the shutter",
        both(play_stage, set_pile("h3", ""), set_pile("h2", "4S 9D")),
        [(K.IMPOSSIBLE_CARD, ("h2",))],
    ),
    (
        "in play: a key of thirty-three cards",
        both(play_stage, drop_from_stock("5h"), lambda d: d["piles"]["k"].append("5H")),
        [(K.WRONG_PILE_SIZE, ("k",))],
    ),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=d) for d, e, x in CASES])
def test_faulty_queens_layout_reports_exactly_its_problems(
    edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(GAME, edit, expected)


def test_queens_payments_are_announced_in_words() -> None:
    table = Table.dealt(find_game(GAME), 38)
    (payment,) = table.generate_moves()
    assert table.describe(payment) == "pay for the queen on the key: put the 14 top cards of the key under the pack"
    table = make_table(GAME, {"w": "2C 3C QH 4C 5C", "k": "5D", **FULL_SHUTTER})
    assert "(4 cards) as a fresh pack" in table.describe(table.generate_moves()[-1])
