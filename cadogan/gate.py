"""A motion gate: run the recogniser only when the table has settled, and only until it is read.

Recognising a frame costs a tenth of a second or more; comparing two thumbnails costs microseconds. The gate
keeps a small blurred grey thumbnail of each frame it is shown: while consecutive thumbnails differ (a hand
over the cards, the camera knocked) the table is *moving* and nothing is read; once they have agreed for
``settle`` looks in a row the table is *still*, and the recogniser reads it until the tracker's vote has
accepted what it sees (or ``max_reads`` reads have failed to agree). Until the next motion every frame is
then skipped. Slow changes of light and a little camera shake stay below the threshold: the thumbnail is
blurred and its mean brightness removed before comparing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def thumbnail(image: npt.NDArray[np.uint8], width: int = 160) -> F32:
    """Grey, small, blurred and with its mean removed: what the gate compares."""
    height = max(8, round(image.shape[0] * width / image.shape[1]))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
    blurred = np.asarray(cv2.GaussianBlur(small, (5, 5), 1.2), np.float32)
    out: F32 = blurred - np.float32(blurred.mean())
    return out


def changed_fraction(a: F32, b: F32, level: float = 14.0) -> float:
    """Share of thumbnail pixels that differ by more than ``level`` grey levels."""
    return float(np.count_nonzero(np.abs(a - b) > level)) / a.size


@dataclass
class MotionGate:
    threshold: float = 0.004
    """Share of changed thumbnail pixels above which the frame counts as motion (a hand is far more)."""
    settle: int = 2
    """Looks in a row below the threshold before the table counts as still."""
    max_reads: int = 12
    """Reads of one still period before giving up (a table the recogniser reads differently each time): the
    tracker votes card by card over its readings, and a recogniser that names only part of the cards in each
    frame needs several readings before every card of a change has been seen often enough."""
    reads: int = 0
    done: bool = False
    """The current still period has been read: skip frames until the next motion."""
    _last: F32 | None = field(default=None, repr=False)
    _calm: int = 0

    def look(self, image: npt.NDArray[np.uint8]) -> bool:
        """Show the gate a frame; True when the table is still (settled), False while it moves."""
        thumb = thumbnail(image)
        last, self._last = self._last, thumb
        moved = last is None or last.shape != thumb.shape or changed_fraction(last, thumb) > self.threshold
        if moved:
            self._calm, self.reads, self.done = 0, 0, False
            return False
        self._calm += 1
        return self._calm >= self.settle

    def read_once(self, accepted: bool) -> None:
        """One reading of the still table was made; ``accepted``: the tracker's vote now stands on it."""
        self.reads += 1
        if accepted or self.reads >= self.max_reads:
            self.done = True
