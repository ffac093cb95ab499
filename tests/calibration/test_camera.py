from __future__ import annotations

import numpy as np
import pytest

from calibration.board import DEFAULT_BOARD, BoardDetector
from calibration.camera import MIN_VIEWS, calibrate_frames, calibrate_views, collect_views
from calibration.errors import BoardNotFoundError, NotEnoughViewsError, SourceError
from calibration.sources import Frame
from calibration.synth import SynthCamera


def test_synthetic_views_give_focal_within_one_percent(camera: SynthCamera, board_frames: list[Frame]) -> None:
    said: list[str] = []
    intr = calibrate_frames(board_frames, DEFAULT_BOARD, target=14, say=said.append)
    assert abs(intr.fx / camera.matrix[0, 0] - 1) < 0.01
    assert abs(intr.fy / camera.matrix[1, 1] - 1) < 0.01
    assert abs(intr.cx - camera.matrix[0, 2]) < 6
    assert abs(intr.cy - camera.matrix[1, 2]) < 6
    assert intr.rms_px <= 0.5
    assert abs(intr.dist[0] - camera.dist[0]) < 0.02
    assert intr.views >= MIN_VIEWS
    assert intr.board == DEFAULT_BOARD
    assert any("kept" in line for line in said)


def test_duplicate_views_are_rejected(board_frames: list[Frame]) -> None:
    same = [board_frames[0]] * 5 + [board_frames[1]]
    collector, seen = collect_views(same, DEFAULT_BOARD, target=10)
    assert seen == 6
    assert len(collector.views) == 2


def test_too_few_views_is_one_clear_error(board_frames: list[Frame]) -> None:
    with pytest.raises(NotEnoughViewsError, match=r"only 3 distinct view\(s\)"):
        calibrate_frames(board_frames[:3], DEFAULT_BOARD)
    detector = BoardDetector()
    views = [v for v in (detector.detect(f.image) for f in board_frames[:2]) if v is not None]
    with pytest.raises(NotEnoughViewsError):
        calibrate_views(views, (1280, 720))


def test_no_board_visible() -> None:
    rng = np.random.default_rng(0)
    blank = [Frame(f"noise {i}", rng.integers(0, 255, (240, 320, 3), dtype=np.uint8)) for i in range(3)]
    with pytest.raises(BoardNotFoundError, match="no ChArUco board found in 3 frame"):
        calibrate_frames(blank, source_name="noise")
    with pytest.raises(BoardNotFoundError, match="in 0 frame"):
        calibrate_frames([], source_name="nothing")


def test_frames_changing_size_are_refused(board_frames: list[Frame]) -> None:
    small = Frame("small", np.zeros((100, 100, 3), np.uint8))
    with pytest.raises(SourceError, match="one resolution at a time"):
        collect_views([board_frames[0], small], DEFAULT_BOARD)


def test_advice_names_what_is_missing(board_frames: list[Frame]) -> None:
    collector, _ = collect_views(board_frames[:1], DEFAULT_BOARD)
    advice = collector.advice()
    assert advice, "one view cannot be enough"
    assert any("cover the" in a or "tilt the board" in a for a in advice)
    grid = collector.coverage_text().splitlines()
    assert len(grid) == 3
    assert all(line.startswith("|") for line in grid)
