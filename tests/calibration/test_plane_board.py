from __future__ import annotations

import numpy as np
import pytest

from calibration.board import DEFAULT_BOARD, BoardDetector
from calibration.errors import PlaneError
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import PlaneSource, TablePlane, plane_from_board
from calibration.synth import Renderer, SynthCamera, look_at_pose, project, rigid_alignment_error

SIZE = (1280, 720)


def _board_scene(
    camera: SynthCamera, renderer: Renderer, tilt: float, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centre = (DEFAULT_BOARD.width_mm / 2 + 10, DEFAULT_BOARD.height_mm / 2 + 10)
    rot, t = look_at_pose(camera, centre, 600.0, tilt, rng.uniform(-5, 5), rng.uniform(-10, 10))
    return renderer.render(rot, t, rng), rot, t


def _play_area(camera: SynthCamera, rot: np.ndarray, t: np.ndarray, plane: TablePlane) -> float:
    """Mean error (mm) over a 400 x 300 mm area around the board."""
    gx, gy = np.meshgrid(np.linspace(-110, 290, 11), np.linspace(-40, 260, 9))
    truth = np.column_stack([gx.ravel(), gy.ravel()])
    seen = project(camera, rot, t, truth)
    inside = (seen[:, 0] > 0) & (seen[:, 0] < SIZE[0]) & (seen[:, 1] > 0) & (seen[:, 1] < SIZE[1])
    return float(rigid_alignment_error(plane.image_to_table(seen[inside]), truth[inside]).mean())


@pytest.mark.parametrize("tilt", [0.0, 25.0, 45.0])
def test_board_gives_the_plane_within_1_mm(
    camera: SynthCamera, renderer: Renderer, true_intrinsics: CameraIntrinsics, tilt: float
) -> None:
    image, rot, t = _board_scene(camera, renderer, tilt, int(tilt))
    view = BoardDetector().detect(image)
    assert view is not None
    plane = plane_from_board(view, true_intrinsics, SIZE)
    assert plane.source is PlaneSource.BOARD
    assert _play_area(camera, rot, t, plane) <= 1.0
    tilt_est = plane.tilt_deg()
    assert tilt_est is not None
    assert abs(tilt_est - tilt) < 6.0


def test_board_without_intrinsics_is_good_on_the_board(camera: SynthCamera, renderer: Renderer) -> None:
    image, rot, t = _board_scene(camera, renderer, 30.0, 5)
    view = BoardDetector().detect(image)
    assert view is not None
    plane = plane_from_board(view, None, SIZE)
    truth = view.object_points[:, :2] + 10.0  # board mm -> sheet mm (the sheet has a 10 mm margin)
    err = rigid_alignment_error(plane.image_to_table(project(camera, rot, t, truth)), truth)
    assert err.mean() <= 1.0
    assert plane.tilt_deg() is None


def test_table_and_image_round_trip(true_intrinsics: CameraIntrinsics) -> None:
    h = np.array([[0.5, 0.02, -300.0], [0.01, 0.6, -200.0], [1e-5, 2e-4, 1.0]])
    plane = TablePlane(tuple(h.ravel()), 1280, 720, PlaneSource.BOARD, intrinsics=true_intrinsics)
    pts = np.array([[100.0, 80.0], [640.0, 360.0], [1200.0, 700.0]])
    assert np.allclose(plane.table_to_image(plane.image_to_table(pts)), pts, atol=1e-3)


def test_top_down_view_shows_board_squares_at_scale(
    camera: SynthCamera, renderer: Renderer, true_intrinsics: CameraIntrinsics
) -> None:
    image, _, _ = _board_scene(camera, renderer, 35.0, 9)
    detector = BoardDetector()
    view = detector.detect(image)
    assert view is not None
    plane = plane_from_board(view, true_intrinsics, SIZE, px_per_mm=3.0)
    table = plane.image_to_table(view.image_points)
    lo = table.min(axis=0) - 40
    top = plane.top_down(image, (float(lo[0]), float(lo[1])), (800, 900))
    seen = detector.detect(top)
    assert seen is not None
    assert seen.count >= 30
    # Neighbouring chessboard corners 25 mm apart must be 75 px apart in the 3 px/mm view.
    idx = {int(i): p for i, p in zip(seen.ids, seen.image_points, strict=True)}
    gaps = [np.linalg.norm(idx[i + 1] - idx[i]) for i in idx if i + 1 in idx and (i + 1) % 6 != 0]
    assert abs(float(np.median(gaps)) - 75.0) < 1.0


def test_collinear_board_points_are_refused() -> None:
    from calibration.board import BoardView

    pts = np.array([[0.0, 0, 0], [25, 0, 0], [50, 0, 0], [75, 0, 0]])
    view = BoardView(np.arange(4, dtype=np.int32), pts, pts[:, :2] * 2.0)
    with pytest.raises(PlaneError):
        plane_from_board(view, None, SIZE)


def test_top_down_maps_agree_with_the_point_mapping(true_intrinsics: CameraIntrinsics) -> None:
    h = np.array([[0.5, 0.02, -300.0], [0.01, 0.6, -200.0], [1e-5, 2e-4, 1.0]])
    for intr in (None, true_intrinsics):
        plane = TablePlane(tuple(h.ravel()), 1280, 720, PlaneSource.BOARD, intrinsics=intr)
        map_x, map_y = plane.top_down_maps((-250.0, -150.0), (400, 300), 1.0)
        for vx, vy in [(10, 20), (200, 150), (390, 280)]:
            expected = plane.table_to_image(np.array([[vx - 250.0, vy - 150.0]]))[0]
            if 0 <= expected[0] < 1280 and 0 <= expected[1] < 720:
                assert abs(map_x[vy, vx] - expected[0]) < 0.05
                assert abs(map_y[vy, vx] - expected[1]) < 0.05
