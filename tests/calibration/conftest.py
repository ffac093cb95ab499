"""Shared synthetic camera, renderer and rendered board views (rendered once per session: they are slow)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.board import DEFAULT_BOARD
from calibration.intrinsics import CameraIntrinsics
from calibration.sources import Frame
from calibration.synth import Renderer, SynthCamera, board_texture, calibration_poses


@pytest.fixture(scope="session")
def camera() -> SynthCamera:
    return SynthCamera.make()


@pytest.fixture(scope="session")
def true_intrinsics(camera: SynthCamera) -> CameraIntrinsics:
    return CameraIntrinsics.from_arrays((camera.width, camera.height), camera.matrix, camera.dist)


@pytest.fixture(scope="session")
def renderer(camera: SynthCamera) -> Renderer:
    texture, px_per_mm, _ = board_texture(DEFAULT_BOARD)
    return Renderer(camera, texture, px_per_mm)


@pytest.fixture(scope="session")
def board_frames(camera: SynthCamera, renderer: Renderer) -> list[Frame]:
    rng = np.random.default_rng(7)
    poses = calibration_poses(camera, DEFAULT_BOARD, 14, rng)
    return [Frame(f"view {i}", renderer.render(rot, t, rng)) for i, (rot, t) in enumerate(poses)]
