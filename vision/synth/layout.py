"""Where each card lies on the table (mm), dealt the way a person lays a game out: untidy on purpose.

Input is the renderer's contract: pile id -> cards bottom first, each (notation or None, face_up).
Pile ids are a role letter plus a number (``t3``, ``f1``) or a bare role letter (``s``, ``w``, ``r``).
Known games get their usual shape; any other game falls back to rows by role, so every game renders.
"""

from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass

import numpy as np

from vision.synth.artwork import CARD_H_MM, CARD_W_MM

Piles = dict[str, list[tuple[str | None, bool]]]

# Single letters that are piles of their own role; any other bare letter is an alphabet packet (a..m).
_SPECIAL = {"s": "stock", "w": "waste", "r": "reserve", "k": "key", "h": "shutter"}
_FANNED_DOWN = {"t"}  # tableau columns: cascades


@dataclass(frozen=True, slots=True)
class Placed:
    """One card on the table: centre (mm), rotation (degrees, clockwise in the table frame), draw order."""

    card: str | None
    pile: str
    index: int
    face_up: bool
    x: float
    y: float
    angle: float
    shade: int = 0  # which paper brightness (scene._SHADES) this card catches


def pile_role(pile: str) -> tuple[str, int]:
    m = re.fullmatch(r"([a-z]+)(\d*)", pile)
    if m is None:
        raise ValueError(f"bad pile id {pile!r}")
    return m.group(1), int(m.group(2) or 0)


@dataclass(frozen=True, slots=True)
class _Slot:
    col: float
    row: float
    style: str  # "square", "fan_down", "fan_right", "loose" (cards apart, any angle)


def _slots(game: str, piles: Piles) -> dict[str, _Slot]:
    base = game.split("/")[0].lower()
    ids = list(piles)
    out: dict[str, _Slot] = {}
    if base == "klondike":
        out = {"s": _Slot(0, 0, "square"), "w": _Slot(1, 0, "fan_right")}
        out.update({f"f{i}": _Slot(2 + i, 0, "square") for i in range(1, 5)})
        out.update({f"t{i}": _Slot(i - 1, 1, "fan_down") for i in range(1, 8)})
    elif base == "canfield":
        out = {"s": _Slot(0, 0, "square"), "w": _Slot(1, 0, "fan_right"), "r": _Slot(0, 1, "square")}
        out.update({f"f{i}": _Slot(1.5 + i, 0, "square") for i in range(1, 5)})
        out.update({f"t{i}": _Slot(1.5 + i, 1, "fan_down") for i in range(1, 5)})
    elif base == "spread":  # every card apart (a deck shown to the camera, a photo for enrolment)
        cols = max(4, min(13, math.ceil(math.sqrt(len(ids) * 1.6))))
        out = {p: _Slot(i % cols, i // cols, "loose") for i, p in enumerate(ids)}
    rest = [p for p in ids if p not in out]
    if rest:
        out.update(_fallback(rest, start_row=max((s.row for s in out.values()), default=-1) + 1))
    return {p: out[p] for p in ids}


def _fallback(ids: list[str], start_row: float) -> dict[str, _Slot]:
    """Rows by role: singles and foundations on top, then tableau, balcony, ground, promenade, alphabet."""
    rows: dict[str, list[str]] = {"top": [], "t": [], "b": [], "g": [], "p": [], "alpha": [], "other": []}
    for p in sorted(ids, key=lambda q: (pile_role(q)[0], pile_role(q)[1])):
        role, _ = pile_role(p)
        if role in _SPECIAL or role == "f":
            rows["top"].append(p)
        elif role in rows:
            rows[role].append(p)
        elif len(role) == 1:
            rows["alpha"].append(p)
        else:
            rows["other"].append(p)
    out: dict[str, _Slot] = {}
    row = start_row
    for key, members in rows.items():
        width = 10 if key in ("p", "alpha", "other") else 12
        for i, p in enumerate(members):
            style = "fan_down" if key == "t" else "fan_right" if p == "w" else "square"
            out[p] = _Slot(i % width, row + i // width, style)
        if members:
            row += (len(members) - 1) // width + 1
            if key == "t":
                row += 1.6  # room for the cascades
    return out


def place(game: str, piles: Piles, seed: int) -> list[Placed]:
    """Cards in draw order (bottom of each pile first), with human untidiness drawn from ``seed``.

    Each pile draws from its own stream, so a card keeps its place while cards come and go elsewhere
    (the frames of a video).
    """
    slots = _slots(game, piles)
    rng = np.random.default_rng([seed, 11])
    mess = rng.uniform(0.3, 1.0)  # how careless this player is
    gap_x = rng.uniform(6.0, 22.0)
    pitch_y = CARD_H_MM + rng.uniform(12.0, 35.0)
    fan = rng.uniform(0.10, 0.35) * CARD_H_MM  # 10-35 % of a card visible
    down_fan = fan * rng.uniform(0.55, 1.0)
    # Tableau rows hold long cascades: rows below a fanned row are pushed down by its tallest column.
    tallest = {
        s.row: max(len(piles[p]) for p, q in slots.items() if q.row == s.row)
        for s in slots.values()
        if s.style == "fan_down"
    }
    turned = rng.random() < 0.5  # a spread laid down carelessly: cards turned any way
    placed: list[Placed] = []
    for pile, slot in slots.items():
        rng = np.random.default_rng([seed, 12, zlib.crc32(pile.encode())])
        extra = sum((tallest[r] - 1) * fan * 1.05 for r in tallest if r < slot.row)
        px = slot.col * (CARD_W_MM + gap_x) + rng.normal(0, 2.5 * mess) + CARD_W_MM / 2
        py = slot.row * pitch_y + extra + rng.normal(0, 2.5 * mess) + CARD_H_MM / 2
        pa = rng.normal(0, 2.0 * mess)
        if slot.style == "loose":
            px += slot.col * 18.0 + rng.normal(0, 4.0 * mess)  # room to turn: cards apart, not in piles
            py += rng.normal(0, 4.0 * mess)
            pa = float(rng.uniform(-180.0, 180.0)) if turned else rng.normal(0, 6.0 * mess)
        cards = piles[pile]
        fan_dir = math.radians(pa)
        x, y = px, py
        for i, (card, up) in enumerate(cards):
            if i:
                if slot.style == "fan_down":
                    step = (fan if cards[i - 1][1] else down_fan) * rng.uniform(0.88, 1.12)
                    x += -math.sin(fan_dir) * step + rng.normal(0, 0.6 * mess)
                    y += math.cos(fan_dir) * step
                elif slot.style == "fan_right" and i >= len(cards) - 3:
                    x += rng.uniform(12.0, 18.0)
                    y += rng.normal(0, 0.8 * mess)
                else:  # squared packet, slightly shifted as a real packet is
                    x += rng.normal(0, 0.35 * mess)
                    y += rng.normal(0, 0.35 * mess)
            angle = pa + rng.normal(0, (1.8 if slot.style == "fan_down" else 1.0) * mess)
            placed.append(Placed(card, pile, i, up, float(x), float(y), float(angle), int(rng.integers(4))))
    return placed


def card_corners(p: Placed, w: float = CARD_W_MM, h: float = CARD_H_MM) -> np.ndarray:
    """The card outline as 4 table points (mm): top-left, top-right, bottom-right, bottom-left of the art."""
    return local_to_table(p, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))


def local_to_table(p: Placed, pts: np.ndarray) -> np.ndarray:
    """Points in card mm (origin top-left of the art) to table mm."""
    a = math.radians(p.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    centred = pts - np.array([CARD_W_MM / 2, CARD_H_MM / 2])
    out: np.ndarray = centred @ rot.T + np.array([p.x, p.y])
    return out
