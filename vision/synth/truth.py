"""Exact ground truth that goes with every rendered image, as JSON-able frozen dataclasses.

Quads are 4 points, clockwise from the printed top-left of the thing as it reads upright: for a card, its
top-left corner; for the bottom-right index (printed upside down) the point nearest the card's bottom-right.
Image points are in the photo (lens distortion applied); table points are in mm on the table plane.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

import cv2
import numpy as np

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def quad(pts: Any) -> Quad:
    p = [(round(x, 3), round(y, 3)) for x, y in np.asarray(pts, np.float64).tolist()]
    return (p[0], p[1], p[2], p[3])


@dataclass(frozen=True, slots=True)
class IndexTruth:
    corner: str  # "top_left" or "bottom_right"
    image: Quad
    table: Quad
    hidden: float  # fraction of the index box covered by other cards or hands, 0..1


@dataclass(frozen=True, slots=True)
class CardTruth:
    card: str | None  # None: a face-down card whose identity the table did not give
    pile: str
    index: int  # 0 = bottom of the pile
    face_up: bool
    image: Quad
    table: Quad
    hidden: float  # fraction of the card's face covered
    indices: tuple[IndexTruth, ...]  # empty for face-down cards


@dataclass(frozen=True, slots=True)
class CameraTruth:
    size: tuple[int, int]
    matrix: tuple[tuple[float, float, float], ...]  # 3 x 3 intrinsics
    dist: tuple[float, ...]  # OpenCV k1, k2, p1, p2, k3
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    homography: tuple[tuple[float, float, float], ...]  # table mm -> undistorted image px


@dataclass(frozen=True, slots=True)
class SceneTruth:
    game: str
    deck: str
    seed: int
    camera: CameraTruth
    cards: tuple[CardTruth, ...]
    hands: int  # how many hands/forearms are in the picture
    settings: dict[str, float | str]  # the sampled appearance (table kind, blur sigma, jpeg quality...)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_json(text: str) -> SceneTruth:
        d = json.loads(text)

        def q(v: Any) -> Quad:
            return quad(v)

        cam = d["camera"]
        camera = CameraTruth(
            size=(int(cam["size"][0]), int(cam["size"][1])),
            matrix=tuple((float(a), float(b), float(c)) for a, b, c in cam["matrix"]),
            dist=tuple(float(v) for v in cam["dist"]),
            rvec=(float(cam["rvec"][0]), float(cam["rvec"][1]), float(cam["rvec"][2])),
            tvec=(float(cam["tvec"][0]), float(cam["tvec"][1]), float(cam["tvec"][2])),
            homography=tuple((float(a), float(b), float(c)) for a, b, c in cam["homography"]),
        )
        cards = tuple(
            CardTruth(
                card=c["card"],
                pile=c["pile"],
                index=int(c["index"]),
                face_up=bool(c["face_up"]),
                image=q(c["image"]),
                table=q(c["table"]),
                hidden=float(c["hidden"]),
                indices=tuple(
                    IndexTruth(i["corner"], q(i["image"]), q(i["table"]), float(i["hidden"])) for i in c["indices"]
                ),
            )
            for c in d["cards"]
        )
        return SceneTruth(d["game"], d["deck"], int(d["seed"]), camera, cards, int(d["hands"]), dict(d["settings"]))


BACK_STRIP = 0.14  # a face-down card's top strip as a share of the card's height: what a cascade shows of it


def back_strips(truth: SceneTruth, size: tuple[int, int]) -> list[tuple[float, float, float, float, float]]:
    """(x0, y0, x1, y1, hidden) in image pixels of the top strip of every face-down card in the image: in a
    cascade that strip is all one sees of a back, so counting strips counts the face-down cards. ``hidden``
    is the share of the strip covered by cards drawn later (``truth.cards`` is in draw order)."""
    return [box for _, box in back_strips_by_card(truth, size)]


def back_strips_by_card(
    truth: SceneTruth, size: tuple[int, int]
) -> list[tuple[CardTruth, tuple[float, float, float, float, float]]]:
    """:func:`back_strips` with the face-down card each strip belongs to."""
    w, h = size
    out = []
    quads = [np.array(c.image, np.float64) for c in truth.cards]
    for k, c in enumerate(truth.cards):
        if c.face_up or c.hidden > 0.98:
            continue
        q = quads[k]
        strip = np.array([q[0], q[1], q[1] + (q[2] - q[1]) * BACK_STRIP, q[0] + (q[3] - q[0]) * BACK_STRIP])
        x0, y0 = np.floor(strip.min(0)).astype(int) - 1
        x1, y1 = np.ceil(strip.max(0)).astype(int) + 1
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [np.round(strip - (x0, y0)).astype(np.int32)], 1)
        area = int(mask.sum())
        if area == 0:
            continue
        for later in quads[k + 1 :]:
            if later[:, 0].max() < x0 or later[:, 0].min() > x1 or later[:, 1].max() < y0 or later[:, 1].min() > y1:
                continue
            cv2.fillPoly(mask, [np.round(later - (x0, y0)).astype(np.int32)], 0)
        hidden = 1.0 - float(mask.sum()) / area
        lo, hi = strip.min(0), strip.max(0)
        out.append((c, (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), hidden)))
    return out


READABLE = 0.25  # an index (or a back's strip) this little covered can be read


def visible_piles(truth: SceneTruth, hidden: float = READABLE) -> dict[str, list[str]]:
    """What a perfect reader sees per pile, bottom first: the face-up cards with a readable index (a squared
    packet, foundation, stock or reserve, shows its top card only)."""
    out: dict[str, list[str]] = {}
    for c in sorted(truth.cards, key=lambda c: (c.pile, c.index)):
        out.setdefault(c.pile, [])
        if c.face_up and c.card and any(ix.hidden <= hidden for ix in c.indices):
            out[c.pile].append(c.card)
    return {p: (v[-1:] if p.startswith(("f", "s", "r")) else v) for p, v in out.items()}


def visible_face_down(truth: SceneTruth, hidden: float = READABLE) -> dict[str, int]:
    """Per pile, the face-down cards whose top strip shows (a squared packet: 1 if any)."""
    out: dict[str, int] = {}
    for c, strip in back_strips_by_card(truth, truth.camera.size):
        if strip[4] <= hidden:
            out[c.pile] = out.get(c.pile, 0) + 1
    return {p: (n if p.startswith("t") else min(n, 1)) for p, n in out.items()}
