"""Training data cut from synthetic renders (TRAIN decks only), cached to disk under ``models/cache/``.

One shard = a batch of rendered scenes, written as
- ``det-NNNN.npz``: the scenes downscaled to the detector's input width, JPEG bytes, plus every corner-index
  box (axis-aligned, detector pixels) with its hidden fraction, and each scene's deck name (``decks``; older
  shards lack it: their index boxes cannot be relabelled per deck when the truth's index finder changes);
- ``cls-NNNN.npz``: square crops around corner indices (and negatives) for the classifier, with their class.

Run ``python -m models.data --out models/cache/data --scenes 2400`` (deterministic per shard and seed).
UNSEEN (KDE) decks are never drawn here: they are the generalisation test.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import NAMES, class_of
from vision.crops import square_crop
from vision.synth import RenderOptions, render_scene
from vision.synth.contact import random_position
from vision.synth.decks import DeckSplit, deck_names
from vision.synth.truth import SceneTruth, back_strips

U8 = npt.NDArray[np.uint8]
DET_W, DET_H = 640, 360  # detector input: 1/3 of a 1920 x 1080 webcam frame
CROP = 64  # stored crop side; the index's longer side maps to CROP_INDEX px, leaving room for jitter
CROP_INDEX = 32
BACKGROUND = len(NAMES)  # the classifier's extra class: "this is not a corner index"
GAMES = ("klondike", "klondike", "canfield", "fortunes_wheel", "spread")
VISIBLE = 0.25  # hidden fraction below which an index is a positive (the detector ignores 0.25-0.6: models/train.py)
HIDDEN_NEGATIVE = 0.85  # an index this covered is a classifier negative (less covered ones stay readable)
CLOSE_UP, FREE_ROLL = 0.3, 0.25  # cameras near the cards and turned any way (real photos are)
PROCEDURAL_PER_SHARD = 5  # procedural decks a shard draws its scenes from


def index_boxes(truth: SceneTruth) -> list[tuple[str, float, float, float, float, float]]:
    """(card, x0, y0, x1, y1, hidden) of every printed corner index in image pixels."""
    out = []
    for c in truth.cards:
        if not c.face_up or c.card is None:
            continue
        for ix in c.indices:
            q = np.array(ix.image)
            out.append((c.card, *q.min(0), *q.max(0), ix.hidden))
    return out


BACK = BACKGROUND  # class of a face-down card's visible top strip in the detector's boxes


def _negatives(image: U8, truth: SceneTruth, rng: random.Random, n: int, side: float) -> list[U8]:
    """Crops of things that are not a readable index: card faces (pips!), backs, table, clutter, hands."""
    h, w = image.shape[:2]
    crops = []
    cards = [np.array(c.image) for c in truth.cards]
    for _ in range(n):
        if cards and rng.random() < 0.7:
            q = cards[rng.randrange(len(cards))]
            a, b = rng.random(), rng.random()
            # bilinear point inside the card quad, biased away from the top-left index
            top = q[0] + (q[1] - q[0]) * a
            bot = q[3] + (q[2] - q[3]) * a
            p = top + (bot - top) * b
        else:
            p = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        s = side * rng.uniform(0.7, 1.6)
        crops.append(square_crop(image, float(p[0]), float(p[1]), s * CROP / CROP_INDEX, CROP))
    return crops


def _shard(args: tuple[str, int, int, int, float]) -> str:
    out_dir, shard, scenes, seed, procedural = args
    det_path = Path(out_dir) / f"det-{shard:04d}.npz"
    if det_path.exists():
        return f"shard {shard}: cached"
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    cv2.setNumThreads(1)
    rng = random.Random(seed * 100003 + shard)
    decks = deck_names(DeckSplit.TRAIN)
    jpegs: list[U8] = []
    boxes: list[npt.NDArray[np.float32]] = []
    crops: list[U8] = []
    labels: list[int] = []
    scene_decks: list[str] = []  # stored so that a later fix of the truth's index finder can be told apart per deck
    t0 = time.time()
    for _k in range(scenes):
        game = rng.choice(GAMES)
        scene_seed = rng.randrange(1 << 30)
        opts = RenderOptions(
            max_tilt=45.0,
            hand_probability=0.4,
            effects=rng.choice((1.0, 1.0, 1.0, 0.5)),
            close_up=CLOSE_UP,
            free_roll=FREE_ROLL,
        )
        deck = rng.choice(decks)
        if procedural and rng.random() < procedural:  # a drawn deck; a few per shard, so each is drawn once
            deck = f"procedural_{seed * 100_000 + shard * PROCEDURAL_PER_SHARD + rng.randrange(PROCEDURAL_PER_SHARD)}"
        image, truth = render_scene(game, random_position(game, scene_seed), deck=deck, seed=scene_seed, options=opts)
        scene_decks.append(deck)
        h, w = image.shape[:2]
        small = cv2.resize(image, (DET_W, DET_H), interpolation=cv2.INTER_AREA)
        jpegs.append(np.frombuffer(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 93])[1].tobytes(), np.uint8))
        sx, sy = DET_W / w, DET_H / h
        rows = []
        sides = []
        for card, x0, y0, x1, y1, hidden in index_boxes(truth):
            rows.append((x0 * sx, y0 * sy, x1 * sx, y1 * sy, hidden, class_of(card)))
            side = max(x1 - x0, y1 - y0)
            if hidden < VISIBLE and side > 4:
                sides.append(side)
                crops.append(square_crop(image, (x0 + x1) / 2, (y0 + y1) / 2, side * CROP / CROP_INDEX, CROP))
                labels.append(class_of(card))
            elif hidden > HIDDEN_NEGATIVE and side > 4 and rng.random() < 0.3:
                crops.append(square_crop(image, (x0 + x1) / 2, (y0 + y1) / 2, side * CROP / CROP_INDEX, CROP))
                labels.append(BACKGROUND)
        for x0, y0, x1, y1, hidden in back_strips(truth, (w, h)):
            rows.append((x0 * sx, y0 * sy, x1 * sx, y1 * sy, hidden, BACK))
        boxes.append(np.array(rows, np.float32).reshape(-1, 6))
        side = float(np.median(sides)) if sides else 0.05 * h
        for neg in _negatives(image, truth, rng, 12, side):
            crops.append(neg)
            labels.append(BACKGROUND)
    offsets = np.cumsum([0] + [len(j) for j in jpegs])
    counts = np.cumsum([0] + [len(b) for b in boxes])
    cls_path = Path(out_dir) / f"cls-{shard:04d}.npz"
    np.savez(cls_path, crops=np.stack(crops), labels=np.array(labels, np.int16))
    tmp = Path(out_dir) / f"det-{shard:04d}.tmp.npz"
    np.savez(
        tmp,
        jpeg=np.concatenate(jpegs),
        offsets=offsets,
        boxes=np.concatenate(boxes),
        counts=counts,
        backs=np.array(True),
        decks=np.array(scene_decks),
    )
    tmp.rename(det_path)  # the det file last: its presence marks a finished shard
    return f"shard {shard}: {scenes} scenes, {len(labels)} crops, {time.time() - t0:.0f} s"


def generate(
    out_dir: str, scenes: int, *, per_shard: int = 50, seed: int = 0, workers: int = 2, procedural: float = 0.0
) -> None:
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    n = (scenes + per_shard - 1) // per_shard
    jobs = [(out_dir, i, per_shard, seed, procedural) for i in range(n)]
    if workers <= 1:
        for j in jobs:
            print(_shard(j), flush=True)
        return
    with ProcessPoolExecutor(workers) as pool:
        for msg in pool.map(_shard, jobs):
            print(msg, flush=True)


def _finished_shards(out_dirs: str) -> list[Path]:
    """Finished shards of one cache folder or of several, comma-separated."""
    return [det for d in out_dirs.split(",") for det in sorted(Path(d).glob("det-[0-9][0-9][0-9][0-9].npz"))]


def load_classifier_data(out_dir: str) -> tuple[U8, npt.NDArray[np.int64]]:
    crops, labels = [], []
    for det in _finished_shards(out_dir):
        cls = det.with_name(det.name.replace("det-", "cls-"))
        with np.load(cls) as z:
            crops.append(z["crops"])
            labels.append(z["labels"].astype(np.int64))
    if not crops:
        raise FileNotFoundError(f"no finished shards in {out_dir}")
    return np.concatenate(crops), np.concatenate(labels)


def load_detector_data(out_dir: str) -> list[tuple[U8, npt.NDArray[np.float32], bool]]:
    """(image 360 x 640 BGR, boxes (n, 6): x0 y0 x1 y1 hidden class, whether face-down strips are labelled)
    for every cached scene; class BACK is a face-down card's top strip (shards made before backs were
    labelled say False: they teach nothing about backs)."""
    out: list[tuple[U8, Any, bool]] = []
    for det in _finished_shards(out_dir):
        with np.load(det) as z:
            jpeg, offsets, boxes, counts = z["jpeg"], z["offsets"], z["boxes"], z["counts"]
            backs = bool(z["backs"]) if "backs" in z.files else False
        for i in range(len(offsets) - 1):
            img = cv2.imdecode(jpeg[offsets[i] : offsets[i + 1]], cv2.IMREAD_COLOR)
            out.append((img, boxes[counts[i] : counts[i + 1]], backs))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="models/cache/data")
    ap.add_argument("--scenes", type=int, default=2400)
    ap.add_argument("--per-shard", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--procedural",
        type=float,
        default=0.0,
        help="share of scenes dealt with a procedural deck (vision.synth.procedural) instead of artwork",
    )
    a = ap.parse_args()
    generate(a.out, a.scenes, per_shard=a.per_shard, seed=a.seed, workers=a.workers, procedural=a.procedural)


if __name__ == "__main__":
    main()
