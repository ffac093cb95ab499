"""Rasterise deck artwork once into a user cache and load it as BGRA bitmaps with their corner-index boxes.

Each card is stored at ``PX_PER_MM`` on the 63 x 88 mm card: art drawn at another aspect is stretched onto the
physical card, as a printer would. The corner index box is found from the ink in the top-left corner.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError
from vision.synth.decks import APT_HINT, Deck, DeckSource, deck_seed
from vision.synth.procedural import procedural_deck

CARD_W_MM = 63.0
CARD_H_MM = 88.0
PX_PER_MM = 4
CARD_W_PX = int(CARD_W_MM * PX_PER_MM)
CARD_H_PX = int(CARD_H_MM * PX_PER_MM)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
BACK = "back"
_CACHE_VERSION = 2

_GNOME_SUIT = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_GNOME_ROW = {"C": 0, "D": 1, "H": 2, "S": 3}  # aisleriot's fixed 13 x 5 grid; row 4 holds jokers and back
_KDE_RANK = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}

Image = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype


@dataclass(frozen=True, slots=True)
class CardArt:
    """One card face or back: BGRA bitmap (CARD_H_PX x CARD_W_PX) and its index box in mm (x0, y0, x1, y1)."""

    image: Image
    index_box_mm: tuple[float, float, float, float]


def all_cards() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def cache_root() -> Path:
    base = os.environ.get("CADOGAN_CACHE") or os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    sub = "cards" if os.environ.get("CADOGAN_CACHE") else "cadogan/cards"
    return Path(base) / sub


def _check_installed(deck: Deck) -> None:
    if not Path(deck.path).is_file():
        raise CadoganError(f"card artwork for deck {deck.name!r} is missing ({deck.path}); install it: {APT_HINT}")


def _trim_to_alpha(cell: Image) -> Image | None:
    ys, xs = np.nonzero(cell[:, :, 3] > 128)
    if len(xs) < 100:
        return None
    return cell[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _to_card_size(img: Image) -> Image:
    out = cv2.resize(img, (CARD_W_PX, CARD_H_PX), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(out, dtype=np.uint8)


def _raster_gnome(deck: Deck) -> dict[str, Image]:
    import cairosvg  # slow to import; only needed when filling the cache

    with gzip.open(deck.path) as f:
        data = f.read()
    cell_w = CARD_W_PX * 1.2
    png = cairosvg.svg2png(bytestring=data, output_width=int(13 * cell_w))
    sheet = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if sheet is None or sheet.ndim != 3 or sheet.shape[2] != 4:
        raise CadoganError(f"deck {deck.name!r}: could not rasterise {deck.path}")
    h, w = sheet.shape[:2]
    cw, ch = w / 13.0, h / 5.0
    out: dict[str, Image] = {}
    for name in [*all_cards(), BACK]:
        row, col = (4, 2) if name == BACK else (_GNOME_ROW[name[-1]], RANKS.index(name[:-1]))
        cell = sheet[int(row * ch) : int((row + 1) * ch), int(col * cw) : int((col + 1) * cw)]
        card = _trim_to_alpha(cell)
        if card is None:
            raise CadoganError(f"deck {deck.name!r}: card {name} is empty in {deck.path}")
        out[name] = _to_card_size(card)
    return out


def _kde_id(name: str) -> str:
    if name == BACK:
        return "back"
    rank = _KDE_RANK.get(name[:-1], name[:-1])
    return f"{rank}_{_GNOME_SUIT[name[-1]]}"


def _raster_kde(deck: Deck) -> dict[str, Image]:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise CadoganError(f"rsvg-convert is needed to cut KDE decks into cards; install it: {APT_HINT}")
    out: dict[str, Image] = {}
    for name in [*all_cards(), BACK]:
        proc = subprocess.run(
            [exe, f"--export-id={_kde_id(name)}", "-h", str(int(CARD_H_PX * 1.2)), deck.path],
            capture_output=True,
            check=False,
        )
        img = cv2.imdecode(np.frombuffer(proc.stdout, np.uint8), cv2.IMREAD_UNCHANGED) if proc.stdout else None
        card = _trim_to_alpha(img) if img is not None and img.ndim == 3 and img.shape[2] == 4 else None
        if card is None:
            raise CadoganError(f"deck {deck.name!r}: cannot export {name} from {deck.path}")
        out[name] = _to_card_size(card)
    return out


def index_box_px(card: Image) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1) of the rank + suit ink in the top-left corner of a card bitmap; None if not found."""
    h, w = card.shape[:2]
    rgb = card[:, :, :3].astype(np.int16)
    opaque = card[:, :, 3] > 128
    band = np.zeros_like(opaque)
    band[int(0.3 * h) : int(0.7 * h), int(0.05 * w) : int(0.09 * w)] = True
    paper = np.median(rgb[band & opaque], axis=0) if np.any(band & opaque) else np.array([255, 255, 255])
    ink = ((np.abs(rgb - paper).sum(axis=2) > 80) & opaque).astype(np.uint8)
    # The card's printed outline: ink within 1 mm of the card's edge is cut away first, so that an index
    # drawn close to a thick outline (kde_penguins) is not one blob with it; what still reaches that band
    # is a frame or a picture, not the index.
    edge = cv2.dilate((~opaque).astype(np.uint8), np.ones((2 * PX_PER_MM + 1, 2 * PX_PER_MM + 1), np.uint8))
    edge[:PX_PER_MM, :] = edge[-PX_PER_MM:, :] = 1
    edge[:, :PX_PER_MM] = edge[:, -PX_PER_MM:] = 1
    ink[edge > 0] = 0
    rim = cv2.dilate(edge, np.ones((3, 3), np.uint8)) > 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    touching = set(np.unique(labels[rim & (ink > 0)]).tolist())
    boxes, below = [], []
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if area < 6 or x > 0.16 * w or (i in touching and (bw > 0.2 * w or bh > 0.2 * h)):  # a frame line
            continue
        if x + bw > 0.32 * w or y + bh > 0.5 * h:  # runs out of the corner: a picture frame or a face pip
            continue
        if y <= 0.22 * h and y + bh <= 0.4 * h:
            boxes.append((x, y, x + bw, y + bh))
        else:
            below.append((x, y, x + bw, y + bh))
    if not boxes:
        return None
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    # a large suit sign printed under a large rank (kde_nicu_white) starts lower: take it when it sits right
    # under the rank, overlapping it sideways
    for x0, y0, x1, y1 in sorted(below, key=lambda b: b[1]):
        height = box[3] - box[1]
        if y0 - box[3] <= 0.4 * height and min(x1, box[2]) - max(x0, box[0]) > 0.5 * (x1 - x0):
            box = (min(box[0], x0), box[1], max(box[2], x1), max(box[3], y1))
    return box


def deck_index_boxes(images: dict[str, Image]) -> dict[str, tuple[int, int, int, int]]:
    """Index boxes for all faces; a card whose box disagrees with the deck's typical box gets the typical box.

    All faces of a deck print the index in the same place, so the median over 52 cards is robust where one
    card's corner is busy (court pictures, a thick border).
    """
    found = {name: index_box_px(img) for name, img in images.items() if name != BACK}
    good = np.array([b for b in found.values() if b is not None], np.float64)
    if len(good) == 0:
        typical = (int(0.04 * CARD_W_PX), int(0.03 * CARD_H_PX), int(0.18 * CARD_W_PX), int(0.24 * CARD_H_PX))
    else:
        med = np.median(good, axis=0)
        typical = (int(med[0]), int(med[1]), int(med[2]), int(med[3]))
    th = typical[3] - typical[1]
    tol = 4 * PX_PER_MM
    out: dict[str, tuple[int, int, int, int]] = {}
    for name, box in found.items():
        ok = box is not None and (box[3] - box[1]) > 0.7 * th and abs(box[0] - typical[0]) < tol
        ok = (
            ok
            and box is not None
            and abs(box[1] - typical[1]) < tol
            and (box[2] - box[0]) < 2.2 * (typical[2] - typical[0])
        )
        out[name] = box if ok and box is not None else typical
    return out


def _fill_cache(deck: Deck, folder: Path) -> None:
    _check_installed(deck)
    images = _raster_gnome(deck) if deck.source is DeckSource.GNOME else _raster_kde(deck)
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    tmp.mkdir(parents=True, exist_ok=True)
    for name, img in images.items():
        cv2.imwrite(str(tmp / f"{name}.png"), img)
    (tmp / "index.json").write_text(json.dumps({"version": _CACHE_VERSION, "deck": deck.name}))
    # Rename last so that a half-written cache is never read.
    if folder.exists():
        shutil.rmtree(folder)
    tmp.rename(folder)


@functools.lru_cache(maxsize=8)
def load_deck(deck: Deck) -> dict[str, CardArt]:
    """All 52 faces and the back of ``deck``, rasterising into the cache on first use (procedural decks are
    drawn in memory: a second or so)."""
    seed = deck_seed(deck.name)
    if deck.source is DeckSource.PROCEDURAL and seed is not None:
        drawn = procedural_deck(seed, CARD_W_PX, CARD_H_PX)
        return {
            name: CardArt(img, (box[0] / PX_PER_MM, box[1] / PX_PER_MM, box[2] / PX_PER_MM, box[3] / PX_PER_MM))
            for name, (img, box) in drawn.items()
        }
    folder = cache_root() / deck.name
    meta = folder / "index.json"
    if not meta.is_file() or json.loads(meta.read_text()).get("version") != _CACHE_VERSION:
        _fill_cache(deck, folder)
    images: dict[str, Image] = {}
    for name in [*all_cards(), BACK]:
        img = cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        if img is None or img.shape != (CARD_H_PX, CARD_W_PX, 4):
            _fill_cache(deck, folder)
            load_deck.cache_clear()
            return load_deck(deck)
        images[name] = img
    # Index boxes are found on load (a few ms a deck) so that improving the finder needs no re-rasterising.
    boxes = deck_index_boxes(images)
    out: dict[str, CardArt] = {}
    for name, img in images.items():
        x0, y0, x1, y1 = (v / PX_PER_MM for v in boxes.get(name, (0, 0, 0, 0)))
        out[name] = CardArt(img, (x0, y0, x1, y1))
    return out
