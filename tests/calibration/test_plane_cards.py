from __future__ import annotations

import numpy as np
import pytest

from calibration.cards import plane_from_cards
from calibration.errors import PlaneError
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import PlaneSource
from calibration.synth import SynthCamera, card_scene, project, rigid_alignment_error

SIZE = (1280, 720)


def _play_area_error(
    plane_est: object, camera: SynthCamera, rot: np.ndarray, t: np.ndarray, quads_mm: np.ndarray
) -> tuple[float, float]:
    """Mean error (mm) at the true card corners and on a grid over the layout's bounding box."""
    from calibration.plane import TablePlane

    assert isinstance(plane_est, TablePlane)
    corners = quads_mm.reshape(-1, 2)
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 12), np.linspace(lo[1], hi[1], 9))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    errors = []
    for truth in (corners, grid):
        seen = project(camera, rot, t, truth)
        errors.append(float(rigid_alignment_error(plane_est.image_to_table(seen), truth).mean()))
    return errors[0], errors[1]


@pytest.mark.parametrize("tilt", [0.0, 15.0, 30.0, 45.0])
@pytest.mark.parametrize("with_intrinsics", [False, True])
def test_cards_alone_give_the_plane_within_2_mm(
    camera: SynthCamera, true_intrinsics: CameraIntrinsics, tilt: float, with_intrinsics: bool
) -> None:
    rng = np.random.default_rng(int(tilt) + 100 * with_intrinsics)
    intr = true_intrinsics if with_intrinsics else None
    for _ in range(3):
        noisy, _, quads_mm, rot, t = card_scene(camera, tilt, rng, noise_px=0.5)
        plane = plane_from_cards(list(noisy), intr, SIZE)
        at_cards, over_area = _play_area_error(plane, camera, rot, t, quads_mm)
        assert at_cards <= 2.0
        assert over_area <= 2.0
        assert plane.source is PlaneSource.CARDS
        assert plane.residual_px < 2.0
        if with_intrinsics:
            tilt_est = plane.tilt_deg()
            assert tilt_est is not None
            assert abs(tilt_est - tilt) < 6.0


def test_one_card_is_enough_when_clean(camera: SynthCamera, true_intrinsics: CameraIntrinsics) -> None:
    rng = np.random.default_rng(1)
    _, exact, quads_mm, _rot, _t = card_scene(camera, 30.0, rng)
    plane = plane_from_cards([exact[5]], true_intrinsics, SIZE)
    err = rigid_alignment_error(plane.image_to_table(exact[5]), quads_mm[5])
    assert err.max() < 0.05


def test_any_start_corner_winding_and_sideways_cards(camera: SynthCamera) -> None:
    rng = np.random.default_rng(2)
    noisy, _, _quads_mm, _rot, _t = card_scene(camera, 20.0, rng, noise_px=0.0)
    reordered = [np.roll(q, 1, axis=0)[::-1] for q in noisy]
    a = plane_from_cards(list(noisy), None, SIZE)
    b = plane_from_cards(reordered, None, SIZE)
    pts = noisy.reshape(-1, 2)
    assert np.allclose(a.image_to_table(pts), b.image_to_table(pts), atol=1e-3)


def test_a_misdetected_card_is_outvoted(camera: SynthCamera, true_intrinsics: CameraIntrinsics) -> None:
    rng = np.random.default_rng(3)
    noisy, _, quads_mm, rot, t = card_scene(camera, 35.0, rng)
    broken = noisy.copy()
    broken[4, 2] += (25.0, -18.0)  # one corner far off, as when a hand covers it
    plane = plane_from_cards(list(broken), true_intrinsics, SIZE)
    at_cards, over_area = _play_area_error(plane, camera, rot, t, quads_mm)
    assert at_cards <= 2.0
    assert over_area <= 2.0


def test_canonical_frame_origin_is_under_the_image_centre(camera: SynthCamera) -> None:
    rng = np.random.default_rng(4)
    noisy, *_ = card_scene(camera, 25.0, rng)
    plane = plane_from_cards(list(noisy), None, SIZE)
    centre = np.array([[(SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2]])
    assert np.allclose(plane.image_to_table(centre), 0.0, atol=1e-6)
    # a point right of the centre in the image lies on the table's +x axis (the frame's convention)
    right = plane.image_to_table(centre + np.array([[50.0, 0.0]]))[0]
    assert right[0] > 1.0
    assert abs(right[1]) < 1e-6


@pytest.mark.parametrize(
    "quads",
    [
        [],
        [np.zeros((4, 2))],
        [np.full((4, 2), np.nan)],
        [np.zeros((3, 2))],
        [np.array([[0, 0], [5, 0], [5, 5], [0, 5.0]])],
    ],
)
def test_no_usable_card_is_a_plane_error(quads: list[np.ndarray]) -> None:
    with pytest.raises(PlaneError, match="no usable card outline"):
        plane_from_cards(quads, None, SIZE)


def test_intrinsics_of_another_resolution_are_scaled(camera: SynthCamera, true_intrinsics: CameraIntrinsics) -> None:
    rng = np.random.default_rng(6)
    noisy, _, quads_mm, rot, t = card_scene(camera, 30.0, rng)
    # The same camera delivering half-size frames: quads at half scale, intrinsics stored at full size.
    half = [(q + 0.5) / 2 - 0.5 for q in noisy]
    plane = plane_from_cards(half, true_intrinsics, (640, 360))
    assert plane.intrinsics is not None
    assert plane.intrinsics.image_size == (640, 360)
    seen = (project(camera, rot, t, quads_mm.reshape(-1, 2)) + 0.5) / 2 - 0.5
    assert rigid_alignment_error(plane.image_to_table(seen), quads_mm.reshape(-1, 2)).mean() < 2.0
