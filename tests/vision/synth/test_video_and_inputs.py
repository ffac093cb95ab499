"""Recordings, table files and generated positions for the renderer."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import cv2
import pytest

from engine.errors import CadoganError
from vision.synth.contact import random_position
from vision.synth.scene import render_scene
from vision.synth.tablefile import load_piles, parse_card, piles_from_json
from vision.synth.video import render_video


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10H", ("10H", True)),
        ("10h", ("10H", False)),
        ("qs", ("QS", False)),
        ("Td", ("10D", False)),
        ("??", (None, False)),
        ("AC", ("AC", True)),
    ],
)
def test_card_notation(text: str, card: tuple[str | None, bool]) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("bad", ["1H", "10X", "", "AH "])
def test_bad_card_notation_is_a_clear_error(bad: str) -> None:
    with pytest.raises(CadoganError, match="notation"):
        parse_card(bad)


def test_table_file(tmp_path: Path) -> None:
    p = tmp_path / "t.json"
    p.write_text(json.dumps({"format": "cadogan-table", "game": "klondike", "piles": {"t1": ["5s", "4H"], "w": []}}))
    assert load_piles(str(p)) == ("klondike", {"t1": [("5S", False), ("4H", True)], "w": []})
    with pytest.raises(CadoganError, match="not a table"):
        piles_from_json({"piles": {}})
    with pytest.raises(CadoganError, match="pile id"):
        piles_from_json({"game": "klondike", "piles": {"T 1": []}})
    with pytest.raises(CadoganError, match="does not exist"):
        load_piles(str(tmp_path / "missing.json"))


@pytest.mark.parametrize("game", ["klondike", "canfield", "fortunes_wheel"])
def test_generated_positions_render_every_card(game: str) -> None:
    piles = random_position(game, 3)
    assert sum(len(p) for p in piles.values()) == 52
    _, truth = render_scene(game, piles, deck="dondorf", seed=3, size=(320, 180))
    assert len(truth.cards) == 52


def test_a_recording_keeps_still_tables_still_and_shows_the_hand(tmp_path: Path) -> None:
    before = random_position("klondike", 8)
    after = copy.deepcopy(before)
    after["t1"].append(("KH", True))
    out = tmp_path / "game.mp4"
    truths = render_video(
        "klondike", [before, after], str(out), deck="dondorf", seed=2, size=(320, 180), fps=10, hold_s=0.3, move_s=0.6
    )
    cap = cv2.VideoCapture(str(out))
    frames = 0
    while cap.read()[0]:
        frames += 1
    assert frames == len(truths) == 3 + 6 + 3
    assert truths[0].cards == truths[2].cards  # nothing moves while nobody touches the table
    assert truths[0].camera == truths[-1].camera
    assert any(t.hands == 1 for t in truths[3:9])
    assert [c.card for c in truths[-1].cards if c.pile == "t1"][-1] == "KH"


def test_a_recording_to_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CadoganError, match="cannot write video"):
        render_video("klondike", [random_position("klondike", 1)], str(tmp_path / "no" / "x.mp4"), size=(160, 90))
