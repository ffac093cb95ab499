"""The lens map: the canvas it needs covers every point the photo looks at, and it inverts the lens model."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.synth.camera import lens_canvas, sample_camera, undistort_map

SIZES = [(640, 360), (333, 211), (1280, 720)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seed", range(6))
def test_canvas_bounds_are_those_of_the_whole_map(seed: int, size: tuple[int, int]) -> None:
    """``lens_canvas`` finds the bounds from the grid's border and nodes: they must be the per-pixel ones."""
    cam = sample_camera(np.random.default_rng([seed, 2]), (0, 0, 500, 400), size)
    w, h = size
    mx, my = undistort_map(cam)
    ox = math.floor(max(float(mx.min()), -w)) - 2
    oy = math.floor(max(float(my.min()), -h)) - 2
    lens = lens_canvas(cam)
    assert lens.origin == (ox, oy)
    assert lens.size == (
        math.ceil(min(float(mx.max()), 2.0 * w)) + 3 - ox,
        math.ceil(min(float(my.max()), 2.0 * h)) + 3 - oy,
    )
    assert lens.map.shape == (h, w, 2)
    assert np.abs(lens.map[:, :, 0] - (mx - ox)).max() < 1e-3
    assert np.abs(lens.map[:, :, 1] - (my - oy)).max() < 1e-3


@pytest.mark.parametrize("seed", range(6))
def test_the_map_inverts_the_lens_model(seed: int) -> None:
    """A photo pixel's ideal point, sent back through ``cv2.projectPoints``, lands on the pixel."""
    cam = sample_camera(np.random.default_rng([seed, 2]), (0, 0, 500, 400), (640, 360))
    lens = lens_canvas(cam)
    ys, xs = np.mgrid[20:340:7, 30:610:11]
    ideal = lens.map[ys, xs].reshape(-1, 2).astype(np.float64) + lens.origin
    fx, fy, cx, cy = cam.k
    rays = np.column_stack([(ideal[:, 0] - cx) / fx, (ideal[:, 1] - cy) / fy, np.ones(len(ideal))])
    back, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), cam.matrix(), np.array(cam.dist))
    photo = np.column_stack([xs.ravel(), ys.ravel()])
    assert np.abs(back.reshape(-1, 2) - photo).max() < 0.02


def test_the_map_is_remembered_and_read_only() -> None:
    cam = sample_camera(np.random.default_rng([3, 2]), (0, 0, 500, 400), (640, 360))
    assert lens_canvas(cam) is lens_canvas(cam)
    assert not lens_canvas(cam).map.flags.writeable
