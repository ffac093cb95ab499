"""`cadogan verify` on a video: the motion gate, the pictures of the first illegal move, the log, the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from cadogan.gate import MotionGate
from cadogan.session import read_session
from cadogan.sources import FrameSource, TimedFrame
from cadogan.tracker import EventKind, Tracker
from cadogan.verdict import EntryKind, print_verdict, replay
from cadogan.videocheck import check_video
from cadogan.watch import Image, Reader, Reading
from engine.autoplay import greedy_playout
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table
from engine.testing import camera_view, make_table


def _scene(k: int, size: tuple[int, int] = (320, 180)) -> Image:
    """A still table k: a pattern of its own (the stub reader knows which table it shows)."""
    rng = np.random.default_rng(k)
    small = rng.integers(0, 255, (9, 16, 3), dtype=np.uint8)
    return np.asarray(cv2.resize(small, size, interpolation=cv2.INTER_NEAREST), np.uint8)


def _hand(k: int, j: int, size: tuple[int, int] = (320, 180)) -> Image:
    image = _scene(k, size).copy()
    cv2.rectangle(image, (40 + 20 * j, 30), (200 + 20 * j, 179), (60, 120, 200), -1)  # an arm over the cards
    return image


def _write_video(path: Path, frames: list[Image], fps: float = 30.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, (320, 180))
    for frame in frames:
        writer.write(frame)
    writer.release()


def _game(illegal_at: int | None) -> list[Table]:
    """Camera views of a Klondike game, with a red-on-red move at ``illegal_at``."""
    table = Table.dealt(find_game("klondike"), 2)
    views = [camera_view(table)]
    table.stage = Stage.PLAY
    for n, _ in enumerate(greedy_playout(table, max_moves=8)):
        views.append(camera_view(table))
        if n + 1 == illegal_at:
            tops = [p for p in table.pile_ids if p.startswith("t") and table.codes(p)]
            move = next(Move(a, b) for a in tops for b in tops if a != b and Move(a, b) not in table.generate_moves())
            table.push(move)
            views.append(camera_view(table))
            break
    return views


def _recording(tmp_path: Path, views: list[Table]) -> tuple[Path, list[int]]:
    """A 30 fps video: each table held 1 s, a hand over the cards 0.6 s between; the table shown per frame."""
    frames: list[Image] = []
    shown: list[int] = []
    for k in range(len(views)):
        frames += [_scene(k)] * 30
        shown += [k] * 30
        if k + 1 < len(views):
            frames += [_hand(k, j // 3) for j in range(18)]
            shown += [-1] * 18
    path = tmp_path / "game.mp4"
    _write_video(path, frames)
    return path, shown


class _Indexed(FrameSource):
    def __init__(self, spec: str, state: dict[str, int]) -> None:
        super().__init__(spec)
        self.state = state

    def __iter__(self) -> Iterator[TimedFrame]:
        for frame in super().__iter__():
            self.state["index"] = frame.index
            yield frame


def _stub(views: list[Table], shown: list[int], state: dict[str, int]) -> Reader:
    def read(image: Image) -> Reading:
        k = shown[min(state["index"], len(shown) - 1)]
        return Reading(None, 0.0) if k < 0 else Reading(views[k], 0.97)

    return read


def test_the_gate_ignores_shake_and_light_and_sees_a_hand() -> None:
    gate = MotionGate()
    base = _scene(3, (640, 360))
    assert not gate.look(base)
    assert not gate.look(base)  # one calm look is not yet still
    shifted = np.asarray(cv2.warpAffine(base, np.float32([[1, 0, 1], [0, 1, 0]]), (640, 360)), np.uint8)
    assert gate.look(np.asarray(cv2.convertScaleAbs(shifted, alpha=1.0, beta=12), np.uint8))
    assert not gate.look(_hand(3, 0, (640, 360)))
    assert gate.reads == 0
    assert not gate.done


def test_a_video_is_followed_with_the_first_illegal_move_pictured(tmp_path: Path) -> None:
    views = _game(illegal_at=4)
    path, shown = _recording(tmp_path, views)
    state = {"index": 0}
    reader = _stub(views, shown, state)
    log = tmp_path / "game.jsonl"
    check = check_video(_Indexed(str(path), state), reader, "klondike", log, tmp_path / "pictures")
    verdict = check.verdict
    assert [e.kind for e in verdict.moves] == [EntryKind.MOVE] * 4 + [EntryKind.ILLEGAL]
    assert not verdict.of(EntryKind.UNCLEAR)
    first = verdict.first_illegal
    assert first is not None
    assert first.reason
    assert first.move.startswith("t")
    assert 5 * 1.6 <= first.t < 5 * 1.6 + 0.7  # read shortly after the hand left the table
    assert verdict.pictures is not None
    for picture in verdict.pictures:
        assert cv2.imread(str(picture)) is not None
    assert check.recognised < check.frames / 5  # the gate spares the recogniser
    record = read_session(log)
    assert record.partial
    assert len(record.tables) == len(views)
    assert replay(record.tables, partial=True).first_illegal == first  # the log says what the video said


def _pattern_reader(views: list[Table]) -> Reader:
    """Tells the tables apart by their pattern: the CLI's own path with a recogniser that cannot err."""
    patterns = [cv2.resize(_scene(k), (16, 9), interpolation=cv2.INTER_AREA).astype(float) for k in range(len(views))]

    def read(image: Image) -> Reading:
        small = cv2.resize(image, (16, 9), interpolation=cv2.INTER_AREA).astype(float)
        distance, k = min((float(np.abs(small - p).mean()), k) for k, p in enumerate(patterns))
        return Reading(views[k], 0.97) if distance < 12 else Reading(None, 0.0)

    return read


@pytest.mark.parametrize(("illegal_at", "code"), [(None, 0), (2, 1)])
def test_verify_cli_on_a_video_writes_the_log_and_exits_by_the_verdict(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    illegal_at: int | None,
    code: int,
) -> None:
    import cadogan.reading
    from cadogan.__main__ import main

    views = _game(illegal_at)[:4]
    monkeypatch.setattr(cadogan.reading, "vision_reader", lambda *args, **kw: _pattern_reader(views))
    path, _ = _recording(tmp_path, views)
    assert main(["verify", str(path), "--game", "klondike"]) == code
    captured = capsys.readouterr()
    assert "real time" in captured.err  # progress and speed on stderr
    assert (tmp_path / "game.jsonl").is_file()
    assert ("first illegal move at 00:0" in captured.out) is (code == 1)
    if code == 1:
        assert "game-illegal-before.png" in captured.out
        assert (tmp_path / "game-illegal-after.png").is_file()
    again = ["verify", str(path), "--game", "klondike", "--json", "--quiet", "--log", str(tmp_path / "x.jsonl")]
    assert main(again) == code
    assert json.loads(capsys.readouterr().out)["legal"] is (code == 0)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["nothing.mp4", "--game", "klondike"], "no such file"),
        (["game.mp4"], "--game"),
        (["game.mp4", "--game", "klondike", "--models", "no-models"], "missing"),
    ],
)
def test_verify_cli_video_faults_are_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cadogan.__main__ import main

    monkeypatch.chdir(tmp_path)
    _write_video(tmp_path / "game.mp4", [_scene(0)] * 10)
    assert main(["verify", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert needle in err[0]


def test_a_card_taken_from_under_another_is_an_illegal_move() -> None:
    table = make_table("klondike", {"t1": "KS QH JC", "t2": "5D", "t3": "9S", "s": "2c 3c"})
    after = make_table("klondike", {"t1": "KS JC", "t2": "5D QH", "t3": "9S", "s": "2c 3c"})
    tracker = Tracker(check_deal=False)
    events = [e for frame in [table] * 5 + [None] * 3 + [after] * 5 for e in tracker.observe(0.0, frame, 0.95)]
    illegal = [e for e in events if e.kind is EventKind.ILLEGAL]
    assert len(illegal) == 1
    assert illegal[0].moves == ("t1-1>t2",)
    assert "taken from under the jack of clubs" in illegal[0].text


def test_a_partial_session_log_is_verified_like_the_live_tracker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cadogan.__main__ import main
    from cadogan.session import SessionLog

    views = _game(illegal_at=3)
    path = tmp_path / "watch.jsonl"
    with SessionLog(path, "klondike", "test", partial=True) as log:
        for k, view in enumerate(views):
            log.table(float(k), view, 0.97)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "first illegal move at 00:04.00" in out
    assert out.count(" ok ") == 3
    print_verdict(replay(read_session(path).tables, partial=True))


@pytest.mark.parametrize("game", ["klondike", "canfield"])
def test_a_card_dealt_too_many_is_the_misdeal_named_and_the_pack_still_adds_up(game: str) -> None:
    table = Table.dealt(find_game(game), 5)
    piles = [list(table.codes(p)) for p in table.pile_ids]
    piles[table.pile_ids.index("t2")].append(piles[table.pile_ids.index("s")].pop())  # one more, from the stock
    downs = [min(table.face_down_count(p), len(piles[k])) for k, p in enumerate(table.pile_ids)]
    view = camera_view(Table(table.game, piles, downs, stage=Stage.DEAL))
    tracker = Tracker(partial=True)
    events = [e for _ in range(5) for e in tracker.observe(0.0, view, 0.97)]
    misdeal = [e.text for e in events if e.kind is EventKind.MISDEAL]
    assert len(misdeal) == 1
    assert "column 2 shows 2 face-up cards, the deal shows 1" in misdeal[0]
    assert "cards on the table" not in misdeal[0]  # the extra card came out of the stock: still 52


def test_an_unsure_reading_of_a_wrong_deal_is_no_misdeal_and_not_taken_as_the_deal() -> None:
    table = Table.dealt(find_game("klondike"), 5)
    piles = [list(table.codes(p)) for p in table.pile_ids]
    piles[table.pile_ids.index("t2")].append(piles[table.pile_ids.index("s")].pop())
    downs = [min(table.face_down_count(p), len(piles[k])) for k, p in enumerate(table.pile_ids)]
    wrong = camera_view(Table(table.game, piles, downs, stage=Stage.DEAL))
    tracker = Tracker(partial=True)
    events = [e for _ in range(6) for e in tracker.observe(0.0, wrong, 0.2)]
    assert [e.kind for e in events] == [EventKind.UNCLEAR]  # asked to hold still, not taken as the deal
    assert tracker.model is None
    tracker.observe(0.5, None)
    right = camera_view(Table.dealt(find_game("klondike"), 5))
    events = [e for _ in range(5) for e in tracker.observe(1.0, right, 0.2)]
    assert [e.kind for e in events] == [EventKind.STILL]  # a correct deal needs no confidence to be taken
    assert tracker.model is not None


def test_a_request_to_hold_still_that_a_later_move_resolved_is_a_note_not_a_verdict() -> None:
    from cadogan.tracker import Event
    from cadogan.verdict import from_events

    unclear = Event(EventKind.UNCLEAR, 1.0, "I cannot follow that change: please hold still")
    move = Event(EventKind.MOVE, 2.0, "move the 5 of spades onto the 6 of hearts", ("t2>t1",))
    followed = from_events([unclear, move], None)
    assert followed.legal
    assert [e.kind for e in followed.entries] == [EntryKind.MOVE]
    assert followed.notes == [f"{unclear.text!r} (1 time(s)): the game was followed through it"]
    lost = from_events([move, unclear], None)
    assert not lost.legal
    assert [e.kind for e in lost.entries] == [EntryKind.MOVE, EntryKind.UNCLEAR]


@pytest.mark.parametrize(
    ("retracts", "moves", "note"),
    [
        # the stock turn followed last was misread
        (("s:3>w",), ["t2>t1", "w>f4", "t1>f4"], "s:3>w at 00:02.00 misread: taken back at 00:04.00"),
        # both moves followed last
        (("t2>t1", "s:3>w"), ["w>f4", "t1>f4"], "t2>t1, s:3>w at 00:01.00 misread: taken back at 00:04.00"),
        (("t2>t1",), ["t2>t1", "s:3>w", "w>f4", "t1>f4"], ""),  # not the moves followed last: nothing taken back
        ((), ["t2>t1", "s:3>w", "w>f4", "t1>f4"], ""),
    ],
)
def test_moves_a_later_move_takes_back_as_misread_leave_the_verdict_with_a_note(
    retracts: tuple[str, ...], moves: list[str], note: str
) -> None:
    from cadogan.tracker import Event
    from cadogan.verdict import from_events

    followed = [
        Event(EventKind.MOVE, 1.0, "move the 5 of spades onto the 6 of hearts", ("t2>t1",)),
        Event(EventKind.MOVE, 2.0, "turn three cards from the stock", ("s:3>w",)),
        Event(EventKind.UNCLEAR, 3.0, "I cannot follow that change: please hold still"),
        Event(EventKind.MOVE, 4.0, "I misread the last change: ...", ("w>f4", "t1>f4"), retracts=retracts),
    ]
    verdict = from_events(followed, None)
    assert [e.move for e in verdict.moves] == moves
    assert verdict.legal  # (the request to hold still was resolved by the move)
    notes = [note for note in verdict.notes if "taken back" in note]
    assert notes == ([f"{note} (the moves made instead follow)"] if note else [])


def test_a_misdeal_whose_extra_card_the_first_readings_missed_is_still_reported() -> None:
    table = Table.dealt(find_game("klondike"), 5)
    piles = [list(table.codes(p)) for p in table.pile_ids]
    piles[table.pile_ids.index("t2")].append(piles[table.pile_ids.index("s")].pop())
    downs = [min(table.face_down_count(p), len(piles[k])) for k, p in enumerate(table.pile_ids)]
    wrong = camera_view(Table(table.game, piles, downs, stage=Stage.DEAL))
    short = [list(wrong.codes(p)) for p in wrong.pile_ids]
    short[wrong.pile_ids.index("t2")].pop()  # the extra card not read: the deal looks right
    missed = Table(wrong.game, short, [0] * len(short))
    tracker = Tracker(partial=True)
    events = [e for frame in [missed, wrong, missed] for e in tracker.observe(0.0, frame, 0.97)]
    assert events == []  # a card one reading saw where the vote has none: not yet taken as a correct deal
    events = [e for frame in [wrong, wrong, wrong] for e in tracker.observe(0.1, frame, 0.97)]
    misdeal = [e.text for e in events if e.kind is EventKind.MISDEAL]
    assert len(misdeal) == 1
    assert "column 2 shows 2 face-up cards, the deal shows 1" in misdeal[0]


def test_a_table_seen_after_a_deal_that_went_by_unread_is_followed_not_called_a_misdeal() -> None:
    table = Table.dealt(find_game("klondike"), 5)
    deal = camera_view(table)
    blurred = Table(deal.game, [[] if p in ("t1", "t2") else list(deal.codes(p)) for p in deal.pile_ids], [0] * 13)
    table.stage = Stage.PLAY
    move = next(iter(table.generate_moves()))
    table.push(move)
    tracker = Tracker(partial=True)
    unsure = [e for frame in [blurred, blurred, blurred] for e in tracker.observe(0.0, frame, 0.97)]
    assert unsure == []  # the deal read too unevenly to be taken yet
    tracker.observe(0.5, None)  # and then a hand: the deal went by
    events = [e for _ in range(5) for e in tracker.observe(1.0, camera_view(table), 0.97)]
    assert EventKind.MISDEAL not in [e.kind for e in events]
    assert [e.text for e in events if e.kind is EventKind.UNCLEAR] == [
        "I could not read the deal clearly: I follow the game from here"
    ]
    assert tracker.model is not None


def test_the_log_of_a_game_whose_deal_went_by_unread_replays_as_it_was_followed(tmp_path: Path) -> None:
    from cadogan.session import SessionLog
    from cadogan.verdict import from_events

    table = Table.dealt(find_game("klondike"), 5)
    deal = camera_view(table)
    blurred = Table(deal.game, [[] if p in ("t1", "t2") else list(deal.codes(p)) for p in deal.pile_ids], [0] * 13)
    table.stage = Stage.PLAY
    frames: list[Table | None] = [blurred] * 3 + [None]
    for _ in greedy_playout(table, max_moves=4):
        frames += [camera_view(table)] * 5 + [None]
    tracker = Tracker(partial=True)
    path = tmp_path / "watch.jsonl"
    events = []
    with SessionLog(path, "klondike", "test", partial=True) as log:  # what `watch` writes
        for n, frame in enumerate(frames):
            for event in tracker.observe(n / 10, frame, 0.97):
                if event.kind is EventKind.STILL and event.table is not None:
                    log.table(n / 10, event.table, event.confidence)
                elif event.kind is not EventKind.STILL:
                    events.append(event)
    live = from_events(events, tracker.model)
    assert not live.of(EntryKind.MISDEAL)
    assert len(live.moves) == 3  # the first move went by with the deal; the game is followed from there
    again = replay(read_session(path).tables, partial=True)
    assert [(e.kind, e.move) for e in again.entries] == [(e.kind, e.move) for e in live.entries]


def test_the_log_of_a_game_with_a_column_unread_at_the_deal_replays_as_it_was_followed(tmp_path: Path) -> None:
    # (heldout16's ak-legal-1: the deal's columns 1-3 unread; its log replayed as a misdeal, "verdict: a misdeal",
    # for a legal game, and missed moves the live tracker had followed)
    from cadogan.session import SessionLog
    from cadogan.verdict import from_events

    table = Table.dealt(find_game("klondike"), 5)
    blank = camera_view(table)
    blank = Table(blank.game, [[] if p == "t1" else list(blank.codes(p)) for p in blank.pile_ids], [0] * 13)
    table.stage = Stage.PLAY
    frames: list[Table | None] = [blank] * 8 + [None]
    for _ in greedy_playout(table, max_moves=4):
        view = camera_view(table)
        unread = [[] if p == "t1" and len(view.codes(p)) == 1 else list(view.codes(p)) for p in view.pile_ids]
        frames += [Table(view.game, unread, [0] * 13)] * 8 + [None]  # (column 1's dealt card never read)
    tracker = Tracker(partial=True)
    path = tmp_path / "watch.jsonl"
    events = []
    with SessionLog(path, "klondike", "test", partial=True) as log:  # what `watch` writes
        for n, frame in enumerate(frames):
            for event in tracker.observe(n / 10, frame, 0.97, backs={} if frame is not None else None):
                if event.kind is EventKind.STILL and event.table is not None:
                    log.table(n / 10, event.table, event.confidence, event.cards)
                    continue
                events.append(event)
                retracted = {"retracts": list(event.retracts)} if event.retracts else {}
                log.write(event.kind.value, n / 10, text=event.text, moves=list(event.moves), **retracted)
    live = from_events(events, tracker.model)
    assert "I cannot read the card on column 1" in " ".join(e.text for e in events)
    assert any(e.retracts for e in events)  # (the first change was followed on a misreading, then taken back)
    assert not live.of(EntryKind.MISDEAL)
    assert len(live.moves) == 4
    again = replay(read_session(path).tables, partial=True)
    assert [(e.kind, e.move) for e in again.entries] == [(e.kind, e.move) for e in live.entries]
