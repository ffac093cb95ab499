"""The table plane: a homography from (undistorted) image pixels to table millimetres.

The table frame is a convention, not a measurement: its origin is the table point seen at the image centre and
its x axis runs along the image's x axis there, so a top-down view looks like the camera's view, straightened.
Every estimate (board or cards) is brought to that frame, so planes from either source are comparable.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import BoardView
from calibration.errors import PlaneError
from calibration.intrinsics import CameraIntrinsics
from calibration.jsonio import Reader

FloatArray = npt.NDArray[np.float64]

# A top-down view at 4 px/mm shows a card's corner index (about 6 x 15 mm) at 24 x 60 px: enough to read it.
DEFAULT_PX_PER_MM = 4.0


class PlaneSource(enum.Enum):
    BOARD = "board"
    CARDS = "cards"


@dataclass(frozen=True, slots=True)
class TablePlane:
    """Image -> table mm; ``homography`` (row-major 3x3) takes *undistorted* pixels if ``intrinsics`` set."""

    homography: tuple[float, ...]
    width: int
    height: int
    source: PlaneSource
    residual_px: float = 0.0
    px_per_mm: float = DEFAULT_PX_PER_MM
    intrinsics: CameraIntrinsics | None = None

    @property
    def matrix(self) -> FloatArray:
        return np.array(self.homography, np.float64).reshape(3, 3)

    @property
    def image_size(self) -> tuple[int, int]:
        return (self.width, self.height)

    def image_to_table(self, points: npt.ArrayLike) -> FloatArray:
        """Image pixels (N, 2) as the camera delivers them -> table mm (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self.intrinsics is not None:
            pts = self.intrinsics.undistort_points(pts)
        return apply_homography(self.matrix, pts)

    def table_to_image(self, points: npt.ArrayLike) -> FloatArray:
        """Table mm (N, 2) -> image pixels (N, 2) as the camera delivers them."""
        pts = apply_homography(np.linalg.inv(self.matrix), np.asarray(points, np.float64).reshape(-1, 2))
        if self.intrinsics is not None:
            pts = self.intrinsics.distort_points(pts)
        return pts

    def top_down_homography(self, origin_mm: tuple[float, float], px_per_mm: float | None = None) -> FloatArray:
        """Undistorted image px -> top-down view px, with table point ``origin_mm`` at view pixel (0, 0)."""
        s = self.px_per_mm if px_per_mm is None else px_per_mm
        to_view = np.array([[s, 0.0, -s * origin_mm[0]], [0.0, s, -s * origin_mm[1]], [0.0, 0.0, 1.0]])
        return np.asarray(to_view @ self.matrix, np.float64)

    def top_down_maps(
        self, origin_mm: tuple[float, float], size_px: tuple[int, int], px_per_mm: float | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """``cv2.remap`` maps from the top-down view straight into the raw (distorted) frame: one resampling.

        Build them once per plane and reuse them for every frame; the remap itself is cheap.
        """
        to_view = self.top_down_homography(origin_mm, px_per_mm)
        w, h = self.image_size
        if self.intrinsics is None:
            grid = np.dstack(np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)))
            pad = (0, 0)
        else:
            # OpenCV's undistortion map gives, per ideal pixel, its raw pixel. Barrel distortion pushes the
            # frame's corners beyond the ideal image, so the map covers a margin around it.
            pad = (w // 4, h // 4)
            k = self.intrinsics.matrix
            k_pad = k.copy()
            k_pad[0, 2] += pad[0]
            k_pad[1, 2] += pad[1]
            map_x, map_y = cv2.initUndistortRectifyMap(
                k, self.intrinsics.dist_array, None, k_pad, (w + 2 * pad[0], h + 2 * pad[1]), cv2.CV_32FC1
            )
            grid = np.dstack([map_x, map_y])
        shift = np.array([[1.0, 0.0, -pad[0]], [0.0, 1.0, -pad[1]], [0.0, 0.0, 1.0]])
        # Sampling the (smooth) map through the homography is exact enough and far faster than per point.
        warped = cv2.warpPerspective(
            grid,
            to_view @ shift,
            size_px,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(-1.0, -1.0, 0.0, 0.0),
        )
        return np.ascontiguousarray(warped[..., 0], np.float32), np.ascontiguousarray(warped[..., 1], np.float32)

    def top_down(
        self,
        image: npt.NDArray[np.uint8],
        origin_mm: tuple[float, float],
        size_px: tuple[int, int],
        px_per_mm: float | None = None,
    ) -> npt.NDArray[np.uint8]:
        if self.intrinsics is None:
            m = self.top_down_homography(origin_mm, px_per_mm)
            return np.asarray(cv2.warpPerspective(image, m, size_px, flags=cv2.INTER_LINEAR), np.uint8)
        map_x, map_y = self.top_down_maps(origin_mm, size_px, px_per_mm)
        return np.asarray(cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR), np.uint8)

    def tilt_deg(self) -> float | None:
        """Angle between the camera's axis and the table's normal; needs intrinsics."""
        if self.intrinsics is None:
            return None
        cols = np.linalg.inv(self.intrinsics.matrix) @ np.linalg.inv(self.matrix)
        normal = np.cross(cols[:, 0], cols[:, 1])
        cos = abs(normal[2]) / max(float(np.linalg.norm(normal)), 1e-12)
        return math.degrees(math.acos(min(1.0, cos)))

    def to_json(self) -> dict[str, Any]:
        """The plane without its intrinsics: a profile stores those once, beside it."""
        return {
            "homography": list(self.homography),
            "image_size": [self.width, self.height],
            "source": self.source.value,
            "residual_px": self.residual_px,
            "px_per_mm": self.px_per_mm,
            "undistorted": self.intrinsics is not None,
        }

    @classmethod
    def read(cls, r: Reader, camera: CameraIntrinsics | None, camera_given: bool) -> TablePlane | None:
        """Read from ``r``; ``camera_given`` says the profile has a camera section (valid or not)."""
        start = len(r.problems)
        hom = r.numbers("homography", (9,))
        size = r.numbers("image_size", (2,))
        source = r.text("source", tuple(s.value for s in PlaneSource))
        residual = r.number("residual_px", minimum=0.0)
        px_per_mm = r.number("px_per_mm", positive=True)
        undistorted = r.raw("undistorted")
        if not isinstance(undistorted, bool):
            r.problems.append(f"{r.where}.undistorted: expected true or false")
        elif undistorted and not camera_given:
            r.problems.append(f"{r.where}: made for undistorted images, but the profile has no camera")
        if len(r.problems) == start and abs(np.linalg.det(np.array(hom).reshape(3, 3))) < 1e-15:
            r.problems.append(f"{r.where}.homography: singular matrix")
        if len(r.problems) > start:
            return None
        return cls(
            hom,
            int(size[0]),
            int(size[1]),
            PlaneSource(source),
            residual,
            px_per_mm,
            camera if undistorted else None,
        )


def apply_homography(homography: npt.ArrayLike, points: npt.ArrayLike) -> FloatArray:
    h = np.asarray(homography, np.float64)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    x = pts @ h[:2, :2].T + h[:2, 2]
    w = pts @ h[2, :2] + h[2, 2]
    return np.asarray(x / w[:, None], np.float64)


def make_plane(
    table_to_image: FloatArray,
    image_size: tuple[int, int],
    source: PlaneSource,
    residual_px: float,
    intrinsics: CameraIntrinsics | None,
    px_per_mm: float = DEFAULT_PX_PER_MM,
) -> TablePlane:
    """Bring a table->ideal-image homography into the canonical table frame and wrap it."""
    h = canonical_frame(table_to_image, image_size, intrinsics)
    img_to_table = np.linalg.inv(h)
    img_to_table /= img_to_table[2, 2]
    return TablePlane(
        tuple(float(v) for v in img_to_table.ravel()),
        int(image_size[0]),
        int(image_size[1]),
        source,
        float(residual_px),
        float(px_per_mm),
        intrinsics,
    )


def canonical_frame(
    table_to_image: FloatArray, image_size: tuple[int, int], intrinsics: CameraIntrinsics | None
) -> FloatArray:
    """Re-express a table->image homography in the canonical frame (see the module's docstring)."""
    centre = np.array([[(image_size[0] - 1) / 2, (image_size[1] - 1) / 2]])
    if intrinsics is not None:
        centre = intrinsics.undistort_points(centre)
    inv = np.linalg.inv(table_to_image)
    c = apply_homography(inv, centre)[0]
    d = apply_homography(inv, centre + np.array([[1.0, 0.0]]))[0] - c
    angle = math.atan2(d[1], d[0])
    cos, sin = math.cos(angle), math.sin(angle)
    new_to_old = np.array([[cos, -sin, c[0]], [sin, cos, c[1]], [0.0, 0.0, 1.0]])
    h = table_to_image @ new_to_old
    return np.asarray(h / h[2, 2], np.float64)


def plane_from_board(
    view: BoardView,
    intrinsics: CameraIntrinsics | None,
    image_size: tuple[int, int],
    px_per_mm: float = DEFAULT_PX_PER_MM,
) -> TablePlane:
    """The table plane from a board lying flat on it (board millimetres are table millimetres)."""
    if intrinsics is not None and intrinsics.image_size != tuple(image_size):
        intrinsics = intrinsics.scaled_to((int(image_size[0]), int(image_size[1])))
    obj = view.object_points[:, :2]
    img = view.image_points
    if intrinsics is not None:
        img = intrinsics.undistort_points(img)
        # With the lens known, a 6-degree-of-freedom pose is better constrained than a free homography.
        ok, rvec, tvec = cv2.solvePnP(view.object_points, img, intrinsics.matrix, None, flags=cv2.SOLVEPNP_IPPE)
        if not ok:
            raise PlaneError("the board's pose could not be solved; is the board flat?")
        rot, _ = cv2.Rodrigues(rvec)
        h = intrinsics.matrix @ np.column_stack([rot[:, 0], rot[:, 1], np.asarray(tvec).ravel()])
    else:
        found, _ = cv2.findHomography(obj, img, 0)
        if found is None:
            raise PlaneError("the board's homography could not be solved; is the board flat?")
        h = np.asarray(found, np.float64)
    residual = float(np.sqrt(np.mean(np.sum((apply_homography(h, obj) - img) ** 2, axis=1))))
    return make_plane(h, image_size, PlaneSource.BOARD, residual, intrinsics, px_per_mm)
