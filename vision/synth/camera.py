"""A pinhole camera with lens distortion looking at the table plane (z = 0, mm; x right, y toward the player).

The renderer draws an undistorted *ideal* image through the plane homography, then bends it with the lens
model; truth points go through ``cv2.projectPoints`` with the same model, so both agree to sub-pixel.
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=4)
def _lens_grid(cam: Camera, step: int) -> F32:
    """Where the photo's pixels lie in the ideal image, solved on a coarse grid (the lens model is smooth).

    Grid node j sits at photo pixel (j - 1) * step + (step - 1) / 2: then cv2.resize's bilinear upsampling by
    ``step`` puts output pixel X exactly on photo pixel X - step, with a margin cell so that nothing is clamped.
    """
    w, h = cam.size
    nx, ny = -(-w // step) + 2, -(-h // step) + 2
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
        (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-4),  # px: far below the interpolation's error
    ).reshape(ny, nx, 2)
    grid: F32 = und.astype(np.float32)
    grid.setflags(write=False)
    return grid


def undistort_map(cam: Camera, step: int = 8) -> tuple[F32, F32]:
    """For every photo pixel, where it lies in the ideal (undistorted) image (x map, y map)."""
    maps = _upsample(_lens_grid(cam, step), cam.size, step, (0.0, 0.0))
    return np.ascontiguousarray(maps[:, :, 0]), np.ascontiguousarray(maps[:, :, 1])


def _upsample(grid: F32, size: tuple[int, int], step: int, offset: tuple[float, float]) -> F32:
    """The coarse grid, shifted by ``-offset``, interpolated to one (x, y) pair per photo pixel (a view)."""
    w, h = size
    ny, nx = grid.shape[:2]
    shifted = grid - np.array(offset, np.float32) if offset != (0.0, 0.0) else grid
    maps: F32 = cv2.resize(shifted, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
    return maps[step : step + h, step : step + w]


def _extreme_values(grid: F32, size: tuple[int, int], step: int) -> F32:
    """The map's values on the photo's border pixels and at the grid nodes inside the photo: the map is bilinear
    between nodes, so its extremes over the photo are among these (a few thousand values, not a million)."""
    w, h = size
    ny, nx = grid.shape[:2]

    def at(n: int, count: int) -> tuple[npt.NDArray[np.intp], F32]:
        # Photo pixel i lies at fractional node i / step + 0.5 + 0.5 / step, where cv2.resize samples it.
        f = np.arange(count, dtype=np.float64) / step + 0.5 + 0.5 / step
        j = np.minimum(np.floor(f).astype(np.intp), n - 2)
        return j, (f - j).astype(np.float32)[:, None]

    jx, tx = at(nx, w)
    jy, ty = at(ny, h)
    rows = [grid[jy[k]] * (1 - ty[k]) + grid[jy[k] + 1] * ty[k] for k in (0, -1)]  # (nx, 2) each
    cols = [grid[:, jx[k]] * (1 - tx[k]) + grid[:, jx[k] + 1] * tx[k] for k in (0, -1)]  # (ny, 2) each
    border = [r[jx] * (1 - tx) + r[jx + 1] * tx for r in rows] + [c[jy] * (1 - ty) + c[jy + 1] * ty for c in cols]
    inner = grid[jy[0] + 1 : jy[-1] + 1, jx[0] + 1 : jx[-1] + 1].reshape(-1, 2)
    out: F32 = np.vstack([*border, inner])
    return out


@dataclass(frozen=True, slots=True)
class LensCanvas:
    """The undistorted canvas a photo is drawn from: its size, where it sits in ideal-image pixels, and the map
    (photo pixel -> canvas pixel, two channels, what ``cv2.remap`` takes)."""

    origin: tuple[int, int]  # ideal-image pixel of the canvas's top-left corner
    size: tuple[int, int]  # (width, height)
    map: F32


@functools.lru_cache(maxsize=2)
def lens_canvas(cam: Camera, step: int = 8) -> LensCanvas:
    """The canvas that covers every ideal point the lens looks at (barrel distortion reaches outside the
    frame; a few px of margin), and the lens map into it. Remembered per camera: a video keeps its camera."""
    w, h = cam.size
    grid = _lens_grid(cam, step)
    ext = _extreme_values(grid, cam.size, step)
    lo, hi = ext.min(0), ext.max(0)
    ox = math.floor(max(float(lo[0]), -w)) - 2
    oy = math.floor(max(float(lo[1]), -h)) - 2
    cw = math.ceil(min(float(hi[0]), 2.0 * w)) + 3 - ox
    ch = math.ceil(min(float(hi[1]), 2.0 * h)) + 3 - oy
    maps = _upsample(grid, cam.size, step, (float(ox), float(oy)))
    maps.setflags(write=False)
    return LensCanvas((ox, oy), (cw, ch), maps)
