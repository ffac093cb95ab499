"""The critical-position set of ``bench.hint_positions``: its labels are true, and it scores a hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.hint_positions import SHIPPED, main, replay, verdict
from engine.moves import Move
from engine.solver import Verdict


def _positions() -> list[dict[str, object]]:
    positions: list[dict[str, object]] = json.loads(SHIPPED.read_text())["positions"]
    return positions


def test_every_position_is_a_real_choice() -> None:
    positions = _positions()
    assert len(positions) >= 50
    for position in positions:
        labels = position["labels"]
        assert isinstance(labels, dict)
        assert Verdict.SOLVED.value in labels.values()
        assert Verdict.UNSOLVABLE.value in labels.values()


@pytest.mark.parametrize("label", [Verdict.SOLVED, Verdict.UNSOLVABLE])
def test_a_labelled_move_does_what_its_label_says(label: Verdict) -> None:
    position = _positions()[0]
    moves = position["moves"]
    labels = position["labels"]
    assert isinstance(moves, list)
    assert isinstance(labels, dict)
    true, view, _ = replay("klondike/draw3", int(str(position["seed"])), moves)[-1]
    move = next(text for text, kind in labels.items() if kind == label.value)
    assert Move.parse(move) in view.generate_moves()  # the hint could give it: the camera's view allows it
    true.push(Move.parse(move))
    assert verdict(true, 30_000) is label


def test_the_bench_scores_a_small_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(SHIPPED.read_text())
    data["positions"] = data["positions"][:2]
    small = tmp_path / "two.json"
    small.write_text(json.dumps(data))
    assert main(["--positions", str(small), "--nodes", "2000"]) == 0
    out = capsys.readouterr().out
    assert "critical positions" in out
    assert " of 2 " in out


def test_a_missing_set_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--positions", str(tmp_path / "none.json")]) == 2
    assert "no position set" in capsys.readouterr().err
