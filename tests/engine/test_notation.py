"""Cards and moves: one notation each, both ways."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CARDS, Card, Suit, code_text, is_face_down_text, parse_code, twin
from engine.errors import NotationError
from engine.moves import Move


@given(st.sampled_from(CARDS))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card


@given(st.sampled_from(CARDS), st.booleans())
def test_face_down_text_round_trips(card: Card, face_up: bool) -> None:
    text = code_text(card.code, face_up)
    assert parse_code(text) == card.code
    assert is_face_down_text(text) is not face_up


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("10H", 10, Suit.HEARTS), ("AS", 1, Suit.SPADES), ("kd", 13, Suit.DIAMONDS), ("TC", 10, Suit.CLUBS)],
)
def test_card_parse(text: str, rank: int, suit: Suit) -> None:
    assert Card.parse(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["1X", "", "11H", "ZZ", "10", "A", "10HH", "0S", "1S"])
def test_bad_card_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(text)


def test_card_sentence() -> None:
    assert Card.parse("QS").sentence == "queen of spades"
    assert Card.parse("7H").sentence == "7 of hearts"


pile_ids = st.sampled_from(["s", "w", "r", "f1", "f4", "t1", "t7", "t12"])


@given(pile_ids, pile_ids, st.integers(min_value=1, max_value=30))
def test_move_notation_round_trips(src: str, dst: str, count: int) -> None:
    if src == dst:
        return
    move = Move(src, dst, count)
    assert Move.parse(str(move)) == move


@pytest.mark.parametrize("text", ["t1", "t1>", ">f1", "t1>t1", "t1:0>t2", "t1->t2", "1>2"])
def test_bad_move_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Move.parse(text)


@pytest.mark.parametrize(("card", "other"), [("8S", "8C"), ("8C", "8S"), ("AH", "AD"), ("KD", "KH"), ("10S", "10C")])
def test_a_cards_twin_is_the_other_suit_of_its_colour(card: str, other: str) -> None:
    assert twin(parse_code(card)) == parse_code(other)


@given(st.integers(0, 51))
def test_twins_pair_the_pack(code: int) -> None:
    other = twin(code)
    assert twin(other) == code
    assert other != code
    assert CARDS[other].rank == CARDS[code].rank
    assert CARDS[other].colour is CARDS[code].colour
