"""Procedural decks: card faces drawn from system fonts and parametric pips, one new design per seed.

The 30 artwork decks teach the models 30 index designs; a real deck is likely to be none of them. A
procedural deck (``procedural_<seed>``, split TRAIN) has its own rank font, pip shapes (from a font or drawn
from a parametric heart/diamond/spade/club with its own proportions), inks, card stock, corner radius, index
size and place (two corners, or all four as many poker decks print them), number-card pip layouts, court
pictures and a back. Rendering it needs only the Debian font packages `bash run setup` installs
(``fonts-dejavu-core``, ``fonts-liberation``, ``fonts-freefont-ttf``, ``fonts-urw-base35``).

Seeds from ``ODD_STYLE_SEEDS`` on also draw two index looks no lower seed has (drawn after every other choice, so
the decks of lower seeds are as they were): the rank alone, with no suit under it, and the bottom index printed
upright, as kde_ancient_egyptians prints both. With the rank alone and the bottom index upright, a 6's corner is
a 9's turned 180 degrees: only the way up of the table tells them apart, which is what such decks are for.

The shapes are the vocabulary of any French-suited deck; no deck's artwork is copied.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw, ImageFont

from engine.errors import CadoganError

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")  # vision.synth.artwork's order
SUITS = "SHDC"
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype")
NOT_TEXT = ("Math", "D050000L", "StandardSymbols")  # symbol fonts: their "A" is not an A
ODD_STYLE_SEEDS = 1_000_000_000  # far above the seeds models.data draws (seed * 100,000 + a few thousand)
FONT_HINT = "install fonts: sudo apt-get install fonts-dejavu-core fonts-liberation fonts-freefont-ttf fonts-urw-base35"


@functools.cache
def fonts() -> tuple[str, ...]:
    """Every TrueType/OpenType font that draws the 13 ranks as letters (symbol fonts left out), sorted."""
    found = []
    for d in FONT_DIRS:
        for path in sorted(Path(d).glob("**/*")):
            if path.suffix.lower() not in (".ttf", ".otf") or any(n in path.name for n in NOT_TEXT):
                continue
            try:
                font = ImageFont.truetype(str(path), 40)
            except OSError:
                continue
            if all(font.getmask(r).getbbox() for r in "AJQK2") and _has_letters(font):
                found.append(str(path))
    return tuple(found)


def _has_letters(font: ImageFont.FreeTypeFont) -> bool:
    q, i, m = font.getbbox("Q"), font.getbbox("i"), font.getbbox("M")
    return q[2] - q[0] > 5 and i[2] < m[2]


@functools.cache
def suit_fonts() -> tuple[str, ...]:
    """Fonts whose four suit glyphs are real (four different filled shapes, not one missing-glyph box)."""
    good = []
    for path in fonts():
        font = ImageFont.truetype(path, 64)
        masks = [np.asarray(font.getmask(SUIT_CHARS[s])) for s in SUITS]
        if all(m.size > 200 for m in masks) and len({m.tobytes() for m in masks}) == 4:
            good.append(path)
    return tuple(good)


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def text_mask(text: str, path: str, height: int, condense: float = 1.0) -> U8:
    """The glyphs of ``text`` in font ``path``, cut tight, ``height`` px high, width scaled by ``condense``."""
    font = _font(path, 96)
    box = font.getbbox(text)
    im = Image.new("L", (int(box[2] - box[0]) + 8, int(box[3] - box[1]) + 8), 0)
    ImageDraw.Draw(im).text((4 - box[0], 4 - box[1]), text, font=font, fill=255)
    m = _tight(np.asarray(im, np.uint8))
    w = max(1, round(m.shape[1] * height / m.shape[0] * condense))
    return np.asarray(cv2.resize(m, (w, max(1, height)), interpolation=cv2.INTER_AREA), np.uint8)


def _tight(m: U8) -> U8:
    ys, xs = np.nonzero(m > 20)
    if len(xs) == 0:
        return np.full((1, 1), 255, np.uint8)
    return m[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _poly_mask(points: F64, circles: Sequence[tuple[float, float, float]] = ()) -> U8:
    """Fill a shape given in unit coordinates (x, y about -1..1) on a 256 px mask, cut tight."""
    n = 256
    m = np.zeros((n, n), np.uint8)
    px = ((points * 0.45 + 0.5) * n * 16).round().astype(np.int32)
    cv2.fillPoly(m, [px], 255, cv2.LINE_AA, shift=4)
    for cx, cy, r in circles:
        c = (round((cx * 0.45 + 0.5) * n * 16), round((cy * 0.45 + 0.5) * n * 16))
        cv2.circle(m, c, round(r * 0.45 * n * 16), 255, -1, cv2.LINE_AA, shift=4)
    return _tight(m)


def _heart_points(rng: np.random.Generator, width: float) -> F64:
    t = np.linspace(0, 2 * np.pi, 160, endpoint=False)
    lobe = rng.uniform(3.0, 6.0)  # how deep the notch between the lobes is
    x = 16 * np.sin(t) ** 3
    y = -(13 * np.cos(t) - lobe * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
    pts = np.stack([x / 16 * width, y / 16], 1)
    return np.asarray(pts - pts.mean(0), np.float64)


def suit_shape(suit: str, rng: np.random.Generator) -> U8:
    """A pip from a parametric shape with proportions drawn from ``rng`` (a mask, cut tight)."""
    if suit == "H":
        return _poly_mask(_heart_points(rng, rng.uniform(0.85, 1.2)))
    if suit == "D":
        w, k = rng.uniform(0.5, 0.85), rng.uniform(0.0, 0.3)  # half-width; how concave the sides are
        corners = np.array([[0, -1], [w, 0], [0, 1], [-w, 0], [0, -1]], np.float64)
        pts = []
        for a, b in itertools.pairwise(corners):
            mid = (a + b) / 2 * (1 - k)  # pull each side's middle towards the centre
            for s in np.linspace(0, 1, 12, endpoint=False):
                pts.append((1 - s) ** 2 * a + 2 * (1 - s) * s * mid + s**2 * b)
        return _poly_mask(np.array(pts))
    stem_w, stem_h = rng.uniform(0.25, 0.6), rng.uniform(0.25, 0.45)
    stem = np.array([[-0.06, 1.0 - stem_h - 0.1], [0.06, 1.0 - stem_h - 0.1], [stem_w / 2, 1.0], [-stem_w / 2, 1.0]])
    if suit == "S":
        heart = _heart_points(rng, rng.uniform(0.9, 1.25)) * np.array([1.0, -1.0])  # point up
        heart = heart * (1 - stem_h * 0.5) + np.array([0.0, -stem_h * 0.45])
        return _with_stem(_poly_mask(np.vstack([heart, heart[:1]])), stem, stem_h)
    r = rng.uniform(0.3, 0.4)  # club: three round leaves
    d = rng.uniform(0.85, 1.1) * r
    cy = -0.25
    leaves = [(0.0, cy - d, r), (-d * 0.95, cy + d * 0.55, r), (d * 0.95, cy + d * 0.55, r)]
    centre = np.array([[-0.15, cy], [0.15, cy], [0.0, cy + d * 0.9]])
    return _poly_mask(np.vstack([centre, stem[[1, 2, 3, 0]]]), leaves)


def _with_stem(body: U8, stem: F64, stem_h: float) -> U8:
    """A spade: the pointed body with a flared stem under its middle."""
    h, w = body.shape
    stem_px = _poly_mask(stem)
    sh = max(2, round(h * stem_h * 0.9))
    sw = max(2, round(stem_px.shape[1] * sh / max(stem_px.shape[0], 1)))
    stem_px = np.asarray(cv2.resize(stem_px, (sw, sh), interpolation=cv2.INTER_AREA), np.uint8)
    out = np.zeros((h + sh - round(h * 0.12), max(w, sw)), np.uint8)
    x0 = (out.shape[1] - w) // 2
    out[:h, x0 : x0 + w] = body
    sx = (out.shape[1] - sw) // 2
    top = out.shape[0] - sh
    out[top:, sx : sx + sw] = np.maximum(out[top:, sx : sx + sw], stem_px)
    return out


def suit_glyph(suit: str, path: str) -> U8:
    return text_mask(SUIT_CHARS[suit], path, 96)


def ink(red: bool, rng: np.random.Generator) -> F64:
    """A printing ink (BGR): crimson to orange-red, or black (now and then dark blue or dark green)."""
    if red:
        return np.array([rng.uniform(10, 70), rng.uniform(10, 60), rng.uniform(150, 235)])
    if rng.random() < 0.15:
        return np.array(rng.permutation([rng.uniform(60, 110), rng.uniform(20, 50), rng.uniform(10, 40)]))
    v = rng.uniform(5, 60)
    return np.array([v, v, v]) + rng.uniform(-5, 5, 3)


def paste(canvas: F64, mask: U8, x: int, y: int, colour: F64) -> None:
    """Ink ``mask`` onto ``canvas`` (float BGR) with its top-left at (x, y), clipped to the canvas."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    a = mask[y0 - y : y1 - y, x0 - x : x1 - x, None].astype(np.float64) / 255.0
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + colour * a


def _resize_to(mask: U8, width: float) -> U8:
    w = max(1, round(width))
    h = max(1, round(width * mask.shape[0] / mask.shape[1]))
    return np.asarray(cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA), np.uint8)


# pip places on a number card's face: (column -1/0/1, row 0..1); rows below the middle are printed upside down
_PIPS: dict[str, tuple[tuple[float, float], ...]] = {
    "2": ((0, 0), (0, 1)),
    "3": ((0, 0), (0, 0.5), (0, 1)),
    "4": ((-1, 0), (1, 0), (-1, 1), (1, 1)),
    "5": ((-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)),
    "6": ((-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    "7": ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)),
    "8": ((-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)),
    "9": ((-1, 0), (1, 0), (-1, 1 / 3), (1, 1 / 3), (0, 0.5), (-1, 2 / 3), (1, 2 / 3), (-1, 1), (1, 1)),
    "10": ((-1, 0), (1, 0), (0, 1 / 6), (-1, 1 / 3), (1, 1 / 3), (-1, 2 / 3), (1, 2 / 3), (0, 5 / 6), (-1, 1), (1, 1)),
}


class _Style:
    """One deck's design: every choice drawn once from the deck's seed, so its 52 cards agree."""

    def __init__(self, seed: int, width: int, height: int) -> None:
        if not fonts():
            raise CadoganError(f"procedural decks need fonts: none under {', '.join(FONT_DIRS)}; {FONT_HINT}")
        rng = np.random.default_rng(seed)
        self.rng, self.seed = rng, seed
        self.w, self.h = width, height
        self.font = fonts()[int(rng.integers(len(fonts())))]
        self.condense = rng.uniform(0.8, 1.15)
        font_pips = rng.random() < 0.6 and bool(suit_fonts())
        pip_font = suit_fonts()[int(rng.integers(len(suit_fonts())))] if font_pips else ""
        self.pips = {s: suit_glyph(s, pip_font) if font_pips else suit_shape(s, rng) for s in SUITS}
        self.red, self.black = ink(True, rng), ink(False, rng)
        grey = rng.uniform(215, 255)
        self.stock = np.array([grey - rng.uniform(0, 25), grey - rng.uniform(0, 12), grey])
        self.radius = rng.uniform(0.02, 0.07) * width
        # index: rank height and place as fractions of the card; the pip under the rank
        self.rank_h = rng.uniform(0.065, 0.11) * height
        self.index_pip_w = self.rank_h * rng.uniform(0.55, 0.95)
        self.gap = self.rank_h * rng.uniform(0.05, 0.3)
        self.margin_x = rng.uniform(0.035, 0.08) * width
        self.margin_y = rng.uniform(0.025, 0.06) * height
        self.four_corners = rng.random() < 0.3
        self.frame = rng.random() < 0.3
        self.frame_inset = rng.uniform(0.02, 0.05) * width
        self.face_pip_w = rng.uniform(0.13, 0.19) * width
        self.court_colours = rng.uniform(0, 255, (4, 3))
        self.back = self._back()
        odd = seed >= ODD_STYLE_SEEDS  # drawn last: the decks of lower seeds stay as they were
        self.rank_only = odd and bool(rng.random() < 0.5)  # no suit under the rank in the index
        self.upright_bottom = odd and bool(rng.random() < 0.5)  # the bottom index not turned 180 degrees

    def colour(self, suit: str) -> F64:
        return self.red if suit in "HD" else self.black

    def _back(self) -> U8:
        rng = self.rng
        canvas = np.empty((self.h, self.w, 3), np.float64)
        canvas[:] = self.stock
        inset = round(rng.uniform(0.03, 0.08) * self.w)
        base = rng.uniform(20, 200, 3)
        second = rng.uniform(20, 230, 3)
        yy, xx = np.mgrid[: self.h, : self.w].astype(np.float64)
        period = rng.uniform(6, 20)
        angle = rng.uniform(0, np.pi)
        wave = np.sin((xx * np.cos(angle) + yy * np.sin(angle)) / period)
        wave2 = np.sin((xx * np.cos(angle + np.pi / 2) + yy * np.sin(angle + np.pi / 2)) / period)
        pattern = ((wave * wave2) > rng.uniform(-0.3, 0.3)).astype(np.float64)[..., None]
        inner = base * (1 - pattern) + second * pattern
        canvas[inset:-inset, inset:-inset] = inner[inset:-inset, inset:-inset]
        return np.clip(canvas, 0, 255).astype(np.uint8)

    def index_mask(self, rank: str, suit: str) -> tuple[U8, U8, int]:
        condense = self.condense * (0.65 if rank == "10" else 1.0)  # decks squeeze "10" to fit
        rank_mask = text_mask(rank, self.font, round(self.rank_h), condense)
        pip = _resize_to(self.pips[suit], self.index_pip_w)
        return rank_mask, pip, round(self.gap)

    def face(self, card: str) -> tuple[U8, tuple[int, int, int, int]]:
        """The face of ``card`` (BGR) and its top-left index box in px (x0, y0, x1, y1)."""
        rank, suit = card[:-1], card[-1]
        colour = self.colour(suit)
        canvas = np.empty((self.h, self.w, 3), np.float64)
        canvas[:] = self.stock
        if self.frame:
            i = round(self.frame_inset)
            cv2.rectangle(
                canvas, (i, i), (self.w - 1 - i, self.h - 1 - i), tuple(float(c) for c in colour), 2, cv2.LINE_AA
            )
        rank_mask, pip, gap = self.index_mask(rank, suit)
        if self.rank_only:
            pip, gap = np.zeros((0, 0), np.uint8), 0
        iw = max(rank_mask.shape[1], pip.shape[1])
        ih = rank_mask.shape[0] + gap + pip.shape[0]
        index = np.zeros((ih, iw), np.uint8)
        index[: rank_mask.shape[0], (iw - rank_mask.shape[1]) // 2 :][:, : rank_mask.shape[1]] = rank_mask
        if pip.size:
            px0 = (iw - pip.shape[1]) // 2
            index[rank_mask.shape[0] + gap :, px0 : px0 + pip.shape[1]] = pip
        x0, y0 = round(self.margin_x), round(self.margin_y)
        if self.frame:  # the index sits inside the frame line
            x0 += round(self.frame_inset)
            y0 += round(self.frame_inset)
        paste(canvas, index, x0, y0, colour)
        turned = index if self.upright_bottom else index[::-1, ::-1]
        paste(canvas, turned, self.w - x0 - iw, self.h - y0 - ih, colour)
        if self.four_corners:
            paste(canvas, index, self.w - x0 - iw, y0, colour)
            paste(canvas, turned, x0, self.h - y0 - ih, colour)
        self._middle(canvas, rank, suit, colour, x0 + iw)
        return np.clip(canvas, 0, 255).astype(np.uint8), (x0, y0, x0 + iw, y0 + ih)

    def _middle(self, canvas: F64, rank: str, suit: str, colour: F64, index_right: int) -> None:
        left, right = (
            max(index_right + 0.05 * self.w, 0.27 * self.w),
            min(self.w - index_right - 0.05 * self.w, 0.73 * self.w),
        )
        top, bottom = 0.16 * self.h, 0.84 * self.h
        if rank == "A":
            big = _resize_to(self.pips[suit], self.face_pip_w * 2.2)
            paste(canvas, big, round(self.w / 2 - big.shape[1] / 2), round(self.h / 2 - big.shape[0] / 2), colour)
            return
        if rank in _PIPS:
            rows = len({row for _, row in _PIPS[rank]})
            room = (bottom - top) / (rows + 0.3)  # pips of adjacent rows must not touch
            width = min(self.face_pip_w, (right - left) / 2.2)
            pip = _resize_to(self.pips[suit], width)
            if pip.shape[0] > room:
                pip = _resize_to(self.pips[suit], width * room / pip.shape[0])
            ph, pw = pip.shape
            for col, row in _PIPS[rank]:
                cx = (left + right) / 2 + col * (right - left - pw) / 2
                cy = top + ph / 2 + row * (bottom - top - ph)
                mask = pip[::-1, ::-1] if row > 0.5 else pip
                paste(canvas, mask, round(cx - pw / 2), round(cy - ph / 2), colour)
            return
        # a court card: a framed picture, mirrored top to bottom, with the rank's letter and the suit in it
        x0, y0, x1, y1 = (
            round(left - 0.04 * self.w),
            round(top - 0.04 * self.h),
            round(right + 0.04 * self.w),
            round(bottom + 0.04 * self.h),
        )
        # one picture per court card, the same in every process (hash() of a str is salted per process)
        rng = np.random.default_rng([self.seed, RANKS.index(rank), SUITS.index(suit)])
        cells = self.court_colours[rng.integers(0, 4, (6, 4))]
        half = cv2.resize(cells, (x1 - x0, (y1 - y0) // 2), interpolation=cv2.INTER_NEAREST)
        picture = np.vstack([half, half[::-1, ::-1]])
        canvas[y0 : y0 + picture.shape[0], x0:x1] = canvas[y0 : y0 + picture.shape[0], x0:x1] * 0.3 + picture * 0.7
        cv2.rectangle(canvas, (x0, y0), (x1, y0 + picture.shape[0]), tuple(float(c) for c in colour), 2, cv2.LINE_AA)
        letter = text_mask(rank, self.font, round((y1 - y0) * 0.3))
        paste(canvas, letter, (x0 + x1) // 2 - letter.shape[1] // 2, y0 + round((y1 - y0) * 0.1), colour)
        pip = _resize_to(self.pips[suit], self.face_pip_w)
        paste(
            canvas,
            pip[::-1, ::-1],
            (x0 + x1) // 2 - pip.shape[1] // 2,
            y1 - round((y1 - y0) * 0.1) - pip.shape[0],
            colour,
        )


def _with_corners(bgr: U8, radius: float) -> U8:
    """BGRA with the card's rounded corners transparent."""
    h, w = bgr.shape[:2]
    alpha = np.zeros((h * 4, w * 4), np.uint8)
    r = round(radius * 4)
    cv2.rectangle(alpha, (r, 0), (w * 4 - 1 - r, h * 4 - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w * 4 - 1, h * 4 - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * 4 - 1 - r, r), (r, h * 4 - 1 - r), (w * 4 - 1 - r, h * 4 - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    small = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_AREA)
    return np.dstack([bgr, small]).astype(np.uint8)


@functools.lru_cache(maxsize=8)
def procedural_deck(seed: int, width: int, height: int) -> dict[str, tuple[U8, tuple[int, int, int, int]]]:
    """Every face (``"AS"`` .. ``"KC"``) and ``"back"`` of deck ``seed``: BGRA ``height`` x ``width`` with its
    top-left index box in px (the back's box is empty)."""
    style = _Style(seed, width, height)
    out: dict[str, tuple[U8, tuple[int, int, int, int]]] = {}
    for suit in SUITS:
        for rank in RANKS:
            face, box = style.face(rank + suit)
            out[rank + suit] = (_with_corners(face, style.radius), box)
    out["back"] = (_with_corners(style.back, style.radius), (0, 0, 0, 0))
    return out
