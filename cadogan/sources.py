"""Frame sources for the live companion: webcam index, video file, image file or folder of images.

A source that cannot be opened is one clear error. A source that stops mid-game (a webcam unplugged, a
video cut short) ends the iteration and says why in ``end_reason``; the caller keeps its session.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from calibration.sources import quiet_capture
from engine.errors import CadoganError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class SourceError(CadoganError):
    """A camera, video or image source that cannot be used."""


@dataclass(frozen=True, slots=True)
class TimedFrame:
    index: int
    t: float
    """Seconds from the start of the source (video time for files, wall time for a webcam)."""
    image: npt.NDArray[np.uint8]


class FrameSource:
    def __init__(self, spec: str, *, stride: int = 1) -> None:
        self.spec = spec
        self.stride = max(1, stride)
        """Of a video file, decode one frame in ``stride`` (the others are only grabbed: much cheaper)."""
        self.end_reason = ""
        self.ended_early = False
        self.fps = 30.0
        self._files: list[Path] = []
        self._capture: cv2.VideoCapture | None = None
        self._webcam = spec.isdigit()
        self.expected_frames = 0
        if self._webcam:
            self._capture = quiet_capture(int(spec))
            if not self._capture.isOpened():
                raise SourceError(f"webcam {spec} did not open: is it connected and free? (try --source 1, or a video)")
            self.name = f"webcam {spec}"
            return
        path = Path(spec)
        self.name = path.name
        if path.is_dir():
            self._files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._files:
                raise SourceError(f"{spec}: the folder holds no images ({', '.join(IMAGE_SUFFIXES)})")
            self.fps = 1.0
            return
        if not path.exists():
            raise SourceError(f"{spec}: no such file or folder (give a webcam index, a video, an image or a folder)")
        if path.suffix.lower() in IMAGE_SUFFIXES:
            self._files = [path]
            self.fps = 1.0
            return
        self._capture = quiet_capture(str(path))
        if not self._capture.isOpened():
            raise SourceError(f"{spec}: cannot open it as a video (unsupported or damaged file)")
        self.fps = float(self._capture.get(cv2.CAP_PROP_FPS)) or 30.0
        self.expected_frames = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT))

    def __iter__(self) -> Iterator[TimedFrame]:
        if self._files:
            yield from self._images()
        else:
            yield from self._video()

    def _images(self) -> Iterator[TimedFrame]:
        for index, path in enumerate(self._files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                if len(self._files) == 1:
                    raise SourceError(f"{path}: not a readable image")
                continue  # one unreadable file in a folder is skipped, not fatal
            yield TimedFrame(index, index / self.fps, np.asarray(image, np.uint8))
        self.end_reason = "all images read"

    def _video(self) -> Iterator[TimedFrame]:
        capture = self._capture
        assert capture is not None
        start = time.monotonic()
        index = 0
        try:
            stride = 1 if self._webcam else self.stride
            while True:
                if index % stride:
                    if not capture.grab():
                        break
                    index += 1
                    continue
                ok, image = capture.read()
                if not ok or image is None:
                    break
                t = time.monotonic() - start if self._webcam else index / self.fps
                yield TimedFrame(index, t, np.asarray(image, np.uint8))
                index += 1
        finally:
            capture.release()
        if self._webcam:
            self.ended_early = True
            self.end_reason = f"the webcam stopped delivering frames after {index} (unplugged?)"
        elif self.expected_frames and index < self.expected_frames - 1:
            self.ended_early = True
            self.end_reason = f"the video ends abruptly at frame {index} of {self.expected_frames} (damaged file?)"
        elif index == 0:
            self.ended_early = True
            self.end_reason = "the video holds no readable frame"
        else:
            self.end_reason = "end of the video"
