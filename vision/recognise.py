"""Frame -> corner-index detections: a tiny heatmap detector finds indices, a crop classifier names them.

1. The frame is scaled to 640 px wide (height padded to a multiple of 16) and the detector gives, at stride 4,
   an index-centre heatmap, the box size and a sub-cell offset. Peaks (3 x 3 local maxima) above a threshold
   are candidate indices.
2. Each candidate is cut from the full-resolution frame as a square 1.25 x the box's longer side, scaled to
   40 x 40, and classified into the 52 cards or "not an index". The classifier saw indices at any rotation
   (bottom-right indices are upside down; real tables are turned any way), so no orientation step is needed.

Confidence = sqrt(detector score) x classifier probability; ``data`` keeps both, and the runner-up class.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cards import NAMES
from vision.crops import square_crop
from vision.detections import Detections
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
    min_class_score: float = 0.4
    max_candidates: int = 300
    det_width: int = DET_W  # the detector's input width (trained at 640; wider finds smaller indices)
    turn_too: bool = True  # also classify each crop turned 180 degrees and average (indices come both ways up)


def load_recogniser(directory: str | Path | None = None, *, threads: int = 0) -> Recogniser:
    d = Path(directory) if directory is not None else models_dir()
    return Recogniser(load_model(d / DETECTOR, threads=threads), load_model(d / CLASSIFIER, threads=threads))


def _sigmoid(x: F32) -> F32:
    out: F32 = (1.0 / (1.0 + np.exp(-np.clip(x, -30, 30)))).astype(np.float32)
    return out


def detect_indices(frame: U8, rec: Recogniser) -> tuple[F32, F32]:
    """Candidate index boxes (n, 4, frame px) and detector scores (n,), best first."""
    h, w = frame.shape[:2]
    scale = rec.det_width / w
    dh = round(h * scale)
    small = cv2.resize(frame, (rec.det_width, dh), interpolation=cv2.INTER_AREA)
    ph = (dh + 15) // 16 * 16
    if ph != dh:  # pad with edge pixels: a black band would look like a table edge
        small = cv2.copyMakeBorder(small, 0, ph - dh, 0, 0, cv2.BORDER_REPLICATE)
    x = small.transpose(2, 0, 1)[None].astype(np.float32)
    out = rec.detector(x)[0]
    heat = _sigmoid(out[0])
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= rec.det_threshold)
    ys, xs = np.nonzero(peaks[: (dh + STRIDE - 1) // STRIDE])
    score = heat[ys, xs]
    order = np.argsort(-score)[: rec.max_candidates]
    ys, xs, score = ys[order], xs[order], score[order]
    cx = (xs + _sigmoid(out[3, ys, xs])) * STRIDE / scale
    cy = (ys + _sigmoid(out[4, ys, xs])) * STRIDE / scale
    bw = np.exp(np.clip(out[1, ys, xs], -3, 6)) / scale
    bh = np.exp(np.clip(out[2, ys, xs], -3, 6)) / scale
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1).astype(np.float32)
    return boxes, score.astype(np.float32)


def classify_boxes(frame: U8, boxes: F32, rec: Recogniser) -> F32:
    """Softmax over the 52 cards + "not an index" for each box (axis-aligned, frame px): (n, 53)."""
    if len(boxes) == 0:
        return np.zeros((0, NOT_INDEX + 1), np.float32)
    crops = np.stack([
        square_crop(frame, float(x0 + x1) / 2, float(y0 + y1) / 2, CLS_SPAN * float(max(x1 - x0, y1 - y0)), CLS_IN)
        for x0, y0, x1, y1 in boxes
    ])
    x = crops.transpose(0, 3, 1, 2).astype(np.float32)
    if rec.turn_too:
        x = np.concatenate([x, x[:, :, ::-1, ::-1]])
    logits = rec.classifier(np.ascontiguousarray(x))
    e = np.exp(logits - logits.max(1, keepdims=True))
    probs: F32 = (e / e.sum(1, keepdims=True)).astype(np.float32)
    if rec.turn_too:
        probs = ((probs[: len(crops)] + probs[len(crops) :]) / 2).astype(np.float32)
    return probs


def _nms(boxes: F32, score: F32, iou: float) -> npt.NDArray[np.int64]:
    keep: list[int] = []
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    for i in np.argsort(-score).tolist():
        if keep:
            k = np.array(keep)
            ix = np.clip(np.minimum(boxes[k, 2], boxes[i, 2]) - np.maximum(boxes[k, 0], boxes[i, 0]), 0, None)
            iy = np.clip(np.minimum(boxes[k, 3], boxes[i, 3]) - np.maximum(boxes[k, 1], boxes[i, 1]), 0, None)
            inter = ix * iy
            if np.any(inter / (area[k] + area[i] - inter + 1e-6) > iou):
                continue
        keep.append(i)
    return np.array(keep, np.int64)


def recognise(frame: Any, rec: Recogniser) -> Detections:
    """Every readable corner index in a BGR frame (uint8, H x W x 3), with its card and confidence."""
    image = np.asarray(frame)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 32:
        raise ValueError(f"expected a BGR uint8 image, got {image.dtype} {image.shape}")
    boxes, det_score = detect_indices(image, rec)
    probs = classify_boxes(image, boxes, rec)
    if len(probs) == 0:
        return Detections.empty()
    best = probs[:, :NOT_INDEX].argmax(1)
    order = np.argsort(-probs[:, :NOT_INDEX], 1)
    cls_p = probs[np.arange(len(best)), best]
    # the classifier is the sharper judge; the detector's score only tempers it
    conf = (np.sqrt(det_score) * cls_p).astype(np.float32)
    keep = (probs[:, NOT_INDEX] < cls_p) & (cls_p >= rec.min_class_score)
    dets = Detections.build(
        boxes, best, conf,
        {"det_score": det_score, "cls_score": cls_p, "second": order[:, 1],
         "second_score": probs[np.arange(len(best)), order[:, 1]]},
    )[keep]
    return dets[_nms(dets.boxes, dets.confidence, 0.4)]
