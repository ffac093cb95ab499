"""The ChArUco calibration board: its geometry in millimetres, and finding it in an image.

Everything is in millimetres so that object points from the board are table millimetres directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError

FloatArray = npt.NDArray[np.float64]

# Names the profile file may hold; a closed set so that a profile never names a dictionary we cannot build.
DICTIONARIES: dict[str, int] = {
    "DICT_4X4_50": cv2.aruco.DICT_4X4_50,
    "DICT_5X5_100": cv2.aruco.DICT_5X5_100,
    "DICT_6X6_250": cv2.aruco.DICT_6X6_250,
}

# Fewer corners than this make a view whose homography, and so its pose, is too noisy to be worth keeping.
MIN_CORNERS = 8


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """A ChArUco board: ``squares_x`` columns by ``squares_y`` rows of ``square_mm`` squares."""

    squares_x: int = 7
    squares_y: int = 9
    square_mm: float = 25.0
    marker_mm: float = 18.0
    dictionary: str = "DICT_5X5_100"

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise CalibrationError("invalid board: " + "; ".join(problems))

    def problems(self) -> list[str]:
        out: list[str] = []
        if self.squares_x < 3 or self.squares_y < 3:
            out.append(f"a board needs at least 3 x 3 squares, not {self.squares_x} x {self.squares_y}")
        if not self.square_mm > 0:
            out.append(f"square size must be positive, not {self.square_mm}")
        if not 0 < self.marker_mm < self.square_mm:
            out.append(f"marker size must be between 0 and the square size, not {self.marker_mm}")
        if self.dictionary not in DICTIONARIES:
            out.append(f"unknown marker dictionary {self.dictionary!r} (known: {', '.join(DICTIONARIES)})")
        return out

    @property
    def width_mm(self) -> float:
        return self.squares_x * self.square_mm

    @property
    def height_mm(self) -> float:
        return self.squares_y * self.square_mm

    @property
    def corner_count(self) -> int:
        return (self.squares_x - 1) * (self.squares_y - 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "squares_x": self.squares_x,
            "squares_y": self.squares_y,
            "square_mm": self.square_mm,
            "marker_mm": self.marker_mm,
            "dictionary": self.dictionary,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardSpec:
        return cls(
            squares_x=int(data["squares_x"]),
            squares_y=int(data["squares_y"]),
            square_mm=float(data["square_mm"]),
            marker_mm=float(data["marker_mm"]),
            dictionary=str(data["dictionary"]),
        )


DEFAULT_BOARD = BoardSpec()


def cv_board(spec: BoardSpec) -> cv2.aruco.CharucoBoard:
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARIES[spec.dictionary])
    return cv2.aruco.CharucoBoard((spec.squares_x, spec.squares_y), spec.square_mm, spec.marker_mm, dictionary)


def board_image(spec: BoardSpec, px_per_mm: float) -> npt.NDArray[np.uint8]:
    """The bare board (no margin) as a grey image at ``px_per_mm``, its squares exactly ``square_mm``.

    OpenCV draws squares a whole number of pixels wide, so at most resolutions its board comes out a little
    small (0.4 % at 150 dpi). We draw whole-pixel squares a bit larger and shrink by area averaging instead.
    """
    size = (round(spec.width_mm * px_per_mm), round(spec.height_mm * px_per_mm))
    square_px = math.ceil(spec.square_mm * px_per_mm - 1e-9)
    big = (spec.squares_x * square_px, spec.squares_y * square_px)
    image = cv_board(spec).generateImage(big, marginSize=0, borderBits=1)
    if big != size:
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.asarray(image, np.uint8)


@dataclass(frozen=True, slots=True)
class BoardView:
    """One sighting of the board: matching object points (mm, z = 0) and image points (px)."""

    ids: npt.NDArray[np.int32]
    object_points: FloatArray  # (N, 3)
    image_points: FloatArray  # (N, 2)

    @property
    def count(self) -> int:
        return int(self.ids.shape[0])


class BoardDetector:
    """Finds the board in images; build once, call :meth:`detect` per frame (the detector is reused)."""

    def __init__(self, spec: BoardSpec = DEFAULT_BOARD) -> None:
        self.spec = spec
        self._board = cv_board(spec)
        params = cv2.aruco.DetectorParameters()
        # Sub-pixel corners of the markers tighten the interpolated chessboard corners.
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        self._detector = cv2.aruco.CharucoDetector(self._board, cv2.aruco.CharucoParameters(), params)

    def detect(self, image: npt.NDArray[np.uint8], min_corners: int = MIN_CORNERS) -> BoardView | None:
        """The board's chessboard corners in ``image``, or None when fewer than ``min_corners`` are seen."""
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        corners, ids, _, _ = self._detector.detectBoard(grey)
        if ids is None or corners is None or len(ids) < min_corners:
            return None
        # The stubs type detectedCorners for marker boards; a ChArUco board takes the corner array itself.
        obj, img = self._board.matchImagePoints(corners, ids)  # type: ignore[call-overload]
        if obj is None or len(obj) < min_corners:
            return None
        obj3 = np.asarray(obj, np.float64).reshape(-1, 3)
        if _collinear(obj3[:, :2]):
            return None
        return BoardView(
            ids=np.asarray(ids, np.int32).reshape(-1),
            object_points=obj3,
            image_points=np.asarray(img, np.float64).reshape(-1, 2),
        )


def _collinear(points: FloatArray) -> bool:
    """True when the points lie (nearly) on one line: such a view fixes no homography."""
    centred = points - points.mean(axis=0)
    singular = np.linalg.svd(centred, compute_uv=False)
    return bool(singular[-1] < 1e-3 * max(singular[0], 1e-9))
