"""The tracker says when the table is settled (for hints), and the still tables it logs carry each card's
confidence, which the log gives back; the motion gate reads a still table only while readings help."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cadogan.gate import MotionGate
from cadogan.session import SessionLog, SessionLogError, read_session
from cadogan.sources import TimedFrame
from cadogan.tracker import CardConfidences, EventKind, Tracker
from cadogan.verdict import replay
from cadogan.watch import Advice, Reading, watch
from engine.cards import parse_code
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table
from engine.testing import camera_view, make_table


def _start() -> Table:
    return make_table("klondike", {"t1": "7H", "t2": "8S", "t3": "KS", "s": "2c 3c"})


def test_the_tracker_is_settled_once_a_still_table_is_read_and_not_while_a_change_is_unexplained() -> None:
    tracker = Tracker(check_deal=False)
    table = _start()
    assert not tracker.settled
    tracker.observe(0.0, table)
    tracker.observe(0.1, table)
    assert not tracker.settled  # two readings are not yet a vote
    events = tracker.observe(0.2, table)
    assert [e.kind for e in events] == [EventKind.STILL]
    assert tracker.settled
    tracker.observe(0.3, None)  # a hand over the cards
    assert not tracker.settled
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    for k in range(2):
        tracker.observe(0.4 + k / 10, moved)
    assert not tracker.settled
    events = tracker.observe(0.6, moved)
    assert EventKind.MOVE in [e.kind for e in events]
    assert tracker.settled
    tracker.observe(0.7, None)
    nonsense = make_table("klondike", {"t1": "2D", "t2": "QC", "t3": "4H", "s": "2c 3c"})
    for k in range(8):  # readings no move explains: never settled, however many there are
        tracker.observe(0.8 + k / 10, nonsense)
        assert not tracker.settled


def _frames(tables: list[Table | None], fps: float = 10.0) -> tuple[list[TimedFrame], dict[int, Table | None]]:
    image = np.zeros((36, 64, 3), np.uint8)
    frames = [TimedFrame(n, n / fps, image) for n in range(len(tables))]
    return frames, dict(enumerate(tables))


class _Played:
    """Frames of ``tables`` (see ``_frames``), and which table the frame last yielded shows."""

    def __init__(self, tables: list[Table | None]) -> None:
        self.frames, self.by_index = _frames(tables)
        self.index = 0

    def __iter__(self) -> Iterator[TimedFrame]:
        for frame in self.frames:
            self.index = frame.index
            yield frame

    @property
    def shown(self) -> Table | None:
        return self.by_index[self.index]


def test_auto_hints_come_when_the_table_is_settled_once_per_position() -> None:
    table = camera_view(Table.dealt(find_game("klondike"), 2))
    move = next(iter(Table.dealt(find_game("klondike"), 2).generate_moves()))
    after = Table.dealt(find_game("klondike"), 2)
    after.stage = Stage.PLAY
    after.push(move)
    moved = camera_view(after)
    # 2 s still, a hand that passes without a move, 2 s still, a move, 2 s still (10 frames a second)
    played = _Played([table] * 20 + [None] * 5 + [table] * 20 + [None] * 5 + [moved] * 20)

    def reader(image: np.ndarray) -> Reading:
        return Reading(played.shown, 0.97 if played.shown is not None else 0.0)

    hinted: list[float] = []

    def hinter(model: Table) -> Advice:
        hinted.append(played.index / 10)
        return Advice("a move", 0.5)

    summary = watch(iter(played), reader, Tracker(partial=True), hinter=hinter, auto_hint_after=1.0)
    assert [e.kind for e in summary.events].count(EventKind.MOVE) == 1
    # one hint on the deal a second after it was read (settled at its third reading), none after the hand
    # that moved nothing, one a second after the move was read
    assert len(hinted) == 2
    assert 1.1 <= hinted[0] <= 1.4
    assert 6.1 <= hinted[1] <= 6.4


def _confident(table: Table, sure: dict[str, float], rest: float) -> CardConfidences:
    return {
        (pile, code): sure.get(pile, rest)
        for pile in table.pile_ids
        for code in table.codes(pile)[table.face_down_count(pile) :]
    }


def test_still_tables_carry_each_cards_confidence_and_a_card_kept_unseen_keeps_its_own() -> None:
    tracker = Tracker(check_deal=False)
    table = _start()
    cards = _confident(table, {"t1": 0.9}, 0.6)
    events = [e for _ in range(3) for e in tracker.observe(0.0, table, 0.6, cards)]
    still = [e for e in events if e.kind is EventKind.STILL]
    assert len(still) == 1
    confs = still[0].cards
    assert set(confs) == set(table.pile_ids)
    shown = still[0].table
    assert shown is not None
    for pile in table.pile_ids:
        assert len(confs[pile]) == len(shown.codes(pile))
    assert confs["t1"][0] > 0.9 > confs["t2"][0] > 0.6  # three agreeing readings are surer than one
    assert confs["s"] == (0.0, 0.0)  # face down: no reading sees them
    tracker.observe(0.5, None)
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    seen = moved.copy()  # the readings of the moved table all miss the king of spades, which stays put
    unseen_king = [list(seen.codes(p)) if p != "t3" else [] for p in seen.pile_ids]
    blind = Table(seen.game, unseen_king, [seen.face_down_count(p) for p in seen.pile_ids], stage=seen.stage)
    events = [e for _ in range(6) for e in tracker.observe(1.0, blind, 0.6, _confident(blind, {}, 0.7))]
    still = [e for e in events if e.kind is EventKind.STILL]
    assert len(still) == 1
    assert still[0].table is not None
    assert still[0].table.codes("t3") == (parse_code("KS"),)
    assert still[0].cards["t3"] == confs["t3"]  # not seen again: the confidence it had when it was seen


def test_the_log_gives_back_each_tables_card_confidences(tmp_path: Path) -> None:
    table = _start()
    path = tmp_path / "session.jsonl"
    cards = {"t1": (0.91,), "t2": (0.5,), "t3": (0.77,), "s": (0.0, 0.0)}
    with SessionLog(path, "klondike", "test") as log:
        log.table(0.0, table, 0.5, cards)
        log.table(1.0, table, 0.5)  # a log may hold tables without card confidences (older logs)
    record = read_session(path)
    assert dict(record.tables[0].cards) == cards
    assert record.tables[0].card_confidences()[("t1", parse_code("7H"))] == pytest.approx(0.91)
    assert dict(record.tables[1].cards) == {}


@pytest.mark.parametrize(
    ("cards", "needle"),
    [
        ('{"t1": [0.9, 0.8]}', "do not match the cards of t1"),
        ('{"t9": [0.9]}', "a pile the game does not have"),
        ('{"t1": [1.5]}', "between 0 and 1"),
        ("[0.9]", "not a mapping"),
    ],
)
def test_card_confidences_that_do_not_fit_their_table_are_a_clear_error(
    tmp_path: Path, cards: str, needle: str
) -> None:
    path = tmp_path / "session.jsonl"
    with SessionLog(path, "klondike", "test") as log:
        log.table(0.0, _start(), 0.5)
    line = path.read_text().splitlines()[-1]
    path.write_text(path.read_text().replace(line, line[:-1] + f', "cards": {cards}}}'))
    with pytest.raises(SessionLogError, match=needle):
        read_session(path)


def test_a_followed_game_logs_every_still_table_with_its_cards_and_verify_reads_them_back(tmp_path: Path) -> None:
    deal = Table.dealt(find_game("klondike"), 2)
    views = [camera_view(deal)]
    game = deal.copy()
    game.stage = Stage.PLAY
    for move in list(game.generate_moves())[:1]:
        game.push(move)
        views.append(camera_view(game))
    tables: list[Table | None] = []
    for view in views:
        tables += [view] * 6 + [None] * 3
    frames, by_index = _frames(tables)
    state = {"index": 0}

    def frames_with_index() -> Iterator[TimedFrame]:
        for frame in frames:
            state["index"] = frame.index
            yield frame

    def reader(image: np.ndarray) -> Reading:
        shown = by_index[state["index"]]
        if shown is None:
            return Reading(None, 0.0)
        return Reading(shown, 0.8, (), _confident(shown, {}, 0.8))

    path = tmp_path / "game.jsonl"
    with SessionLog(path, "klondike", "test", partial=True) as log:
        summary = watch(frames_with_index(), reader, Tracker(partial=True), log=log)
    record = read_session(path)
    assert len(record.tables) == len(views)
    for logged in record.tables:
        shown = [code for p in logged.table.pile_ids for code in logged.table.codes(p)]
        confs = [c for p in logged.table.pile_ids for c in logged.cards.get(p, ())]
        assert len(confs) == len(shown)
        assert all(c > 0.8 for c in confs)  # every card seen by every reading at 0.8
    followed = [m for e in summary.events if e.kind is EventKind.MOVE for m in e.moves]
    assert len(followed) == 1
    assert [e.move for e in replay(record.tables, partial=True).moves] == followed


def _settled_gate(still: np.ndarray) -> MotionGate:
    gate = MotionGate(stable_reads=4, min_reads=6, max_reads=12)
    gate.look(still)
    gate.look(still)  # the first calm look: not yet still
    return gate


def test_the_gate_stops_reading_once_the_vote_has_stood_still() -> None:
    still = np.zeros((90, 160, 3), np.uint8)
    gate = _settled_gate(still)
    reads = 0
    while True:
        assert gate.look(still)
        if not gate.may_read:
            break
        reads += 1
        gate.read_once(False, vote="the same")
    assert reads == 6  # the vote stood for 4 reads after the first; not before the 6th read
    gate = _settled_gate(still)
    reads = 0
    while gate.look(still) and gate.may_read:
        reads += 1
        gate.read_once(False, vote=reads % 2)  # a vote that keeps changing: read up to max_reads
    assert reads == 12
    gate = _settled_gate(still)
    reads = 0
    while gate.look(still) and gate.may_read:
        reads += 1
        gate.read_once(False, vote=None)  # nothing voted, or a mistake pending: never stable
    assert reads == 12


def test_the_reading_budget_is_counted_in_video_time() -> None:
    still = np.zeros((90, 160, 3), np.uint8)
    moving = np.full((90, 160, 3), 255, np.uint8)
    gate = MotionGate(reads_per_second=4.0, burst=3.0, max_reads=100, stable_reads=100)
    reads = []
    for n in range(40):  # 4 s at 10 looks a second, the table still from the start
        t = n / 10
        if gate.look(still, t) and gate.may_read:
            gate.read_once(False)
            reads.append(t)
    # still from the second look on: the 3 saved up at once, then one every quarter second: 3 + 4 x 3.7 s
    assert 17 <= len(reads) <= 19
    assert reads[:3] == [0.2, 0.3, 0.4]
    assert all(b - a > 0.19 for a, b in itertools.pairwise(reads[4:]))  # then 4 a second
    again = MotionGate(reads_per_second=4.0, burst=3.0, max_reads=100, stable_reads=100)
    same = []
    for n in range(40):
        t = n / 10
        if again.look(still, t) and again.may_read:
            again.read_once(False)
            same.append(t)
    assert same == reads  # the same video, the same reads
    free = MotionGate(max_reads=100, stable_reads=100)
    looks = [free.look(image) and free.may_read for image in [moving, *[still] * 30]]
    assert sum(looks) == 29  # without frame times there is no budget


@pytest.mark.parametrize("own", [True, False])
@pytest.mark.parametrize("recheck_s", [2.0, None])
def test_a_move_made_with_no_motion_the_gate_sees_is_found_by_reading_the_settled_table_again(
    recheck_s: float | None, own: bool
) -> None:
    # heldout14's yc-misdeal-1: three stock turns made with the hand at the frame's edge changed too few thumbnail
    # pixels to count as motion, and the settled table was never read again
    table = _start()
    moved = table.copy()
    moved.stage = Stage.PLAY
    moved.push(Move.parse("t1>t2"))
    played = _Played([table] * 30 + [moved] * 40)  # the same picture throughout, for the gate

    def reader(image: np.ndarray) -> Reading:
        shown = played.shown
        assert shown is not None
        cards = {(p, code): 0.9 for p in shown.pile_ids for code in shown.codes(p)} if own else {}
        return Reading(shown, 0.9, cards=cards)

    gate = MotionGate(recheck_s=recheck_s)
    summary = watch(iter(played), reader, Tracker(check_deal=False), gate=gate)
    moves = [e.moves for e in summary.events if e.kind is EventKind.MOVE]
    assert moves == ([("t1>t2",)] if recheck_s is not None else [])
    # a settled table is read again every 2 s at most: a few reads more, not every frame
    assert summary.recognised <= 6 + 7 + 6 + 3


def test_a_read_table_is_due_to_be_read_again_every_recheck_seconds_and_a_change_starts_a_new_still_period() -> None:
    still = np.zeros((90, 160, 3), np.uint8)
    gate = MotionGate(recheck_s=2.0, reads_per_second=100.0)
    due: list[float] = []
    for n in range(60):  # 6 s at 10 looks a second
        t = n / 10
        if not gate.look(still, t):
            continue
        if gate.recheck_due():
            due.append(t)
            gate.rechecked(changed=False)
        elif gate.may_read:
            gate.read_once(accepted=True)  # the first reading settles it
    assert due == [pytest.approx(2.2), pytest.approx(4.2)]  # read at 0.2 s (still), then again every 2 s
    assert gate.done
    assert not gate.may_read
    gate.rechecked(changed=True)
    assert not gate.done  # another table: read as a new still period
    assert gate.may_read
    assert not MotionGate(recheck_s=None, done=True).recheck_due()
