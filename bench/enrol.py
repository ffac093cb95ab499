"""Deck enrolment: recognition of an unseen deck before vs after enrolling it from one rendered photo.

    python -m bench.enrol                                   # the default deck (kde_penguins), 12 scenes
    python -m bench.enrol --deck kde_ancient_egyptians --scenes 24
    python -m bench.enrol --deck all --scenes 6             # every UNSEEN deck: which one reads worst
    python -m bench.enrol --models DIR                      # other models (same interface)

1. Enrolment photo: all 52 cards laid out face up in reading order (``spread`` layout of the renderer, piles
   p1..p52 = AS..KS, AH..KH, AD..KD, AC..KC), 1920 x 1080, camera tilt <= 10 degrees, no hands; the first
   seed from ``--photo-seed`` on whose photo every card lies upright (within 25 degrees: what the
   instructions ask). Reported: cards found, index crops stored, and how many were labelled right (truth).
2. Test scenes of the same deck: Klondike and Canfield positions (engine deals and random playouts), tilt
   limit 0/25/45 degrees, 1280 x 720, no hands, seeds from 5000 (never the photo's; ``--scene-seed`` for
   others: choose settings on other photo and scene seeds than the reported ones).
   (a) the classifier alone on the true index boxes (hidden <= 25 %): before = the classifier's best card;
       after = the enrolled deck's match (prototypes, with the classifier's probabilities ** weight), or the
       classifier alone for a deck it already names well on the enrolment photo (``prototypes_used`` false:
       ``DeckProfile.needed``);
   (b) end to end (``recognise``): visible indices named correctly (a read of the right card centred in the
       index box) and the phantom rate (reads on no index of the card they name).
   Both also for the enrolled deck without its probe ("after, no probe": prototypes x classifier alone).
   (a) is also given for a small grid of temperature x weight, from the same crops.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from typing import Any

import numpy as np

from calibration.deck import TEMPERATURE, DeckProfile, match_probabilities
from vision.cards import NAMES, class_of
from vision.deckmatch import classify_and_embed, enrol_image
from vision.detections import BACK
from vision.recognise import Recogniser, load_recogniser, recognise

DEFAULT_DECK = "kde_penguins"


def spread_piles(missing: tuple[str, ...] = ()) -> dict[str, list[tuple[str | None, bool]]]:
    """All 52 cards in enrolment order; a missing card leaves its place empty."""
    return {f"p{k}": ([] if n in missing else [(n, True)]) for k, n in enumerate(NAMES, 1)}


def _max_card_angle(truth: Any) -> float:
    worst = 0.0
    for c in truth.cards:
        (x0, y0), (x1, y1) = c.image[0], c.image[1]
        a = float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))
        worst = max(worst, abs((a + 90) % 180 - 90))
    return worst


def _inside(truth: Any, size: tuple[int, int], margin: float = 0.02) -> bool:
    w, h = size
    pts = np.array([p for c in truth.cards for p in c.image])
    return bool(np.all(pts >= [w * margin, h * margin]) and np.all(pts <= [w * (1 - margin), h * (1 - margin)]))


def enrolment_photo(
    deck: str, seed: int, size: tuple[int, int] = (1920, 1080), missing: tuple[str, ...] = ()
) -> tuple[Any, Any, int]:
    """The first photo from ``seed`` on that the instructions would give: every card upright and in the picture
    (the renderer sometimes turns a spread's cards any way, or frames it too tight)."""
    from vision.synth import RenderOptions, render_scene

    opts = RenderOptions(max_tilt=10, hand_probability=0.0, close_up=0.0)
    for s in range(seed, seed + 50):
        image, truth = render_scene("spread", spread_piles(missing), deck=deck, seed=s, size=size, options=opts)
        if _max_card_angle(truth) <= 25 and _inside(truth, size):
            return image, truth, s
    raise RuntimeError("no upright spread in 50 seeds")


def _centre_in(centres: Any, quad: Any, pad: float = 3.0) -> Any:
    q = np.array(quad)
    (x0, y0), (x1, y1) = q.min(0) - pad, q.max(0) + pad
    return (centres[:, 0] >= x0) & (centres[:, 0] <= x1) & (centres[:, 1] >= y0) & (centres[:, 1] <= y1)


def enrolment_quality(boxes: Any, cards: tuple[int, ...], truth: Any) -> dict[str, Any]:
    """How many of the crops enrolment kept lie on an index of the card it labelled them with (render truth)."""
    centres = (np.asarray(boxes)[:, :2] + np.asarray(boxes)[:, 2:]) / 2
    right = np.zeros(len(centres), bool)
    for c in truth.cards:
        for ix in c.indices:
            right |= _centre_in(centres, ix.image, 6.0) & (np.array(cards) == class_of(c.card))
    return {"crops": len(cards), "crops_labelled_right": int(right.sum()), "cards": len(set(cards))}


def scenes(deck: str, n: int, seed: int = 5000) -> list[tuple[Any, Any]]:
    from bench.vision import _positions
    from vision.synth import RenderOptions, render_scene

    out = []
    for k in range(n):
        game = ("klondike", "canfield")[k % 2]
        tilt = (0.0, 25.0, 45.0)[(k // 2) % 3]
        image, truth = render_scene(
            game,
            _positions(game, seed + k),
            deck=deck,
            seed=seed + k,
            options=RenderOptions(max_tilt=tilt, hand_probability=0.0),
        )
        out.append((image, truth))
    return out


def _named(dets: Any, truth: Any) -> tuple[int, int, int, int]:
    """(visible indices, named right, detections, phantoms), as bench.vision counts them (card reads only:
    face-down strips are not reads of a card)."""
    dets = dets[dets.class_id < BACK]
    seen = named = 0
    good = np.zeros(len(dets), bool)
    for c in truth.cards:
        if not (c.face_up and c.card):
            continue
        for ix in c.indices:
            inside = _centre_in(dets.centres, ix.image)
            hit = inside & (dets.class_id == class_of(c.card))
            good |= hit
            if ix.hidden <= 0.25:
                seen += 1
                named += bool(hit.any())
    return seen, named, len(dets), int(np.sum(~good))


def _named_with(probs: Any, emb: Any, want: Any, deck: DeckProfile, weight: float, used: bool) -> int:
    """True boxes named right as recognition with ``deck`` would: its match, or the classifier alone where the
    deck is not ``used`` (``Recogniser.reads_deck``)."""
    p = match_probabilities(probs, emb[:, 0], deck, weight=weight) if used else probs[:, :52]
    return int(np.sum(p.argmax(1) == want))


def bench_deck(
    deck_name: str,
    rec: Recogniser,
    n_scenes: int,
    photo_seed: int,
    temperature: float = TEMPERATURE,
    scene_seed: int = 5000,
    photo_size: tuple[int, int] = (1920, 1080),
) -> dict[str, Any]:
    t0 = time.perf_counter()
    image, truth, used_seed = enrolment_photo(deck_name, photo_seed, photo_size)
    enrolled = enrol_image(image, rec, source=f"{deck_name} spread seed {used_seed}")
    deck = replace(enrolled.deck, temperature=temperature)
    enrol_s = time.perf_counter() - t0
    quality = enrolment_quality(enrolled.boxes, enrolled.cards, truth)
    # the same photo's true index boxes, labelled from the render truth: what a perfect enrolment would store
    ob, on = [], []
    for c in truth.cards:
        for ix in c.indices:
            q = np.array(ix.image)
            ob.append([*q.min(0), *q.max(0)])
            on.append(class_of(c.card))
    from vision.deckmatch import embed_views, prototype_rows

    orows, olabels = prototype_rows(embed_views(image, np.array(ob, np.float32), rec.classifier), on)
    oracle = DeckProfile(olabels, orows, deck.model)
    cls_oracle = 0
    after = replace(rec, deck=deck)
    grid = [(t, w) for t in (0.05, 0.1) for w in (0.0, 0.25, 0.5, 1.0)]
    cls_total = cls_before = 0
    cls_after = dict.fromkeys(grid, 0)
    cls_no_probe = 0
    no_probe = replace(deck, probe=None)
    e2e = {"before": [0, 0, 0, 0], "after": [0, 0, 0, 0], "after, no probe": [0, 0, 0, 0]}
    weights = (0.0, 0.5, 1.0)
    e2e.update({f"after w={w}": [0, 0, 0, 0] for w in weights})
    for img, tr in scenes(deck_name, n_scenes, scene_seed):
        tb, tn = [], []
        for c in tr.cards:
            for ix in c.indices if c.face_up and c.card else ():
                if ix.hidden <= 0.25:
                    q = np.array(ix.image)
                    tb.append([*q.min(0), *q.max(0)])
                    tn.append(class_of(c.card))
        if tb:
            probs, emb = classify_and_embed(img, np.array(tb, np.float32), rec.classifier)
            want = np.array(tn)
            cls_total += len(tn)
            cls_before += int(np.sum(probs[:, :52].argmax(1) == want))
            cls_oracle += int(np.sum(match_probabilities(probs, emb[:, 0], oracle).argmax(1) == want))
            used = after.reads_deck
            cls_no_probe += _named_with(probs, emb, want, no_probe, after.deck_weight, used)
            for t, w in grid:
                cls_after[(t, w)] += _named_with(probs, emb, want, replace(deck, temperature=t), w, used)
        runs = [("before", rec), ("after", after), ("after, no probe", replace(after, deck=no_probe))]
        runs += [(f"after w={w}", replace(after, deck_weight=w)) for w in weights if w != after.deck_weight]
        for key, r in runs:
            counts = _named(recognise(img, r), tr)
            e2e[key] = [a + b for a, b in zip(e2e[key], counts, strict=True)]
    total_s = time.perf_counter() - t0
    return {
        "deck": deck_name,
        "photo_seed": used_seed,
        "scene_seed": scene_seed,
        "enrolment": {
            **quality,
            "missing": enrolled.missing,
            "seconds": round(enrol_s, 1),
            # the classifier alone on the enrolled crops; below the gate the prototypes name the indices
            "classifier_named": deck.classifier_named,
            "prototypes_used": after.reads_deck,
        },
        "scenes": n_scenes,
        "true_boxes": cls_total,
        "a_classifier_true_boxes": {
            "before": round(cls_before / max(cls_total, 1), 4),
            "after": round(cls_after[(deck.temperature, after.deck_weight)] / max(cls_total, 1), 4),
            "after_no_probe": round(cls_no_probe / max(cls_total, 1), 4),
            "after_if_enrolment_were_perfect": round(cls_oracle / max(cls_total, 1), 4),
            "after_by_temperature_weight": {
                f"T={t} w={w}": round(v / max(cls_total, 1), 4) for (t, w), v in cls_after.items()
            },
        },
        "b_end_to_end": {
            k: {
                "visible": v[0],
                "named": round(v[1] / max(v[0], 1), 4),
                "detections": v[2],
                "phantom_rate": round(v[3] / max(v[2], 1), 4),
            }
            for k, v in e2e.items()
            if v[0]
        },
        "seconds": round(total_s, 1),
    }


def main() -> None:
    from engine.errors import CadoganError
    from vision.synth.decks import DeckSplit, deck_names, find_deck

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deck", default=DEFAULT_DECK, help="an UNSEEN deck, several (comma-separated), or 'all'")
    ap.add_argument("--scenes", type=int, default=12)
    ap.add_argument("--photo-seed", type=int, default=1)
    ap.add_argument(
        "--scene-seed", type=int, default=5000, help="first test scene's seed (default 5000: the reported scenes)"
    )
    ap.add_argument("--photo-size", default="1920x1080", help="the enrolment photo's size, WxH (default 1920x1080)")
    ap.add_argument("--models", help="model folder (default: models/)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--weight", type=float, help="Recogniser.deck_weight for 'after' (default: the shipped one)")
    ap.add_argument("--temperature", type=float, default=TEMPERATURE)
    ap.add_argument("--min-similarity", type=float, help="Recogniser.min_similarity (default: the shipped one)")
    ap.add_argument("--min-score", type=float, help="Recogniser.min_class_score (default: the shipped one)")
    ap.add_argument(
        "--sure-similarity",
        type=float,
        help="Recogniser.sure_similarity: a crop the classifier calls no index is kept only this similar to one of "
        "the deck's (default: the shipped one; 0 keeps every crop, above 1 none)",
    )
    ap.add_argument(
        "--other-corner",
        type=float,
        help="Recogniser.other_corner: an unsure read of a read card's other corner kept from this (1: off)",
    )
    a = ap.parse_args()
    rec = load_recogniser(a.models, threads=a.threads)
    if a.other_corner is not None:
        rec = replace(rec, other_corner=a.other_corner)
    if a.min_score is not None:
        rec = replace(rec, min_class_score=a.min_score)
    if a.weight is not None:
        rec = replace(rec, deck_weight=a.weight)
    if a.min_similarity is not None:
        rec = replace(rec, min_similarity=a.min_similarity)
    if a.sure_similarity is not None:
        rec = replace(rec, sure_similarity=a.sure_similarity)
    decks = deck_names(DeckSplit.UNSEEN) if a.deck == "all" else a.deck.split(",")
    for d in decks:
        try:
            find_deck(d)
        except CadoganError as error:
            raise SystemExit(f"bench.enrol: {error}") from None
    for d in decks:
        w, h = (int(v) for v in a.photo_size.lower().split("x"))
        print(bench_deck(d, rec, a.scenes, a.photo_seed, a.temperature, a.scene_seed, (w, h)), flush=True)


if __name__ == "__main__":
    main()
