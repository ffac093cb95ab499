"""Photo statistics to hold renders against real photographs: index size, sharpness, paper white.

``python -m vision.synth.measure REAL_DIR`` reads YOLO-labelled photos (corner-index boxes) and prints the
same figures for real and rendered scenes.
Nothing from the real set is stored: only the printed figures go to docs/synth.md.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Stats:
    images: int
    index_h_frac: float  # index box height / image height
    sharpness: float  # Laplacian energy of index crops scaled to 24 px high, over their contrast
    paper_bgr: tuple[float, float, float]  # 90th percentile colour inside index boxes: the card stock


def _crop_stats(img: npt.NDArray[Any], box: tuple[float, float, float, float]) -> tuple[float, list[float]] | None:
    x0, y0, x1, y1 = (round(v) for v in box)
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 4 or y1 - y0 < 8:
        return None
    crop = img[y0:y1, x0:x1]
    g0 = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    s = 24.0 / g0.shape[0]
    g = cv2.resize(g0, (max(4, int(g0.shape[1] * s)), 24), interpolation=cv2.INTER_AREA)
    lap = cv2.Laplacian(g, cv2.CV_32F)
    sharp = float(lap.var() / (g.var() + 1e-3))
    paper = [float(np.percentile(crop[:, :, c], 90)) for c in range(3)]
    return sharp, paper


def summarise(samples: list[tuple[npt.NDArray[Any], list[tuple[int, tuple[float, float, float, float]]]]]) -> Stats:
    """``samples``: (image, [(class id, index box xyxy px)]) per photo."""
    hs: list[float] = []
    sharp: list[float] = []
    paper: list[list[float]] = []
    for img, boxes in samples:
        ih = img.shape[0]
        for _, (x0, y0, x1, y1) in boxes:
            hs.append((y1 - y0) / ih)
            st = _crop_stats(img, (x0, y0, x1, y1))
            if st is not None:
                sharp.append(st[0])
                paper.append(st[1])
    p = np.median(np.array(paper), axis=0) if paper else np.zeros(3)
    return Stats(
        len(samples),
        round(float(np.median(hs)), 4) if hs else 0.0,
        round(float(np.median(sharp)), 3) if sharp else 0.0,
        (round(float(p[0]), 1), round(float(p[1]), 1), round(float(p[2]), 1)),
    )


def read_yolo(folder: Path) -> list[tuple[npt.NDArray[Any], list[tuple[int, tuple[float, float, float, float]]]]]:
    out = []
    for jpg in sorted(folder.rglob("*.jpg")):
        txt = jpg.with_suffix(".txt")
        img = cv2.imread(str(jpg))
        if img is None or not txt.is_file():
            continue
        h, w = img.shape[:2]
        boxes = []
        for line in txt.read_text().split("\n"):
            parts = line.split()
            if len(parts) != 5:
                continue
            c, xc, yc, bw, bh = int(parts[0]), *(float(v) for v in parts[1:])
            boxes.append((c, ((xc - bw / 2) * w, (yc - bh / 2) * h, (xc + bw / 2) * w, (yc + bh / 2) * h)))
        out.append((img, boxes))
    return out


def rendered(n: int, deck: str) -> list[tuple[npt.NDArray[Any], list[tuple[int, tuple[float, float, float, float]]]]]:
    from vision.synth.artwork import all_cards
    from vision.synth.layout import Piles
    from vision.synth.scene import render_scene

    out = []
    for seed in range(n):
        cards = all_cards()
        random.Random(seed).shuffle(cards)
        piles: Piles = {f"t{i}": [(cards[i * 3 + j], True) for j in range(3)] for i in range(1, 8)}
        img, truth = render_scene("klondike", piles, deck=deck, seed=seed)
        boxes = []
        for k, c in enumerate(truth.cards):
            for idx in c.indices:
                if idx.hidden == 0.0:
                    q = np.array(idx.image)
                    boxes.append(
                        (k, (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())))
                    )
        out.append((img, boxes))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("real", help="folder of YOLO-labelled photos")
    ap.add_argument("--renders", type=int, default=24)
    ap.add_argument("--deck", default="paris")
    a = ap.parse_args()
    print("real    ", summarise(read_yolo(Path(a.real))))
    print("rendered", summarise(rendered(a.renders, a.deck)))


if __name__ == "__main__":
    main()
