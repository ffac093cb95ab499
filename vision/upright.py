"""A layout seen turned, read upright: a webcam clipped on at an angle or sideways.

The models and the assembly know layouts that read upright, turned at most a few degrees (the detector was
trained on such cameras, and on a quarter turned any way; the assembly's rows and cascades run across and down
the image). A frame turned further is read in three steps, each cheap where the layout stands level already:

1. the turn off level, modulo a quarter: the strongest direction of the edges of bright, unsaturated regions
   (card faces' borders and the print on them) in a small grey copy of the frame (``edge_turn``). Beyond
   ``MIN_TURN`` the frame is read turned by it too, and the view with the surer reads is kept (a checked cloth
   can set the edges' direction: the cards then read worse, and the frame is read as it is);
2. a quarter turn: an index is taller than wide, so where most of the surest index boxes are wider than tall the
   cards lie sideways, and the frame is turned a quarter more and read again (``sideways``);
3. which way up. For cards that lay sideways: the reads as they are and turned half about the view's centre are
   both assembled into the game's layout, and the table that breaks fewer of the game's rules is kept (cascades
   built the wrong way, a deal's columns of backs in the wrong order), then the better layout fit
   (``upright_reading``). For cards that stand upright (a camera across the table shows the layout upside down,
   and the classifier reads indices both ways up): the view as it is, unless its table breaks
   ``UPSIDE_DOWN_CHECK`` rules or more, the half turn's table ``UPSIDE_DOWN_RATIO`` times fewer, and the half turn
   places nearly as many cards in the layout (``UPSIDE_DOWN_PLACED``: a table that holds little breaks few rules,
   as The Great Thirteen's three rows of eight read turned half did): a camera on the player's side is the usual
   one, and a badly read upright table breaks rules too. The layout fit tells the two apart too weakly (an upright
   layout fits its half turn up to 1.7 times better, and a Klondike deal seen upside down fits a third worse
   turned right).

``UprightReader`` keeps a turn found on a well-read frame for the next frames of a video, and decides the way up by
the rules broken each way over every search of the camera's quarter.

Steps 1-2 depend on the models only (``turned_reads``); step 3 on the assembly (``upright_reading``), so a change
of the assembly never serves a stale choice from a cache of reads. Measured in BENCHMARKS.md ("Recognition",
session 19): renders with the camera turned any way, and the usual ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError
from engine.status import problems
from vision.assemble import Observation, assemble, to_table
from vision.corners import settle_turned_corners
from vision.detections import BACK, Detections
from vision.recognise import Recogniser, recognise

F64 = npt.NDArray[np.float64]
U8 = npt.NDArray[np.uint8]

MIN_TURN = 12.0  # degrees: a layout turned less is read as it is (the default renders' cameras turn up to ~15)
SMALL_WIDTH = 480  # px: the grey copy whose edges give the turn
SIDEWAYS_BELOW = -0.1  # median log(height / width) of the surest index boxes under which the cards lie sideways
SIDEWAYS_READS = 16  # the surest reads that vote on it
SIDEWAYS_LEAST = 4  # fewer reads than this say nothing
UPSIDE_DOWN_CHECK = 5  # rules an upright view's table breaks before its half turn is tried (a read table breaks 1+)
UPSIDE_DOWN_RATIO = 2  # ... and taken where it breaks this many times fewer turned half,
UPSIDE_DOWN_PLACED = 0.8  # and places at least this share as many cards in the layout
_GREY = (128, 128, 128)  # outside the frame, as vision.crops pads


@dataclass(frozen=True, slots=True)
class Upright:
    """How a frame was turned to read its layout upright: ``degrees`` counter-clockwise (the image turned before
    it was read), then ``flipped`` (the reads' coordinates turned half about the view's centre); ``size`` is the
    turned view's (width, height). The identity for a frame read as it is."""

    degrees: float = 0.0
    flipped: bool = False
    size: tuple[int, int] = (0, 0)
    frame_size: tuple[int, int] = (0, 0)
    sideways: bool = False  # the cards lay sideways in the frame: which way up is step 3's choice

    @property
    def identity(self) -> bool:
        return self.degrees == 0.0 and not self.flipped

    def matrix(self) -> F64:
        """3 x 3: frame px -> upright px."""
        m = np.eye(3)
        if self.degrees:
            m = _turn_matrix(self.frame_size, self.degrees)
        if self.flipped:
            w, h = self.size
            m = np.array([[-1.0, 0.0, w], [0.0, -1.0, h], [0.0, 0.0, 1.0]]) @ m
        return m

    def to_view(self, points: npt.ArrayLike) -> F64:
        """Frame px -> upright px, for (n, 2) points."""
        return _mapped(points, self.matrix())

    def to_frame(self, points: npt.ArrayLike) -> F64:
        """Upright px -> frame px, for (n, 2) points."""
        return _mapped(points, np.asarray(np.linalg.inv(self.matrix()), np.float64))

    def view_of(self, frame: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """The frame as the reads saw it (turned, and half turned where ``flipped``)."""
        if self.identity:
            return frame
        return np.asarray(cv2.warpAffine(frame, self.matrix()[:2], self.size, borderValue=_GREY))

    def boxes_to_frame(self, boxes: npt.ArrayLike) -> F64:
        """Upright boxes (n, 4) -> the (n, 4, 2) corners of each in the frame (a turned box is no longer level)."""
        b = np.asarray(boxes, np.float64).reshape(-1, 4)
        corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], axis=1)
        return self.to_frame(corners.reshape(-1, 2)).reshape(-1, 4, 2)


def _mapped(points: npt.ArrayLike, matrix: F64) -> F64:
    p = np.asarray(points, np.float64).reshape(-1, 2)
    return np.asarray((np.column_stack([p, np.ones(len(p))]) @ matrix.T)[:, :2], np.float64)


@dataclass(frozen=True, slots=True)
class UprightReading:
    observation: Observation
    detections: Detections  # upright px
    upright: Upright
    broken: tuple[int, int] | None = None  # rules broken as it is and turned half (when both were tried)


def edge_turn(frame: npt.NDArray[Any]) -> float:
    """Degrees (counter-clockwise, -45 to 45) that level the layout's edges, modulo a quarter turn; 0 for a frame
    with no edges to go by."""
    h, w = frame.shape[:2]
    step = max(1, round(w / SMALL_WIDTH))  # a whole step: the area resize's fast path
    small = cv2.resize(frame, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    # only near card faces (bright, unsaturated): a table's own grain or cloth must not set the turn
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    value = np.asarray(hsv[..., 2], np.uint8)
    bright = (value > _quantile_u8(value, 0.6)) & (hsv[..., 1] < 80)
    magnitude *= cv2.dilate(bright.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    flat = magnitude.ravel()
    sample = flat[:: max(1, flat.size // 20000)]
    strong = magnitude > np.partition(sample, int(0.9 * (sample.size - 1)))[int(0.9 * (sample.size - 1))]
    if not strong.any():
        return 0.0
    folded = angle[strong] % 90.0
    hist = np.bincount(folded.astype(np.int64) % 90, weights=magnitude[strong], minlength=90)[:90]
    hist = np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), np.ones(7) / 7, mode="valid")
    k = int(np.argmax(hist))
    left, mid, right = hist[(k - 1) % 90], hist[k], hist[(k + 1) % 90]
    curve = left - 2 * mid + right
    offset = 0.5 * (left - right) / curve if curve < 0 else 0.0  # the peak between bins
    return float(((k + 0.5 + offset + 45.0) % 90.0) - 45.0)


def _quantile_u8(values: U8, q: float) -> int:
    """The ``q`` quantile of 8-bit values, from their histogram."""
    counts = np.cumsum(np.bincount(values.ravel(), minlength=256))
    return int(np.searchsorted(counts, q * counts[-1]))


def _turn_matrix(size: tuple[int, int], degrees: float) -> F64:
    """Frame px -> the px of the frame turned ``degrees`` counter-clockwise on a canvas that holds all of it."""
    w, h = size
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    nw, nh = _turned_size(size, degrees)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return np.vstack([m, [0.0, 0.0, 1.0]])


def _turned_size(size: tuple[int, int], degrees: float) -> tuple[int, int]:
    w, h = size
    r = np.radians(degrees)
    cos, sin = abs(np.cos(r)), abs(np.sin(r))
    return round(h * sin + w * cos), round(h * cos + w * sin)


def turned(frame: npt.NDArray[Any], degrees: float) -> tuple[npt.NDArray[Any], Upright]:
    """The frame turned ``degrees`` counter-clockwise (all of it kept, grey around), and that turn."""
    h, w = frame.shape[:2]
    if degrees == 0.0:
        return frame, Upright(0.0, False, (w, h), (w, h))
    size = _turned_size((w, h), degrees)
    m = _turn_matrix((w, h), degrees)
    image = cv2.warpAffine(
        frame, m[:2], size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=_GREY
    )
    return np.asarray(image), Upright(degrees, False, size, (w, h))


def sideways(dets: Detections) -> bool:
    """Whether the surest index reads are mostly wider than tall: the cards lie across the view."""
    faces = dets[dets.class_id < BACK]
    if len(faces) < SIDEWAYS_LEAST:
        return False
    surest = faces[np.argsort(-faces.confidence, kind="stable")[:SIDEWAYS_READS]]
    sides = surest.boxes[:, 2:] - surest.boxes[:, :2]
    aspect = np.log(np.maximum(sides[:, 1], 1e-3) / np.maximum(sides[:, 0], 1e-3))
    return bool(np.median(aspect) < SIDEWAYS_BELOW)


def turned_reads(frame: npt.NDArray[Any], rec: Recogniser, known: Upright | None = None) -> tuple[Detections, Upright]:
    """Steps 1-2: the frame's index reads in the view turned level (and a quarter more where the cards lie
    sideways), with that turn. ``recognise`` alone for a frame whose layout stands level already. A card's 6/9
    corners are not settled yet: which corner is top-left waits for which way up (step 3). ``known``: the turn
    found on an earlier frame of the same camera (``UprightReader``), taken as it is (one reading, not two)."""
    h, w = frame.shape[:2]
    view = Upright(0.0, False, (w, h), (w, h))
    if known is not None and known.frame_size == (w, h) and rec.upright:
        image, view = turned(frame, known.degrees)
        return recognise(image, rec, settle=False), replace(view, sideways=known.sideways)
    dets = recognise(frame, rec, settle=False)
    if not rec.upright:
        return dets, view
    turn = edge_turn(frame)
    if abs(turn) >= MIN_TURN:
        image, level = turned(frame, turn)
        other = recognise(image, rec, settle=False)
        if _sureness(other) > _sureness(dets):
            dets, view = other, level
    if sideways(dets):
        image, view = turned(frame, view.degrees + 90.0)
        view = replace(view, sideways=True)
        dets = recognise(image, rec, settle=False)
    return dets, view


def _sureness(dets: Detections) -> float:
    """How much a view's reads say: the summed confidence of its card reads."""
    return float(dets.confidence[dets.class_id < BACK].sum())


def half_turned(dets: Detections, size: tuple[int, int]) -> Detections:
    """The reads' boxes turned half about the centre of a view of ``size``."""
    w, h = size
    b = dets.boxes
    boxes = np.stack([w - b[:, 2], h - b[:, 3], w - b[:, 0], h - b[:, 1]], axis=1).astype(np.float32)
    return Detections(boxes, dets.class_id, dets.confidence, dets.data)


def upright_reading(
    dets: Detections, view: Upright, game: str, known: Upright | None = None, *, both: bool = False
) -> UprightReading:
    """Step 3: the reads assembled into ``game``'s layout; for cards that lay sideways, also half turned, and the
    way that breaks fewer of the game's rules kept (``engine.status.problems`` of the table read: cascades built
    the wrong way, columns of backs in the wrong order), then the better layout fit (or, with ``known``, the way
    up found on an earlier frame). For cards that stand upright, the half turn only where the table as it is breaks
    many rules (or ``both``: always tried) and the half turn's far fewer (``upside_down``). Only then, with the
    top-left corners where they lie, are a card's 6/9 corners settled (``vision.corners.settle_turned_corners``)."""
    if known is not None:  # the way up found on an earlier frame
        return _assembled(dets, view, game, known.flipped)
    as_is = _assembled(dets, view, game, False)
    broken = _broken(as_is.observation)
    if not view.sideways and broken < UPSIDE_DOWN_CHECK and not both:
        return as_is
    other = _assembled(dets, view, game, True)
    counts = (broken, _broken(other.observation))
    if view.sideways:  # fewer rules broken, then the better fit (as it is, on a tie)
        turn = (counts[1], -other.observation.fit) < (counts[0], -as_is.observation.fit)
    else:
        turn = upside_down(*counts) and _placed(other.observation) >= UPSIDE_DOWN_PLACED * _placed(as_is.observation)
    return replace(other if turn else as_is, broken=counts)


def _assembled(dets: Detections, view: Upright, game: str, flipped: bool) -> UprightReading:
    """The reads assembled as they are or turned half (``flipped``), a card's 6/9 corners settled in that view."""
    reads = settle_turned_corners(half_turned(dets, view.size) if flipped else dets)
    return UprightReading(assemble(reads, game), reads, replace(view, flipped=flipped))


def upside_down(as_is: int, turned_half: int) -> bool:
    """Whether a view whose cards stand upright is taken turned half, by the rules its table breaks as it is and
    turned half (``UPSIDE_DOWN_CHECK``, ``UPSIDE_DOWN_RATIO``; the cards placed are checked apart)."""
    return as_is >= UPSIDE_DOWN_CHECK and turned_half * UPSIDE_DOWN_RATIO <= as_is


def _placed(observation: Observation) -> int:
    """How many cards the table read places in the layout's piles."""
    return sum(len(cards) for cards in observation.piles.values())


def _broken(observation: Observation) -> int:
    """How many of its game's rules the table read breaks (a table that cannot even be built: many)."""
    try:
        return len(problems(to_table(observation, face_down=True)[0]))
    except CadoganError:
        return 1_000


def read_upright(frame: npt.NDArray[Any], rec: Recogniser, game: str, known: Upright | None = None) -> UprightReading:
    """A frame read upright however the camera is turned: the table as observed, the reads (upright px) and the
    turn (``Upright.to_frame`` maps the reads back onto the frame). ``known``: the turn of an earlier frame of the
    same camera, used as it is (``UprightReader`` keeps one for a video)."""
    dets, view = turned_reads(frame, rec, known)
    return upright_reading(dets, view, game, known)


KNOWN_READS = 8  # a turn is kept for later frames only when found on a frame with this many card reads
RECHECK_EVERY = 30  # frames: the turn is found anew this often (a camera knocked, a table turned)


@dataclass
class UprightReader:
    """``read_upright`` for the frames of one camera: the turn found on a well-read frame is used for the next
    ``RECHECK_EVERY`` frames as it is (one reading a frame instead of two where the camera is turned, and no turn
    measured where it is not), then found anew. Which way up a sideways view stands is decided by the rules broken
    on every search of the same quarter so far, summed (one frame's reading of a deal may break as few either way),
    and changes only when they say so (a table that jumped upside down between two frames reads as moves nobody
    made)."""

    rec: Recogniser
    game: str
    known: Upright | None = None
    reads: Callable[[npt.NDArray[Any], Recogniser, Upright | None], tuple[Detections, Upright]] = turned_reads
    """Steps 1-2 (``turned_reads``; a benchmark keeps their results to read a recording again)."""
    since: int = 0
    way: Upright | None = None  # the last turn found
    broken: tuple[int, int] = (0, 0)  # rules broken as it is and turned half, summed over the searches of its quarter

    def __call__(self, frame: npt.NDArray[Any]) -> UprightReading:
        if self.known is not None and self.since < RECHECK_EVERY:
            self.since += 1
            return upright_reading(*self.reads(frame, self.rec, self.known), self.game, self.known)
        dets, view = self.reads(frame, self.rec, None)
        way = self.way
        same = (
            way is not None
            and way.sideways == view.sideways
            and abs((view.degrees - way.degrees + 180.0) % 360.0 - 180.0) < 15.0
        )
        # a camera found upside down is checked both ways each time (its table read as it is may break few rules)
        seen = upright_reading(dets, view, self.game, both=bool(same and way and way.flipped))
        well_read = int(np.sum(seen.detections.class_id < BACK)) >= KNOWN_READS
        if seen.broken is not None and well_read:
            total = seen.broken if not same else (self.broken[0] + seen.broken[0], self.broken[1] + seen.broken[1])
            if view.sideways:
                tie = way.flipped if same and way else seen.upright.flipped
                flipped = total[1] < total[0] if total[0] != total[1] else tie
            else:  # upright cards: turned half when this frame says so (the rules clearly, and the cards placed), or
                # when found so before, until the rules broken over the searches clearly say not
                flipped = seen.upright.flipped or bool(same and way and way.flipped and not upside_down(*total[::-1]))
            if flipped != seen.upright.flipped:
                seen = upright_reading(dets, view, self.game, replace(view, flipped=flipped))
            self.broken = total
        if well_read:
            self.known = self.way = seen.upright
        else:
            self.known = None
        self.since = 1
        return seen
