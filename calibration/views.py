"""Choosing calibration views: keep distinct poses, track what the image and angles still lack, say so.

A lens model is only as good as its views: they must fill the image (distortion is strongest at the edges),
and tilt the board different ways (a flat-on board cannot separate focal length from distance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import BoardSpec, BoardView

FloatArray = npt.NDArray[np.float64]

GRID = (3, 3)  # rows, columns of the coverage grid
DUPLICATE_DISTANCE = 0.05  # mean corner movement, as a fraction of the image diagonal
TILT_DEG = 15.0  # a view tilted less than this teaches little about focal length
_ROWS = ("top", "middle", "bottom")
_COLS = ("left", "centre", "right")


@dataclass(frozen=True, slots=True)
class ViewInfo:
    """What one view looks like: its outline (normalised), tilt direction and size in the image."""

    outline: FloatArray  # (4, 2) board corners / image diagonal
    tilt_deg: float
    tilt_towards: str  # which board edge is nearer the camera: "left", "right", "top", "bottom" or ""
    area_fraction: float


@dataclass(slots=True)
class ViewCollector:
    """Accepts views that differ from all kept ones; knows what is still missing."""

    board: BoardSpec
    image_size: tuple[int, int]
    views: list[BoardView] = field(default_factory=list)
    infos: list[ViewInfo] = field(default_factory=list)
    coverage: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(GRID, np.int64))

    def describe(self, view: BoardView) -> ViewInfo:
        w, h = self.image_size
        found, _ = cv2.findHomography(view.object_points[:, :2], view.image_points, 0)
        hom = np.asarray(found, np.float64)
        bw, bh = self.board.width_mm, self.board.height_mm
        rect = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float64)
        pts = np.column_stack([rect, np.ones(4)]) @ hom.T
        outline = np.asarray(pts[:, :2] / pts[:, 2:], np.float64)
        d1, d2 = outline[2] - outline[0], outline[3] - outline[1]
        area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
        tilt, towards = _tilt(hom, self.image_size, outline)
        return ViewInfo(np.asarray(outline / math.hypot(w, h), np.float64), tilt, towards, area / (w * h))

    def offer(self, view: BoardView) -> bool:
        """Keep ``view`` unless it nearly repeats a kept one; True when kept."""
        info = self.describe(view)
        for kept in self.infos:
            if float(np.mean(np.linalg.norm(kept.outline - info.outline, axis=1))) < DUPLICATE_DISTANCE:
                return False
        self.views.append(view)
        self.infos.append(info)
        w, h = self.image_size
        rows = np.clip((view.image_points[:, 1] / h * GRID[0]).astype(int), 0, GRID[0] - 1)
        cols = np.clip((view.image_points[:, 0] / w * GRID[1]).astype(int), 0, GRID[1] - 1)
        np.add.at(self.coverage, (rows, cols), 1)
        return True

    def coverage_text(self) -> str:
        """The grid as text: '#' well covered, '+' a little, '.' not yet."""
        enough = max(1, self.board.corner_count // 4)
        lines = []
        for r in range(GRID[0]):
            marks = ("#" if c >= enough else "+" if c > 0 else "." for c in self.coverage[r])
            lines.append("|" + "".join(f"  {m}  " for m in marks) + "|")
        return "\n".join(lines)

    def advice(self) -> list[str]:
        """What to do next, most useful first; empty when the views are varied enough."""
        out: list[str] = []
        empty = [(r, c) for r in range(GRID[0]) for c in range(GRID[1]) if self.coverage[r, c] == 0]
        if empty:
            r, c = empty[0]
            place = "centre" if (r, c) == (1, 1) else f"{_ROWS[r]} {_COLS[c]}".replace("middle ", "")
            place = place.replace(" centre", "")
            out.append(f"cover the {place} of the image with the board ({len(empty)} of 9 areas still empty)")
        tilted = {i.tilt_towards for i in self.infos if i.tilt_deg >= TILT_DEG}
        missing = [side for side in ("left", "right", "top", "bottom") if side not in tilted]
        if missing:
            out.append(f"tilt the board about 30 degrees so that its {missing[0]} edge comes nearer the camera")
        if self.infos and min(i.area_fraction for i in self.infos) > 0.25:
            out.append("hold the board further away for one view")
        if self.infos and max(i.area_fraction for i in self.infos) < 0.15:
            out.append("hold the board closer, so that it fills much of the image")
        return out


def _tilt(hom: FloatArray, size: tuple[int, int], outline: FloatArray) -> tuple[float, str]:
    """Rough tilt of the board from its homography, assuming a common webcam's field of view (~65 degrees).

    Only used to advise, so the assumed focal length need not be right.
    """
    w, h = size
    f = 0.8 * max(w, h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ hom
    r1, r2 = m[:, 0] / np.linalg.norm(m[:, 0]), m[:, 1] / np.linalg.norm(m[:, 1])
    normal = np.cross(r1, r2)
    tilt = math.degrees(math.acos(min(1.0, abs(float(normal[2])) / float(np.linalg.norm(normal)))))
    # The nearer edge of a tilted board looks longer: compare opposite edges of the outline in the image.
    edges = {
        "top": float(np.linalg.norm(outline[1] - outline[0])),
        "right": float(np.linalg.norm(outline[2] - outline[1])),
        "bottom": float(np.linalg.norm(outline[3] - outline[2])),
        "left": float(np.linalg.norm(outline[0] - outline[3])),
    }
    centre = outline.mean(axis=0)
    longest = max(edges, key=lambda e: edges[e] / max(edges[_OPPOSITE[e]], 1e-9))
    # Name the side by where that edge lies in the image, not on the board (the board may be turned).
    mid = {"top": (0, 1), "right": (1, 2), "bottom": (2, 3), "left": (3, 0)}[longest]
    d = (outline[mid[0]] + outline[mid[1]]) / 2 - centre
    side = ("right" if d[0] > 0 else "left") if abs(d[0]) > abs(d[1]) else ("bottom" if d[1] > 0 else "top")
    return tilt, side


_OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
