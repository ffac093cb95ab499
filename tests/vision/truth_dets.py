"""Helpers for the vision tests: perfect detections and visible cards straight from a render's truth."""

from __future__ import annotations

import numpy as np

from vision.cards import class_of
from vision.detections import BACK, Detections
from vision.synth import SceneTruth
from vision.synth.truth import back_strips, back_strips_by_card

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


def visible_face_down(truth: SceneTruth, hidden: float = VISIBLE) -> dict[str, int]:
    """Per pile, the face-down cards whose top strip shows (a squared packet: 1 if any)."""
    out: dict[str, int] = {}
    for c, strip in back_strips_by_card(truth, truth.camera.size):
        if strip[4] <= hidden:
            out[c.pile] = out.get(c.pile, 0) + 1
    return {p: (min(n, 1) if not p.startswith("t") else n) for p, n in out.items()}


def visible_piles(truth: SceneTruth, hidden: float = VISIBLE) -> dict[str, list[str]]:
    """Per pile, bottom first, the cards with a readable index; squared packets show their top card only."""
    out: dict[str, list[str]] = {}
    for c in sorted(truth.cards, key=lambda c: (c.pile, c.index)):
        out.setdefault(c.pile, [])
        if c.face_up and c.card and any(ix.hidden <= hidden for ix in c.indices):
            out[c.pile].append(c.card)
    return {p: (v[-1:] if p.startswith(("f", "s", "r")) else v) for p, v in out.items()}
