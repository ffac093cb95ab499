"""Deck enrolment from cards shown one by one: still moments found, named in order, a bumped card taken once."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from cadogan.enrol_stream import cards_shown
from cadogan.sources import TimedFrame
from calibration.profile import load_deck
from vision.cards import class_of

ROOT = Path(__file__).resolve().parents[2]
FPS = 4.0
HOLD = 8  # frames a card is held still (2 s)


@pytest.fixture(scope="module")
def looks() -> dict[str, Any]:
    """The same table and camera with one card of a training deck shown alone, or with none."""
    from vision.synth import RenderOptions, render_scene

    opts = RenderOptions(max_tilt=10, hand_probability=0.0, close_up=0.0)
    out = {}
    for name in ("AS", "2S", "3S", None):
        piles = {"p1": [(name, True)]} if name else {"p1": []}
        out[name or "empty"], _ = render_scene("spread", piles, deck="paris", seed=3, options=opts)
    return out


def _sequence(looks: dict[str, Any], names: list[str]) -> list[Any]:
    return [looks[name] for name in names for _ in range(HOLD)]


def _frames(images: list[Any]) -> list[TimedFrame]:
    return [TimedFrame(k, k / FPS, np.asarray(image, np.uint8)) for k, image in enumerate(images)]


@pytest.fixture(scope="module")
def rec() -> Any:
    from vision.recognise import load_recogniser

    return load_recogniser(threads=1)


def test_cards_shown_one_by_one_are_named_in_order(looks: dict[str, Any], rec: Any) -> None:
    # AS, then AS bumped (one frame of motion, no empty table between), then 2S and 3S with the table empty
    # between them: three cards, the bumped one taken once
    images = _sequence(looks, ["empty", "AS"])
    images += [looks["empty"]]  # a hand passing: motion, but not an empty still moment
    images += _sequence(looks, ["AS", "empty", "2S", "empty", "3S", "empty"])
    shown = cards_shown(_frames(images), rec)
    assert [card.name for card in shown] == ["AS", "2S", "3S"]
    starts = [k / FPS for k, (a, b) in enumerate(itertools.pairwise(images), 1) if a is not b]
    assert shown[0].t < starts[2], "AS is taken while it is first held"
    assert all(np.array_equal(card.image, looks[card.name]) for card in shown), "each card's own frame is taken"


def test_cards_shown_without_the_table_seen_empty_between_are_one(looks: dict[str, Any], rec: Any) -> None:
    # a card nudged (or another laid over it) without the table seen empty between is not a new card
    shown = cards_shown(_frames(_sequence(looks, ["AS", "2S", "empty", "3S"])), rec)
    assert [card.name for card in shown] == ["AS", "2S"]
    assert np.array_equal(shown[1].image, looks["3S"])


def test_showing_stops_when_the_order_is_done(looks: dict[str, Any], rec: Any) -> None:
    images = _sequence(looks, ["AS", "empty", "2S", "empty", "3S"])
    shown = cards_shown(_frames(images), rec, order=("AS", "2S"))
    assert [card.name for card in shown] == ["AS", "2S"]


def _video(path: Path, images: list[Any]) -> None:
    h, w = images[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), FPS, (w, h))
    for image in images:
        writer.write(image)
    writer.release()


def _calibrate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cadogan", "calibrate", "deck", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_cli_enrols_from_a_video_of_cards_shown_one_by_one(looks: dict[str, Any], tmp_path: Path) -> None:
    video = tmp_path / "shown.mp4"
    _video(video, _sequence(looks, ["empty", "AS", "empty", "2S", "empty", "3S", "empty"]))
    profile = tmp_path / "p.json"
    refused = _calibrate("--source", str(video), "--profile", str(profile))
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1, refused.stderr
    assert "found 3 of 52 cards; missing: 4S, 5S" in lines[0]
    assert not profile.exists(), "nothing is saved while cards are missing"
    done = _calibrate("--source", str(video), "--profile", str(profile), "--allow-missing")
    assert done.returncode == 0, done.stderr
    assert "AS taken; now show 2S" in done.stdout
    assert load_deck(str(profile)).cards == frozenset(class_of(n) for n in ("AS", "2S", "3S"))


def test_cli_a_video_with_no_card_held_still_is_one_clear_line(looks: dict[str, Any], tmp_path: Path) -> None:
    video = tmp_path / "empty.mp4"
    _video(video, _sequence(looks, ["empty", "empty"]))
    done = _calibrate("--source", str(video), "--profile", str(tmp_path / "p.json"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "no card was seen held still" in done.stderr
