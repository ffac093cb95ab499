"""Enrolling a deck from one photo, and reading its indices by their nearest enrolled prototypes.

``enrol_image`` runs the recogniser's detector and classifier on a photo of the whole deck laid out in order
(see ``calibration.spread`` for the layout and why it is the layout, not the classifier, that names the cards),
and keeps, for each card, the classifier's ``embedding`` output of its index crops, each both ways up.
``load_recogniser(..., deck=...)`` then makes ``recognise`` combine the classifier with these prototypes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from calibration.deck import NOT_AN_INDEX, DeckProfile, EnrolmentError, Probe, fit_probe, normalise
from calibration.spread import SpreadError, find_grid
from vision.cards import NAMES, TURN_TWIN_RANKS, class_of
from vision.crops import square_crop
from vision.model import ModelError, OnnxModel

if TYPE_CHECKING:
    from vision.recognise import Recogniser

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
CLS_IN = 40
CLS_SPAN = 1.25
# Views stored per index crop (each also turned 180 degrees), chosen on bench/enrol.py: turns and framing
# cover a card laid a little askew and the detector's loose boxes; the blurred copy, a game photographed
# from farther or less sharply than the enrolment photo (+3 to +5 points over sharp views only).
ANGLES = (-12.0, 0.0, 12.0)
SCALES = (0.9, 1.1)
BLURS = (0.0, 1.0)
MIN_FOUND = 0.2  # the weighted detector score (share of the best) a candidate needs to take part in the grid
MAX_NEGATIVES = 256  # non-index crops kept from an enrolment photo (each both ways up)
INDEX_AT_DETECTOR = 16.0  # px: an index's box side in the detector's input in a 1280 x 720 game render
# The probe (calibration.deck.Probe): jittered views per enrolled crop (each also turned 180 degrees) and per
# non-index crop, and its L2 penalty; chosen on bench.enrol selection renders (notes: enr7)
PROBE_VIEWS = 16
PROBE_NEGATIVE_VIEWS = 4
PROBE_L2 = 1e-3
# A deck whose own index views the classifier names this well needs no correction: on selection renders the
# probe helped the decks read at 0.50-0.55 (penguins, ancient egyptians: named +1.5-3.4 points, phantoms -1.7
# to -4.7) and cost the ones read at 0.67-0.87 (jolly royal, standard, nicu white: phantoms +0.2-1.2). The
# session 13 classifier reads penguins' and egyptians' photos at 0.6-0.9: at 0.75 penguins' photo 11 gets its
# probe again (named 0.556 -> 0.571, phantoms 0.180 -> 0.148), at 0.9 egyptians' costs phantoms (BENCHMARKS.md)
PROBE_BELOW = 0.75


def fingerprint(model: OnnxModel) -> str:
    """The classifier file's identity: embeddings are only comparable within one model."""
    return "sha256:" + hashlib.sha256(Path(model.path).read_bytes()).hexdigest()[:16]


def crops_of(frame: U8, boxes: F32) -> F32:
    """NCHW float crops of the boxes, as the classifier takes them (square, 1.25 x the longer side)."""
    crops = np.stack(
        [
            square_crop(frame, float(x0 + x1) / 2, float(y0 + y1) / 2, CLS_SPAN * float(max(x1 - x0, y1 - y0)), CLS_IN)
            for x0, y0, x1, y1 in boxes
        ]
    )
    out: F32 = np.ascontiguousarray(crops.transpose(0, 3, 1, 2).astype(np.float32))
    return out


def turned_crops(
    frame: U8, boxes: F32, angles: tuple[float, ...], scales: tuple[float, ...], blurs: tuple[float, ...] = (0.0,)
) -> F32:
    """Crops of each box turned by each angle (degrees), scaled, blurred (sigma px of the 40 px crop):
    (n * len(angles) * len(scales) * len(blurs), 3, 40, 40).

    Enrolment stores these too, so that an index read a little turned or framed a little differently (the
    photo is not the game) is still near one of its card's prototypes.
    """
    out = []
    for x0, y0, x1, y1 in boxes:
        cx, cy, side = float(x0 + x1) / 2, float(y0 + y1) / 2, CLS_SPAN * float(max(x1 - x0, y1 - y0))
        for a in angles:
            for sc in scales:
                s = CLS_IN / max(side * sc, 1e-3)
                m = np.asarray(cv2.getRotationMatrix2D((cx, cy), a, s), np.float64)
                m[:, 2] += np.array([CLS_IN / 2 - cx, CLS_IN / 2 - cy])
                crop = cv2.warpAffine(
                    frame,
                    m,
                    (CLS_IN, CLS_IN),
                    flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(128, 128, 128),
                )
                for sigma in blurs:
                    out.append(cv2.GaussianBlur(crop, (0, 0), sigma) if sigma > 0 else crop)
    arr: F32 = np.ascontiguousarray(np.stack(out).transpose(0, 3, 1, 2).astype(np.float32))
    return arr


def embed_views(
    frame: U8,
    boxes: F32,
    classifier: OnnxModel,
    angles: tuple[float, ...] = ANGLES,
    scales: tuple[float, ...] = SCALES,
    blurs: tuple[float, ...] = BLURS,
) -> F32:
    """Unit embeddings of every turned, scaled and blurred view of each box, both ways up: (n, views * 2, dim)."""
    x = turned_crops(frame, boxes, angles, scales, blurs)
    outs = classifier.run_all(np.concatenate([x, x[:, :, ::-1, ::-1]]))
    if "embedding" not in outs:
        raise ModelError(
            f"model {classifier.path.name} has no 'embedding' output: deck enrolment needs a newer classifier"
        )
    n, v = len(boxes), len(angles) * len(scales) * len(blurs)
    e = outs["embedding"].reshape(2, n, v, -1).transpose(1, 2, 0, 3).reshape(n, v * 2, -1)
    return normalise(e)


def _turn_proof(card: int) -> bool:
    """Whether a card's index turned 180 degrees is still only that card's: not for a 6 or a 9, whose turned
    rank is the other's (``vision.cards.TURN_TWIN_RANKS``)."""
    return NAMES[card][:-1] not in TURN_TWIN_RANKS


def prototype_rows(views: F32, cards: Sequence[int]) -> tuple[F32, tuple[int, ...]]:
    """The prototype rows (k, dim) of ``embed_views``' output (crops, views, dim) and their cards: every view of
    each crop, but for a 6 or a 9 only the views as photographed (a turned one would be the other card's)."""
    n, v2, dim = views.shape
    pairs = views.reshape(n, v2 // 2, 2, dim)
    rows: list[F32] = []
    labels: list[int] = []
    for crop, card in zip(pairs, cards, strict=True):
        kept = crop.reshape(-1, dim) if _turn_proof(card) else crop[:, 0]
        rows.append(kept)
        labels += [card] * len(kept)
    out: F32 = np.ascontiguousarray(np.concatenate(rows) if rows else np.zeros((0, dim), np.float32), np.float32)
    return out, tuple(labels)


def classify_and_embed(frame: U8, boxes: F32, classifier: OnnxModel) -> tuple[F32, F32]:
    """Softmax (n, 53) averaged over both ways up, and unit embeddings (n, 2, dim): [crop, crop turned]."""
    probs, emb = _both_ways(crops_of(frame, boxes), classifier)
    return probs, normalise(emb.reshape(2, len(boxes), -1).transpose(1, 0, 2))


def _both_ways(x: F32, classifier: OnnxModel) -> tuple[F32, F32]:
    """The classifier on model inputs ``x`` (n, 3, h, w) and on them turned 180 degrees: softmax (n, 53)
    averaged over both ways up, and the raw embeddings (2n, dim), the crops first, then the turned ones."""
    outs = classifier.run_all(np.concatenate([x, x[:, :, ::-1, ::-1]]))
    if "embedding" not in outs:
        raise ModelError(
            f"model {classifier.path.name} has no 'embedding' output: deck enrolment needs a newer classifier"
        )
    logits = next(v for k, v in outs.items() if k != "embedding")
    e = np.exp(logits - logits.max(1, keepdims=True))
    p = e / e.sum(1, keepdims=True)
    n = len(x)
    probs: F32 = ((p[:n] + p[n:]) / 2).astype(np.float32)
    return probs, outs["embedding"]


def check_deck(deck: DeckProfile, classifier: OnnxModel, where: str = "the deck profile") -> None:
    """Refuse prototypes made by another classifier (their embeddings would be compared with nonsense)."""
    if deck.model != fingerprint(classifier):
        raise ModelError(
            f"{where} was enrolled with another classifier model ({deck.model}, now {fingerprint(classifier)}):"
            " run `cadogan calibrate deck` again"
        )


@dataclass(frozen=True, slots=True)
class Enrolment:
    deck: DeckProfile
    missing: list[str]  # names of the cards whose place held no index found
    boxes: F32  # (k, 4) the index boxes the prototypes were cut from
    cards: tuple[int, ...]  # the card class of each box


def _looks(
    image: U8, rec: Recogniser, source: str, *, first_only: bool = False
) -> list[tuple[F32, npt.NDArray[np.float64]]]:
    """Index candidates (boxes, weight = detector score x not "not an index") of each look at the photo: the
    detector at a game's scale first when that differs from the photo's, then at the photo's scale
    (``first_only``: the first look alone)."""
    from vision.recognise import detect_indices

    boxes, det_score = detect_indices(image, rec)
    if len(boxes) == 0:
        raise EnrolmentError(f"{source or 'the photo'}: no cards found")
    found = [(boxes, det_score)]
    # A photo of the whole deck shows indices smaller than a game does; the detector frames small indices
    # differently (looser), and prototypes must be framed as the game's crops will be. Look again with the
    # detector's input scaled so that indices reach it at the size of a game's (measured: +10 points of
    # right matches end to end on kde_ancient_egyptians).
    strong = det_score >= 0.5 * float(det_score.max())
    side = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])[strong]))
    width = int(image.shape[1])
    det_width = int(np.clip(round(INDEX_AT_DETECTOR * width / max(side, 1.0) / 16) * 16, rec.det_width, width))
    if det_width > rec.det_width * 1.15:
        scaled = detect_indices(image, replace(rec, det_width=det_width))
        if len(scaled[0]):
            found.insert(0, scaled)
    looks = []
    for b, score in found[:1] if first_only else found:
        probs, _ = classify_and_embed(image, b, rec.classifier)
        looks.append((b, np.asarray(score, np.float64) * (1.0 - probs[:, len(NAMES)])))
    return looks


def enrol_image(image: U8, rec: Recogniser, *, source: str = "") -> Enrolment:
    """The deck's prototypes from a photo of all 52 cards laid out in order, and the names of cards not found.

    The detector looks twice, at the photo's scale and scaled so that indices reach it at a game's size (the
    framing prototypes should have); the look whose rows explain more of the 52 places wins (a stray band of
    pips read as indices shifts a whole look's rows).
    """
    best: Enrolment | None = None
    failure: EnrolmentError | None = None
    for boxes, weight in _looks(image, rec, source):
        try:
            found = _enrol_look(image, rec, source, boxes, weight)
        except EnrolmentError as error:
            failure = failure or error
            continue
        if best is None or len(found.missing) < len(best.missing):
            best = found
        if not best.missing:
            break
    if best is None:
        raise failure or EnrolmentError(f"{source or 'the photo'}: no cards found")
    return best


def _enrol_look(image: U8, rec: Recogniser, source: str, boxes: F32, weight: npt.NDArray[np.float64]) -> Enrolment:
    classifier = rec.classifier
    keep = weight >= MIN_FOUND * float(np.max(weight))
    if keep.sum() < 2:
        raise EnrolmentError(f"{source or 'the photo'}: no cards found")
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    size = float(np.median(sides[keep]))
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    idx = np.nonzero(keep)[0]
    try:
        grid = find_grid(centres[idx], weight[idx], size)
    except SpreadError as error:
        raise EnrolmentError(f"{source or 'the photo'}: {error}") from None
    # A stray band (a row of pips read as indices) shifts every later card by a row: refuse a grid with more
    # rows than 52 cards need at its width (one fewer is fine: the last row's cards then count as missing).
    need = -(-len(NAMES) // grid.cols)
    if grid.rows > need or any(cell.order >= len(NAMES) for cell in grid.cells):
        raise EnrolmentError(
            f"{source or 'the photo'}: found {grid.rows} rows of {grid.cols} places, but 52 cards in rows of"
            f" {grid.cols} make {need}: lay the cards in straight, full rows in order (see --help)"
        )
    labels: list[int] = []
    chosen: list[int] = []
    for cell in grid.cells:
        for m in cell.members:
            labels.append(cell.order)
            chosen.append(int(idx[m]))
    if not labels:
        raise EnrolmentError(f"{source or 'the photo'}: no cards found")
    rows, row_labels = prototype_rows(embed_views(image, boxes[chosen], classifier), labels)
    found = set(labels)
    if len(found) < 13:  # a few stray "cells" of some other picture: not an enrolment photo
        raise EnrolmentError(
            f"{source or 'the photo'}: only {len(found)} cards found in rows: photograph the whole deck laid out"
            " face up in rows, in order (see `cadogan calibrate deck --help`)"
        )
    missing = [NAMES[k] for k in range(len(NAMES)) if k not in found]
    negative_boxes, negatives = _negatives(image, boxes, chosen, classifier)
    deck = DeckProfile(
        row_labels,
        rows,
        fingerprint(classifier),
        source=source,
        negatives=negatives,
    )
    probe = probe_of([(image, boxes[chosen], labels, negative_boxes)], classifier)
    named = classifier_named([(image, boxes[chosen], labels)], classifier)
    return Enrolment(replace(deck, probe=probe, classifier_named=named), missing, boxes[chosen], tuple(labels))


def classifier_named(photos: list[tuple[U8, F32, list[int]]], classifier: OnnxModel) -> float:
    """The share of the enrolled index crops (photo, boxes, their cards) that the classifier alone names right,
    as recognition reads a crop (both ways up; "not an index" is not a name)."""
    right = total = 0
    for image, boxes, cards in photos:
        if len(boxes):
            probs, _ = classify_and_embed(image, boxes, classifier)
            right += int(np.sum(probs.argmax(1) == np.asarray(cards)))
            total += len(boxes)
    return right / total if total else 0.0


def negatives_of(image: U8, boxes: F32, chosen: list[int], classifier: OnnxModel) -> F32:
    """Embeddings (both ways up) of the photo's candidates that are not indices: away from every enrolled
    index and called "not an index" by the classifier (this deck's pips, court pictures, frames; the
    strongest ``MAX_NEGATIVES``). Recognition drops a read nearer to one of them than to every card."""
    return _negatives(image, boxes, chosen, classifier)[1]


def _negatives(image: U8, boxes: F32, chosen: list[int], classifier: OnnxModel) -> tuple[F32, F32]:
    """The boxes of ``negatives_of`` (k, 4) and their embeddings both ways up (k * 2, dim)."""
    if len(boxes) == 0:
        return np.zeros((0, 4), np.float32), np.zeros((0, 0), np.float32)
    probs, emb = classify_and_embed(image, boxes, classifier)
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    if chosen:
        away = np.linalg.norm(centres[:, None] - centres[chosen][None], axis=2).min(1) > sides
    else:
        away = np.ones(len(boxes), bool)
    not_index = probs[:, len(NAMES)]
    pick = np.nonzero(away & (not_index >= 0.5))[0]
    pick = pick[np.argsort(-not_index[pick], kind="stable")][:MAX_NEGATIVES]
    out: F32 = np.ascontiguousarray(emb[pick].reshape(-1, emb.shape[-1]), np.float32)
    return np.asarray(boxes[pick], np.float32).reshape(-1, 4), out


def _corner_pair(boxes: F32, weight: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The card's two indices in a photo of one card: the strongest pair of candidates at least three index
    sizes apart (opposite corners; a pip or a court figure beside an index is closer), else the best one."""
    top = np.argsort(-weight)[:12]
    top = top[weight[top] >= 0.3 * float(weight.max())]
    centres = (boxes[top, :2] + boxes[top, 2:]) / 2
    side = float(np.median(np.maximum(boxes[top, 2] - boxes[top, 0], boxes[top, 3] - boxes[top, 1])))
    best: tuple[float, list[int]] = (float(weight[top[0]]), [int(top[0])])
    for a in range(len(top)):
        for b in range(a + 1, len(top)):
            if np.linalg.norm(centres[a] - centres[b]) >= 3 * side:
                score = float(weight[top[a]] + weight[top[b]])
                if score > best[0]:
                    best = (score, [int(top[a]), int(top[b])])
    return np.array(best[1], np.int64)


def enrol_cards(photos: list[tuple[str, U8]], rec: Recogniser, *, source: str = "") -> Enrolment:
    """The deck's prototypes from one photo per card, each named by its card (``AS``, ``10H``...).

    In each photo the (up to two) strongest index candidates are taken as the card's indices: the photo
    shows one card, so nothing else there should look as much like an index.
    """
    labels: list[int] = []
    rows: list[F32] = []
    crops: list[F32] = []
    crop_cards: list[int] = []
    negatives: list[F32] = []
    seen: list[tuple[U8, F32, list[int], F32]] = []
    for name, image in photos:
        try:
            card = class_of(name)
        except (KeyError, IndexError):
            raise EnrolmentError(
                f"{name}: not a card name (name each photo by its card: AS.jpg, 10H.png, QC.jpg...)"
            ) from None
        boxes, weight = _looks(image, rec, name, first_only=True)[0]
        best = _corner_pair(boxes, weight)
        card_rows, card_labels = prototype_rows(embed_views(image, boxes[best], rec.classifier), [card] * len(best))
        rows.append(card_rows)
        labels += card_labels
        crops += [boxes[int(b)] for b in best]
        crop_cards += [card] * len(best)
        negative_boxes, negative_rows = _negatives(image, boxes, [int(b) for b in best], rec.classifier)
        negatives.append(negative_rows)
        seen.append((image, boxes[best], [card] * len(best), negative_boxes[:4]))
    if not labels:
        raise EnrolmentError(f"{source or 'the photos'}: no cards found")
    found = set(labels)
    missing = [NAMES[k] for k in range(len(NAMES)) if k not in found]
    kept = [n for n in negatives if len(n)]
    # one card a photo: the first MAX_NEGATIVES * 2 rows (both ways up) over all photos
    negative_rows = np.concatenate(kept)[: MAX_NEGATIVES * 2] if kept else np.zeros((0, 0), np.float32)
    deck = DeckProfile(
        tuple(labels),
        np.concatenate(rows).astype(np.float32),
        fingerprint(rec.classifier),
        source=source,
        negatives=negative_rows.astype(np.float32),
    )
    named = classifier_named([(image, boxes, cards) for image, boxes, cards, _ in seen], rec.classifier)
    deck = replace(deck, probe=probe_of(seen, rec.classifier), classifier_named=named)
    return Enrolment(deck, missing, np.array(crops, np.float32).reshape(-1, 4), tuple(crop_cards))


@dataclass(frozen=True, slots=True)
class Jitter:
    """How far the probe's training views of a crop stray from it (uniform ranges, both ways about 0 or 1)."""

    # the views' side x the enrolled box's: the detector frames the photo's small indices tight (0.63-0.90 of
    # the true side on selection renders, a game's 0.83-0.96)
    grow: float = 1.3
    angle: float = 12.0  # degrees
    scale: float = 0.15  # x the crop's side, either way
    shift: float = 0.12  # x the crop's side
    blur: float = 1.5  # sigma px of the 40 px crop, at most
    gain: float = 0.25  # brightness x (1 +- gain)
    colour: float = 0.1  # per channel x (1 +- colour)
    noise: float = 6.0  # grey levels, sd at most
    jpeg: float = 0.5  # share of views passed through JPEG (quality 30-90)


def jittered_crops(frame: U8, boxes: F32, views: int, rng: np.random.Generator, jitter: Jitter = Jitter()) -> U8:
    """``views`` randomly jittered 40 px crops of each box (n * views, 40, 40, 3): turned, scaled, shifted,
    blurred, lit and coloured differently, noisy, JPEG-compressed; the probe learns this deck from them."""
    out = []
    for x0, y0, x1, y1 in boxes:
        side0 = CLS_SPAN * jitter.grow * float(max(x1 - x0, y1 - y0))
        for _ in range(views):
            side = side0 * (1 + rng.uniform(-jitter.scale, jitter.scale))
            cx = float(x0 + x1) / 2 + rng.uniform(-jitter.shift, jitter.shift) * side0
            cy = float(y0 + y1) / 2 + rng.uniform(-jitter.shift, jitter.shift) * side0
            s = CLS_IN / max(side, 1e-3)
            m = np.asarray(cv2.getRotationMatrix2D((cx, cy), rng.uniform(-jitter.angle, jitter.angle), s), np.float64)
            m[:, 2] += np.array([CLS_IN / 2 - cx, CLS_IN / 2 - cy])
            warped = cv2.warpAffine(
                frame,
                m,
                (CLS_IN, CLS_IN),
                flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=(128, 128, 128),
            )
            out.append(_relit(np.asarray(warped, np.float32), rng, jitter))
    return np.stack(out) if out else np.zeros((0, CLS_IN, CLS_IN, 3), np.uint8)


def _relit(crop: F32, rng: np.random.Generator, jitter: Jitter) -> U8:
    """One crop blurred, lit, coloured, noisy and perhaps JPEG-compressed at random."""
    sigma = rng.uniform(0, jitter.blur)
    if sigma > 0.3:
        crop = np.asarray(cv2.GaussianBlur(crop, (0, 0), sigma), np.float32)
    crop = crop * np.float32(1 + rng.uniform(-jitter.gain, jitter.gain))
    crop = crop * (1 + rng.uniform(-jitter.colour, jitter.colour, 3)).astype(np.float32)
    crop = crop + rng.normal(0, rng.uniform(0, jitter.noise), crop.shape).astype(np.float32)
    img: U8 = np.clip(crop, 0, 255).astype(np.uint8)
    if rng.random() < jitter.jpeg:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 91))])
        if ok:
            img = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return img


def probe_of(photos: list[tuple[U8, F32, list[int], F32]], classifier: OnnxModel) -> Probe | None:
    """The deck's probe, from (photo, index boxes, their cards, non-index boxes) of each enrolment photo:
    ``PROBE_VIEWS`` jittered views of every index crop and ``PROBE_NEGATIVE_VIEWS`` of every non-index one,
    each both ways up, fitted as a correction to what the classifier says of each view; None when the
    classifier already names at least ``PROBE_BELOW`` of the index views right. Seeded: one photo, one probe."""
    rng = np.random.default_rng(0)
    rows: list[F32] = []
    offsets: list[F32] = []
    classes: list[npt.NDArray[np.int64]] = []
    for image, boxes, cards, negative_boxes in photos:
        for bx, views, cls in (
            (boxes, PROBE_VIEWS, np.asarray(cards, np.int64)),
            (negative_boxes, PROBE_NEGATIVE_VIEWS, np.full(len(negative_boxes), NOT_AN_INDEX, np.int64)),
        ):
            if len(bx):
                emb, logp = _embed_and_judge(jittered_crops(image, bx, views, rng), classifier)
                rows.append(emb)
                offsets.append(logp)
                classes.append(np.tile(np.repeat(cls, views), 2))  # the crops, then them turned
    y, offset = np.concatenate(classes), np.concatenate(offsets)
    index = y < NOT_AN_INDEX
    if not index.any() or float(np.mean(offset[index, :NOT_AN_INDEX].argmax(1) == y[index])) >= PROBE_BELOW:
        return None
    return fit_probe(np.concatenate(rows), y, l2=PROBE_L2, offset=offset)


def _embed_and_judge(crops: U8, classifier: OnnxModel) -> tuple[F32, F32]:
    """Unit embeddings of crops (n, 40, 40, 3) and of them turned 180 degrees (2n, dim), each with the
    classifier's log-probabilities (2n, 53) averaged over both ways up, as recognition sees a crop."""
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2).astype(np.float32))
    probs, emb = _both_ways(x, classifier)
    logp = np.log(np.clip(probs, 1e-9, 1.0)).astype(np.float32)
    return normalise(emb), np.concatenate([logp, logp])
