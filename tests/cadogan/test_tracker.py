"""The tracker over frames: still tables by vote, moves explained, illegal moves only when confident."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cadogan.session import Announced, SessionLog, SessionLogError, read_session
from cadogan.tracker import EventKind, Tracker, _mixed, _view
from engine.autoplay import greedy_playout
from engine.cards import UNKNOWN
from engine.formats import read_table
from engine.games import find_game
from engine.moves import Move
from engine.table import Stage, Table
from engine.testing import camera_view, hide_face_down, make_table
from engine.verify import verify_tables


def feed(tracker: Tracker, frames: list[Table | None], confidence: float = 0.95) -> list[tuple[EventKind, str]]:
    events = []
    for n, frame in enumerate(frames):
        events += [(e.kind, e.text) for e in tracker.observe(n / 30, frame, confidence)]
    return events


def test_a_legal_game_is_followed_move_by_move_without_alarms() -> None:
    table = Table.dealt(find_game("klondike"), 2)
    frames: list[Table | None] = [hide_face_down(table)] * 6
    played = []
    for move in greedy_playout(table, max_moves=40):
        played.append(str(move))
        frames += [None] * 4  # a hand over the cards while moving
        frames += [hide_face_down(table)] * 6
    events = feed(Tracker(), frames)
    kinds = [k for k, _ in events]
    assert EventKind.ILLEGAL not in kinds
    assert EventKind.UNCLEAR not in kinds
    assert EventKind.MISDEAL not in kinds
    assert sum(k is EventKind.MOVE for k in kinds) == len(played)


def test_a_single_misread_frame_never_reaches_the_engine() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8S", "t3": "KS", "s": "2c 3c"})
    misread = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    frames: list[Table | None] = [table] * 5 + [misread] + [table] * 5
    events = feed(Tracker(check_deal=False), frames)
    assert [k for k, _ in events] == [EventKind.STILL]


def test_readings_that_each_misread_a_different_pile_still_vote_a_table_pile_by_pile() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8S", "t3": "KS", "s": "2c 3c"})
    misreads = [
        make_table("klondike", {"t1": "7D", "t2": "8S", "t3": "KS", "s": "2c 3c"}),
        make_table("klondike", {"t1": "7H", "t2": "8C", "t3": "KS", "s": "2c 3c"}),
        make_table("klondike", {"t1": "7H", "t2": "8S", "t3": "KC", "s": "2c 3c"}),
    ]
    # no two frames alike: the whole-table vote never stands, every pile is read right 3 times of 5
    frames: list[Table | None] = [misreads[0], table, misreads[1], misreads[2], table]
    events = feed(Tracker(check_deal=False), frames)
    assert [k for k, _ in events] == [EventKind.STILL]
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    moved_misreads = [m.copy() for m in misreads[1:]]
    for m in moved_misreads:  # the same misreads, after the move: still no majority for a misread pile
        m.push(Move.parse("t1>t2"))
    tracker = Tracker(check_deal=False)
    feed(tracker, [table] * 5)
    later = feed(tracker, [None, None, moved_misreads[0], moved, moved_misreads[1], moved, moved])
    assert EventKind.MOVE in [k for k, _ in later]
    assert EventKind.ILLEGAL not in [k for k, _ in later]


def test_one_pile_without_a_majority_means_no_still_table() -> None:
    a = make_table("klondike", {"t1": "7H", "t2": "8S", "t3": "KS", "s": "2c 3c"})
    b = make_table("klondike", {"t1": "7D", "t2": "8S", "t3": "KS", "s": "2c 3c"})
    c = make_table("klondike", {"t1": "7C", "t2": "8S", "t3": "KS", "s": "2c 3c"})
    assert feed(Tracker(check_deal=False), [a, b, c, a, b]) == []


def test_a_request_to_hold_still_is_not_repeated_every_frame() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    flicker = [moved, table] * 3  # a reading that cannot make up its mind, unsure each time
    tracker = Tracker(check_deal=False)
    feed(tracker, [table] * 5, confidence=0.95)
    frames: list[Table | None] = [f for f in flicker for _ in range(3)]
    events = feed(tracker, frames, confidence=0.5)
    unclear = [text for kind, text in events if kind is EventKind.UNCLEAR]
    assert len(unclear) == 1  # 18 frames at 30 fps: well inside the 5 s before it may be said again
    later = Tracker(check_deal=False, repeat_after=0.0)
    feed(later, [table] * 5, confidence=0.95)
    assert len([k for k, _ in feed(later, frames, confidence=0.5) if k is EventKind.UNCLEAR]) > 1


def test_an_illegal_move_is_announced_with_its_rule() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    events = feed(Tracker(check_deal=False), [table] * 5 + [None] * 3 + [moved] * 5)
    assert (EventKind.ILLEGAL, "red 7 on red 8 is not allowed: colours must alternate") in events


def test_an_unsure_reading_asks_to_hold_still_instead_of_an_alarm() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "s": "2c 3c"})
    moved = table.copy()
    moved.push(Move.parse("t1>t2"))
    frames: list[Table | None] = [table] * 5 + [None] + [moved] * 6
    events = feed(Tracker(check_deal=False), frames, confidence=0.3)
    assert [k for k, _ in events] == [EventKind.STILL, EventKind.UNCLEAR]
    # the same readings, each sure of itself: the agreeing readings make the change confident
    sure = feed(Tracker(check_deal=False), frames, confidence=0.7)
    assert EventKind.ILLEGAL in [k for k, _ in sure]


def _noisy(view: Table, rng: random.Random, drop: float, swap: float) -> Table:
    """``view`` as a flawed recogniser reads it: each card left out with ``drop``, misnamed with ``swap``."""
    piles = []
    for pile in view.pile_ids:
        cards = []
        for code in view.codes(pile):
            if rng.random() < drop:
                continue
            cards.append(rng.randrange(52) if rng.random() < swap else code)
        piles.append(cards)
    return Table(view.game, piles, [0] * len(piles))


@pytest.mark.parametrize(("game", "seed"), [("klondike", 2), ("klondike", 7), ("canfield", 39)])
def test_readings_that_drop_and_misname_cards_are_followed_move_by_move(game: str, seed: int) -> None:
    rng = random.Random(seed)
    table = Table.dealt(find_game(game), seed)
    frames: list[Table | None] = [_noisy(camera_view(table), rng, 0.2, 0.03) for _ in range(8)]
    played = []
    for move in greedy_playout(table, max_moves=20):
        played.append(str(move))
        frames += [None] * 3 + [_noisy(camera_view(table), rng, 0.2, 0.03) for _ in range(8)]
    tracker = Tracker(partial=True)
    events = [e for n, f in enumerate(frames) for e in tracker.observe(n / 10, f, 0.95)]
    kinds = [e.kind for e in events]
    assert EventKind.ILLEGAL not in kinds
    assert EventKind.MISDEAL not in kinds
    assert [m for e in events if e.kind is EventKind.MOVE for m in e.moves] == played


def test_a_card_missing_from_every_reading_but_one_stays_where_it_was() -> None:
    table = camera_view(Table.dealt(find_game("klondike"), 4))
    tracker = Tracker(partial=True)
    feed(tracker, [table] * 4)
    assert tracker.model is not None
    t1 = table.codes("t1")
    blind = Table(table.game, [[] if p == "t1" else list(table.codes(p)) for p in table.pile_ids], [0] * 13)
    events = feed(tracker, [None, table, blind, blind, blind, blind, blind, blind])  # column 1 unread
    assert events == []  # no move, no alarm: the card nobody contradicts is still there
    assert tracker.model.codes("t1")[-1:] == t1


def test_one_misread_frame_of_a_moved_card_is_never_an_alarm_even_with_noise() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "t4": "6C", "s": "2c 3c"})
    misread = make_table("klondike", {"t1": "", "t2": "8D 7H", "t3": "KS", "t4": "6C", "s": "2c 3c"})
    tracker = Tracker(check_deal=False)
    feed(tracker, [table] * 4)
    events = feed(tracker, [None, table, misread, table, table, table, table, table, table])
    assert [k for k, _ in events] == []


def test_a_misdeal_is_reported_when_the_game_starts() -> None:
    deal = Table.dealt(find_game("klondike"), 3)
    wrong = make_table(
        "klondike",
        {
            p: " ".join(
                (str(c) if deal.is_face_up(p, k) else str(c)[:-1] + str(c)[-1].lower())
                for k, c in enumerate(deal.pile(p))
            )
            for p in deal.pile_ids
            if p != "t1"
        }
        | {"t1": ""},
    )
    events = feed(Tracker(), [wrong] * 5)
    assert events[1][0] is EventKind.MISDEAL
    assert "column 1 has 0 cards, the deal puts 1 there" in events[1][1]


def test_session_log_round_trips_and_verifies(tmp_path: Path) -> None:
    table = Table.dealt(find_game("canfield"), 39)
    table.stage = Stage.PLAY
    path = tmp_path / "session.jsonl"
    with SessionLog(path, "canfield", "test") as log:
        log.table(0.0, hide_face_down(table), 0.99)
        for n, _ in enumerate(greedy_playout(table, max_moves=30), start=1):
            log.table(float(n), hide_face_down(table), 0.99)
    record = read_session(path)
    assert record.game == "canfield"
    assert len(record.tables) == 31
    assert verify_tables([t.table for t in record.tables]).legal


def test_a_log_cut_off_mid_line_keeps_everything_before(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    with SessionLog(path, "klondike", "test") as log:
        log.table(0.0, Table.dealt(find_game("klondike"), 1), 1.0)
        log.table(1.0, Table.dealt(find_game("klondike"), 1), 1.0)
    text = path.read_text()
    path.write_text(text[: len(text) - 40])
    record = read_session(path)
    assert record.truncated
    assert len(record.tables) == 1


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('{"event": "start", "format": "cadogan-session", "version": 1}\nnot json\n{"event": "end"}\n', "line 2"),
        ('{"hello": 1}\n', "not a session event"),
        ("", "not a Cadogan session log"),
        (json.dumps({"event": "start", "format": "cadogan-session", "version": 9}) + "\n", "version 9"),
    ],
)
def test_damaged_logs_are_one_clear_error(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(SessionLogError, match=needle):
        read_session(path)


def test_each_logged_table_carries_what_was_announced_with_it(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    deal = Table.dealt(find_game("klondike"), 1)
    with SessionLog(path, "klondike", "test", partial=True) as log:
        log.table(0.5, deal, 1.0)
        log.write("misdeal", 0.5, text="column 2 shows 2 face-up cards, the deal shows 1", moves=[])
        log.table(1.0, deal, 1.0)
        log.write("move", 1.0, text="...", moves=["s>w"])
        log.write("illegal", 1.0, text="red 4 on red jack", moves=["w>t1"])
        log.write("move", 1.0, text="...", moves=["t2>f1", "s>w"])
        log.write("hint", 1.2, text="...", moves=["t3>t4"])  # (later: not announced with the table)
        log.table(2.0, deal, 1.0)
        log.write("move", 2.0, text="...", moves=["t2>t3"], retracts=["t2>f1", "s>w"])
        log.table(3.0, deal, 1.0)
    first, second, third, fourth = (entry.announced for entry in read_session(path).tables)
    assert first == Announced(misdeal=True)
    assert second == Announced(("s>w", "w>t1", "t2>f1", "s>w"), illegal_at=1, reason="red 4 on red jack")
    assert third == Announced(("t2>t3",), retracts=("t2>f1", "s>w"))
    assert fourth == Announced()


@pytest.mark.parametrize(
    ("event", "needle"),
    [
        ({"event": "move", "moves": "s>w"}, "not a list of move notations"),
        ({"event": "move", "moves": ["s>w"], "retracts": [3]}, "moves taken back at t=1.0 are not a list"),
    ],
)
def test_a_logged_move_that_is_not_notation_is_one_clear_error(
    tmp_path: Path, event: dict[str, object], needle: str
) -> None:
    path = tmp_path / "session.jsonl"
    with SessionLog(path, "klondike", "test", partial=True) as log:
        log.table(1.0, Table.dealt(find_game("klondike"), 1), 1.0)
    with path.open("a") as file:
        file.write(json.dumps({"t": 1.0, **event}) + "\n")
    with pytest.raises(SessionLogError, match=needle):
        read_session(path)


def _log_game(path: Path, illegal_after: int | None = None) -> None:
    table = Table.dealt(find_game("klondike"), 2)
    table.stage = Stage.PLAY
    with SessionLog(path, "klondike", "test") as log:
        log.table(0.0, hide_face_down(table), 0.99)
        for n, _ in enumerate(greedy_playout(table, max_moves=25), start=1):
            if n == illegal_after:
                # Put a column's top card onto another column against the rules, and log what that looks like.
                tops = [p for p in table.pile_ids if p.startswith("t") and table.codes(p)]
                move = next(
                    Move(a, b) for a in tops for b in tops if a != b and Move(a, b) not in table.generate_moves()
                )
                log.table(float(n), hide_face_down(table), 0.99)
                table.push(move)
                log.table(n + 0.5, hide_face_down(table), 0.99)
                return
            log.table(float(n), hide_face_down(table), 0.99)


def test_verify_command_on_a_legal_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cadogan.__main__ import main

    path = tmp_path / "game.jsonl"
    _log_game(path)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "verdict: every move legal" in out
    assert "   1. 00:01.00" in out


def test_verify_command_flags_an_illegal_move_with_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cadogan.__main__ import main

    path = tmp_path / "game.jsonl"
    _log_game(path, illegal_after=12)
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "verdict: not a legal game" in out
    assert "ILLEGAL" in out
    assert "first illegal move at 00:12.50" in out


@pytest.mark.parametrize("name", ["missing.jsonl", "video.mp4"])
def test_verify_command_bad_input_is_exit_2(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cadogan.__main__ import main

    assert main(["verify", str(tmp_path / name)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.parametrize(("game", "seed"), [("klondike", 2), ("canfield", 39)])
def test_partial_readings_are_followed_from_the_deal(game: str, seed: int) -> None:
    table = Table.dealt(find_game(game), seed)
    frames: list[Table | None] = [camera_view(table)] * 5
    played = 0
    for _ in greedy_playout(table, max_moves=30):
        played += 1
        frames += [None] * 3 + [camera_view(table)] * 5
    events = feed(Tracker(partial=True), frames)
    kinds = [k for k, _ in events]
    assert EventKind.MISDEAL not in kinds
    assert EventKind.ILLEGAL not in kinds
    assert EventKind.UNCLEAR not in kinds
    assert sum(k is EventKind.MOVE for k in kinds) == played


def test_partial_reading_of_a_misdeal_says_which_column() -> None:
    table = Table.dealt(find_game("klondike"), 3)
    view = camera_view(table)
    piles = [list(view.codes(p)) for p in view.pile_ids]
    piles[view.pile_ids.index("t4")].append(piles[view.pile_ids.index("t5")].pop())  # two face up on column 4
    # a column read empty is a misdeal only after 6 readings (before, it may be a card not read yet)
    events = feed(Tracker(partial=True), [Table(view.game, piles, [0] * len(piles))] * 6)
    assert events[1][0] is EventKind.MISDEAL
    assert "column 4 shows 2 face-up cards, the deal shows 1" in events[1][1]
    assert "column 5 shows 0 face-up cards, the deal shows 1" in events[1][1]


def _blank_deal(game: str, blank: str) -> tuple[Table, Table]:
    """A deal as the camera reads it (face-up cards only), and the same reading with ``blank``'s cards unread."""
    view = camera_view(Table.dealt(find_game(game), 3))
    piles = [[] if p == blank else list(view.codes(p)) for p in view.pile_ids]
    return view, Table(view.game, piles, [0] * len(piles))


def _backs(table: Table, **overrides: int) -> dict[str, int]:
    """The backs a camera sees on each cascade of a correct deal (its face-down cards), with ``overrides``."""
    sizes = table.game.deal_sizes()
    return {**{p: sizes[p][0] for p in table.pile_ids if p.startswith("t")}, **overrides}


def feed_with_backs(tracker: Tracker, frames: list[Table], backs: dict[str, int]) -> list[tuple[EventKind, str]]:
    return [(e.kind, e.text) for n, f in enumerate(frames) for e in tracker.observe(n / 30, f, 0.95, None, backs)]


@pytest.mark.parametrize(
    ("game", "blank", "name"),
    [("klondike", "t5", "column 5"), ("klondike", "t1", "column 1"), ("canfield", "t2", "column 2")],
)
def test_a_pile_read_blank_at_the_deal_whose_card_may_be_unread_is_asked_about_not_called_a_misdeal(
    game: str, blank: str, name: str
) -> None:
    # a camera reader that sees the backs: column 5's four backs show, so its top card is there, unread;
    # column 1 (Klondike) and Canfield's columns hold no back, so nothing tells an unread card from none
    view, unread = _blank_deal(game, blank)
    tracker = Tracker(partial=True)
    events = feed_with_backs(tracker, [unread] * 6, _backs(view))
    assert EventKind.MISDEAL not in [k for k, _ in events]
    assert [k for k, _ in events].count(EventKind.UNCLEAR) == 1  # said once, though two problems name the pile
    assert (
        EventKind.UNCLEAR,
        f"I cannot read the card on {name}: the deal puts one there (if it is missing, deal it)",
    ) in events
    assert tracker.model is not None
    assert tracker.model.codes(blank)[-1] == UNKNOWN
    # once a reading names the card, the model learns it: no move, no alarm
    events = feed_with_backs(tracker, [view] * 6, _backs(view))
    assert [k for k, _ in events] == [EventKind.STILL]
    assert tracker.model.codes(blank)[-1] == view.codes(blank)[-1]


def test_a_cascade_that_shows_neither_a_card_nor_a_back_at_the_deal_is_dealt_short() -> None:
    view, unread = _blank_deal("klondike", "t5")
    events = feed_with_backs(Tracker(partial=True), [unread] * 6, _backs(view, t5=0))
    assert events[1][0] is EventKind.MISDEAL
    assert "column 5 shows 0 face-up cards, the deal shows 1" in events[1][1]


def test_a_card_unread_at_the_deal_does_not_stop_the_game_being_followed() -> None:
    deal = Table.dealt(find_game("klondike"), 3)
    view, unread = _blank_deal("klondike", "t5")
    tracker = Tracker(partial=True)
    feed_with_backs(tracker, [unread] * 6, _backs(view))
    deal.stage = Stage.PLAY
    move = next(m for m in deal.generate_moves() if "t5" not in (m.src, m.dst))
    deal.push(move)
    after = camera_view(deal)
    moved = Table(after.game, [[] if p == "t5" else list(after.codes(p)) for p in after.pile_ids], [0] * 13)
    backs = _backs(view)
    events = tracker.observe(1.0, None) + [
        e for n in range(6) for e in tracker.observe(2 + n, moved, 0.95, None, backs)
    ]
    assert [e.moves for e in events if e.kind is not EventKind.STILL] == [(str(move),)]


def test_an_illegal_move_and_a_legal_one_read_as_one_change_are_both_named() -> None:
    table = make_table("klondike", {"t1": "7H", "t2": "8D", "t3": "KS", "t4": "QH", "s": "2c 3c"})
    after = make_table("klondike", {"t1": "", "t2": "8D 7H", "t3": "KS QH", "t4": "", "s": "2c 3c"})
    tracker = Tracker(check_deal=False)
    feed(tracker, [table] * 4)
    events = [e for n, f in enumerate([None, *[after] * 5]) for e in tracker.observe(n, f, 0.95)]
    named = [(e.kind, e.moves) for e in events if e.kind is not EventKind.STILL]
    assert named == [(EventKind.ILLEGAL, ("t1>t2",)), (EventKind.MOVE, ("t4>t3",))]


def test_no_accusation_rests_on_a_card_the_model_holds_from_one_reading() -> None:
    deal = Table.dealt(find_game("klondike"), 3)
    table = camera_view(deal)
    blank = Table(table.game, [[] if p == "t1" else list(table.codes(p)) for p in table.pile_ids], [0] * 13)
    deal.stage = Stage.PLAY
    columns = ("t2", "t3", "t4", "t5", "t6", "t7")
    wrong = next(Move("t1", p) for p in columns if Move("t1", p) not in deal.generate_moves())
    deal.push(wrong)  # the column 1 card put on another column against the rules
    moved = camera_view(deal)
    weak = Tracker(partial=True)
    feed(weak, [blank, blank, table])  # column 1 read once: its card kept where the deal puts one, unconfirmed
    assert weak.model is not None
    assert weak.model.codes("t1")[-1:] == table.codes("t1")
    events = feed(weak, [None, *[moved] * 6])
    assert EventKind.ILLEGAL not in [k for k, _ in events]
    assert EventKind.UNCLEAR in [k for k, _ in events]  # the player is asked to hold still instead
    sure = Tracker(partial=True)
    feed(sure, [table] * 3)
    assert EventKind.ILLEGAL in [k for k, _ in feed(sure, [None, *[moved] * 6])]


def test_a_misdeal_resting_on_a_card_never_read_surely_is_not_announced() -> None:
    # a court picture read as a card in every frame: a surplus card on column 4, each reading sure of the
    # rest of the table (0.95) but of that card only 0.5 on its own
    table = Table.dealt(find_game("klondike"), 3)
    view = camera_view(table)
    piles = [list(view.codes(p)) for p in view.pile_ids]
    t4, t5 = view.pile_ids.index("t4"), view.pile_ids.index("t5")
    extra = piles[t5].pop()
    piles[t4].append(extra)
    wrong = Table(view.game, piles, [0] * len(piles))

    def run(card_confidence: float) -> list[EventKind]:
        tracker = Tracker(partial=True)
        kinds = []
        for n in range(8):
            kinds += [e.kind for e in tracker.observe(n, wrong, 0.95, {("t4", extra): card_confidence})]
        return kinds

    assert EventKind.MISDEAL in run(0.9), "the same misdeal read surely is announced"
    doubtful = run(0.5)
    assert EventKind.MISDEAL not in doubtful
    assert EventKind.UNCLEAR in doubtful, "the player is asked to hold still instead"


def test_a_legal_move_and_its_undo_are_never_offered_as_an_illegal_change() -> None:
    # measured on c-misdeal-1: "move the 10 of diamonds onto the jack of spades", then "the top card of the
    # waste was not read" for the 10 put back, announced for a table that had not changed
    piles = {"w": ["??", "??", "10D"], "r": ["??"] * 12 + ["4S"], "f1": ["8S"], "t1": ["JH"], "t2": ["8H", "7S"]}
    model, _ = read_table({"game": "canfield", "stage": "play", "piles": {**piles, "t3": ["4C"], "t4": ["JS"]}})
    view = _view(model, partial=True)
    assert _mixed(model, view, 3, partial=True) is None


def test_a_card_put_on_a_card_left_unread_at_the_deal_is_a_legal_move_and_the_card_stays_unknown() -> None:
    # c-legal-1 (kde_penguins, Canfield seed 3): column 2's card is never read; the player puts column 4's ace
    # on it and fills the space from the stock of thirteen. The engine cannot judge a move onto an unknown
    # card: before, the change was unexplained and later ones were taken for illegal moves
    deal = Table.dealt(find_game("canfield"), 3)
    view, unread = _blank_deal("canfield", "t2")
    tracker = Tracker(partial=True)
    feed_with_backs(tracker, [unread] * 6, {})
    deal.stage = Stage.PLAY
    for move in (Move("t4", "t2"), Move("r", "t4")):
        assert move in deal.generate_moves()
        deal.push(move)
    after = camera_view(deal)
    moved = Table(
        after.game, [list(after.codes(p)[-1:] if p == "t2" else after.codes(p)) for p in after.pile_ids], [0] * 11
    )
    events = tracker.observe(1.0, None) + [e for n in range(6) for e in tracker.observe(2 + n, moved, 0.95, None, {})]
    assert [(e.kind, e.moves) for e in events if e.kind is not EventKind.STILL] == [(EventKind.MOVE, ("t4>t2", "r>t4"))]
    assert tracker.model is not None
    assert tracker.model.codes("t2") == (UNKNOWN, view.codes("t4")[-1])
    assert "onto column 2" in next(e.text for e in events if e.kind is EventKind.MOVE)  # not the guessed card's name


@pytest.mark.parametrize(("under", "accused"), [("9C", True), ("5C", False)])
def test_in_a_game_taken_up_midway_no_accusation_rests_on_a_card_off_its_cascades_build(
    under: str, accused: bool
) -> None:
    # k-illegal-1 (kde_ancient_egyptians): the deal went by unread, the table was taken up with an 8 of hearts
    # misread on column 7's 5 of clubs, and the 4 of hearts put legally on the 5 was announced as "red 4 on red 8".
    # A face-up run of a game played by the rules builds down; an 8 on a 5 is a misreading, not a place to accuse
    before = camera_view(make_table("klondike", {"t1": "KS", "t2": "QD", "t3": "7S", "t7": f"{under} 8H", "w": "4H"}))
    after = camera_view(make_table("klondike", {"t1": "KS", "t2": "QD", "t3": "7S", "t7": f"{under} 8H 4H"}))
    tracker = Tracker(partial=True)
    events = feed(tracker, [before] * 3 + [None] + [before] * 6 + [None] + [after] * 8)
    assert (EventKind.UNCLEAR, "I could not read the deal clearly: I follow the game from here") in events
    assert ((EventKind.ILLEGAL, "red 4 on red 8 is not allowed: colours must alternate") in events) is accused


@pytest.mark.parametrize("taken_empty_doubted", [True, False])
def test_a_column_read_empty_when_the_deal_went_by_unread_backs_no_accusation(taken_empty_doubted: bool) -> None:
    # bk-misdeal-1 (kde_standard, a reader that reads unsure crops twice): column 1's QS never read, the deal went by
    # unread and the table was taken up with column 1 empty; the JH put on the QS was announced as "only a king may
    # fill column 1". The deal filled every column: one read empty then may hold a card unread
    before = camera_view(
        make_table("klondike", {"t1": "KS", "t2": "QD", "t3": "7S", "t5": "9C", "t7": "5C", "w": "JH"})
    )
    after = camera_view(
        make_table("klondike", {"t1": "KS", "t2": "QD", "t3": "7S", "t4": "JH", "t5": "9C", "t7": "5C"})
    )
    tracker = Tracker(partial=True, taken_empty_doubted=taken_empty_doubted)
    events = feed(tracker, [before] * 3 + [None] + [before] * 6 + [None] + [after] * 8)
    assert (EventKind.UNCLEAR, "I could not read the deal clearly: I follow the game from here") in events
    accused = (EventKind.ILLEGAL, "only a king may fill column 4, not a red jack") in events
    assert accused is not taken_empty_doubted


def test_a_legal_move_is_never_explained_as_a_detour_through_an_illegal_one() -> None:
    # k-misdeal-2 with session 10's models: the 10 of spades put on the jack of diamonds was announced as "onto
    # the jack of hearts, then taken off it alone" (the 1914 rules move a run whole), found in the vote of the
    # cards read sure, where no legal move had been looked for
    model = make_table("klondike", {"t1": "JD", "t4": "JH", "t6": "KS", "t7": "5c 10S", "s": "2c 3c"})
    seen = _view(make_table("klondike", {"t1": "JD 10S", "t4": "JH", "t6": "KS", "t7": "5C", "s": "2c 3c"}), True)
    assert _mixed(model, seen, 3, partial=True) is None


def test_piles_left_unread_at_the_deal_are_asked_about_in_one_sentence() -> None:
    view = camera_view(Table.dealt(find_game("klondike"), 3))
    blank = Table(view.game, [[] if p in ("t5", "t6") else list(view.codes(p)) for p in view.pile_ids], [0] * 13)
    events = feed_with_backs(Tracker(partial=True), [blank] * 6, _backs(view))
    said = [text for kind, text in events if kind is EventKind.UNCLEAR]
    assert said == [
        "I cannot read the cards on column 5 and column 6: the deal puts one on each (if one is missing, deal it)"
    ]


def _outvoted_misdeal() -> list[Table | None]:
    """Readings of a Klondike deal whose column 2 got a card too many (X under its top card): of the first 6
    readings 2 see X, 2 miss it, and 2 see a different phantom in its place (scattered misreads that together
    outvote X); then 6 readings see X every time."""
    view = camera_view(Table.dealt(find_game("klondike"), 3))
    stock = Table.dealt(find_game("klondike"), 3).codes("s")
    extra, phantoms = stock[-1], stock[-3:-1]
    t2 = view.pile_ids.index("t2")

    def reading(under: int | None) -> Table:
        piles = [list(view.codes(p)) for p in view.pile_ids]
        if under is not None:
            piles[t2].insert(0, under)
        return Table(view.game, piles, [0] * len(piles))

    first = [reading(extra), reading(None), reading(extra), reading(phantoms[0]), reading(None), reading(phantoms[1])]
    return [*first, *(reading(extra) for _ in range(6))]


@pytest.mark.parametrize(("stray_reads", "misdeal"), [(12, True), (0, False)])
def test_a_card_too_many_outvoted_by_scattered_misreads_at_the_deal_is_read_on_until_the_vote_sees_it(
    stray_reads: int, misdeal: bool
) -> None:
    events = feed(Tracker(partial=True, stray_reads=stray_reads), _outvoted_misdeal())
    misdeals = [text for kind, text in events if kind is EventKind.MISDEAL]
    assert bool(misdeals) is misdeal, events
    if misdeal:
        assert "column 2 shows 2 face-up cards, the deal shows 1" in misdeals[0]
    else:  # read off the first six readings: the deal taken as correct, without the card too many
        assert events[0][0] is EventKind.STILL


@pytest.mark.parametrize("deal_on_leave", [True, False])
def test_a_deal_still_waiting_on_a_stray_card_when_hands_come_is_judged_on_the_readings_so_far(
    deal_on_leave: bool,
) -> None:
    # hc-illegal-1: the deal read on for a card seen in a few readings (``stray_reads``) while the player already
    # moved: the deal was lost with the moves before the game was taken up again
    readings = _outvoted_misdeal()[:6]
    events = feed(Tracker(partial=True, deal_on_leave=deal_on_leave), [*readings, None])
    assert [kind for kind, _ in events] == ([EventKind.STILL] if deal_on_leave else [])


@pytest.mark.parametrize(("seed", "turns"), [(22, 1), (3, 2)])
@pytest.mark.parametrize("under_read", [True, False])
def test_a_waste_card_played_off_cards_never_read_is_followed(seed: int, turns: int, under_read: bool) -> None:
    # c-legal-1 (kde_penguins, Canfield seed 3): two turns of three, only each turn's top read; the 4C went up
    # and the card it uncovered was not read either. The waste then showed an unread card over the turns' lower
    # cards, and the vote was completed with the JC of the first turn on top instead: nothing explained it, and
    # the tracker lost the game
    table = Table.dealt(find_game("canfield"), seed)
    tracker = Tracker(partial=True)
    frames: list[Table | None] = [camera_view(table)] * 6
    table.stage = Stage.PLAY
    played = []
    for move in [Move("s", "w", 3)] * turns + [Move("w", "f2")]:
        assert move in table.generate_moves()
        table.push(move)
        played.append(str(move))
        view = camera_view(table)
        if not under_read and move.src == "w":
            view = Table(view.game, [[] if p == "w" else list(view.codes(p)) for p in view.pile_ids], [0] * 11)
        frames += [None] * 4 + [view] * 6
    events = [e for n, f in enumerate(frames) for e in tracker.observe(n / 30, f, 0.95)]
    assert [m for e in events if e.kind is EventKind.MOVE for m in e.moves] == played
    assert [e.text for e in events if e.kind in (EventKind.UNCLEAR, EventKind.ILLEGAL)] == []
    assert tracker.model is not None
    assert len(tracker.model.codes("w")) == 3 * turns - 1


def _tableau_shifted(view: Table, shift: int, first: list[int] | None = None) -> Table:
    """``view`` with its tableau row read ``shift`` columns to the left (a layout fit gone wrong: the row's
    first cards unread and the others one or two columns over), or, with ``first``, column 1 read as ``first``
    and column 2 blank (the first two columns' cards taken for one cascade)."""
    tableau = [p for p in view.pile_ids if p.startswith("t")]
    piles = {p: list(view.codes(p)) for p in view.pile_ids}
    if first is not None:
        piles["t1"], piles["t2"] = first, []
    else:
        for k, pile in enumerate(tableau):
            piles[pile] = list(view.codes(tableau[k + shift])) if k + shift < len(tableau) else []
    return Table(view.game, [piles[p] for p in view.pile_ids], [0] * len(piles))


@pytest.mark.parametrize("deal_realigned", [True, False])
def test_deal_readings_with_the_row_read_a_column_or_two_over_are_put_back(deal_realigned: bool) -> None:
    # heldout2's gk-legal-2 (ancient egyptians, enrolled): column 1's card unread or misread in every reading; of 11
    # readings 3 put the row one or two columns over and 3 more read column 2's card on column 1, so the vote dealt
    # column 2's card to column 1 and a phantom to column 2, and the first move was never followed
    view = camera_view(Table.dealt(find_game("klondike"), 3))
    second = view.codes("t2")[-1]
    unread_first = _tableau_shifted(view, 0, first=[second])  # column 1's card unread, column 2's read there
    correct = Table(view.game, [[] if p == "t1" else list(view.codes(p)) for p in view.pile_ids], [0] * 13)
    frames = [_tableau_shifted(view, 1), unread_first, correct, _tableau_shifted(view, 2), _tableau_shifted(view, 1)]
    frames += [unread_first, correct, correct]
    tracker = Tracker(partial=True, deal_realigned=deal_realigned)
    feed_with_backs(tracker, frames, _backs(view))
    tracker.observe(1.0, None)  # hands come: the deal is judged on the readings so far
    assert tracker.model is not None
    if deal_realigned:
        assert [tracker.model.codes(p)[-1] for p in view.pile_ids if p.startswith("t")] == [
            UNKNOWN,
            *(view.codes(p)[-1] for p in view.pile_ids if p.startswith("t") and p != "t1"),
        ]
    else:  # column 2's card dealt to column 1
        assert tracker.model.codes("t1")[-1] == second


@pytest.mark.parametrize("stock_backs_unread", [True, False])
def test_a_stocks_back_read_as_a_card_is_no_card(stock_backs_unread: bool) -> None:
    # a deck's back design read as a card's index on the stock, in every reading (heldout19's ec-illegal-1, nicu
    # white: the stock's back read as the AD in half the readings): the deal lays the stock face down, so it is
    # no card there, neither a misdeal nor a card the moves must account for
    table = Table.dealt(find_game("klondike"), 3)
    view = camera_view(table)
    back = table.codes("s")[5]

    def read_on_stock(seen: Table) -> Table:
        return Table(seen.game, [[back] if p == "s" else list(seen.codes(p)) for p in seen.pile_ids], [0] * 13)

    tracker = Tracker(partial=True, stock_backs_unread=stock_backs_unread)
    events = feed_with_backs(tracker, [read_on_stock(view)] * 6, _backs(view))
    assert (EventKind.MISDEAL in [k for k, _ in events]) is not stock_backs_unread
    if stock_backs_unread:
        assert tracker.model is not None
        assert tracker.model.codes("s") == (UNKNOWN,) * 24
        table.stage = Stage.PLAY
        move = next(m for m in table.generate_moves() if m.src != "s")
        table.push(move)
        moved = read_on_stock(camera_view(table))
        events = [(e.kind, e.text) for e in tracker.observe(1.0, None)]
        events += feed_with_backs(tracker, [moved] * 6, _backs(view))
        assert [k for k, _ in events if k is not EventKind.STILL] == [EventKind.MOVE]
        assert tracker.model.codes("s") == (UNKNOWN,) * 24
