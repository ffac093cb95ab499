"""Detections -> an observed table: which card lies in which pile, in which order.

Works in the image plane, with the layouts the renderer and people use (the camera on the player's side, the
layout reading upright):
- Klondike: stock, waste (fanned right), gap, four foundations on top; seven columns below.
- Canfield: stock, waste on top, four foundations to the right; reserve below the stock, four columns below
  the foundations.

Steps: (1) reconcile duplicate reads (one pack: each card exists once); (2) one anchor per card, its
top-most read (the top-left index; the bottom-right one lies a card lower); (3) split the anchors into the top
row and the rows below by height, measured in card heights (estimated from the index boxes); (4) fit the
column grid (origin and pitch) that puts most anchors on a slot of their row; (5) order each pile: cascades
top to bottom, the waste left to right; a squared packet shows only its top card; (6) count the face-down
cards of each pile: the detector finds the visible top strip of every back (class ``BACK``), each strip is
placed on the grid like a card, and a cascade's face-down count is the number of strips above its first
face-up card (a squared packet of backs shows one strip: the stock counts as "1 or more").
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engine import Table, find_game
from engine.formats import read_table
from engine.status import Problem
from vision.cards import NAMES, RANKS
from vision.detections import BACK, Detections

CARD_PER_INDEX = 5.0  # card height / index height: 5.4 for the renderer's decks (median), 3.9 for a poker deck
CARD_ASPECT = 63.0 / 88.0
UNKNOWN = "??"

# slot -> (row, column in card pitches, extent to the right in pitches: the waste fans right)
_LAYOUTS: dict[str, dict[str, tuple[int, float, float]]] = {
    "klondike": {
        "s": (0, 0, 0), "w": (0, 1, 0.75),
        **{f"f{i}": (0, 2 + i, 0) for i in range(1, 5)},
        **{f"t{i}": (1, i - 1, 0) for i in range(1, 8)},
    },
    "canfield": {
        "s": (0, 0, 0), "w": (0, 1, 0.75), "r": (1, 0, 0),
        **{f"f{i}": (0, 1.5 + i, 0) for i in range(1, 5)},
        **{f"t{i}": (1, 1.5 + i, 0) for i in range(1, 5)},
    },
}
_FANNED_DOWN = ("t",)
_HOLDS_BACKS = ("s", "t", "r")  # piles whose face-down cards can show (the waste and foundations are face up)


@dataclass(frozen=True, slots=True)
class SeenCard:
    name: str  # "10H", or "??" when a read was given up (a duplicate with no plausible second reading)
    x: float  # anchor (image px): the centre of the card's top-most index read
    y: float
    confidence: float
    reads: int  # how many index reads back this card (2: both corners seen)
    other: tuple[float, float] | None = None  # the second read (the bottom-right index), if any


@dataclass(frozen=True, slots=True)
class Observation:
    game: str
    piles: dict[str, tuple[SeenCard, ...]]  # bottom first; only cards whose index was read
    unplaced: tuple[SeenCard, ...]  # reads that fit no pile of the layout
    face_down: dict[str, int] = field(default_factory=dict)  # backs seen per pile (a squared packet: 1)

    def names(self) -> dict[str, list[str]]:
        return {p: [c.name for c in cards] for p, cards in self.piles.items()}


def layout_name(game: str) -> str:
    g = find_game(game)
    for key in _LAYOUTS:
        if g.name.lower().startswith(key) or game.lower().startswith(key):
            return key
    raise ValueError(f"no table layout for {g.name} yet (known: {', '.join(_LAYOUTS)})")


def reconcile(dets: Detections, card_h: float) -> list[SeenCard]:
    """One SeenCard per physical card: reads of one name a card apart are its two corners; reads of one
    name further apart are a misread (one pack): the most confident group keeps the name, the others take
    their runner-up reading when that card is not seen elsewhere, else become unknown."""
    faces = dets[dets.class_id < BACK]
    reach = 1.25 * card_h * np.hypot(1.0, CARD_ASPECT)  # top-left to bottom-right index, with slack
    groups: list[tuple[str, list[int]]] = []
    for name in sorted(set(faces.names)):
        idx = [i for i, n in enumerate(faces.names) if n == name]
        idx.sort(key=lambda i: -float(faces.confidence[i]))
        clusters: list[list[int]] = []
        for i in idx:
            for cl in clusters:
                if len(cl) < 2 and np.hypot(*(faces.centres[i] - faces.centres[cl[0]])) <= reach:
                    cl.append(i)
                    break
            else:
                clusters.append([i])
        groups.extend((name, cl) for cl in clusters)

    def strength(g: tuple[str, list[int]]) -> float:
        return float(sum(faces.confidence[i] for i in g[1]))

    groups.sort(key=strength, reverse=True)
    taken: set[str] = set()
    out: list[SeenCard] = []
    second = faces.data.get("second")
    second_score = faces.data.get("second_score")
    pending: list[tuple[str, list[int]]] = []
    for name, cl in groups:
        if name in taken:
            pending.append((name, cl))
            continue
        taken.add(name)
        out.append(_seen(name, cl, faces))
    for _, cl in pending:  # weaker duplicates: second opinion, or unknown
        name = UNKNOWN
        if second is not None and second_score is not None:
            best = max(cl, key=lambda i: float(second_score[i]))
            alt = NAMES[int(second[best])]
            if alt not in taken and float(second_score[best]) >= 0.1:
                name = alt
                taken.add(alt)
        out.append(_seen(name, cl, faces))
    return out


def _seen(name: str, cl: list[int], faces: Detections) -> SeenCard:
    cl = sorted(cl, key=lambda i: float(faces.centres[i][1]))
    x, y = faces.centres[cl[0]]
    other = (float(faces.centres[cl[1]][0]), float(faces.centres[cl[1]][1])) if len(cl) > 1 else None
    return SeenCard(name, float(x), float(y), float(max(faces.confidence[i] for i in cl)), len(cl), other)


def assemble(dets: Detections, game: str) -> Observation:
    layout = _LAYOUTS[layout_name(game)]
    faces = dets[dets.class_id < BACK]
    if len(faces) == 0:
        return Observation(game, dict.fromkeys(layout, ()), ())
    box_h = float(np.median(faces.boxes[:, 3] - faces.boxes[:, 1]))
    box_w = float(np.median(faces.boxes[:, 2] - faces.boxes[:, 0]))
    card_h = CARD_PER_INDEX * max(box_h, box_w)
    card_w = card_h * CARD_ASPECT
    cards = reconcile(dets, card_h)
    xs = np.array([c.x for c in cards])
    ys = np.array([c.y for c in cards])
    bx, by = _back_anchors(dets[dets.class_id == BACK], card_h, card_w)
    slope, icept = _top_line(xs, ys, card_h)
    if np.any(by - (slope * bx + icept) < -0.25 * card_h):  # a back above the faces' top row: a fresh deal's
        slope, icept = _line_above(np.concatenate([xs, bx]), np.concatenate([ys, by]), card_h, card_w)  # stock
    resid = ys - (slope * xs + icept)
    split = [0 if r < 0.6 * card_h else 1 for r in resid]
    back_rows = [0 if r < 0.6 * card_h else 1 for r in by - (slope * bx + icept)]
    # Is there a top row at all? Yes if one column holds two reads far more than a cascade step apart, or
    # if the layout's top row explains the reads better than tableau columns alone (a fresh deal has no
    # top-row card to read, and its first tableau cards would pass for one).
    stacked = any(
        abs(xs[i] - xs[j]) < 0.3 * card_w and 0.75 * card_h < ys[j] - ys[i] < 2.2 * card_h
        for i in range(len(xs)) for j in range(len(xs))
    )
    options = [split] if stacked else [split, [1] * len(xs)]
    chosen: tuple[float, list[int], npt.NDArray[np.float64], dict[int, tuple[float, float]]] | None = None
    for rows in options:
        # Columns lean in perspective: a card in a cascade takes the column of the cascade's first card.
        col_x = xs[_cascade_heads(xs, ys, rows, card_h, card_w)]
        # backs are anchors of the grid too: a fresh deal's stock is the top row's only card
        score, fits = _fit_grid(col_x, rows, layout, card_w, (bx, back_rows))
        if chosen is None or score >= chosen[0]:
            chosen = (score, rows, col_x, fits)
    assert chosen is not None
    _, rows, col_x, fits = chosen
    piles: dict[str, list[int]] = {p: [] for p in layout}
    unplaced: list[SeenCard] = []
    for i, row in enumerate(rows):
        best = _nearest_pile(float(col_x[i]), row, fits, layout)
        if best is None:
            unplaced.append(cards[i])
        else:
            piles[best].append(i)
    down = _face_down(bx, by, by - (slope * bx + icept), fits, layout, card_h, piles, ys)
    out: dict[str, tuple[SeenCard, ...]] = {}
    for pile, idx in piles.items():
        if pile.rstrip("0123456789") in _FANNED_DOWN:
            idx.sort(key=lambda i: ys[i])
        elif pile == "w":
            idx.sort(key=lambda i: xs[i])
        elif idx:  # a squared packet shows one card: the most confident read is the top one
            idx = [max(idx, key=lambda i: cards[i].confidence)]
        out[pile] = tuple(cards[i] for i in idx)
    return Observation(game, out, tuple(unplaced), down)


def _nearest_pile(
    x: float, row: int, fits: dict[int, tuple[float, float]], layout: dict[str, tuple[int, float, float]],
    roles: tuple[str, ...] | None = None,
) -> str | None:
    """The pile of ``row`` (only piles of these ``roles``, if given) whose slot lies nearest the anchor ``x``
    (px) on the fitted grid, within 0.55 of a pitch; None when none is that near."""
    x0, pitch = fits[row]
    col = (x - x0) / pitch
    best, dist = None, 0.55
    for pile, (r, start, extent) in layout.items():
        d = max(start - col, col - (start + extent), 0.0)
        if r == row and d < dist and (roles is None or pile.rstrip("0123456789") in roles):
            best, dist = pile, d
    return best


def _back_anchors(
    backs: Detections, card_h: float, card_w: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Where the top-left index would be on each back whose top strip was seen: the strip's left end, a
    little in (the grid is fitted on index anchors)."""
    if len(backs) == 0:
        return np.zeros(0), np.zeros(0)
    b = backs.boxes.astype(np.float64)
    strip_w = b[:, 2] - b[:, 0]
    x = b[:, 0] + np.minimum(strip_w, card_w) * 0.1
    y = b[:, 1] + 0.08 * card_h
    return x, y


def _face_down(
    bx: npt.NDArray[np.float64], by: npt.NDArray[np.float64], resid: npt.NDArray[np.float64],
    fits: dict[int, tuple[float, float]],
    layout: dict[str, tuple[int, float, float]], card_h: float, piles: dict[str, list[int]],
    ys: npt.NDArray[np.float64],
) -> dict[str, int]:
    """Backs seen per pile of the layout: strips placed on the fitted grid like cards; in a cascade only
    strips above its first face-up card count (a strip lower down is a misdetection)."""
    down = dict.fromkeys(layout, 0)
    for x, y, r in zip(bx, by, resid, strict=True):
        best = _nearest_pile(float(x), 0 if r < 0.6 * card_h else 1, fits, layout, _HOLDS_BACKS)
        if best is None:
            continue
        if best.rstrip("0123456789") in _FANNED_DOWN:
            first = min((float(ys[i]) for i in piles[best]), default=None)
            if first is not None and y > first + 0.05 * card_h:
                continue
            down[best] += 1
        else:
            down[best] = 1  # a squared packet shows one back, however many lie under it
    return down


def _top_line(xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], card_h: float) -> tuple[float, float]:
    """The line y = a x + b through the top row: the near-level line with the most anchors on it and none
    clearly above it (the camera may roll a little; rows stay straight lines in perspective)."""
    best = (0.0, float(ys.min()))
    best_score = -1
    for i in range(len(xs)):
        for j in range(len(xs)):
            dx = xs[j] - xs[i]
            if j != i and (dx <= 0 or abs(ys[j] - ys[i]) > 0.3 * dx):
                continue
            a = float((ys[j] - ys[i]) / dx) if j != i else 0.0
            b = float(ys[i] - a * xs[i])
            resid = ys - (a * xs + b)
            if np.any(resid < -0.25 * card_h):
                continue
            score = int(np.sum(np.abs(resid) < 0.2 * card_h))
            if score > best_score:
                best_score, best = score, (a, b)
    return best


def _line_above(
    xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], card_h: float, card_w: float
) -> tuple[float, float]:
    """The top row's line when only backs show it (a fresh deal: the stock alone): the rows' slope from the
    heads of the columns (robust: the median slope between heads a card or more apart), through the top-most
    anchor. Lines through many backs would follow a cascade's staircase instead."""
    heads = [
        i for i in range(len(xs))
        if not np.any((np.abs(xs - xs[i]) < 0.3 * card_w) & (ys < ys[i] - 0.02 * card_h) & (ys > ys[i] - 0.6 * card_h))
    ]
    slopes = [
        (ys[j] - ys[i]) / (xs[j] - xs[i]) for i in heads for j in heads if xs[j] - xs[i] > card_w
    ]
    a = float(np.clip(np.median(slopes), -0.3, 0.3)) if slopes else 0.0
    return a, float(np.min(ys - a * xs))


def _cascade_heads(
    xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], rows: list[int], card_h: float, card_w: float
) -> list[int]:
    """For each anchor, the first card of its cascade: follow the nearest anchor just above it."""
    head = list(range(len(xs)))
    for i in sorted(range(len(xs)), key=lambda k: ys[k]):
        if rows[i] != 1:
            continue
        dy = ys[i] - ys
        dx = np.abs(xs - xs[i])
        ok = [
            k for k in range(len(xs))
            if rows[k] == 1 and 0.02 * card_h < dy[k] < 0.5 * card_h and dx[k] < 0.3 * card_w
        ]
        if ok:
            head[i] = head[min(ok, key=lambda k: dy[k])]
    return head


def _fit_grid(
    xs: npt.NDArray[np.float64], rows: list[int], layout: dict[str, tuple[int, float, float]], card_w: float,
    backs: tuple[npt.NDArray[np.float64], list[int]] = (np.zeros(0), []),
) -> tuple[float, dict[int, tuple[float, float]]]:
    """Fit score and origin and pitch (px) of each row's column grid, fitted together: the top row lies above the
    tableau with the same columns, a little smaller in perspective (farther from the camera); an empty
    first column is told apart from a missing one by the row above. ``backs`` (anchors, rows) are face-down
    strips: they score only on slots of piles that hold face-down cards (a back in the top row is the stock,
    never the waste)."""
    r, rb = np.array(rows, dtype=np.int64), np.array(backs[1], dtype=np.int64)
    row_x = {row: xs[r == row] for row in (0, 1)}
    row_b = {row: backs[0][rb == row] for row in (0, 1)}
    slots = {row: [(s, e) for rr, s, e in layout.values() if rr == row] for row in (0, 1)}
    back_slots = {
        row: [(s, e) for p, (rr, s, e) in layout.items() if rr == row and p.rstrip("0123456789") in _HOLDS_BACKS]
        for row in (0, 1)
    }

    anchor_row = 1 if len(row_x[1]) or len(row_b[1]) else 0
    # cards of one cascade share their column's x: one trial origin per distinct x is enough
    anchors = np.unique(np.round(np.concatenate([row_x[anchor_row], row_b[anchor_row]]), 1))
    # the top row's candidate grids relative to the tableau's, in the order the search prefers them (ties:
    # the first wins, as the scalar search did)
    shrink, shift = (a.ravel() for a in np.meshgrid(
        np.array([0.86, 0.92, 0.98]), np.array([-0.6, -0.45, -0.3, -0.15, 0.0, 0.15, 0.3, 0.45, 0.6]), indexing="ij"
    ))
    best = (-1.0, 0.0, 1.0, 0.0, 1.0)
    starts = np.array([start for start, _ in slots[anchor_row]])
    for pitch in card_w * np.linspace(1.05, 1.45, 17):
        # every trial origin of this pitch at once: an anchor on each slot of its row (anchor-major order)
        origins = (anchors[:, None] - starts[None, :] * pitch).ravel()
        pitches = np.full(len(origins), pitch)
        if anchor_row == 0:
            totals = _row_scores(row_x[0], origins, pitches, slots[0]) + _row_scores(
                row_b[0], origins, pitches, back_slots[0])
            tops = np.stack([origins, pitches], 1)
        else:
            base = _row_scores(row_x[1], origins, pitches, slots[1]) + _row_scores(
                row_b[1], origins, pitches, back_slots[1])
            o2 = (origins[:, None] + shift[None, :] * pitch).ravel()
            p2 = np.tile(pitch * shrink, len(origins))
            top = (_row_scores(row_x[0], o2, p2, slots[0]) + _row_scores(row_b[0], o2, p2, back_slots[0])).reshape(
                len(origins), -1) - 0.05 * np.abs(shift)[None, :]
            k = np.argmax(top, 1)  # the first best: the order the grids are listed in breaks ties
            top_score = top[np.arange(len(origins)), k]
            found = top_score > 1e-6
            totals = base + np.where(found, top_score, 0.0)
            tops = np.stack([np.where(found, o2.reshape(len(origins), -1)[np.arange(len(origins)), k], origins),
                             np.where(found, pitch * shrink[k], pitch)], 1)
        m = int(np.argmax(totals))
        if totals[m] > best[0] + 1e-6:
            best = (float(totals[m]), float(tops[m, 0]), float(tops[m, 1]), float(origins[m]), float(pitch))
    return best[0], {0: (best[1], best[2]), 1: (best[3], best[4])}


def _row_scores(
    xs: npt.NDArray[np.float64], origins: npt.NDArray[np.float64], pitches: npt.NDArray[np.float64],
    slots: list[tuple[float, float]],
) -> npt.NDArray[np.float64]:
    """How well anchors ``xs`` (px) sit on the slots (in column units) of many grids at once, one score per
    origin and pitch: 1 an anchor when on a slot, 0 from 0.35 pitch off."""
    if len(xs) == 0 or not slots:
        return np.zeros(len(origins))
    cols = (xs[None, :] - origins[:, None]) / pitches[:, None]
    d = np.min([np.maximum(np.maximum(s - cols, cols - (s + e)), 0.0) for s, e in slots], axis=0)
    out: npt.NDArray[np.float64] = np.sum(np.maximum(0.0, 1.0 - d / 0.35), axis=1)
    return out


def to_table(obs: Observation, *, face_down: bool = False) -> tuple[Table, tuple[Problem, ...]]:
    """The observation as an engine table. Klondike foundations are filled from their top card (A up to
    it); cards not read are left out. With ``face_down``, each cascade gets its observed face-down cards as
    unknown cards (``??``) under its face-up ones (a squared packet's count is not observable: left out)."""
    game = find_game(obs.game)
    ids = Table.dealt(game, 0).pile_ids
    piles: dict[str, list[str]] = {p: [] for p in ids}
    for pile, seen in obs.piles.items():
        names = [c.name for c in seen]
        if layout_name(obs.game) == "klondike" and pile.startswith("f") and names and names[-1] != UNKNOWN:
            top = names[-1]
            names = [r + top[-1] for r in RANKS[: RANKS.index(top[:-1]) + 1]]
        if face_down and pile.rstrip("0123456789") in _FANNED_DOWN:
            names = [UNKNOWN] * obs.face_down.get(pile, 0) + names
        if pile in piles:
            piles[pile] = names
    return read_table({"game": game.name, "piles": piles})
