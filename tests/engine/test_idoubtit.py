"""I Doubt It referee: a scripted four-player game, the short-hand draw, and the rules it enforces."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.idoubtit import FOSTER, MODERN, Referee, RefereeError, Verdict

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def pass_round(ref: Referee, layer: str) -> None:
    n = PLAYERS.index(layer)
    for step in range(1, 4):
        ref.pass_(PLAYERS[(n + step) % 4])


def test_foster_rule_deal_equal_hands_remainder_to_centre() -> None:
    assert Referee(PLAYERS).hands == [13, 13, 13, 13]
    five = Referee(["a", "b", "c", "d", "e"])
    assert five.hands == [10] * 5
    assert five.centre == 2


def test_scripted_four_player_game_with_two_challenges_and_a_short_hand_draw() -> None:
    ref = Referee(PLAYERS, FOSTER, dealer=3)  # Ann, left of the dealer, starts
    assert ref.turn == 0
    # Round 1: Ann's jacks pass; Bob's kings are doubted by Cy and true; Cy's queens doubted by Di, false.
    ref.lay("Ann", 3, 11)
    pass_round(ref, "Ann")
    assert ref.centre == 3
    ref.lay("Bob", 3, 13)
    [pickup] = ref.doubt("Cy", cards("KS KH KD"))
    assert pickup.verdict is Verdict.PICKUP
    assert (pickup.player, pickup.cards) == ("Cy", 6)  # the doubter takes the three kings and the centre
    ref.lay("Cy", 3, 12)
    ref.pass_("Di")
    [pickup] = ref.doubt("Ann", cards("QS 7D 2C"))
    assert (pickup.player, pickup.cards) == ("Cy", 3)  # the claimer takes his cards back, centre empty
    assert "not three queens" in pickup.text
    assert ref.hands == [10, 10, 19, 13]
    # Everyone else lays undoubted until Ann is short.
    turns = ["Di", "Ann", "Bob", "Cy", "Di", "Ann", "Bob", "Cy", "Di", "Ann"]
    for player in turns:
        assert ref.lay(player, 3, 5)[0].verdict is Verdict.OK
        pass_round(ref, player)
    assert ref.hands == [1, 4, 13, 4]
    # Bob, Cy, Di play; then Ann has one card and must draw two to make three.
    for player in ["Bob", "Cy", "Di"]:
        ref.lay(player, 3, 9)
        pass_round(ref, player)
    assert ref.lay("Ann", 3, 2)[0].verdict is Verdict.BROKEN
    [draw] = ref.draw("Ann", 2)
    assert draw.verdict is Verdict.DRAW
    ref.lay("Ann", 3, 2)
    ref.pass_("Bob")
    ref.pass_("Cy")
    reports = ref.pass_("Di")
    assert reports[-1].verdict is Verdict.WIN
    assert ref.winner == "Ann"
    assert ref.hands == [0, 1, 10, 1]
    assert sum(ref.hands) + ref.centre == 52


def test_foster_rule_exactly_three_cards_are_laid() -> None:
    ref = Referee(PLAYERS, FOSTER, dealer=3)
    [report] = ref.lay("Ann", 2, 7)
    assert report.verdict is Verdict.BROKEN
    assert "laid two cards; the rule is three" in report.text
    assert ref.hands[0] == 13


def test_foster_rule_only_the_player_in_turn_may_doubt() -> None:
    ref = Referee(PLAYERS, FOSTER, dealer=3)
    ref.lay("Ann", 3, 7)
    [report] = ref.doubt("Cy", cards("7S 7H 7D"))
    assert report.verdict is Verdict.BROKEN
    assert ref.doubt("Bob", cards("7S 7H 7D"))[0].verdict is Verdict.PICKUP


def test_foster_rule_bravado_showing_a_card_takes_the_centre() -> None:
    ref = Referee(PLAYERS, FOSTER, dealer=3)
    ref.lay("Ann", 3, 7)
    pass_round(ref, "Ann")
    ref.lay("Bob", 3, 8)
    [report] = ref.show("Bob")
    assert (report.player, report.cards) == ("Bob", 6)


def test_a_reveal_that_contradicts_the_claim_is_reported() -> None:
    ref = Referee(PLAYERS, FOSTER, dealer=3)
    ref.lay("Ann", 3, 1)
    [report] = ref.doubt("Bob", cards("AS AH 2D"))
    assert report.text == "the cards are AS, AH, 2D, not three aces: Ann picks up 3 cards"


def test_modern_rule_ranks_in_order_and_any_player_may_doubt() -> None:
    ref = Referee(PLAYERS, MODERN, dealer=3)
    assert ref.lay("Ann", 2, 5)[0].verdict is Verdict.BROKEN  # aces first
    assert ref.lay("Ann", 4, 1)[0].verdict is Verdict.OK
    [report] = ref.doubt("Di", cards("AS AH AD 9C"))
    assert (report.player, report.cards) == ("Ann", 4)
    assert ref.lay("Bob", 1, 2)[0].verdict is Verdict.OK


def test_settling_out_of_order_is_a_referee_error() -> None:
    ref = Referee(PLAYERS)
    with pytest.raises(RefereeError):
        ref.pass_("Bob")
    with pytest.raises(RefereeError):
        Referee(["solo"])
