"""Procedural hands and forearms reaching over the layout from the player's side (or the sides).

Shapes live on the table plane (mm) and are projected like everything else; the skin is shaded by the
distance to the outline so it reads as a rounded limb, not a flat cut-out.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
F64 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
U8 = npt.NDArray[Any]  # ditto

# RGB skin tones from light to deep, converted to BGR 0..1 below.
_SKIN_RGB = ((241, 204, 177), (224, 172, 138), (198, 140, 100), (160, 105, 70), (115, 74, 48), (76, 48, 32))


def _capsule(a: F64, b: F64, ra: float, rb: float, n: int = 10) -> F64:
    d = b - a
    ang = math.atan2(d[1], d[0])
    t1 = np.linspace(ang + math.pi / 2, ang + 3 * math.pi / 2, n)
    t2 = np.linspace(ang - math.pi / 2, ang + math.pi / 2, n)
    pa = a + ra * np.stack([np.cos(t1), np.sin(t1)], 1)
    pb = b + rb * np.stack([np.cos(t2), np.sin(t2)], 1)
    return np.vstack([pa, pb])


def hand_polygons(
    rng: np.random.Generator, bbox: tuple[float, float, float, float], reach: tuple[F64, F64] | None = None
) -> tuple[list[F64], list[F64]]:
    """(skin polygons, sleeve polygons) in table mm for one arm reaching to a point inside ``bbox``.

    ``reach`` = (fingertip, shoulder side start) overrides the random pose; the look is drawn the same either way.
    """
    x0, y0, x1, y1 = bbox
    tip = np.array([rng.uniform(x0, x1), rng.uniform(y0 + 0.2 * (y1 - y0), y1)])
    side = rng.choice(["bottom", "bottom", "left", "right"])
    if side == "bottom":
        start = np.array([tip[0] + rng.uniform(-250, 250), y1 + rng.uniform(500, 700)])
    elif side == "left":
        start = np.array([x0 - rng.uniform(500, 700), tip[1] + rng.uniform(-150, 250)])
    else:
        start = np.array([x1 + rng.uniform(500, 700), tip[1] + rng.uniform(-150, 250)])
    if reach is not None:
        tip, start = np.asarray(reach[0], np.float64), np.asarray(reach[1], np.float64)
    direction = (tip - start) / np.linalg.norm(tip - start)
    normal = np.array([-direction[1], direction[0]])
    hand_len = rng.uniform(170, 195)
    wrist = tip - direction * hand_len
    palm_c = wrist + direction * 50
    # A real hand: palm ~85 mm wide and ~100 mm long, forearm 60-70 mm across.
    skin: list[F64] = [_capsule(start, wrist, rng.uniform(30, 36), 25)]
    t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
    palm = palm_c + np.outer(np.cos(t) * 50, direction) + np.outer(np.sin(t) * 43, normal)
    skin.append(palm)
    spread = rng.uniform(0.0, 0.35)
    closed = rng.random() < 0.3  # a loose fist or a hand holding cards
    for i, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        base = palm_c + direction * 40 + normal * off * 19
        ang = math.atan2(direction[1], direction[0]) + off * spread * 0.25
        length = (0.55 if closed else 1.0) * (62 + 10 * (1.5 - abs(off)) - 6 * (i == 3))
        end = base + length * np.array([math.cos(ang), math.sin(ang)])
        skin.append(_capsule(base, end, 9.5, 8.0))
    thumb_side = rng.choice([-1.0, 1.0])
    tb = wrist + direction * 25 + normal * thumb_side * 32
    ta = math.atan2(direction[1], direction[0]) + thumb_side * rng.uniform(0.5, 0.9)
    skin.append(_capsule(tb, tb + 65 * np.array([math.cos(ta), math.sin(ta)]), 13, 10))
    sleeves: list[F64] = []
    if rng.random() < 0.6:
        cuff = wrist - direction * rng.uniform(60, 220)
        sleeves.append(_capsule(start - direction * 100, cuff, rng.uniform(42, 50), 40))
    return skin, sleeves


def draw_hand(
    rng: np.random.Generator,
    canvas: npt.NDArray[Any],
    homography: F64,
    bbox: tuple[float, float, float, float],
    reach: tuple[F64, F64] | None = None,
) -> tuple[tuple[int, int], npt.NDArray[np.bool_]]:
    """Draw one arm with its soft shadow; returns the mask of pixels it covers, as the top-left corner (x, y)
    of a box in the canvas and the mask inside that box (empty when the arm is not in the canvas)."""
    ch, cw = canvas.shape[:2]
    skin, sleeves = hand_polygons(rng, bbox, reach)
    projected = [cv2.perspectiveTransform(p.reshape(-1, 1, 2), homography).reshape(-1, 2) for p in skin + sleeves]
    nothing = ((0, 0), np.zeros((0, 0), np.bool_))
    allpts = np.vstack(projected)
    if not np.all(np.isfinite(allpts)) or np.abs(allpts).max() > 1e5:
        return nothing
    # Work in the arm's box only (plus room for its shadow).
    scale = float(np.linalg.norm(homography[:2, :2] @ np.array([1.0, 0.0])))
    margin = int(40 * scale) + 20
    x0, y0 = np.floor(allpts.min(0)).astype(int) - margin
    x1, y1 = np.ceil(allpts.max(0)).astype(int) + margin
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if x1 <= x0 or y1 <= y0:
        return nothing
    # A view, drawn into in place. Everything full-size is 8-bit (alphas in 0..255): OpenCV's 8-bit arithmetic
    # is several times faster than float blends, and a hand is a big part of the frame.
    roi = canvas[y0:y1, x0:x1]
    h, w = roi.shape[:2]
    n_skin = len(skin)
    covered = np.zeros((h, w), np.bool_)

    def mask_of(polys: list[F64]) -> U8:
        m = np.zeros((h, w), np.uint8)
        for q in polys:
            pts = q - np.array([x0, y0])
            cv2.fillPoly(m, [np.round(pts * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
        return m

    # The hand floats some cm above the cards: its shadow falls offset and soft.
    off = (rng.uniform(-1, 1) * 25 * scale, rng.uniform(0.3, 1) * 30 * scale)
    # A soft shadow has no detail: draw and blur it at 1/4 resolution.
    small = np.zeros(((h + 3) // 4, (w + 3) // 4), np.float32)
    for q in projected:
        pts = (q - np.array([x0, y0]) + np.array(off)) / 4.0
        cv2.fillPoly(small, [np.round(pts * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, 2.5 * scale))
    depth = rng.uniform(0.35, 0.6)
    keep = cv2.resize(cv2.convertScaleAbs(small, alpha=-255.0 * depth, beta=255.0), (w, h))  # 255 = unshaded
    cv2.multiply(roi, cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR), dst=roi, scale=1 / 255)
    tone = np.array(_SKIN_RGB[int(rng.integers(len(_SKIN_RGB)))][::-1], np.float32)
    tone = tone * rng.uniform(0.85, 1.1)
    # Sleeves in everyday, muted colours: half-way between a random hue and its grey.
    hue = rng.uniform(0.05, 0.7, 3) * 255
    cloth = (0.5 * hue + 0.5 * hue.mean()).astype(np.float32)
    for polys, colour in ((projected[:n_skin], tone), (projected[n_skin:], cloth)):
        if not polys:  # no sleeve
            continue
        # The hand is nearer the lens than the cards: a little out of focus.
        m = cv2.GaussianBlur(mask_of(polys), (0, 0), max(0.6, 1.2 * scale))
        if not m.any():
            continue
        solid = m > 127
        dist = cv2.distanceTransform(solid.view(np.uint8), cv2.DIST_L2, 3)
        # Rounded limb: darker toward the outline; a little blotchy, as skin and cloth are.
        roundness = cv2.sqrt(np.minimum(dist * (1.0 / max(3.0, 14 * scale)), 1.0))
        noise = 1 + rng.normal(0, 0.02, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
        shade = (0.55 + 0.45 * roundness) * cv2.resize(noise, (w, h))
        colour_img = cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in colour])
        m3 = cv2.cvtColor(m, cv2.COLOR_GRAY2BGR)
        under = cv2.multiply(roi, cv2.bitwise_not(m3), scale=1 / 255)
        cv2.add(cv2.multiply(colour_img, m3, scale=1 / 255), under, dst=roi)
        covered |= solid
    return (x0, y0), covered
