"""Helpers for the vision tests: perfect detections and visible cards straight from a render's truth."""

from __future__ import annotations

import numpy as np

from vision.cards import class_of
from vision.detections import Detections
from vision.synth import SceneTruth

VISIBLE = 0.25


def truth_detections(truth: SceneTruth, hidden: float = VISIBLE) -> Detections:
    boxes, ids = [], []
    for c in truth.cards:
        for ix in c.indices if c.face_up and c.card else ():
            if ix.hidden <= hidden:
                q = np.array(ix.image)
                boxes.append([*q.min(0), *q.max(0)])
                ids.append(class_of(c.card))
    return Detections.build(boxes, ids, np.ones(len(ids)))


def visible_piles(truth: SceneTruth, hidden: float = VISIBLE) -> dict[str, list[str]]:
    """Per pile, bottom first, the cards with a readable index; squared packets show their top card only."""
    out: dict[str, list[str]] = {}
    for c in sorted(truth.cards, key=lambda c: (c.pile, c.index)):
        out.setdefault(c.pile, [])
        if c.face_up and c.card and any(ix.hidden <= hidden for ix in c.indices):
            out[c.pile].append(c.card)
    return {p: (v[-1:] if p.startswith(("f", "s", "r")) else v) for p, v in out.items()}
