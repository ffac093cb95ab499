"""Frame sources: real video files written with OpenCV, images, folders, and the ways they fail."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from cadogan.sources import FrameSource, SourceError


def write_video(path: Path, frames: int = 30, fps: float = 15.0, fourcc: str = "mp4v") -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*fourcc), fps, (160, 120))
    for n in range(frames):
        image = np.full((120, 160, 3), n * 8 % 255, np.uint8)
        cv2.putText(image, str(n), (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 255), 3)
        writer.write(image)
    writer.release()
    return path


def test_video_frames_come_with_their_time(tmp_path: Path) -> None:
    source = FrameSource(str(write_video(tmp_path / "game.mp4")))
    frames = list(source)
    assert len(frames) == 30
    assert frames[15].t == pytest.approx(1.0)
    assert not source.ended_early


def test_a_video_cut_short_ends_early_with_a_reason(tmp_path: Path) -> None:
    # AVI keeps its index at the end: frames before the cut stay readable, as after a crash while recording.
    full = write_video(tmp_path / "full.avi", frames=120, fourcc="MJPG")
    data = full.read_bytes()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(data[: len(data) * 2 // 3])
    source = FrameSource(str(cut))
    frames = list(source)
    assert 10 < len(frames) < 120
    assert source.ended_early
    assert "ends abruptly" in source.end_reason


def test_an_mp4_cut_short_cannot_be_opened_and_says_so(tmp_path: Path) -> None:
    full = write_video(tmp_path / "full.mp4", frames=60)
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(full.read_bytes()[:5000])
    with pytest.raises(SourceError, match="cannot open it as a video"):
        FrameSource(str(cut))


def test_folder_of_images_in_name_order(tmp_path: Path) -> None:
    for n in (2, 1, 3):
        cv2.imwrite(str(tmp_path / f"img{n}.png"), np.full((10, 10, 3), n, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(FrameSource(str(tmp_path)))
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3]


@pytest.mark.parametrize(
    ("spec", "needle"),
    [("97", "webcam 97 did not open"), ("missing.mp4", "no such file or folder")],
)
def test_sources_that_do_not_open_are_one_clear_error(spec: str, needle: str) -> None:
    with pytest.raises(SourceError, match=needle):
        FrameSource(spec)


def test_a_damaged_image_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "photo.jpg"
    bad.write_bytes(b"not a jpeg")
    with pytest.raises(SourceError, match="not a readable image"):
        list(FrameSource(str(bad)))


def test_an_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="holds no images"):
        FrameSource(str(tmp_path))
