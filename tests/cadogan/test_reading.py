"""The vision pipeline as the tracker's reader: a rendered frame in, the table, card confidences and backs out."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from cadogan.reading import CardScale, cascade_gaps, reading_of
from engine.cards import parse_code
from engine.games import find_game
from engine.table import Table
from vision.assemble import Observation, SeenCard
from vision.recognise import load_recogniser, recognise
from vision.synth import RenderOptions, render_scene


@pytest.mark.parametrize(("deck", "seed"), [("kde_penguins", 34), ("kde_nicu_white", 33)])
def test_a_reading_of_a_fresh_deal_counts_the_backs_of_each_column(deck: str, seed: int) -> None:
    # the tracker tells a column whose top card was not read from one dealt short by these counts
    deal = Table.dealt(find_game("klondike"), seed)
    image, _ = render_scene(
        "klondike", deal.piles_view(), deck=deck, seed=seed, options=RenderOptions(max_tilt=30, hand_probability=0)
    )
    reading = reading_of(recognise(image, load_recogniser()), "klondike")
    assert reading.table is not None
    assert reading.backs is not None
    columns = [f"t{k}" for k in range(1, 8)]
    assert reading.backs.get("t1", 0) == 0  # column 1 is dealt face up alone
    counts = {p: (reading.backs.get(p, 0), deal.face_down_count(p)) for p in columns}
    # every column's backs seen, within one of the truth (kde_penguins: columns 4 and 6 show no card read at all
    # in this frame, so only the backs tell that they hold cards)
    assert all(seen > 0 and abs(seen - true) <= 1 for seen, true in counts.values() if true > 0), counts


def test_a_reading_gives_the_rank_and_colour_confidence_of_cards_whose_runner_up_is_their_twin() -> None:
    # the tracker judges a column card by rank and colour with these (``Tracker.fold_twins``)
    seed = 35
    deal = Table.dealt(find_game("klondike"), seed)
    image, _ = render_scene(
        "klondike", deal.piles_view(), deck="kde_penguins", seed=seed, options=RenderOptions(max_tilt=30)
    )
    reading = reading_of(recognise(image, load_recogniser()), "klondike")
    assert reading.kinds, "no card read with its twin as the runner-up"
    for key, kind in reading.kinds.items():
        assert key in reading.cards
        assert reading.cards[key] <= kind <= 1.0
    assert any(kind > reading.cards[key] for key, kind in reading.kinds.items())


def test_the_card_scale_is_the_median_of_the_last_frames_a_frame_that_measured_none_taking_it_too() -> None:
    from vision.assemble import Observation

    scale = CardScale(frames=3)
    unmeasured = Observation("canfield", {}, ())
    assert scale(unmeasured).card_w == 0.0  # nothing measured yet: as it is
    widths = [scale(Observation("canfield", {}, (), card_w=w)).card_w for w in (100.0, 130.0, 110.0, 200.0, 120.0)]
    assert widths == [100.0, 115.0, 110.0, 130.0, 120.0]  # the median of the last three
    assert scale(unmeasured).card_w == 120.0


def test_the_fans_step_measured_over_frames_counts_the_unread_cards_between_two_reads() -> None:
    # uk-legal-1: a waste fanned 18-22 px a step on a card read 68 px wide (FAN_STEP 0.21 says 14 px); a QD and a
    # 9S 41 px apart, the 2D unread between them, are two steps apart, not three
    from vision.assemble import fan_slots

    def waste(*cards: tuple[str, float]) -> Observation:
        return Observation("klondike", {"w": tuple(SeenCard(n, x, 100.0, 0.9, 1) for n, x in cards)}, (), card_w=68.0)

    apart = waste(("QD", 400.0), ("9S", 441.0))
    assert fan_slots(apart.piles["w"], apart.card_w) == ["QD", "??", "??", "9S"]  # by the card's width alone
    scale = CardScale()
    for _ in range(6):  # the QD and the 2D on it, one step apart
        assert scale(waste(("QD", 400.0), ("2D", 419.0))).fan_step in (0.0, 19.0)
    measured = scale(apart)
    assert measured.fan_step == pytest.approx(19.0)
    assert fan_slots(measured.piles["w"], measured.card_w, measured.fan_step) == ["QD", "??", "9S"]


def test_a_cascade_cards_gap_is_its_distance_below_the_card_under_it_in_card_heights() -> None:
    # the tracker tells a card dealt on a column (a cascade's step below) from that card's pips read as an index
    # (more than half a card below: ``Tracker.deal_far``)
    cards = (SeenCard("6D", 100.0, 100.0, 0.8, 1), SeenCard("9C", 103.0, 160.0, 0.7, 1), SeenCard("??", 0, 190, 0.3, 1))
    waste = (SeenCard("KH", 300.0, 20.0, 0.9, 1), SeenCard("QS", 340.0, 20.0, 0.9, 1))
    piles = {"t3": cards, "w": waste}
    observation = Observation("canfield", piles, (), card_w=63.0)
    gaps = cascade_gaps(observation)
    assert gaps.keys() == {("t3", parse_code("9C"))}  # a fan to the right is no cascade; an unread card has none
    assert gaps[("t3", parse_code("9C"))] == pytest.approx((3**2 + 60**2) ** 0.5 / 88)
    assert cascade_gaps(replace(observation, card_w=0.0)) == {}


def test_the_gaps_of_a_rendered_games_cascades_are_a_cascades_steps() -> None:
    table = Table.dealt(find_game("klondike"), 36)
    rng = random.Random(36)
    for _ in range(60):  # a game under way: cascades of several face-up cards
        moves = [m for m in table.generate_moves() if m.dst.startswith("t")] or table.generate_moves()
        table.push(rng.choice(moves))
    options = RenderOptions(max_tilt=10, hand_probability=0)
    image, _ = render_scene("klondike", table.piles_view(), deck="kde_nicu_white", seed=36, options=options)
    reading = reading_of(recognise(image, load_recogniser()), "klondike")
    assert reading.table is not None
    steps = []  # each gap per card of the truth it spans (a middle card whose index went unread: two steps)
    for (pile, code), gap in reading.gaps.items():
        read, true = reading.table.codes(pile), table.codes(pile)
        under = read[read.index(code) - 1]
        if code in true and under in true:
            steps.append(gap / (true.index(code) - true.index(under)))
    assert len(steps) >= 8, reading.gaps
    assert all(0.2 < step < 0.45 for step in steps), steps  # the renderer's cascades: 0.26-0.37 card heights
    assert max(reading.gaps.values()) > 0.5  # and a card read two steps below the card read under it
