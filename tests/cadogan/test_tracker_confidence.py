"""The tracker with cards' own confidences: doubtful cards bring nothing new, a lost game is taken up again."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cadogan.tracker import (
    LOST,
    READS_KEPT,
    Event,
    EventKind,
    Tracker,
    _held,
    _revealed_once,
    _start_from_sighting,
    twins_folded,
)
from cadogan.verdict import EntryKind, from_events
from cadogan.vote import CardConfidences, Evidence, completed, face_up, realigned
from engine.cards import CARDS, RED_OF, UNKNOWN, full_deck, parse_code, twin
from engine.games import find_game
from engine.moves import Move
from engine.rules import Role
from engine.table import Stage, Table
from engine.testing import camera_view, make_table
from engine.verify import explain, why_illegal, with_card, with_piles


def confidences(table: Table, sure: float = 0.9, **unsure: float) -> dict[tuple[str, int], float]:
    """Each card of ``table`` at ``sure``, the cards named in ``unsure`` (``AS=0.3``) at theirs."""
    own = {name.upper(): conf for name, conf in unsure.items()}
    out: dict[tuple[str, int], float] = {}
    for pile in table.pile_ids:
        for code in table.codes(pile):
            name = next((n for n in own if parse_code(n) == code), None)
            out[(pile, code)] = own[name] if name is not None else sure
    return out


def observe(
    tracker: Tracker, frames: Sequence[tuple[Table, CardConfidences] | None], start: float = 0.0
) -> list[Event]:
    events: list[Event] = []
    for n, frame in enumerate(frames):
        if frame is None:
            events += tracker.observe(start + n / 10, None)
        else:
            table, own = frame
            events += tracker.observe(start + n / 10, table, min(own.values(), default=1.0), own)
    return events


def _accusations(tracker: Tracker, start: Table, end: Table) -> list[tuple[str, ...]]:
    """The moves ``tracker`` calls illegal when the table ``start``, read sure 6 times, becomes ``end`` (8 times)."""
    observe(tracker, [(start, confidences(start))] * 6)
    events = observe(tracker, [None, *[(end, confidences(end))] * 8], start=1.0)
    return [e.moves for e in events if e.kind is EventKind.ILLEGAL]


def kinds(events: list[Event]) -> list[EventKind]:
    return [e.kind for e in events]


def dealt_and_turned() -> tuple[Table, Table, str]:
    """A Klondike deal as the camera reads it, the same after one card turned from the stock, and that card."""
    table = Table.dealt(find_game("klondike"), 3)
    deal = camera_view(table)
    table.push(Move.parse("s>w"))
    after = camera_view(table)
    return deal, after, str(CARDS[after.codes("w")[-1]])


def test_a_card_read_unsure_in_every_frame_is_not_taken_as_a_move_but_a_sure_one_is() -> None:
    deal, after, turned = dealt_and_turned()
    for conf, moved in ((0.3, False), (0.9, True)):
        tracker = Tracker(partial=True)
        events = observe(tracker, [(deal, confidences(deal))] * 6)
        assert kinds(events) == [EventKind.STILL]
        # the same misread in every frame: a vote cannot outvote it, its confidence tells it apart
        frames = [None, *[(after, confidences(after, **{turned: conf}))] * 8]
        events = observe(tracker, frames, start=1.0)
        assert (EventKind.MOVE in kinds(events)) is moved
        assert EventKind.ILLEGAL not in kinds(events)
        assert EventKind.UNCLEAR not in kinds(events)


def test_an_unsure_reading_confirms_a_card_the_table_already_has_there() -> None:
    deal, _, _ = dealt_and_turned()
    tracker = Tracker(partial=True)
    observe(tracker, [(deal, confidences(deal))] * 6)
    events = observe(tracker, [None, *[(deal, confidences(deal, sure=0.3))] * 8], start=1.0)
    assert events == []  # nothing new, nothing lost: every card still where it was
    assert tracker.settled


def test_a_card_read_sure_in_one_pile_and_unsure_in_another_as_often_is_where_it_was_read_sure() -> None:
    here = make_table("klondike", {"t1": "7H", "t2": "8S"})
    there = make_table("klondike", {"t2": "8S 7H"})
    seven = parse_code("7H")
    readings = [(here, 0.6), (there, 0.6), (here, 0.6), (there, 0.6)]
    own = [confidences(here, sure=0.9), confidences(there, **{"7H": 0.6}), None, None]
    own[2], own[3] = own[0], own[1]
    evidence = Evidence(readings, own)
    assert evidence.place(seven) == ("t1", 2)
    assert Evidence(readings).place(seven) is None  # without cards' own confidences: a tie, no place


def test_a_doubtful_card_is_left_out_only_where_it_is_new() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8S"})
    own = confidences(table, **{"7H": 0.3})
    fresh = Evidence([(table, 0.3)] * 3, [own] * 3, floor=0.5)
    assert fresh.support(parse_code("7H"), "t1") == 0
    assert fresh.raw_sizes["t1"] == [1, 1, 1]  # still counted as a card read there: t1 is not read empty
    known = Evidence([(table, 0.3)] * 3, [own] * 3, floor=0.5, known=frozenset({(parse_code("7H"), "t1")}))
    assert known.support(parse_code("7H"), "t1") == 3
    unsure_reader = Evidence([(table, 0.3)] * 3, None, floor=0.5)  # no cards' own confidences: nothing left out
    assert unsure_reader.support(parse_code("7H"), "t1") == 3


def test_a_court_cards_picture_read_as_a_card_in_every_frame_does_not_spoil_the_deal() -> None:
    deal = camera_view(Table.dealt(find_game("klondike"), 3))
    piles = [list(deal.codes(p)) for p in deal.pile_ids]
    seen = {c for p in piles for c in p}
    phantom = next(code for code in range(52) if code not in seen)
    piles[deal.pile_ids.index("t4")].append(phantom)  # over column 4's jack of clubs, its picture
    misread = Table(deal.game, piles, [0] * len(piles))
    tracker = Tracker(partial=True)
    events = observe(tracker, [(misread, confidences(misread, **{str(CARDS[phantom]): 0.6}))] * 6)
    assert kinds(events) == [EventKind.STILL]  # the deal, the misread left out: no misdeal
    assert tracker.model is not None
    assert camera_view(tracker.model).codes("t4") == deal.codes("t4")
    sure = Tracker(partial=True)  # read sure, the same extra card is a misdeal
    events = observe(sure, [(misread, confidences(misread, sure=0.95))] * 6)
    assert EventKind.MISDEAL in kinds(events)


@pytest.mark.parametrize(("readings", "misdeal"), [(2, False), (3, True)])
def test_an_extra_card_read_sure_by_too_few_readings_to_show_a_misdeal_does_not_hold_the_deal_up(
    readings: int, misdeal: bool
) -> None:
    # sc-illegal-1, enrolled: a 10S's bottom-right index read as the 10D at 0.70, on the 10S, in 2 readings of 8;
    # the deal was never taken (a misdeal no rule may announce on so few readings) and the first move went unread
    deal, misread, _ = misdealt("t4", on_top=True)
    frames = [(misread, confidences(misread, sure=0.9))] * readings + [(deal, confidences(deal, sure=0.9))] * 6
    tracker = Tracker(partial=True)
    events = observe(tracker, frames)
    assert (EventKind.MISDEAL in kinds(events)) is misdeal  # (as many readings as a vote needs show a misdeal)
    if not misdeal:
        assert kinds(events) == [EventKind.STILL]
        assert tracker.model is not None
        assert camera_view(tracker.model).codes("t4") == deal.codes("t4")


def test_after_two_still_tables_nobody_can_explain_the_game_is_taken_up_from_the_table_in_view() -> None:
    game = find_game("klondike")
    first = camera_view(Table.dealt(game, 3))
    other = Table.dealt(game, 4)  # cards nobody could have moved there
    view = camera_view(other)
    tracker = Tracker(partial=True)
    events = observe(tracker, [(first, confidences(first))] * 6)
    lost = [None, *[(view, confidences(view))] * 6, None, *[(view, confidences(view))] * 6]
    events = observe(tracker, lost, start=1.0)
    assert EventKind.ILLEGAL not in kinds(events)
    assert [e.text for e in events if e.kind is EventKind.UNCLEAR][-1] == LOST
    move = next(m for m in other.generate_moves() if m.src.startswith("t") and m.dst.startswith(("t", "f")))
    other.push(move)
    moved = camera_view(other)
    later = observe(tracker, [None, *[(moved, confidences(moved))] * 6], start=3.0)
    assert [e.moves for e in later if e.kind is EventKind.MOVE] == [(str(move),)]
    verdict = from_events([*events, *later], tracker.model)
    assert not verdict.legal  # the changes in between were never checked: not "every move legal"
    assert LOST in [e.reason for e in verdict.of(EntryKind.UNCLEAR)]


def test_one_still_table_nobody_can_explain_is_not_enough_to_start_again() -> None:
    game = find_game("klondike")
    first = camera_view(Table.dealt(game, 3))
    view = camera_view(Table.dealt(game, 4))
    tracker = Tracker(partial=True)
    observe(tracker, [(first, confidences(first))] * 6)
    events = observe(tracker, [None, *[(view, confidences(view))] * 8, None], start=1.0)
    assert LOST not in [e.text for e in events]
    assert tracker.model is not None
    assert camera_view(tracker.model).key() == first.key()


def test_a_game_taken_up_midway_keeps_no_card_read_on_a_face_down_stock_and_a_reserve_keeps_its_cards() -> None:
    seen = make_table("klondike", {"s": "9C", "w": "4D", "t1": "KS QH"})
    model = _start_from_sighting(seen)
    assert model.face_down_count("s") == len(model.codes("s"))  # a misread, not a face-up stock card
    canfield = make_table("canfield", {"r": "7C", "t1": "5D"})
    model = _start_from_sighting(canfield)
    assert len(model.codes("r")) == 13
    assert model.codes("r")[-1] == parse_code("7C")


def shifted(view: Table, by: int) -> Table:
    """``view`` with every tableau column read ``by`` columns to the right (a layout fit gone wrong)."""
    ids = list(view.pile_ids)
    piles = {p: list(view.codes(p)) for p in ids}
    columns = [p for p in ids if p.startswith("t")]
    out = {p: ([] if p in columns else piles[p]) for p in ids}
    for k, p in enumerate(columns):
        if 0 <= k + by < len(columns):
            out[columns[k + by]] = piles[p]
    return Table(view.game, [out[p] for p in ids], [0] * len(ids))


def test_a_reading_with_every_column_one_pile_over_is_put_back() -> None:
    deal = camera_view(Table.dealt(find_game("klondike"), 3))
    tracker = Tracker(partial=True)
    observe(tracker, [(deal, confidences(deal))] * 6)
    assert tracker.model is not None
    over = shifted(deal, 1)
    table, own = realigned(tracker.model, over, confidences(over), partial=True)
    assert [table.codes(p) for p in table.pile_ids if p != "t7"] == [deal.codes(p) for p in deal.pile_ids if p != "t7"]
    assert own is not None
    assert own[("t1", deal.codes("t1")[-1])] == 0.9
    events = observe(tracker, [None, *[(over, confidences(over))] * 8], start=1.0)
    assert events == []  # the same table, read one column over: nothing moved, nothing unclear
    moved = make_table("klondike", {"t1": "KS", "t2": "QH"})  # two piles changed: a move, not a misplaced row
    assert realigned(tracker.model, moved, None, partial=True)[0] is moved


def test_no_accusation_rests_on_a_column_taken_up_empty_that_was_never_read_empty() -> None:
    tracker = Tracker(partial=True, check_deal=False)
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    # the game, taken up from a table whose column 6 shows a card read doubtfully in every frame
    taken = make_table("klondike", {"w": "10C", "t1": "KS", "t2": "QH", "t6": "JD"})
    played = make_table("klondike", {"t1": "KS", "t2": "QH", "t6": "JD 10C"})  # the 10 onto the jack: legal

    def frames(table: Table, n: int, start_at: float) -> list[Event]:
        own = confidences(table, JD=0.3)
        out: list[Event] = list(tracker.observe(start_at, None))
        for k in range(n):
            out += tracker.observe(start_at + (k + 1) / 10, table, 0.9, own)
        return out

    events = frames(start, 6, 0.0) + frames(taken, 8, 1.0) + frames(taken, 8, 2.0)
    assert LOST in [e.text for e in events]
    assert tracker.model is not None
    assert not tracker.model.codes("t6")  # taken up empty: its only card was never read sure
    later = frames(played, 8, 3.0) + frames(played, 8, 4.0)
    assert EventKind.ILLEGAL not in kinds(later)  # "only a king may fill column 6" would rest on a misread


def test_the_log_of_a_game_the_tracker_lost_and_took_up_again_replays_as_it_was_followed() -> None:
    from cadogan.session import LoggedTable
    from cadogan.verdict import replay

    game = find_game("klondike")
    first = camera_view(Table.dealt(game, 3))
    other = Table.dealt(game, 4)
    frames: list[tuple[Table, CardConfidences] | None] = [(first, confidences(first))] * 6
    view = camera_view(other)
    frames += [None, *[(view, confidences(view))] * 6, None, *[(view, confidences(view))] * 6]
    for move in [m for m in other.generate_moves() if m.src.startswith("t")][:1]:
        other.push(move)
        moved = camera_view(other)
        frames += [None, *[(moved, confidences(moved))] * 6]
    tracker = Tracker(partial=True)
    events = observe(tracker, frames)
    logged = [LoggedTable(e.t, e.table, e.confidence, e.cards) for e in events if e.kind is EventKind.STILL and e.table]
    live = from_events([e for e in events if e.kind is not EventKind.STILL], tracker.model)
    assert LOST in [e.reason for e in live.of(EntryKind.UNCLEAR)]
    assert len(live.moves) == 1
    again = replay(logged, partial=True)
    assert [(e.kind, e.move, e.reason) for e in again.entries] == [(e.kind, e.move, e.reason) for e in live.entries]


@pytest.mark.parametrize(
    ("before", "after", "announced"),
    [
        # the rest of the table stays where it was: the player put the 7 of hearts on the king
        ({"t1": "7H", "t2": "9C", "t3": "KS", "t5": "4D"}, {"t2": "9C", "t3": "KS 7H", "t5": "4D"}, True),
        # more of the table moved than stayed in sight: more likely the reader's mistake than the player's
        ({"t1": "7H", "t3": "KS"}, {"t3": "KS 7H"}, False),
    ],
)
def test_an_illegal_move_is_announced_only_where_the_rest_of_the_table_is_seen_in_place(
    before: dict[str, str], after: dict[str, str], announced: bool
) -> None:
    tracker = Tracker(check_deal=False)
    first, then = make_table("klondike", before), make_table("klondike", after)
    frames = [(first, confidences(first))] * 6 + [None] + [(then, confidences(then))] * 8
    events = observe(tracker, frames)
    assert (EventKind.ILLEGAL in kinds(events)) is announced


def test_a_game_taken_up_midway_makes_no_accusation_about_a_foundation_whose_base_is_a_guess() -> None:
    first = camera_view(Table.dealt(find_game("canfield"), 3))
    taken = make_table("canfield", {"w": "4D", "r": "KC", "f1": "6H", "t1": "9S", "t2": "3C", "t3": "QH", "t4": "JS"})
    # the 4 of diamonds to a foundation: legal if the foundations start with 4s (the 6 of hearts on a 4 and a
    # 5), against the rules if they start with 6s: under the 6 nobody saw
    played = make_table("canfield", {"r": "KC", "f1": "6H", "f3": "4D", "t1": "9S", "t2": "3C", "t3": "QH", "t4": "JS"})
    tracker = Tracker(partial=True)
    frames: list[tuple[Table, CardConfidences] | None] = [(first, confidences(first))] * 6
    for table in (taken, taken, played, played):
        frames += [None, *[(table, confidences(table))] * 8]
    events = observe(tracker, frames)
    assert LOST in [e.text for e in events]
    assert EventKind.ILLEGAL not in kinds(events)


# ---------------------------------------------------------------- the deal: a misdeal rests on the piles it names


def misdealt(pile: str = "t2", on_top: bool = False) -> tuple[Table, Table, int]:
    """A Klondike deal as the camera reads it, the same with one more card face up on ``pile`` (under its card, or
    on top), and that card."""
    deal = camera_view(Table.dealt(find_game("klondike"), 3))
    piles = [list(deal.codes(p)) for p in deal.pile_ids]
    seen = {c for p in piles for c in p}
    extra = next(code for code in range(52) if code not in seen)
    piles[deal.pile_ids.index(pile)].insert(len(piles[deal.pile_ids.index(pile)]) if on_top else 0, extra)
    return deal, Table(deal.game, piles, [0] * len(piles)), extra


def misdeal_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.kind is EventKind.MISDEAL]


def column_2_judged(events: list[Event], misdeal: bool) -> None:
    """``misdealt()``'s column 2 announced as a misdeal, or else the player asked to hold still."""
    texts = misdeal_texts(events)
    assert bool(texts) is misdeal
    if misdeal:
        assert "column 2 shows 2 face-up cards, the deal shows 1" in texts[0]
    else:
        assert EventKind.UNCLEAR in kinds(events)


def test_a_misdeal_read_sure_is_announced_though_a_card_of_another_pile_is_read_unsure_in_every_frame() -> None:
    _, table, _ = misdealt()
    seventh = str(CARDS[table.codes("t7")[-1]])  # a court card's picture, say: read at 0.55 every time
    events = observe(Tracker(partial=True), [(table, confidences(table, sure=0.85, **{seventh: 0.55}))] * 6)
    texts = misdeal_texts(events)
    assert texts
    assert "column 2 shows 2 face-up cards, the deal shows 1" in texts[0]


@pytest.mark.parametrize("by_card", [True, False])
def test_a_misdeal_of_one_pile_rests_on_that_piles_cards_not_on_a_phantom_read_elsewhere(by_card: bool) -> None:
    # sc-misdeal-1: column 2 dealt two cards, read at 0.7-0.9 in every frame; a phantom read at 0.25 on another pile
    # in each reading (left out of the vote) made every reading, and so the misdeal, unsure
    _, table, _ = misdealt()
    seen = {c for p in table.pile_ids for c in table.codes(p)}
    phantom = next(code for code in range(52) if code not in seen)
    piles = [[phantom] if p == "f1" else list(table.codes(p)) for p in table.pile_ids]
    read = Table(table.game, piles, [0] * len(piles))
    own = confidences(read, sure=0.72, **{str(CARDS[phantom]): 0.25})
    column_2_judged(observe(Tracker(partial=True, misdeal_by_card=by_card), [(read, own)] * 6), by_card)


@pytest.mark.parametrize("partly", [True, False])
def test_a_misdeal_is_announced_though_a_card_too_many_read_by_few_readings_lies_in_the_same_pile(partly: bool) -> None:
    # mk-misdeal-1 (nicu white): column 2 dealt two cards, and a 3S read between them in 2 readings of 8; that card
    # could never show a misdeal (too few readings), but it kept the deal from being cut to the two dealt cards
    _, table, extra = misdealt()
    phantom = next(code for code in range(52) if code not in {c for p in table.pile_ids for c in table.codes(p)})
    piles = [list(table.codes(p)) for p in table.pile_ids]
    piles[table.pile_ids.index("t2")].insert(1, phantom)
    stray = Table(table.game, piles, [0] * len(piles))
    frames = [(stray, confidences(stray, sure=0.9, **{str(CARDS[phantom]): 0.62}))] * 2
    frames += [(table, confidences(table, sure=0.9))] * 6
    tracker = Tracker(partial=True, trim_partly=partly)
    column_2_judged(observe(tracker, frames), partly)
    if partly:
        assert tracker.model is not None
        assert phantom not in tracker.model.codes("t2")
        assert extra in tracker.model.codes("t2")


@pytest.mark.parametrize("one", [True, False])
def test_a_card_dealt_too_many_read_as_itself_and_its_twin_by_turns_is_one_card(one: bool) -> None:
    # mk-misdeal-1 (nicu white): column 2's extra 3C read as the 3C or the 3S from frame to frame, never both; the
    # vote held both, a pile longer than any reading showed, and the misdeal went unjudged
    _, table, extra = misdealt()
    other = twin(extra)
    assert all(other not in table.codes(p) for p in table.pile_ids)
    piles = [[other if c == extra else c for c in table.codes(p)] for p in table.pile_ids]
    as_twin = Table(table.game, piles, [0] * len(piles))
    frames = [(table, confidences(table, sure=0.9)), (as_twin, confidences(as_twin, sure=0.9))] * 4
    tracker = Tracker(partial=True, deal_twins_one=one)
    column_2_judged(observe(tracker, frames), one)
    if one:
        assert tracker.model is not None
        assert len(face_up(tracker.model, "t2")) == 2


def test_a_misdeal_waits_until_every_card_of_the_deal_is_seen_by_enough_readings() -> None:
    deal, table, _ = misdealt()
    # column 7's card misread once, then missed twice, then read right: the deal taken at the third reading
    # would hold the misread (the layout says a card lies there), and the game could not be followed after it
    wrong = next(code for code in range(52) if code not in {c for p in table.pile_ids for c in table.codes(p)})
    piles = {p: list(table.codes(p)) for p in table.pile_ids}
    misread = Table(table.game, [[wrong] if p == "t7" else piles[p] for p in table.pile_ids], [0] * len(piles))
    missed = Table(table.game, [[] if p == "t7" else piles[p] for p in table.pile_ids], [0] * len(piles))
    frames: list[tuple[Table, CardConfidences] | None] = [
        (misread, confidences(misread)),
        (missed, confidences(missed)),
        (missed, confidences(missed)),
        *[(table, confidences(table))] * 4,
    ]
    tracker = Tracker(partial=True)
    events = observe(tracker, frames)
    assert misdeal_texts(events)
    assert tracker.model is not None
    assert camera_view(tracker.model).codes("t7") == deal.codes("t7")


def test_a_correct_deal_with_one_card_read_unsure_in_every_frame_is_no_misdeal() -> None:
    deal, _, _ = misdealt()
    seventh = str(CARDS[deal.codes("t7")[-1]])
    events = observe(Tracker(partial=True), [(deal, confidences(deal, sure=0.85, **{seventh: 0.55}))] * 6)
    assert kinds(events) == [EventKind.STILL]


def test_no_accusation_about_a_pile_where_the_readings_saw_a_card_the_model_does_not_have() -> None:
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    taken = make_table("klondike", {"t1": "3D", "t2": "QH", "t3": "9C", "t4": "KS", "t5": "JD"})
    # the 3 of diamonds onto the 4 of spades in column 7, which every reading of the table taken up missed:
    # the model has column 7 empty ("only a king may fill it"), but two readings now see the 4 there
    played = make_table("klondike", {"t2": "QH", "t3": "9C", "t4": "KS", "t5": "JD", "t7": "3D"})
    seen = make_table("klondike", {"t2": "QH", "t3": "9C", "t4": "KS", "t5": "JD", "t7": "4S 3D"})
    tracker = Tracker(partial=True, check_deal=False)
    frames: list[tuple[Table, CardConfidences] | None] = [(start, confidences(start))] * 6
    for _ in range(2):
        frames += [None, *[(taken, confidences(taken))] * 8]
    frames += [None, *([(seen, confidences(seen)), (played, confidences(played))] * 2)]
    frames += [(played, confidences(played))] * 4
    events = observe(tracker, frames)
    assert LOST in [e.text for e in events]
    assert EventKind.ILLEGAL not in kinds(events)


def _taken_up_then(
    start: Table, taken: Table, after: tuple[Table, CardConfidences]
) -> list[tuple[Table, CardConfidences] | None]:
    """Frames: ``start`` still, then ``taken`` held still twice (no move explains it: the tracker takes the game
    up from it, ``LOST``), then ``after`` still, each still table after a hand (None)."""
    frames: list[tuple[Table, CardConfidences] | None] = [(start, confidences(start))] * 6
    for _ in range(2):
        frames += [None, *[(taken, confidences(taken))] * 8]
    return [*frames, None, *[after] * 8]


def test_a_mistake_hidden_by_a_misread_repeated_below_the_sure_confidence_is_found() -> None:
    before = make_table("klondike", {"t1": "KS QH JC", "t2": "KC", "t3": "5C", "t4": "2H"})
    # the queen pulled out from under the jack onto the other king; the reader sees an 8 of diamonds on the 2
    # of hearts in every frame, at 0.6 (a picture read as a card): no change explains the table with it
    after = make_table("klondike", {"t1": "KS JC", "t2": "KC QH", "t3": "5C", "t4": "2H 8D"})
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    for sure_tries, announced in ((True, True), (False, False)):
        tracker = Tracker(partial=True, check_deal=False, sure_tries=sure_tries)
        frames = _taken_up_then(start, before, (after, confidences(after, **{"8D": 0.6})))
        events = observe(tracker, frames)
        illegal = [e.moves for e in events if e.kind is EventKind.ILLEGAL]
        assert (illegal == [("t1-1>t2",)]) is announced


def test_a_column_read_one_column_over_into_an_empty_column_is_put_back() -> None:
    model = make_table("klondike", {"t1": "4D 4H", "t3": "7C", "t5": "2D"})
    model = Table(model.game, [list(model.codes(p)) for p in model.pile_ids], [0] * len(model.pile_ids))
    over = make_table("klondike", {"t2": "4D 4H", "t3": "7C", "t5": "2D"})
    table, own = realigned(model, over, confidences(over), partial=True)
    assert table.codes("t1") == model.codes("t1")
    assert not table.codes("t2")
    assert own is not None
    assert own[("t1", parse_code("4H"))] == 0.9
    # the same cards under a card the model does not have there: a change, judged by the moves
    moved = make_table("klondike", {"t2": "4D 4H", "t3": "7C", "t5": "2D"})
    kept = Table(model.game, [list(model.codes(p)) for p in model.pile_ids], [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0])
    assert realigned(kept, moved, None, partial=True)[0] is moved  # column 1 lies on a face-down card


def test_a_move_hidden_by_a_card_misread_in_every_frame_below_the_sure_confidence_is_followed() -> None:
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    taken = make_table("klondike", {"t1": "JC", "t2": "5S", "t3": "8S", "t7": "QH"})
    # the jack onto the queen of hearts, which is read as the queen of diamonds (at 0.65) once the jack lies on it;
    # (leaving the QD out of the vote, ``leave_out_new``, explains it too, and a card read as another of its rank
    # once covered is read as the model's card anyway: ``vote._suit_put_back``); read as the king of diamonds,
    # only the vote of sure cards or leaving the KD out explains it
    for misread in ("QD", "KD"):
        after = make_table("klondike", {"t2": "5S", "t3": "8S", "t7": f"{misread} JC"})
        for sure_legal, leave_out in ((True, False), (False, False), (False, True)):
            tracker = Tracker(partial=True, check_deal=False, sure_legal=sure_legal, leave_out_new=leave_out)
            frames = _taken_up_then(start, taken, (after, confidences(after, JC=0.55, **{misread: 0.65})))
            events = observe(tracker, frames)
            moves = [e.moves for e in events if e.kind is EventKind.MOVE]
            assert (moves == [("t1>t7",)]) is (sure_legal or leave_out or misread == "QD")
            assert EventKind.ILLEGAL not in kinds(events)


@pytest.mark.parametrize(
    ("read", "put_back"),
    [
        ({"f2": "AH"}, {"f1": "AH"}),  # the foundations' row read one place over: the ace goes back home
        ({"f1": "AH", "f2": "AC"}, {"f1": "AH", "f2": "AC"}),  # a new ace on an empty foundation: a move
        ({"f3": "AH"}, {"f1": "AH"}),  # two places over: the foundations are alike, it is no move either
    ],
)
def test_a_foundation_read_on_a_foundation_the_model_has_empty_is_put_back(
    read: dict[str, str], put_back: dict[str, str]
) -> None:
    # the demo with session 10's models: its ace of hearts read on foundation 2 was announced as "cards may not
    # be taken from foundation 1"; moving a foundation onto an empty one is no move a player makes
    columns = {"t1": "KS", "t2": "QD", "t3": "2H", "t4": "7C"}
    model = camera_view(make_table("klondike", {**columns, "f1": "AH"}))
    reading = camera_view(make_table("klondike", {**columns, **read}))
    table, _ = realigned(model, reading, None, partial=True)
    for pile in ("f1", "f2", "f3", "f4"):
        assert table.codes(pile) == tuple(parse_code(c) for c in put_back.get(pile, "").split())


@pytest.mark.parametrize(("read_as", "conf", "said"), [("AH", 0.6, EventKind.MOVE), ("AH", 0.95, EventKind.ILLEGAL)])
def test_a_card_put_on_a_column_card_read_weakly_in_every_frame_is_judged_with_that_card_unknown(
    read_as: str, conf: float, said: EventKind
) -> None:
    # c-illegal-1 (kde_standard Canfield): column 1's 2 of hearts was read as the ace of hearts at 0.64 in every
    # frame; the ace of spades put legally on it looked like an ace on an ace, the change was unexplained and
    # the game lost. A card no reading named with ``sure_card`` confidence is tried as unknown; one read sure
    # is taken at its word (the same change is then an ace put on an ace: illegal)
    game = "canfield"
    piles = {"s": "QD JS 10C 3C 8H", "w": "AS", "r": "KC QC JC 6C 5C", "f1": "4S", "t1": "2H", "t2": "9C", "t3": "KD"}
    before = make_table(game, {**piles, "t4": "7S"})
    assert Move.parse("w>t1") in before.generate_moves()
    after = before.copy()
    after.push(Move.parse("w>t1"))
    seen_before, seen_after = camera_view(before), camera_view(after)
    misread = parse_code(read_as)
    piles = [
        [misread if code == parse_code("2H") else code for code in seen_before.codes(p)] for p in seen_before.pile_ids
    ]
    read_before = Table(seen_before.game, piles, [0] * len(piles))
    # the covered 2 of hearts is not read at all once the ace lies on it (its index hidden, as in the recording)
    piles = [[code for code in seen_after.codes(p) if code != parse_code("2H")] for p in seen_after.pile_ids]
    read_after = Table(seen_after.game, piles, [0] * len(piles))
    tracker = Tracker(partial=True, check_deal=False)
    events = observe(tracker, [(read_before, confidences(read_before, 0.95, **{read_as: conf}))] * 6)
    events = observe(tracker, [None, *[(read_after, confidences(read_after, 0.95))] * 8], start=1.0)
    told = [e for e in events if e.kind in (EventKind.MOVE, EventKind.ILLEGAL)]
    assert [e.kind for e in told] == [said]
    assert told[0].moves == ("w>t1",)
    assert tracker.model is not None
    if said is EventKind.MOVE:
        assert tracker.model.codes("t1") == (UNKNOWN, parse_code("AS"))  # the weak read is not kept
        assert "onto column 1" in told[0].text


def test_the_guesses_for_an_unknown_card_are_explained_once_per_table_while_the_model_stands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # heldout5's nk-legal-2 (penguins, wider reads): a doubted column card's guesses met the same unexplained
    # tables frame after frame, up to 2 s a frame; each guess and table is explained once until the model changes
    import cadogan.tracker as tracker_module

    game = "canfield"
    piles = {"s": "QD JS 10C 3C 8H", "w": "AS", "r": "KC QC JC 6C 5C", "f1": "4S", "t1": "2H", "t2": "9C", "t3": "KD"}
    before = camera_view(make_table(game, {**piles, "t4": "7S"}))
    after = before.copy()
    after.push(Move.parse("w>t1"))
    blank = with_card(before, "t1", 0, UNKNOWN)
    seen = with_card(camera_view(after), "t1", 0, UNKNOWN)
    guesses = [with_card(blank, "t1", 0, parse_code(card)) for card in ("2C", "2D", "2H", "9H")]
    calls: list[tuple[object, ...]] = []

    def counted(guess: Table, table: Table, *args: object) -> object:
        calls.append((guess.key(), table.key()))
        return explain(guess, table, *args)

    monkeypatch.setattr(tracker_module, "explain", counted)
    tracker = Tracker(partial=True, check_deal=False)
    first = tracker._by_guesses(blank, guesses, [(seen, 0)], 3)
    assert [e.moves for *_, e in first] == [(Move.parse("w>t1"),)]  # the first guess that may hold the ace: a red 2
    made = len(calls)
    assert made == len(set(calls)) >= 1
    assert tracker._by_guesses(blank, guesses, [(seen, 0)], 3) == first
    assert len(calls) == made  # nothing explained again
    tracker._slow.clear()  # (as when the model changes)
    assert tracker._by_guesses(blank, guesses, [(seen, 0)], 3) == first
    assert len(calls) == 2 * made


@pytest.mark.parametrize(("steady", "said"), [(0.6, EventKind.MOVE), (0.0, EventKind.ILLEGAL)])
def test_a_column_card_read_sure_in_one_frame_but_unsure_in_most_is_still_doubted(
    steady: float, said: EventKind
) -> None:
    # c-illegal-1 with session 16's classifier: the blurred 2 of hearts was read as the 3 at 0.43-0.52 in frame
    # after frame and at 0.71 once; that one frame made it "read sure", and the ace of spades put legally on it
    # was an unexplained change. A card half the readings named below ``steady_card`` is doubted all the same.
    game = "canfield"
    piles = {"s": "QD JS 10C 3C 8H", "w": "AS", "r": "KC QC JC 6C 5C", "f1": "4S", "t1": "2H", "t2": "9C", "t3": "KD"}
    before = make_table(game, {**piles, "t4": "7S"})
    after = before.copy()
    after.push(Move.parse("w>t1"))
    seen_before, seen_after = camera_view(before), camera_view(after)
    misread, two = parse_code("3H"), parse_code("2H")
    rows = [[misread if code == two else code for code in seen_before.codes(p)] for p in seen_before.pile_ids]
    read_before = Table(seen_before.game, rows, [0] * len(rows))
    rows = [[code for code in seen_after.codes(p) if code != two] for p in seen_after.pile_ids]
    read_after = Table(seen_after.game, rows, [0] * len(rows))
    tracker = Tracker(partial=True, check_deal=False, steady_card=steady)
    weak, once = confidences(read_before, 0.95, **{"3H": 0.5}), confidences(read_before, 0.95, **{"3H": 0.75})
    events = observe(tracker, [(read_before, once), *[(read_before, weak)] * 5])
    events = observe(tracker, [None, *[(read_after, confidences(read_after, 0.95))] * 8], start=1.0)
    told = [e for e in events if e.kind in (EventKind.MOVE, EventKind.ILLEGAL)]
    assert [e.kind for e in told] == [said]
    assert told[0].moves == ("w>t1",)


def test_a_card_read_where_the_model_knew_nothing_is_never_put_in_a_second_place() -> None:
    # c-illegal-1: a misread waste (3S 3C read twice over) was filled into the unknown waste cards of the model,
    # which then held two threes of spades; the card the model has elsewhere is left unknown instead
    model = make_table("klondike", {"w": "?? ??", "t1": "3S", "t2": "9D"})
    seen = make_table("klondike", {"w": "3S 4H", "t1": "3S", "t2": "9D"})
    after = _revealed_once(model, seen, partial=False)
    assert after.codes("w") == (UNKNOWN, parse_code("4H"))
    assert after.codes("t1") == (parse_code("3S"),)


@pytest.mark.parametrize(
    ("extra", "under", "seed", "misdeal"),
    [
        ("stock", True, 10, True),  # k-misdeal-2: the extra card under column 2's top, read at 0.58 in every frame
        ("stock", False, 11, False),  # read over a king: a court card's picture is read there as a card
        ("stock", False, 10, True),  # jc-misdeal-1: over a 4 of diamonds, where no picture lies
        ("same rank", True, 10, True),  # gk-misdeal-1: the 8D dealt too many under the 8H, read at 0.45-0.65
    ],
)
def test_a_misdeal_rests_on_a_card_read_steadily_in_a_cascade_though_below_sure(
    extra: str, under: bool, seed: int, misdeal: bool
) -> None:
    table = Table.dealt(find_game("klondike"), seed)
    view = camera_view(table)
    top = view.codes("t2")[-1]
    if extra == "stock":
        card = table.codes("s")[-1]
    else:
        card = next(c for c in range(52) if CARDS[c].rank == CARDS[top].rank and c != top)
    piles = [list(view.codes(p)) for p in view.pile_ids]
    column = piles[view.pile_ids.index("t2")]
    column[:] = [card, top] if under else [top, card]
    if extra == "stock":
        piles[view.pile_ids.index("s")] = []  # (the camera reads no stock card; the extra one came from it)
    read = Table(view.game, piles, [0] * len(piles))
    own = confidences(read, 0.9, **{str(CARDS[card]): 0.58})
    events = observe(Tracker(partial=True), [(read, own)] * 8)
    assert (EventKind.MISDEAL in kinds(events)) is misdeal
    if misdeal:
        assert "column 2 shows 2 face-up cards" in next(e.text for e in events if e.kind is EventKind.MISDEAL)


@pytest.mark.parametrize(("name", "may"), [("2H", True), ("2D", True), ("3H", False), ("2S", False)])
def test_a_card_read_under_one_judged_legal_onto_it_must_be_one_it_may_go_on(name: str, may: bool) -> None:
    # the ace of spades went onto column 1's unknown card by a legal move: a 3 of hearts read there is a misread
    model = make_table("canfield", {"t1": "?? AS"})
    assert Tracker._may_lie_under(model, "t1", 0, parse_code(name)) is may
    assert Tracker._may_lie_under(model, "t1", 1, parse_code(name))  # nothing on the top card


@pytest.mark.parametrize(
    ("under_top", "doubt", "moves", "waste"),
    [
        (0.79, 0.9, ("w>f2",), "?? JD"),  # learnt weakly: the card read surer in its place now is believed
        (0.79, 0.0, ("w>f2", "s:3>w"), "?? 8D ?? ?? JD"),  # (the rule off: the recording's failure)
        (0.95, 0.9, ("w>f2", "s:3>w"), "?? 8D ?? ?? JD"),  # learnt sure: taken at its word, a turn is assumed
    ],
)
def test_a_waste_card_learnt_from_a_weak_read_is_doubted_before_an_extra_stock_turn_is_assumed(
    under_top: float, doubt: float, moves: tuple[str, ...], waste: str
) -> None:
    # c-legal-2 (kde_nicu_white Canfield): a squared card peeking out under the fan was read at 0.79 in the place of
    # the fan's middle card and learnt there; when the top went to a foundation, the true middle card showed and
    # only "and one more turn of the stock" explained it: the model ran a turn ahead of the stock to its end
    columns = {"t1": "9H", "t2": "2D", "t3": "KD", "t4": "7H"}
    truth = make_table("canfield", {"s": "9C 8D 7S 4C 5D 10C 3H JD QS", "r": "KC QC JC 6C 5C", "f1": "3S", **columns})

    def read(waste: str) -> Table:
        """The camera's reading of ``truth``: no stock card, the waste's fan as given."""
        view = camera_view(truth)
        piles = [
            [parse_code(c) for c in waste.split()] if p == "w" else [] if p == "s" else list(view.codes(p))
            for p in view.pile_ids
        ]
        return Table(view.game, piles, [0] * len(piles))

    tracker = Tracker(partial=True, check_deal=False, doubt_weak_waste=doubt)
    observe(tracker, [(read(""), confidences(read(""), 0.95))] * 6)
    truth.push(Move.parse("s:3>w"))
    assert [str(CARDS[c]) for c in truth.codes("w")] == ["QS", "JD", "3H"]
    fan = read("8D 3H")  # the fan's JD misread as the 8D (a stock card), in every frame
    events = observe(tracker, [None, *[(fan, confidences(fan, 0.95, **{"8D": under_top}))] * 8], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("s:3>w",)]
    truth.push(Move.parse("w>f2"))
    top = read("JD")
    events = observe(tracker, [None, *[(top, confidences(top, 0.95))] * 8], start=3.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [moves]
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model is not None
    assert tracker.model.codes("w") == tuple(parse_code(c) for c in waste.split())


@pytest.mark.parametrize(
    ("column", "read_as", "put_back"),
    [
        ("2D AC", "2H AC", "2D AC"),  # the pip under the ace hidden, the suit guessed: the model's two
        ("9S 8D 7C", "9S 8H 7C", "9S 8D 7C"),  # deeper in a cascade, the cards under it as the model has them
        ("2D AC", "2H", "2H"),  # a column's top card shows its whole index: taken as read
        ("2D AC", "3H AC", "3H AC"),  # another rank: no guessed suit, taken as read
        ("9S 8D 7C", "10S 8H 7C", "10S 8H 7C"),  # a card under it read as another: taken as read
    ],
)
def test_a_covered_card_read_as_another_of_its_rank_is_read_as_the_models_card(
    column: str, read_as: str, put_back: str
) -> None:
    # c-legal-2 (kde_nicu_white Canfield): column 2's two of diamonds read as the two of hearts at up to 0.93 once
    # the ace of clubs lay on it (the ace hid the suit's pip); nothing explained the change and the game was lost
    before = " ".join(column.split()[:-1])  # the column before its top card was put on it
    model = camera_view(make_table("canfield", {"r": "7D", "t1": before, "t3": "KC"}))
    reading = camera_view(make_table("canfield", {"r": "7D", "t1": read_as, "t3": "KC"}))
    own = confidences(reading, 0.93)
    table, cards = realigned(model, reading, own, partial=True)
    assert table.codes("t1") == tuple(parse_code(c) for c in put_back.split())
    assert cards is not None
    for code in table.codes("t1")[:-1]:
        swapped = code not in reading.codes("t1")
        assert cards[("t1", code)] == (0.6 if swapped else 0.93)  # a put-back card is no sure read


def _canfield(stock: str) -> Table:
    """A Canfield game under way (c-illegal-1's shape): the waste empty, ``stock`` turned three at a time."""
    columns = {"t1": "4S", "t2": "2D", "t3": "KD", "t4": "7H"}
    return make_table("canfield", {"s": stock, "r": "KC QC JC 6C 5C", "f1": "3S", **columns})


def _waste_read(table: Table, fan: int = 1, skip: str = "") -> Table:
    """The camera's reading: no stock card, the waste's top ``fan`` cards (less ``skip``), every other pile's."""
    view = camera_view(table)
    piles = [
        [c for c in table.codes(p)[-fan:] if str(CARDS[c]) != skip]
        if p == "w"
        else []
        if p == "s"
        else list(view.codes(p))
        for p in view.pile_ids
    ]
    return Table(view.game, piles, [0] * len(piles))


@pytest.mark.parametrize(
    ("dig_unread", "taken", "sure", "named_once", "illegal"),
    [
        (True, "JD", 0.95, 0.0, ("w-1>t1",)),  # the fan's unread middle card, read sure on the column: from under
        (False, "JD", 0.95, 0.0, ()),  # (the rule off: c-illegal-1's miss, the card later left out as a phantom)
        (True, "JD", 0.6, 0.0, ()),  # read unsure on the column: no accusation rests on it
        (True, "JD", 0.95, 0.95, ()),  # named once on the waste, outvoted: maybe the model's mistake, not hidden
        (True, "JD", 0.95, 0.33, ("w-1>t1",)),  # only glimpsed there once (sc-illegal-1): still from under
        (True, "3H", 0.95, 0.0, ()),  # the waste's top card, read there before: the legal move, not from under
    ],
)
def test_a_card_the_model_has_nowhere_put_on_a_column_came_from_under_an_unread_waste_card(
    dig_unread: bool, taken: str, sure: float, named_once: float, illegal: tuple[str, ...]
) -> None:
    # c-illegal-1 (kde_standard Canfield): the waste's fan shows three cards, the camera reads only its top one;
    # the player pulls out the middle card and puts it on a column, the top card staying where it was
    truth = _canfield("9C 8D 7S 4C 5D 10C 3H JD QS")
    read = _waste_read

    tracker = Tracker(partial=True, check_deal=False, dig_unread=dig_unread)
    observe(tracker, [(read(truth), confidences(read(truth), 0.95))] * 6)
    truth.push(Move.parse("s:3>w"))
    assert [str(CARDS[c]) for c in truth.codes("w")] == ["QS", "JD", "3H"]
    turned = read(truth)
    frames = [(turned, confidences(turned, 0.95))] * 8
    if named_once:  # one reading of the turn names the fan's middle card too
        piles = [list(truth.codes(p)[1:]) if p == "w" else list(turned.codes(p)) for p in turned.pile_ids]
        fan = Table(turned.game, piles, [0] * len(piles))
        frames[3] = (fan, confidences(fan, 0.95, JD=named_once))
    events = observe(tracker, [None, *frames], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("s:3>w",)]
    assert tracker.model is not None
    assert tracker.model.codes("w")[:2] == (UNKNOWN, UNKNOWN)  # the fan's lower cards never voted in
    # the player's change, made by hand: the card out of the waste, onto column 1
    piles = {p: list(truth.codes(p)) for p in truth.pile_ids}
    piles["w"].remove(parse_code(taken))
    piles["t1"].append(parse_code(taken))
    after = Table(truth.game, list(piles.values()), [truth.face_down_count(p) for p in truth.pile_ids])
    moved = read(after)
    events = observe(tracker, [None, *[(moved, confidences(moved, 0.95, **{taken: sure}))] * 12], start=3.0)
    assert tuple(m for e in events if e.kind is EventKind.ILLEGAL for m in e.moves) == illegal
    if illegal:
        assert "was taken from under the 3 of hearts" in next(e.text for e in events if e.kind is EventKind.ILLEGAL)


@pytest.mark.parametrize("held", [True, False])
def test_a_weakly_learnt_waste_card_is_doubted_when_the_fan_read_around_it_says_so(held: bool) -> None:
    # sc-illegal-1 (ancient egyptians): the turn's KD read as the 9H at 0.6; once the 6H on top is played, the fan
    # shows the AD and the KD, read no surer than the 9H was. The model's own explanation, "w>t2" and one more turn,
    # must leave the AD it sees there out (the AD lies deeper); the 9H doubted, "w>t2" alone explains all of it
    columns = {"t1": "4S", "t2": "7C", "t3": "QH", "t4": "JS"}
    truth = make_table("canfield", {"s": "9C 8D 7S 4C 5D 10C 6H KD AD", "r": "KC QC JC 6C 5C", "f1": "3S", **columns})
    tracker = Tracker(partial=True, check_deal=False, doubt_waste_held=held)
    observe(tracker, [(_waste_read(truth), confidences(_waste_read(truth), 0.95))] * 6)
    truth.push(Move.parse("s:3>w"))
    fan = _waste_read(truth, fan=3)
    piles = [[parse_code("9H") if c == parse_code("KD") else c for c in fan.codes(p)] for p in fan.pile_ids]
    misread = Table(fan.game, piles, [0] * len(piles))
    events = observe(tracker, [None, *[(misread, confidences(misread, 0.9, AD=0.8, **{"9H": 0.6}))] * 8], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("s:3>w",)]
    assert tracker.model is not None
    assert [str(CARDS[c]) for c in tracker.model.codes("w")] == ["AD", "9H", "6H"]
    truth.push(Move.parse("w>t2"))
    played = _waste_read(truth, fan=3)
    assert [str(CARDS[c]) for c in played.codes("w")] == ["AD", "KD"]
    frames = [None, *[(played, confidences(played, 0.9, AD=0.8, KD=0.55))] * 8]
    events = observe(tracker, frames, start=3.0)
    moves = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert moves == ([("w>t2",)] if held else [("w>t2", "s:3>w")])
    if held:
        assert [str(CARDS[c]) for c in tracker.model.codes("w")] == ["AD", "KD"]


@pytest.mark.parametrize(
    ("queen_on", "doubt", "accused"),
    [
        ("t3", True, False),  # the table before, unexplained, had the QC where the run now seems to lie on the KH
        ("t3", False, True),  # (the rule off: the noisy reader's false accusation on k-legal-1)
        ("t4", True, True),  # the unexplained QC lay on another pile: the red jack on the red king is accused
        ("", True, True),  # the table before was explained: accused
    ],
)
def test_no_accusation_on_a_pile_where_an_unexplained_table_before_had_another_card(
    queen_on: str, doubt: bool, accused: bool
) -> None:
    # the queen of clubs turns up on the king of hearts from nowhere the model knows (a stock turn the readings
    # missed): the tracker asks the player to hold still. Next, the jack's run goes onto the queen, which three
    # readings in a row miss: the run seems to lie on the king itself
    rest = {"t1": "QS", "t5": "8S", "t6": "4H", "s": "2c 3c"}  # (in place: a player's move, not a misread)
    start = make_table("klondike", {"t2": "JD 10C 9D", "t3": "KH", "t4": "5S", **rest})
    middle_piles = {"t2": "JD 10C 9D", "t3": "KH", "t4": "5S", **rest}
    if queen_on:
        middle_piles[queen_on] += " QC"
    middle = make_table("klondike", middle_piles)
    end = make_table("klondike", {"t2": "", "t3": "KH JD 10C 9D", "t4": "5S", **rest})
    # (the QC read on the KH and followed by no move is doubted by ``read_above_doubted`` too: off with the rule)
    tracker = Tracker(check_deal=False, doubt_after_unexplained=doubt, read_above_doubted=doubt)
    frames = [start] * 5 + [None] * 3 + [middle] * 12 + [None] * 3 + [end] * 12
    events = [e for k, frame in enumerate(frames) for e in tracker.observe(k / 10, frame, 0.95)]
    if queen_on:
        assert EventKind.UNCLEAR in kinds(events)
    illegal = [e for e in events if e.kind is EventKind.ILLEGAL]
    assert [e.moves for e in illegal] == ([("t2:3>t3",)] if accused else [])


@pytest.mark.parametrize(
    ("rule", "followed", "sure", "accused"),
    [
        (True, True, 0.55, False),  # the 2D read as the 2H, never sure: its suit alone makes the move illegal
        (True, False, 0.55, False),  # (not followed: the player is asked to hold still, the move is lost)
        (False, False, 0.55, True),  # (the rule off: heldout10's uk-legal-2, "the 2 of hearts may not go on the ...")
        (True, True, 0.9, True),  # read sure as the 2H: a 2H put on the ace of diamonds is the player's mistake
    ],
)
def test_no_move_is_called_illegal_for_a_suit_its_card_may_have_been_misread_by(
    rule: bool, followed: bool, sure: float, accused: bool
) -> None:
    rest = {"t1": "KC", "t3": "9S", "f1": "AH", "f2": "AD", "s": "4c 3d 9c"}
    start = make_table("klondike", {"t2": "3S 2H", **rest})
    end = make_table("klondike", {"t2": "3S", **rest, "f2": "AD 2H"})
    tracker = Tracker(check_deal=False, twin_would_do=rule, twin_followed=followed)
    observe(tracker, [(start, confidences(start, 0.9, **{"2H": sure}))] * 6)
    events = observe(tracker, [None, *[(end, confidences(end, 0.9, **{"2H": sure}))] * 8], start=1.0)
    illegal = [e.moves for e in events if e.kind is EventKind.ILLEGAL]
    assert illegal == ([("t2>f2",)] if accused else [])
    moves = [e for e in events if e.kind is EventKind.MOVE]
    assert tracker.model is not None
    if rule and not accused and followed:  # followed as the legal move of the 2D, the card it was all along
        assert [(e.moves, e.text) for e in moves] == [(("t2>f2",), "move the 2 of diamonds to foundation 2")]
        assert tracker.model.codes("f2") == (parse_code("AD"), parse_code("2D"))
        assert tracker.model.codes("t2") == (parse_code("3S"),)
        # and its session log (the still tables, the 2H renamed only from the move on) replays as it was followed
        from cadogan.session import LoggedTable
        from cadogan.verdict import replay

        logged = [LoggedTable(e.t, e.table, e.confidence) for e in events if e.kind is EventKind.STILL and e.table]
        logged.insert(0, LoggedTable(0.0, start, 0.9))
        again = replay(logged, partial=False)
        assert [(e.kind, e.move) for e in again.entries if e.kind is not EntryKind.MISDEAL] == [
            (EntryKind.MOVE, "t2>f2")
        ]
    elif not accused:
        assert moves == []
        assert tracker.model.codes("t2") == (parse_code("3S"), parse_code("2H"))


@pytest.mark.parametrize("covers", [True, False])
def test_a_card_pulled_from_under_another_is_announced_though_the_card_now_under_that_one_goes_unread(
    covers: bool,
) -> None:
    # pk-illegal-1 (penguins, enrolled): the 9H pulled from under the 8S onto the KD; the 10S under it, now under the
    # 8S, read in 2 readings of 8: a card the accusation needs on its pile, seen too seldom, had withheld it
    rest = {"t3": "5C", "t5": "2D", "s": "4c 3d 9c"}
    start = make_table("klondike", {"t1": "KD", "t2": "JD 10S 9H 8S", **rest})
    end = make_table("klondike", {"t1": "KD 9H", "t2": "JD 10S 8S", **rest})
    unread = make_table("klondike", {"t1": "KD 9H", "t2": "JD 8S", **rest})
    tracker = Tracker(check_deal=False, pulled_covers=covers)
    observe(tracker, [(start, confidences(start, 0.9))] * 6)
    frames: list[tuple[Table, CardConfidences] | None] = [None, *[(end, confidences(end, 0.9))] * 2]
    frames += [(unread, confidences(unread, 0.9))] * 8
    events = observe(tracker, frames, start=1.0)
    illegal = [e.moves for e in events if e.kind is EventKind.ILLEGAL]
    assert illegal == ([("t2-1>t1",)] if covers else [])
    assert "the 9 of hearts was taken from under the 8 of spades" in " ".join(e.text for e in events) or not covers


@pytest.mark.parametrize("rule", [True, False])
def test_a_card_read_as_its_unseen_twin_is_not_said_taken_from_under_a_foundation(rule: bool) -> None:
    # nk-legal-2 (penguins, enrolled): the 2C turned from the stock, read as the 2S at 0.9, while the 2S lies under
    # the 3S on a foundation: no legal move explains it, and the 2S "taken from under the 3S" would be the only move
    columns = {"t1": "4S", "t2": "2D", "t3": "KD", "t4": "7H"}
    truth = make_table("canfield", {"s": "9C 8D 7S 2C JD QS", "r": "KC QC JC 6C 5C", "f1": "2S 3S", **columns})
    tracker = Tracker(partial=True, check_deal=False, dug_twin_unseen=rule)

    def read(waste: str, foundation: str) -> Table:
        piles = {p: list(_waste_read(truth).codes(p)) for p in truth.pile_ids}
        piles |= {"w": [parse_code(c) for c in waste.split()], "f1": [parse_code(c) for c in foundation.split()]}
        return Table(truth.game, list(piles.values()), [0] * len(piles))

    # the tracker has the 2S under the 3S (it saw them played); a camera then sees the foundation's top card alone
    observe(tracker, [(read("", "2S 3S"), confidences(read("", "2S 3S"), 0.95))] * 6)
    truth.push(Move.parse("s:3>w"))
    assert str(CARDS[truth.codes("w")[-1]]) == "2C"
    misread = read("2S", "3S")
    events = observe(tracker, [None, *[(misread, confidences(misread, 0.9))] * 8], start=1.0)
    illegal = [e.moves for e in events if e.kind is EventKind.ILLEGAL]
    assert illegal == ([] if rule else [("f1-1>w",)])


@pytest.mark.parametrize("look", [True, False])
def test_a_waste_top_put_on_a_column_and_covered_at_once_is_found_where_it_was_read_unsure(look: bool) -> None:
    # rk-legal-2 (jolly royal): the 6H played from the waste onto the 7C and the 5S put on it in one spell of hands;
    # the 6H, covered, read at 0.35 in half the readings: without it, the 5S looks put on the 7C
    rest = {"t2": "KD", "t5": "8S", "s": "4c 3d 9h"}
    start = make_table("klondike", {"w": "2C 6H", "t1": "5S", "t3": "KC QH JS 10H 9S 8D 7C", **rest})
    end = make_table("klondike", {"w": "2C", "t1": "", "t3": "KC QH JS 10H 9S 8D 7C 6H 5S", **rest})
    piles = {p: list(end.codes(p)) for p in end.pile_ids}
    piles["t3"].remove(parse_code("6H"))
    unread = Table(end.game, list(piles.values()), [end.face_down_count(p) for p in end.pile_ids])
    tracker = Tracker(check_deal=False, gone_top_weak=look)
    observe(tracker, [(start, confidences(start, 0.9))] * 6)
    frames: list[tuple[Table, CardConfidences] | None] = [None]
    for _ in range(5):
        frames += [(end, confidences(end, 0.9, **{"6H": 0.35})), (unread, confidences(unread, 0.9))]
    events = observe(tracker, frames, start=1.0)
    moves = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert moves == ([("w>t3", "t1>t3")] if look else [])
    assert (EventKind.ILLEGAL in kinds(events)) is not look  # (off: "black 5 on black 7")


@pytest.mark.parametrize(
    ("waste", "onto", "unread", "stock", "found"),
    [
        ("?? QH", "t1", True, "", "w-1>t1"),  # under the waste's top card, onto a column
        ("?? QH", "t1", False, "", None),  # only known cards are dug out unless asked
        ("QH", "t1", True, "", None),  # the waste has no unread card; the reserve's unread ones never count
        ("?? QH", "f1", True, "", None),  # onto a foundation: not a place a pulled-out card is put by this rule
        # the stock's back read as a card (heldout19's ec-illegal-1, nicu white: as the AD in half the readings) is
        # no card of the stock, which the deal lays face down
        ("?? QH", "t1", True, "AD", "w-1>t1"),
    ],
)
def test_dug_out_tries_unread_face_up_cards_of_the_waste_and_columns_only(
    waste: str, onto: str, unread: bool, stock: str, found: str | None
) -> None:
    from cadogan.tracker import dug_out

    game = find_game("canfield")
    ids = Table.dealt(game, 0).pile_ids

    def table(piles: dict[str, str]) -> Table:
        codes = [[UNKNOWN if c == "??" else parse_code(c) for c in piles.get(p, "").split()] for p in ids]
        return Table(game, codes, [0] * len(codes))  # every card face up: unread, not face down

    rest = {"r": "?? ?? AS", "t1": "4S", "t2": "KD", "f1": "3S"}
    model = table({"w": waste, **rest})
    # the camera now sees the waste's top and the 10 of clubs, a card the model has nowhere, on top of ``onto``
    seen = table({**rest, "w": "QH", "r": "AS", onto: f"{rest[onto]} 10C", "s": stock})
    result = dug_out(model, seen, partial=True, unread=unread)
    assert (None if result is None else result[1]) == found


@pytest.mark.parametrize(
    ("readings", "order"),
    [
        # the noisy reader's c-legal-1 fan: by mean relative height the 8D (read once between) sank under the 10C
        (["6D 10C 8D 5H", "6D 10C", "6D 10C 5H", "6D 8D 5H"], "6D 10C 8D 5H"),
        (["6D 10C 8D 5H"] * 3, "6D 10C 8D 5H"),  # every reading whole: the readings' order
        (["AS 2S", "2S 3S", "3S 4S"], "AS 2S 3S 4S"),  # never read all at once: chained by pairs
        (["AS 2S", "2S AS", "AS 2S"], "AS 2S"),  # readings disagree: the majority
    ],
)
def test_the_vote_orders_a_pile_by_what_the_readings_show_of_each_pair(readings: list[str], order: str) -> None:
    from cadogan.vote import by_rank, voted

    def reading(fan: str) -> Table:
        return make_table("klondike", {"w": fan, "t1": "KS"})

    evidence = Evidence([(reading(fan), 0.9) for fan in readings])
    want = [parse_code(c) for c in order.split()]
    assert by_rank(evidence, "w", sorted(want)) == want
    assert list(voted(evidence, 1).codes("w")) == want


@pytest.mark.parametrize("fan_gaps", [True, False])
def test_a_fan_card_read_between_two_others_is_no_phantom(fan_gaps: bool) -> None:
    # c-illegal-1 (kde_standard Canfield): the waste's top card goes onto a column and the stock is turned within one
    # still change; the new fan's middle card is read by two readings only. Taken for a phantom, the play alone
    # explains the rest (the fan's other two cards taken for the model's unread waste cards under the played one),
    # and the model's waste is wrong ever after
    truth = _canfield("9C 8D 7S 4C 5D 3C 8H AD 3H 10C QH JD 2H 10H")  # turned three at a time from the right
    read = _waste_read

    tracker = Tracker(partial=True, check_deal=False, fan_gaps=fan_gaps)
    observe(tracker, [(read(truth), confidences(read(truth)))] * 6)
    for k in range(2):
        truth.push(Move.parse("s:3>w"))
        observe(tracker, [None, *[(read(truth), confidences(read(truth)))] * 6], start=1.0 + k)
    assert tracker.model is not None
    assert [str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")] == [
        *("??", "??", "JD"),
        *("??", "??", "3H"),
    ]
    truth.push(Move.parse("w>t1"))
    truth.push(Move.parse("s:3>w"))
    whole, missed = read(truth, fan=3), read(truth, fan=3, skip="8H")
    frames = [(missed, confidences(missed)), *[(whole, confidences(whole))] * 2, *[(missed, confidences(missed))] * 5]
    events = observe(tracker, [None, *frames], start=4.0)
    said = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert said == ([("w>t1", "s:3>w")] if fan_gaps else [("w>t1",)])
    waste = [str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")]
    # (the rule off: the fan's other cards taken for the played one's unread neighbours, the 8H lost)
    assert waste[-3:] == (["AD", "8H", "3C"] if fan_gaps else ["JD", "??", "3C"])


@pytest.mark.parametrize("new_twins_one", [True, False])
@pytest.mark.parametrize("fan_gaps_twins", [True, False])
def test_a_fan_card_read_as_itself_and_as_its_twin_by_turns_is_one_card_not_two_turns(
    fan_gaps_twins: bool, new_twins_one: bool
) -> None:
    # c-legal-1 (penguins Canfield, enrolled): the new fan's top card read as the 10S in two readings and the 10C in
    # three, never both at once, and one reading with a stray card in the fan (four places): the vote held both 10s,
    # and the fan was explained by two stock turns where there was one. Either rule reads them as one card: the
    # explanation that keeps one of them (``fan_gaps_twins``), or the vote before any explanation (``new_twins_one``)
    truth = _canfield("9C 8D 7S 4C 5D 3C 8H AD 3H 10C QH JD 2H 10S")
    tracker = Tracker(partial=True, check_deal=False, fan_gaps_twins=fan_gaps_twins, new_twins_one=new_twins_one)
    observe(tracker, [(_waste_read(truth), confidences(_waste_read(truth)))] * 6)
    truth.push(Move.parse("s:3>w"))
    whole = _waste_read(truth, fan=3)
    bottom, middle, top = whole.codes("w")
    as_twin = with_card(whole, "w", 2, twin(top))
    fan = [bottom, parse_code("KD"), middle, twin(top)]
    stray = with_piles(whole, [fan if p == "w" else list(whole.codes(p)) for p in whole.pile_ids])
    frames = [(as_twin, confidences(as_twin)), (stray, confidences(stray, KD=0.5)), *[(whole, confidences(whole))] * 4]
    events = observe(tracker, [None, *frames], start=1.0)
    said = [e.moves for e in events if e.kind is EventKind.MOVE]
    one = fan_gaps_twins or new_twins_one
    assert said == ([("s:3>w",)] if one else [("s:3>w", "s:3>w")])
    assert tracker.model is not None
    assert len(tracker.model.codes("w")) == (3 if one else 6)


@pytest.mark.parametrize("fan_gaps_twins", [True, False])
def test_a_fan_card_read_as_the_twin_of_the_wastes_card_there_is_no_sign_of_a_turn(fan_gaps_twins: bool) -> None:
    # heldout15's zc-legal-1 (ancient egyptians Canfield, enrolled): the waste's top played onto a column, the fan then
    # showing the 10D (read as the 10H in two readings) over two cards turned unread before: taken for a stock turn
    # as well (the 10H a card no explanation without a turn keeps), and a real turn was missed later. Here the JD
    # read as the JH over the QH and 10C
    truth = _canfield("9C 8D 7S 4C 5D 3C 8H AD 3H 10C QH JD 2H 10S")
    tracker = Tracker(partial=True, check_deal=False, fan_gaps_twins=fan_gaps_twins)
    observe(tracker, [(_waste_read(truth), confidences(_waste_read(truth)))] * 6)
    for k in range(2):  # (each turn's top card read, the two under it not)
        truth.push(Move.parse("s:3>w"))
        observe(tracker, [None, *[(_waste_read(truth), confidences(_waste_read(truth)))] * 6], start=1.0 + k)
    assert tracker.model is not None
    assert [str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")[-3:]] == ["??", "??", "3H"]
    truth.push(Move.parse("w>t1"))
    fan = _waste_read(truth, fan=3)  # [JD QH 10C]
    misread = with_card(fan, "w", 0, parse_code("JH"))
    edge = with_piles(fan, [list(fan.codes(p))[1:] if p == "w" else list(fan.codes(p)) for p in fan.pile_ids])
    frames = [None, *[(misread, confidences(misread))] * 2, *[(edge, confidences(edge))] * 6]
    events = observe(tracker, frames, start=4.0)
    said = [e.moves for e in events if e.kind is EventKind.MOVE]
    waste = [str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")]
    if fan_gaps_twins:
        assert said == [("w>t1",)]
        assert waste[-3:] == ["JD", "QH", "10C"]
    else:
        assert said == [("w>t1", "s:3>w")]  # (the JH taken for a card turned from the stock)


@pytest.mark.parametrize("dug_kept", [True, False])
def test_a_card_pulled_from_under_an_unread_waste_card_is_not_left_out_as_a_phantom(dug_kept: bool) -> None:
    # c-illegal-1 (kde_standard Canfield): the 10C pulled from under the waste's queen and put on column 1 went unread
    # in the still table's first reading (readings that put it nowhere explain the table unchanged), so no
    # accusation was sure enough before six readings had passed; then the vote was tried without it
    # (``leave_out_new``) and the table taken as unchanged
    truth = _canfield("9C 8D 7S 4C 5D 10C 3H JD QS")
    read = _waste_read

    tracker = Tracker(partial=True, check_deal=False, dug_kept=dug_kept)
    observe(tracker, [(read(truth), confidences(read(truth), 0.95))] * 6)
    truth.push(Move.parse("s:3>w"))
    observe(tracker, [None, *[(read(truth), confidences(read(truth), 0.95))] * 8], start=1.0)
    piles = {p: list(truth.codes(p)) for p in truth.pile_ids}
    piles["w"].remove(parse_code("JD"))
    piles["t1"].append(parse_code("JD"))
    after = Table(truth.game, list(piles.values()), [truth.face_down_count(p) for p in truth.pile_ids])
    moved, unread = read(after), read(truth)
    # each reading 0.45 sure as a whole (a blurred card elsewhere), the JD 0.95: the accusation waits for readings
    events = tracker.observe(3.0, None)
    for k, view in enumerate([unread, *[moved] * 11]):
        events += tracker.observe(3.1 + k / 10, view, 0.45, confidences(view, 0.95))
    accused = tuple(m for e in events if e.kind is EventKind.ILLEGAL for m in e.moves)
    assert accused == (("w-1>t1",) if dug_kept else ())


def test_the_reads_a_tracker_remembers_per_card_are_bounded() -> None:
    # a live session watches one game for hours: each still table adds its readings of every card in sight
    table = Table.dealt(find_game("klondike"), 3)
    tracker = Tracker(partial=True, check_deal=False)
    said = []
    for still in range(25):  # the whole stock turned, card by card
        view = camera_view(table)
        said += [e.moves for e in observe(tracker, [None, *[(view, confidences(view, 0.9))] * 8], start=still)]
        if still < 24:
            table.push(Move.parse("s>w"))
    assert said.count(("s>w",)) == 24
    assert max(len(reads) for reads in tracker._reads.values()) == READS_KEPT


@pytest.mark.parametrize("vote_kept", [True, False])
def test_a_table_is_not_taken_as_unchanged_while_the_vote_moved_a_card(vote_kept: bool) -> None:
    # the noisy reader (seed 1), k-illegal-2: the 6H pulled from under the 5S onto the 4D, seen there by two of the
    # first six readings (the reader drops cards), never under the 5S again. The surest readings' vote keeps it
    # under the 5S and calls the table unchanged; settled, a motion gate stops reading it, and the move is lost
    rest = {"t2": "KS", "t3": "7C", "t4": "3D", "t5": "8S", "t6": "9D"}
    before = make_table("klondike", {"t1": "4D", "t7": "6H 5S", **rest})
    after = make_table("klondike", {"t1": "4D 6H", "t7": "5S", **rest})
    dropped = make_table("klondike", {"t1": "4D", "t7": "5S", **rest})  # the 6H not read
    tracker = Tracker(partial=True, check_deal=False, vote_kept=vote_kept)
    observe(tracker, [(camera_view(before), confidences(camera_view(before)))] * 6)
    assert tracker.settled
    views = [dropped, after, dropped, dropped, after, dropped, *[after, after, dropped] * 4]
    events = tracker.observe(1.0, None)
    for k, view in enumerate(views):
        if tracker.settled:
            break  # a motion gate stops reading a still table the tracker has settled
        reading = camera_view(view)
        events += tracker.observe(1.1 + k / 10, reading, 0.9, confidences(reading))
    accused = [m for e in events if e.kind is EventKind.ILLEGAL for m in e.moves]
    assert accused == (["t7-1>t1"] if vote_kept else [])


@pytest.mark.parametrize("rule", [True, False])
def test_moves_that_keep_a_card_in_place_that_the_vote_moved_are_read_on(rule: bool) -> None:
    # the noisy reader (seed 1), heldout13's xk-illegal-1: the 3S moved illegally onto the black 5C, uncovering the
    # 2H, read there by two of the first three readings; the surest readings' vote keeps the 3S on column 6, where a
    # stock turn and the 2H played onto it explain the table legally, and the illegal move was missed
    rest = {"t1": "KD", "t2": "QC", "t3": "9H", "t4": "JD", "t7": "10S", "w": "KS", "s": "8c 7d 4h"}
    before = make_table("klondike", {"t5": "5C", "t6": "2h 3S", **rest})
    after = make_table("klondike", {"t5": "5C 3S", "t6": "2H", **rest})
    dropped = make_table("klondike", {"t5": "", "t6": "2H", **rest})  # column 5 not read
    tracker = Tracker(partial=True, check_deal=False, moved_vote_elsewhere=rule)
    observe(tracker, [(camera_view(before), confidences(camera_view(before)))] * 6)
    assert tracker.settled
    events = tracker.observe(1.0, None)
    for k, view in enumerate([after, after, dropped, after, after, dropped, after, after]):
        reading = camera_view(view)
        events += tracker.observe(1.1 + k / 10, reading, 0.9, confidences(reading))
    said = [(e.kind, e.moves) for e in events if e.kind in (EventKind.MOVE, EventKind.ILLEGAL)]
    # (with the rule off, the 3S read on column 5 later is accused as pulled from under the 2H: the wrong move)
    wrong = [(EventKind.MOVE, ("s>w", "w>t6")), (EventKind.ILLEGAL, ("t6-1>t5",))]
    assert said == ([(EventKind.ILLEGAL, ("t6>t5",))] if rule else wrong)


@pytest.mark.parametrize(
    ("second_reading", "taken_at"),
    [
        ({}, 3),  # the 3S read nowhere else: taken once the vote has its readings
        ({"t7": "10S 3S"}, 6),  # the 3S read once on column 7: more readings, until the player is asked to hold still
        ({"t5": "4D 3S"}, 3),  # read once on column 5, where the model has its twin, the 3C: a twin misread, taken
    ],
)
def test_a_move_landing_on_a_card_read_elsewhere_waits_unless_its_twin_lies_there(
    second_reading: dict[str, str], taken_at: int
) -> None:
    piles = {"t1": "KD", "t2": "QC", "t3": "9H", "t4": "JD", "t5": "4D 3C", "t7": "10S", "w": "KS"}
    before = make_table("klondike", {**piles, "t6": "3S", "s": "8c 7d 2h"})
    tracker = Tracker(partial=True, check_deal=False)
    observe(tracker, [(camera_view(before), confidences(camera_view(before)))] * 6)
    assert tracker.settled
    # the 2H turned and played onto the 3S, whose index no reading sees (a hand's shadow over it)
    seen = camera_view(make_table("klondike", {**piles, "t6": "2H", "s": "8c 7d"}))
    other = camera_view(make_table("klondike", {**piles, "t6": "2H", "s": "8c 7d", **second_reading}))
    tracker.observe(1.0, None)
    taken = None
    for k in range(1, 9):
        reading = other if k == 2 else seen
        said = [e.moves for e in tracker.observe(1.0 + k / 10, reading, 0.9, confidences(reading))]
        if ("s>w", "w>t6") in said:
            taken = k
            break
    assert taken == taken_at


def test_a_twin_read_where_the_model_has_the_card_is_folded_onto_it() -> None:
    model = make_table("klondike", {"t1": "9D 8S", "t2": "7C"})
    eight, other = parse_code("8S"), parse_code("8C")
    reading = make_table("klondike", {"t1": "9D 8C", "t2": "7C"})
    cards = {("t1", parse_code("9D")): 0.95, ("t1", other): 0.55, ("t2", parse_code("7C")): 0.95}
    folded, own = twins_folded(model, reading, cards, {("t1", other): 0.9}, 0.7, partial=True)
    assert folded.codes("t1") == (parse_code("9D"), eight)
    assert own[("t1", eight)] == 0.9
    assert ("t1", other) not in own
    # left as read: a name read sure, a twin no surer, a read card the model has elsewhere, a twin read elsewhere
    for change in (
        {"cards": {**cards, ("t1", other): 0.75}},
        {"kinds": {("t1", other): 0.5}},
        {"model": make_table("klondike", {"t1": "9D 8S", "t2": "7C", "t3": "8C"})},
        {"reading": make_table("klondike", {"t1": "9D 8C", "t2": "7C", "t3": "8S"})},
    ):
        args = {"model": model, "reading": reading, "cards": cards, "kinds": {("t1", other): 0.9}} | change
        folded, _ = twins_folded(args["model"], args["reading"], args["cards"], args["kinds"], 0.7, partial=True)
        assert folded.codes("t1") == args["reading"].codes("t1"), change


@pytest.mark.parametrize(
    ("fold_twins", "nine_read", "said"),
    [(True, 8, EventKind.ILLEGAL), (True, 2, EventKind.ILLEGAL), (False, 8, EventKind.MOVE)],
)
def test_a_black_seven_put_on_a_black_eight_whose_suit_the_reader_cannot_tell_is_announced(
    fold_twins: bool, nine_read: int, said: EventKind
) -> None:
    # k-illegal-2 (kde_penguins, enrolled): the 8 of spades was read 8S or 8C by turns, each name below
    # ``sure_card`` but "an 8 of a black suit" at 0.9; the card was doubted as unknown and the black 7 put on it
    # taken as legal. Its rank and colour, which the move is judged by, were read sure all along. Once the 7 lay
    # on it the 9 of diamonds under it was read in 2 readings of 8: partly hidden, no reason to doubt the change
    # (``Tracker._covered``).
    piles = {"s": "QD JS 10C 3C 8H", "w": "AS", "r": "KC QC JC 6C 5C", "f1": "4S", "t1": "9D 8S", "t2": "7C"}
    before = make_table("canfield", {**piles, "t3": "KD", "t4": "2H"})
    after = make_table("canfield", {**piles, "t1": "9D 8S 7C", "t2": "", "t3": "KD", "t4": "2H"})
    seen_before, seen_after = camera_view(before), camera_view(after)
    eight, other = parse_code("8S"), parse_code("8C")
    as_clubs = Table(
        seen_before.game,
        [[other if c == eight else c for c in seen_before.codes(p)] for p in seen_before.pile_ids],
        [0] * len(seen_before.pile_ids),
    )
    # once the 7 lies on it, the 8's index is not read at all (hidden, as in the recording)
    covered = Table(
        seen_after.game,
        [[c for c in seen_after.codes(p) if c != eight] for p in seen_after.pile_ids],
        [0] * len(seen_after.pile_ids),
    )
    tracker = Tracker(partial=True, check_deal=False, fold_twins=fold_twins)
    events: list[Event] = []
    t = 0.0
    for still in range(2):  # read as the 8 of spades, then as either black 8 by turns
        for k in range(8):
            table, card = (seen_before, eight) if still == 0 or k % 2 == 0 else (as_clubs, other)
            own = confidences(table, 0.95, **{str(CARDS[card]): 0.62})
            events += tracker.observe(t, table, 0.95, own, None, {("t1", card): 0.9})
            t += 0.1
        events += tracker.observe(t, None)
        t += 0.1
    assert tracker.model is not None
    assert tracker.model.codes("t1")[-1] == eight
    nine = parse_code("9D")
    unread = Table(
        covered.game,
        [[c for c in covered.codes(p) if c != nine] for p in covered.pile_ids],
        [0] * len(covered.pile_ids),
    )
    for k in range(8):
        view = covered if k < nine_read else unread
        events += tracker.observe(t, view, 0.95, confidences(view, 0.95), None, {})
        t += 0.1
    told = [e for e in events if e.kind in (EventKind.MOVE, EventKind.ILLEGAL)]
    assert [e.kind for e in told] == [said]
    assert told[0].moves == ("t2>t1",)


@pytest.mark.parametrize(
    ("fresh_on_unread", "read_before", "turns"),
    [
        (True, "9C", [("s:3>w",)]),  # the top read (as another card) before, never as the 3H: the turn is seen
        (False, "9C", []),  # (the rule off: c-legal-1's miss, the 3H taken for the unread top, the turn unsaid)
        (True, "3H", []),  # the 3H named on top before, unsure: it is the unread card, read better now
    ],
)
def test_a_card_read_sure_where_the_waste_top_went_unread_came_up_since(
    fresh_on_unread: bool, read_before: str, turns: list[tuple[str, ...]]
) -> None:
    # c-legal-1 (kde_penguins Canfield, enrolled): a turn's top card went to a foundation and the new top went
    # unread; at the next turn the 7D was read at 0.9 in every reading and taken for that unread card
    truth = _canfield("9C 8D 7S 4C 5D 10C 3H JD QS 4S 2D 6D")
    tracker = Tracker(partial=True, check_deal=False, fresh_on_unread=fresh_on_unread)
    observe(tracker, [(_waste_read(truth), confidences(_waste_read(truth), 0.95))] * 6)
    assert tracker.model is not None
    for move in ("s:3>w", "w>f1"):  # as the tracker followed them, the waste's cards unread
        truth.push(Move.parse(move))
        tracker.model.push(Move.parse(move))
    assert tracker.model.codes("w") == (UNKNOWN, UNKNOWN)
    view = _waste_read(truth)
    piles = [[parse_code(read_before)] if p == "w" else list(view.codes(p)) for p in view.pile_ids]
    misread = Table(view.game, piles, [0] * len(piles))  # the top read unsure, as another card
    events = observe(tracker, [None, *[(misread, confidences(misread, 0.95, **{read_before: 0.45}))] * 8], start=1.0)
    assert not [e for e in events if e.kind is EventKind.MOVE]
    truth.push(Move.parse("s:3>w"))
    turned = _waste_read(truth, fan=2)
    events = observe(tracker, [None, *[(turned, confidences(turned, 0.95))] * 8], start=3.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == turns
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model.codes("w")[-2:] == ((parse_code("JD"), parse_code("3H")) if turns else (UNKNOWN, UNKNOWN))


@pytest.mark.parametrize(
    ("moves", "fan", "leave_out_buried", "turns"),
    [
        ("s:3>w w>f2", "8H ?? 3C", True, [("s:3>w", "w>f2")]),  # the 4C read on column 3 is a misread
        ("s:3>w w>f2", "8H ?? 3C", False, []),  # (the rule off: the 4C taken off its foundation, unexplained)
        ("s:3>w w>f2", "8H 3C", True, [("s:3>w", "w>f2")]),  # (read side by side: the top card played at once)
        ("s:3>w", "8H ?? ?? 5C", True, [("s:3>w",)]),  # the turn, its two lower cards unread
    ],
)
def test_a_card_read_off_the_middle_of_a_foundation_is_a_misread_and_a_fans_unread_places_are_kept(
    moves: str, fan: str, leave_out_buried: bool, turns: list[tuple[str, ...]]
) -> None:
    # c-legal-1 (kde_penguins Canfield, enrolled): three cards turned, the top one (5C) played to its foundation
    # on the 4C, the 2D left unread between the waste's 8H and 3C, and column 3's KS read as the 4C at 0.5-0.6
    truth = make_table(
        "canfield",
        {
            "s": "9h 5s 5c 3c 2d",
            "w": "JC 8H",
            "r": "qd AS",
            "f1": "4H",
            "f2": "4C",
            "t1": "10D",
            "t2": "2H AC",
            "t3": "KS",
            "t4": "7C",
        },
    )
    tracker = Tracker(partial=True, check_deal=False, leave_out_buried=leave_out_buried)
    before = _waste_read(truth, fan=2)
    observe(tracker, [(before, confidences(before, 0.95))] * 6)
    assert tracker.model is not None
    for move in moves.split():
        truth.push(Move.parse(move))
    view = _waste_read(truth)
    codes = {"w": [parse_code(name) for name in fan.split()]}
    if "w>f2" in moves:
        codes["t3"] = [parse_code("4C")]
    misread = Table(view.game, [codes.get(p, list(view.codes(p))) for p in view.pile_ids], [0] * len(view.pile_ids))
    events = observe(tracker, [None, *[(misread, confidences(misread, 0.95, **{"4C": 0.55}))] * 8], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == turns
    assert EventKind.ILLEGAL not in kinds(events)
    if turns == [("s:3>w", "w>f2")]:
        assert tracker.model.codes("f2") == (parse_code("4C"), parse_code("5C"))
        assert tracker.model.codes("t3") == (parse_code("KS"),)
        assert any("5 of clubs to foundation 2" in e.text for e in events)
    if turns == [("s:3>w",)]:
        assert tracker.model.codes("w")[1:] == (parse_code("8H"), UNKNOWN, UNKNOWN, parse_code("5C"))


@pytest.mark.parametrize(
    ("fans", "want"),
    [
        (["8H ?? 3C"] * 3 + ["8H 3C"], ["8H", "??", "3C"]),  # most readings show the place between them
        (["8H ?? 3C", "8H ?? ?? 3C", "8H ?? 3C"], ["8H", "??", "3C"]),  # the most common count of places
        (["8H ?? 3C", "8H 3C", "8H 3C"], ["8H", "3C"]),  # most show them side by side
        (["8H ?? 2D 3C"] * 3, ["8H", "??", "2D", "3C"]),
    ],
)
def test_the_vote_keeps_the_places_of_a_fans_unread_cards(fans: list[str], want: list[str]) -> None:
    game = find_game("canfield")
    model = make_table("canfield", {"s": "9h 5s", "w": "JC 8H", "r": "qd AS", "f2": "4C", "t1": "10D", "t3": "KS"})
    readings = []
    for fan in fans:
        view = _waste_read(model)
        piles = [[parse_code(n) for n in fan.split()] if p == "w" else list(view.codes(p)) for p in view.pile_ids]
        readings.append((Table(game, piles, [0] * len(piles)), 0.9))
    evidence = Evidence(readings)
    seen, _ = completed(model, evidence, 2, drop_unseen=False, partial=True)
    assert [str(CARDS[c]) if c != UNKNOWN else "??" for c in face_up(seen, "w")] == want
    top_only, _ = completed(model, evidence, 2, drop_unseen=False, partial=True, fanned=False)
    assert face_up(top_only, "w") == (parse_code("3C"),)


@pytest.mark.parametrize("judged_only", [True, False])
def test_a_card_read_onto_an_unread_card_is_followed_not_accused(judged_only: bool) -> None:
    # the held-out hc-illegal-1 (kde_ancient_egyptians, plain recogniser): a queen misread earlier was read on the
    # reserve, whose top card the model held unread, and "the top card of the stock of thirteen was not read" was
    # announced as an illegal move; the engine cannot judge a move onto a card nobody read
    truth = make_table(
        "canfield",
        {"s": "9h 5s 5c", "r": "kc qc jc 6H", "f1": "4H", "t1": "7C", "t2": "2H AC", "t3": "KS", "t4": "10D"},
    )
    tracker = Tracker(partial=True, check_deal=False, judged_only=judged_only)
    view = _waste_read(truth)
    observe(tracker, [(view, confidences(view))] * 6)
    truth.push(Move.parse("r>t1"))
    view = _waste_read(truth)
    blank = Table(view.game, [[] if p == "r" else list(view.codes(p)) for p in view.pile_ids], [0] * 11)
    events = observe(tracker, [None, *[(blank, confidences(blank))] * 6], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("r>t1",)]
    assert tracker.model is not None
    assert tracker.model.codes("r")[-1] == UNKNOWN  # the reserve's new top card went unread
    codes = {"r": [parse_code("6H")], "t1": [parse_code("7C")]}
    misread = Table(view.game, [codes.get(p, list(view.codes(p))) for p in view.pile_ids], [0] * 11)
    events = observe(tracker, [None, *[(misread, confidences(misread))] * 8], start=2.0)
    assert (EventKind.ILLEGAL in kinds(events)) is not judged_only
    if judged_only:
        assert "a card I could not read has moved: I follow the table as I see it" in [e.text for e in events]
        assert tracker.model.codes("r")[-1] == parse_code("6H")  # the table followed as read


@pytest.mark.parametrize(
    ("backs_seen", "backs_under", "accused"),
    [(3, True, True), (0, True, False), (0, False, True)],  # (the rule off: accused, no back seen under the 10)
)
def test_no_accusation_rests_on_a_column_whose_face_down_cards_the_camera_does_not_see(
    backs_seen: int, backs_under: bool, accused: bool
) -> None:
    # the held-out hk-legal-1 (kde_penguins, plain recogniser): a king's run moved into an empty column with its
    # king and queen unread, the model still holding that column as a 10 on 3 face-down cards; the jack read there
    # was accused as "black jack on black 10" though no reading saw a back in the column
    deal = Table.dealt(find_game("klondike"), 3)
    assert why_illegal(deal, Move.parse("t1>t4"))  # column 1's card onto column 4's breaks a rule
    tracker = Tracker(partial=True, backs_under=backs_under)
    backs = {p: deal.face_down_count(p) for p in deal.pile_ids if p.startswith("t")}
    view = camera_view(deal)
    for n in range(6):
        tracker.observe(n / 10, view, 0.95, confidences(view), backs)
    moved = Table(
        view.game,
        [
            [] if p == "t1" else [*view.codes(p), *view.codes("t1")] if p == "t4" else list(view.codes(p))
            for p in view.pile_ids
        ],
        [0] * 13,
    )
    events = tracker.observe(1.0, None)
    for n in range(8):
        events += tracker.observe(2 + n / 10, moved, 0.95, confidences(moved), {**backs, "t4": backs_seen})
    assert (EventKind.ILLEGAL in kinds(events)) is accused


@pytest.mark.parametrize("backs_not_empty", [True, False])
def test_a_column_taken_up_blank_whose_backs_show_is_not_read_empty(backs_not_empty: bool) -> None:
    # the held-out hk-legal-1 (kde_penguins, plain recogniser): column 7's KC read in one reading of six, its 4 backs
    # in all; the game was taken up with the column empty, and the QH put on the KC was accused as "only a king may
    # fill column 7" (the lost model held face-down cards there too: ``taken_empty_doubted`` alone keeps that
    # accusation back as well, so it is off here, to see this rule alone)
    tracker = Tracker(partial=True, check_deal=False, backs_not_empty=backs_not_empty, taken_empty_doubted=False)
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    taken = make_table("klondike", {"t1": "KS", "t2": "JD", "t6": "QH"})  # column 7's king unread
    played = make_table("klondike", {"t1": "KS", "t2": "JD", "t6": "9C", "t7": "QH"})  # the queen onto the king

    def frames(table: Table, n: int, start_at: float, under_queen: int = 5) -> list[Event]:
        backs = {"t2": 1, "t6": under_queen, "t7": 4}  # the backs the camera sees
        out: list[Event] = list(tracker.observe(start_at, None))
        for k in range(n):
            out += tracker.observe(start_at + (k + 1) / 10, table, 0.9, confidences(table), backs)
        return out

    events = frames(start, 6, 0.0) + frames(taken, 8, 1.0) + frames(taken, 8, 2.0)
    assert LOST in [e.text for e in events]
    assert tracker.model is not None
    assert not tracker.model.codes("t7")  # taken up blank
    later = frames(played, 8, 3.0, 4) + frames(played, 8, 4.0, 4)
    assert (EventKind.ILLEGAL in kinds(later)) is not backs_not_empty


@pytest.mark.parametrize("twins_moved", [True, False])
def test_a_card_moved_and_read_as_its_twin_in_every_frame_is_the_card_moved(twins_moved: bool) -> None:
    # gc-legal-1 (kde_nicu_white): the 7S played from the waste onto the 8D was read as the 7C at 0.5-0.6 in every
    # frame, the 7S nowhere, and the 7C known to the model out of sight (there deep in the waste; here under the
    # 8C played onto it on its foundation): no legal move explained the table, and the game was lost at the next turn
    rest = {"s": "5h 6c", "t2": "KS", "t3": "QH", "t4": "9C", "t6": "4H", "t7": "10S"}
    tables = [
        make_table("klondike", {"w": "7S", "f1": "AC 2C 3C 4C 5C 6C 7C", "t1": "8D", "t5": "9D 8C", **rest}),
        make_table("klondike", {"w": "7S", "f1": "AC 2C 3C 4C 5C 6C 7C 8C", "t1": "8D", "t5": "9D", **rest}),
        make_table("klondike", {"f1": "AC 2C 3C 4C 5C 6C 7C 8C", "t1": "8D 7S", "t5": "9D", **rest}),
    ]
    before, played, moved = (camera_view(table) for table in tables)
    seven, other = parse_code("7S"), parse_code("7C")
    misread = Table(
        moved.game,
        [[other if c == seven else c for c in moved.codes(p)] for p in moved.pile_ids],
        [0] * len(moved.pile_ids),
    )
    tracker = Tracker(partial=True, check_deal=False, twins_moved=twins_moved)
    observe(tracker, [(before, confidences(before))] * 6)
    events = observe(tracker, [None, *[(played, confidences(played))] * 6], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("t5>f1",)]
    events = observe(tracker, [None, *[(misread, confidences(misread, **{"7C": 0.55}))] * 8], start=2.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert told == ([("w>t1",)] if twins_moved else [])
    assert EventKind.ILLEGAL not in kinds(events)


def _read_with_backs(tracker: Tracker, frames: Sequence[tuple[Table, Table] | None], start: float) -> list[Event]:
    """Each frame (the table read, the true table whose face-down cards the camera sees as backs)."""
    events: list[Event] = []
    for n, frame in enumerate(frames):
        if frame is None:
            events += tracker.observe(start + n / 10, None)
            continue
        view, table = frame
        backs = {p: table.face_down_count(p) for p in table.pile_ids if table.game.pile(p).role is Role.TABLEAU}
        events += tracker.observe(start + n / 10, view, 0.9, confidences(view), backs)
    return events


@pytest.mark.parametrize("partly", [True, False])
def test_a_deal_with_a_phantom_and_a_column_read_blank_is_taken_with_the_column_unread(partly: bool) -> None:
    # pk-legal-2 (penguins): column 4's top card unread (its backs seen) and a QC read on column 5's QH, a court
    # card's picture, in 5 readings of 8: the phantom left out, the deal is right but for the blank column (here a
    # card read on column 5's KH at 0.55)
    table = Table.dealt(find_game("klondike"), 6)
    view = camera_view(table)
    piles = {p: list(view.codes(p)) for p in view.pile_ids}
    assert str(CARDS[piles["t5"][-1]]) == "KH"  # (a court card: its picture may be read as a card)
    phantom = next(c for c in range(52) if all(c not in v for v in piles.values()))
    piles["t4"] = []
    piles["t5"].append(phantom)
    read = Table(view.game, list(piles.values()), [0] * len(piles))
    backs = {p: table.face_down_count(p) for p in table.pile_ids if table.game.pile(p).role is Role.TABLEAU}
    tracker = Tracker(partial=True, trim_partly=partly)
    events: list[Event] = []
    for n in range(8):
        events += tracker.observe(n / 10, read, 0.55, confidences(read, **{str(CARDS[phantom]): 0.55}), backs)
    assert EventKind.MISDEAL not in kinds(events)
    assert (EventKind.STILL in kinds(events)) is partly
    if partly:
        assert tracker.model is not None
        assert phantom not in tracker.model.codes("t5")
        assert any("column 4" in e.text for e in events if e.kind is EventKind.UNCLEAR)


@pytest.mark.parametrize("turned_unread", [True, False])
def test_a_card_turned_up_unread_under_a_run_moved_away_is_held_unknown_and_its_own_move_judged(
    turned_unread: bool,
) -> None:
    # hk-legal-1 (kde_penguins, enrolled): a king's run moved into a space turned up the KC on column 7, read in one
    # reading of six (its backs in all): the change went unexplained. Later the run on the KC (unread again) moved
    # into another space: the engine cannot judge a move of an unknown card, so the cards it may be are tried
    rest = {"s": "5h 6c", "t2": "9c 10D", "t3": "2c 3c QH", "t4": "4c 5c 6c 9S", "t5": "7c 8c 9h 10h JD"}
    rest |= {"t6": "jc qc kc 2d 3d 4D"}
    tables = [
        make_table("klondike", {"t1": "AH", "t7": "ad 2s 3s 4s 5s qd KS", **rest}),
        make_table("klondike", {"f1": "AH", "t7": "ad 2s 3s 4s 5s qd KS", **rest}),
        make_table("klondike", {"f1": "AH", "t1": "KS", "t7": "ad 2s 3s 4s 5s QD", **rest}),
        make_table("klondike", {"f1": "AH", "t1": "KS QD", "t7": "ad 2s 3s 4s 5S", **rest}),
    ]
    tracker = Tracker(partial=True, check_deal=False, turned_unread=turned_unread)
    told: list[tuple[str, ...]] = []
    for k, table in enumerate(tables):
        view = camera_view(table)
        if k == 2:  # the queen turned up on column 7 is not read
            view = Table(view.game, [[] if p == "t7" else list(view.codes(p)) for p in view.pile_ids], [0] * 13)
        events = _read_with_backs(tracker, [None, *[(view, table)] * 8], float(k))
        assert EventKind.ILLEGAL not in kinds(events)
        told += [e.moves for e in events if e.kind is EventKind.MOVE]
    if turned_unread:
        assert told == [("t1>f1",), ("t7>t1",), ("t7>t1",)]
        assert tracker.model is not None
        assert face_up(tracker.model, "t1") == (parse_code("KS"), parse_code("QD"))
    else:  # the king's move is lost, then found with the queen's
        assert told == [("t1>f1",), ("t7>t1", "t7>t1")]


@pytest.mark.parametrize("turned_unread", [True, False])
def test_a_card_put_on_a_card_unread_at_the_deal_turning_up_an_unread_card_is_followed(turned_unread: bool) -> None:
    # hk-legal-1 (kde_penguins, the plain recogniser): the QD of column 5 unread at the deal, the JS of column 7 put on
    # it, the KS turned up under the JS unread too: both unknown cards are needed to explain the change
    for seed in range(200):
        table = Table.dealt(find_game("klondike"), seed)
        table.stage = Stage.PLAY
        plays = [m for m in table.generate_moves() if m.src != "t1" and m.dst.startswith("t")]
        if plays:
            break
    play = plays[0]
    deal = camera_view(Table.dealt(find_game("klondike"), seed))
    table.push(play)
    after = camera_view(table)

    def unread(view: Table, *blank: str) -> Table:
        return Table(view.game, [[] if p in blank else list(view.codes(p)) for p in view.pile_ids], [0] * 13)

    before = Table.dealt(find_game("klondike"), seed)
    tracker = Tracker(partial=True, turned_unread=turned_unread)
    read = unread(deal, play.dst)
    events = _read_with_backs(tracker, [(read, before)] * 8, 0.0)
    assert EventKind.UNCLEAR in kinds(events)  # "I cannot read the card on column N"
    moved = Table(
        after.game,
        [
            [after.codes(p)[-1]] if p == play.dst else [] if p == play.src else list(after.codes(p))
            for p in after.pile_ids
        ],
        [0] * 13,
    )
    events = _read_with_backs(tracker, [None, *[(moved, table)] * 8], 1.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert told == ([(str(play),)] if turned_unread else [])
    assert EventKind.ILLEGAL not in kinds(events)


@pytest.mark.parametrize("off_unread", [True, False])
def test_a_card_unread_at_the_deal_moved_away_with_the_card_put_on_it_is_followed(off_unread: bool) -> None:
    # heldout18's dk-misdeal-1 (ancient egyptians, plain): column 1's 4D unread at the deal, the 3S put on it, then
    # both moved onto column 6's 5S, the 4D never read there either: no move of the model takes an unknown card
    for seed in range(400):
        table = Table.dealt(find_game("klondike"), seed)
        table.stage = Stage.PLAY
        onto = [m for m in table.generate_moves() if m.dst == "t1" and m.src.startswith("t")]
        if not onto:
            continue
        table.push(onto[0])
        away = [m for m in table.generate_moves() if m.src == "t1" and m.count == 2 and m.dst.startswith("t")]
        if away:
            break
    first, second = onto[0], away[0]
    dealt = Table.dealt(find_game("klondike"), seed)
    unread_card = dealt.codes("t1")[-1]

    def without(table: Table) -> Table:  # the camera's reading: the unread card never listed
        view = camera_view(table)
        return Table(view.game, [[c for c in view.codes(p) if c != unread_card] for p in view.pile_ids], [0] * 13)

    tracker = Tracker(partial=True, off_unread=off_unread)
    assert EventKind.UNCLEAR in kinds(_read_with_backs(tracker, [(without(dealt), dealt)] * 8, 0.0))
    events = _read_with_backs(tracker, [None, *[(without(table), table)] * 8], 1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [(str(first),)]
    table.push(second)
    events = _read_with_backs(tracker, [None, *[(without(table), table)] * 8], 2.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert EventKind.ILLEGAL not in kinds(events)
    assert told == ([(str(second),)] if off_unread else [])
    if off_unread:
        assert tracker.model is not None
        moved = face_up(tracker.model, second.dst)
        assert moved[-2:] == (UNKNOWN, table.codes(second.dst)[-1])  # the card stays unknown where it went
        assert not face_up(tracker.model, "t1")


@pytest.mark.parametrize("turned_last_unread", [True, False])
def test_the_last_face_down_card_of_a_column_turned_up_unread_is_held_unknown(turned_last_unread: bool) -> None:
    # heldout16's ak-legal-1 (penguins, enrolled): column 3's 2D played to its foundation turned up the column's
    # last face-down card, unread; with no back left to see, "please hold still" until the next move, and both lost.
    # Here column 2's AS (on one face-down card, the AC) played to a foundation, the AC unread
    table = Table.dealt(find_game("klondike"), 9)
    assert table.face_down_count("t2") == 1
    deal = camera_view(table)
    tracker = Tracker(partial=True, turned_last_unread=turned_last_unread)
    _read_with_backs(tracker, [(deal, table)] * 8, 0.0)
    table.stage = Stage.PLAY
    table.push(Move.parse("t2>f1"))
    after = camera_view(table)
    blank = with_piles(after, [[] if p == "t2" else list(after.codes(p)) for p in after.pile_ids])
    events = _read_with_backs(tracker, [None, *[(blank, table)] * 8], 1.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model is not None
    if turned_last_unread:
        assert told == [("t2>f1",)]
        assert face_up(tracker.model, "t2") == (UNKNOWN,)
        played = camera_view(table)  # the AC read at last: the tracker learns it, and follows its move
        table.push(Move.parse("t2>f2"))
        events = _read_with_backs(
            tracker, [None, *[(played, table)] * 8, None, *[(camera_view(table), table)] * 8], 2.0
        )
        assert [e.moves for e in events if e.kind is EventKind.MOVE] == [("t2>f2",)]
    else:
        assert told == []


@pytest.mark.parametrize("squared_deal", [True, False])
def test_a_deal_whose_foundation_card_is_misnamed_now_and_then_is_taken_before_the_first_move(
    squared_deal: bool,
) -> None:
    # hc-illegal-1 (enrolled ancient egyptians): foundation 1's 10C read as the 10D in 2 readings of 8 and a phantom
    # read over column 2 in 2 more; both named in the vote, the deal was "not clear" and waited for more readings,
    # the player moved after 8, and the deal and the moves before the game was taken up again were lost
    table = Table.dealt(find_game("canfield"), 39)
    view = camera_view(table)
    card, phantom = view.codes("f1")[-1], table.codes("s")[0]

    def reading(on_foundation: int, extra: bool = False) -> tuple[Table, dict[tuple[str, int], float]]:
        piles = [list(view.codes(p)) for p in view.pile_ids]
        piles[view.pile_ids.index("f1")] = [on_foundation]
        if extra:
            piles[view.pile_ids.index("t2")].insert(0, phantom)
        read = Table(view.game, piles, [0] * len(piles))
        return read, confidences(read, **{str(CARDS[phantom]): 0.55, str(CARDS[twin(card)]): 0.6})

    frames = [reading(card), reading(twin(card)), reading(card, True), reading(twin(card)), reading(card)]
    frames += [reading(card, True), reading(card), reading(card)]
    # (``deal_twins_one``, which takes such a deal too, off: this rule alone)
    tracker = Tracker(partial=True, squared_deal=squared_deal, deal_twins_one=False)
    events = observe(tracker, [*frames, None])
    assert (EventKind.STILL in kinds(events)) is squared_deal
    assert EventKind.MISDEAL not in kinds(events)
    if squared_deal:
        assert tracker.model is not None
        assert tracker.model.codes("f1") == (card,)


def test_a_card_taken_from_under_the_waste_top_is_named_though_a_stock_card_would_be_impossible() -> None:
    # the held-out mc-illegal-1, even with the render truth as the reader: the AD pulled from under the waste's 5D
    # onto the 7H. The engine's single illegal move was the stock's face-down top put on the 7H (as the AD, which the
    # table holds already: impossible), and passing it over skipped the card taken from under another
    rest = {"s": "2h 3h 4h", "r": "KD", "f1": "9H", "t2": "5C", "t3": "2S", "t4": "QS JH"}
    piles = {"w": "AD 5D", "t1": "8S 7H", **rest}
    before = make_table("canfield", {p: text.upper() for p, text in piles.items() if p != "s"})
    after = make_table(
        "canfield", {p: text.upper() for p, text in {**piles, "w": "5D", "t1": "8S 7H AD"}.items() if p != "s"}
    )
    tracker = Tracker(partial=True, check_deal=False)
    observe(tracker, [(before, confidences(before, 0.95))] * 6)
    assert tracker.settled
    events = observe(tracker, [None, *[(after, confidences(after, 0.95))] * 8], start=1.0)
    illegal = [e for e in events if e.kind is EventKind.ILLEGAL]
    assert [e.moves for e in illegal] == [("w-1>t1",)]
    assert "taken from under the 5 of diamonds" in illegal[0].text


@pytest.mark.parametrize("model_twins", [True, False])
def test_a_card_the_model_took_for_its_twin_is_renamed_when_the_twin_comes_up_elsewhere(model_twins: bool) -> None:
    # nk-legal-2 (kde_penguins, enrolled): column 3's 3C was read as the 3S or the 3C at 0.5-0.6 and taken for the
    # 3S; the 3S turned from the stock later, read sure on the waste beside the 3C on column 3, was accused of having
    # come off column 3 ("nothing may be put on the waste")
    rest = {"t1": "KH", "t2": "9c 10D", "t4": "4c 5c 6c 9S", "t5": "7c 8c 9h 10h JD", "t6": "jc qc kc 2d 3d 4D"}
    before = make_table("klondike", {"s": "5h 6c 3s", "t3": "2h ah 3C", "t7": "5d QS", **rest})
    after = before.copy()
    after.push(Move.parse("s>w"))
    three_c, three_s = parse_code("3C"), parse_code("3S")
    assert face_up(after, "w")[-1] == three_s
    view, later = camera_view(before), camera_view(after)
    misread = Table(
        view.game, [[three_s if c == three_c else c for c in view.codes(p)] for p in view.pile_ids], [0] * 13
    )
    tracker = Tracker(partial=True, check_deal=False, model_twins=model_twins)
    observe(tracker, [(misread, confidences(misread, **{"3S": 0.6}))] * 6)
    assert tracker.model is not None
    assert face_up(tracker.model, "t3")[-1:] == (three_s,)
    events = observe(tracker, [None, *[(later, confidences(later, **{"3C": 0.6}))] * 8], start=1.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    if model_twins:
        assert told == [("s>w",)]
        assert EventKind.ILLEGAL not in kinds(events)
        assert face_up(tracker.model, "t3")[-1:] == (three_c,)
    else:
        assert EventKind.ILLEGAL in kinds(events)


@pytest.mark.parametrize(
    ("model_twins", "moved_misread", "read", "renamed"),
    [
        (True, False, 0.75, True),
        (False, False, 0.75, False),
        # read unsure as the twin where it went, the card the model read sure is kept (heldout4's mk-legal-2, jolly
        # royal, plain: a JS read at 0.86-0.94 as a column's top, moved onto a QH under two cards, read there as
        # the JC at 0.44-0.58; taken for the JC, the real JC from the stock later could not be placed)
        (True, False, 0.55, False),
        # a card never read sure that moved, read as another where it went (``moved_misread``), twin or not
        (False, True, 0.75, True),
    ],
)
def test_a_card_the_model_took_for_its_twin_is_renamed_when_it_moves_and_is_read_as_the_twin(
    model_twins: bool, moved_misread: bool, read: float, renamed: bool
) -> None:
    # heldout3's jk-legal-2 (kde_penguins, enrolled): column 4's KS learnt as the KC at the deal, then moved into the
    # empty column 1 and read there as the KS; the 5S it uncovered, read sure in every reading, was left out as a
    # phantom and the KS taken for a card turned from the stock (and the 5S's next move for another). Here a QS
    # learnt as the QC is put on the KH
    rest = {"s": "4c 3d 9c", "f1": "AD", "t1": "KH", "t2": "6H", "t3": "9c 8D", "t5": "4S", "t6": "JH", "t7": "5d 9D"}
    before = make_table("klondike", {"t4": "jc 5s QS", **rest})
    view = camera_view(before)
    queen_s, queen_c = parse_code("QS"), parse_code("QC")
    misread = Table(
        view.game, [[queen_c if c == queen_s else c for c in view.codes(p)] for p in view.pile_ids], [0] * 13
    )
    # (``twin_gone``, which follows such a move too, off: these rules alone)
    tracker = Tracker(
        partial=True, check_deal=False, model_twins=model_twins, moved_misread=moved_misread, twin_gone=False
    )
    observe(tracker, [(misread, confidences(misread, QC=0.5))] * 6)
    assert tracker.model is not None
    assert face_up(tracker.model, "t4") == (queen_c,)
    moved = before.copy()
    moved.push(Move.parse("t4>t1"))
    later = camera_view(moved)
    events = observe(tracker, [None, *[(later, confidences(later, QS=read))] * 8], start=1.0)
    told = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert EventKind.ILLEGAL not in kinds(events)
    if model_twins or moved_misread:  # followed either way; the name the model keeps is what the rule decides
        assert told == [("t4>t1",)]
        assert face_up(tracker.model, "t1") == (parse_code("KH"), queen_s if renamed else queen_c)
        assert face_up(tracker.model, "t4") == (parse_code("5S"),)
    else:
        assert told != [("t4>t1",)]


@pytest.mark.parametrize("under_not_moved", [True, False])
def test_a_card_read_under_a_columns_top_is_no_card_moved_onto_it(under_not_moved: bool) -> None:
    # nc-misdeal-1 (kde_penguins, the plain recogniser): a game taken up midway with column 1's 3S unseen under the
    # 2H; the 3S then read as the 3C (the model's card under the 2D of column 4) under the 2H in every reading was
    # accused of having been "taken from under the 2 of diamonds"
    rest = {"s": "5h 6c", "t2": "9c 10D", "t3": "2c 3c QH", "t5": "7c 8c 9h 10h JD", "t6": "jc qc kc 2d 3d 4D"}
    rest |= {"t7": "5d QS"}
    first = camera_view(make_table("klondike", {"t1": "2H", "t4": "4c 3C 2D", **rest}))
    later = camera_view(make_table("klondike", {"t1": "3C 2H", "t4": "4c 2D", **rest}))
    tracker = Tracker(partial=True, check_deal=False, under_not_moved=under_not_moved)
    assert kinds(observe(tracker, [(first, confidences(first))] * 6)) == [EventKind.STILL]
    events = observe(tracker, [None, *[(later, confidences(later))] * 8], start=1.0)
    assert (EventKind.ILLEGAL in kinds(events)) is not under_not_moved
    if under_not_moved:
        assert kinds(events) == [EventKind.UNCLEAR]


@pytest.mark.parametrize(
    ("gap", "deal_far", "misdeal"), [(0.65, True, False), (0.65, False, True), (0.3, True, True), (0.3, False, True)]
)
def test_a_card_read_more_than_half_a_card_below_a_dealt_columns_card_is_that_cards_face(
    gap: float, deal_far: bool, misdeal: bool
) -> None:
    # nc-legal-1 (kde_ancient_egyptians, the plain recogniser): the 6D's and 7D's pips read as the 9C and 9D
    # 0.63-0.66 card heights below their indices in every frame: a false misdeal. A card dealt on the column lies a
    # cascade's step below (jc-misdeal-1: 0.32), and is a misdeal
    _, table, extra = misdealt("t2", on_top=True)
    tracker = Tracker(partial=True, deal_far=deal_far)
    events = [
        e
        for n in range(12)
        for e in tracker.observe(n / 10, table, 0.9, confidences(table), None, None, {("t2", extra): gap})
    ]
    assert bool(misdeal_texts(events)) is misdeal
    assert EventKind.STILL in kinds(events)
    assert tracker.model is not None
    assert (extra in tracker.model.codes("t2")) is misdeal


@pytest.mark.parametrize(("gap", "twins", "misdeal"), [(0.1, True, False), (0.3, True, True), (0.1, False, True)])
def test_a_card_read_as_the_twin_of_the_card_under_it_almost_in_its_place_is_that_card_read_twice(
    gap: float, twins: bool, misdeal: bool
) -> None:
    # heldout11's vk-illegal-1 (penguins): column 4's JS boxed again 16 px aside and read as the JC, 0.10 card heights
    # below it, in most readings: a false misdeal with both readers. A twin dealt on it lies a cascade's step below
    deal = camera_view(Table.dealt(find_game("klondike"), 3))
    piles = [list(deal.codes(p)) for p in deal.pile_ids]
    under = piles[deal.pile_ids.index("t2")][-1]
    held = {c for p in piles for c in p}
    extra = twin(under) if twins else next(c for c in range(52) if c not in held and c != twin(under))
    assert extra not in held
    piles[deal.pile_ids.index("t2")].append(extra)
    table = Table(deal.game, piles, [0] * len(piles))
    tracker = Tracker(partial=True)
    events = [
        e
        for n in range(12)
        for e in tracker.observe(n / 10, table, 0.9, confidences(table), None, None, {("t2", extra): gap})
    ]
    assert bool(misdeal_texts(events)) is misdeal
    assert tracker.model is not None
    assert (extra in tracker.model.codes("t2")) is misdeal


def test_a_dealt_card_read_far_below_a_phantom_read_now_and_then_above_it_stays() -> None:
    # k-illegal-2 (kde_penguins, enrolled): a 9D read above column 1's 4D in 2 readings of 6, the 4D 0.6 card
    # heights below it there: the 4D is the dealt card, and it must not be cut as a card read far below another
    deal = camera_view(Table.dealt(find_game("klondike"), 3))
    piles = [list(deal.codes(p)) for p in deal.pile_ids]
    phantom = next(code for code in range(52) if code not in {c for p in piles for c in p})
    dealt = piles[deal.pile_ids.index("t2")][-1]
    piles[deal.pile_ids.index("t2")].insert(0, phantom)
    above = Table(deal.game, piles, [0] * len(piles))
    tracker = Tracker(partial=True)
    events = []
    for n in range(12):
        if n % 4 == 1:
            own = confidences(above, **{str(CARDS[phantom]): 0.55})
            events += tracker.observe(n / 10, above, 0.55, own, None, None, {("t2", dealt): 0.6})
        else:
            events += tracker.observe(n / 10, deal, 0.9, confidences(deal), None, None, {})
    assert not misdeal_texts(events)
    assert tracker.model is not None
    assert face_up(tracker.model, "t2") == (dealt,)


@pytest.mark.parametrize("held_elsewhere", [True, False])
def test_a_card_put_into_a_column_read_with_another_columns_card_in_its_place_is_accused(held_elsewhere: bool) -> None:
    # uk-illegal-1 (ancient egyptians, plain): column 4's 4S read again in the emptied column 3's place in half the
    # readings; column 3 was never read empty, and the 2 put into it went unaccused ("only a king may fill column 3")
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    taken = make_table("klondike", {"w": "3C", "t1": "KS", "t2": "QH", "t4": "5S 4D", "t5": "JD"})
    taken_odd = make_table("klondike", {"w": "3C", "t1": "KS", "t2": "QH", "t3": "JD", "t4": "5S 4D"})
    filled = make_table("klondike", {"t1": "KS", "t2": "QH", "t3": "3C", "t4": "5S 4D", "t5": "JD"})
    filled_odd = make_table("klondike", {"t1": "KS", "t2": "QH", "t3": "3C JD", "t4": "5S 4D"})
    # (``taken_empty_doubted`` off: the lost model here, the deal's shape, held face-down cards on column 3, which
    # the game taken up has empty, and that rule alone would keep the accusation back)
    tracker = Tracker(partial=True, check_deal=False, held_elsewhere=held_elsewhere, taken_empty_doubted=False)
    frames: list[tuple[Table, CardConfidences] | None] = [(start, confidences(start))] * 6
    for _ in range(2):  # the game taken up from this table (no move explains it), the JD read on column 3 too
        frames += [None, *[(taken, confidences(taken)), (taken_odd, confidences(taken_odd, JD=0.55))] * 4]
    frames += [None, *[(filled, confidences(filled)), (filled_odd, confidences(filled_odd, JD=0.55))] * 4]
    frames += [(filled, confidences(filled))] * 4
    events = observe(tracker, frames)
    assert LOST in [e.text for e in events]
    assert tracker.model is not None
    illegal = [e for e in events if e.kind is EventKind.ILLEGAL]
    assert bool(illegal) is held_elsewhere
    if illegal:
        assert illegal[0].moves == ("w>t3",)
        assert "only a king" in illegal[0].text


@pytest.mark.parametrize("behind_unmoved", [True, False])
def test_no_accusation_after_a_card_read_unsure_where_a_move_put_it_goes_unread(behind_unmoved: bool) -> None:
    # heldout14's yk-illegal-1 (jolly royal): the 4S taken from under the waste's 3H onto column 1, read there at
    # 0.47-0.65 (too unsure to accuse); the 3H then put on it covered it, and "red 3 on black jack" was announced
    # with the 4S still in the model's waste
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    taken = make_table("klondike", {"w": "8H 4S 3H", "t1": "KS QD JC", "t2": "9C", "t3": "10D"})
    pulled = make_table("klondike", {"w": "8H 3H", "t1": "KS QD JC 4S", "t2": "9C", "t3": "10D"})
    covered = make_table("klondike", {"w": "8H", "t1": "KS QD JC 3H", "t2": "9C", "t3": "10D"})
    # (``vanished_pull`` off: it accuses the 4S seen gone from the waste's fan; this rule is for a card left unaccused)
    tracker = Tracker(partial=True, check_deal=False, behind_unmoved=behind_unmoved, vanished_pull=False)
    frames: list[tuple[Table, CardConfidences] | None] = [(start, confidences(start))] * 6
    for _ in range(2):  # the game taken up from this table (no move explains it)
        frames += [None, *[(taken, confidences(taken))] * 8]
    frames += [None, *[(pulled, confidences(pulled, **{"4S": 0.55}))] * 8]
    frames += [None, *[(covered, confidences(covered))] * 10]
    events = observe(tracker, frames)
    assert LOST in [e.text for e in events]
    assert "please hold still, I am reading the table again" in [e.text for e in events]  # the 4S: unsure
    assert (EventKind.ILLEGAL in kinds(events)) is not behind_unmoved


@pytest.mark.parametrize(
    ("fan_in_view", "reads", "taken"),
    [
        (True, 6, []),  # the turn would hide fan cards read there: read on
        (False, 6, [("s:3>w",)]),  # (the rule off: zc-legal-1's loss)
        (True, 14, [("s:3>w",)]),  # no other explanation after 12 readings: the model may be wrong, follow it
    ],
)
def test_a_change_that_buries_cards_read_in_the_waste_fan_waits_for_more_readings(
    fan_in_view: bool, reads: int, taken: list[tuple[str, ...]]
) -> None:
    # zc-legal-1 (ancient egyptians, Canfield): the waste's 4D played onto a column, read there in one reading of
    # six; the waste then read [3C 7S 2S], its 2S unread until then. A stock turn explained it (the 2S a new card),
    # which would have buried the 3C and 7S read in the fan under three cards, and the 4D was lost with the game
    truth = _canfield("9C 8D 7S 4C 5D 3C 8H AD 3H 10C QH JD 2H 10H")
    read = _waste_read
    # (with the rule off, the turn taken would later be redone by ``last_move_redone``: off too, to show the loss)
    tracker = Tracker(partial=True, check_deal=False, fan_in_view=fan_in_view, last_move_redone=fan_in_view)
    observe(tracker, [(read(truth, fan=3), confidences(read(truth, fan=3)))] * 6)
    truth.push(Move.parse("s:3>w"))
    observe(tracker, [None, *[(read(truth, fan=3), confidences(read(truth, fan=3)))] * 6], start=1.0)
    truth.push(Move.parse("s:3>w"))
    unread = read(truth, fan=3)  # the fan's middle card never read (its place seen): the model holds it unknown
    piles = [list(unread.codes(p)) for p in unread.pile_ids]
    piles[unread.pile_ids.index("w")][1] = UNKNOWN
    unread = Table(unread.game, piles, [0] * len(piles))
    observe(tracker, [None, *[(unread, confidences(unread))] * 6], start=2.0)
    assert tracker.model is not None
    assert [str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")][-3:] == ["QH", "??", "3H"]
    truth.push(Move.parse("w>t1"))  # the 3H onto the 4S, read there by no reading
    played = read(truth, fan=3)
    piles = [list(played.codes(p)) for p in played.pile_ids]
    piles[played.pile_ids.index("t1")] = [parse_code("4S")]
    missed = Table(played.game, piles, [0] * len(piles))
    events = observe(tracker, [None, *[(missed, confidences(missed))] * reads], start=3.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == taken
    assert EventKind.ILLEGAL not in kinds(events)
    if reads > 6:
        return
    truth.push(Move.parse("s:3>w"))
    events = observe(tracker, [None, *[(read(truth, fan=3), confidences(read(truth, fan=3)))] * 6], start=5.0)
    said = [e.moves for e in events if e.kind is EventKind.MOVE]
    if fan_in_view:  # the play and the turn, once the 3H is read on its column
        assert said == [("w>t1", "s:3>w")]
        assert [str(CARDS[c]) for c in tracker.model.codes("t1")] == ["4S", "3H"]
    else:
        assert ("w>t1", "s:3>w") not in said


@pytest.mark.parametrize(
    ("taken_empty_doubted", "eight_now", "accused"),
    [
        (True, None, []),  # the 8D the lost game had on column 1 is read nowhere now: it may lie there unread
        (False, None, [("t5>t1",)]),  # (the rule off: ak-legal-1's false alarm)
        (True, "9S 8D", [("t5>t1",)]),  # the 8D now on column 6: column 1 was emptied by the moves missed
    ],
)
def test_a_column_taken_up_empty_where_a_card_may_lie_unread_backs_no_accusation(
    taken_empty_doubted: bool, eight_now: str | None, accused: list[tuple[str, ...]]
) -> None:
    # ak-legal-1 (penguins, enrolled): the game lost and taken up again with column 4's 8D, face up alone, unread; the
    # black 7 the player put on it read as a 7 put into an empty column: "only a king may fill column 4"
    def klondike(piles: dict[str, str], down: int) -> Table:
        """The camera's view of a Klondike table whose column 5 has ``down`` face-down cards."""
        table = make_table("klondike", piles)
        counts = [down if p == "t5" else 0 for p in table.pile_ids]
        return camera_view(Table(table.game, [list(table.codes(p)) for p in table.pile_ids], counts))

    start = make_table("klondike", {"t1": "8D", "t2": "6H", "t3": "7C"})  # (column 1 is dealt no face-down card)
    elsewhere = {} if eight_now is None else {"t6": eight_now}
    taken = klondike({"t2": "QH", "t3": "KS", "t5": "2C 5C 7C", **elsewhere}, 2)
    played = klondike({"t1": "7C", "t2": "QH", "t3": "KS", "t5": "2C 5C", **elsewhere}, 1)  # the 5C turned up
    tracker = Tracker(partial=True, check_deal=False, taken_empty_doubted=taken_empty_doubted)
    events = observe(tracker, _taken_up_then(start, taken, (played, confidences(played))))
    assert LOST in [e.text for e in events]
    assert [e.moves for e in events if e.kind is EventKind.ILLEGAL] == accused


@pytest.mark.parametrize(
    ("fan_strays", "said", "waste"),
    [
        (True, [("s:3>w",)], "10H 2H JD QH 10C 3H"),
        (False, [("s:3>w", "s:3>w")], "10H 2H JD ?? ?? QH 10C ?? 3H"),  # (a turn made up, the KD's place kept)
    ],
)
def test_a_card_held_on_a_column_read_in_the_waste_fan_is_no_unread_card_of_the_fan(
    fan_strays: bool, said: list[tuple[str, ...]], waste: str
) -> None:
    # yk-legal-1 (ancient egyptians, enrolled): column 3's KS, its backs unseen, read between the waste's 7D and the
    # 9H just turned onto it; the vote kept its place as an unread card of the fan, a second turn was made up, and
    # the game was lost two changes later. Here column 3's KD is read in the fan of the three cards just turned
    truth = _canfield("9C 8D 7S 4C 5D 3C 8H AD 3H 10C QH JD 2H 10H")
    tracker = Tracker(partial=True, check_deal=False, fan_strays=fan_strays)
    view = _waste_read(truth, fan=3)
    observe(tracker, [(view, confidences(view))] * 6)
    truth.push(Move.parse("s:3>w"))
    view = _waste_read(truth, fan=3)
    observe(tracker, [None, *[(view, confidences(view))] * 6], start=1.0)
    truth.push(Move.parse("s:3>w"))
    view = _waste_read(truth, fan=3)
    piles = [list(view.codes(p)) for p in view.pile_ids]
    piles[view.pile_ids.index("w")].insert(2, parse_code("KD"))  # between the 10C and the 3H, less sure
    stray = Table(view.game, piles, [0] * len(piles))
    own = {**confidences(stray), ("w", parse_code("KD")): 0.5}
    events = observe(tracker, [None, *[(stray, own), (view, confidences(view))] * 4], start=2.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == said
    assert tracker.model is not None
    assert " ".join(str(CARDS[c]) if c != UNKNOWN else "??" for c in tracker.model.codes("w")) == waste


@pytest.mark.parametrize(
    ("rule", "fourth", "accused"),
    [
        (True, "s", False),  # the 4H held nowhere: the player may have put it on the 3H first, unread
        (False, "s", True),  # (the rule off: heldout17's bc-legal-1, "black king on black jack")
        (True, "t3", True),  # the 4H read on column 3: nothing fills the gap, the 5H skipped a rank
    ],
)
def test_no_card_is_called_put_on_a_card_a_card_never_read_may_have_been_put_on_first(
    rule: bool, fourth: str, accused: bool
) -> None:
    piles = {"t1": "KC", "t3": "9S", "f1": "AH 2H 3H", "f2": "AD", "s": "7c 3d 9c"}
    piles[fourth] = {"s": "4h 3d 9c", "t3": "9S 4H"}[fourth]
    start = camera_view(make_table("klondike", {"t2": "6S 5H", **piles}))
    end = camera_view(make_table("klondike", {"t2": "6S", **piles, "f1": "AH 2H 3H 5H"}))
    tracker = Tracker(check_deal=False, gap_unread=rule)
    illegal = _accusations(tracker, start, end)
    assert illegal == ([("t2>f1",)] if accused else [])


@pytest.mark.parametrize(
    ("model", "move", "readings", "one_card"),
    [
        # bc-legal-1 (penguins, enrolled): the waste's 5C read as the 5S by turns, the model held both; the "run"
        # put on the 6H, then the "5S" put on the 5C, read by turns as one card
        (
            {"w": "2D 5C 5S", "t1": "KC 6H"},
            "w:2>t1",
            [{"w": "2D", "t1": "KC 6H 5C"}, {"w": "2D", "t1": "KC 6H 5S"}],
            True,
        ),
        (
            {"w": "2D 5S", "t1": "KC 6H 5C"},
            "w>t1",
            [{"w": "2D", "t1": "KC 6H 5C"}, {"w": "2D", "t1": "KC 6H 5S"}],
            True,
        ),
        # both read at once are two cards: k-illegal-3's injected black jack put on the other
        ({"t1": "JS", "t7": "KD QH JC"}, "t1>t7", [{"t1": "", "t7": "KD QH JC JS"}], False),
        ({"w": "2D 5C 5S", "t1": "KC 6H"}, "w:2>t1", [{"w": "2D", "t1": "KC 6H 5C 5S"}], False),
        ({"w": "2D 4S", "t1": "KC 6H 5C"}, "w>t1", [{"w": "2D", "t1": "KC 6H 5C 4S"}], False),  # no twins at all
    ],
)
def test_a_run_or_a_card_on_a_card_the_reader_names_both_ways_is_one_card(
    model: dict[str, str], move: str, readings: list[dict[str, str]], one_card: bool
) -> None:
    from cadogan.tracker import _twins_in_run

    table = make_table("klondike", {"s": "4c 3d 9c", **model})
    after = [make_table("klondike", {"s": "4c 3d 9c", **model, **piles}) for piles in readings]
    evidence = Evidence([(reading, 0.9) for reading in after * 3])
    assert _twins_in_run(table, move, evidence) is one_card


@pytest.mark.parametrize("under_not_moved", [True, False])
def test_a_card_read_under_a_columns_top_with_a_stock_turn_beside_is_no_card_moved_onto_it(
    under_not_moved: bool,
) -> None:
    # xk-legal-2 (kde_penguins, enrolled): column 3's 5S read as the 2C under the 4D in every reading, column 2's 2C
    # unread, while the stock was turned: "black 2 on red 4", found with the stock turn after it
    rest = {"t1": "5C 4H", "t4": "qc 8C 7H", "f1": "AH", "f2": "AD"}
    first = make_table("klondike", {"t2": "2C", "t3": "kc qd 5S 4D", "w": "3D 4S", "s": "9s jd", **rest})
    later = make_table("klondike", {"t3": "kc qd 2C 4D", "w": "3D 4S JD", "s": "9s", **rest})
    tracker = Tracker(check_deal=False, under_not_moved=under_not_moved)
    observe(tracker, [(first, confidences(first))] * 12)
    events = observe(tracker, [None, *[(later, confidences(later))] * 8], start=2.0)
    illegal = [e.moves for e in events if e.kind is EventKind.ILLEGAL]
    assert illegal == ([] if under_not_moved else [("t2>t3",)])


@pytest.mark.parametrize(
    ("top", "elsewhere", "seen", "filled"),
    [
        ("2H", {}, "", True),  # the AH held nowhere, never read: it may have gone there first, unread (hc-illegal-1)
        ("2H", {"t3": "AH"}, "", False),  # the AH on column 3: nothing fills the empty foundation
        ("2H", {}, "AH", False),  # a reading saw the AH: it would have been read on the foundation too
        ("3H", {}, "", True),  # the AH and the 2H, two cards unread
        ("4H", {}, "", False),  # three: too many to have gone unread
        ("2S", {}, "", True),  # (the AS, as the 2H's AH)
    ],
)
def test_an_empty_foundations_first_card_may_be_the_one_unread(
    top: str, elsewhere: dict[str, str], seen: str, filled: bool
) -> None:
    from cadogan.tracker import _gap_filled

    table = make_table("klondike", {"t2": f"6S {top}", "s": "7c 3d 9c", **elsewhere})
    assert _gap_filled(table, "t2>f1", {parse_code(seen)} if seen else set()) is filled


@pytest.mark.parametrize(
    ("waste", "move", "unread"),
    [
        ("2D ?? KC", "w:2>f1", True),  # bc-legal-1: the QC played unread before the KC, one at a time
        ("2D QC KC", "w:2>f1", False),  # both read: several cards put at once is the player's doing
        ("2D ?? KC", "w>f1", False),  # one card: judged as it is
        ("2D ?? KC", "w:2>t1", False),  # onto a column, where a card put shows its index
    ],
)
def test_several_cards_put_on_a_foundation_some_unread_are_no_accusation(waste: str, move: str, unread: bool) -> None:
    from cadogan.tracker import _unread_onto_foundation

    table = make_table("klondike", {"w": waste, "f1": "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC", "s": "7c 3d"})
    assert _unread_onto_foundation(table, Move.parse(move)) is unread


@pytest.mark.parametrize(
    ("rule", "top", "accused"),
    [
        (True, "2D", False),  # the waste's 2D went to the 3S, read there as its twin the 2H (nc-misdeal-1)
        (False, "2D", True),  # (the rule off: "the 2 of hearts was taken from under another card")
        (True, "9D", True),  # a top that is no twin of the card taken: taken from under, as read
    ],
)
def test_a_card_taken_from_under_its_twin_that_could_have_gone_is_the_twin_read_wrong(
    rule: bool, top: str, accused: bool
) -> None:
    piles = {"t1": "3S", "t2": "KC", "s": "7c 3d 9c"}
    start = make_table("klondike", {"w": f"2H 5C {top}", **piles})  # (the waste's fan read whole)
    end = make_table("klondike", {"w": f"5C {top}", **piles, "t1": "3S 2H"})
    tracker = Tracker(check_deal=False, twin_would_do=rule)
    illegal = _accusations(tracker, start, end)
    assert illegal == ([("w-2>t1",)] if accused else [])


@pytest.mark.parametrize(
    ("rule", "twin_on", "accused"),
    [
        (True, "", False),  # the JS held nowhere: the JS came up and was read as the JC (qc-legal-1)
        (False, "", True),  # (the rule off: "cards may not be taken from foundation 1")
        (True, "t3", True),  # the JS held on column 3: the JC itself left the foundation
    ],
)
def test_a_card_said_taken_off_a_foundation_whose_twin_is_unseen_is_no_accusation(
    rule: bool, twin_on: str, accused: bool
) -> None:
    piles = {"r": "4d 9s 2H", "t1": "QH", "t2": "5S", "t3": "8D 7C", "t4": "3C", "s": "6d 5d 4h"}
    if twin_on:
        piles[twin_on] = "KD QS JS"
    start = make_table("canfield", {**piles, "f1": "10C JC"})
    end = make_table("canfield", {**piles, "f1": "10C", "t1": "QH JC"})
    tracker = Tracker(check_deal=False, dug_twin_unseen=rule)
    illegal = _accusations(tracker, start, end)
    assert illegal == ([("f1>t1",)] if accused else [])


def _waste_top_only(table: Table, unread: str = "") -> Table:
    """The camera's reading of ``table`` with the waste's top card alone read, and pile ``unread`` read empty."""
    view = camera_view(table)
    piles = [
        list(view.codes(p))[-1:] if p == "w" else [] if p == unread else list(view.codes(p)) for p in view.pile_ids
    ]
    return Table(view.game, piles, [0] * len(piles), passes=view.passes)


@pytest.mark.parametrize(
    ("rule", "unread", "then", "events"),
    [
        # heldout14's yc-misdeal-1 (noisy reader): the JS played to the empty foundation 4 and read nowhere, the
        # cards under it in the waste never read, looked like a stock turn; the QS put on it then looked illegal
        (True, "f4", "t1>f4", [(EventKind.MOVE, ("w>f4", "t1>f4"))]),
        (False, "f4", "t1>f4", [(EventKind.ILLEGAL, ("t1>f4",))]),
        # the JS read on the foundation: the last move was read right, and a mistake after it is still the player's
        (True, "", "t4>t1", [(EventKind.ILLEGAL, ("t4>t1",))]),
        (True, "", "t3>t2", [(EventKind.ILLEGAL, ("t3>t2",))]),
    ],
)
def test_a_change_only_legal_from_before_the_last_move_shows_that_move_misread(
    rule: bool, unread: str, then: str, events: list[tuple[EventKind, tuple[str, ...]]]
) -> None:
    piles = {"r": "4d 9s 2H", "f1": "JH", "f2": "JD", "f3": "JC", "t1": "KH QS", "t2": "4S 3D", "t3": "AS", "t4": "7S"}
    start = make_table("canfield", {**piles, "w": "9C", "s": "6d 5d 4h 8h 2d js kc 7c"})
    tracker = Tracker(partial=True, check_deal=False, last_move_redone=rule)
    turned = start.copy()
    turned.push(Move.parse("s:3>w"))  # the JS on top, the two cards under it unread
    played = turned.copy()
    played.push(Move.parse("w>f4"))
    after = played.copy()
    after.push(Move.parse(then))
    readings = [
        _waste_top_only(start),
        _waste_top_only(turned),
        _waste_top_only(played, unread),
        _waste_top_only(after),
    ]
    said, everything = [], []
    for n, reading in enumerate(readings):
        found = observe(tracker, [None, *[(reading, confidences(reading))] * 8], start=2.0 * n)
        said.append([(e.kind, e.moves) for e in found if e.kind is not EventKind.STILL])
        everything += found
    taken = ("s:3>w",) if unread else ("w>f4",)  # (misread, a stock turn)
    assert said[1:3] == [[(EventKind.MOVE, ("s:3>w",))], [(EventKind.MOVE, taken)]]
    assert said[3] == events
    # the misread move is taken back: the verdict lists the moves made, and a note says what was misread
    redone = rule and bool(unread)
    assert [e.retracts for e in everything if e.kind is EventKind.MOVE][-1] == (("s:3>w",) if redone else ())
    verdict = from_events(everything, tracker.model)
    misread = [note for note in verdict.notes if "misread" in note]
    if redone:
        assert [e.move for e in verdict.moves] == ["s:3>w", "w>f4", then]
        assert len(misread) == 1
        assert misread[0].startswith("s:3>w at 00:04")
        assert "taken back at 00:06" in misread[0]
    else:
        assert [e.move for e in verdict.moves] == ["s:3>w", *taken, *[m for _, moves in events for m in moves]]
        assert not misread


@pytest.mark.parametrize(
    ("read", "above"),
    [
        ("10H 4C", {"4C": 1}),  # a card on the top card: a move the tracker has not followed put it there
        ("9S 10H 4C 3H", {"4C": 1, "3H": 1}),  # (read with a card too many under the top: only those on it count)
        ("10H", {}),  # the top card alone
        ("4C", {}),  # the top card unread: nothing is known to lie on it
        ("", {}),
    ],
)
def test_cards_read_on_a_piles_top_card_are_counted_until_the_pile_changes(read: str, above: dict[str, int]) -> None:
    model = make_table("klondike", {"t1": "KS QD JC 10H", "t2": "KD", "s": "7c 3d"})
    tracker = Tracker(check_deal=False)
    tracker._count_read_above(model, make_table("klondike", {"t1": read, "t2": "KD"}))
    assert dict(tracker._read_above.get("t1", {})) == {parse_code(name): n for name, n in above.items()}
    changed = make_table("klondike", {"t1": "KS QD JC", "t2": "KD", "s": "7c 3d 10h"})
    tracker._moved(model, changed)  # the tracker followed a move that changed column 1: the count starts again
    assert "t1" not in tracker._read_above


@pytest.mark.parametrize(
    ("rule", "column_3", "accused"),
    [
        # heldout11's vc-illegal-1 (plain reader): a card read weakly on column 1's 10H and followed by no move, then
        # unread under the 3H put on it: "red 3 on red 10" would rest on a move the tracker missed
        (True, "9S", False),
        (False, "9S", True),  # (the rule off)
        (True, "5D 4C", True),  # the 4C held on column 3: a card of the next pile read in this one (nk-illegal-1)
    ],
)
def test_no_accusation_rests_on_a_pile_where_an_unfollowed_card_was_read_on_top(
    rule: bool, column_3: str, accused: bool
) -> None:
    tracker = Tracker(check_deal=False, read_above_doubted=rule)
    piles = {"t3": column_3, "f1": "AC 2C 3C", "s": "7c 3d 9c"}
    tables = [
        (make_table("klondike", {**piles, "t1": "10H", "t4": "5S 3H", "w": "QC", "t2": "KD"}), {}),
        (make_table("klondike", {**piles, "t1": "10H 4C", "t4": "5S 3H", "w": "QC", "t2": "KD"}), {"4C": 0.45}),
        (make_table("klondike", {**piles, "t1": "10H", "t4": "5S 3H", "t2": "KD QC"}), {}),  # (the 4C unread now)
        (make_table("klondike", {**piles, "t1": "10H 3H", "t4": "5S", "t2": "KD QC"}), {}),
    ]
    said = []
    for n, (table, unsure) in enumerate(tables):
        found = observe(tracker, [None, *[(table, confidences(table, **unsure))] * 8], start=2.0 * n)
        said.append([(e.kind, e.moves) for e in found if e.kind is not EventKind.STILL])
    assert said[2] == [(EventKind.MOVE, ("w>t2",))]
    assert ((EventKind.ILLEGAL, ("t4>t1",)) in said[3]) is accused


def _ace_on_a_column() -> tuple[Table, Move]:
    """A Klondike deal whose ace lies on a column over face-down cards, with the move of it to a foundation: the
    ace's 2 and 3 lie face down or in the stock, so a chain of them turned up and played could follow it."""
    for seed in range(200):
        table = Table.dealt(find_game("klondike"), seed)
        table.stage = Stage.PLAY
        for move in table.generate_moves():
            card = table.codes(move.src)[-1]
            if (
                move.dst.startswith("f")
                and table.face_down_count(move.src) >= 3
                and CARDS[card].rank == 1
                and all(CARDS[c].rank not in (2, 3) or CARDS[c].suit != CARDS[card].suit for c in _face_up_codes(table))
            ):
                return table, move
    raise AssertionError("no deal with an ace to play from a deep column")


def _face_up_codes(table: Table) -> list[int]:
    return [c for p in table.pile_ids for c in table.codes(p)[table.face_down_count(p) :]]


@pytest.mark.parametrize("foundation_jump_doubted", [True, False])
def test_an_ace_played_and_read_as_its_3_on_the_foundation_is_one_move_not_three(foundation_jump_doubted: bool) -> None:
    # heldout2's gk-legal-2 (ancient egyptians, enrolled): the AH played to a foundation and read there as the 3H
    # at 0.59-0.76; the reader fills a foundation from its top card, so the vote saw AH 2H 3H there, followed as
    # a chain of column 5's face-down cards turned up and played in one change, and the game lost later
    table, move = _ace_on_a_column()
    ace = table.codes(move.src)[-1]
    three, two = ace + 2, ace + 1  # (a suit's codes run ace to king)
    before = camera_view(table)
    table.push(move)
    after = camera_view(table)
    misread = Table(
        after.game, [[ace, two, three] if p == move.dst else list(after.codes(p)) for p in after.pile_ids], [0] * 13
    )
    own = confidences(misread)
    del own[(move.dst, ace)], own[(move.dst, two)]  # the rules imply them: the reader gives no confidence of theirs
    own[(move.dst, three)] = 0.75
    tracker = Tracker(partial=True, foundation_jump_doubted=foundation_jump_doubted)
    observe(tracker, [(before, confidences(before))] * 6)
    events = observe(tracker, [None, *[(misread, own)] * 8], start=1.0)
    moves = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert tracker.model is not None
    if foundation_jump_doubted:
        assert moves == [(str(move),)]
        assert tracker.model.codes(move.dst) == (ace,)
    else:
        assert moves == [(str(move),) * 3]
        assert tracker.model.codes(move.dst) == (ace, two, three)
    # read sure, the same chain is followed as read
    sure = Tracker(partial=True, foundation_jump_doubted=foundation_jump_doubted)
    observe(sure, [(before, confidences(before))] * 6)
    own[(move.dst, three)] = 0.95
    events = observe(sure, [None, *[(misread, own)] * 8], start=1.0)
    assert [e.moves for e in events if e.kind is EventKind.MOVE] == [(str(move),) * 3]


@pytest.mark.parametrize("unconfirmed_misread", [True, False])
def test_a_deal_card_read_once_as_another_is_learnt_as_the_card_read_since(unconfirmed_misread: bool) -> None:
    # heldout16's ak-legal-1 (penguins, enrolled): column 7's 5S taken at the deal from one reading at 0.54 as the
    # 6S, read as the 5S (now and then as its twin) ever since; a move ten changes later went unexplained. Here
    # column 7's KS, read once as the AH and blank otherwise, then read as the KS (twice as the KC): moved into the
    # emptied column 1, it was taken for a stock card turned and played from the waste
    table = Table.dealt(find_game("klondike"), 5)
    deal = camera_view(table)
    king = deal.codes("t7")[-1]
    once = with_card(deal, "t7", 0, parse_code("AH"))
    blank = with_piles(deal, [[] if p == "t7" else list(deal.codes(p)) for p in deal.pile_ids])
    frames: list[tuple[Table, CardConfidences] | None] = [(once, confidences(once, AH=0.54))]
    frames += [*[(blank, confidences(blank))] * 5, None]
    table.stage = Stage.PLAY
    table.push(Move.parse("t1>f1"))
    played = camera_view(table)
    twin_read = with_card(played, "t7", 0, twin(king))
    frames += [*([(played, confidences(played))] * 3 + [(twin_read, confidences(twin_read))]) * 2, None]
    table.push(Move.parse("t7>t1"))
    frames += [*[(camera_view(table), confidences(camera_view(table)))] * 8]
    # (``moved_misread`` off: it follows the move as well, by the card that moved)
    tracker = Tracker(partial=True, unconfirmed_misread=unconfirmed_misread, moved_misread=False)
    events = observe(tracker, frames)
    said = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert tracker.model is not None
    assert EventKind.ILLEGAL not in kinds(events)
    if unconfirmed_misread:
        assert said == [("t1>f1",), ("t7>t1",)]
        assert face_up(tracker.model, "t1") == (king,)
    else:
        assert said == [("t1>f1",), ("s>w", "w>t1")]  # (the AH kept on column 7, the king "from the stock")


@pytest.mark.parametrize("leave_out_read_between", [True, False])
def test_a_card_the_model_holds_read_unsure_on_another_pile_is_left_out_when_no_move_explains_it(
    leave_out_read_between: bool,
) -> None:
    # heldout18's dc-legal-1 (ancient egyptians, enrolled): the waste's 8D, in the fan's view, read there as the 2C
    # and read in column 1 between the 9D and the 8S at 0.55-0.65 in every reading; the JD played from the waste to a
    # foundation went unexplained (the 8D taken from under the waste's top is no legal move) and the game was lost
    # (here a column's 8D under a 7C, read in column 1 and not under the 7C)
    start = make_table("klondike", {"t1": "5S", "t2": "6H", "t3": "7C"})
    before = make_table("klondike", {"t1": "7D", "t2": "9D 8S", "t3": "KC", "t4": "8D 7C"})
    played = make_table("klondike", {"t2": "9D 8S 7D", "t3": "KC", "t4": "8D 7C"})
    seen = make_table("klondike", {"t2": "9D 8D 8S 7D", "t3": "KC", "t4": "7C"})
    tracker = Tracker(partial=True, check_deal=False, leave_out_read_between=leave_out_read_between)
    frames = _taken_up_then(start, before, (seen, confidences(seen, **{"8D": 0.6})))
    events = observe(tracker, [*frames, *[(seen, confidences(seen, **{"8D": 0.6}))] * 4])
    moves = [e.moves for e in events if e.kind is EventKind.MOVE]
    assert tracker.model is not None
    assert EventKind.ILLEGAL not in kinds(events)
    if leave_out_read_between:
        assert moves == [("t1>t2",)]
        assert face_up(tracker.model, "t2") == played.codes("t2")
        assert face_up(tracker.model, "t4") == played.codes("t4")
    else:
        assert not moves


@pytest.mark.parametrize(
    ("sure_unchanged_doubted", "in_place_by_turns", "instead", "followed"),
    [
        (True, False, True, True),
        (False, False, True, False),
        (True, False, False, False),
        (False, True, True, True),
        (False, True, False, False),
    ],
)
def test_a_turn_whose_card_is_read_unsure_is_followed_though_a_column_card_is_misread_beside_it(
    sure_unchanged_doubted: bool, in_place_by_turns: bool, instead: bool, followed: bool
) -> None:
    # heldout3's jk-legal-2 (penguins, enrolled): the turned KD read in 4 readings of 6 at 0.54-0.69, column 1's 8D
    # read as the 3D in 3 of them at 0.47-0.60: no move explains the whole vote, the sure cards show no change. A
    # card read on top of the column's card, not instead of it, may be a card put there: not left out
    # (heldout15's zc-legal-1). A card read by turns in the column card's very place is that card read wrong
    # (``in_place_by_turns``): either rule follows the turn
    deal, after, turned = dealt_and_turned()
    hidden = {c for p in after.pile_ids for c in after.codes(p)}
    phantom = str(CARDS[next(c for c in range(52) if c not in hidden and c != parse_code(turned))])
    t1 = after.pile_ids.index("t1")

    def read(turn: bool, misread: float = 0.0) -> tuple[Table, CardConfidences]:
        piles = [list(after.codes(p)) for p in after.pile_ids]
        if not turn:
            piles[after.pile_ids.index("w")].pop()
        if misread:
            piles[t1] = [*piles[t1][:-1], parse_code(phantom)] if instead else [*piles[t1], parse_code(phantom)]
        table = Table(after.game, piles, [0] * len(piles))
        return table, confidences(table, **{turned: 0.6, phantom: misread})

    tracker = Tracker(partial=True, sure_unchanged_doubted=sure_unchanged_doubted, in_place_by_turns=in_place_by_turns)
    assert kinds(observe(tracker, [(deal, confidences(deal))] * 6)) == [EventKind.STILL]
    # the turned card on top in too few readings to be sure of the turn until the sixth, when the misread joins the
    # vote (one reading of it at 0.5 or more)
    frames = [read(True), read(False, 0.45), read(True), read(False), read(False, 0.45), read(True, 0.6)]
    events = observe(tracker, [None, *frames, None], start=1.0)
    said = [m for e in events if e.kind is EventKind.MOVE for m in e.moves]
    assert said == (["s>w"] if followed else [])
    assert EventKind.ILLEGAL not in kinds(events)


@pytest.mark.parametrize("phantom", [False, True])
@pytest.mark.parametrize("new_twins_one", [True, False])
def test_a_turned_card_read_as_itself_and_its_twin_by_turns_is_one_card(new_twins_one: bool, phantom: bool) -> None:
    # heldout17's bc-legal-1 (penguins, enrolled): three cards turned, the lowest unread, the top 5S read as the 5C
    # in 3 readings and as the 5S in 2, never together: the waste took both (three new cards, one turn's worth),
    # and the game was lost when the 5S was played and the 5C stayed on the waste where the next card showed.
    # ``phantom``: a card that fits nowhere read unsure (0.6) on a column too (heldout14's yc-illegal-1, penguins
    # Canfield: the JC over the JS), so that only the vote of the cards read sure (0.7) explains the table: that vote
    # keeps the twins read as one card (it was taken anew from the readings: both twins again); and once one twin is
    # on the waste, readings of the other are that card too (``held_twin_one``), not another turn
    def turned(seed: int) -> tuple[Table, Table]:
        table = Table.dealt(find_game("klondike/draw3"), seed)
        deal = camera_view(table)
        table.push(Move.parse("s:3>w"))
        return deal, table

    # a deal whose turned top card's twin lies unseen
    deal, table = next((d, t) for d, t in map(turned, range(20)) if twin(t.codes("w")[-1]) not in _held(camera_view(t)))
    after = camera_view(table)
    lowest, middle, top = table.codes("w")[-3:]
    w = after.pile_ids.index("w")

    column = "t1"
    # a card the table shows nowhere and the turn did not bring, of the colour of column 1's top: it fits nowhere
    stray = next(
        c
        for c in full_deck()
        if c not in _held(after)
        and c not in table.codes("w")
        and twin(c) != top
        and RED_OF[c] == RED_OF[after.codes(column)[-1]]
    )

    def read(as_twin: bool | None) -> tuple[Table, CardConfidences]:
        piles = [list(after.codes(p)) for p in after.pile_ids]
        piles[w] = [middle] + ([] if as_twin is None else [twin(top) if as_twin else top])
        if phantom:
            piles[after.pile_ids.index(column)].append(stray)
        shown = Table(after.game, piles, [0] * len(piles))
        return shown, confidences(shown, **({str(CARDS[stray]): 0.6} if phantom else {}))

    tracker = Tracker(partial=True, new_twins_one=new_twins_one, held_twin_one=new_twins_one)
    assert kinds(observe(tracker, [(deal, confidences(deal))] * 6)) == [EventKind.STILL]
    # (hands over the cards after the fifth reading; with the phantom, the eighth: it is left out after six)
    frames = [read(False), read(True), read(True), read(False), read(True)]
    if phantom:
        frames += [read(True), read(True), read(False)]
    events = observe(tracker, [None, *frames, None], start=1.0)
    said = [m for e in events if e.kind is EventKind.MOVE for m in e.moves]
    assert said == ["s:3>w"]
    assert tracker.model is not None
    waste = tracker.model.codes("w")
    assert lowest not in waste
    # one card read both ways: the name most readings gave it (the twin), and the lowest card left unread
    assert waste == ((UNKNOWN, middle, twin(top)) if new_twins_one else (middle, top, twin(top)))


@pytest.mark.parametrize("in_place_by_turns", [True, False])
def test_a_column_card_read_by_turns_as_a_card_held_nowhere_is_the_card_in_place(in_place_by_turns: bool) -> None:
    # heldout14's yc-illegal-1 (penguins Canfield, enrolled): column 4's 9D read as the 8D in 7 readings of 11, as
    # itself in the others, never both: the vote stacked both, and the mistake beside it (a card pulled from under
    # the waste's top) was no one illegal move of that vote: "please hold still", the mistake unflagged. Here a
    # column's top put on a column it does not fit, beside column 7's top read by turns as a card held nowhere
    table = Table.dealt(find_game("klondike"), 3)
    deal = camera_view(table)
    column = "t7"
    # (column 1's only card: nothing is turned up under it)
    wrong = next(m for dst in ("t2", "t3", "t4", "t5", "t6") if not table.is_legal(m := Move.parse(f"t1>{dst}")))
    piles = {p: list(deal.codes(p)) for p in deal.pile_ids}
    piles[wrong.dst].append(piles[wrong.src].pop())
    after = with_piles(deal, list(piles.values()))
    mine = after.codes(column)[-1]
    other = next(c for c in full_deck() if c not in _held(after) and c != twin(mine) and RED_OF[c] == RED_OF[mine])
    misread = with_card(after, column, len(after.codes(column)) - 1, other)
    tracker = Tracker(partial=True, in_place_by_turns=in_place_by_turns)
    assert kinds(observe(tracker, [(deal, confidences(deal))] * 6)) == [EventKind.STILL]
    views = [misread, after, misread, misread, after, misread, after, misread]
    events = observe(tracker, [None, *[(view, confidences(view)) for view in views]], start=1.0)
    accused = [m for e in events if e.kind is EventKind.ILLEGAL for m in e.moves]
    assert accused == ([str(wrong)] if in_place_by_turns else [])
    assert tracker.model is not None
    if in_place_by_turns:
        assert tracker.model.codes(column)[-1] == mine
    else:  # (the vote holds both cards in the column: no one move explains it)
        assert EventKind.UNCLEAR in kinds(events)


def _deal_with_a_column_move() -> tuple[Table, Move]:
    """The first Klondike deal (seeds from 0) in which a column's top card may be put on another column's, and that
    move."""

    def fits(table: Table) -> Move | None:
        for src in ("t2", "t3", "t4", "t5", "t6", "t7"):
            for dst in ("t2", "t3", "t4", "t5", "t6", "t7"):
                if src != dst and table.is_legal(move := Move.parse(f"{src}>{dst}")):
                    return move
        return None

    return next((t, m) for t in (Table.dealt(find_game("klondike"), s) for s in range(40)) if (m := fits(t)))


@pytest.mark.parametrize("moved_misread", [True, False])
def test_a_column_card_misread_where_it_lay_and_read_right_where_it_went_is_followed(moved_misread: bool) -> None:
    # heldout3's jk-legal-2 (penguins, plain): column 2's 8D learnt as the 4D at the deal (read at 0.59-0.65), then put
    # on column 3's 9C and read right there; the card turned up under it was left out as a phantom and the 8D taken
    # for a card turned from the stock and played. The misread card is the one that moved
    table, move = _deal_with_a_column_move()
    deal = camera_view(table)
    card = deal.codes(move.src)[-1]
    misread = next(c for c in full_deck() if c not in _held(deal) and c != twin(card))
    learnt = with_card(deal, move.src, len(deal.codes(move.src)) - 1, misread)
    tracker = Tracker(partial=True, moved_misread=moved_misread)
    assert kinds(observe(tracker, [(learnt, confidences(learnt, **{str(CARDS[misread]): 0.6}))] * 6)) == [
        EventKind.STILL
    ]
    table.push(move)
    after = camera_view(table)
    events = observe(tracker, [None, *[(after, confidences(after))] * 8], start=1.0)
    said = [m for e in events if e.kind is EventKind.MOVE for m in e.moves]
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model is not None
    if moved_misread:
        assert said == [str(move)]
        assert tracker.model.codes(move.dst)[-1] == card
    else:  # (the card turned up under it left out as a phantom, the moved card taken for one turned from the stock)
        assert said == ["s>w", f"w>{move.dst}"]


@pytest.mark.parametrize(
    ("vanished_pull", "read_where_it_went", "accused"),
    [
        (True, 8, ("w-1>t1",)),  # read unsure in every reading, gone from the waste: taken from under
        (False, 8, ()),  # (the rule off: too unsure to accuse, "please hold still")
        (True, 4, ()),  # read there in half the readings only: no accusation rests on it
    ],
)
def test_a_card_seen_gone_from_under_the_waste_top_and_read_unsure_where_it_went_was_taken_from_under(
    vanished_pull: bool, read_where_it_went: int, accused: tuple[str, ...]
) -> None:
    # heldout14's yk-illegal-1 (jolly royal, both readers): the 4S taken from under the waste's 3H onto column 1's JC,
    # read there at 0.46-0.59 in 11 readings of 11, the waste read as the 8H and the 3H side by side
    rest = {"t2": "6S 5D", "t4": "9C", "s": "4c 3d 9h"}
    before = make_table("klondike", {"w": "8H 4S 3H", "t1": "KS QD JC", **rest})
    after = make_table("klondike", {"w": "8H 3H", "t1": "KS QD JC 4S", **rest})
    unread = make_table("klondike", {"w": "8H 3H", "t1": "KS QD JC", **rest})
    tracker = Tracker(check_deal=False, vanished_pull=vanished_pull)
    observe(tracker, [(before, confidences(before, 0.9))] * 6)
    assert tracker.settled
    frames: list[tuple[Table, CardConfidences] | None] = [None]
    for k in range(8):
        view = after if k % (8 // read_where_it_went) == 0 else unread
        frames.append((view, confidences(view, 0.9, **{"4S": 0.55})))
    events = observe(tracker, frames, start=1.0)
    assert tuple(m for e in events if e.kind is EventKind.ILLEGAL for m in e.moves) == accused
    if not accused:
        assert EventKind.MOVE not in kinds(events)


@pytest.mark.parametrize(
    ("twin_gone", "read", "named"),
    [
        (True, 0.6, "card"),  # read unsure as its twin where it went: the card keeps its name
        (False, 0.6, ""),  # (off: the card kept where it lay, unread, and one from the stock taken for the move)
        # read sure as its twin, no legal move explains the vote: ``model_twins``, either way (it was the twin all
        # along, misread where it lay; the card is not turned up again from under it)
        (True, 0.9, "twin"),
        (False, 0.9, "twin"),
    ],
)
def test_a_top_card_gone_from_its_pile_and_read_as_its_twin_where_it_went_is_that_card_moved(
    twin_gone: bool, read: float, named: str
) -> None:
    # heldout8's rk-misdeal-1 (penguins, enrolled): column 2's AC played to a foundation and read there as the AS was
    # taken for the stock's top card turned and played, the AC kept on column 2 where every reading saw the card under
    # it bare. Here a column's top card put on another column and read there as its twin
    table, move = _deal_with_a_column_move()
    deal = camera_view(table)
    card = deal.codes(move.src)[-1]
    assert twin(card) not in _held(deal)
    tracker = Tracker(partial=True, twin_gone=twin_gone)
    assert kinds(observe(tracker, [(deal, confidences(deal))] * 6)) == [EventKind.STILL]
    table.push(move)
    after = camera_view(table)
    misread = with_card(after, move.dst, len(after.codes(move.dst)) - 1, twin(card))
    own = confidences(misread, 0.9, **{str(CARDS[twin(card)]): read})
    events = observe(tracker, [None, *[(misread, own)] * 8], start=1.0)
    said = [m for e in events if e.kind is EventKind.MOVE for m in e.moves]
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model is not None
    if named:
        assert said == [str(move)]
        assert tracker.model.codes(move.dst)[-1] == (card if named == "card" else twin(card))
        assert face_up(tracker.model, move.src) == face_up(after, move.src)
    else:
        assert said[:2] == ["s>w", f"w>{move.src}"]
        assert card in _held(tracker.model)


def test_a_card_gone_from_over_face_down_cards_and_read_as_its_twin_moved_though_the_card_turned_up_is_unread() -> None:
    # heldout17's bk-misdeal-1 (standard deck, both readers): column 7's 10C put on column 1's JH, read there as the
    # 10S at 0.49-0.69, column 7 read empty (the card turned up under it unread): no table the vote may show held an
    # unknown card there, and an unread card of column 6 was taken for the 10S moved. The card turned up is unknown
    table, move = _deal_with_a_column_move()
    deal = camera_view(table)
    card = deal.codes(move.src)[-1]
    assert table.face_down_count(move.src) > 0
    assert len(deal.codes(move.src)) == 1
    tracker = Tracker(partial=True)
    assert kinds(observe(tracker, [(deal, confidences(deal))] * 6)) == [EventKind.STILL]
    table.push(move)
    after = camera_view(table)
    misread = with_card(after, move.dst, len(after.codes(move.dst)) - 1, twin(card))
    unread = with_piles(misread, [[] if p == move.src else list(misread.codes(p)) for p in misread.pile_ids])
    own = confidences(unread, 0.9, **{str(CARDS[twin(card)]): 0.6})
    events = observe(tracker, [None, *[(unread, own)] * 8], start=1.0)
    assert [m for e in events if e.kind is EventKind.MOVE for m in e.moves] == [str(move)]
    assert EventKind.ILLEGAL not in kinds(events)
    assert tracker.model is not None
    assert tracker.model.codes(move.dst)[-1] == card
    assert face_up(tracker.model, move.src) == (UNKNOWN,)
