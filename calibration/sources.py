"""Frames from a webcam index, a video file, an image file or a folder of images.

Opening is eager (a source that cannot deliver says so at once, in one line); reading is lazy.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.errors import SourceError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True, slots=True)
class Frame:
    label: str  # "frame 12" or a file name, for messages
    image: npt.NDArray[np.uint8]


def open_frames(source: str, every: int = 1) -> Iterator[Frame]:
    """Frames of ``source``: a webcam index ("0"), a video, an image, or a folder of images (sorted by name).

    ``every`` keeps one frame in that many from a video or webcam (neighbouring frames are near duplicates).
    """
    if source.isdigit():
        return _capture(_open_webcam(int(source)), f"webcam {source}", every)
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise SourceError(f"{source}: folder has no images ({', '.join(IMAGE_SUFFIXES)})")
        return _images(files)
    if not path.exists():
        raise SourceError(f"{source}: no such file or folder (give a webcam index, a video, an image or a folder)")
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return _images([path])
    capture = quiet_capture(str(path))
    if not capture.isOpened():
        raise SourceError(f"{source}: cannot open it as a video")
    return _capture(capture, path.name, every)


def quiet_capture(target: int | str) -> cv2.VideoCapture:
    """Open a capture without OpenCV's own warnings on stderr: a failure is reported once, by us."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    # FFmpeg logs through its own channel ("moov atom not found"): mute file descriptor 2 while opening.
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            return cv2.VideoCapture(target)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        cv2.utils.logging.setLogLevel(level)


def _open_webcam(index: int) -> cv2.VideoCapture:
    capture = quiet_capture(index)
    if not capture.isOpened():
        capture.release()
        raise SourceError(f"webcam {index} did not open: is it connected and not in use by another program?")
    return capture


def _capture(capture: cv2.VideoCapture, name: str, every: int) -> Iterator[Frame]:
    try:
        index = 0
        while True:
            ok, image = capture.read()
            if not ok or image is None:
                return
            if index % max(1, every) == 0:
                yield Frame(f"{name} frame {index}", np.asarray(image, np.uint8))
            index += 1
    finally:
        capture.release()


def _images(files: list[Path]) -> Iterator[Frame]:
    for path in files:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:  # an unreadable file is skipped; the caller counts what it got
            yield Frame(path.name, np.asarray(image, np.uint8))


def read_image(source: str) -> npt.NDArray[np.uint8]:
    """The first frame of ``source`` (an image file, a video or a webcam)."""
    for frame in open_frames(source):
        return frame.image
    raise SourceError(f"{source}: delivered no readable frame")
