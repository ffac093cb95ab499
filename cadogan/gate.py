"""A motion gate: run the recogniser only when the table has settled, and only until it is read.

Recognising a frame costs a tenth of a second or more; comparing two thumbnails costs microseconds. The gate
keeps a small blurred grey thumbnail of each frame it is shown: while consecutive thumbnails differ (a hand
over the cards, the camera knocked) the table is *moving* and nothing is read; once they have agreed for
``settle`` looks in a row the table is *still*, and the recogniser reads it until the tracker's vote has
accepted what it sees, or the vote has stood unchanged for ``stable_reads`` reads (more readings of a
table read the same way change nothing), or ``max_reads`` reads have failed to agree. Until the next
motion every frame is then skipped, but for one read every ``recheck_s`` of a table the tracker settled on
(a change made with the hand barely in view moves too few pixels to count as motion). Slow changes of light
and a little camera shake stay below the threshold: the thumbnail is blurred and its mean brightness removed
before comparing.

Reads are also held to a budget counted in the video's own time (``reads_per_second`` on average, up to
``burst`` saved up): a recogniser the tracker cannot follow would otherwise be asked ``max_reads`` times in
every still period, and a live companion must keep up with the camera. Frames carry their time, so the
budget is deterministic: the same video is read at the same frames on any machine, at any load.
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
    stable_reads: int = 4
    """Stop reading a still table once the tracker's card-by-card vote has not changed for this many reads
    (after ``min_reads``): more readings of a table read the same way would change nothing."""
    min_reads: int = 6
    """Reads of a still table before the vote may be called stable (the tracker's ``patience``: it waits so
    many readings before it accepts a doubtful change or asks the player to hold still)."""
    reads_per_second: float = 4.0
    """The reading budget: reads a second of video on average (each read takes a tenth of a second or so of
    processor time: 4 a second leave the processor more than half free, so that verify runs faster than
    real time). A tracker that settles quickly needs 3-6 reads a still table, one still table every second
    or two."""
    burst: float = 8.0
    """Reads the budget may save up while nothing is read (one still period's worth at most)."""
    recheck_s: float | None = 2.0
    """Seconds between reads of a table already read (``done``): a change made with the hand barely in view moves
    too few thumbnail pixels to count as motion (heldout14's yc-misdeal-1: three stock turns with the hand at the
    frame's edge changed 0.03-0.2 % of the thumbnail, and nothing was read for 8 s), so a settled table is read
    again now and then (``recheck_due``); a reading that shows a change starts a new still period (``rechecked``).
    None: never."""
    reads: int = 0
    done: bool = False
    """The current still period has been read: skip frames until the next motion."""
    _last: F32 | None = field(default=None, repr=False)
    _calm: int = 0
    _vote: object = field(default=None, repr=False)
    _stable: int = 0
    _tokens: float | None = field(default=None, repr=False)
    _t: float | None = field(default=None, repr=False)
    _read_t: float | None = field(default=None, repr=False)

    def look(self, image: npt.NDArray[np.uint8], t: float | None = None) -> bool:
        """Show the gate a frame (taken at ``t`` seconds of the video: the reading budget runs on it; without
        a time there is no budget); True when the table is still (settled), False while it moves."""
        if t is not None:
            saved = self.burst if self._tokens is None or self._t is None else self._tokens
            elapsed = 0.0 if self._t is None else max(0.0, t - self._t)
            self._tokens, self._t = min(self.burst, saved + elapsed * self.reads_per_second), t
        thumb = thumbnail(image)
        last, self._last = self._last, thumb
        moved = last is None or last.shape != thumb.shape or changed_fraction(last, thumb) > self.threshold
        if moved:
            self._calm, self.reads, self.done, self._vote, self._stable = 0, 0, False, None, 0
            return False
        self._calm += 1
        return self._calm >= self.settle

    @property
    def may_read(self) -> bool:
        """The still table is not read yet and the budget allows a read now (call after ``look``)."""
        return not self.done and (self._tokens is None or self._tokens >= 1.0)

    def recheck_due(self) -> bool:
        """The still table was read, ``recheck_s`` have passed since its last reading and the budget allows one
        more (call after ``look``, which tells the time)."""
        if not self.done or self.recheck_s is None or self._t is None or self._read_t is None:
            return False
        return self._t - self._read_t >= self.recheck_s and (self._tokens is None or self._tokens >= 1.0)

    def rechecked(self, changed: bool) -> None:
        """A reading of a table already read was made; ``changed``: it shows another table, so a new still
        period begins (read as after motion)."""
        self._spend()
        if changed:
            self.reads, self.done, self._vote, self._stable = 0, False, None, 0

    def _spend(self) -> None:
        self._read_t = self._t
        if self._tokens is not None:
            self._tokens -= 1.0

    def read_once(self, accepted: bool, vote: object = None) -> None:
        """One reading of the still table was made; ``accepted``: the tracker's vote now stands on it;
        ``vote``: what the vote says now (None: nothing that may be called stable, see ``Tracker.vote_key``)."""
        self.reads += 1
        self._spend()
        self._stable = self._stable + 1 if vote is not None and vote == self._vote else 0
        self._vote = vote
        stable = self._stable >= self.stable_reads and self.reads >= self.min_reads
        if accepted or stable or self.reads >= self.max_reads:
            self.done = True
