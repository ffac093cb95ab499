"""A pinhole camera with lens distortion looking at the table plane (z = 0, mm; x right, y toward the player).

The renderer draws an undistorted *ideal* image through the plane homography, then bends it with the lens
model; truth points go through ``cv2.projectPoints`` with the same model, so both agree to sub-pixel.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
F32 = npt.NDArray[Any]  # ditto


@dataclass(frozen=True, slots=True)
class Camera:
    size: tuple[int, int]  # (width, height) px
    k: tuple[float, float, float, float]  # fx, fy, cx, cy
    dist: tuple[float, float, float, float, float]  # OpenCV k1, k2, p1, p2, k3
    rvec: tuple[float, float, float]  # table -> camera rotation (Rodrigues)
    tvec: tuple[float, float, float]  # mm

    def matrix(self) -> F64:
        fx, fy, cx, cy = self.k
        return np.array([[fx, 0, cx], [0, fy, cy], [0, 0, 1]], np.float64)

    def homography(self) -> F64:
        """Table mm (x, y) -> undistorted image px."""
        r, _ = cv2.Rodrigues(np.array(self.rvec, np.float64))
        h = self.matrix() @ np.column_stack([r[:, 0], r[:, 1], np.array(self.tvec)])
        return np.asarray(h / h[2, 2], np.float64)

    def project(self, pts_mm: F64) -> F64:
        """Table mm -> distorted image px (what the photo shows)."""
        obj = np.column_stack([pts_mm, np.zeros(len(pts_mm))]).astype(np.float64)
        img, _ = cv2.projectPoints(obj, np.array(self.rvec), np.array(self.tvec), self.matrix(), np.array(self.dist))
        return np.asarray(img.reshape(-1, 2), np.float64)


def look_at(target: F64, tilt_deg: float, distance: float, yaw_deg: float, roll_deg: float) -> tuple[F64, F64]:
    """rvec, tvec of a camera ``distance`` mm from ``target``, tilted from vertical toward the player."""
    t, yaw = math.radians(tilt_deg), math.radians(yaw_deg)
    # Camera offset: toward the player (+y) rotated by yaw about the vertical, and up (-z).
    off = np.array([math.sin(yaw) * math.sin(t), math.cos(yaw) * math.sin(t), -math.cos(t)]) * distance
    centre = target + off
    fwd = (target - centre) / np.linalg.norm(target - centre)
    toward = np.array([math.sin(yaw), math.cos(yaw), 0.0])  # the image's "down" leans to the player
    if abs(float(fwd @ toward)) > 0.999:
        toward = np.array([0.0, 1.0, 0.0])
    down = toward - (toward @ fwd) * fwd
    down /= np.linalg.norm(down)
    right = np.cross(down, fwd)
    rot = np.vstack([right, down, fwd])
    r = math.radians(roll_deg)
    roll = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rot = roll @ rot
    rvec, _ = cv2.Rodrigues(rot)
    return rvec.reshape(3), -rot @ centre


def sample_camera(
    rng: np.random.Generator,
    bbox: tuple[float, float, float, float],
    size: tuple[int, int],
    max_tilt: float = 45.0,
    close_up: float = 0.0,
    free_roll: float = 0.0,
) -> Camera:
    """A camera from straight above to ``max_tilt`` degrees, 0.4-1.2 m away, framing the layout ``bbox``.

    With probability ``close_up`` the camera comes closer (down to 0.25 m) and frames only part of the layout,
    as a phone held over a few cards does; with probability ``free_roll`` it is turned any way about its axis
    (a webcam clipped on at an angle, a layout dealt sideways). Both draw from ``rng`` only when non-zero, so
    the default cameras are unchanged.
    """
    w, h = size
    x0, y0, x1, y1 = bbox
    target = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
    tilt = float(rng.uniform(0, max_tilt)) if rng.random() < 0.8 else 0.0
    yaw = float(rng.normal(0, 6))
    roll = float(rng.normal(0, 2))
    hfov = math.radians(rng.uniform(55, 82))
    f = w / 2 / math.tan(hfov / 2)
    fill = rng.uniform(0.72, 0.95)
    near = 400.0
    if close_up > 0 and rng.random() < close_up:
        fill = float(rng.uniform(1.2, 3.5))  # the layout overflows the frame: only some cards are seen
        near = 250.0
        target = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1), 0.0])
    if free_roll > 0 and rng.random() < free_roll:
        roll = float(rng.uniform(-180.0, 180.0))
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    dist = 700.0
    for _ in range(3):  # framing: move the camera until the layout fills ``fill`` of the frame
        rvec, tvec = look_at(target, tilt, dist, yaw, roll)
        cam = Camera(size, (f, f, w / 2, h / 2), (0, 0, 0, 0, 0), tuple(rvec), tuple(tvec))
        p = cam.project(corners)
        ext = max((p[:, 0].max() - p[:, 0].min()) / w, (p[:, 1].max() - p[:, 1].min()) / h)
        dist = float(np.clip(dist * ext / fill, near, 1200.0))
    rvec, tvec = look_at(target, tilt, dist, yaw, roll)
    k1 = float(rng.uniform(-0.18, 0.05))  # webcams: mild barrel distortion, sometimes mild pincushion
    lens = (
        k1,
        float(rng.uniform(0.0, 0.06)),
        float(rng.normal(0, 0.0008)),
        float(rng.normal(0, 0.0008)),
        0.0,
    )
    cx, cy = w / 2 + rng.normal(0, w * 0.01), h / 2 + rng.normal(0, h * 0.01)
    return Camera(
        size,
        (f, f * float(rng.uniform(0.995, 1.005)), float(cx), float(cy)),
        lens,
        (float(rvec[0]), float(rvec[1]), float(rvec[2])),
        (float(tvec[0]), float(tvec[1]), float(tvec[2])),
    )


def undistort_map(cam: Camera, step: int = 8) -> tuple[F32, F32]:
    """For every photo pixel, where it lies in the ideal (undistorted) image.

    Solved on a coarse grid and interpolated: the lens model is smooth.
    """
    w, h = cam.size
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
    # Grid node j sits at pixel (j - 1) * step + (step - 1) / 2: then cv2.resize's bilinear upsampling by ``step``
    # puts output pixel X exactly on photo pixel X - step, with a margin cell so that nothing is clamped.
    c = (step - 1) / 2 - step
    xx, yy = np.meshgrid(np.arange(nx) * step + c, np.arange(ny) * step + c)
    pts = np.stack([xx.ravel(), yy.ravel()], axis=1).reshape(-1, 1, 2).astype(np.float64)
    und = cv2.undistortPoints(
        pts,
        cam.matrix(),
        np.array(cam.dist),
        None,
        None,
        cam.matrix(),
        (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-6),
    ).reshape(ny, nx, 2)
    maps = cv2.resize(und.astype(np.float32), (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    mx: F32 = np.ascontiguousarray(maps[step : step + h, step : step + w, 0])
    my: F32 = np.ascontiguousarray(maps[step : step + h, step : step + w, 1])
    return mx, my
