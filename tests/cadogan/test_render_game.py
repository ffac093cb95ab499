"""`cadogan render-game`: a real mp4 of a played game with the table after each move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cadogan.__main__ import main
from cadogan.sources import FrameSource
from engine.formats import table_from_json
from engine.games import find_game
from engine.moves import Move
from engine.table import Table


def test_render_game_writes_video_and_truth(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video, truth = tmp_path / "game.mp4", tmp_path / "game.json"
    options = ["--seed", "2", "--max-moves", "2", "--size", "320x180", "--fps", "5"]
    code = main(["render-game", "klondike", *options, "-o", str(video), "--truth", str(truth)])
    assert code == 0
    record = json.loads(truth.read_text())
    assert len(record["moves"]) == 2
    frames = list(FrameSource(str(video)))
    last = record["tables"][-1]
    assert len(frames) == last["first_frame"] + last["frames"]
    assert frames[0].image.shape == (180, 320, 3)
    # The truth tables are the deal and the positions after each move.
    table = Table.dealt(find_game("klondike"), 2)
    for move, entry in zip(record["moves"], record["tables"][1:], strict=True):
        table.push(Move.parse(move))
        assert table_from_json(entry["table"]).key() == table.key()


def test_render_game_bad_output_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render-game", "klondike", "-o", str(tmp_path / "game.avi")]) == 2
    assert "must be an .mp4 file" in capsys.readouterr().err
