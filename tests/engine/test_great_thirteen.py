"""The Great Thirteen (Cadogan 1914): one test per rule sentence of the chapter, and faulty layouts.

Each test is named after the rule or sentence it checks (chapters/the-great-thirteen.txt).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import RANK_OF, full_deck, parse_code
from engine.formats import table_from_json, table_to_json
from engine.games import find_game
from engine.games.great_thirteen import GROUND, wanted, won
from engine.rules import Role
from engine.status import ProblemKind
from engine.table import Outcome, Stage, Table
from engine.testing import Edit, assert_faulty_layout, both, make_table, play_stage, set_pile

GAME = "the-great-thirteen"
K = ProblemKind


def legal(table: Table) -> set[str]:
    return {str(m) for m in table.generate_moves()}


def code(text: str) -> int:
    return parse_code(text)


def texts(table: Table, pile: str) -> list[str]:
    return [str(card) for card in table.pile(pile)]


def dealt_in_order(order: list[int]) -> Table:
    """The deal of a pack whose cards come off in ``order`` (the first card dealt first)."""
    return Table.from_pack(find_game(GAME), order[::-1])


def order_with(first: list[str]) -> list[int]:
    """Dealing order starting with ``first`` (card texts), then the rest of two packs in a fixed order."""
    rest = full_deck(2)
    head = [code(t) for t in first]
    for c in head:
        rest.remove(c)
    return head + rest


def no_king_on_top_order() -> list[int]:
    """Dealing order in which each packet of thirteen has a king at the bottom and none on top."""
    kings = [c for c in full_deck(2) if RANK_OF[c] == 13]
    others = [c for c in full_deck(2) if RANK_OF[c] != 13]
    return [c for n in range(8) for c in [kings[n], *others[12 * n : 12 * n + 12]]]


# ------------------------------------------------------------------------------------------------ the rules
def test_great_thirteen_rule_i_the_uppermost_card_of_each_ground_packet_is_alone_available() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "6H 9S"})
    assert "g1>n1" not in legal(table)  # the 6 wanted lies under the 9
    table = make_table(GAME, {"b1": "3C", "g1": "9S 6H"})
    assert legal(table) == {"g1>n1"}


def test_great_thirteen_rule_i_its_removal_releases_the_card_beneath() -> None:
    table = make_table(GAME, {"b1": "3C", "b2": "4C", "g1": "8D 6H"})
    assert legal(table) == {"g1>n1"}
    table.play("g1>n1")
    assert legal(table) == {"g1>n2"}


def test_great_thirteen_rule_ii_a_card_suitable_for_a_vacancy_or_for_addition_fills_the_vacancy() -> None:
    # The 9 would continue 3, 6 (6 + 3) and would double the knave (22, less 13): the vacancy comes first.
    table = make_table(GAME, {"b1": "3C", "n1": "6H", "b2": "JC", "g1": "9S"})
    assert legal(table) == {"g1>n2"}


def test_great_thirteen_play_the_refilling_of_the_vacancies_must_be_the_first_object() -> None:
    table = make_table(GAME, {"b1": "3C", "n1": "6H", "b2": "2C", "g1": "9S", "g2": "4D"})
    assert legal(table) == {"g2>n2"}  # the vacancy first, though the 9 could be added
    table.play("g2>n2")
    assert legal(table) == {"g1>n1"}


def test_great_thirteen_rule_iii_the_ground_packets_are_counted_from_one_to_eight_left_to_right() -> None:
    order = no_king_on_top_order()
    table = dealt_in_order(order)
    for n, g in enumerate(GROUND):
        assert list(table.codes(g)) == order[13 * n : 13 * n + 12]


def test_great_thirteen_rule_iii_the_re_deal_deals_on_vacancies_as_on_packets() -> None:
    table = make_table(GAME, {"g1": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "g3": "JS"})
    assert legal(table) == {"g1:10>g2"}
    table.play("g1:10>g2")
    # the bottom card first, on No. 2 (vacant), on to No. 8, then No. 1 (its own, now vacant), 2, 3
    assert texts(table, "g2") == ["AS", "9S"]
    assert texts(table, "g3") == ["JS", "2S", "10S"]
    assert texts(table, "g4") == ["3S"]
    assert texts(table, "g8") == ["7S"]
    assert texts(table, "g1") == ["8S"]


def test_great_thirteen_play_it_has_no_foundation_cards() -> None:
    table = Table.dealt(find_game(GAME), 1)
    assert all(not table.codes(f"n{n}") for n in range(1, 9))  # the numerals begin with the doubled card
    assert all(len(table.codes(f"b{n}")) == 1 for n in range(1, 9))
    game = find_game(GAME)
    assert not game.piles_with_role(Role.FOUNDATION)
    assert [spec.id for spec in game.piles_with_role(Role.BALCONY)] == [f"b{n}" for n in range(1, 9)]
    assert table.foundation_count() == 0
    assert table.score() is None  # the 1914 wager ($5 a foundation card) is not part of this chapter


def test_great_thirteen_play_eight_ground_packets_of_thirteen_cards_dealt_together() -> None:
    order = no_king_on_top_order()
    table = dealt_in_order(order)
    for n in range(8):
        assert [*table.codes(f"g{n + 1}"), *table.codes(f"b{n + 1}")] == order[13 * n : 13 * n + 13]
    assert sum(len(table.codes(g)) for g in GROUND) == 96


def test_great_thirteen_play_kings_on_the_surface_in_the_first_deal_are_slipped_underneath() -> None:
    first = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "KH", "KS"]
    table = dealt_in_order(order_with(first))
    assert texts(table, "b1") == ["JS"]  # both kings went under: the knave is the top card
    assert texts(table, "g1") == ["KH", "KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"]


def test_great_thirteen_play_turn_the_packet_face_downward_and_deal_the_cards_face_upward() -> None:
    table = make_table(GAME, {"g1": "AS 2S 3S"})
    table.play("g1:3>g2")  # turned over, its bottom card comes first
    assert (texts(table, "g2"), texts(table, "g3"), texts(table, "g4")) == (["AS"], ["2S"], ["3S"])
    assert all(table.face_down_count(g) == 0 for g in GROUND)


def test_great_thirteen_play_kings_are_slipped_under_only_in_the_first_deal() -> None:
    # A king uncovered when the balcony is taken stays on top (as in the printed tableau).
    first = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "KH", "QS"]
    table = dealt_in_order(order_with(first))
    assert texts(table, "b1") == ["QS"]
    assert texts(table, "g1")[-1] == "KH"
    # and a king the re-deal puts on top stays there
    table = make_table(GAME, {"g1": "KS", "g2": "4D"})
    table.play("g1>g2")
    assert texts(table, "g2") == ["4D", "KS"]


def test_great_thirteen_play_the_uppermost_card_of_each_packet_makes_the_balcony() -> None:
    order = no_king_on_top_order()
    table = dealt_in_order(order)
    assert [table.codes(f"b{n}")[0] for n in range(1, 9)] == [order[13 * n + 12] for n in range(8)]


@pytest.mark.parametrize(
    ("balcony", "numeral"),
    [("3", 6), ("2", 4), ("7", 1), ("Q", 11), ("8", 3), ("J", 9), ("K", 13), ("A", 2)],
    ids=["6 under a three", "4 under a two", "ace under a seven", "knave under a queen", "3 under an eight",
         "9 under a knave", "king under a king", "2 under an ace"],
)  # fmt: skip
def test_great_thirteen_play_double_the_balcony_card_less_the_excess_over_thirteen(balcony: str, numeral: int) -> None:
    assert wanted(code(balcony + "S"), ()) == numeral


def test_great_thirteen_play_the_doubled_card_is_placed_immediately_below_the_balcony_card() -> None:
    table = make_table(GAME, {"b1": "7C", "b2": "5D", "g1": "AH"})
    assert legal(table) == {"g1>n1"}
    table.play("g1>n1")
    assert texts(table, "n1") == ["AH"]


def test_great_thirteen_play_the_knave_counts_eleven_the_queen_twelve_the_king_thirteen() -> None:
    assert wanted(code("QS"), ()) == 11
    table = make_table(GAME, {"b1": "QS", "g1": "JD"})
    assert legal(table) == {"g1>n1"}
    table = make_table(GAME, {"b1": "6S", "n1": "QC", "g1": "5D"})  # 12 + 6 = 18, five in excess
    assert legal(table) == {"g1>n1"}


def test_great_thirteen_play_vacant_spaces_remain_when_the_packets_fail_to_produce_the_card() -> None:
    table = make_table(GAME, {"b1": "3C", "b2": "AC", "n2": "2D", "g1": "3S"})
    assert legal(table) == {"g1>n2"}  # no 6 for numeral 1: it stays vacant and addition goes on


@pytest.mark.parametrize(
    ("balcony", "numeral", "card"),
    [("7C", "AD", "8S"), ("QC", "JD", "10S")],
    ids=["an eight on the ace under a seven", "a ten on the knave under a queen"],
)
def test_great_thirteen_play_addition_of_the_numeral_and_the_balcony_card(
    balcony: str, numeral: str, card: str
) -> None:
    table = make_table(GAME, {"b1": balcony, "n1": numeral, "g1": card})
    assert legal(table) == {"g1>n1"}


def test_great_thirteen_play_a_card_goes_on_the_numeral_exactly_underneath_the_balcony_card_it_adds_to() -> None:
    table = make_table(GAME, {"b1": "7C", "n1": "AD", "b2": "3C", "n2": "6D", "g1": "8S"})
    assert legal(table) == {"g1>n1"}  # 8 = 1 + 7; under the three the 9 is wanted


def test_great_thirteen_play_suit_is_not_considered() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "6H", "g2": "6S", "g3": "6D"})
    assert legal(table) == {"g1>n1", "g2>n1", "g3>n1"}


def test_great_thirteen_play_when_two_cards_are_equally_suitable_select_which_you_please() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "6H", "g2": "9D 6S"})
    assert legal(table) == {"g1>n1", "g2>n1"}
    table.play("g2>n1")
    assert legal(table) == {"g2>n1"}  # the choice released the 9


def test_great_thirteen_rule_i_a_card_turned_face_down_is_not_available() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "6h", "g2": "AS"})
    assert legal(table) == {"g1>g2"}


def test_great_thirteen_play_you_may_examine_the_underneath_cards() -> None:
    table = Table.dealt(find_game(GAME), 4)
    assert all(table.face_down_count(g) == 0 for g in GROUND)
    assert all(card is not None for g in GROUND for card in table.pile(g))


def test_great_thirteen_play_a_numeral_column_terminates_with_the_king() -> None:
    column = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
    table = make_table(GAME, {"b1": "AC", "n1": column, "g1": "AS"})
    assert "g1>n1" not in legal(table)  # a fourteenth would be 13 + 1, an ace: the column is complete
    assert wanted(code("AC"), tuple(code(t) for t in column.split())) is None


def test_great_thirteen_play_when_further_progress_is_impossible_take_up_the_first_ground_packet() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "AS", "g2": "2S"})
    assert legal(table) == {"g1>g2"}
    table = make_table(GAME, {"b1": "3C", "g1": "AS", "g2": "6S"})
    assert legal(table) == {"g2>n1"}  # no re-deal while a card can be placed


def test_great_thirteen_play_if_no_1_has_been_played_off_take_no_2() -> None:
    table = make_table(GAME, {"g2": "AS 2S", "g5": "3S"})
    assert legal(table) == {"g2:2>g3"}


def test_great_thirteen_play_begin_on_the_packet_next_on_your_right_and_after_no_8_begin_again_at_no_1() -> None:
    table = make_table(GAME, {"g8": "AS 2S 3S"}, state={"redealt": 7})
    assert legal(table) == {"g8:3>g1"}
    table.play("g8:3>g1")
    assert (texts(table, "g1"), texts(table, "g2"), texts(table, "g3")) == (["AS"], ["2S"], ["3S"])


def test_great_thirteen_play_take_up_the_next_packet_dealing_no_3_the_first_card_goes_on_no_4() -> None:
    table = make_table(GAME, {"g1": "AS", "g2": "2S", "g3": "3S 4S"})
    table.play("g1>g2")
    table.play("g2:2>g3")  # No. 2 now holds the 2 and the ace
    assert texts(table, "g3") == ["3S", "4S", "2S"]
    assert texts(table, "g4") == ["AS"]
    assert legal(table) == {"g3:3>g4"}
    table.play("g3:3>g4")
    assert (texts(table, "g4"), texts(table, "g5"), texts(table, "g6")) == (["AS", "3S"], ["4S"], ["2S"])
    assert legal(table) == {"g4:2>g5"}


def test_great_thirteen_play_pausing_between_each_deal_to_place_suitable_cards() -> None:
    table = make_table(GAME, {"b1": "3C", "g1": "6H 2S", "g2": "AS"})
    assert legal(table) == {"g1:2>g2"}
    table.play("g1:2>g2")
    assert texts(table, "g2") == ["AS", "6H"]
    assert legal(table) == {"g2>n1"}  # the fresh deal produced a 6: place it before the next re-deal
    table.play("g2>n1")
    assert legal(table) == {"g2>g3"}


def test_great_thirteen_play_the_re_deal_of_each_packet_is_complete_before_placing_cards() -> None:
    # The 6 dealt first from No. 1 (onto No. 2) may not be placed until all of No. 1 is dealt out.
    table = make_table(GAME, {"b1": "3C", "g1": "6H 9S 8S 7S"})
    (redeal,) = table.generate_moves()
    assert redeal.count == 4
    table.push(redeal)
    assert not table.codes("g1")
    assert [texts(table, g) for g in ("g2", "g3", "g4", "g5")] == [["6H"], ["9S"], ["8S"], ["7S"]]


def test_great_thirteen_play_each_ground_packet_is_re_dealt_once() -> None:
    table = make_table(GAME, {"g1": "AS 2S"}, state={"redealt": 8})
    assert legal(table) == set()
    assert table.outcome() is Outcome.BLOCKED
    table = make_table(GAME, {"g1": "AS 2S", "g4": "3S"}, state={"redealt": 3})
    assert legal(table) == {"g4>g5"}  # No. 1 has been re-dealt already


def test_great_thirteen_play_if_the_numerals_do_not_all_end_with_kings_the_game_has_failed() -> None:
    kings = {f"n{n}": "QS KS" for n in range(1, 9)}
    assert won(make_table(GAME, kings))
    assert make_table(GAME, kings).outcome() is Outcome.WON
    assert not won(make_table(GAME, {**kings, "n3": "QS KS QH"}))
    assert not won(make_table(GAME, {**kings, "n8": ""}))
    assert make_table(GAME, {**kings, "n8": ""}).outcome() is Outcome.BLOCKED


def test_great_thirteen_re_deal_is_undone_exactly() -> None:
    table = make_table(GAME, {"g1": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "g3": "JS"})
    before = table.key()
    table.play("g1:10>g2")
    assert table.hook_state == (1,)
    table.pop()
    assert table.key() == before


def test_great_thirteen_re_deal_state_travels_in_the_json() -> None:
    table = make_table(GAME, {"g1": "AS", "g3": "JS"})
    table.play("g1>g2")
    data = table_to_json(table)
    assert data["state"] == {"redealt": 1}
    assert table_from_json(data).key() == table.key()


def test_great_thirteen_moves_are_told_in_words() -> None:
    table = make_table(GAME, {"g3": "AS 2S"})
    assert table.describe(next(iter(table.legal_moves))).startswith("re-deal ground packet 3: its 2 cards")
    table = make_table(GAME, {"b1": "3C", "g1": "6H"})
    assert table.describe(next(iter(table.legal_moves))) == "move the 6 of hearts into the empty numeral 1"


def test_great_thirteen_is_listed_with_its_source() -> None:
    game = find_game(GAME)
    assert "The Great Thirteen" in game.source
    assert "Cadogan" in game.source
    assert find_game("great-thirteen") is game


def test_great_thirteen_a_dealt_game_plays_to_an_end() -> None:
    table = Table.dealt(find_game(GAME), 2)
    table.stage = Stage.PLAY
    for _ in range(400):
        moves = table.generate_moves()
        if not moves:
            break
        table.push(moves[0])
    assert table.outcome() is Outcome.BLOCKED
    assert table.hook_state[0] >= 1  # the re-deal happened


# ------------------------------------------------------------------------------------------------ faulty layouts


def take(*cards: str) -> Edit:
    """Remove each card (its first copy) from the ground packets."""

    def edit(data: dict[str, Any]) -> None:
        for card in cards:
            pile = next(g for g in GROUND if card in data["piles"][g])
            data["piles"][pile].remove(card)

    return edit


def move_top(src: str, dst: str) -> Edit:
    return lambda d: d["piles"][dst].append(d["piles"][src].pop())


FULL_COLUMN = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AS"  # under an ace, and an ace on its king

# Deal 1: balcony AD QD 5D 7S 5C 6S 9C AC; packet tops 10C 2C JC 3C 7H JD 4D JH; g1 is KS 5H ... 6D 10C.
CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    ("a king on the balcony", both(set_pile("b1", "KS"), lambda d: d["piles"]["g1"].__setitem__(0, "AD")),
     [(K.IMPOSSIBLE_CARD, ("b1",))]),
    ("in play: two cards on one balcony place", both(play_stage, move_top("g1", "b2")),
     [(K.WRONG_PILE_SIZE, ("b2",))]),
    ("in play: an empty balcony place", both(play_stage, move_top("b5", "g5")), [(K.WRONG_PILE_SIZE, ("b5",))]),
    ("in play: a 10 doubling an ace", both(play_stage, move_top("g1", "n1")), [(K.IMPOSSIBLE_CARD, ("n1",))]),
    ("in play: a 10 added to the 2 under an ace", both(play_stage, move_top("g2", "n1"), move_top("g1", "n1")),
     [(K.IMPOSSIBLE_CARD, ("n1",))]),
    ("in play: a card on a complete column",
     both(play_stage, take(*FULL_COLUMN.split()), set_pile("n8", FULL_COLUMN)),
     [(K.WRONG_PILE_SIZE, ("n8",))]),
    ("a third 2 of clubs", lambda d: d["piles"]["g1"].__setitem__(-1, "2C"),
     [(K.DUPLICATE_CARD, ("g1", "g2", "g4")), (K.MISSING_CARD, ())]),
    ("a card dropped from a packet", lambda d: d["piles"]["g3"].pop(),
     [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("g3",))]),
    ("a balcony card left on its packet", move_top("b3", "g3"),
     [(K.WRONG_PILE_SIZE, ("b3",)), (K.WRONG_PILE_SIZE, ("g3",))]),
    ("a numeral placed during the deal", move_top("g2", "n1"),
     [(K.WRONG_PILE_SIZE, ("g2",)), (K.WRONG_PILE_SIZE, ("n1",))]),
    ("a ground card face down", lambda d: d["piles"]["g4"].__setitem__(0, "6c"), [(K.FACE_PATTERN, ("g4",))]),
    ("in play: a ground card face down", both(play_stage, lambda d: d["piles"]["g4"].__setitem__(0, "6c")),
     [(K.FACE_PATTERN, ("g4",))]),
    ("in play: the re-deal past No. 8", both(play_stage, lambda d: d.__setitem__("state", {"redealt": 9})),
     [(K.WRONG_PILES, GROUND)]),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=d) for d, e, x in CASES])
def test_faulty_great_thirteen_layout_reports_exactly_its_problems(
    edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(GAME, edit, expected, seed=1)
