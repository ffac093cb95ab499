"""The "Louis" Patience (Cadogan 1914): one test per rule sentence of the chapter, and faulty layouts.

Each test is named after the rule or sentence it checks (chapters/louis.txt).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.autoplay import greedy_playout
from engine.cards import parse_code
from engine.games import find_game
from engine.moves import Move
from engine.reference import reference_moves
from engine.status import ProblemKind, problems
from engine.table import Outcome, Stage, Table
from engine.testing import Edit, assert_faulty_layout, both, drop_from_stock, make_table, play_stage, set_pile

GAME = "louis"
K = ProblemKind
BASES = {"f1": "AS", "f2": "AH", "f3": "AD", "f4": "AC", "f5": "KS", "f6": "KH", "f7": "KD", "f8": "KC"}


def legal(table: Table) -> set[str]:
    return {str(m) for m in table.generate_moves()}


def louis(piles: dict[str, str], deal: int = 1, position: int = 0, circle: int = 0) -> Table:
    state = {"deal": deal, "position": position, "circle": circle}
    return make_table(GAME, {**BASES, **piles}, state=state)


def codes(text: str) -> tuple[int, ...]:
    return tuple(parse_code(t) for t in text.split())


# ------------------------------------------------------------------------------------------------ the rules
def test_louis_rule_i_the_foundations_follow_suit() -> None:
    table = louis({"a": "2S", "b": "2H", "c": "QS"})
    moves = legal(table)
    assert {"a>f1", "b>f2", "c>f5"} <= moves
    assert not {"a>f2", "c>f6"} & moves


def test_louis_rule_i_cards_of_the_alphabet_follow_suit() -> None:
    table = louis({"a": "7S", "b": "8S", "c": "8H", "d": "6S"})
    moves = legal(table)
    assert {"a>b", "b>a", "d>a", "a>d"} <= moves  # marriages, ascending and descending, in suit
    assert "a>c" not in moves


def test_louis_rule_ii_each_circle_blocks_the_preceding_one_during_the_deal() -> None:
    # a and b hold cards of the current circle (bits 0 and 1); c's top card is of an earlier circle.
    table = louis({"a": "9C 2S", "b": "9D 2H", "c": "2D", "s": "5c"}, position=2, circle=0b11)
    moves = legal(table)
    assert {"a>f1", "b>f2"} <= moves
    assert "c>f3" not in moves


def test_louis_rule_ii_a_released_card_stays_blocked_until_the_deal_is_complete() -> None:
    table = louis({"a": "2D 2S", "s": "5c"}, position=1, circle=0b1)
    table.play("a>f1")
    assert "a>f3" not in legal(table)


def test_louis_rule_ii_after_the_deal_removal_releases_the_cards_beneath() -> None:
    table = louis({"a": "2D 2S"}, position=1, circle=0b1)
    table.play("a>f1")
    assert "a>f3" in legal(table)


def test_louis_play_withdraw_four_aces_and_four_kings_of_different_suits() -> None:
    table = Table.dealt(find_game(GAME), 3)
    assert {f: str(table.top(f)) for f in BASES} == BASES
    assert len(table.codes("s")) == 96


def test_louis_play_deal_twelve_cards_from_a_to_m() -> None:
    table = louis({"s": "9c 8c"})
    table.play("s>w")
    assert [m for m in legal(table) if m.startswith("w>") and not m.startswith("w>f")] == ["w>a"]
    table.play("w>a")
    table.play("s>w")
    assert "w>b" in legal(table)
    assert table.hook_state == (1, 1, 0b1)


def test_louis_play_play_any_suitable_cards_as_they_turn_up() -> None:
    table = louis({"s": "9c 2s"}, position=4, circle=0b1111)
    table.play("s>w")
    table.play("w>f1")
    table.play("s>w")
    assert "w>e" in legal(table)  # the letter is not used up by the card played


def test_louis_play_a_new_circle_on_the_top_of_the_first() -> None:
    table = louis(dict.fromkeys("abcdefghiklm", "9C") | {"s": "2s"}, circle=0b111111111111)
    table.play("s>w")
    table.play("w>a")
    assert table.codes("a") == codes("9C 2S")
    assert table.hook_state == (1, 1, 0b1)


def test_louis_play_marriages_only_when_the_entire_pack_has_been_dealt() -> None:
    table = louis({"a": "7S", "b": "8S", "s": "5c"}, position=2, circle=0b11)
    assert "a>b" not in legal(table)


def test_louis_play_take_up_the_alphabet_beginning_with_g_and_ending_with_f() -> None:
    packets = {x: f"{n}C" for n, x in zip(range(2, 14), "abcdefghiklm", strict=True)}
    packets = {x: card.replace("11", "J").replace("12", "Q").replace("13", "K") for x, card in packets.items()}
    packets["g"] = "8C 8D"
    table = louis(packets)
    assert "g:13>s" in legal(table)
    table.play("g:13>s")
    # gathered g, h, i, k, l, m, a ... f, turned over: the bottom card of g is dealt first (last in the list)
    gathered = codes("8C 8D 9C 10C JC QC KC 2C 3C 4C 5C 6C 7C")
    assert table.codes("s") == gathered[::-1]
    assert table.hook_state == (2, 0, 0)
    table.pop()
    assert table.codes("g") == codes("8C 8D")


def test_louis_play_without_shuffling_deal_out_all_the_cards_as_before() -> None:
    table = louis({"a": "9C", "b": "9D"}, deal=2)
    table.play("g:2>s")
    table.play("s>w")
    assert "w>a" in legal(table)


def test_louis_play_a_card_suitable_alike_may_go_on_either_foundation() -> None:
    table = louis({"f1": "AS 2S 3S 4S 5S", "f5": "KS QS JS 10S 9S 8S 7S", "a": "6S"}, deal=2)
    assert {"a>f1", "a>f5"} <= legal(table)


def test_louis_play_you_may_change_it_from_one_foundation_to_the_other() -> None:
    table = louis({"f1": "AS 2S 3S 4S 5S 6S", "f5": "KS QS JS 10S 9S 8S 7S"}, deal=2)
    assert {"f1>f5", "f5>f1"} <= legal(table)
    first_deal = louis({"f1": "AS 2S 3S 4S 5S 6S", "f5": "KS QS JS 10S 9S 8S 7S"}, deal=1)
    assert not any(m.startswith("f") for m in legal(first_deal))


SPADES_MEET = {"f1": "AS 2S 3S 4S 5S", "f5": "KS QS JS 10S 9S 8S 7S"}
"""The spade foundations wait for a 6 each: a 6 of spades is suitable alike for both."""


def test_louis_play_you_may_even_lay_the_card_aside_for_the_moment() -> None:
    table = louis({**SPADES_MEET, "s": "9c 6s"}, deal=2, position=4, circle=0b1111)
    table.play("s>w")
    assert {"w>e", "w>f1", "w>f5", "w>x1"} <= legal(table)
    said = "lay the 6 of spades aside, to play it later on either foundation of spades"
    assert table.describe(Move.parse("w>x1")) == said
    table.play("w>x1")
    assert table.codes("x1") == codes("6S")
    assert table.hook_state == (2, 4, 0b1111)  # the letter is not used up: the next card goes to e
    table.play("s>w")
    assert "w>e" in legal(table)


def test_louis_play_lay_aside_only_a_card_suitable_alike_for_both_foundations() -> None:
    only_up = louis({"f1": "AS 2S 3S 4S 5S", "s": "6s"}, deal=2)  # the king of spades waits for the queen
    only_up.play("s>w")
    assert "w>f1" in legal(only_up)
    assert not any(m.startswith("w>x") for m in legal(only_up))
    other_suit = louis({**SPADES_MEET, "s": "6h"}, deal=2)
    other_suit.play("s>w")
    assert not any(m.startswith("w>x") for m in legal(other_suit))


def test_louis_play_lay_aside_only_from_the_second_deal() -> None:
    table = louis({**SPADES_MEET, "s": "6s"}, deal=1)
    table.play("s>w")
    assert "w>f1" in legal(table)
    assert "w>x1" not in legal(table)


def test_louis_play_lay_aside_only_the_card_that_turns_up() -> None:
    table = louis({**SPADES_MEET, "a": "6S"}, deal=2)
    assert {"a>f1", "a>f5"} <= legal(table)
    assert not any(m.endswith(("x1", "x2", "x3", "x4")) for m in legal(table))


def test_louis_play_playing_it_on_whichever_foundation_appears_the_most_suitable() -> None:
    table = louis({**SPADES_MEET, "x1": "6S 6S", "s": "9c"}, deal=2, position=1, circle=0b1)
    assert {"x1>f1", "x1>f5"} <= legal(table)  # during the deal too: Rule II blocks only the alphabet
    table.play("x1>f5")
    assert "x1>f1" in legal(table)
    assert "x1>f5" not in legal(table)


def test_louis_play_cards_laid_aside_are_not_taken_up_with_the_alphabet() -> None:
    table = louis({"f1": "AS 2S 3S 4S 5S", "f5": "KS QS JS 10S 9S 8S", "x1": "6S", "a": "9C"}, deal=2)
    table.play("g>s")
    assert table.codes("x1") == codes("6S")
    assert table.codes("s") == codes("9c")


def test_louis_laying_aside_is_undone_exactly() -> None:
    table = louis({**SPADES_MEET, "s": "6s"}, deal=3)
    table.play("s>w")
    before = table.key()
    table.play("w>x1")
    table.pop()
    assert table.key() == before


@pytest.mark.parametrize("seed", [1])
def test_louis_laying_aside_in_play_matches_the_reference_and_undoes_exactly(seed: int) -> None:
    """The conformance suite's random playouts end in the first deal; this one follows the greedy player into the
    later deals and, wherever a card may be laid aside, lays it aside and plays on at random."""
    table = Table.dealt(find_game(GAME), seed)
    table.stage = Stage.PLAY
    rng = random.Random(seed)
    laid = 0
    for _ in greedy_playout(table, 3000):
        aside = [m for m in table.generate_moves() if m.dst.startswith("x")]
        if not aside:
            continue
        start = table.key()
        table.push(aside[0])
        for _ in range(40):
            generated = table.generate_moves()
            assert set(generated) == reference_moves(table)
            assert problems(table) == []
            if not generated:
                break
            table.push(rng.choice(generated))
        while table.key() != start:
            table.pop()
        laid += 1
    assert laid >= 3


def test_louis_play_there_may_be_three_re_deals() -> None:
    assert "g>s" in legal(louis({"a": "9C"}, deal=3))
    table = louis({"a": "9C"}, deal=4)
    assert "g>s" not in legal(table)
    assert table.outcome() is Outcome.BLOCKED


def test_louis_is_listed_with_its_source() -> None:
    assert "Louis" in find_game(GAME).source


# ------------------------------------------------------------------------------------------------ faulty layouts


def second_deal(data: dict[str, Any]) -> None:
    data["state"] = {"deal": 2, "position": 0, "circle": 0}


# Deal 3: foundations AS AH AD AC KS KH KD KC, alphabet empty, pack of 96 ending ... 5h Jh 5d (top last).
CASES: list[tuple[str, Edit, list[tuple[ProblemKind, tuple[str, ...]]]]] = [
    (
        "the ace of hearts in the place of the ace of spades",
        both(set_pile("f1", "AH"), set_pile("f2", "AS")),
        [(K.FOUNDATION_BASE, ("f1",)), (K.FOUNDATION_BASE, ("f2",))],
    ),
    (
        "a king foundation left in the pack",
        both(set_pile("f8", ""), lambda d: d["piles"]["s"].append("Kc")),
        [(K.WRONG_PILE_SIZE, ("f8",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("a thirteenth letter", lambda d: d["piles"].__setitem__("j", []), [(K.WRONG_PILES, ("j",))]),
    (
        "a card dealt to the alphabet before the deal is checked",
        both(drop_from_stock("5d"), set_pile("a", "5D")),
        [(K.WRONG_PILE_SIZE, ("a",)), (K.WRONG_PILE_SIZE, ("s",))],
    ),
    ("a foundation face down", set_pile("f3", "Ad"), [(K.FACE_PATTERN, ("f3",))]),
    ("a card dropped from the pack", drop_from_stock("Jh"), [(K.MISSING_CARD, ()), (K.WRONG_PILE_SIZE, ("s",))]),
    (
        "the top of the pack face up",
        lambda d: d["piles"]["s"].__setitem__(-1, d["piles"]["s"][-1].upper()),
        [(K.FACE_PATTERN, ("s",))],
    ),
    (
        "a third 5 of diamonds",
        both(set_pile("f4", "5D"), lambda d: d["piles"]["s"].append("5d"), drop_from_stock("Jh")),
        [
            (K.DUPLICATE_CARD, ("s", "f4")),
            (K.FOUNDATION_BASE, ("f4",)),
            (K.MISSING_CARD, ()),
        ],
    ),
    (
        "in play: the 3 of spades on the ace of spades",
        both(play_stage, drop_from_stock("3s"), set_pile("f1", "AS 3S")),
        [(K.FOUNDATION_SEQUENCE, ("f1",))],
    ),
    (
        "in play: two cards turned up beside the pack",
        both(play_stage, drop_from_stock("5d"), drop_from_stock("Jh"), set_pile("w", "5D JH")),
        [(K.WRONG_PILE_SIZE, ("w",))],
    ),
    (
        "in play: a card laid aside in the first deal",
        both(play_stage, drop_from_stock("5d"), set_pile("x3", "5D")),
        [(K.IMPOSSIBLE_CARD, ("x3",))],
    ),
    (
        "in play, second deal: a heart laid aside with the spades",
        both(play_stage, second_deal, drop_from_stock("Jh"), set_pile("x1", "JH")),
        [(K.IMPOSSIBLE_CARD, ("x1",))],
    ),
    (
        "in play, second deal: two different spades laid aside",
        both(play_stage, second_deal, drop_from_stock("5s"), drop_from_stock("6s"), set_pile("x1", "5S 6S")),
        [(K.IMPOSSIBLE_CARD, ("x1",))],
    ),
    (
        "in play: a face-down card in the alphabet",
        both(play_stage, drop_from_stock("5d"), set_pile("c", "5d")),
        [(K.FACE_PATTERN, ("c",))],
    ),
]


@pytest.mark.parametrize(("edit", "expected"), [pytest.param(e, x, id=d) for d, e, x in CASES])
def test_faulty_louis_layout_reports_exactly_its_problems(
    edit: Edit, expected: list[tuple[ProblemKind, tuple[str, ...]]]
) -> None:
    assert_faulty_layout(GAME, edit, expected)
