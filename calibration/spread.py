"""Where each card lies in an enrolment photo: corner indices -> grid cells -> card names, by the layout alone.

The user lays the deck out face up, cards upright and apart, in rows, in a fixed order: spades, hearts,
diamonds, clubs, each ace to king, read like text (left to right, then the next row down; 13 to a row gives
one suit a row, but any number per row works). A card the user does not have leaves its place empty.

Why the layout and not the classifier: enrolment is for a deck the classifier reads badly (on the worst
unseen deck it names 5-30 % of the index crops of such a photo), so any label it proposes is mostly wrong, and
a prototype learnt from a wrong label makes recognition worse, not better. The positions of the indices,
on the other hand, are found well enough even by a weak detector, and a grid is redundant: a row or column
is located from all the cards in it, so a card whose indices were missed is still an empty cell of a known
place, never a shift of every later card.

Geometry: the printed corner indices of upright cards in a grid lie on two lines per row (top indices,
bottom indices) and two per column (left, right); a card turned 180 degrees puts its indices in the same
places. The turn that lines the candidates up best is found for rows and for columns separately (a tilted
camera shears the grid), peaks of the score-weighted projections give the bands, each band is refined to a
straight line with its own slope (perspective makes rows converge), bands too close to be two are merged,
and consecutive lines pair into rows and columns (dynamic programming skips a stray line). A candidate on a
row's top line and a column's left line is that card's top-left index, bottom x right its bottom-right one;
anything else (pips, artwork) is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from calibration.errors import CalibrationError

F64 = npt.NDArray[np.float64]

DECK_CARDS = 52  # an enrolment photo lays out the whole deck


class SpreadError(CalibrationError):
    """The enrolment photo does not show cards in upright rows (or shows no cards at all)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One card place of the grid, in reading order, with the candidate indices found there."""

    row: int
    col: int
    order: int  # place in reading order: row * columns + col
    members: tuple[int, ...]  # indices into the candidate list: top-left place first, then bottom-right


@dataclass(frozen=True, slots=True)
class Grid:
    rows: int
    cols: int
    angle_deg: float  # the photo's rotation that was removed
    cells: tuple[Cell, ...]  # only the places where an index was found


def _density(values: F64, weights: F64, lo: float, step: float, n: int, sigma: float) -> F64:
    grid = lo + step * np.arange(n)
    d = (grid[:, None] - values[None, :]) / sigma
    out: F64 = (np.exp(-0.5 * d * d) * weights[None, :]).sum(1)
    return out


def _peaks(values: F64, weights: F64, sigma: float) -> F64:
    """Positions of the density peaks of ``values`` carrying a fair share of the weight (the bands)."""
    step = sigma / 3
    lo, hi = float(values.min()) - 3 * sigma, float(values.max()) + 3 * sigma
    n = int((hi - lo) / step) + 1
    dens = _density(values, weights, lo, step, n, sigma)
    inner = dens[1:-1]
    is_peak = (inner >= dens[:-2]) & (inner > dens[2:])
    pos = np.nonzero(is_peak)[0] + 1
    if len(pos) == 0:
        return np.zeros(0)
    heights = dens[pos]
    strong = heights >= 0.12 * float(np.median(np.sort(heights)[-max(2, len(heights) // 2) :]))
    peaks = lo + step * pos[strong].astype(np.float64)
    # one band split in two by a sloppy card (or a second look at the same index): merge what is too close
    # to be two bands (a card's two index bands are several index heights apart)
    merged: list[list[float]] = []
    for v, h in zip(peaks, heights[strong], strict=True):
        if merged and v - merged[-1][0] / merged[-1][1] < 4 * sigma:
            merged[-1][0] += float(v * h)
            merged[-1][1] += float(h)
        else:
            merged.append([float(v * h), float(h)])
    out: F64 = np.array([a / b for a, b in merged], np.float64)
    return out


def _peakiness(values: F64, weights: F64, sigma: float) -> float:
    lo = float(values.min()) - 3 * sigma
    n = int((float(values.max()) + 3 * sigma - lo) / (sigma / 2)) + 1
    dens = _density(values, weights, lo, sigma / 2, n, sigma)
    return float((dens * dens).sum())


def _pairs(bands: F64, what: str) -> list[tuple[float, float]]:
    """Consecutive bands as (first, second) pairs: a card's two index bands, a gap, the next card's two...

    A stray band (a line of pips, a card askew) is skipped where that keeps every pair's spacing closest to
    one common value (the distance between a card's two indices), chosen by dynamic programming.
    """
    if len(bands) < 2:
        raise SpreadError(f"no {what} of cards found: lay the cards upright in rows, apart, photographed from above")
    gaps = np.diff(bands)
    best: tuple[float, list[tuple[float, float]]] = (np.inf, [])
    for spacing in gaps:
        n = len(bands)
        cost = np.full(n + 1, np.inf)
        cost[0] = 0.0
        back = [0] * (n + 1)
        for k in range(1, n + 1):
            cost[k], back[k] = cost[k - 1] + 1.0, k - 1  # band k-1 skipped
            if k >= 2:
                pair = cost[k - 2] + abs(bands[k - 1] - bands[k - 2] - spacing) / spacing * 4
                if pair < cost[k]:
                    cost[k], back[k] = pair, k - 2
        pairs: list[tuple[float, float]] = []
        k = n
        while k > 0:
            if back[k] == k - 2:
                pairs.append((float(bands[k - 2]), float(bands[k - 1])))
            k = back[k]
        if cost[n] < best[0]:
            best = (float(cost[n]), pairs[::-1])
    return best[1]


Line = tuple[float, float]  # across = b + slope * (along - centre of the points)


def _lines(along: F64, across: F64, w: F64, bands: F64, tol: float, m: float) -> list[Line]:
    """Bands refined to straight lines, each with its own slope: perspective makes rows converge a little."""
    lines: list[Line] = [(float(b), 0.0) for b in bands]
    for _ in range(3):
        if not lines:
            break
        pred = np.array([b + k * (along - m) for b, k in lines])
        dist = np.abs(across[None, :] - pred)
        nearest, ok = dist.argmin(0), dist.min(0) <= tol
        refined: list[Line] = []
        for j, (b, k) in enumerate(lines):
            sel = ok & (nearest == j)
            if sel.sum() >= 3 and np.ptp(along[sel]) > 4 * tol:
                a = np.stack([along[sel] - m, np.ones(int(sel.sum()))], 1) * np.sqrt(w[sel])[:, None]
                slope, b0 = np.linalg.lstsq(a, across[sel] * np.sqrt(w[sel]), rcond=None)[0]
                if abs(slope) <= 0.2:
                    b, k = float(b0), float(slope)
            refined.append((b, k))
        lines = sorted(refined)
    return lines


def _place(
    along: F64, across: F64, lines: list[Line], pairs: list[tuple[float, float]], tol: float, m: float
) -> list[tuple[int, int] | None]:
    """For each point: (which pair of lines, 0 first / 1 second line of the pair), or None if on none."""
    m_lines = dict(lines)
    out: list[tuple[int, int] | None] = []
    for a, v in zip(along, across, strict=True):
        best: tuple[float, tuple[int, int]] | None = None
        for p, pair in enumerate(pairs):
            for side, b in enumerate(pair):
                d = abs(v - (b + m_lines[b] * (a - m)))
                if d <= tol and (best is None or d < best[0]):
                    best = (d, (p, side))
        out.append(None if best is None else best[1])
    return out


def _best_angle(c: F64, w: F64, sigma: float, max_angle: float, *, rows: bool) -> float:
    """The turn (degrees) that lines the points up best in rows (or in columns)."""
    best_angle, best = 0.0, -1.0
    for deg in np.arange(-max_angle, max_angle + 0.01, 0.5):
        t = np.radians(deg)
        v = -np.sin(t) * c[:, 0] + np.cos(t) * c[:, 1] if rows else np.cos(t) * c[:, 0] - np.sin(t) * c[:, 1]
        score = _peakiness(v, w, sigma) - 1e-9 * abs(deg)  # ties: the smaller turn
        if score > best:
            best_angle, best = float(deg), score
    return best_angle


def _rows_to(
    rows: list[tuple[float, float]], lines: list[Line], need: int
) -> tuple[list[tuple[float, float]], list[Line]]:
    """``rows`` continued downwards at their own pitch until there are ``need``, with ``lines`` and the new rows'
    lines (each with the slope of the line above it): a last row of a few cards (52 cards in rows of 10 leave 2)
    carries too little weight to show as a band of its own, but the layout says where it lies."""
    if len(rows) < 2 or len(rows) >= need:
        return rows, lines
    slope = dict(lines)
    pitch = float(np.median(np.diff([first for first, _ in rows])))
    out, more = list(rows), list(lines)
    while len(out) < need:
        first, second = out[-1]
        row = (first + pitch, second + pitch)
        slope[row[0]], slope[row[1]] = slope[first], slope[second]
        more += [(row[0], slope[first]), (row[1], slope[second])]
        out.append(row)
    return out, more


def find_grid(
    centres: F64, scores: F64, size: float, *, max_angle: float = 16.0, cards: int | None = DECK_CARDS
) -> Grid:
    """Grid cells from candidate index centres (n, 2) px, their scores (n,), and the typical index size px.
    ``cards``: how many cards the layout holds (None: as many as the bands show); rows the photo's bands do not
    show are added below the last one while the grid has too few places for them (a short last row)."""
    if len(centres) < 2:
        raise SpreadError("no cards found in the photo")
    c = np.asarray(centres, np.float64)
    w = np.asarray(scores, np.float64)
    sigma = max(size * 0.3, 1.0)
    # rows and columns are straightened separately: a tilted camera shears the grid (seen: rows turned 10
    # degrees, columns -12)
    row_angle = _best_angle(c, w, sigma, max_angle, rows=True)
    col_angle = _best_angle(c, w, sigma, max_angle, rows=False)
    t, f = np.radians(row_angle), np.radians(col_angle)
    y = -np.sin(t) * c[:, 0] + np.cos(t) * c[:, 1]
    x = np.cos(f) * c[:, 0] - np.sin(f) * c[:, 1]
    best_angle = row_angle
    tol = max(size * 0.8, 2.0)
    mx, my = float(np.average(x, weights=w)), float(np.average(y, weights=w))
    row_lines = _lines(x, y, w, _peaks(y, w, sigma), tol, mx)
    col_lines = _lines(y, x, w, _peaks(x, w, sigma), tol, my)
    rows = _pairs(np.array([b for b, _ in row_lines]), "rows")
    cols = _pairs(np.array([b for b, _ in col_lines]), "columns")
    if cards is not None:
        rows, row_lines = _rows_to(rows, row_lines, -(-cards // len(cols)))
    row_of = _place(x, y, row_lines, rows, tol, mx)  # (pair, 0 top / 1 bottom) or None, per candidate
    col_of = _place(y, x, col_lines, cols, tol, my)
    found: dict[tuple[int, int], list[tuple[int, float, int]]] = {}
    for i in range(len(c)):
        rp, cp = row_of[i], col_of[i]
        if rp is not None and cp is not None and rp[1] == cp[1]:  # top-left or bottom-right place of a card
            found.setdefault((rp[0], cp[0]), []).append((rp[1], -float(w[i]), i))
    cells = []
    for (r, q), items in sorted(found.items()):
        members = []
        for place in (0, 1):  # the best-scored candidate at each of the card's two index places
            at = sorted(item for item in items if item[0] == place)
            if at:
                members.append(at[0][2])
        cells.append(Cell(r, q, r * len(cols) + q, tuple(members)))
    return Grid(len(rows), len(cols), best_angle, tuple(cells))
