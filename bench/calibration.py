"""Accuracy and speed of calibration on synthetic views with exact ground truth.

Run from the repository root:  .venv/bin/python -m bench.calibration  [--quick]
Prints: camera calibration (focal error, RMS), table plane from the board and from the cards alone
(mean error in mm over the play area), and the speed of plane_from_cards. Deterministic seeds.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: bench/ must not shadow the calibration package
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import platform
import time

import numpy as np

from calibration.board import DEFAULT_BOARD, BoardDetector
from calibration.camera import calibrate_views
from calibration.cards import plane_from_cards
from calibration.intrinsics import CameraIntrinsics
from calibration.plane import TablePlane, plane_from_board
from calibration.synth import (
    Renderer,
    SynthCamera,
    board_texture,
    calibration_poses,
    card_scene,
    look_at_pose,
    project,
    rigid_alignment_error,
)

FloatArray = np.ndarray


def _area_error(
    plane: TablePlane, cam: SynthCamera, rot: FloatArray, t: FloatArray, lo: FloatArray, hi: FloatArray
) -> float:
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 12), np.linspace(lo[1], hi[1], 9))
    truth = np.column_stack([gx.ravel(), gy.ravel()])
    seen = project(cam, rot, t, truth)
    inside = (seen[:, 0] >= 0) & (seen[:, 0] < cam.width) & (seen[:, 1] >= 0) & (seen[:, 1] < cam.height)
    return float(rigid_alignment_error(plane.image_to_table(seen[inside]), truth[inside]).mean())


def bench_camera(cam: SynthCamera, renderer: Renderer, trials: int) -> CameraIntrinsics:
    print("camera calibration: 15 synthetic views, 1280x720, f=1000 px, k1=-0.12 k2=0.05, blur 0.7, noise 2")
    detector = BoardDetector()
    last: CameraIntrinsics | None = None
    for seed in range(trials):
        rng = np.random.default_rng(seed)
        views = []
        for rot, t in calibration_poses(cam, DEFAULT_BOARD, 15, rng):
            view = detector.detect(renderer.render(rot, t, rng))
            if view is not None:
                views.append(view)
        start = time.perf_counter()
        intr = calibrate_views(views, (cam.width, cam.height), DEFAULT_BOARD)
        took = time.perf_counter() - start
        print(
            f"  seed {seed}: fx error {100 * (intr.fx / cam.matrix[0, 0] - 1):+.3f} %, "
            f"fy error {100 * (intr.fy / cam.matrix[1, 1] - 1):+.3f} %, RMS {intr.rms_px:.3f} px, "
            f"{intr.views} views, calibrateCamera {took:.2f} s"
        )
        last = intr
    assert last is not None
    return last


def bench_board(cam: SynthCamera, renderer: Renderer, intr: CameraIntrinsics) -> None:
    print("table plane from the board (calibrated camera), mean error over a 400 x 300 mm area:")
    detector = BoardDetector()
    lo, hi = np.array([-110.0, -40.0]), np.array([290.0, 260.0])
    for tilt in (0.0, 15.0, 30.0, 45.0):
        errs = []
        for seed in range(3):
            rng = np.random.default_rng(100 + seed)
            rot, t = look_at_pose(cam, (97.5, 122.5), 600.0, tilt, rng.uniform(-5, 5), rng.uniform(-10, 10))
            view = detector.detect(renderer.render(rot, t, rng))
            if view is None:
                print(f"  tilt {tilt:4.0f}: board not found")
                continue
            errs.append(_area_error(plane_from_board(view, intr, (cam.width, cam.height)), cam, rot, t, lo, hi))
        print(f"  tilt {tilt:4.0f} deg: mean {np.mean(errs):.3f} mm, worst scene {np.max(errs):.3f} mm")


def bench_cards(cam: SynthCamera, intr: CameraIntrinsics, scenes: int) -> None:
    print(f"table plane from ~35 dealt cards alone, corner noise 0.5 px, {scenes} scenes per row:")
    for label, camera in (("no intrinsics", None), ("calibrated camera", intr)):
        for tilt in (0.0, 15.0, 30.0, 45.0):
            rng = np.random.default_rng(int(tilt))
            at_cards, over_area = [], []
            for _ in range(scenes):
                noisy, _, quads_mm, rot, t = card_scene(cam, tilt, rng, noise_px=0.5)
                plane = plane_from_cards(list(noisy), camera, (cam.width, cam.height))
                corners = quads_mm.reshape(-1, 2)
                seen = project(cam, rot, t, corners)
                at_cards.append(float(rigid_alignment_error(plane.image_to_table(seen), corners).mean()))
                over_area.append(_area_error(plane, cam, rot, t, corners.min(axis=0), corners.max(axis=0)))
            print(
                f"  {label:17s} tilt {tilt:4.0f} deg: card corners mean {np.mean(at_cards):.3f} mm "
                f"(worst {np.max(at_cards):.3f}), play area mean {np.mean(over_area):.3f} mm "
                f"(worst {np.max(over_area):.3f})"
            )


def bench_speed(cam: SynthCamera, intr: CameraIntrinsics, calls: int) -> None:
    print(f"plane_from_cards speed ({calls} calls each; wall clock, so a busy machine shows in p95):")
    rng = np.random.default_rng(9)
    noisy, *_ = card_scene(cam, 30.0, rng)
    for count in (len(noisy), 10, 1):
        for label, camera in (("no intrinsics", None), ("calibrated", intr)):
            quads = list(noisy[:count])
            times = []
            for _ in range(calls):
                start = time.perf_counter()
                plane_from_cards(quads, camera, (cam.width, cam.height))
                times.append(time.perf_counter() - start)
            ms = 1000 * np.array(times)
            print(f"  {count:2d} cards, {label:13s}: median {np.median(ms):.2f} ms, p95 {np.percentile(ms, 95):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer trials (about 15 s)")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, python {platform.python_version()}")
    cam = SynthCamera.make()
    texture, px_per_mm, _ = board_texture(DEFAULT_BOARD)
    renderer = Renderer(cam, texture, px_per_mm)
    intr = bench_camera(cam, renderer, 1 if args.quick else 3)
    bench_board(cam, renderer, intr)
    bench_cards(cam, intr, 5 if args.quick else 20)
    bench_speed(cam, intr, 50 if args.quick else 300)


if __name__ == "__main__":
    main()
