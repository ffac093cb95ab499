from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from cadogan.commands import calibrate
from calibration.errors import BoardNotFoundError, CalibrationError, ProfileError, SourceError
from calibration.profile import load_profile
from calibration.sources import Frame
from calibration.synth import Renderer, SynthCamera, card_scene, look_at_pose


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cadogan")
    calibrate.add_parser(parser.add_subparsers(dest="command", required=True))
    return parser


def _run(*argv: str) -> int:
    return calibrate.run(_parser().parse_args(["calibrate", *argv]))


@pytest.mark.parametrize("command", ["board", "camera", "table", "deck"])
def test_every_help_teaches_with_an_example(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["calibrate", command, "--help"])
    out = capsys.readouterr().out
    assert "example" in out
    assert f"cadogan calibrate {command}" in out


def test_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run("board", "-o", str(tmp_path / "b.png"), "--paper", "letter", "--dpi", "100") == 0
    assert (tmp_path / "b.png").exists()
    assert "100 %" in capsys.readouterr().out
    with pytest.raises(CalibrationError, match="--dpi"):
        _run("board", "-o", str(tmp_path / "b.png"), "--dpi", "5")


def test_deck_bad_input_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not an image")
    with pytest.raises(CalibrationError) as info:
        _run("deck", "--source", str(bad), "--profile", str(tmp_path / "p.json"))
    assert "\n" not in str(info.value)
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 90, np.uint8))
    with pytest.raises(CalibrationError, match="no cards found") as info:
        _run("deck", "--source", str(blank), "--profile", str(tmp_path / "p.json"))
    assert "\n" not in str(info.value)
    assert not (tmp_path / "p.json").exists()


def test_camera_then_table_from_a_folder(
    tmp_path: Path,
    board_frames: list[Frame],
    camera: SynthCamera,
    renderer: Renderer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shots = tmp_path / "shots"
    shots.mkdir()
    for i, frame in enumerate(board_frames):
        cv2.imwrite(str(shots / f"{i:02d}.png"), frame.image)
    profile = str(tmp_path / "desk.json")
    assert _run("camera", "--source", str(shots), "--profile", profile) == 0
    out = capsys.readouterr().out
    assert "RMS reprojection error" in out
    assert "saved profile" in out
    saved = load_profile(profile)
    assert saved.camera is not None
    assert abs(saved.camera.fx / camera.matrix[0, 0] - 1) < 0.01

    rng = np.random.default_rng(3)
    rot, t = look_at_pose(camera, (97.5, 122.5), 600.0, 30.0, 0.0, 5.0)
    table_image = tmp_path / "table.png"
    cv2.imwrite(str(table_image), renderer.render(rot, t, rng))
    top = tmp_path / "top.png"
    assert _run("table", "--source", str(table_image), "--profile", profile, "--top-down", str(top)) == 0
    out = capsys.readouterr().out
    assert "table plane from the board" in out
    assert "tilted" in out
    assert top.exists()
    saved = load_profile(profile)
    assert saved.table is not None
    assert saved.table.intrinsics == saved.camera

    # Recalibrating the camera drops the plane that was measured through the old intrinsics.
    assert _run("camera", "--source", str(shots), "--profile", profile) == 0
    assert "run `cadogan calibrate table` again" in capsys.readouterr().out
    assert load_profile(profile).table is None


def test_table_from_cards(tmp_path: Path, camera: SynthCamera, capsys: pytest.CaptureFixture[str]) -> None:
    noisy, *_ = card_scene(camera, 30.0, np.random.default_rng(5))
    quads = tmp_path / "quads.json"
    quads.write_text(json.dumps(noisy.tolist()))
    image = tmp_path / "deal.png"
    cv2.imwrite(str(image), np.zeros((camera.height, camera.width, 3), np.uint8))
    profile = str(tmp_path / "p.json")
    assert _run("table", "--source", str(image), "--cards", str(quads), "--profile", profile) == 0
    assert "table plane from the cards" in capsys.readouterr().out
    assert load_profile(profile).table is not None
    quads.write_text('[[1, 2], "x"]')
    with pytest.raises(CalibrationError, match="expected a list of card quads"):
        _run("table", "--source", str(image), "--cards", str(quads), "--profile", profile)


def test_table_without_a_board(tmp_path: Path) -> None:
    image = tmp_path / "empty.png"
    cv2.imwrite(str(image), np.full((240, 320, 3), 128, np.uint8))
    with pytest.raises(BoardNotFoundError, match="no calibration board on the table"):
        _run("table", "--source", str(image), "--profile", str(tmp_path / "p.json"))


def test_bad_sources_and_profiles(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="webcam 93 did not open"):
        _run("camera", "--source", "93", "--profile", str(tmp_path / "p.json"))
    with pytest.raises(SourceError, match="no such file or folder"):
        _run("camera", "--source", str(tmp_path / "nowhere"), "--profile", str(tmp_path / "p.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(ProfileError, match="not valid JSON"):
        _run("camera", "--source", "93", "--profile", str(broken))
