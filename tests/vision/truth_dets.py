"""Helpers for the vision tests: perfect detections and visible cards straight from a render's truth."""

from __future__ import annotations

import numpy as np

from vision.cards import class_of
from vision.detections import BACK, Detections
from vision.synth import SceneTruth
from vision.synth.truth import back_strips

VISIBLE = 0.25


def truth_detections(truth: SceneTruth, hidden: float = VISIBLE, backs: bool = True) -> Detections:
    """Every readable index, and (``backs``) every visible face-down strip, as a perfect detector sees them."""
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
