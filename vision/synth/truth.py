"""Exact ground truth that goes with every rendered image, as JSON-able frozen dataclasses.

Quads are 4 points, clockwise from the printed top-left of the thing as it reads upright: for a card, its
top-left corner; for the bottom-right index (printed upside down) the point nearest the card's bottom-right.
Image points are in the photo (lens distortion applied); table points are in mm on the table plane.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def quad(pts: Any) -> Quad:
    p = [(round(float(x), 3), round(float(y), 3)) for x, y in pts]
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
