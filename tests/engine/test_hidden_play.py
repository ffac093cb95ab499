"""``bench.hidden_play``: what the companion knows of a table, and paired games (a deal told against another
version's record of it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.hidden_play import camera_memory, load_record, main, parted_at, sign_test
from engine.cards import UNKNOWN
from engine.games import find_game
from engine.table import Table


def test_the_companion_knows_the_games_own_state() -> None:
    """A view keeps The Great Thirteen's re-deal place (and a Klondike stock's face-down cards unknown): a view
    without it offered the first packet's re-deal again."""
    table = Table.dealt(find_game("the-great-thirteen"), 3)
    while not any(move.dst.startswith("g") for move in table.generate_moves()):
        table.play(table.generate_moves()[0])
    table.play(table.generate_moves()[0])
    assert table.hook_state == (1,)
    view = camera_memory(table, set())
    assert view.hook_state == (1,)
    assert view.generate_moves() == table.generate_moves()
    klondike = Table.dealt(find_game("klondike/draw3"), 0)
    assert camera_memory(klondike, set()).codes("t7")[:6] == (UNKNOWN,) * 6


@pytest.mark.parametrize(
    ("ours", "theirs", "parted"),
    [
        (["s:3>w", "t1>t2"], ["s:3>w", "t1>t2"], None),
        (["s:3>w", "t1>t2"], ["s:3>w", "t3>t2"], 1),
        (["t1>t2"], ["s:3>w"], 0),
        (["s:3>w"], ["s:3>w", "t1>t2"], 1),
        ([], [], None),
    ],
)
def test_two_games_part_at_their_first_different_move(ours: list[str], theirs: list[str], parted: int | None) -> None:
    assert parted_at(ours, theirs) == parted


@pytest.mark.parametrize(
    ("here", "there", "p"),
    [(0, 0, 1.0), (3, 2, 1.0), (1, 0, 1.0), (6, 0, 0.03125), (12, 0, 0.00048828125), (2, 10, 0.0386)],
)
def test_sign_test_over_the_deals_one_side_won_alone(here: int, there: int, p: float) -> None:
    assert sign_test(here, there) == pytest.approx(p, abs=1e-4)
    assert sign_test(there, here) == pytest.approx(p, abs=1e-4)


def test_a_deal_is_paired_with_its_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "games.jsonl"
    quick = ["--first", "3", "--deals", "1", "--nodes", "300", "--max-moves", "6"]
    main([*quick, "--record", str(record)])
    recorded = load_record(str(record))
    assert list(recorded) == [3]
    assert recorded[3].ending == "too long"
    assert len(recorded[3].moves) == 6
    capsys.readouterr()

    # The same hint again: the same game, so nothing parts and neither side won alone.
    main([*quick, "--against", str(record)])
    out = capsys.readouterr().out
    assert "parted" not in out
    assert "1 deals paired; won here only 0 [], there only 0 []" in out

    # Another version that played otherwise from its third move and won.
    other = tmp_path / "other.jsonl"
    moves = [*recorded[3].moves[:2], "t7>t1"]
    other.write_text(json.dumps({"seed": 3, "ending": "won", "moves": moves}) + "\n")
    main([*quick, "--against", str(other)])
    out = capsys.readouterr().out
    assert "deal 3: too long after 6 moves; parted at move 2 from the other, which won" in out
    assert "won here only 0 [], there only 1 [3]" in out


def test_a_broken_record_is_one_clear_line(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    record.write_text('{"seed": 1, "ending": "won", "moves": []}\n{"seed": 2}\n')
    with pytest.raises(SystemExit, match=r"games.jsonl, line 2: not a --record line"):
        load_record(str(record))
