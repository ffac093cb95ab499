"""Procedural tables, drawn in perspective: each pixel's colour is a function of where it lies on the table.

Textures are evaluated on a coarse grid of table coordinates (from the inverse homography) and then
upsampled: table detail is soft anyway, and this keeps a 1280 x 720 table near 10 ms.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
F64 = npt.NDArray[Any]  # ditto
U8 = npt.NDArray[Any]  # ditto
KINDS = ("wood", "felt", "cloth", "plastic", "check", "stripes")
_SUB = 4  # textures are evaluated on a grid 4x coarser than the canvas, then upsampled


def _noise(rng: np.random.Generator, x: F32, y: F32, cell_mm: float) -> F32:
    """Smooth value noise of feature size ``cell_mm`` sampled at table points (x, y)."""
    n = 64
    grid = rng.random((n, n)).astype(np.float32)
    # Wrapped to one period here (remap's fixed-point coordinates would overflow far out), seamlessly: the grid
    # tiles with period n, and BORDER_WRAP interpolates across its last column into its first.
    u = np.asarray(x, np.float32) * np.float32(1.0 / cell_mm)
    v = np.asarray(y, np.float32) * np.float32(1.0 / cell_mm)
    u -= np.floor(u * np.float32(1.0 / n)) * np.float32(n)
    v -= np.floor(v * np.float32(1.0 / n)) * np.float32(n)
    return cv2.remap(grid, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)


def _muted(colour: F64) -> F64:
    """Household colours: a random hue pulled 40 % of the way to its own grey (no neon tables)."""
    out: F64 = colour + 0.4 * (colour.mean() - colour)
    return out


def _table_coords(h_inv: F64, w: int, h: int) -> tuple[F32, F32]:
    c = (_SUB - 1) / 2
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) * _SUB + c, np.arange(h, dtype=np.float32) * _SUB + c)
    pts = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    t = cv2.perspectiveTransform(pts, h_inv).reshape(h, w, 2)
    return t[:, :, 0].astype(np.float32), t[:, :, 1].astype(np.float32)


def table_image(rng: np.random.Generator, kind: str, homography: F64, size: tuple[int, int]) -> U8:
    """BGR uint8 image of a ``kind`` table seen through ``homography`` (table mm -> canvas px)."""
    w, h = size
    hw, hh = (w + _SUB - 1) // _SUB, (h + _SUB - 1) // _SUB
    x, y = _table_coords(np.linalg.inv(homography), hw, hh)
    a = rng.uniform(0, math.pi)
    u = x * math.cos(a) + y * math.sin(a)
    v = -x * math.sin(a) + y * math.cos(a)
    if kind == "wood":
        base = np.array(rng.choice([[40, 75, 120], [60, 110, 160], [30, 50, 80], [90, 150, 190], [50, 90, 140]]))
        plank = rng.uniform(80, 220)
        warp = _noise(rng, u * 0.05, v, 40.0) * rng.uniform(6, 20)
        grain = np.sin((v + warp) * rng.uniform(0.5, 1.5) + _noise(rng, u, v * 8, 90.0) * 6) * 0.5 + 0.5
        tone = 0.75 + 0.25 * grain * _noise(rng, u, v, 30.0) + 0.15 * _noise(rng, u, v, 300.0)
        # A soft seam a couple of mm wide: a hard 1 mm line would alias into dashes on the coarse grid.
        d = np.mod(v, plank)
        seams = np.exp(-((np.minimum(d, plank - d) / 1.6) ** 2)).astype(np.float32)
        pshade = _noise(rng, np.floor(v / plank) * 7.0, np.zeros_like(v), 1.0) * 0.2 + 0.9
        lum = tone * pshade * (1 - 0.5 * seams)
    elif kind == "felt":
        base = np.array(rng.choice([[40, 110, 30], [110, 60, 20], [40, 40, 120], [60, 60, 60]]))
        lum = 0.85 + 0.1 * _noise(rng, x, y, 2.0) + 0.08 * _noise(rng, x, y, 150.0)
    elif kind == "cloth":
        base = _muted(rng.uniform(60, 220, 3))
        f = rng.uniform(1.2, 3.0)
        # The weave (2-5 mm) is finer than the texture grid far from the camera: there it fades to its average
        # instead of aliasing into moire rings.
        gx, gy = np.gradient(x), np.gradient(y)
        step = np.maximum(np.hypot(gx[1], gy[1]), np.hypot(gx[0], gy[0]))  # mm between grid samples
        weave = np.sin(u * f) * np.sin(v * f) * np.clip(1.5 - step * f / math.pi, 0.0, 1.0)
        lum = 0.85 + 0.07 * weave + 0.1 * _noise(rng, x, y, 80.0)
    elif kind == "plastic":
        base = _muted(rng.uniform(80, 240, 3))
        lum = 0.9 + 0.1 * _noise(rng, x, y, 400.0)
    if kind not in ("check", "stripes"):
        img = (base[None, None, :] / 255.0).astype(np.float32) * lum[..., None]
    else:  # patterned covers: gingham checks or stripes
        base = rng.uniform(120, 240, 3)
        other = rng.uniform(20, 140, 3)
        period = rng.uniform(15, 45)
        on_u = (np.mod(u, period) < period / 2).astype(np.float32)
        on_v = (np.mod(v, period) < period / 2).astype(np.float32)
        mix = (on_u + on_v) / 2 if kind == "check" else on_u
        mix_soft: F32 = cv2.GaussianBlur(mix, (0, 0), 0.8)
        m3 = mix_soft[..., None]
        lum3 = (base[None, None, :] * (1 - m3) + other[None, None, :] * m3) / 255.0
        img = lum3 * (0.9 + 0.1 * _noise(rng, x, y, 60.0))[..., None]
    small = cv2.convertScaleAbs(np.asarray(img, np.float32), alpha=255.0)
    out: U8 = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def draw_clutter(
    rng: np.random.Generator,
    canvas: U8,
    homography: F64,
    layout_bbox: tuple[float, float, float, float],
) -> int:
    """Everyday objects beside the layout (mug, pen, paper, phone, coin); returns how many were drawn."""
    x0, y0, x1, y1 = layout_bbox
    n = int(rng.integers(0, 4))
    for _ in range(n):
        side = rng.integers(4)
        cx = (
            rng.uniform(x0 - 250, x0 - 60)
            if side == 0
            else rng.uniform(x1 + 60, x1 + 250)
            if side == 1
            else rng.uniform(x0, x1)
        )
        cy = (
            rng.uniform(y0 - 250, y0 - 60)
            if side == 2
            else rng.uniform(y1 + 60, y1 + 250)
            if side == 3
            else rng.uniform(y0, y1)
        )
        kind = rng.choice(["mug", "pen", "paper", "phone", "coin"])
        ang = rng.uniform(0, math.pi)
        if kind in ("mug", "coin"):
            r = rng.uniform(40, 50) if kind == "mug" else rng.uniform(10, 14)
            t = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            poly = np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)
        else:
            hw, hl = {"pen": (5, 70), "paper": (105, 148), "phone": (36, 75)}[str(kind)]
            c, s = math.cos(ang), math.sin(ang)
            local = np.array([[-hw, -hl], [hw, -hl], [hw, hl], [-hw, hl]], np.float64)
            poly = local @ np.array([[c, s], [-s, c]]) + np.array([cx, cy])
        colour = {
            "mug": rng.uniform(0.2, 0.9, 3),
            "pen": rng.uniform(0.05, 0.6, 3),
            "paper": np.full(3, 0.92),
            "phone": np.full(3, 0.06),
            "coin": np.array([0.45, 0.6, 0.7]),
        }[str(kind)]
        pts = cv2.perspectiveTransform(poly.reshape(-1, 1, 2), homography).reshape(-1, 2)
        if not np.all(np.isfinite(pts)) or np.abs(pts).max() > 1e5:
            continue
        # Work in the object's box only: full-frame blurs are the slow part of a scene.
        ch, cw = canvas.shape[:2]
        bx0, by0 = np.floor(pts.min(0)).astype(int) - 40
        bx1, by1 = np.ceil(pts.max(0)).astype(int) + 40
        bx0, by0, bx1, by1 = max(bx0, 0), max(by0, 0), min(bx1, cw), min(by1, ch)
        if bx1 <= bx0 or by1 <= by0:
            continue
        roi = canvas[by0:by1, bx0:bx1]
        ipts = np.round((pts - [bx0, by0]) * 4).astype(np.int32)  # 2 fractional bits: smoother edges
        shadow = np.zeros(roi.shape[:2], np.float32)
        cv2.fillPoly(shadow, [ipts + 12], 1.0, cv2.LINE_AA, shift=2)
        keep = 1 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 6)
        roi[:] = cv2.multiply(roi, cv2.merge([keep, keep, keep]), dtype=cv2.CV_8U)
        cv2.fillPoly(roi, [ipts], tuple(float(c) * 255 for c in colour), cv2.LINE_AA, shift=2)
    return n
