"""Procedural corner indices: many more "decks" than the 30 rendered ones, for the classifier.

The classifier learnt the 30 training decks' index artwork (clean crops of them: ~85 %) and stayed at ~59 %
on decks it never saw: it had too few fonts and pip shapes to learn what every deck's indices share. Here each
crop gets its own "deck": the rank in one of the system's fonts (DejaVu, Liberation, FreeFont, URW base 35:
the `run` script installs them), a suit pip either from a font or drawn from a parametric shape (heart, diamond,
spade, club, each with its own proportions), red or black ink, a card corner around it (rounded or square,
sometimes a printed frame line), a table, a neighbouring pip or court frame, and sometimes the next card of a
cascade just below the index. Output matches ``models.data``'s classifier crops: 64 x 64 BGR with the index's
longer side 32 px, centred; labels in ``vision.cards.NAMES`` order.

    python -m models.glyphs --sheet docs/images/procedural_indices.png    # look at a sample

The glyph and pip primitives are shared with the procedural decks of ``vision.synth.procedural`` (whole
cards for the renderer); this module makes single index crops, which are about 50x cheaper than scenes.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from models.data import CROP, CROP_INDEX
from vision.cards import NAMES
from vision.synth.procedural import (  # NAMES order is suit-major: RANKS within SUITS
    FONT_DIRS,
    RANKS,
    SUITS,
    fonts,
    ink,
    paste,
    suit_fonts,
    suit_glyph,
    suit_shape,
    text_mask,
)

# fonts, suit_fonts, suit_shape: re-exported for the tests and for looking at samples
__all__ = [
    "Style",
    "cached_batch",
    "contact_sheet",
    "fonts",
    "make_batch",
    "make_index",
    "restyle",
    "suit_fonts",
    "suit_shape",
]

U8 = npt.NDArray[np.uint8]
SCALE = 4  # drawn at 4x, then shrunk: anti-aliased edges like a camera's
SIDE = CROP * SCALE
INDEX = CROP_INDEX * SCALE


def _card(
    canvas: npt.NDArray[np.float64],
    x: float,
    y: float,
    rng: np.random.Generator,
    stock: npt.NDArray[np.float64],
    radius: float,
) -> None:
    """A card whose top-left corner is at (x, y), running past the canvas' right and bottom edges."""
    m = np.zeros(canvas.shape[:2], np.uint8)
    big = SIDE * 4
    cv2.rectangle(m, (round(x + radius), round(y)), (big, big), 255, -1)
    cv2.rectangle(m, (round(x), round(y + radius)), (big, big), 255, -1)
    if radius > 0:
        cv2.circle(m, (round(x + radius), round(y + radius)), round(radius), 255, -1, cv2.LINE_AA)
    edge = cv2.GaussianBlur(m, (0, 0), 1.5)
    shade = stock * rng.uniform(0.55, 0.8)  # the card's edge and its shadow on what is below
    shadow = cv2.GaussianBlur(m, (0, 0), SCALE * 2.0).astype(np.float64)[..., None] / 255.0
    canvas *= 1 - 0.35 * shadow * rng.uniform(0.3, 1.0)
    a = edge.astype(np.float64)[..., None] / 255.0
    canvas[:] = canvas * (1 - a) + stock * a
    outline = cv2.Canny(m, 50, 150)
    outline = cv2.dilate(outline, np.ones((2, 2), np.uint8))
    canvas[outline > 0] = canvas[outline > 0] * 0.5 + shade * 0.5


def _table(rng: np.random.Generator) -> npt.NDArray[np.float64]:
    grey = rng.uniform(30, 180)
    base = grey + rng.normal(0, 35, 3)  # a table's colour: mostly muted
    canvas = np.empty((SIDE, SIDE, 3), np.float64)
    canvas[:] = base
    light = cv2.resize(rng.normal(0, rng.uniform(3, 20), (6, 6)), (SIDE, SIDE), interpolation=cv2.INTER_CUBIC)
    canvas += light[..., None] + cv2.resize(rng.normal(0, 4, (6, 6, 3)), (SIDE, SIDE), interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.3:  # wood grain / cloth stripes
        period = rng.uniform(6, 40)
        angle = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[:SIDE, :SIDE]
        canvas += (np.sin((xx * np.cos(angle) + yy * np.sin(angle)) / period) * rng.uniform(5, 25))[..., None]
    return canvas


@dataclass(frozen=True, slots=True)
class Style:
    """How often a procedural index takes one of the odd looks no training deck has (both 0: the original
    recipe, random stream unchanged, so old cached chunks stay valid).

    - ``flip``: rank and pip each turned 180 degrees in place: seen the other way up, the pip sits ABOVE an
      upright rank, as on decks whose bottom-right index is printed upright (kde_ancient_egyptians; never
      6D / 9D, which would then look alike; with ``spare_69`` no 6 or 9 of any suit: a turned 6 with its pip
      turned too differs from a 9 seen the other way up only by the pip's way up, a few pixels at 20 px);
    - ``pixel``: rank and pip snapped to a coarse grid of 5-10 cells per rank height, no anti-aliasing, as in
      pixel-art decks (kde_penguins)."""

    flip: float = 0.0
    pixel: float = 0.0
    cells: tuple[float, float] = (6.0, 11.0)  # pixel-art: cells per rank height, drawn uniformly in this range
    spare_69: bool = False  # flip: leave every 6 and 9 as it is (not only 6D / 9D)

    @property
    def tag(self) -> str:
        """Part of a cached chunk's file name: chunks of other styles are other files."""
        if self == Style():
            return ""
        cells = "" if self.cells == Style().cells else f"c{self.cells[0]:g}-{self.cells[1]:g}"
        spare = "s69" if self.spare_69 else ""
        return f"f{round(self.flip * 100)}p{round(self.pixel * 100)}{cells}{spare}-"


def _pixelate(mask: U8, cell: float) -> U8:
    """``mask`` drawn on a grid of ``cell``-px squares, each fully inked or blank (a pixel-art glyph)."""
    h, w = mask.shape
    small = cv2.resize(mask, (max(1, round(w / cell)), max(1, round(h / cell))), interpolation=cv2.INTER_AREA)
    return np.asarray(
        cv2.resize(np.where(small >= 80, 255, 0).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST), np.uint8
    )


def restyle(rank_mask: U8, pip: U8, card: int, style: Style, rng: np.random.Generator) -> tuple[U8, U8]:
    """The rank and pip masks (index size) in one of ``style``'s odd looks, or as they are."""
    # (each draw only when its style is on: the original recipe's random stream stays the same)
    if style.pixel and rng.random() < style.pixel:
        cell = rank_mask.shape[0] / rng.uniform(*style.cells)
        rank_mask, pip = _pixelate(rank_mask, cell), _pixelate(pip, cell)
    # (not 6D / 9D: a diamond looks the same both ways up, so a turned 6D is a 9D seen the other way up)
    spared = NAMES[card][0] in "69" if style.spare_69 else NAMES[card] in ("6D", "9D")
    if style.flip and rng.random() < style.flip and not spared:
        rank_mask, pip = np.ascontiguousarray(rank_mask[::-1, ::-1]), np.ascontiguousarray(pip[::-1, ::-1])
    return rank_mask, pip


def make_index(card: int, rng: np.random.Generator, style: Style = Style()) -> U8:
    """One 64 x 64 crop of a procedural corner index of class ``card`` (``vision.cards.NAMES`` order)."""
    rank, suit = RANKS[card % 13], SUITS[card // 13]
    red = suit in "HD"
    canvas = _table(rng)
    stock = np.array([rng.uniform(200, 255)] * 3) - np.array([rng.uniform(0, 25), rng.uniform(0, 12), 0.0])
    if rng.random() < 0.1:  # tinted card stock
        stock = stock * rng.uniform(0.8, 1.0, 3)
    font = fonts()[int(rng.integers(len(fonts())))]
    condense = rng.uniform(0.65, 1.0) if rank == "10" else rng.uniform(0.8, 1.15)
    rank_mask = text_mask(rank, font, 100, condense)
    if rank == "10" and rng.random() < 0.3:  # some decks squeeze "10" to the width of one digit
        rank_mask = np.asarray(
            cv2.resize(rank_mask, (max(1, round(rank_mask.shape[1] * 0.6)), rank_mask.shape[0])), np.uint8
        )
    if rng.random() < 0.6 and suit_fonts():
        pip = suit_glyph(suit, suit_fonts()[int(rng.integers(len(suit_fonts())))])
    else:
        pip = suit_shape(suit, rng)
    # proportions: the pip's width against the rank's height, the gap between them
    pip_w = rank_mask.shape[0] * rng.uniform(0.55, 0.95)
    pip = np.asarray(
        cv2.resize(
            pip,
            (max(1, round(pip_w)), max(1, round(pip_w * pip.shape[0] / pip.shape[1]))),
            interpolation=cv2.INTER_AREA,
        ),
        np.uint8,
    )
    gap = round(rank_mask.shape[0] * rng.uniform(0.05, 0.3))
    w = max(rank_mask.shape[1], pip.shape[1])
    h = rank_mask.shape[0] + gap + pip.shape[0]
    # scale the whole index so its longer side is INDEX px, then place it centred
    s = INDEX / max(h, w)
    rank_mask = np.asarray(
        cv2.resize(
            rank_mask,
            (max(1, round(rank_mask.shape[1] * s)), max(1, round(rank_mask.shape[0] * s))),
            interpolation=cv2.INTER_AREA,
        ),
        np.uint8,
    )
    pip = np.asarray(
        cv2.resize(
            pip, (max(1, round(pip.shape[1] * s)), max(1, round(pip.shape[0] * s))), interpolation=cv2.INTER_AREA
        ),
        np.uint8,
    )
    gap, w, h = round(gap * s), round(w * s), round(h * s)
    rank_mask, pip = restyle(rank_mask, pip, card, style, rng)
    x0, y0 = (SIDE - w) // 2, (SIDE - h) // 2
    # the card's corner: up and left of the index, as printed
    radius = rng.uniform(0, 0.4) * INDEX
    left = x0 - rng.uniform(0.08, 0.45) * INDEX
    top = y0 - rng.uniform(0.06, 0.35) * INDEX
    _card(canvas, left, top, rng, stock, radius)
    if rng.random() < 0.2:  # a printed frame line inside the card's edge
        inset = rng.uniform(0.05, 0.25) * INDEX
        colour = ink(rng.random() < 0.5, rng) if rng.random() < 0.5 else np.array([120.0, 80.0, 40.0])
        t = max(1, round(rng.uniform(0.01, 0.04) * INDEX))
        cv2.rectangle(
            canvas,
            (round(left + inset), round(top + inset)),
            (SIDE * 2, SIDE * 2),
            tuple(float(c) for c in colour),
            t,
            cv2.LINE_AA,
        )
    colour_ink = ink(red, rng)
    align = rng.random()
    rx = x0 + (w - rank_mask.shape[1]) // 2 if align < 0.8 else x0
    px = x0 + (w - pip.shape[1]) // 2 if align < 0.8 else x0
    paste(canvas, rank_mask, rx, y0, colour_ink)
    paste(canvas, pip, px, y0 + rank_mask.shape[0] + gap, colour_ink)
    _context(canvas, x0, y0, w, h, suit, rank in "JQK", red, rng, stock)
    out = cv2.resize(np.clip(canvas, 0, 255).astype(np.uint8), (CROP, CROP), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.6:  # most indices reach the camera at 12-30 px: seen through fewer pixels, upsampled
        low = int(rng.integers(22, 48))
        out = cv2.resize(
            cv2.resize(out, (low, low), interpolation=cv2.INTER_AREA), (CROP, CROP), interpolation=cv2.INTER_LINEAR
        )
    return np.asarray(out, np.uint8)


def _context(
    canvas: npt.NDArray[np.float64],
    x0: int,
    y0: int,
    w: int,
    h: int,
    suit: str,
    court: bool,
    red: bool,
    rng: np.random.Generator,
    stock: npt.NDArray[np.float64],
) -> None:
    """What lies near an index: a big pip (number cards) or a court card's picture frame to the right, and
    the next card of a cascade."""
    r = rng.random()
    if r < 0.4 and not court:  # a face pip, down and to the right
        big = suit_shape(suit, rng)
        side = round(h * rng.uniform(0.6, 1.2))
        big = np.asarray(cv2.resize(big, (side, max(1, round(side * big.shape[0] / big.shape[1])))), np.uint8)
        paste(
            canvas, big, x0 + w + round(rng.uniform(0.2, 0.8) * w), y0 + round(rng.uniform(0.2, 1.0) * h), ink(red, rng)
        )
    elif r < 0.6 and court:  # a court card's picture: a frame with colours inside
        fx, fy = x0 + w + round(rng.uniform(0.1, 0.5) * w), y0 + round(rng.uniform(0, 0.5) * h)
        if fx < SIDE and fy < SIDE:
            cells = rng.uniform(0, 255, (int(rng.integers(3, 8)), int(rng.integers(3, 8)), 3))
            picture = cv2.resize(cells, (SIDE - fx, SIDE - fy), interpolation=cv2.INTER_NEAREST)
            canvas[fy:, fx:] = canvas[fy:, fx:] * 0.3 + picture * 0.7
            colour = tuple(float(c) for c in ink(rng.random() < 0.5, rng))
            cv2.rectangle(canvas, (fx, fy), (SIDE * 2, SIDE * 2), colour, max(1, round(0.03 * INDEX)))
    if rng.random() < 0.3:  # the next card of a cascade, its top edge just below this index
        below = y0 + h + rng.uniform(0.02, 0.35) * h
        shift = rng.uniform(-0.3, 0.3) * w
        _card(
            canvas,
            x0 - rng.uniform(0.1, 0.45) * h + shift,
            below,
            rng,
            stock * rng.uniform(0.9, 1.0),
            rng.uniform(0, 0.4) * h,
        )


def make_batch(n: int, seed: int, style: Style = Style()) -> tuple[U8, npt.NDArray[np.int64]]:
    """``n`` procedural index crops with classes spread evenly over the 52 cards (deterministic per seed)."""
    rng = np.random.default_rng(seed)
    labels = np.arange(n, dtype=np.int64) % len(NAMES)
    rng.shuffle(labels)
    crops = np.stack([make_index(int(c), rng, style) for c in labels])
    return crops, labels


def cached_batch(
    cache: Path, n: int, seed: int, *, chunk: int = 2000, workers: int = 2, style: Style = Style()
) -> tuple[U8, npt.NDArray[np.int64]]:
    """``n`` procedural crops made in chunks of ``chunk`` (each seeded by its number, so any ``n`` reuses the
    chunks made before), cached as ``cache/procedural-[STYLE-]SEED-K-CHUNK.npz``."""
    cache.mkdir(parents=True, exist_ok=True)
    chunk = min(chunk, n)
    jobs = [
        (cache / f"procedural-{style.tag}{seed}-{k:03d}-{chunk}.npz", chunk, seed * 1000 + k, style)
        for k in range((n + chunk - 1) // chunk)
    ]
    todo = [j for j in jobs if not j[0].exists()]
    if todo and workers <= 1:
        for job in todo:
            _write_chunk(job)
    elif todo:
        with ProcessPoolExecutor(workers) as pool:
            list(pool.map(_write_chunk, todo))
    parts = [np.load(j[0]) for j in jobs]
    crops = np.concatenate([p["crops"] for p in parts])[:n]
    labels = np.concatenate([p["labels"] for p in parts])[:n]
    return crops, labels.astype(np.int64)


def _write_chunk(job: tuple[Path, int, int, Style]) -> None:
    path, n, seed, style = job
    cv2.setNumThreads(1)
    crops, labels = make_batch(n, seed, style)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, crops=crops, labels=labels.astype(np.int16))
    tmp.rename(path)


def contact_sheet(n: int = 64, seed: int = 0, style: Style = Style()) -> U8:
    crops, labels = make_batch(n, seed, style)
    cols = 8
    big = [cv2.resize(c, (128, 128), interpolation=cv2.INTER_NEAREST) for c in crops]
    for im, lab in zip(big, labels, strict=True):
        cv2.putText(im, NAMES[int(lab)], (2, 124), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 200, 0), 1, cv2.LINE_AA)
    rows = [np.hstack(big[i : i + cols]) for i in range(0, n - n % cols, cols)]
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheet", default="procedural_indices.png", help="where to write a contact sheet")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--flip", type=float, default=0.0, help="share of indices with rank and pip turned in place")
    ap.add_argument("--pixel", type=float, default=0.0, help="share of pixel-art indices")
    a = ap.parse_args(argv)
    if not fonts():
        raise SystemExit(f"models.glyphs: no fonts found under {', '.join(FONT_DIRS)} (bash run setup installs them)")
    cv2.imwrite(a.sheet, contact_sheet(seed=a.seed, style=Style(a.flip, a.pixel)))
    print(f"{len(fonts())} fonts, {len(suit_fonts())} with suit glyphs; sheet -> {a.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
