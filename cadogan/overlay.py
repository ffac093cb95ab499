"""The overlay drawn over the video: card names where they were read, the hint as an arrow, warnings.

Drawn with OpenCV on a copy of the frame. Shown in a window (``OverlayWindow``) when a display exists and the
installed OpenCV has a GUI (``display_available``; the project ships opencv-python-headless, so a window needs
``pip install opencv-python`` in its place); otherwise, or as well, written to an annotated video file
(``OverlayWriter``).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]

GREEN = (60, 200, 60)
RED = (40, 40, 230)
AMBER = (0, 190, 255)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)


@dataclass(frozen=True, slots=True)
class Label:
    text: str
    at: Point
    colour: tuple[int, int, int] = GREEN


@dataclass(frozen=True, slots=True)
class Overlay:
    labels: tuple[Label, ...] = ()
    arrow: tuple[Point, Point] | None = None
    """The suggested move: from the card to its target."""
    banner: str = ""
    """A warning across the top (an illegal move, a misdeal), in red."""
    status: str = ""
    """One line at the bottom: game, foundation count, score, last move."""


def _text(image: Image, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    thickness = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x, y = at
    cv2.rectangle(image, (x - 2, y - h - 4), (x + w + 2, y + base), BLACK, -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


def draw(frame: Image, overlay: Overlay) -> Image:
    image = frame.copy()
    height, width = image.shape[:2]
    scale = max(0.4, width / 1600)
    for label in overlay.labels:
        _text(image, label.text, (int(label.at[0]), int(label.at[1])), label.colour, scale)
    if overlay.arrow is not None:
        start, end = overlay.arrow
        cv2.arrowedLine(
            image,
            (int(start[0]), int(start[1])),
            (int(end[0]), int(end[1])),
            AMBER,
            max(2, round(4 * scale)),
            cv2.LINE_AA,
            tipLength=0.08,
        )
    if overlay.banner:
        _text(image, overlay.banner, (10, int(40 * scale) + 10), RED, scale * 1.2)
    if overlay.status:
        _text(image, overlay.status, (10, height - 12), WHITE, scale)
    return image


_PROBE = "import cv2; cv2.namedWindow('cadogan'); cv2.waitKey(1); cv2.destroyAllWindows()"


@functools.cache
def display_available() -> bool:
    """A window can be opened: a display is set, it answers, and this OpenCV build has a GUI.

    Probed in a child process: opencv-python-headless raises on a window (harmless), but the GUI build's Qt
    aborts the whole process when $DISPLAY names a display that does not answer (a stale ssh -X session).
    """
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return False
    try:
        probe = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, timeout=20, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


class OverlayWindow:
    """The overlay in an OpenCV window; ``show`` returns the key pressed (``h`` hint, ``q``/Esc quit)."""

    name = "cadogan"

    def __init__(self) -> None:
        self._open = False

    def write(self, image: Image) -> None:
        self.show(image)

    def show(self, image: Image) -> str:
        if not self._open:
            cv2.namedWindow(self.name, cv2.WINDOW_NORMAL)
            self._open = True
        cv2.imshow(self.name, image)
        code = cv2.waitKey(1)
        if code < 0:
            return ""
        code &= 0xFF
        return "q" if code == 27 else chr(code).lower()

    def close(self) -> None:
        if self._open:
            cv2.destroyWindow(self.name)
            cv2.waitKey(1)
            self._open = False


@dataclass
class OverlayWriter:
    """Writes overlaid frames to a video file (when no window can be shown)."""

    path: Path
    fps: float = 15.0
    _writer: cv2.VideoWriter | None = field(default=None, init=False, repr=False)
    frames: int = field(default=0, init=False)

    def write(self, image: Image) -> None:
        if self._writer is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            height, width = image.shape[:2]
            self._writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter.fourcc(*"mp4v"), self.fps, (width, height))
            if not self._writer.isOpened():
                raise CadoganError(f"cannot write the overlay video {self.path}")
        self._writer.write(image)
        self.frames += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None
