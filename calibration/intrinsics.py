"""Camera intrinsics: the pinhole matrix, lens distortion and how well they fit the calibration views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import BoardSpec
from calibration.errors import ProfileError
from calibration.jsonio import Reader

FloatArray = npt.NDArray[np.float64]

# OpenCV's distortion vectors come in these lengths: (k1 k2 p1 p2), + k3, + k4..k6, + s1..s4, + tx ty.
DIST_LENGTHS = (4, 5, 8, 12, 14)


@dataclass(frozen=True, slots=True)
class CameraIntrinsics:
    """Intrinsics of one camera at one resolution; ``dist`` in OpenCV's order."""

    width: int
    height: int
    fx: float
    fy: float
    cx: float
    cy: float
    dist: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)
    rms_px: float = 0.0
    views: int = 0
    board: BoardSpec | None = None

    @property
    def image_size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def matrix(self) -> FloatArray:
        return np.array([[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]])

    @property
    def dist_array(self) -> FloatArray:
        return np.array(self.dist, np.float64)

    @classmethod
    def from_arrays(
        cls,
        size: tuple[int, int],
        matrix: FloatArray,
        dist: FloatArray,
        rms_px: float = 0.0,
        views: int = 0,
        board: BoardSpec | None = None,
    ) -> CameraIntrinsics:
        m = np.asarray(matrix, np.float64)
        return cls(
            width=int(size[0]),
            height=int(size[1]),
            fx=float(m[0, 0]),
            fy=float(m[1, 1]),
            cx=float(m[0, 2]),
            cy=float(m[1, 2]),
            dist=tuple(float(d) for d in np.asarray(dist, np.float64).ravel()),
            rms_px=float(rms_px),
            views=int(views),
            board=board,
        )

    def problems_for(self, size: tuple[int, int]) -> list[str]:
        """Why these intrinsics do not fit frames of ``size`` (empty when they do, maybe after scaling)."""
        w, h = size
        if (w, h) == self.image_size:
            return []
        if abs(w * self.height - h * self.width) > max(w, h) // 100:
            return [
                f"the camera was calibrated at {self.width}x{self.height}, frames are {w}x{h} "
                "(a different aspect ratio): calibrate again at this resolution"
            ]
        return []

    def scaled_to(self, size: tuple[int, int]) -> CameraIntrinsics:
        """The same lens at another resolution of the same aspect ratio (sensor scaled, not cropped)."""
        problems = self.problems_for(size)
        if problems:
            raise ProfileError(problems[0])
        s = size[0] / self.width
        return CameraIntrinsics(
            width=size[0],
            height=size[1],
            fx=self.fx * s,
            fy=self.fy * s,
            # Pixel centres sit at half-pixel offsets, so scale about the image corner (-0.5, -0.5).
            cx=(self.cx + 0.5) * s - 0.5,
            cy=(self.cy + 0.5) * s - 0.5,
            dist=self.dist,
            rms_px=self.rms_px * s,
            views=self.views,
            board=self.board,
        )

    def undistort_points(self, points: FloatArray) -> FloatArray:
        """Distorted pixels (N, 2) -> ideal pixels (N, 2) of the same camera matrix."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if not any(self.dist):
            return pts.reshape(-1, 2).copy()
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-7)
        out = cv2.undistortPoints(pts, self.matrix, self.dist_array, None, None, self.matrix, criteria)
        return np.asarray(out, np.float64).reshape(-1, 2)

    def distort_points(self, points: FloatArray) -> FloatArray:
        """Ideal pixels (N, 2) -> distorted pixels (N, 2): the inverse of :meth:`undistort_points`."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if not any(self.dist):
            return pts.copy()
        k_inv = np.linalg.inv(self.matrix)
        rays = np.column_stack([pts, np.ones(len(pts))]) @ k_inv.T
        img, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), self.matrix, self.dist_array)
        return np.asarray(img, np.float64).reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "image_size": [self.width, self.height],
            "fx": self.fx,
            "fy": self.fy,
            "cx": self.cx,
            "cy": self.cy,
            "dist": list(self.dist),
            "rms_px": self.rms_px,
            "views": self.views,
            "board": None if self.board is None else self.board.to_json(),
        }

    @classmethod
    def read(cls, r: Reader) -> CameraIntrinsics | None:
        """Read from ``r``, recording every problem in it; None when the object is unusable."""
        start = len(r.problems)
        size = r.numbers("image_size", (2,))
        width, height = int(size[0]), int(size[1])
        if size != (width, height) or width <= 0 or height <= 0:
            r.problems.append(f"{r.where}.image_size: expected two positive integers, found {list(size)}")
        fx, fy = r.number("fx", positive=True), r.number("fy", positive=True)
        cx, cy = r.number("cx"), r.number("cy")
        if fx > 0 and fy > 0 and not 0.5 < fx / fy < 2.0:
            r.problems.append(f"{r.where}: fx / fy = {fx / fy:.2f}, no real camera has such non-square pixels")
        if width > 0 and height > 0 and not (0 <= cx <= width and 0 <= cy <= height):
            r.problems.append(f"{r.where}: principal point ({cx:g}, {cy:g}) lies outside the {width}x{height} image")
        dist = r.numbers("dist", DIST_LENGTHS)
        rms = r.number("rms_px", minimum=0.0)
        views = r.integer("views", minimum=0)
        board = None
        if r.has("board"):
            b = r.child("board")
            try:
                board = BoardSpec(
                    squares_x=b.integer("squares_x", minimum=3),
                    squares_y=b.integer("squares_y", minimum=3),
                    square_mm=b.number("square_mm", positive=True),
                    marker_mm=b.number("marker_mm", positive=True),
                    dictionary=b.text("dictionary"),
                )
            except ValueError as exc:
                r.problems.append(f"{r.where}.board: {exc}")
        if len(r.problems) > start:
            return None
        return cls(width, height, fx, fy, cx, cy, dist, rms, views, board)
