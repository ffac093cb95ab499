"""`cadogan demo`: the whole pipeline on the built-in recording, end to end (small size to stay quick)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cadogan.demo_recording import plan_tables
from cadogan.session import read_session
from cadogan.sources import FrameSource
from engine.moves import Move
from engine.verify import why_illegal


def test_the_demo_game_holds_exactly_one_illegal_move() -> None:
    tables, moves, illegal_at = plan_tables(moves_before=4, moves_after=5)
    assert len(tables) == len(moves) + 1
    for n, move in enumerate(moves):
        legal = Move.parse(move) in tables[n].generate_moves()
        assert legal is (n != illegal_at)
    assert "colours must alternate" in why_illegal(tables[illegal_at], Move.parse(moves[illegal_at]))


def test_demo_runs_the_pipeline_and_ends_with_the_verify_report(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "cadogan", "demo", "--size", "480x270", "--moves", "1", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "verify report of the session log:" in lines
    assert lines[-1].startswith("the recording really holds: ")
    assert any(line.startswith("verdict: ") for line in lines) or "nothing to verify" in result.stdout
    record = read_session(out / "session.jsonl")
    assert record.game == "klondike"
    frames = list(FrameSource(str(out / "overlay.mp4")))
    assert len(frames) > 20
    assert frames[0].image.shape == (270, 480, 3)
