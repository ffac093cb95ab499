"""Frame -> corner-index detections: a tiny heatmap detector finds indices, a crop classifier names them.

1. The frame is scaled to 640 px wide (height padded to a multiple of 16) and the detector gives, at stride 4,
   an index-centre heatmap, the box size and a sub-cell offset. Peaks (3 x 3 local maxima) above a threshold
   are candidate indices.
2. Each candidate box is grown by ``Recogniser.box_scale`` (1.0 today: kept for models that draw boxes small), cut
   from the full-resolution frame as a square 1.25 x the box's longer side, scaled to 40 x 40, and classified
   into the 52 cards or "not an index". The classifier saw indices at any rotation (bottom-right indices are
   upside down; real tables are turned any way) and crop boxes as loose as the detector's, so no orientation
   step is needed.
3. A candidate the classifier is unsure of is classified once more from a grown box (``Recogniser.second_look``).
4. A candidate still unkept is kept where a kept read of its best card lies one card's corners away: that card's
   other corner (``Recogniser.other_corner``).

Confidence = sqrt(detector score) x classifier probability; ``data`` keeps both, and the runner-up class.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.deck import DECK_NEEDED_BELOW, DeckProfile, index_similarity, match_probabilities
from vision.cards import NAMES
from vision.corners import (
    CARD_ASPECT,
    CARD_PER_INDEX,
    measured_corner_offset,
    settle_turned_corners,
    usual_corner_offset,
)
from vision.crops import square_crop
from vision.detections import BACK, Detections
from vision.model import CLASSIFIER, DETECTOR, OnnxModel, load_model, models_dir

DET_W = 640
STRIDE = 4
CLS_IN = 40
CLS_SPAN = 1.25  # crop side / the index box's longer side: as in training (models/train.py)
NOT_INDEX = len(NAMES)
U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Recogniser:
    detector: OnnxModel
    classifier: OnnxModel
    det_threshold: float = 0.2  # low: the classifier's "not an index" class rejects what is not
    min_class_score: float = 0.45  # chosen on unseen-deck renders of a selection seed (models/MODEL_CARD.md)
    max_candidates: int = 300
    # face-down strips: no classifier checks them, so the assembly fits the layout only on those scored at least
    # vision.assemble.SURE_BACK (0.35); weaker ones down to this only show the stock's packet (unseen decks' stocks
    # score 0.15-0.35: stocks placed 97 -> 126 of 160, selection seed)
    back_threshold: float = 0.15
    det_width: int = DET_W  # the detector's input width (trained at 640; wider finds smaller indices)
    extra_widths: tuple[int, ...] = (320, 224)  # further detector passes: narrower inputs find larger indices
    turn_too: bool = True  # also classify each crop turned 180 degrees and average (indices come both ways up)
    # the detector's index boxes grown by this about their centres (models before session 5 drew new decks'
    # indices small; today's: median 0.88 of the true side on unseen-deck renders); chosen with min_class_score
    box_scale: float = 1.0
    # A candidate the classifier is unsure of (below ``min_class_score``, or "not an index", where "not an index"
    # has less than ``second_look_below``) is classified again from its box grown by this, and kept if that read
    # names a card with at least ``second_look_score``: the detector draws unseen decks' boxes small (p10 0.72 of
    # the true side), and a crop that cuts the index leaves the classifier guessing (most missed indices of
    # kde_standard). 1 or less: off. All three chosen on the selection seed (models/MODEL_CARD.md, session 14).
    second_look: float = 1.4
    second_look_below: float = 0.3
    second_look_score: float = 0.55
    # A read whose box lies mostly inside a surer one's is the same index read twice (a box on the rank alone
    # inside one on rank and suit, read as another suit of the same rank); 1 or more keeps both.
    nested: float = 0.5  # chosen on the selection seed (models/MODEL_CARD.md, session 10)
    # An enrolled deck (``cadogan calibrate deck``): its prototypes name the indices (see vision/deckmatch.py).
    deck: DeckProfile | None = None
    # the classifier's say next to the prototypes: probs ** weight x prototype match; 0.5 chosen on bench.enrol's
    # selection seeds (photo 11, scenes 6000; BENCHMARKS.md, session 14): fewer phantoms than 1.0, as many named
    deck_weight: float = 0.5
    min_similarity: float = 0.5  # with a deck: the least cosine similarity to a prototype that is an index
    # with a deck: a crop this similar to a prototype is an index whatever the classifier says (it may not know
    # this deck's indices); a less similar one must also not be "not an index" to the classifier
    sure_similarity: float = 0.9  # chosen on bench.enrol renders (BENCHMARKS.md)
    # with a deck the classifier alone named at least this share of at enrolment (``DeckProfile.classifier_named``):
    # the classifier alone reads it (the prototypes would add phantoms for little gain); above 1: always the deck
    deck_needed_below: float = DECK_NEEDED_BELOW
    # An unkept candidate is kept when its best card has at least ``other_corner`` ("not an index" below
    # ``other_corner_not_index``) and a kept read of that card lies one card's corners away: the other corner of a
    # card already read (``other_corners_kept``). Most indices the detector finds but recognition drops are named
    # right, only unsurely (399 of the 862 misses of the selection seed); a card's other corner read sure makes the
    # unsure read likely. 1 or more: off. Both chosen on the selection seed (BENCHMARKS.md, session 18).
    other_corner: float = 0.2
    other_corner_not_index: float = 0.3
    # A layout seen turned (a camera clipped on sideways, a photo from across the table) is read upright
    # (``vision.upright.read_upright``); off, every frame is read as it is.
    upright: bool = True

    @property
    def reads_deck(self) -> bool:
        """Whether the enrolled deck's prototypes name the indices (see ``deck_needed_below``)."""
        return self.deck is not None and self.deck.needed(self.deck_needed_below)


def load_recogniser(
    directory: str | Path | None = None, *, threads: int = 0, deck: DeckProfile | None = None
) -> Recogniser:
    """The two models; with ``deck`` (an enrolled deck, checked against the classifier) its prototypes too."""
    d = Path(directory) if directory is not None else models_dir()
    rec = Recogniser(load_model(d / DETECTOR, threads=threads), load_model(d / CLASSIFIER, threads=threads))
    if deck is not None:
        from vision.deckmatch import check_deck

        check_deck(deck, rec.classifier, deck.source or "the deck profile")
        rec = replace(rec, deck=deck)
    return rec


def deck_probs(frame: U8, boxes: F32, rec: Recogniser) -> tuple[F32, F32, F32]:
    """With an enrolled deck: card probabilities (n, 53): the prototypes' 52, then "not an index" as this deck's
    own indices say it (1.0 where the crop is less like any of them than ``Recogniser.min_similarity``, else 0.0:
    the classifier may not know this deck's indices); the best similarity (n,); and whether the classifier alone
    calls each crop "not an index" (n,: 1.0 or 0.0)."""
    from vision.deckmatch import classify_and_embed

    assert rec.deck is not None
    if len(boxes) == 0:
        return np.zeros((0, NOT_INDEX + 1), np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32)
    probs, emb = classify_and_embed(frame, boxes, rec.classifier)
    sims = index_similarity(emb[:, 0], rec.deck)  # -1 where nearer to a non-index of the enrolment photo
    rejected = (probs[:, NOT_INDEX] > probs[:, :NOT_INDEX].max(1)).astype(np.float32)
    cards = match_probabilities(probs, emb[:, 0], rec.deck, weight=rec.deck_weight)
    not_index = (sims < rec.min_similarity).astype(np.float32)[:, None]
    return np.concatenate([cards, not_index], 1).astype(np.float32), sims, rejected


def _sigmoid(x: F32) -> F32:
    out: F32 = (1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))).astype(np.float32)
    return out


def detector_maps(frame: U8, rec: Recogniser) -> tuple[F32, float, int]:
    """The detector's raw stride-4 maps for a frame (channels: index heat, log w, log h, dx, dy, and with
    newer models face-down strip heat), the frame -> detector-input scale, and the unpadded input height."""
    h, w = frame.shape[:2]
    scale = rec.det_width / w
    dh = round(h * scale)
    small = frame if w == rec.det_width else cv2.resize(frame, (rec.det_width, dh), interpolation=cv2.INTER_AREA)
    ph = (dh + 15) // 16 * 16
    if ph != dh:  # pad with edge pixels: a black band would look like a table edge
        small = cv2.copyMakeBorder(small, 0, ph - dh, 0, 0, cv2.BORDER_REPLICATE)
    x = np.ascontiguousarray(small.transpose(2, 0, 1), np.float32)[None]  # one copy, already NCHW-contiguous
    out: F32 = rec.detector(x)[0]
    return out, scale, dh


def _peaks(out: F32, channel: int, scale: float, dh: int, threshold: float, limit: int) -> tuple[F32, F32]:
    """Boxes (n, 4, frame px) and scores (n,) of the local maxima of one heat channel, best first."""
    heat = _sigmoid(out[channel])
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    ys, xs = np.nonzero(peaks[: (dh + STRIDE - 1) // STRIDE])
    score = heat[ys, xs]
    order = np.argsort(-score)[:limit]
    ys, xs, score = ys[order], xs[order], score[order]
    cx = (xs + _sigmoid(out[3, ys, xs])) * STRIDE / scale
    cy = (ys + _sigmoid(out[4, ys, xs])) * STRIDE / scale
    bw = np.exp(np.clip(out[1, ys, xs], -3, 6)) / scale
    bh = np.exp(np.clip(out[2, ys, xs], -3, 6)) / scale
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1).astype(np.float32)
    return boxes, score.astype(np.float32)


def grow(boxes: F32, k: float) -> F32:
    """Boxes (n, 4) scaled by ``k`` about their centres."""
    if k == 1.0:
        return boxes
    c, half = (boxes[:, :2] + boxes[:, 2:]) / 2, (boxes[:, 2:] - boxes[:, :2]) * (k / 2)
    return np.concatenate([c - half, c + half], 1).astype(np.float32)


def detect_indices(frame: U8, rec: Recogniser) -> tuple[F32, F32]:
    """Candidate index boxes (n, 4, frame px) and detector scores (n,), best first."""
    out, scale, dh = detector_maps(frame, rec)
    boxes, score = _peaks(out, 0, scale, dh, rec.det_threshold, rec.max_candidates)
    return grow(boxes, rec.box_scale), score


def detect_backs(out: F32, scale: float, dh: int, rec: Recogniser) -> Detections:
    """Face-down cards' visible top strips (class BACK) from the detector's maps; none from a detector
    trained before it learnt backs (five channels)."""
    if out.shape[0] < 6:
        return Detections.empty()
    boxes, score = _peaks(out, 5, scale, dh, rec.back_threshold, rec.max_candidates)
    n = len(score)
    dets = Detections.build(
        boxes,
        np.full(n, BACK),
        score,
        {
            "det_score": score,
            "cls_score": np.ones(n, np.float32),
            "second": np.full(n, BACK),
            "second_score": np.zeros(n, np.float32),
        },
    )
    return dets[_nms(dets.boxes, dets.confidence, 0.6)]  # a cascade's strips overlap: only near-twins go


def classify_boxes(frame: U8, boxes: F32, rec: Recogniser) -> F32:
    """Softmax over the 52 cards + "not an index" for each box (axis-aligned, frame px): (n, 53)."""
    if len(boxes) == 0:
        return np.zeros((0, NOT_INDEX + 1), np.float32)
    crops = np.stack(
        [
            square_crop(frame, float(x0 + x1) / 2, float(y0 + y1) / 2, CLS_SPAN * float(max(x1 - x0, y1 - y0)), CLS_IN)
            for x0, y0, x1, y1 in boxes
        ]
    )
    n = len(crops)
    x = np.empty((2 * n if rec.turn_too else n, 3, CLS_IN, CLS_IN), np.float32)  # filled in place: no copies
    x[:n] = crops.transpose(0, 3, 1, 2)
    if rec.turn_too:
        x[n:] = x[:n, :, ::-1, ::-1]
    logits = rec.classifier(x)
    e = np.exp(logits - logits.max(1, keepdims=True))
    probs: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    if rec.turn_too:
        probs = ((probs[: len(crops)] + probs[len(crops) :]) / 2).astype(np.float32)
    return probs


def _nms(boxes: F32, score: F32, iou: float, nested: float = 2.0) -> npt.NDArray[np.int64]:
    """Greedy non-maximum suppression, best first: the indices kept. A box goes when it overlaps a better one by
    more than ``iou``, or when more than ``nested`` of the smaller box lies inside the other (1 or more: never).
    All pairs' overlaps at once (float32, the same arithmetic as one pair at a time), then one pass in score
    order."""
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    a, b = boxes[:, None], boxes[None, :]
    ix = np.clip(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
    iy = np.clip(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0, None)
    inter = ix * iy
    over = inter / (area[:, None] + area[None, :] - inter + 1e-6) > iou
    if nested < 1.0:
        over |= inter / (np.minimum(area[:, None], area[None, :]) + 1e-6) > nested
    keep: list[int] = []
    suppressed = np.zeros(len(boxes), bool)
    for i in np.argsort(-score).tolist():
        if not suppressed[i]:
            keep.append(i)
            suppressed |= over[i]
    return np.array(keep, np.int64)


def _reads(image: U8, boxes: F32, rec: Recogniser) -> tuple[F32, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Each box's card probabilities (the classifier's 53, or with a deck the prototypes' 52), whether
    ``recognise`` keeps the read, and whether an unkept one deserves a second look (see
    ``Recogniser.second_look``)."""
    if rec.reads_deck:  # this deck's own indices say what is an index: the classifier may not know it
        probs, sims, rejected = deck_probs(image, boxes, rec)
        cls_p = probs[:, :NOT_INDEX].max(1)
        keep = (sims >= rec.min_similarity) & (cls_p >= rec.min_class_score)
        keep &= (sims >= rec.sure_similarity) | (rejected == 0)
        unsure = ~keep & (sims > 0)  # (-1: nearer to a non-index of the enrolment photo than to any index)
    else:
        probs = classify_boxes(image, boxes, rec)
        cls_p = probs[:, :NOT_INDEX].max(1)
        keep = (probs[:, NOT_INDEX] < cls_p) & (cls_p >= rec.min_class_score)
        unsure = ~keep & (probs[:, NOT_INDEX] < rec.second_look_below)
    return probs, np.asarray(keep), np.asarray(unsure)


def _second_look(
    image: U8, boxes: F32, probs: F32, keep: npt.NDArray[np.bool_], unsure: npt.NDArray[np.bool_], rec: Recogniser
) -> tuple[F32, F32, npt.NDArray[np.bool_]]:
    """``probs``, ``boxes`` and ``keep`` with each ``unsure`` candidate read again from its box grown by
    ``rec.second_look``, and taken where that read is kept and names a card with ``rec.second_look_score``."""
    picked = np.flatnonzero(unsure)
    if len(picked) == 0:
        return probs, boxes, keep
    grown = grow(boxes[picked], rec.second_look)
    again, again_keep, _ = _reads(image, grown, rec)
    passes = again_keep & (again[:, :NOT_INDEX].max(1) >= rec.second_look_score)
    probs, boxes, keep = probs.copy(), boxes.copy(), keep.copy()
    probs[picked[passes]] = again[passes]
    boxes[picked[passes]] = grown[passes]
    keep[picked[passes]] = True
    return probs, boxes, keep


def other_corners_kept(
    boxes: F32, probs: F32, keep: npt.NDArray[np.bool_], least: float, not_index_below: float
) -> npt.NDArray[np.bool_]:
    """``keep`` with each unkept candidate kept whose best card (named with at least ``least``, and "not an index"
    below ``not_index_below``) is the card of a kept read one card's corners away: the other corner of a card
    already read, never a new card. The corners' offset is the one ``vision.corners`` pairs a card's reads by,
    measured on every two kept reads of a name (``measured_corner_offset``), else the usual deck's."""
    kept, unkept = np.flatnonzero(keep), np.flatnonzero(~keep)
    if len(kept) == 0 or len(unkept) == 0:
        return keep
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    card_h = CARD_PER_INDEX * float(
        np.median(np.maximum(boxes[kept, 2] - boxes[kept, 0], boxes[kept, 3] - boxes[kept, 1]))
    )
    card = probs[:, :NOT_INDEX].argmax(1)
    not_index = probs[:, NOT_INDEX]
    names = [NAMES[c] for c in card[kept]]
    offset = measured_corner_offset(centres[kept].astype(np.float64), names, card_h, twice_only=False)
    if offset is None:
        offset = usual_corner_offset(CARD_ASPECT * card_h, card_h)
    reach = 0.35 * float(np.hypot(*offset))  # as vision.corners pairs a card's two reads
    keep = keep.copy()
    likely = (probs[unkept, card[unkept]] >= least) & (not_index[unkept] < not_index_below)
    for u in unkept[likely & np.isin(card[unkept], card[kept])]:
        partners = kept[card[kept] == card[u]]
        gap = centres[u][None] - centres[partners]  # the kept read at the top-left corner or at the bottom-right
        if np.any(np.minimum(np.hypot(*(gap - offset).T), np.hypot(*(gap + offset).T)) < reach):
            keep[u] = True
    return keep


def recognise(frame: Any, rec: Recogniser, *, settle: bool = True) -> Detections:
    """Every readable corner index in a BGR frame (uint8, H x W x 3), with its card and confidence; a card whose
    two corners read as a 6 and a 9 of one suit is named by its top-left corner in both (``vision.corners``; not
    with ``settle`` False: for a view that may yet be turned half, where the top-left corner is the other one)."""
    image = np.asarray(frame)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 32:
        raise ValueError(f"expected a BGR uint8 image, got {image.dtype} {image.shape}")
    # the frame scaled once to the main pass's width; the narrower passes scale that, not the frame again (three
    # area resizes of a 1080p frame cost about 17 ms)
    base = image
    if rec.det_width < image.shape[1] and all(width <= rec.det_width for width in rec.extra_widths):
        size = (rec.det_width, round(image.shape[0] * rec.det_width / image.shape[1]))
        base = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    to_frame = base.shape[1] / image.shape[1]  # base-image pixels per frame pixel
    out, scale, dh = detector_maps(base, rec)
    scale *= to_frame
    boxes, det_score = _peaks(out, 0, scale, dh, rec.det_threshold, rec.max_candidates)
    backs = detect_backs(out, scale, dh, rec)
    if rec.extra_widths:  # coarser passes find indices too large for the main one (a camera close to the cards)
        found = [(boxes, det_score)]
        for width in rec.extra_widths:
            o, sc, h = detector_maps(base, replace(rec, det_width=width))
            found.append(_peaks(o, 0, sc * to_frame, h, rec.det_threshold, rec.max_candidates))
        boxes = np.concatenate([b for b, _ in found]).astype(np.float32)
        det_score = np.concatenate([s for _, s in found]).astype(np.float32)
        kept = _nms(boxes, det_score, 0.5)[: rec.max_candidates]
        boxes, det_score = boxes[kept], det_score[kept]
    boxes = grow(boxes, rec.box_scale)
    probs, keep, unsure = _reads(image, boxes, rec)
    if len(probs) == 0:
        return backs
    if rec.second_look > 1.0:
        probs, boxes, keep = _second_look(image, boxes, probs, keep, unsure, rec)
    if rec.other_corner < 1.0:
        keep = other_corners_kept(boxes, probs, keep, rec.other_corner, rec.other_corner_not_index)
    best = probs[:, :NOT_INDEX].argmax(1)
    order = np.argsort(-probs[:, :NOT_INDEX], 1)
    cls_p = probs[np.arange(len(best)), best]
    # the classifier is the sharper judge; the detector's score only tempers it
    conf = (np.sqrt(det_score) * cls_p).astype(np.float32)
    dets = Detections.build(
        boxes,
        best,
        conf,
        {
            "det_score": det_score,
            "cls_score": cls_p,
            "second": order[:, 1],
            "second_score": probs[np.arange(len(best)), order[:, 1]],
        },
    )[keep]
    reads = Detections.merge([dets[_nms(dets.boxes, dets.confidence, 0.4, rec.nested)], backs])
    # a card read as a 6 in one corner and a 9 of its suit in the other is named by its top-left corner
    return settle_turned_corners(reads) if settle else reads
