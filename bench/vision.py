"""Recogniser benchmarks: unseen decks (renders), real photographs (when present), speed.

    python -m bench.vision                       # all three, default sizes
    python -m bench.vision --only crops          # classifier alone on the real photos' labelled boxes
    python -m bench.vision --only unseen --scenes 40
    python -m bench.vision --only unseen --seed 7000 --scenes 120 --decks train   # the same, training decks
    python -m bench.vision --only assembly --scenes 140   # assembly alone, from perfect reads (no models)
    python -m bench.vision --only assembly --phantoms 3   # ... and three spurious reads a scene
    python -m bench.vision --only boxes --scenes 45 --seed 7000   # detector box size / true size, per deck

(i) unseen: renders of the UNSEEN (KDE) decks across every game's positions (deals and random playouts), camera
    tilts 0/25/45 degrees, a hand over the cards in a third of the scenes: share of visible corner indices named
    (a detection of the right card within the index box), phantom rate (detections matching no visible index
    of that card), and piles reconstructed exactly (every game): cards, order and face-down count, per pile
    and per scene, overall and per game. Beside them the issue's own measure, on the table the reads make
    (``CardScore``): visible cards named on the table (and on their own pile), and phantom cards (cards the
    table names that no visible card is, as a share of the cards it names), overall and per deck.
(i') assembly: the same kind of scenes (every game and variant, tilts 0/25/45, hands) read by a perfect reader
    (the render truth as detections: every readable index and face-down strip): ``vision.assemble`` alone.
(ii) real: the 39 labelled webcam photos of /work/shared/realdata/eyeplay-dev (measured, never trained on):
    per image the set of card names predicted vs labelled: recall and precision; and ``crops``: each labelled
    box cut out and classified (the domain gap of the classifier alone).
(iii) speed: median ms from a 1920 x 1080 and a 1280 x 720 frame (a Klondike game, 5 random moves in) to a table:
    recognition, assembly into the game's piles and the table (``NNNxNNN_ms``); recognition alone and
    assembly alone beside it. Run on a quiet machine: the figure is wall time.

``--worst-dir DIR`` also writes the worst photos / scenes with every read drawn on them (green: a card that is
there, red: a phantom or misread, orange outline: a card missed). The real photos may not be copied into the
project: write them outside it (the unseen-deck renders in docs/images/ come from this option).
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
from vision.recognise import CLS_SPAN, Recogniser, classify_boxes, load_recogniser
from vision.upright import Upright

REAL = Path("/work/shared/realdata/eyeplay-dev")
WORST = 6  # pictures written by --worst-dir per test set
RIGHT, WRONG, MISSED = (40, 190, 40), (40, 40, 230), (0, 150, 255)  # BGR


def draw_reads(image: Any, reads: list[tuple[str, Any, bool]], missed: list[tuple[str, Any]], title: str) -> Any:
    """``image`` with each read's box and name (green where right, red where wrong) and each missed card's box
    outlined in orange with its name, a title line on top, scaled to at most 1280 px wide."""
    out = image.copy()
    thick = max(2, out.shape[1] // 700)
    for name, box, right in reads:
        x0, y0, x1, y1 = (int(v) for v in box)
        colour = RIGHT if right else WRONG
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
        cv2.putText(out, name, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, colour, thick)
    for name, box in missed:
        x0, y0, x1, y1 = (int(v) for v in box)
        cv2.rectangle(out, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), MISSED, 1)
        cv2.putText(out, name + "?", (x0, y1 + 14 * thick), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, MISSED, thick)
    if out.shape[1] > 1280:
        out = cv2.resize(out, (1280, round(out.shape[0] * 1280 / out.shape[1])), interpolation=cv2.INTER_AREA)
    cv2.rectangle(out, (0, 0), (out.shape[1], 26), (0, 0, 0), -1)
    cv2.putText(out, title, (6, 19), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1)
    return out


def write_worst(folder: Path | None, prefix: str, pictures: list[tuple[float, str, Any]]) -> None:
    """The ``WORST`` lowest-scoring (score, name, picture) as ``folder/prefix-K-name.jpg``."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for k, (_, name, picture) in enumerate(sorted(pictures, key=lambda p: p[0])[:WORST]):
        cv2.imwrite(str(folder / f"{prefix}-{k + 1}-{name}.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 80])


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


def bench_real(rec: Recogniser, folder: Path = REAL, worst_dir: Path | None = None) -> dict[str, Any]:
    """Per photo: predicted set of card names vs the labelled set."""
    from vision.upright import read_upright

    rows = []
    pictures: list[tuple[float, str, Any]] = []
    tp = fp = fn = 0
    for path, labels in real_images(folder):
        image = cv2.imread(str(path))
        assert image is not None, path
        # the app's reading of a photo, upright (names only are scored here: the layout is no game's)
        reading = read_upright(image, rec, "klondike")
        dets, view = reading.detections, reading.upright
        if not view.identity:
            image = view.view_of(image)
            labels = [(n, _box_in(b, view)) for n, b in labels]
        pred = {n for n in dets.names if n != "back"}
        truth = {n for n, _ in labels}
        t, f, m = len(pred & truth), len(pred - truth), len(truth - pred)
        tp, fp, fn = tp + t, fp + f, fn + m
        rows.append(
            (
                str(path.relative_to(folder)),
                len(truth),
                t / max(len(truth), 1),
                t / max(len(pred), 1),
                sorted(truth - pred),
                sorted(pred - truth),
            )
        )
        if worst_dir is not None:
            reads = [(n, b, n in truth) for n, b in zip(dets.names, dets.boxes, strict=True) if n != "back"]
            missed = [(n, b) for n, b in labels if n not in pred]
            title = f"{rows[-1][0]}: recall {rows[-1][2]:.2f}, precision {rows[-1][3]:.2f}"
            name = str(path.relative_to(folder).with_suffix("")).replace("/", "_")
            pictures.append((rows[-1][2] + rows[-1][3], name, draw_reads(image, reads, missed, title)))
    write_worst(worst_dir, "real", pictures)
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


UNSEEN_GAMES = (
    "klondike",
    "canfield",
    "klondike",
    "canfield",
    "general-sedgewick",
    "the-queens",
    "sly",
    "louis",
    "the-great-thirteen",
)  # Klondike and Canfield twice (the most played), as in earlier figures
ASSEMBLY_GAMES = (
    "klondike",
    "klondike/draw3",
    "canfield",
    "canfield/modern",
    "general-sedgewick",
    "four-seasons",
    "the-queens",
    "sly",
    "louis",
    "the-great-thirteen",
)
VISIBLE = 0.25  # an index (or a back's strip) this little covered can be read


def truth_detections(truth: Any, hidden: float = VISIBLE, backs: bool = True) -> Any:
    """Every readable index, and (``backs``) every visible face-down strip, as a perfect detector sees them."""
    from vision.detections import BACK, Detections
    from vision.synth.truth import back_strips

    boxes, ids = [], []
    for c in truth.cards:
        for ix in c.indices if c.face_up and c.card else ():
            if ix.hidden <= hidden:
                q = np.array(ix.image)
                boxes.append([*q.min(0), *q.max(0)])
                ids.append(class_of(c.card))
    for x0, y0, x1, y1, covered in back_strips(truth, truth.camera.size) if backs else ():
        if covered <= hidden:
            boxes.append([x0, y0, x1, y1])
            ids.append(BACK)
    return Detections.build(boxes, ids, np.ones(len(ids)))


def expected_piles(truth: Any, game: str) -> tuple[dict[str, list[str]], dict[str, int]]:
    """What a perfect reader sees per pile of ``game``'s layout: the cards with a readable index, bottom first (a
    squared packet: its top card), and the face-down cards whose strip shows (a squared packet: 1 if any)."""
    from vision.assemble import LAYOUTS, SQUARE, layout_name
    from vision.synth.truth import visible_face_down, visible_piles

    layout = LAYOUTS[layout_name(game)]
    cards, down = visible_piles(truth), visible_face_down(truth)
    return (
        {p: cards.get(p, [])[-1:] if slot.style == SQUARE else cards.get(p, []) for p, slot in layout.items()},
        {p: down.get(p, 0) for p in layout},
    )


class CardScore:
    """The issue's own measure, on the table the user gets (the assembled observation, not the detector's reads):
    each visible card (a face-up card with a readable index) named somewhere on the table, and named on its own
    pile; a phantom card is a card the table names that no visible card is (a misread, or a card seen where none
    shows). Counted as multisets, so a two-pack game's twins count twice."""

    def __init__(self) -> None:
        self.visible = self.named = self.on_pile = self.told = self.phantoms = 0

    def add(self, game: str, observation: Any, truth: Any) -> None:
        want, _ = expected_piles(truth, game)
        got = {p: [n for n in names if n in NAMES] for p, names in observation.names().items()}
        unplaced = [c.name for c in observation.unplaced if c.name in NAMES]
        visible = Counter(n for names in want.values() for n in names)
        told = Counter(n for names in got.values() for n in names) + Counter(unplaced)
        self.visible += sum(visible.values())
        self.told += sum(told.values())
        self.named += sum((visible & told).values())
        self.phantoms += sum((told - visible).values())
        self.on_pile += sum(sum((Counter(want[p]) & Counter(got.get(p, []))).values()) for p in want)

    def report(self) -> dict[str, Any]:
        return {
            "cards_visible": self.visible,
            "cards_named (on the table)": round(self.named / max(self.visible, 1), 4),
            "cards_named_on_their_pile": round(self.on_pile / max(self.visible, 1), 4),
            "phantom_cards (share of the cards the table names)": round(self.phantoms / max(self.told, 1), 4),
        }


class PileScore:
    """Piles reconstructed exactly (cards, order, face-down count), per pile and per scene, overall and per game."""

    def __init__(self) -> None:
        self.piles = self.exact = self.down_exact = self.scenes = self.scenes_exact = 0
        self.per_game: dict[str, list[int]] = {}  # game -> [scenes exact, scenes, piles exact, piles]
        self.wrong: Counter[str] = Counter()  # pile role (letters of its id) -> piles not exact

    def add(self, game: str, observation: Any, truth: Any) -> bool:
        want, want_down = expected_piles(truth, game)
        row = self.per_game.setdefault(game, [0, 0, 0, 0])
        all_exact = True
        for pile, cards in observation.names().items():
            down_ok = observation.face_down.get(pile, 0) == want_down[pile]
            ok = cards == want[pile] and down_ok
            self.piles += 1
            self.exact += ok
            self.down_exact += down_ok
            row[2] += ok
            row[3] += 1
            all_exact &= ok
            if not ok:
                self.wrong[pile.rstrip("0123456789")] += 1
        self.scenes += 1
        self.scenes_exact += all_exact
        row[0] += all_exact
        row[1] += 1
        return all_exact

    def report(self) -> dict[str, Any]:
        return {
            "piles_exact (cards, order, face-down count)": round(self.exact / max(self.piles, 1), 4),
            "face_down_counts_exact": round(self.down_exact / max(self.piles, 1), 4),
            "scenes_all_piles_exact": f"{self.scenes_exact}/{self.scenes}",
            "per_game (scenes exact, piles exact)": {
                g: (f"{a}/{b}", round(c / max(d, 1), 3)) for g, (a, b, c, d) in self.per_game.items()
            },
            "wrong_piles_by_role": dict(self.wrong.most_common()),
        }


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


def bench_unseen(
    rec: Recogniser,
    scenes: int = 24,
    seed: int = 1000,
    close_up: float = 0.0,
    worst_dir: Path | None = None,
    split: str = "unseen",
    roll: float = 0.0,
) -> dict[str, Any]:
    """Renders of the UNSEEN decks across every game, tilts 0-45 degrees, a hand over the cards in a third
    of the scenes: indices named, phantoms, and piles reconstructed exactly. ``split`` "train": the same
    scenes dealt from the named training decks instead (what a change costs the decks the models know).
    ``roll``: the share of cameras turned any way about their axis (0: the usual cameras, level within a few
    degrees). Each scene is read as the app reads a frame (``vision.upright.read_upright``), and scored in the
    view it was read in."""
    from vision.detections import BACK
    from vision.synth import RenderOptions, render_scene
    from vision.synth.decks import DeckSplit, deck_names
    from vision.upright import read_upright

    decks = deck_names(DeckSplit.UNSEEN if split == "unseen" else DeckSplit.TRAIN)
    decks = [d for d in decks if not d.startswith("procedural")]
    seen = named = phantoms = dets_total = cls_total = cls_right = 0
    pile_score = PileScore()
    card_score = CardScore()
    per_deck: dict[str, list[int]] = {d: [0, 0] for d in decks}
    per_deck_cards: dict[str, CardScore] = {d: CardScore() for d in decks}
    per_game: dict[str, list[int]] = {}
    confusions: Counter[tuple[str, str]] = Counter()
    pictures: list[tuple[float, str, Any]] = []
    turned = 0
    t0 = time.time()
    for k in range(scenes):
        game = UNSEEN_GAMES[k % len(UNSEEN_GAMES)]
        deck = decks[k % len(decks)]
        tilt = (0.0, 25.0, 45.0)[(k // len(UNSEEN_GAMES)) % 3]
        piles = _positions(game, seed + k)
        image, truth = render_scene(
            game,
            piles,
            deck=deck,
            seed=seed + k,
            options=RenderOptions(max_tilt=tilt, hand_probability=0.33, close_up=close_up, free_roll=roll),
        )
        reading = read_upright(image, rec, game)
        found, view = reading.detections, reading.upright
        image = view.view_of(image)  # scored in the view the reads were made in
        dets = found[found.class_id < BACK]
        centres = dets.centres
        # the classifier alone, on the true index boxes (what a perfect detector would hand it)
        tboxes, tnames = [], []
        for c in truth.cards:
            for ix in c.indices if c.face_up and c.card else ():
                if ix.hidden <= 0.25:
                    q = view.to_view(ix.image)
                    tboxes.append([*q.min(0), *q.max(0)])
                    tnames.append(c.card)
        if tboxes:
            probs = classify_boxes(image, np.array(tboxes, np.float32), rec)
            cls_total += len(tnames)
            cls_right += sum(NAMES[int(p[:52].argmax())] == n for p, n in zip(probs, tnames, strict=True))
        good = np.zeros(len(dets), bool)  # on an index (any part hidden) of the card it names
        game_row = per_game.setdefault(game, [0, 0])
        scene_seen, scene_named = seen, named
        missed: list[tuple[str, Any]] = []
        for c in truth.cards:
            if not (c.face_up and c.card):
                continue
            for ix in c.indices:
                q = view.to_view(ix.image)
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
                else:
                    missed.append((c.card, (x0 + 3, y0 + 3, x1 - 3, y1 - 3)))
                    if inside.any():
                        confusions[(c.card, dets.names[int(np.argmax(inside))])] += 1
        if worst_dir is not None:
            share = (named - scene_named) / max(seen - scene_seen, 1)
            wrong = int(np.sum(~good))
            reads = [(n, b, bool(g)) for n, b, g in zip(dets.names, dets.boxes, good, strict=True)]
            title = (
                f"{deck}, {game}, seed {seed + k}, tilt {truth.settings['tilt_deg']:.0f}: named {share:.2f}, "
                f"{wrong} wrong of {len(dets)} reads"
            )
            pictures.append(
                (
                    share - wrong / max(len(dets), 1),
                    f"{deck}-{game}-{seed + k}",
                    draw_reads(image, reads, missed, title),
                )
            )
        phantoms += int(np.sum(~good))  # a read on no index of the card it names: wrong name or nothing there
        dets_total += len(dets)
        pile_score.add(game, reading.observation, truth)
        card_score.add(game, reading.observation, truth)
        per_deck_cards[deck].add(game, reading.observation, truth)
        turned += not view.identity
    write_worst(worst_dir, "unseen", pictures)
    return {
        "scenes": scenes,
        "seconds": round(time.time() - t0),
        "indices_visible": seen,
        "named_correctly": named / max(seen, 1),
        "classifier_on_true_boxes": cls_right / max(cls_total, 1),
        "phantom_rate": phantoms / max(dets_total, 1),
        **card_score.report(),
        **pile_score.report(),
        "per_game_named": {g: round(a / max(b, 1), 3) for g, (a, b) in per_game.items()},
        "per_deck": {d: round(a / max(b, 1), 3) for d, (a, b) in per_deck.items()},
        "per_deck_cards (named on the table / phantom cards)": {
            d: (round(score.named / max(score.visible, 1), 3), round(score.phantoms / max(score.told, 1), 3))
            for d, score in per_deck_cards.items()
        },
        "top_confusions": confusions.most_common(10),
        "read_turned": f"{turned}/{scenes}",
    }


def _box_in(box: Any, view: Upright) -> tuple[float, float, float, float]:
    """An (x0, y0, x1, y1) box of the frame, as the level box around it in a turned view."""
    x0, y0, x1, y1 = box
    q = view.to_view([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))


def bench_boxes(rec: Recogniser, scenes: int = 45, seed: int = 7000, split: str = "unseen") -> dict[str, Any]:
    """The detector's own box error (before ``Recogniser.box_scale``): for each visible index (hidden <= 25 %),
    the candidate centred in its box (3 px slack) nearest its centre; its longer side / the true box's longer
    side, and its centre offset / that side: p10 / p50 / p90 per deck and overall, and the share of indices
    with no candidate there. ``split``: "unseen" (the 5 KDE decks) or "train" (the named training decks, no
    procedural ones). Same scene recipe as ``bench_unseen``; choose on seeds other than the test bench's."""
    from vision.recognise import _peaks, detector_maps
    from vision.synth import RenderOptions, render_scene
    from vision.synth.decks import DeckSplit, deck_names

    decks = deck_names(DeckSplit.UNSEEN if split == "unseen" else DeckSplit.TRAIN)
    decks = [d for d in decks if not d.startswith("procedural")]
    ratio: dict[str, list[float]] = {d: [] for d in decks}
    offset: dict[str, list[float]] = {d: [] for d in decks}
    missed = seen = 0
    t0 = time.time()
    for k in range(scenes):
        game = UNSEEN_GAMES[k % len(UNSEEN_GAMES)]
        deck = decks[k % len(decks)]
        tilt = (0.0, 25.0, 45.0)[(k // len(UNSEEN_GAMES)) % 3]
        image, truth = render_scene(
            game,
            _positions(game, seed + k),
            deck=deck,
            seed=seed + k,
            options=RenderOptions(max_tilt=tilt, hand_probability=0.33),
        )
        out, scale, dh = detector_maps(image, rec)
        boxes, _ = _peaks(out, 0, scale, dh, rec.det_threshold, rec.max_candidates)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        for c in truth.cards:
            for ix in c.indices if c.face_up and c.card else ():
                if ix.hidden > 0.25:
                    continue
                seen += 1
                q = np.array(ix.image)
                lo, hi = q.min(0), q.max(0)
                side = float(max(hi - lo))
                inside = np.all((centres >= lo - 3) & (centres <= hi + 3), 1)
                if not inside.any():
                    missed += 1
                    continue
                j = np.nonzero(inside)[0]
                dist = np.linalg.norm(centres[j] - (lo + hi) / 2, axis=1)
                best = j[int(np.argmin(dist))]
                ratio[deck].append(float(max(boxes[best, 2:] - boxes[best, :2])) / side)
                offset[deck].append(float(dist.min()) / side)

    def pct(v: list[float]) -> list[float]:
        return [round(float(x), 2) for x in np.percentile(v, [10, 50, 90])] if v else []

    every_r = [r for d in decks for r in ratio[d]]
    every_o = [o for d in decks for o in offset[d]]
    return {
        "split": split,
        "scenes": scenes,
        "seconds": round(time.time() - t0),
        "indices_visible": seen,
        "no_candidate": round(missed / max(seen, 1), 4),
        "size_ratio_p10_p50_p90": pct(every_r),
        "offset_p50_p90": pct(every_o)[1:],
        "per_deck_size_ratio": {d: pct(ratio[d]) for d in decks if ratio[d]},
    }


def with_phantoms(dets: Any, count: int, rng: np.random.Generator, size: tuple[int, int]) -> Any:
    """``dets`` and ``count`` spurious reads: random card names at random places of the image, index-sized, as
    confident as a real read (a misread in a pattern, a reflection)."""
    from vision.detections import BACK, Detections

    faces = dets[dets.class_id < BACK]
    if count == 0 or len(faces) == 0:
        return dets
    wh = np.median(faces.boxes[:, 2:] - faces.boxes[:, :2], axis=0)
    xy = rng.uniform((0, 0), np.array(size) - wh, (count, 2))
    extra = Detections.build(np.hstack([xy, xy + wh]), rng.integers(0, BACK, count), np.ones(count))
    return Detections.merge([dets, extra])


def bench_assembly(scenes: int = 140, seed: int = 3000, hands: float = 0.33, phantoms: int = 0) -> dict[str, Any]:
    """``vision.assemble`` alone: renders of every game (deals and playouts, tilts 0/25/45 degrees, a hand over the
    cards in a share ``hands`` of the scenes), read by a perfect reader (the truth as detections), plus
    ``phantoms`` spurious reads a scene."""
    from vision.assemble import assemble
    from vision.synth import RenderOptions, render_scene
    from vision.synth.decks import DeckSplit, deck_names

    decks = deck_names(DeckSplit.UNSEEN)
    score = PileScore()
    worst: list[tuple[str, int, float]] = []
    t0 = time.time()
    spent = 0.0
    for k in range(scenes):
        game = ASSEMBLY_GAMES[k % len(ASSEMBLY_GAMES)]
        tilt = (0.0, 25.0, 45.0)[(k // len(ASSEMBLY_GAMES)) % 3]
        _, truth = render_scene(
            game,
            _positions(game, seed + k),
            deck=decks[k % len(decks)],
            seed=seed + k,
            options=RenderOptions(max_tilt=tilt, hand_probability=hands),
        )
        dets = with_phantoms(truth_detections(truth), phantoms, np.random.default_rng(seed + k), truth.camera.size)
        t = time.perf_counter()
        observation = assemble(dets, game)
        spent += time.perf_counter() - t
        if not score.add(game, observation, truth):
            worst.append((game, seed + k, float(truth.settings["tilt_deg"])))
    return {
        "scenes": scenes,
        "phantoms_a_scene": phantoms,
        "seconds": round(time.time() - t0),
        "assemble_ms_per_scene": round(1000 * spent / max(scenes, 1), 1),
        **score.report(),
        "scenes_not_exact (game, seed, tilt)": worst[:12],
    }


# ---------------------------------------------------------------- speed


def bench_speed(rec: Recogniser, repeats: int = 15) -> dict[str, float]:
    """Median ms from a frame to a table, as the app reads one (``vision.upright.read_upright``, then
    ``to_table``); "recognise" is the reads (with the turn off level measured), "assemble" the layout."""
    from vision.assemble import to_table
    from vision.synth import render_scene
    from vision.upright import turned_reads, upright_reading

    out = {}
    for w, h in ((1920, 1080), (1280, 720)):
        image, _ = render_scene("klondike", _positions("klondike", 5), deck="paris", seed=5, size=(w, h))
        to_table(upright_reading(*turned_reads(image, rec), "klondike").observation)
        whole, reading, assembling = [], [], []
        for _ in range(repeats):
            start = time.perf_counter()
            detections, view = turned_reads(image, rec)
            read = time.perf_counter()
            to_table(upright_reading(detections, view, "klondike").observation)
            done = time.perf_counter()
            whole.append((done - start) * 1000)
            reading.append((read - start) * 1000)
            assembling.append((done - read) * 1000)
        out[f"{w}x{h}_ms"] = round(statistics.median(whole), 1)
        out[f"{w}x{h}_recognise_ms"] = round(statistics.median(reading), 1)
        out[f"{w}x{h}_assemble_ms"] = round(statistics.median(assembling), 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=("crops", "real", "unseen", "speed", "assembly", "boxes"))
    ap.add_argument("--scenes", type=int, default=24)
    ap.add_argument("--models", help="model folder (default: models/)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--close-up", type=float, default=0.0, help="unseen: share of cameras close to the cards")
    ap.add_argument("--extra-widths", default="", help="further detector passes, e.g. 320 (comma-separated)")
    ap.add_argument("--hands", type=float, default=0.33, help="assembly: share of scenes with a hand over the cards")
    ap.add_argument("--phantoms", type=int, default=0, help="assembly: spurious reads added to each scene")
    ap.add_argument("--seed", type=int, default=1000, help="unseen: first seed (1000 = test bench; choose on others)")
    ap.add_argument("--second-look", type=float, help="unsure candidates read again grown by this (1: off)")
    ap.add_argument("--second-look-below", type=float, help="... those with 'not an index' below this")
    ap.add_argument("--second-look-score", type=float, help="... kept when the second read has this")
    ap.add_argument("--box-scale", type=float, help="grow the detector's index boxes by this (Recogniser.box_scale)")
    ap.add_argument("--min-class-score", type=float, help="least classifier probability kept (Recogniser)")
    ap.add_argument("--nested", type=float, help="share of a box inside a surer one that drops it (Recogniser)")
    ap.add_argument(
        "--other-corner", type=float, help="an unsure read of a read card's other corner kept from this (Recogniser)"
    )
    ap.add_argument("--other-corner-not-index", type=float, help="... with 'not an index' below this (Recogniser)")
    ap.add_argument("--det-width", type=int, help="the detector's main input width (Recogniser.det_width)")
    ap.add_argument(
        "--roll", type=float, default=0.0, help="unseen: share of cameras turned any way about their axis (0-1)"
    )
    ap.add_argument("--upright", type=int, choices=(0, 1), help="read a turned layout upright (Recogniser.upright)")
    ap.add_argument("--worst-dir", type=Path, help="write the worst photos / scenes with the reads drawn here")
    ap.add_argument(
        "--decks",
        choices=("unseen", "train"),
        default="unseen",
        help="unseen: the scenes' decks (train: the named training decks, to check what a change costs them)",
    )
    a = ap.parse_args()
    if a.only == "assembly":  # perfect reads: no models needed
        print("assembly from perfect reads:", bench_assembly(a.scenes, hands=a.hands, phantoms=a.phantoms), flush=True)
        return
    rec = load_recogniser(a.models, threads=a.threads)
    if a.extra_widths:
        rec = replace(rec, extra_widths=tuple(int(w) for w in a.extra_widths.split(",")))
    # the recogniser settings given on the command line (each option is named after its Recogniser field)
    settings = (
        "second_look",
        "second_look_below",
        "second_look_score",
        "box_scale",
        "min_class_score",
        "nested",
        "other_corner",
        "other_corner_not_index",
        "det_width",
    )
    rec = replace(rec, **{name: getattr(a, name) for name in settings if getattr(a, name) is not None})
    if a.upright is not None:
        rec = replace(rec, upright=bool(a.upright))
    if a.only in (None, "crops") and REAL.exists():
        print("real crops:", bench_crops(rec), flush=True)
    if a.only in (None, "real") and REAL.exists():
        print("real photos:", bench_real(rec, worst_dir=a.worst_dir), flush=True)
    if a.only in (None, "unseen"):
        print(
            "unseen decks:",
            bench_unseen(
                rec, a.scenes, seed=a.seed, close_up=a.close_up, worst_dir=a.worst_dir, split=a.decks, roll=a.roll
            ),
            flush=True,
        )
    if a.only == "boxes":  # the detector's box sizes vs the truth (not part of the default run)
        for split in ("unseen", "train"):
            print("detector boxes:", bench_boxes(rec, a.scenes, seed=a.seed, split=split), flush=True)
    if a.only in (None, "speed"):
        print("speed:", bench_speed(rec), flush=True)


if __name__ == "__main__":
    main()
