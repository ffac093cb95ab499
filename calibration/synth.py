"""Synthetic camera views of a flat target, with exact ground truth, for tests and benchmarks.

A view is rendered by inverse mapping: for every (distorted) output pixel find the ideal pixel, then the plane
point under it, then sample the target texture there. That is exact for any lens model OpenCV can undistort.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import BoardSpec, board_image

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class SynthCamera:
    """A pinhole camera with OpenCV's distortion model (k1, k2, p1, p2, k3)."""

    width: int
    height: int
    matrix: FloatArray
    dist: FloatArray

    @classmethod
    def make(
        cls,
        width: int = 1280,
        height: int = 720,
        focal: float = 1000.0,
        dist: tuple[float, ...] = (-0.12, 0.05, 0.0, 0.0, 0.0),
    ) -> SynthCamera:
        matrix = np.array([[focal, 0.0, width / 2 - 3.5], [0.0, focal * 1.002, height / 2 + 2.5], [0, 0, 1]])
        return cls(width, height, matrix, np.array(dist, np.float64))


def rotation(tilt_x_deg: float, tilt_y_deg: float, spin_deg: float) -> FloatArray:
    """Camera-from-plane rotation: looking straight down the plane normal, then tilted and spun."""
    rvec_spin = np.array([0.0, 0.0, np.radians(spin_deg)])
    rvec_x = np.array([np.radians(tilt_x_deg), 0.0, 0.0])
    rvec_y = np.array([0.0, np.radians(tilt_y_deg), 0.0])
    r_spin, _ = cv2.Rodrigues(rvec_spin)
    r_x, _ = cv2.Rodrigues(rvec_x)
    r_y, _ = cv2.Rodrigues(rvec_y)
    return np.asarray(r_x @ r_y @ r_spin, np.float64)


def look_at_pose(
    cam: SynthCamera,
    target_mm: tuple[float, float],
    distance_mm: float,
    tilt_x_deg: float,
    tilt_y_deg: float,
    spin_deg: float,
    image_point: tuple[float, float] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """(R, t) such that the plane point ``target_mm`` is seen at ``image_point`` (default: image centre)."""
    rot = rotation(tilt_x_deg, tilt_y_deg, spin_deg)
    u, v = image_point if image_point is not None else (cam.width / 2, cam.height / 2)
    ray = np.linalg.solve(cam.matrix, np.array([u, v, 1.0]))
    ray /= np.linalg.norm(ray)
    target = np.array([target_mm[0], target_mm[1], 0.0])
    t = distance_mm * ray - rot @ target
    return rot, t


def plane_homography(cam: SynthCamera, rot: FloatArray, t: FloatArray) -> FloatArray:
    """Plane mm -> ideal (undistorted) image pixels."""
    h = cam.matrix @ np.column_stack([rot[:, 0], rot[:, 1], t])
    return np.asarray(h / h[2, 2], np.float64)


def project(cam: SynthCamera, rot: FloatArray, t: FloatArray, points_mm: FloatArray) -> FloatArray:
    """Plane points (N, 2) mm -> distorted image pixels (N, 2)."""
    obj = np.column_stack([points_mm, np.zeros(len(points_mm))]).astype(np.float64)
    rvec, _ = cv2.Rodrigues(rot)
    img, _ = cv2.projectPoints(obj, rvec, t.reshape(3, 1), cam.matrix, cam.dist)
    return np.asarray(img, np.float64).reshape(-1, 2)


def _ideal_grid(cam: SynthCamera) -> FloatArray:
    """Ideal pixel for every distorted output pixel, shape (H, W, 2)."""
    ys, xs = np.mgrid[0 : cam.height, 0 : cam.width].astype(np.float64)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)
    ideal = cv2.undistortPoints(pts, cam.matrix, cam.dist, None, None, cam.matrix, criteria)
    return np.asarray(ideal, np.float64).reshape(cam.height, cam.width, 2)


class Renderer:
    """Renders views of one textured plane through one camera; caches the lens grid between views."""

    def __init__(
        self, cam: SynthCamera, texture: npt.NDArray[np.uint8], texture_px_per_mm: float, background: int = 90
    ) -> None:
        self.cam = cam
        self.texture = texture
        self.px_per_mm = texture_px_per_mm
        self.background = background
        self._grid = _ideal_grid(cam)

    def render(
        self,
        rot: FloatArray,
        t: FloatArray,
        rng: np.random.Generator,
        blur_sigma: float = 0.7,
        noise_sigma: float = 2.0,
    ) -> npt.NDArray[np.uint8]:
        h_inv = np.linalg.inv(plane_homography(self.cam, rot, t))
        g = self._grid
        x, y = g[..., 0], g[..., 1]
        w = h_inv[2, 0] * x + h_inv[2, 1] * y + h_inv[2, 2]
        # Texture pixel i covers [i, i + 1) mm*ppm, so its centre sits half a pixel in.
        mx = ((h_inv[0, 0] * x + h_inv[0, 1] * y + h_inv[0, 2]) / w * self.px_per_mm - 0.5).astype(np.float32)
        my = ((h_inv[1, 0] * x + h_inv[1, 1] * y + h_inv[1, 2]) / w * self.px_per_mm - 0.5).astype(np.float32)
        behind = w <= 0  # pixels looking away from the plane see the background
        mx[behind] = -1e6
        image = cv2.remap(
            self.texture,
            mx,
            my,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=self.background,
        )
        if blur_sigma > 0:
            image = cv2.GaussianBlur(image, (0, 0), blur_sigma)
        noisy = image.astype(np.float64) + rng.normal(0.0, noise_sigma, image.shape)
        return np.clip(noisy, 0, 255).astype(np.uint8)


def board_texture(
    spec: BoardSpec, px_per_mm: float = 6.0, margin_mm: float = 10.0
) -> tuple[npt.NDArray[np.uint8], float, float]:
    """The board on a white sheet; returns (texture, px_per_mm, margin_mm). Plane mm = board mm + margin."""
    board = board_image(spec, px_per_mm)
    pad = round(margin_mm * px_per_mm)
    sheet = cv2.copyMakeBorder(board, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    return np.asarray(sheet, np.uint8), px_per_mm, pad / px_per_mm


def calibration_poses(
    cam: SynthCamera, spec: BoardSpec, count: int, rng: np.random.Generator
) -> list[tuple[FloatArray, FloatArray]]:
    """Varied poses that keep the whole board in view: tilted up to ~40 degrees about both axes."""
    poses: list[tuple[FloatArray, FloatArray]] = []
    centre = (spec.width_mm / 2, spec.height_mm / 2)
    corners = np.array([[0, 0], [spec.width_mm, 0], [spec.width_mm, spec.height_mm], [0, spec.height_mm]])
    while len(poses) < count:
        tilt_x = rng.uniform(-40, 40)
        tilt_y = rng.uniform(-40, 40)
        spin = rng.uniform(-30, 30) + (90 if rng.random() < 0.5 else 0)
        dist = rng.uniform(380, 520)
        at = (rng.uniform(0.3, 0.7) * cam.width, rng.uniform(0.3, 0.7) * cam.height)
        rot, t = look_at_pose(cam, centre, dist, tilt_x, tilt_y, spin, at)
        img = project(cam, rot, t, corners)
        margin = 15
        inside = (img[:, 0] > margin) & (img[:, 0] < cam.width - margin)
        inside &= (img[:, 1] > margin) & (img[:, 1] < cam.height - margin)
        if inside.all():
            poses.append((rot, t))
    return poses


def card_layout(
    rng: np.random.Generator,
    card_mm: tuple[float, float] = (63.0, 88.0),
    jitter_mm: float = 2.0,
    jitter_deg: float = 3.0,
) -> FloatArray:
    """A Klondike-like deal as card corner quads (n, 4, 2) in table mm, clockwise from top-left, untidy.

    Stock and foundations on top, seven fanned columns below; only the visible cards' full outlines are
    returned because that is what a recogniser reports (it completes each card's outline from its corner).
    """
    w, h = card_mm
    centres: list[tuple[float, float, float]] = []
    pitch = w + 14.0
    for col in range(7):
        if col != 2:  # stock, waste, gap, four foundations
            centres.append((col * pitch, 0.0, 0.0))
        for row in range(col + 1):
            centres.append((col * pitch, h + 25.0 + row * 18.0, 0.0))
    if rng.random() < 0.5:
        centres.append((3.5 * pitch, h + 260.0, 90.0))  # a card left sideways below the layout
    quads = []
    for x, y, deg in centres:
        angle = np.radians(deg + rng.normal(0.0, jitter_deg))
        c, s = np.cos(angle), np.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        model = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        centre = np.array([x, y]) + rng.normal(0.0, jitter_mm, 2)
        quads.append(model @ rot.T + centre)
    return np.array(quads)


def card_scene(
    cam: SynthCamera,
    tilt_deg: float,
    rng: np.random.Generator,
    noise_px: float = 0.5,
    distance_mm: float = 750.0,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """(noisy image quads, exact image quads, table quads mm, R, t) of a deal seen at ``tilt_deg``."""
    quads_mm = card_layout(rng)
    centre = quads_mm.reshape(-1, 2).mean(axis=0)
    spin = rng.uniform(-8, 8)
    rot, t = look_at_pose(cam, (float(centre[0]), float(centre[1])), distance_mm, tilt_deg, rng.uniform(-5, 5), spin)
    exact = project(cam, rot, t, quads_mm.reshape(-1, 2)).reshape(-1, 4, 2)
    noisy = exact + rng.normal(0.0, noise_px, exact.shape)
    # A recogniser may start anywhere and go either way round: so must we.
    for i in range(len(noisy)):
        noisy[i] = np.roll(noisy[i], int(rng.integers(4)), axis=0)
        if rng.random() < 0.5:
            noisy[i] = noisy[i][::-1]
    return noisy, exact, quads_mm, rot, t


def rigid_alignment_error(estimated: FloatArray, truth: FloatArray) -> FloatArray:
    """Distances (N,) after the best rotation + translation of ``estimated`` onto ``truth``."""
    e = estimated - estimated.mean(axis=0)
    g = truth - truth.mean(axis=0)
    u, _, vt = np.linalg.svd(e.T @ g)
    d = np.sign(np.linalg.det(u @ vt))
    rot = u @ np.diag([1.0, d]) @ vt
    return np.asarray(np.linalg.norm(e @ rot - g, axis=1), np.float64)
