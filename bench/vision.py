"""Recogniser benchmarks: unseen decks (renders), real photographs (when present), speed.

    python -m bench.vision                       # all three, default sizes
    python -m bench.vision --only crops          # classifier alone on the real photos' labelled boxes
    python -m bench.vision --only unseen --scenes 40

(i) unseen: renders of the UNSEEN (KDE) decks across every game's positions (deals and random playouts), camera
    tilts 0/25/45 degrees, a hand over the cards in a third of the scenes: share of visible corner indices named
    (a detection of the right card within the index box), phantom rate (detections matching no visible index
    of that card), and for Klondike and Canfield (the layouts ``vision.assemble`` knows) piles reconstructed
    exactly: cards, order and face-down count, per pile and per scene.
(ii) real: the 39 labelled webcam photos of /work/shared/realdata/eyeplay-dev (measured, never trained on):
    per image the set of card names predicted vs labelled: recall and precision; and ``crops``: each labelled
    box cut out and classified (the domain gap of the classifier alone).
(iii) speed: median ms per 1920 x 1080 and 1280 x 720 frame (recognise only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.cards import NAMES, class_of
from vision.recognise import CLS_SPAN, Recogniser, classify_boxes, load_recogniser, recognise

REAL = Path("/work/shared/realdata/eyeplay-dev")


# ---------------------------------------------------------------- real photographs


def real_images(folder: Path = REAL) -> list[tuple[Path, list[tuple[str, tuple[float, float, float, float]]]]]:
    """(image path, [(card name, x0 y0 x1 y1 px)]) for every labelled photo under ``folder``."""
    names = (folder / "obj.names").read_text().split()
    out = []
    for img in sorted(folder.rglob("*.jpg")):
        txt = img.with_suffix(".txt")
        if not txt.exists():
            continue
        w, h = 1920, 1080  # all photos of this set; checked when the image is read
        labels = []
        for line in txt.read_text().split("\n"):
            if not line.strip():
                continue
            c, cx, cy, bw, bh = line.split()
            x, y, ww, hh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
            labels.append((NAMES[class_of(names[int(c)])], (x - ww / 2, y - hh / 2, x + ww / 2, y + hh / 2)))
        out.append((img, labels))
    return out


def bench_crops(rec: Recogniser, folder: Path = REAL) -> dict[str, Any]:
    """Classify every labelled box of the real photos (the box as the detector would give it)."""
    total = right = rank_ok = suit_ok = rejected = 0
    confusions: Counter[tuple[str, str]] = Counter()
    for path, labels in real_images(folder):
        image = cv2.imread(str(path))
        assert image is not None, path
        assert image.shape[:2] == (1080, 1920), path
        boxes = np.array([b for _, b in labels], np.float32)
        probs = classify_boxes(np.asarray(image, np.uint8), boxes, rec)
        for (name, _), p in zip(labels, probs, strict=True):
            guess = NAMES[int(p[:52].argmax())]
            total += 1
            right += guess == name
            rank_ok += guess[:-1] == name[:-1]
            suit_ok += guess[-1] == name[-1]
            rejected += bool(p[52] > p[:52].max())
            if guess != name:
                confusions[(name, guess)] += 1
    return {
        "boxes": total,
        "accuracy": right / max(total, 1),
        "rank_accuracy": rank_ok / max(total, 1),
        "suit_accuracy": suit_ok / max(total, 1),
        "rejected_as_not_index": rejected / max(total, 1),
        "top_confusions": confusions.most_common(12),
        "span": CLS_SPAN,
    }


def bench_real(rec: Recogniser, folder: Path = REAL) -> dict[str, Any]:
    """Per photo: predicted set of card names vs the labelled set."""
    rows = []
    tp = fp = fn = 0
    for path, labels in real_images(folder):
        image = cv2.imread(str(path))
        assert image is not None, path
        dets = recognise(image, rec)
        pred = {n for n in dets.names if n != "back"}
        truth = {n for n, _ in labels}
        t, f, m = len(pred & truth), len(pred - truth), len(truth - pred)
        tp, fp, fn = tp + t, fp + f, fn + m
        rows.append((str(path.relative_to(folder)), len(truth), t / max(len(truth), 1), t / max(len(pred), 1),
                     sorted(truth - pred), sorted(pred - truth)))
    folders: dict[str, list[float]] = {}
    for r in rows:
        folders.setdefault(str(Path(r[0]).parent), []).append(r[2])
    rows.sort(key=lambda r: r[2] + r[3])
    return {
        "photos": len(rows),
        "recall": tp / max(tp + fn, 1),
        "precision": tp / max(tp + fp, 1),
        "mean_recall_by_folder": {k: round(sum(v) / len(v), 3) for k, v in sorted(folders.items())},
        "worst": rows[:6],
    }


# ---------------------------------------------------------------- unseen decks (renders)


UNSEEN_GAMES = ("klondike", "canfield", "klondike", "canfield", "general-sedgewick", "the-queens", "sly", "louis",
                "the-great-thirteen")  # Klondike and Canfield twice: the only layouts assembled into piles yet
ASSEMBLED = ("klondike", "canfield")


def _positions(game: str, seed: int) -> dict[str, list[tuple[str | None, bool]]]:
    """A deal or a random playout of ``game`` (engine), so cascades look like real play."""
    from engine import Table, find_game

    table = Table.dealt(find_game(game), seed)
    r = random.Random(seed)
    for _ in range(r.choice((0, 10, 30, 60))):
        moves = table.generate_moves()
        if not moves:
            break
        table.push(r.choice(moves))
    return table.piles_view()


def bench_unseen(rec: Recogniser, scenes: int = 24, seed: int = 1000, close_up: float = 0.0) -> dict[str, Any]:
    """Renders of the UNSEEN decks across every game, tilts 0-45 degrees, a hand over the cards in a third
    of the scenes: indices named, phantoms, and (Klondike, Canfield) piles reconstructed exactly."""
    from vision.assemble import assemble
    from vision.detections import BACK
    from vision.synth import RenderOptions, render_scene
    from vision.synth.decks import DeckSplit, deck_names
    from vision.synth.truth import visible_face_down, visible_piles

    decks = deck_names(DeckSplit.UNSEEN)
    seen = named = phantoms = dets_total = cls_total = cls_right = 0
    piles_total = piles_exact = scenes_assembled = scenes_exact = down_total = down_exact = 0
    per_deck: dict[str, list[int]] = {d: [0, 0] for d in decks}
    per_game: dict[str, list[int]] = {}
    confusions: Counter[tuple[str, str]] = Counter()
    t0 = time.time()
    for k in range(scenes):
        game = UNSEEN_GAMES[k % len(UNSEEN_GAMES)]
        deck = decks[k % len(decks)]
        tilt = (0.0, 25.0, 45.0)[(k // len(UNSEEN_GAMES)) % 3]
        piles = _positions(game, seed + k)
        image, truth = render_scene(game, piles, deck=deck, seed=seed + k,
                                    options=RenderOptions(max_tilt=tilt, hand_probability=0.33, close_up=close_up))
        found = recognise(image, rec)
        dets = found[found.class_id < BACK]
        centres = dets.centres
        # the classifier alone, on the true index boxes (what a perfect detector would hand it)
        tboxes, tnames = [], []
        for c in truth.cards:
            for ix in c.indices if c.face_up and c.card else ():
                if ix.hidden <= 0.25:
                    q = np.array(ix.image)
                    tboxes.append([*q.min(0), *q.max(0)])
                    tnames.append(c.card)
        if tboxes:
            probs = classify_boxes(image, np.array(tboxes, np.float32), rec)
            cls_total += len(tnames)
            cls_right += sum(NAMES[int(p[:52].argmax())] == n for p, n in zip(probs, tnames, strict=True))
        good = np.zeros(len(dets), bool)  # on an index (any part hidden) of the card it names
        game_row = per_game.setdefault(game, [0, 0])
        for c in truth.cards:
            if not (c.face_up and c.card):
                continue
            for ix in c.indices:
                q = np.array(ix.image)
                (x0, y0), (x1, y1) = q.min(0) - 3, q.max(0) + 3
                inside = (centres[:, 0] >= x0) & (centres[:, 0] <= x1)
                inside &= (centres[:, 1] >= y0) & (centres[:, 1] <= y1)
                hit = inside & (dets.class_id == class_of(c.card))
                good |= hit
                if ix.hidden > 0.25:
                    continue
                seen += 1
                per_deck[deck][1] += 1
                game_row[1] += 1
                if hit.any():
                    named += 1
                    per_deck[deck][0] += 1
                    game_row[0] += 1
                elif inside.any():
                    confusions[(c.card, dets.names[int(np.argmax(inside))])] += 1
        phantoms += int(np.sum(~good))  # a read on no index of the card it names: wrong name or nothing there
        dets_total += len(dets)
        if game not in ASSEMBLED:
            continue
        observation = assemble(found, game)
        observed = observation.names()
        want = visible_piles(truth)
        want_down = visible_face_down(truth)
        all_exact = True
        for pile in observed:
            piles_total += 1
            down_total += 1
            cards_ok = observed[pile] == want.get(pile, [])
            down_ok = observation.face_down.get(pile, 0) == want_down.get(pile, 0)
            piles_exact += cards_ok and down_ok
            down_exact += down_ok
            all_exact &= cards_ok and down_ok
        scenes_assembled += 1
        scenes_exact += all_exact
    return {
        "scenes": scenes,
        "seconds": round(time.time() - t0),
        "indices_visible": seen,
        "named_correctly": named / max(seen, 1),
        "classifier_on_true_boxes": cls_right / max(cls_total, 1),
        "phantom_rate": phantoms / max(dets_total, 1),
        "piles_exact (cards, order, face-down count)": piles_exact / max(piles_total, 1),
        "face_down_counts_exact": down_exact / max(down_total, 1),
        "scenes_all_piles_exact (klondike, canfield)": f"{scenes_exact}/{scenes_assembled}",
        "per_game_named": {g: round(a / max(b, 1), 3) for g, (a, b) in per_game.items()},
        "per_deck": {d: round(a / max(b, 1), 3) for d, (a, b) in per_deck.items()},
        "top_confusions": confusions.most_common(10),
    }


# ---------------------------------------------------------------- speed


def bench_speed(rec: Recogniser, repeats: int = 7) -> dict[str, float]:
    from vision.synth import render_scene

    out = {}
    for w, h in ((1920, 1080), (1280, 720)):
        image, _ = render_scene("klondike", _positions("klondike", 5), deck="paris", seed=5, size=(w, h))
        recognise(image, rec)
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            recognise(image, rec)
            times.append((time.perf_counter() - t) * 1000)
        out[f"{w}x{h}_ms"] = round(statistics.median(times), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=("crops", "real", "unseen", "speed"))
    ap.add_argument("--scenes", type=int, default=24)
    ap.add_argument("--models", help="model folder (default: models/)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--close-up", type=float, default=0.0, help="unseen: share of cameras close to the cards")
    ap.add_argument("--extra-widths", default="", help="further detector passes, e.g. 320 (comma-separated)")
    a = ap.parse_args()
    rec = load_recogniser(a.models, threads=a.threads)
    if a.extra_widths:
        rec = replace(rec, extra_widths=tuple(int(w) for w in a.extra_widths.split(",")))
    if a.only in (None, "crops") and REAL.exists():
        print("real crops:", bench_crops(rec), flush=True)
    if a.only in (None, "real") and REAL.exists():
        print("real photos:", bench_real(rec), flush=True)
    if a.only in (None, "unseen"):
        print("unseen decks:", bench_unseen(rec, a.scenes, close_up=a.close_up), flush=True)
    if a.only in (None, "speed"):
        print("speed:", bench_speed(rec), flush=True)


if __name__ == "__main__":
    main()
