"""Camera calibration: board views -> intrinsics, and the guided collection of those views from a source."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import cv2
import numpy as np
import numpy.typing as npt

from calibration.board import DEFAULT_BOARD, BoardDetector, BoardSpec, BoardView
from calibration.errors import BoardNotFoundError, NotEnoughViewsError, SourceError
from calibration.intrinsics import CameraIntrinsics
from calibration.sources import Frame
from calibration.views import ViewCollector

FloatArray = npt.NDArray[np.float64]

MIN_VIEWS = 6  # below this the focal length and distortion are poorly separated
TARGET_VIEWS = 15
OUTLIER_FACTOR = 3.0  # a view whose error is this many times the median is a misdetection or a bent board


def calibrate_views(
    views: list[BoardView], image_size: tuple[int, int], board: BoardSpec | None = None, fix_k3: bool = True
) -> CameraIntrinsics:
    """Intrinsics from board views; drops, once, views that fit far worse than the rest.

    ``fix_k3``: webcams rarely need the 6th-order radial term, and with few views it overfits the edges.
    """
    if len(views) < MIN_VIEWS:
        raise NotEnoughViewsError(f"only {len(views)} distinct view(s) of the board; at least {MIN_VIEWS} are needed")
    flags = cv2.CALIB_FIX_K3 if fix_k3 else 0
    rms, matrix, dist, per_view = _calibrate(views, image_size, flags)
    median = float(np.median(per_view))
    keep = [v for v, e in zip(views, per_view, strict=True) if e <= max(OUTLIER_FACTOR * median, 0.5)]
    if len(keep) < len(views) and len(keep) >= MIN_VIEWS:
        views = keep
        rms, matrix, dist, _ = _calibrate(views, image_size, flags)
    return CameraIntrinsics.from_arrays(image_size, matrix, dist, rms, len(views), board)


def _calibrate(
    views: list[BoardView], image_size: tuple[int, int], flags: int
) -> tuple[float, FloatArray, FloatArray, list[float]]:
    obj = [v.object_points.astype(np.float32).reshape(-1, 1, 3) for v in views]
    img = [v.image_points.astype(np.float32).reshape(-1, 1, 2) for v in views]
    rms, matrix, dist, rvecs, tvecs = cv2.calibrateCamera(obj, img, image_size, None, None, flags=flags)
    per_view = []
    for o, i, r, t in zip(obj, img, rvecs, tvecs, strict=True):
        proj, _ = cv2.projectPoints(o, r, t, matrix, dist)
        per_view.append(float(np.sqrt(np.mean(np.sum((proj - i).reshape(-1, 2) ** 2, axis=1)))))
    return float(rms), np.asarray(matrix, np.float64), np.asarray(dist, np.float64), per_view


def collect_views(
    frames: Iterable[Frame],
    board: BoardSpec = DEFAULT_BOARD,
    target: int = TARGET_VIEWS,
    say: Callable[[str], None] = lambda _: None,
    source_name: str = "the source",
) -> tuple[ViewCollector, int]:
    """Watch ``frames`` until ``target`` distinct views are kept (or the frames end); guide through ``say``.

    Returns the collector and how many frames were looked at. Raises when the board was never seen, or
    frames change size mid-way (the intrinsics hold for one resolution).
    """
    detector = BoardDetector(board)
    collector: ViewCollector | None = None
    seen = sightings = 0
    for frame in frames:
        seen += 1
        h, w = frame.image.shape[:2]
        if collector is None:
            collector = ViewCollector(board, (w, h))
        elif collector.image_size != (w, h):
            raise SourceError(
                f"{frame.label}: {w}x{h}, but earlier frames were "
                f"{collector.image_size[0]}x{collector.image_size[1]}; calibrate one resolution at a time"
            )
        view = detector.detect(frame.image)
        if view is None:
            continue
        sightings += 1
        if collector.offer(view):
            advice = collector.advice()
            say(f"view {len(collector.views)}/{target} kept ({view.count} corners, {frame.label})")
            say(collector.coverage_text())
            if advice:
                say("next: " + advice[0])
            if len(collector.views) >= target:
                break
    if collector is None or sightings == 0:
        raise BoardNotFoundError(
            f"{source_name}: no ChArUco board found in {seen} frame(s); print one with"
            " `cadogan calibrate board -o board.pdf`, and show all of it, flat and well lit"
        )
    return collector, seen


def calibrate_frames(
    frames: Iterable[Frame],
    board: BoardSpec = DEFAULT_BOARD,
    target: int = TARGET_VIEWS,
    say: Callable[[str], None] = lambda _: None,
    source_name: str = "the source",
) -> CameraIntrinsics:
    """Collect views from ``frames`` and calibrate; the whole ``calibrate camera`` flow without the CLI."""
    collector, _ = collect_views(frames, board, target, say, source_name)
    if len(collector.views) < MIN_VIEWS:
        advice = collector.advice()
        hint = f"; {advice[0]}" if advice else "; move or tilt the board between views"
        raise NotEnoughViewsError(
            f"{source_name}: only {len(collector.views)} distinct view(s) of the board, {MIN_VIEWS} are needed{hint}"
        )
    return calibrate_views(collector.views, collector.image_size, board)
