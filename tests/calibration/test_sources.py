from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.camera import calibrate_frames
from calibration.errors import BoardNotFoundError, SourceError
from calibration.sources import Frame, open_frames, read_image


def test_nonexistent_webcam_index() -> None:
    with pytest.raises(SourceError, match="webcam 97 did not open"):
        open_frames("97")


def test_nonexistent_path() -> None:
    with pytest.raises(SourceError, match="no such file or folder"):
        open_frames("/no/such/folder")


def test_folder_without_images(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hi")
    with pytest.raises(SourceError, match="folder has no images"):
        open_frames(str(tmp_path))


def test_folder_without_a_board(tmp_path: Path) -> None:
    for i in range(2):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((120, 160, 3), 40 * i, np.uint8))
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    frames = list(open_frames(str(tmp_path)))
    assert [f.label for f in frames] == ["0.png", "1.png"]
    with pytest.raises(BoardNotFoundError, match=r"no ChArUco board found in 2 frame\(s\)"):
        calibrate_frames(open_frames(str(tmp_path)), source_name=str(tmp_path))


def test_a_file_that_is_no_video(tmp_path: Path) -> None:
    path = tmp_path / "clip.mp4"
    path.write_bytes(b"\x00" * 64)
    with pytest.raises(SourceError, match="cannot open it as a video"):
        open_frames(str(path))


def test_video_frames_and_every(tmp_path: Path, board_frames: list[Frame]) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (320, 240))
    if not writer.isOpened():
        pytest.skip("this OpenCV build writes no MJPG video")
    for i in range(6):
        writer.write(np.full((240, 320, 3), 30 * i, np.uint8))
    writer.release()
    frames = list(open_frames(str(path), every=2))
    assert len(frames) == 3
    assert frames[1].label.endswith("frame 2")
    assert read_image(str(path)).shape == (240, 320, 3)
