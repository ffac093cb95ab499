from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.board import DEFAULT_BOARD
from calibration.errors import ProfileError
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import PlaneSource, TablePlane
from calibration.profile import FORMAT, VERSION, Profile, load_profile, profile_path, save_profile

CAMERA = CameraIntrinsics(
    1280, 720, 1000.0, 1002.0, 636.5, 362.5, (-0.12, 0.05, 0.0, 0.0, 0.0), 0.18, 15, DEFAULT_BOARD
)
PLANE = TablePlane((0.5, 0.0, -320.0, 0.0, 0.5, -180.0, 0.0, 1e-4, 1.0), 1280, 720, PlaneSource.CARDS, 0.4, 4.0, CAMERA)


def _write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_round_trip_through_a_file(tmp_path: Path) -> None:
    profile = Profile("desk", CAMERA, PLANE)
    path = save_profile(profile, str(tmp_path / "desk.json"))
    assert load_profile(str(path)) == profile
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no temporary file left behind"


@settings(max_examples=40, deadline=None)
@given(
    fx=st.floats(100, 5000),
    ratio=st.floats(0.9, 1.1),
    cx=st.floats(0, 1280),
    cy=st.floats(0, 720),
    dist=st.lists(st.floats(-1, 1), min_size=5, max_size=5),
    rms=st.floats(0, 5),
    undistorted=st.booleans(),
)
def test_json_round_trip(
    fx: float, ratio: float, cx: float, cy: float, dist: list[float], rms: float, undistorted: bool
) -> None:
    camera = CameraIntrinsics(1280, 720, fx, fx * ratio, cx, cy, tuple(dist), rms, 9, None)
    plane = TablePlane(PLANE.homography, 1280, 720, PlaneSource.BOARD, rms, 3.0, camera if undistorted else None)
    profile = Profile("x", camera, plane)
    assert Profile.from_json(json.loads(json.dumps(profile.to_json()))) == profile


def test_profile_names_live_in_the_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert profile_path("desk") == tmp_path / "cadogan" / "profiles" / "desk.json"
    save_profile(Profile("desk", CAMERA), "desk")
    assert load_profile("desk").camera == CAMERA
    with pytest.raises(ProfileError, match="bad profile name"):
        profile_path("my desk!")


def test_missing_profile(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="no such profile"):
        load_profile(str(tmp_path / "nope.json"))


def test_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "cadogan-calibration", "version": 1, "name": ')
    with pytest.raises(ProfileError, match=r"not valid JSON \(line 1"):
        load_profile(str(path))
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ProfileError, match=r"cannot read|not valid JSON"):
        load_profile(str(path))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2, 3], "not a Cadogan calibration profile"),
        ({"format": "something-else", "version": 1}, "not a Cadogan calibration profile"),
        ({"format": FORMAT, "version": VERSION + 1}, "made by a newer Cadogan"),
        ({"format": FORMAT, "version": "1"}, "unknown profile version"),
    ],
)
def test_foreign_or_future_files(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        load_profile(_write(tmp_path, data))


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    data = Profile("desk", CAMERA, PLANE).to_json()
    data["camera"]["fx"] = -5
    data["camera"]["dist"] = [0.1, 0.2, 0.3]
    data["camera"]["image_size"] = [1280]
    data["table"]["source"] = "guess"
    with pytest.raises(ProfileError) as info:
        load_profile(_write(tmp_path, data))
    text = str(info.value)
    assert "\n" not in text
    for part in (
        "camera.fx: must be positive",
        "camera.dist: expected 4 or 5 or 8 or 12 or 14 numbers",
        "camera.image_size",
        "table.source",
    ):
        assert part in text


def test_undistorted_plane_needs_a_camera(tmp_path: Path) -> None:
    data = Profile("desk", CAMERA, PLANE).to_json()
    data["camera"] = None
    with pytest.raises(ProfileError, match="profile has no camera"):
        load_profile(_write(tmp_path, data))


def test_wrong_types_are_reported_not_crashed(tmp_path: Path) -> None:
    data = Profile("desk", CAMERA, PLANE).to_json()
    data["camera"]["fx"] = "1000"
    data["camera"]["views"] = 2.5
    data["camera"]["board"] = {"squares_x": 2}
    data["table"]["homography"] = [0] * 9
    with pytest.raises(ProfileError) as info:
        load_profile(_write(tmp_path, data))
    text = str(info.value)
    assert "camera.fx: expected a finite number" in text
    assert "camera.views: expected an integer" in text
    assert "camera.board" in text
    assert "singular" in text


def test_resolution_mismatch_and_scaling() -> None:
    assert CAMERA.problems_for((1280, 720)) == []
    half = CAMERA.scaled_to((640, 360))
    assert half.fx == pytest.approx(500.0)
    assert half.cx == pytest.approx((636.5 + 0.5) / 2 - 0.5)
    with pytest.raises(ProfileError, match="different aspect ratio"):
        CAMERA.scaled_to((640, 480))
