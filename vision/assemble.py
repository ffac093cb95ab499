"""Detections -> an observed table: which card lies in which pile, in which order.

Works in the image plane, with the layouts the renderer (``vision.synth.layout``) and people use: the camera on
the player's side, the layout reading upright, piles on a grid of rows and columns (``LAYOUTS``). A tableau
column (``t``) is a cascade fanned down and is the last row of its layout; the waste fans right; every other
pile is a squared packet that shows its top card.

Steps: (0) index reads lying on one another are one read (the surest: one corner named twice); (1) group the
index reads into physical cards (``vision.corners``): a read and a read of the same name a card's diagonal down
and to the right are the two corners of one card (that offset, measured on the names read twice, settles two
packs' candidates), and so are two single reads of different names that offset apart (a misread turned corner: a
6 read as a 9; the surer name is kept, but of a 6 and a 9 of one suit the top-left corner's, the one every deck
prints upright);
(2) one anchor per card (its top-left index) and per face-down strip (class ``BACK``; a box much wider than a card
is one strip drawn too wide: taken a card wide about its middle, the detector's peak);
(3) turn the anchors level (the camera's yaw turns the layout; the turn measured on piles level with one another
can mislead, so steps 3-6 run for it, for 0.1 rad more and less, and unturned, and the best fit is kept) and
measure the card: strips' width, two corners' distance, column pitch and index size each give a range of widths,
and a measure another one confirms is taken (real reads mislead each one: ``_card_width``); (4) a read of one
index lying a card's diagonal below-right of a
row, on no cascade, is a bottom-right index seen alone: it moves to its top-left corner; (5) heads: the anchors
with nothing just above them in their column (a cascade's first card, a packet's top); (6) the rows: heads
clustered by height above a fitted level line; each cluster is given a row of the layout (or none), scored by the
row spacing, by how well the heads then sit on the slots of one column grid (origin and pitch; perspective: rows
farther from the camera narrower, columns leaning to a vanishing point), by how many heads land on piles the deal
fills, and by heads no pile could show where the map puts them; each head weighs as its cascade's surest read, so
that doubtful reads (most phantoms and misreads) pull the fit less; (7) each card takes the pile of its cascade's
head; (8) a name read on more cards than the game has packs is a conflict: the reads on a pile, then the more
confident, keep the name, the others take their runner-up reading when it is free, else become unknown; (9) order
each pile: cascades top to bottom (a doubtful last card read by one corner only, under a surer card, is a read of
that card's face and is dropped), the waste left to right, a squared packet its top card; (10) face-down counts:
strips placed like cards, a cascade's are those above its first face-up card, a squared packet of backs shows one
("1 or more"). Strips scored below ``SURE_BACK`` (a back design the detector does not know) take no part in steps
2-10: after the fit they only show the stock's packet, on its slot when nothing there was read.

``to_table`` fills foundations from their top card only where the rules and the rest of the table agree
(``foundations``).
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from engine import Table, find_game
from engine.cards import twin
from engine.formats import read_table
from engine.rules import Base, Build, Game, Role
from engine.status import Problem
from vision.cards import NAMES, RANKS
from vision.corners import CARD_ASPECT, index_card_height, physical_cards, usual_corner_offset
from vision.detections import BACK, Detections

UNKNOWN = "??"
FAN_DOWN, FAN_RIGHT, SQUARE = "fan_down", "fan_right", "square"
_DEALT_WEIGHT = 1.25  # a head on a pile the deal fills: an empty row of foundations and a full row of packets
_LEAN_COST = 0.3  # score lost per pitch per card height the columns lean: the camera is most often square on
_SURE = 0.7  # a read this confident is right (real reads: none wrong at 0.7+, one in six below): full weight in the fit
_ALIGNED = 0.07  # card heights: how far a cascade's cards lie off one another's column, at most (0.1 card widths)
_DOUBT = 0.5  # below this, a read with nothing to back it is more often a misread than a card (real reads)
_ROW_STEP = (0.9, 1.75)  # row pitch / estimated card height: a card and a 12-35 mm gap, the estimate 15 % off
_TURN_STEP = 0.1  # radians: the layout is also fitted this much more and less turned than measured (``assemble``)
# a face-down strip the detector is less sure of than this (its score: the back's confidence) takes no part in the
# fit; it only shows that the stock's slot holds a packet when nothing else was seen there (unseen decks' stocks
# score 0.15-0.35 where their cascades' strips score more: ``vision.recognise.Recogniser.back_threshold``)
SURE_BACK = 0.35
_BACKS_DEEP = 1.0  # card heights: a cascade's top back lies less than this below its row's line (backs stack tight)
_TWIN = 0.07  # two strips' middles nearer than this (card widths) up and down are one strip
_STOCK_ROW_STEP = (0.75, 2.0)  # a stock alone in its row: its row pitch from a fitted row / card height
_F = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Slot:
    row: int
    col: float  # in column pitches from the layout's left edge
    style: str  # FAN_DOWN, FAN_RIGHT or SQUARE

    @property
    def extent(self) -> float:
        """How far (pitches) the pile's cards reach to the right of its slot: the waste fans right."""
        return 0.75 if self.style == FAN_RIGHT else 0.0


def _rows(*rows: list[tuple[str, float]]) -> dict[str, Slot]:
    def style(pile: str) -> str:
        return FAN_DOWN if pile[0] == "t" and pile[1:].isdigit() else FAN_RIGHT if pile == "w" else SQUARE

    return {pile: Slot(r, col, style(pile)) for r, row in enumerate(rows) for pile, col in row}


def _run(prefix: str, first: int, last: int, col: float = 0.0) -> list[tuple[str, float]]:
    return [(f"{prefix}{n}", col + k) for k, n in enumerate(range(first, last + 1))]


# Where each game's piles lie, as the renderer deals them (tests/vision/test_assemble.py holds the two equal).
LAYOUTS: dict[str, dict[str, Slot]] = {
    "klondike": _rows([("s", 0), ("w", 1), *_run("f", 1, 4, 3)], _run("t", 1, 7)),
    "canfield": _rows([("s", 0), ("w", 1), *_run("f", 1, 4, 2.5)], [("r", 0), *_run("t", 1, 4, 2.5)]),
    "general-sedgewick": _rows([*_run("f", 1, 4), ("s", 4), ("w", 5)], _run("t", 1, 5)),
    "the-queens": _rows(
        [*_run("f", 1, 8), *_run("h", 1, 4, 8)], [("h5", 0), ("h6", 1), ("h7", 2), ("k", 3), ("s", 4), ("w", 5)]
    ),
    "sly": _rows([*_run("f", 1, 8), ("s", 8), ("w", 9)], _run("p", 1, 10), _run("p", 11, 20)),
    "louis": _rows(
        [("f", 0), *_run("f", 1, 8, 1), ("h", 9), ("k", 10), ("s", 11)],
        [("w", 0)],
        [("b", 0)],
        [("g", 0)],
        [(p, k) for k, p in enumerate(("a", "c", "d", "e", "i", "l", "m", "x1", "x2", "x3"))],
        [("x4", 0)],
    ),
    "the-great-thirteen": _rows(_run("b", 1, 8), _run("g", 1, 8), _run("n", 1, 8)),
}


@dataclass(frozen=True, slots=True)
class SeenCard:
    name: str  # "10H", or "??" when a read was given up (a duplicate with no plausible second reading)
    x: float  # anchor (image px): the centre of the card's top-most index read
    y: float
    confidence: float
    reads: int  # how many index reads back this card (2: both corners seen)
    other: tuple[float, float] | None = None  # the second read (the bottom-right index), if any
    kind: float | None = None
    """The confidence that the card is this card *or its twin* (same rank and colour, the other suit: ``twin``), where
    the reader gives more than ``confidence``: a deck whose spades and clubs look alike at the camera's resolution
    splits its reads between the two, so its rank and colour are surer than its name."""

    @property
    def kind_confidence(self) -> float:
        return self.confidence if self.kind is None else max(self.kind, self.confidence)


@dataclass(frozen=True, slots=True)
class Observation:
    game: str
    piles: dict[str, tuple[SeenCard, ...]]  # bottom first; only cards whose index was read
    unplaced: tuple[SeenCard, ...]  # reads that fit no pile of the layout
    face_down: dict[str, int] = field(default_factory=dict)  # backs seen per pile (a squared packet: 1)
    fit: float = (
        0.0  # how well the reads fit the layout (the fit's score; 0 with nothing read): a turned view fits less
    )
    card_w: float = 0.0  # the card's width in the image (px), as the layout fit measured it; 0 when not measured
    fan_step: float = 0.0  # a fanned waste's step (px) measured over frames (``fan_step_estimates``); 0: not yet

    def names(self) -> dict[str, list[str]]:
        return {p: [c.name for c in cards] for p, cards in self.piles.items()}


def layout_name(game: str) -> str:
    """The key of ``LAYOUTS`` for ``game`` (a variant takes its game's layout); ValueError when none."""
    g = find_game(game)
    for name in (g.name, g.variant_of, g.name.split("/")[0]):
        if name in LAYOUTS:
            return name
    raise ValueError(f"no table layout for {g.name} yet (known: {', '.join(LAYOUTS)})")


def _holds_backs(game: Game) -> frozenset[str]:
    """Piles whose face-down cards can show: the stock, and piles the deal fills face down."""
    out = {spec.id for spec in game.piles if spec.role is Role.STOCK}
    out |= {step.pile for step in game.deal if not step.face_up}
    return frozenset(out)


def _dealt(game: Game) -> frozenset[str]:
    """Piles the deal fills, and the stock: the piles most likely to hold cards."""
    return frozenset({step.pile for step in game.deal} | {s.id for s in game.piles if s.role is Role.STOCK})


def reconcile(dets: Detections, card_h: float, packs: int = 1, fits: list[bool] | None = None) -> list[SeenCard]:
    """One SeenCard per physical card. A name read on more physical cards than there are ``packs`` is a
    misread: the strongest groups keep the name (``fits``, one flag per group in the order of
    :func:`vision.corners.physical_cards`: the group lies on a pile of the layout, which outweighs confidence), the
    others take their runner-up reading when that card is not seen as often as the packs allow, else become unknown."""
    faces = dets[dets.class_id < BACK]
    groups = physical_cards(faces, card_h)
    ok = fits if fits is not None else [True] * len(groups)

    def strength(k: int) -> tuple[bool, float]:
        return ok[k], float(sum(faces.confidence[i] for i in groups[k][1]))

    order = sorted(range(len(groups)), key=strength, reverse=True)
    taken: Counter[str] = Counter()
    names = [UNKNOWN] * len(groups)
    second = faces.data.get("second")
    second_score = faces.data.get("second_score")
    pending: list[int] = []
    for k in order:
        name = groups[k][0]
        if taken[name] >= packs:
            pending.append(k)
            continue
        taken[name] += 1
        names[k] = name
    for k in pending:  # weaker duplicates: second opinion, or unknown
        if second is not None and second_score is not None:
            cl = groups[k][1]
            best = max(cl, key=lambda i: float(second_score[i]))
            alt = NAMES[int(second[best])]
            if taken[alt] < packs and float(second_score[best]) >= 0.1:
                names[k] = alt
                taken[alt] += 1
    return [_seen(names[k], groups[k][1], faces) for k in range(len(groups))]


def _seen(name: str, cl: list[int], faces: Detections) -> SeenCard:
    cl = sorted(cl, key=lambda i: float(faces.centres[i][1]))
    x, y = faces.centres[cl[0]]
    other = (float(faces.centres[cl[1]][0]), float(faces.centres[cl[1]][1])) if len(cl) > 1 else None
    confidence = float(max(faces.confidence[i] for i in cl))
    kinds = [pooled for i in cl if (pooled := _twin_pooled(faces, i, name)) is not None]
    return SeenCard(name, float(x), float(y), confidence, len(cl), other, max(kinds) if kinds else None)


def _twin_pooled(faces: Detections, i: int, name: str) -> float | None:
    """A read's confidence that its card is ``name`` or ``name``'s twin: its confidence with the classifier's
    probability of the twin added, where the twin is the read's runner-up (a lower bound otherwise: the twin's
    probability is then below the runner-up's, and left out). None where the read names another card or the
    reader gives no runner-up. (``vision.cards.NAMES`` is in card-code order, so ``engine.cards.twin`` applies.)"""
    code = int(faces.class_id[i])
    second, second_score, cls_score = (faces.data.get(k) for k in ("second", "second_score", "cls_score"))
    if second is None or second_score is None or cls_score is None or code >= len(NAMES) or NAMES[code] != name:
        return None
    p = float(cls_score[i])
    if int(second[i]) != twin(code) or p <= 0.0:
        return None
    return float(faces.confidence[i]) * (p + float(second_score[i])) / p


def _level_neighbours(xs: _F, ys: _F, slope: float) -> tuple[_F, _F]:
    """For each anchor, the next anchor to its right nearly level with it (within ``slope``): (dx, dy) px. The
    next pile of a row, or the next card of a fanned waste; a cascade's cards and a card's second index lie
    lower."""
    if len(xs) == 0:
        return np.zeros(0), np.zeros(0)
    # all anchors at once (row i: from anchor i to each other), the nearest found as anchor by anchor
    dx, dy = xs[None, :] - xs[:, None], ys[None, :] - ys[:, None]
    ok = (dx > 0) & (np.abs(dy) < slope * dx)
    has = np.flatnonzero(ok.any(axis=1))
    k = np.argmin(np.where(ok, np.hypot(dx, dy), np.inf)[has], axis=1)  # the first of the nearest
    return np.array([float(v) for v in dx[has, k]]), np.array([float(v) for v in dy[has, k]])


def _rotation(xs: _F, ys: _F) -> float:
    """The layout's turn in the image (radians; the camera's yaw turns it): the median direction from a pile to
    the next one on its right, from the piles a card width or more apart (not a fanned waste)."""
    dx, dy = _level_neighbours(xs, ys, 0.35)
    if len(dx) < 2:
        return 0.0
    far = dx >= 0.5 * np.median(dx)
    return float(np.median(np.arctan2(dy[far], dx[far])))


def _card_width(backs: Detections, pairs: list[float], pitch: float | None, rough_h: float) -> tuple[float, bool]:
    """A card's width (px) in the image, and whether it is the strips' own width that no other measure confirmed.
    A face-down strip is a card wide; a card's two corners (``pairs``: horizontal distances) lie 0.55-0.85 card
    widths apart as decks go (0.72 typical); the column ``pitch`` is a card and a 10-45 % gap (1.22 typical); the
    index size (``rough_h``) says least, a card being 0.5-1.15 of ``rough_h * CARD_ASPECT`` wide as decks go. Real
    reads mislead each: a detector merges the strips of neighbouring columns into one box, misread corners pair
    wrongly, a deal's cascades step down so that their heads are not level. So each measure gives a range of
    widths: the first measure whose range another one's meets is taken; else the corners of several cards (their
    distance is the deck's own); else the first one the index size allows; else the index size."""
    rough_w = rough_h * CARD_ASPECT
    by_pairs = float(np.median(pairs)) if len(pairs) >= 2 else None  # one pair may be two misread cards
    measures: list[tuple[float, float, float]] = []  # (width, least, most)
    if len(backs):
        w = float(np.median(backs.boxes[:, 2] - backs.boxes[:, 0]))
        measures.append((w - 2.0, w - 4.0, w))
    if by_pairs is not None:
        measures.append((by_pairs / 0.72, by_pairs / 0.85, by_pairs / 0.55))
    if pitch is not None:
        measures.append((pitch / 1.22, pitch / 1.45, pitch / 1.1))
    measures.append((rough_w, 0.5 * rough_w, 1.15 * rough_w))
    index = len(measures) - 1
    for k, (w, lo, hi) in enumerate(measures[:index]):
        if any(j != k and lo <= b and a <= hi for j, (_, a, b) in enumerate(measures[:index])):
            return w, False
    if by_pairs is not None and len(pairs) >= 4:
        return by_pairs / 0.72, False
    for k, (w, lo, hi) in enumerate(measures[:index]):
        if lo <= 1.15 * rough_w and 0.5 * rough_w <= hi:
            return w, k == 0 and len(backs) > 0
    return rough_w, False


def _card_size(xs: _F, ys: _F, pairs: list[float], backs: Detections, rough_h: float) -> tuple[float, float]:
    """Card width and height (px) in the image, from anchors turned level (``xs``, ``ys``): the width as
    :func:`_card_width` settles it, the column pitch the distance from a card to the next one level with it on its
    right (a fanned waste's steps left out). The height: from the width, foreshortened as by a camera tilted 30
    degrees (0-45 makes it 15 % off either way)."""
    dx, _ = _level_neighbours(xs, ys, 0.15)
    far = dx[dx > 0.5 * np.max(dx)] if len(dx) else dx
    pitch = float(np.median(far)) if len(far) >= 3 else None
    w = _card_width(backs, pairs, pitch, rough_h)[0]
    return w, w / CARD_ASPECT * 0.85


def _plausible_backs(backs: Detections, card_w: float) -> tuple[Detections, npt.NDArray[np.bool_]]:
    """The face-down strips about a card wide (one seen in part still marks its column). A box much wider than a
    card is most often one strip whose width the detector drew wrong (a back design it does not know; the heat
    peak, the box's middle, is still on the strip): it is taken a card wide about its middle (such boxes with a
    strip beside them were dropped as merged strips of neighbouring columns: piles exact 0.7309 -> 0.7382 kept).
    A box with no strip beside it and less than two cards wide is kept as it is (a squared packet, the stock:
    the card width measured from the faces may be what is off). Also returned: per strip kept, whether it was
    narrowed (its width is then ``card_w``, no measure of the card)."""
    b = backs.boxes
    w = b[:, 2] - b[:, 0]
    keep = (w > 0.5 * card_w) & (w < 1.35 * card_w)
    boxes = b.copy()
    narrowed = np.zeros(len(b), bool)
    for i in np.flatnonzero(w >= 1.35 * card_w):
        beside = (b[:, 0] < b[i, 2]) & (b[:, 2] > b[i, 0]) & (b[:, 1] < b[i, 3] + 0.3 * card_w)
        beside &= b[:, 3] > b[i, 1] - 0.3 * card_w
        beside[i] = False
        if beside.any() or w[i] > 2.0 * card_w:  # alone, less than two wide: the faces' width may be what is off
            mid = (b[i, 0] + b[i, 2]) / 2
            boxes[i, 0], boxes[i, 2] = mid - card_w / 2, mid + card_w / 2
            narrowed[i] = True
        keep[i] = True
    # two peaks on one strip (a box drawn wide is not suppressed by its twin): the surer one is the strip
    mid = (boxes[:, :2] + boxes[:, 2:]) / 2
    for i in np.argsort(-backs.confidence):
        if keep[i]:
            twin = (np.abs(mid[:, 0] - mid[i, 0]) < 0.3 * card_w) & (np.abs(mid[:, 1] - mid[i, 1]) < _TWIN * card_w)
            twin[i] = False
            keep &= ~twin
    kept = Detections(
        boxes[keep], backs.class_id[keep], backs.confidence[keep], {k: v[keep] for k, v in backs.data.items()}
    )
    return kept, narrowed[keep]


# ---------------------------------------------------------------- the layout fit


@dataclass(frozen=True, slots=True)
class _Setting:
    """What the layout fit is given besides the anchors: the game's piles and the card's size in the image."""

    layout: dict[str, Slot]
    holds_backs: frozenset[str]  # piles whose face-down cards show
    dealt: frozenset[str]  # piles the deal fills, and the stock
    stock: frozenset[str]  # dealt face down: a face read there is no card
    card_w: float
    card_h: float


@dataclass(frozen=True, slots=True)
class _Grid:
    """The layout's column grid in the image: at the height of the anchor row (``u0`` px below the level line)
    columns start at ``origin`` and lie ``pitch`` apart; ``dy`` card heights lower the pitch is scaled by
    ``1 + s dy`` about the column ``mid`` (perspective), which moves ``lean`` pitches per card height."""

    line: tuple[float, float]  # the level line y = a x + b
    u0: float
    origin: float
    pitch: float
    s: float = 0.0
    lean: float = 0.0
    mid: float = 0.0
    card_h: float = 1.0

    def column(self, x: float, y: float) -> float:
        """The column (in pitches, from the layout's left edge) of the image point (x, y)."""
        a, b = self.line
        dy = (y - (a * x + b) - self.u0) / self.card_h
        pitch = self.pitch * (1 + self.s * dy)
        origin = self.origin + self.pitch * dy * (self.lean - self.s * self.mid)
        return (x - origin) / pitch


@dataclass(frozen=True, slots=True)
class _Fit:
    score: float
    rows: list[int]  # per anchor: the layout row, -1 for none
    grid: _Grid
    row_u: dict[int, float]  # per layout row with heads: its line's height below the level line (px)

    def row_at(self, x: float, y: float, card_h: float, fan_row: int | None) -> int:
        """The row whose line passes within 0.35 card heights of (x, y), or the cascades' row below its line."""
        a, b = self.grid.line
        u = y - (a * x + b)
        for r, ur in self.row_u.items():
            if abs(u - ur) < 0.35 * card_h or (r == fan_row and u > ur):
                return r
        return -1


@dataclass(frozen=True, slots=True)
class _Levelled:
    """The anchors turned level (rows along x, in place of the image's x and y) and the layout fitted to them."""

    xs: _F
    ys: _F
    turn: float
    setting: _Setting
    diag: _F  # per anchor: the offset from its card's top-left index to its bottom-right one
    lone: npt.NDArray[np.bool_]  # per anchor: a card of which one index was read
    head: list[int]
    fit: _Fit


def _levelled(
    first: list[SeenCard],
    backs: Detections,
    widths: Detections,
    turn: float,
    rough_h: float,
    piles: _Setting,
    floor: float = -np.inf,
) -> _Levelled | None:
    """The cards (``first``) and backs turned level by ``turn`` (radians), the card measured (``widths``: the
    strips whose width is the detector's, a measure of the card), the bottom-right indices seen alone moved to
    their top-left corners, the cascades found and the layout fitted. ``piles``: the game's, its card size not yet
    known. None when no fit could score more than ``floor`` (``_fit_layout``)."""
    n = len(first)
    bx, by = _back_anchors(backs)
    x0 = np.concatenate([[c.x for c in first], bx]).astype(np.float64)
    y0 = np.concatenate([[c.y for c in first], by]).astype(np.float64)
    cos, sin = np.cos(turn), np.sin(turn)
    xs, ys = cos * x0 + sin * y0, -sin * x0 + cos * y0
    turned = [
        ((ox - c.x) * cos + (oy - c.y) * sin, (oy - c.y) * cos - (ox - c.x) * sin)
        for c in first
        if c.other is not None
        for ox, oy in [c.other]
    ]
    card_w, card_h = _card_size(xs, ys, [d[0] for d in turned], widths, rough_h)
    is_back = np.arange(len(xs)) >= n
    # per anchor, the offset from its card's top-left index to the bottom-right one: that of the nearest card
    # whose two indices were read (perspective makes it larger nearer the camera), else the usual deck's
    paired = np.array([i for i in range(n) if first[i].other is not None], dtype=np.int64)
    diag = np.tile(usual_corner_offset(card_w, card_h), (len(xs), 1))
    if len(paired):
        offsets = np.array(turned)
        nearest = np.argmin(np.hypot(xs[:, None] - xs[paired][None, :], ys[:, None] - ys[paired][None, :]), axis=1)
        diag = offsets[nearest]
    lone = np.array([i < n and first[i].reads == 1 for i in range(len(xs))])
    _corners_alone(xs, ys, lone, diag, card_h, card_w)
    head = _cascade_heads(xs, ys, card_h, card_w)
    sure = np.clip(np.concatenate([[c.confidence for c in first], backs.confidence]) / _SURE, 0.15, 1.0)
    setting = replace(piles, card_w=card_w, card_h=card_h)
    fit = _fit_layout(xs, ys, is_back, sure, head, setting, floor)
    return None if fit is None else _Levelled(xs, ys, turn, setting, diag, lone, head, fit)


def assemble(dets: Detections, game: str) -> Observation:
    g = find_game(game)
    layout = LAYOUTS[layout_name(game)]
    holds_backs = _holds_backs(g)
    dets = _one_name_a_place(dets)
    faces = dets[dets.class_id < BACK]
    backs = dets[dets.class_id == BACK]
    weak = backs[backs.confidence < SURE_BACK]
    backs = backs[backs.confidence >= SURE_BACK]
    if len(faces) == 0 and len(backs) == 0:
        return Observation(game, dict.fromkeys(layout, ()), ())
    rough_h = index_card_height(faces, backs)
    groups = physical_cards(faces, rough_h)
    first = [_seen(name, cl, faces) for name, cl in groups]
    widths = backs
    if len(faces) and len(backs):
        # the corners' distance as the level one it would be (the layout's turn is not known yet)
        pairs = [0.7 * float(np.hypot(c.other[0] - c.x, c.other[1] - c.y)) for c in first if c.other]
        card_w, own = _card_width(backs, pairs, None, rough_h)
        backs, narrowed = _plausible_backs(backs, card_w)
        # boxes narrowed to the strips' own width, which nothing else confirmed, would confirm it once more: they
        # measure nothing (c-legal-1: a packet's back seen as a strip 2.7 cards wide and a box 0.5 wide, the card
        # measured 199 px where it is 140; exact moves 3 -> 5/24, selection seed unchanged)
        widths = backs[~narrowed] if own else backs
    n = len(first)
    bx, by = _back_anchors(backs)
    turn = _rotation(np.concatenate([[c.x for c in first], bx]), np.concatenate([[c.y for c in first], by]))
    stock = frozenset(spec.id for spec in g.piles if spec.role is Role.STOCK)
    game_piles = _Setting(layout, holds_backs, _dealt(g), stock, 0.0, 0.0)
    # the turn is measured on piles level with one another: few of them, or a deal's cascades whose backs were not
    # read (they step down like a turned row) mislead it; the layout is also fitted a little turned either way,
    # and unturned, and the best fit decides (real reads on renders: piles exact 0.699 -> 0.722, selection seed)
    turns = [turn, *([0.0] if turn != 0.0 else []), turn - _TURN_STEP, turn + _TURN_STEP]
    # the first best try wins (as max() of them all): a later one only when it scores more, so a try that cannot
    # is not fitted (``floor``)
    best = _levelled(first, backs, widths, turns[0], rough_h, game_piles)
    assert best is not None
    for t in turns[1:]:
        other = _levelled(first, backs, widths, t, rough_h, game_piles, best.fit.score)
        if other is not None and other.fit.score > best.fit.score:
            best = other
    xs, ys, diag, lone, head, fit = best.xs, best.ys, best.diag, best.lone, best.head, best.fit
    card_h = best.setting.card_h
    is_back = np.arange(len(xs)) >= n
    where = _place(fit, xs, ys, head, is_back, lone, diag, layout, holds_backs, card_h)
    cards = reconcile(dets, rough_h, g.packs, [where[i] is not None for i in range(n)])
    for i, card in enumerate(cards):  # a read that lost its name to a likelier one is a misread, not a card
        if card.name == UNKNOWN:
            where[i] = None
    piles: dict[str, list[int]] = {p: [] for p in layout}
    for i in range(n):
        pile = where[i]
        if pile is not None:
            piles[pile].append(i)
    for pile, idx in piles.items():  # a face read above two or more backs of its cascade is a misread
        if layout[pile].style == FAN_DOWN:
            backs_y = ys[n:][[w == pile for w in where[n:]]]
            for i in [i for i in idx if np.sum(backs_y > ys[i] + 0.05 * card_h) >= 2]:
                idx.remove(i)
                where[i] = None
    down = _face_down(where[n:], ys[n:], ys, piles, layout, card_h)
    for pile in _stocks_shown(weak, best, stock):
        if not piles[pile]:
            down[pile] = 1
    out: dict[str, tuple[SeenCard, ...]] = {}
    for pile, idx in piles.items():
        style = layout[pile].style
        if style == FAN_DOWN:
            idx.sort(key=lambda i: ys[i])
            last = cards[idx[-1]] if len(idx) >= 2 else None
            if last and last.reads == 1 and last.confidence < _DOUBT < max(cards[i].confidence for i in idx[:-1]):
                # a cascade's last card shows both its corners: a doubtful read alone below a surer card is most
                # often a read of that card's face (a court card's figure, a pip), the same in every frame
                where[idx.pop()] = None
        elif style == FAN_RIGHT:
            idx.sort(key=lambda i: xs[i])
        elif idx:  # a squared packet shows one card: both corners read, then the most confident, is the top one
            idx = [max(idx, key=lambda i: (cards[i].reads, cards[i].confidence))]
        out[pile] = tuple(cards[i] for i in idx)
    unplaced = tuple(cards[i] for i in range(n) if where[i] is None)
    return Observation(game, out, unplaced, down, fit.score, float(best.setting.card_w))


def _one_name_a_place(dets: Detections) -> Detections:
    """The surest of the index reads that lie on one another (centres within a third of an index apart, or one name
    boxed twice within half an index): one index read under two names (an 8 of clubs and of hearts), or twice, is
    one read. (qk-illegal-1, penguins: a 2S boxed twice 9 px apart was two cards, and the one
    pack's duplicate renamed the weaker box its runner-up, a 2C under the 2S.)"""
    faces = np.flatnonzero(dets.class_id < BACK)
    if len(faces) < 2:
        return dets
    c = dets.centres[faces].astype(np.float64)
    size = np.max(dets.boxes[faces, 2:] - dets.boxes[faces, :2], axis=1).astype(np.float64)
    names = dets.class_id[faces]
    keep = np.ones(len(dets), bool)
    for k in np.argsort(-dets.confidence[faces], kind="stable"):
        if keep[faces[k]]:
            near = np.hypot(*(c - c[k]).T) < np.minimum(size, size[k]) / 3
            # one name boxed twice a little apart: centres within half the smaller box (a fan's cards lie a fifth of
            # a card apart, about an index's width: c-legal-2's fan, a KS read as the KC beside the KC, is two cards)
            near |= (names == names[k]) & (np.hypot(*(c - c[k]).T) < np.minimum(size, size[k]) / 2)
            near[k] = False
            keep[faces[near]] = False
    return dets[keep] if not keep.all() else dets


def _place(
    fit: _Fit,
    xs: _F,
    ys: _F,
    head: list[int],
    is_back: npt.NDArray[np.bool_],
    lone: npt.NDArray[np.bool_],
    diag: _F,
    layout: dict[str, Slot],
    holds_backs: frozenset[str],
    card_h: float,
) -> list[str | None]:
    """Each anchor's pile (None: none): its cascade head's row and nearest column. A read of one index that is its
    own head, with no card read straight below it in a cascade, may be a card's bottom-right index seen alone: it goes
    where its top-left index would lie (and its anchor moves there, in place) when that is clearly nearer a pile (a
    cascade's first card read by one index was moved so, onto the waste's slot, and its cascade split: qc-illegal-1,
    jolly royal, the 6C with the 5D put on it 7 px aside; c-illegal-1's waste top seen by its bottom-right index
    alone lies 13-28 px aside of column 1's cascade below it). A waste's fan steps right, not down: a face read under
    a waste's read goes to the pile where it lies itself, if any (yk-legal-1: a column's KS, its backs unseen, read
    under the waste's 9H seen by its bottom-right index, was put in the waste)."""
    fans = [s.row for s in layout.values() if s.style == FAN_DOWN]
    # a card read straight below another, in its cascade, covers that card's bottom-right corner: that is no index
    # seen alone (a bottom-right index above the next row's cascade lies off its column by the index margins)
    followed = {h for j, h in enumerate(head) if h != j and abs(xs[j] - xs[h]) < _ALIGNED * card_h}
    where: list[str | None] = []
    for i in range(len(xs)):
        row = fit.rows[head[i]]
        col = fit.grid.column(float(xs[head[i]]), float(ys[head[i]]))
        pile, dist = (None, 1.0) if row < 0 else _nearest_pile(col, row, layout, holds_backs if is_back[i] else None)
        h = head[i]
        if h != i and pile is not None and layout[pile].style == FAN_RIGHT and not is_back[i]:
            # a fan steps right, not down: a read under a waste's read is no card of the waste, where it lies on a pile
            own_row = fit.row_at(float(xs[i]), float(ys[i]), card_h, max(fans) if fans else None)
            if own_row >= 0:
                own = _nearest_pile(fit.grid.column(float(xs[i]), float(ys[i])), own_row, layout)
                if own[0] is not None:
                    pile, dist = own
        if h != i and is_back[h] and (row < 0 or _nearest_pile(col, row, layout, holds_backs)[0] is None):
            # the cascade's top back lies on no pile that holds backs (a deep cascade's first backs reach up to
            # the row above): its cards go where they lie themselves
            row = fit.row_at(float(xs[i]), float(ys[i]), card_h, max(fans) if fans else None)
            col = fit.grid.column(float(xs[i]), float(ys[i]))
            pile, dist = (
                (None, 1.0) if row < 0 else _nearest_pile(col, row, layout, holds_backs if is_back[i] else None)
            )
        if lone[i] and head[i] == i and i not in followed:
            x, y = float(xs[i] - diag[i, 0]), float(ys[i] - diag[i, 1])
            row = fit.row_at(x, y, card_h, max(fans) if fans else None)
            alt, alt_dist = (None, 1.0) if row < 0 else _nearest_pile(fit.grid.column(x, y), row, layout)
            if alt is not None and alt_dist + 0.15 < dist:
                pile, xs[i], ys[i] = alt, x, y
        where.append(pile)
    return where


def _stocks_shown(backs: Detections, best: _Levelled, stock: frozenset[str]) -> set[str]:
    """The stock piles on whose slot one of ``backs`` lies in the fitted layout (a box drawn much wider than a card
    taken a card wide about its middle, as ``_plausible_backs`` does). A stock alone in its row has no row line of
    its own (rows are fitted on heads): a back a row pitch from a fitted row stands in that row."""
    if len(backs) == 0 or not stock:
        return set()
    layout, card_w, card_h, fit = best.setting.layout, best.setting.card_w, best.setting.card_h, best.fit
    boxes = backs.boxes.copy()
    mid, wide = (boxes[:, 0] + boxes[:, 2]) / 2, boxes[:, 2] - boxes[:, 0] >= 1.35 * card_w
    boxes[wide, 0], boxes[wide, 2] = mid[wide] - card_w / 2, mid[wide] + card_w / 2
    bx, by = _back_anchors(Detections(boxes, backs.class_id, backs.confidence, backs.data))
    cos, sin = np.cos(best.turn), np.sin(best.turn)
    a, b = fit.grid.line
    shown = set()
    for x0, y0 in zip(bx.tolist(), by.tolist(), strict=True):
        x, y = cos * x0 + sin * y0, -sin * x0 + cos * y0
        u = y - (a * x + b)
        for pile in stock:
            row = layout[pile].row
            if row in fit.row_u:
                on_row = abs(u - fit.row_u[row]) < 0.35 * card_h
            elif fit.row_u:
                near = min(fit.row_u, key=lambda r: abs(r - row))
                step = (u - fit.row_u[near]) / (row - near) / card_h
                on_row = _STOCK_ROW_STEP[0] <= step <= _STOCK_ROW_STEP[1]
            else:
                on_row = False
            if not on_row:
                continue
            if _nearest_pile(fit.grid.column(x, y), row, layout)[0] == pile:
                shown.add(pile)
    return shown


def _face_down(
    where: list[str | None], by: _F, ys: _F, piles: dict[str, list[int]], layout: dict[str, Slot], card_h: float
) -> dict[str, int]:
    """Backs seen per pile: in a cascade those above its first face-up card (a strip lower down is a misread); a
    squared packet shows one back, however many lie under it."""
    down = dict.fromkeys(layout, 0)
    for pile, y in zip(where, by, strict=True):
        if pile is None:
            continue
        if layout[pile].style == FAN_DOWN:
            top = min((float(ys[k]) for k in piles[pile]), default=None)
            if top is None or y <= top + 0.05 * card_h:
                down[pile] += 1
        else:
            down[pile] = 1
    return down


def _nearest_pile(
    col: float, row: int, layout: dict[str, Slot], piles: frozenset[str] | None = None
) -> tuple[str | None, float]:
    """The pile of ``row`` (only one of ``piles``, if given) whose slot lies nearest the column ``col`` (pitches),
    within 0.55 of a pitch, and how far; None when none is that near."""
    best, dist = None, 0.55
    for pile, slot in layout.items():
        if slot.row != row:
            continue
        d = max(slot.col - col, col - (slot.col + slot.extent), 0.0)
        if d < dist and (piles is None or pile in piles):
            best, dist = pile, d
    return best, dist


def _back_anchors(backs: Detections) -> tuple[_F, _F]:
    """Where the top-left index would be on each back whose top strip was seen (the strip is a card wide and
    14 % of a card high): the strip's left end, a little in and down (the grid is fitted on index anchors)."""
    if len(backs) == 0:
        return np.zeros(0), np.zeros(0)
    b = backs.boxes.astype(np.float64)
    strip_w = b[:, 2] - b[:, 0]
    return b[:, 0] + 0.1 * strip_w, b[:, 1] + 0.08 * strip_w / CARD_ASPECT


def _cascade_heads(xs: _F, ys: _F, card_h: float, card_w: float) -> list[int]:
    """For each anchor, the first card of its cascade: follow the nearest anchor just above it (a cascade shows
    10-35 % of each face-up card, less of a back; rows lie more than a card apart)."""
    head = list(range(len(xs)))
    if not head:
        return head
    # the anchor just above each one, for all at once (row i: from each anchor to anchor i)
    dy = ys[:, None] - ys[None, :]
    ok = (dy > 0.02 * card_h) & (dy < 0.5 * card_h) & (np.abs(xs[None, :] - xs[:, None]) < 0.3 * card_w)
    above = np.argmin(np.where(ok, dy, np.inf), axis=1)  # the first of the nearest
    has = np.any(ok, axis=1).tolist()
    for i in sorted(range(len(xs)), key=lambda k: ys[k]):  # the one above lies higher: its head is known
        if has[i]:
            head[i] = head[int(above[i])]
    return head


def _corners_alone(xs: _F, ys: _F, lone: npt.NDArray[np.bool_], diag: _F, card_h: float, card_w: float) -> None:
    """Move to its top-left corner (in place) each read that is a card's bottom-right index seen alone (a hand
    over the top-left one): a read of one index only, on no cascade, that lies between the rows, a card's
    diagonal (``diag``, per read) below-right of a row of top-left reads, where no other anchor lies."""
    if not lone.any():
        return
    a, b = _level_line(xs, ys, card_h)
    u = ys - (a * xs + b)
    settled = ~lone
    for i in np.flatnonzero(lone):
        x, y = xs[i] - diag[i, 0], ys[i] - diag[i, 1]
        ui = y - (a * x + b)
        on_row = settled & (np.abs(u - ui) < 0.2 * card_h)  # a row of top-left reads at the moved height
        own_row = settled & (np.abs(u - u[i]) < 0.2 * card_h)
        near = np.hypot(xs - x, ys - y) < 0.3 * card_w  # a card already there: then this read is its own card
        column = (np.abs(xs - xs[i]) < 0.3 * card_w) & (np.abs(ys - ys[i]) < 0.6 * card_h)  # a cascade's card
        column[i] = False
        if on_row.sum() >= 2 and not own_row.any() and not (near & settled).any() and not column.any():
            xs[i], ys[i] = x, y


def _level_line(xs: _F, ys: _F, card_h: float) -> tuple[float, float]:
    """The line y = a x + b with the most heads on it (a row of the layout: the camera may roll a little, rows
    stay straight lines in perspective), refitted through them."""
    best, best_on = (0.0, float(ys.min())), np.zeros(len(xs), bool)
    # every line through an anchor i and one j to its right nearly level with it (or level through i) at once
    dx, dy = xs[None, :] - xs[:, None], ys[None, :] - ys[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        slope = np.where(dx > 0, dy / dx, 0.0)
    tried = (dx > 0) & (np.abs(dy) <= 0.06 * dx)
    np.fill_diagonal(tried, True)
    np.fill_diagonal(slope, 0.0)
    b = ys[:, None] - slope * xs[:, None]
    count = np.full(slope.shape, -1)
    step = max(1, 2**16 // max(1, len(xs) ** 2))  # anchors i at a time: memory n^2 per i
    for lo in range(0, len(xs), step):
        i = slice(lo, lo + step)
        on = np.abs(ys - (slope[i, :, None] * xs + ys[i, None, None] - (slope[i] * xs[i, None])[:, :, None]))
        count[i] = np.where(tried[i], np.sum(on < 0.2 * card_h, axis=2), -1)
    k, j = np.unravel_index(int(np.argmax(count)), count.shape)  # the first of the most, as pair by pair
    if count[k, j] > 0:
        a = float(slope[k, j])
        best, best_on = (a, float(b[k, j])), np.abs(ys - (a * xs + ys[k] - a * xs[k])) < 0.2 * card_h
    if best_on.sum() >= 2 and np.ptp(xs[best_on]) > card_h:
        a = float(np.clip(np.polyfit(xs[best_on], ys[best_on], 1)[0], -0.06, 0.06))
        best = (a, float(np.median(ys[best_on] - a * xs[best_on])))
    return best


def _clusters(u: _F, card_h: float, weight: _F | None = None) -> list[list[int]]:
    """Indices of ``u`` (heights above the line) grouped into rows: sorted, cut where they jump by half a card.

    With ``weight`` (per head, 1 for a sure read), the rows are cut on the sure heads alone and each doubtful one
    joins the row it lies within half a card of (the nearer), else a row of its own: a doubtful read between two
    rows (a card's bottom index misread as another card) must not join them into one (k-illegal-1: a phantom
    queen halfway between the waste and the cascades' backs made the whole layout one row, every pile one over)."""
    sure = np.ones(len(u), bool) if weight is None else weight >= 1.0
    if not sure.any():
        sure[:] = True
    order = [int(k) for k in np.argsort(u, kind="stable")]
    out: list[list[int]] = []
    for k in order:
        if not sure[k]:
            continue
        if out and u[k] - u[out[-1][-1]] < 0.5 * card_h:
            out[-1].append(k)
        else:
            out.append([k])
    for k in order:
        if sure[k]:
            continue
        gaps = [max(min(u[c]) - u[k], u[k] - max(u[c]), 0.0) for c in out]
        near = int(np.argmin(gaps))
        if gaps[near] < 0.5 * card_h:
            out[near].append(k)
        else:
            out.append([k])
    for c in out:
        c.sort(key=lambda k: (u[k], k))
    out.sort(key=lambda c: u[c[0]])
    return out


def _row_maps(sizes: list[int], n_rows: int, fan_row: int | None) -> list[tuple[int, ...]]:
    """Every way to give the clusters (top to bottom, ``sizes`` heads each) rows of the layout, in order: a
    distinct row each, except that clusters below the cascades' row belong to it (a cascade is long; a gap in it
    starts a new cluster); a cluster may also be given no row (-1: stray reads), at a cost."""
    out: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...], last: int) -> None:
        k = len(prefix)
        if k == len(sizes):
            if last >= 0:
                out.append(prefix)
            return
        for r in range(last + 1, n_rows):
            extend((*prefix, r), r)
        if last >= 0 and last == fan_row:
            extend((*prefix, last), last)
        extend((*prefix, -1), last)

    extend((), -1)
    return out


def _fit_layout(
    xs: _F,
    ys: _F,
    is_back: npt.NDArray[np.bool_],
    sure: _F,
    head: list[int],
    setting: _Setting,
    floor: float = -np.inf,
) -> _Fit | None:
    """The rows and column grid that put the most heads on piles. Each head counts as its cascade's surest read
    (``sure``, per anchor: 1 for a read that is certainly right, less for a doubtful one), so that a phantom or a
    misread (most of them are doubtful) pulls the fit less than the cards read clearly. None when no row map
    could score more than ``floor``."""
    layout, card_h = setting.layout, setting.card_h
    heads = sorted(set(head))
    weight = np.zeros(len(xs))
    for i, h in enumerate(head):
        weight[h] = max(weight[h], sure[i])
    hw = weight[heads]
    hx, hy = xs[heads], ys[heads]
    a, b = _level_line(hx, hy, card_h)
    u = hy - (a * hx + b)
    n_rows = 1 + max(s.row for s in layout.values())
    fans = {s.row for s in layout.values() if s.style == FAN_DOWN}
    fan_row = max(fans) if fans else None
    best: _Fit | None = None
    memo: dict[tuple[object, ...], tuple[_F, ...]] = {}
    top_weight = max(1.0, _DEALT_WEIGHT)
    # the rows cut on every head, and on the sure heads alone (a doubtful read between two rows, a card's bottom
    # index misread, must not join them into one; one inside a row fills its gaps): the better fit decides
    splits = [_clusters(u, card_h)]
    if (on_sure := _clusters(u, card_h, hw)) != splits[0]:
        splits.append(on_sure)
    for clusters in splits:
        # a row's line: the middle of its heads; the cascades' row, its top heads (a cascade whose backs were not
        # seen starts lower)
        middle = [float(np.median(u[c])) for c in clusters]
        top = [float(np.percentile(u[c], 25)) for c in clusters]
        maps = _row_maps([len(c) for c in clusters], n_rows, fan_row)
        # the 6 maps of least spacing cost plus strays (ties in map order); a map's cost is at least its strays, so
        # maps are costed by strays, fewest first, until 6 cost less than any map left could
        strays = [sum(r < 0 for r in m) for m in maps]
        costs: dict[int, float] = {}
        for n_stray in sorted(set(strays)):
            if sum(c < n_stray for c in costs.values()) >= 6:
                break
            costs.update(
                {
                    k: _spacing_cost(maps[k], _row_lines(maps[k], middle, top, fan_row), card_h) + n_stray
                    for k, n in enumerate(strays)
                    if n == n_stray
                }
            )
        ranked = [maps[k] for k in sorted(costs, key=lambda k: (costs[k], k))[:6]]
        for rowmap in ranked:
            line = _row_lines(rowmap, middle, top, fan_row)
            cost = _spacing_cost(rowmap, line, card_h) + sum(
                float(np.sum(hw[c])) for c, r in zip(clusters, rowmap, strict=True) if r < 0
            )
            # a map's score is at most every head on a row scoring its most on a slot (``_row_scores``: weight times
            # at most 1; no lean, nothing misplaced) less its cost: a map that cannot beat the best is not fitted
            on_rows = sum(float(np.sum(hw[c])) for c, r in zip(clusters, rowmap, strict=True) if r >= 0)
            bound = top_weight * on_rows - cost
            if _cannot_win(bound, floor, None if best is None else best.score):
                continue
            rows_of_head = np.full(len(heads), -1)
            for c, r in zip(clusters, rowmap, strict=True):
                rows_of_head[c] = r
            row_u: dict[int, float] = {}
            for k, r in enumerate(rowmap):
                if r >= 0 and r not in row_u:
                    row_u[r] = line[k]
            score, grid = _fit_grid(hx, hw, rows_of_head, is_back[heads], row_u, setting, memo)
            score -= cost
            score -= _misplaced(
                hx, u, hw, rows_of_head, is_back[heads], row_u, replace(grid, line=(0.0, 0.0)), layout, card_h
            )
            if best is None or score > best.score + 1e-6:
                rows = [-1] * len(xs)
                for k, i in enumerate(heads):
                    rows[i] = int(rows_of_head[k])
                best = _Fit(score, rows, replace(grid, line=(a, b)), row_u)
    return best


def _row_lines(rowmap: tuple[int, ...], middle: list[float], top: list[float], fan_row: int | None) -> list[float]:
    """Each cluster's row line under ``rowmap``: the middle of its heads, for the cascades' row its top heads."""
    return [t if r == fan_row else m for r, m, t in zip(rowmap, middle, top, strict=True)]


def _cannot_win(bound: float, floor: float, best: float | None) -> bool:
    """Whether a row map whose score is at most ``bound`` loses to an earlier turn's fit (it must score more than
    ``floor``) or to the best map so far (it must score 1e-6 more than ``best``). 1e-6 covers the rounding of the
    bound, summed in another order than the score (the scores are sums of ~50 terms of about 1)."""
    return bound + 1e-6 <= floor or (best is not None and bound <= best)


def _misplaced(
    hx: _F,
    u: _F,
    hw: _F,
    rows: npt.NDArray[np.int64],
    back: npt.NDArray[np.bool_],
    row_u: dict[int, float],
    grid: _Grid,
    layout: dict[str, Slot],
    card_h: float,
) -> float:
    """What the heads a row map puts where no pile could show them cost: a squared packet's or the waste's top
    lies on its row's line, not a card height off it (in Canfield the reserve shares the cascades' row, and a
    row of foundations taken for that row puts the reserve's head far below its line); a cascade's first card
    read lies on the row's line or a few cards below it (backs and cards not read), not as far as the next
    row; a cascade's first back seen (``back``: per head) lies less than a card below it, backs stacking tight (the
    demo: a lone foundation ace taken for the cascades' row line, their backs 1.1-1.3 card heights under it).
    ``u``: the heads' heights below the level line (the grid measured from there)."""
    placed = np.flatnonzero(rows >= 0)

    def near(j: int, k: int) -> bool:  # in one column, leaning with the perspective
        return bool(abs(hx[j] - hx[k]) < 0.8 * CARD_ASPECT * card_h)

    piles = {int(k): _nearest_pile(grid.column(float(hx[k]), float(u[k])), int(rows[k]), layout)[0] for k in placed}
    cost = 0.0
    for k in placed:
        r, pile = int(rows[k]), piles[int(k)]
        off = (u[k] - row_u[r]) / card_h
        if pile is None:
            continue
        if layout[pile].style != FAN_DOWN and abs(off) > 0.6:
            cost += float(hw[k])
        elif (
            layout[pile].style == FAN_DOWN
            and off > (_BACKS_DEEP if back[k] else 1.3)
            # a deep cascade's face-up card read below backs of its own pile continues them (k-illegal-1: six backs
            # seen, the first face 1.5 card heights under the line, near the camera)
            and (back[k] or not any(back[j] and piles[j] == pile and u[j] < u[k] and near(j, int(k)) for j in piles))
        ):
            cost += 0.5 * float(hw[k])
    return cost


def _spacing_cost(rowmap: tuple[int, ...], line: list[float], card_h: float) -> float:
    """How far the rows' spacing is from a card and a gap per row (and from one another): 0 when plausible."""
    firsts: dict[int, float] = {}
    for r, u in zip(rowmap, line, strict=True):
        if r >= 0 and r not in firsts:
            firsts[r] = u
    rows = sorted(firsts)
    steps = [(firsts[q] - firsts[p]) / (q - p) / card_h for p, q in itertools.pairwise(rows)]
    cost = 0.0
    for s in steps:
        lo, hi = _ROW_STEP
        cost += 3.0 * max(0.0, np.log(lo / s) if s < lo else np.log(s / hi))
    if len(steps) > 1:
        cost += 2.0 * float(np.std(np.log(steps)))
    return cost


def _fit_grid(
    hx: _F,
    hw: _F,
    rows: npt.NDArray[np.int64],
    back: npt.NDArray[np.bool_],
    row_u: dict[int, float],
    setting: _Setting,
    memo: dict[tuple[object, ...], tuple[_F, ...]] | None = None,
) -> tuple[float, _Grid]:
    """Score, and origin and pitch (px) of each row's column grid, fitted together. The row with the most heads
    sets origin and pitch; the others follow by perspective: a row ``dy`` card heights away has its pitch
    scaled by ``1 + s dy`` and its columns shifted toward a vanishing point over the layout's middle, leaning
    by ``lean`` pitches per card height (camera yaw and roll). A back scores only on piles that hold backs; a
    head on a pile the deal fills scores a little more (an empty row of foundations and a full row of packets
    have the same columns); a face read scores nothing on the ``stock`` (dealt face down, it shows a back)."""
    layout, card_h, card_w = setting.layout, setting.card_h, setting.card_w
    holds_backs, dealt, stock = setting.holds_backs, setting.dealt, setting.stock
    used = [r for r in row_u if np.any(rows == r)]
    anchor = max(used, key=lambda r: (int(np.sum(rows == r)), r))
    mid = (min(s.col for s in layout.values()) + max(s.col + s.extent for s in layout.values())) / 2

    def slots(row: int, backs_only: bool) -> tuple[tuple[float, float, float], ...]:
        return tuple(
            (s.col, s.extent, 0.0 if p in stock and not backs_only else _DEALT_WEIGHT if p in dealt else 1.0)
            for p, s in layout.items()
            if s.row == row and (not backs_only or p in holds_backs)
        )

    def score(row: int, origins: _F, pitches: _F) -> _F:
        m = rows == row
        return _row_scores(hx[m & ~back], hw[m & ~back], origins, pitches, slots(row, False)) + _row_scores(
            hx[m & back], hw[m & back], origins, pitches, slots(row, True)
        )

    # the row maps of one fit share most rows: a row's scores are kept (``memo``, per fit: same heads, same grids)
    memo = {} if memo is None else memo
    key: tuple[object, ...] = (anchor, (rows == anchor).tobytes())
    if key not in memo:
        anchors = np.unique(np.round(hx[rows == anchor], 1))
        starts = np.unique([s.col for s in layout.values() if s.row == anchor])
        # every trial grid at once: each pitch, and an origin that puts an anchor on each slot of its row
        pitch_1 = card_w * _PITCHES
        grid = np.round(anchors[None, :, None] - starts[None, None, :] * pitch_1[:, None, None], 0)
        o = grid.reshape(len(pitch_1), -1)
        keep = np.ones(o.shape, bool)
        keep[:, 1:] = np.diff(np.sort(o, axis=1), axis=1) > 0  # one trial per distinct origin of a pitch
        o = np.sort(o, axis=1)
        p = np.broadcast_to(pitch_1[:, None], o.shape)[keep]
        o = o[keep]
        base = score(anchor, o, p)
        top = _first_most(base, 16)
        memo[key] = o[top], p[top], base[top]
    o, p, base = memo[key]
    others = [r for r in used if r != anchor]
    if not others:
        k = int(np.argmax(base))
        return float(base[k]), _Grid((0.0, 0.0), row_u[anchor], float(o[k]), float(p[k]), card_h=card_h)
    s_all, lean_all = _S_ALL, _LEAN_ALL
    total = np.repeat(base, len(s_all)) - _LEAN_COST * np.tile(np.abs(lean_all), len(base))
    oo, pp = np.repeat(o, len(s_all)), np.repeat(p, len(s_all))
    ss, ll = np.tile(s_all, len(base)), np.tile(lean_all, len(base))
    for r in others:
        dy = (row_u[r] - row_u[anchor]) / card_h
        row_key = (*key, r, (rows == r).tobytes(), dy)
        if row_key not in memo:
            memo[row_key] = (score(r, oo + pp * dy * (ll - ss * mid), pp * (1 + ss * dy)),)
        total = total + memo[row_key][0]
    k = int(np.argmax(total))
    return float(total[k]), _Grid(
        (0.0, 0.0), row_u[anchor], float(oo[k]), float(pp[k]), float(ss[k]), float(ll[k]), mid, card_h
    )


def _first_most(v: _F, k: int) -> npt.NDArray[np.intp]:
    """The indices of the ``k`` largest of ``v``, largest first, ties in index order: ``np.argsort(-v,
    kind="stable")[:k]`` without sorting all of ``v``."""
    if len(v) <= k:
        return np.argsort(-v, kind="stable")
    cut = np.partition(-v, k - 1)[k - 1]
    near = np.flatnonzero(-v <= cut)
    out: npt.NDArray[np.intp] = near[np.argsort(-v[near], kind="stable")[:k]]
    return out


# the grids the fit tries: column pitches (card widths), and perspective scales and leans for the rows that follow
_PITCHES = np.linspace(0.85, 1.75, 37)
_S_ALL, _LEAN_ALL = (
    g.ravel() for g in np.meshgrid(np.linspace(0.0, 0.15, 7), np.linspace(-0.2, 0.2, 9), indexing="ij")
)


def _row_scores(xs: _F, ws: _F, origins: _F, pitches: _F, slots: tuple[tuple[float, float, float], ...]) -> _F:
    """How well anchors ``xs`` (px, weighing ``ws``) sit on the slots (column, extent, weight) of many grids at
    once, one score per origin and pitch: the anchor's times the slot's weight when on it, 0 from 0.35 pitch
    off."""
    if len(xs) == 0 or not slots:
        return np.zeros(len(origins))
    cols = (xs[None, :] - origins[:, None]) / pitches[:, None]
    unit = _unit_slots(slots)
    if unit is not None:
        # slots one pitch apart, alike: a column's slot is the nearest one (rounding; between two slots, where
        # either scores 0, it may take the other one than the search below), the same operations after
        first, last, weight = unit
        best = np.subtract(cols, first) if first else cols.copy()
        np.rint(best, out=best)
        np.maximum(best, 0.0, out=best)
        np.minimum(best, last - first, out=best)
        if first:
            np.add(best, first, out=best)
        np.subtract(best, cols, out=best)
        np.abs(best, out=best)  # off: max(start - col, col - start), both exact (a slot has no extent)
        np.divide(best, 0.35, out=best)
        np.subtract(1.0, best, out=best)
        np.multiply(weight, best, out=best)
        np.maximum(0.0, best, out=best)
        out: _F = best @ ws
        return out
    table = _slot_table(slots)
    if table is not None:
        # only the slot whose reach starts last below a column can score it: each column is scored on that slot
        # alone (the same sums as slot by slot, several times faster)
        reach, starts, ends, weights = table
        # np.searchsorted(reach, cols, side="right") counted by comparisons (a row has few slots: ~2x faster), and
        # the same operations as slot by slot done in place
        k = np.zeros(cols.shape, np.intp)
        for r in reach:
            k += cols >= r
        best = np.take(starts, k)
        np.subtract(best, cols, out=best)
        after = np.take(ends, k)
        np.subtract(cols, after, out=after)
        np.maximum(best, after, out=best)  # off
        np.maximum(best, 0.0, out=best)
        np.divide(best, 0.35, out=best)
        np.subtract(1.0, best, out=best)
        np.multiply(np.take(weights, k), best, out=best)
        np.maximum(0.0, best, out=best)
    else:
        best = np.zeros(cols.shape)
        for start, extent, weight in slots:  # slot by slot: an array per slot is cheaper than one of every slot
            off = np.maximum(start - cols, cols - (start + extent))
            np.maximum(best, weight * (1.0 - np.maximum(off, 0.0) / 0.35), out=best)
    out = best @ ws
    return out


@functools.lru_cache(maxsize=256)
def _unit_slots(slots: tuple[tuple[float, float, float], ...]) -> tuple[float, float, float] | None:
    """(first column, last column, weight) when the slots are one pitch apart (columns ``first + k`` exactly), of
    no extent and of one weight above 0: a column then scores on its nearest slot (``_row_scores``); else None."""
    order = sorted(slots)
    starts = np.array([s for s, _, _ in order], dtype=np.float64)
    weights = {w for _, _, w in order}
    if any(e != 0.0 for _, e, _ in order) or len(weights) != 1 or min(weights) <= 0.0:
        return None
    if not np.array_equal(starts, starts[0] + np.arange(len(starts), dtype=np.float64)):
        return None
    return float(starts[0]), float(starts[-1]), float(order[0][2])


@functools.lru_cache(maxsize=256)
def _slot_table(slots: tuple[tuple[float, float, float], ...]) -> tuple[_F, _F, _F, _F] | None:
    """The slots (column, extent, weight) sorted, as arrays: where the reach (0.35 pitch) of each after the first
    starts, and each one's start, end and weight; None when two slots' reaches meet (a column near both)."""
    order = sorted(slots)
    starts = np.array([s for s, _, _ in order], dtype=np.float64)  # float: ``_row_scores`` works in place
    ends = np.array([s + e for s, e, _ in order], dtype=np.float64)
    if not np.all(starts[1:] - 0.35 > ends[:-1] + 0.35 + 1e-6):
        return None
    return starts[1:] - (0.35 + 1e-9), starts, ends, np.array([w for _, _, w in order], dtype=np.float64)


# ---------------------------------------------------------------- observation -> engine table


def _sequence(base: int, top: int, build: Build, wrap: bool) -> list[int] | None:
    """Rank indices (0 = ace) from ``base`` to ``top`` built ``build``; None when ``top`` cannot be reached."""
    step = 1 if build is Build.UP else -1
    out = [base]
    while out[-1] != top:
        nxt = out[-1] + step
        if not 0 <= nxt < 13:
            if not wrap:
                return None
            nxt %= 13
        out.append(nxt)
        if len(out) > 13:
            return None
    return out


def foundations(obs: Observation) -> dict[str, list[str] | None]:
    """Each foundation's cards as its top card and the game's rules imply them, bottom first; None where the
    evidence does not decide it (the caller keeps the top card alone). A foundation is filled only when the
    filling is consistent: its top card was read, no card it implies is seen elsewhere (on the table or implied
    by another foundation) more often than the packs allow, and where the base rank is set by the deal
    (Canfield, General Sedgewick) exactly one base rank fits every foundation."""
    game = find_game(obs.game)
    rules = {s.id: s.rule for s in game.piles if s.role is Role.FOUNDATION and s.rule.build in (Build.UP, Build.DOWN)}
    tops = {p: obs.piles[p][-1].name for p in rules if obs.piles.get(p) and obs.piles[p][-1].name != UNKNOWN}
    seen: Counter[str] = Counter(c.name for p, cards in obs.piles.items() if p not in rules for c in cards)
    seen.update(tops.values())

    def implied(pile: str, base: int) -> list[str] | None:
        top = tops[pile]
        seq = _sequence(base, RANKS.index(top[:-1]), rules[pile].build, rules[pile].wrap)
        return None if seq is None else [RANKS[r] + top[-1] for r in seq]

    def consistent(filled: dict[str, list[str]]) -> bool:
        used = seen + Counter(n for cards in filled.values() for n in cards[:-1])
        return all(v <= game.packs for n, v in used.items() if n != UNKNOWN)

    result: dict[str, list[str] | None] = dict.fromkeys(rules)
    fixed = {Base.ACE: 0, Base.KING: 12, Base.NONE: None}
    own: dict[str, list[str] | None] = {}
    for pile in tops:
        rule = rules[pile]
        if rule.base in fixed:  # NONE: the deal withdraws the ace (built up) or king (built down)
            base = fixed[rule.base]
            own[pile] = implied(pile, (0 if rule.build is Build.UP else 12) if base is None else base)
    for pile, cards in own.items():
        # consistent with what is seen, and with every other foundation (two foundations that claim one card
        # more often than the packs hold it: one top was misread, and which is not known)
        if (
            cards is not None
            and all(consistent({pile: cards, **({q: other} if other else {})}) for q, other in own.items() if q != pile)
            and consistent({pile: cards})
        ):
            result[pile] = cards
    dealt = [p for p in tops if rules[p].base is Base.DEALT]
    options = []
    for base in range(13) if dealt else []:
        filled = {p: implied(p, base) for p in dealt}
        if all(v is not None for v in filled.values()):
            known = {p: v for p, v in filled.items() if v is not None}
            if consistent({**known, **{p: v for p, v in result.items() if v is not None}}):
                options.append(known)
    if len(options) == 1:
        result.update(options[0])
    return result


FAN_STEP = 0.21
"""How far a fanned waste's cards lie apart, in card widths as the layout fit measures them (the renderer fans
them 12-18 mm apart on a 63 mm card; measured on 114 rendered Canfield tables with perfect reads, tilts 0-45
degrees: one step 0.14-0.31 card widths, median 0.21; two steps 0.30-0.58)."""


FAN_PLACES = 4
"""A fanned waste shows its squared packet's top and three cards fanned on it."""

FAN_RISE = 0.3
"""How far (card widths) two reads of a fan may lie one above the other and still be neighbours in it: a fan card's
index is read up to 0.2 card widths above or below the card under it (xc-legal-1's JC 12-17 px below the 8D, 27
px along the fan, on a card 116 px wide; uk-legal-1's 9S 13 px above the QD, 40 px along, on one 68 px wide),
which a slope alone (0.3) took for a stray read; another card's corner lies a card's height away."""


def fan_slots(cards: tuple[SeenCard, ...], card_w: float, step: float = 0.0) -> list[str]:
    """The names of a fanned waste's read cards (left to right) with an unknown card (``??``) in each place of
    the fan between two of them that shows no read card: two reads two steps apart have an unread card between
    them. A reading that lists the fan's read cards side by side puts a card that lies third from the top right
    under the top card (measured: c-legal-1's 8H and 3C, with the 2D unread between them, read as the 3C on the
    8H, the turn before them unexplained). A fan shows at most four places (its squared packet's top and three
    cards fanned on it), so at most two cards are filled in, and none where two reads do not lie side by side (a
    stray read of another card's corner among the fan's). How many steps lie between each two reads: see
    :func:`fan_steps`, with the fan's ``step`` as measured over frames (pixels; 0: ``FAN_STEP`` card widths)."""
    read = [card.name for card in cards]
    counted = _fan_counts(cards, card_w, step)
    if not counted:
        return read
    names = read[:1]
    for (_, k), card in zip(counted, cards[1:], strict=True):
        names += [UNKNOWN] * (k - 1) + [card.name]
    return names


def _fan_counts(cards: tuple[SeenCard, ...], card_w: float, step: float) -> list[tuple[float, int]]:
    """Per two neighbouring reads of a fan, how far apart they lie (pixels, along the fan) and how many steps that
    is (:func:`fan_steps`, the step ``step`` or, at 0, ``FAN_STEP`` card widths); none where the card's size is not
    measured, two reads do not lie side by side, or there are more of them than a fan shows."""
    if card_w <= 0 or len(cards) < 2:
        return []
    gaps = []
    for a, b in itertools.pairwise(cards):
        dx, dy = b.x - a.x, b.y - a.y
        if abs(dy) > max(0.3 * abs(dx), FAN_RISE * card_w):  # not along the fan (another card's corner read)
            return []
        gaps.append(abs(dx))
    counts = fan_steps(gaps, step if step > 0 else FAN_STEP * card_w)
    return [] if counts is None else list(zip(gaps, counts, strict=True))


def fan_step_estimates(obs: Observation) -> list[float]:
    """The gaps (pixels) between two neighbouring reads of each fanned waste of ``obs`` that :func:`fan_slots`
    counts one step apart. Taken over frames (``cadogan.reading.CardScale``) they measure the fan's step better
    than its card width does: uk-legal-1's waste fanned 18-22 px a step on a card read 68 px wide (0.27-0.32
    widths; ``FAN_STEP`` is 0.21), so a QD and a 9S read 41 px apart, the 2D unread between them, were counted
    three steps apart, a card too many. Gaps counted two or three steps are left out: a gap halved by a step
    measured short would measure it shorter still (gk-misdeal-1: a QH read 5 px aside under the KS)."""
    layout = LAYOUTS[layout_name(obs.game)]
    out: list[float] = []
    for pile, cards in obs.piles.items():
        if pile not in layout or layout[pile].style != FAN_RIGHT:
            continue
        out += [gap for gap, k in _fan_counts(cards, obs.card_w, obs.fan_step) if k == 1]
    return out


def fan_steps(gaps: list[float], step: float) -> tuple[int, ...] | None:
    """How many fan steps lie between each two neighbouring reads of a fan, ``gaps`` apart (pixels), at most
    ``FAN_PLACES`` - 1 in all: the counts whose whole span is nearest a whole number of ``step`` (the layout's
    expected step) and whose gaps, each divided by its count, agree with one another. The fan's own reads measure
    its step better than the card's size does (a layout fit is up to 20 % off from frame to frame): xc-legal-1's
    JH, 8D and JC read 53 and 28 px apart with the expected step at 21 px were counted three steps and one, four
    places too many, and the fan was read as three cards where it showed four, the 3S unread; 2 and 1 agree.
    Where one gap alone is read, the nearest whole number of steps (as before). None for more gaps than places."""
    if len(gaps) > FAN_PLACES - 1:
        return None
    span = sum(gaps) / step
    best: tuple[float, tuple[int, ...]] | None = None
    for counts in itertools.product(range(1, FAN_PLACES), repeat=len(gaps)):
        if sum(counts) > FAN_PLACES - 1:
            continue
        logs = [math.log(max(gap, 1.0) / k) for gap, k in zip(gaps, counts, strict=True)]
        mean = sum(logs) / len(logs)
        # a step's size varies from card to card (12-18 mm rendered), a count of two against one doubles it
        cost = (span - sum(counts)) ** 2 + 2.0 * sum((v - mean) ** 2 for v in logs)
        if best is None or cost < best[0]:
            best = (cost, counts)
    return None if best is None else best[1]


def to_table(
    obs: Observation, *, face_down: bool = False, unread_in_fans: bool = False
) -> tuple[Table, tuple[Problem, ...]]:
    """The observation as an engine table. Foundations are filled from their top card as the rules imply
    (:func:`foundations`; one the evidence does not decide keeps its top card alone); cards not read are left
    out. With ``face_down``, each cascade gets its observed face-down cards as unknown cards (``??``) under its
    face-up ones (a squared packet's count is not observable: left out). With ``unread_in_fans``, a fanned
    waste gets an unknown card in each place of its fan that shows no read card between two that do
    (:func:`fan_slots`)."""
    game = find_game(obs.game)
    layout = LAYOUTS[layout_name(obs.game)]
    ids = Table.dealt(game, 0).pile_ids
    piles: dict[str, list[str]] = {p: [] for p in ids}
    filled = foundations(obs)
    for pile, seen in obs.piles.items():
        names = [c.name for c in seen]
        if unread_in_fans and pile in layout and layout[pile].style == FAN_RIGHT:
            names = fan_slots(seen, obs.card_w, obs.fan_step)
        if filled.get(pile) is not None:
            names = list(filled[pile] or [])
        if face_down and pile in layout and layout[pile].style == FAN_DOWN:
            names = [UNKNOWN] * obs.face_down.get(pile, 0) + names
        if pile in piles:
            piles[pile] = names
    return read_table({"game": game.name, "piles": piles})
