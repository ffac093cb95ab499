"""render_scene: a game position -> a photo-like BGR image and its exact truth.

Order of work: deal the cards onto the table (mm), choose a camera, paint table, clutter, cards (with contact
shadows) and hands into an undistorted canvas through the plane homography, bend it with the lens, light it,
then blur, colour, noise and compress it. Occlusion is measured in the canvas with an id buffer.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError
from vision.synth.artwork import BACK, CARD_H_MM, CARD_H_PX, CARD_W_MM, CardArt, load_deck
from vision.synth.background import KINDS, draw_clutter, table_image
from vision.synth.camera import Camera, sample_camera, undistort_map
from vision.synth.decks import Deck, find_deck
from vision.synth.effects import camera_effects, light
from vision.synth.hands import draw_hand
from vision.synth.layout import Piles, Placed, card_corners, local_to_table, place
from vision.synth.truth import CameraTruth, CardTruth, IndexTruth, SceneTruth, quad

F32 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
F64 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
U8 = npt.NDArray[Any]  # ditto
_HAND, _NONE = -2, -1


@dataclass(frozen=True, slots=True)
class RenderOptions:
    max_tilt: float = 45.0  # degrees from straight down
    hand_probability: float = 0.5
    table: str | None = None  # one of background.KINDS; None: drawn at random
    clutter: bool = True
    effects: float = 1.0  # strength of light and camera effects; 0 gives a clean, sharp image
    close_up: float = 0.0  # chance of a close camera framing part of the layout (training data)
    free_roll: float = 0.0  # chance of a camera turned any angle about its axis (training data)


_SHADES = (0.9, 0.94, 0.98, 1.02)  # paper catching the light a little differently, card to card


@functools.lru_cache(maxsize=4096)
def _mip(deck: Deck, name: str, level: int, shade: int) -> U8:
    """The bitmap pyramid level nearest the drawn size (no aliasing when cards are small), pre-shaded."""
    img = load_deck(deck)[name].image
    for _ in range(level):
        img = cv2.pyrDown(img)
    out = img.copy()
    out[:, :, :3] = cv2.convertScaleAbs(img[:, :, :3], alpha=_SHADES[shade])
    return out


def _hidden(ids: npt.NDArray[np.int16], poly: F64, own: int) -> float:
    """Share of the polygon (canvas px) whose top-most owner is not ``own``; 1.0 if off the canvas."""
    h, w = ids.shape
    x0, y0 = np.floor(poly.min(0)).astype(int)
    x1, y1 = np.ceil(poly.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return 1.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((poly - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    area = int(mask.sum())
    if area == 0:
        return 1.0
    seen = int(np.count_nonzero(mask.astype(bool) & (ids[y0:y1, x0:x1] == own)))
    return round(1.0 - seen / area, 4)


def _card_hidden(ids: npt.NDArray[np.int16], poly: F64, own: int, area: int) -> float:
    """Share of the card's paper (as drawn, rounded corners excluded) that something else covers."""
    if area == 0:
        return 1.0
    h, w = ids.shape
    x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 3, [w, h])
    seen = int(np.count_nonzero(ids[y0:y1, x0:x1] == own))
    return round(max(0.0, 1.0 - seen / area), 4)


def _draw_card(
    canvas: U8,
    ids: npt.NDArray[np.int16],
    bitmap: U8,
    dst: F64,
    own: int,
    shadow: float,
    px_per_mm: float,
) -> int:
    """Composite one card; returns how many canvas pixels its paper covers (rounded corners excluded)."""
    ch, cw = canvas.shape[:2]
    pad = math.ceil(2.5 * px_per_mm) + 2
    x0, y0 = np.floor(dst.min(0)).astype(int) - pad
    x1, y1 = np.ceil(dst.max(0)).astype(int) + pad
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, cw), min(y1, ch)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0
    bh, bw = bitmap.shape[:2]
    src = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
    m = cv2.getPerspectiveTransform(src, (dst - [cx0, cy0]).astype(np.float32))
    # Bitmap pixel centres sit at +0.5: shift so the art's outer edge lands exactly on the card outline.
    m = m @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    warped = cv2.warpPerspective(
        bitmap,
        m,
        (cx1 - cx0, cy1 - cy0),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0, 0),
    )
    a = warped[:, :, 3].astype(np.float32) / 255.0
    roi = canvas[cy0:cy1, cx0:cx1]
    if shadow > 0:  # contact shadow: the card sits a hair above what is under it
        dx, dy = round(0.4 * px_per_mm), round(0.7 * px_per_mm)
        k = max(3, round(1.6 * px_per_mm) | 1)
        sh = np.zeros_like(warped[:, :, 3])
        sh[dy:, dx:] = warped[: sh.shape[0] - dy, : sh.shape[1] - dx, 3]
        keep = 1 - (shadow / 255.0) * cv2.blur(sh, (k, k)).astype(np.float32)
        roi[:] = cv2.blendLinear(roi, np.zeros_like(roi), keep, 1 - keep)
    colour = cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR)
    roi[:] = cv2.blendLinear(colour, roi, a, 1 - a)
    mine = a > 0.5
    ids[cy0:cy1, cx0:cx1][mine] = own
    return int(np.count_nonzero(mine))


def _camera_truth(cam: Camera) -> CameraTruth:
    mat = cam.matrix()
    hom = cam.homography()
    return CameraTruth(
        size=cam.size,
        matrix=tuple((float(r[0]), float(r[1]), float(r[2])) for r in mat),
        dist=tuple(float(v) for v in cam.dist),
        rvec=cam.rvec,
        tvec=cam.tvec,
        homography=tuple((float(r[0]), float(r[1]), float(r[2])) for r in hom),
    )


def _index_quads(art: CardArt) -> list[tuple[str, F64]]:
    x0, y0, x1, y1 = art.index_box_mm
    w, h = CARD_W_MM, CARD_H_MM
    tl = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    return [("top_left", tl), ("bottom_right", np.array([w, h]) - tl)]  # printed upside down: 180-degree turn


def render_scene(
    game: str,
    piles: Piles,
    *,
    deck: str | Deck = "dondorf",
    seed: int = 0,
    size: tuple[int, int] = (1280, 720),
    options: RenderOptions | None = None,
) -> tuple[U8, SceneTruth]:
    """Render ``piles`` (pile id -> cards bottom first, (notation or None, face_up)) of ``game``.

    Deterministic for a fixed ``seed``. Raises CadoganError for an unknown deck or missing artwork.
    """
    d = find_deck(deck) if isinstance(deck, str) else deck
    opts = options or RenderOptions()
    if opts.table is not None and opts.table not in KINDS:
        raise CadoganError(f"unknown table {opts.table!r}; known tables: {', '.join(KINDS)}")
    return render_frame(game, piles, Shot.plan(game, [piles], d, seed, size, opts))


@dataclass(frozen=True, slots=True)
class Shot:
    """What stays fixed while the cards change: deck, camera, table, the player's untidiness, the light."""

    deck: Deck
    seed: int
    camera: Camera
    bbox: tuple[float, float, float, float]  # table mm the layout spans (clutter keeps out of it)
    options: RenderOptions

    @staticmethod
    def plan(
        game: str, tables: list[Piles], deck: Deck, seed: int, size: tuple[int, int], options: RenderOptions
    ) -> Shot:
        """One camera framing every table of ``tables`` (one for a photo, all of them for a video)."""
        pts = [card_corners(p) for piles in tables for p in place(game, piles, seed)]
        allpts = np.vstack(pts) if pts else np.array([[0.0, 0.0], [500.0, 300.0]])
        bbox = (
            float(allpts[:, 0].min()),
            float(allpts[:, 1].min()),
            float(allpts[:, 0].max()),
            float(allpts[:, 1].max()),
        )
        cam = sample_camera(
            np.random.default_rng([seed, 2]), bbox, size, options.max_tilt, options.close_up, options.free_roll
        )
        return Shot(deck, seed, cam, bbox, options)


def render_frame(
    game: str,
    piles: Piles,
    shot: Shot,
    *,
    reach: list[tuple[F64, F64]] | None = None,
    frame: int = 0,
) -> tuple[U8, SceneTruth]:
    """Draw ``piles`` through ``shot``. ``reach``: arms posed by (fingertip, start) in table mm instead of the
    random hands; ``frame`` changes only the sensor noise."""
    d, seed, cam, bbox, opts = shot.deck, shot.seed, shot.camera, shot.bbox, shot.options
    arts = load_deck(d)
    placed = place(game, piles, seed)
    outlines = [card_corners(p) for p in placed]
    mx, my = undistort_map(cam)
    w, h = cam.size
    # The canvas covers every ideal point the lens will look at (barrel distortion reaches outside the frame).
    ox = math.floor(max(float(mx.min()), -w)) - 2
    oy = math.floor(max(float(my.min()), -h)) - 2
    cw = math.ceil(min(float(mx.max()), 2.0 * w)) + 3 - ox
    chh = math.ceil(min(float(my.max()), 2.0 * h)) + 3 - oy
    hom = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64) @ cam.homography()
    # Independent streams: the same seed gives the same table, light and hands whatever the cards are.
    r_table = np.random.default_rng([seed, 3])
    kind = opts.table or str(r_table.choice(KINDS))
    canvas = table_image(r_table, kind, hom, (cw, chh))
    n_clutter = draw_clutter(r_table, canvas, hom, bbox) if opts.clutter else 0
    ids = np.full((chh, cw), _NONE, np.int16)
    shadow = float(r_table.uniform(0.25, 0.55)) * min(1.0, opts.effects + 0.3)
    canvas_quads: list[F64] = []
    areas: list[int] = []
    for i, (p, outline) in enumerate(zip(placed, outlines, strict=True)):
        dst = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), hom).reshape(-1, 2)
        canvas_quads.append(dst)
        px_per_mm = float(np.linalg.norm(dst[1] - dst[0])) / CARD_W_MM
        level = int(np.clip(math.floor(math.log2(max(CARD_H_PX / max(px_per_mm * CARD_H_MM, 1.0), 1.0))), 0, 3))
        name = p.card if p.face_up and p.card is not None else BACK
        bitmap = _mip(d, name, level, p.shade % len(_SHADES))
        # A card squared on the one below casts no shadow worth drawing (and packets are most of the cards).
        below = placed[i - 1] if i else None
        squared = below is not None and below.pile == p.pile and math.hypot(below.x - p.x, below.y - p.y) < 3.0
        areas.append(_draw_card(canvas, ids, bitmap, dst, i, 0.0 if squared else shadow, px_per_mm))
    r_hand = np.random.default_rng([seed, 5])
    poses: list[tuple[F64, F64] | None] = []
    if reach is not None:
        poses = list(reach)
    elif r_hand.random() < opts.hand_probability:
        poses = [None] * (1 + int(r_hand.random() < 0.2))
    for pose in poses:
        ids[draw_hand(r_hand, canvas, hom, bbox, pose)] = _HAND
    settings: dict[str, float | str] = {"table": kind, "clutter": float(n_clutter)}
    image = cv2.remap(canvas, mx - ox, my - oy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    # Light fields are smooth: applied to the photo rather than the larger canvas, nobody can tell.
    settings.update(light(np.random.default_rng([seed, 6]), image, opts.effects))
    if opts.effects > 0:
        noise = np.random.default_rng([seed, 8, frame])
        image, cam_settings = camera_effects(np.random.default_rng([seed, 7]), image, opts.effects, noise)
        settings.update(cam_settings)
    cards = []
    for i, (p, outline) in enumerate(zip(placed, outlines, strict=True)):
        indices: list[IndexTruth] = []
        if p.face_up and p.card is not None:
            for corner, box in _index_quads(arts[p.card]):
                tpts = local_to_table(p, box)
                cpts = cv2.perspectiveTransform(tpts.reshape(-1, 1, 2), hom).reshape(-1, 2)
                indices.append(IndexTruth(corner, quad(cam.project(tpts)), quad(tpts), _hidden(ids, cpts, i)))
        cards.append(
            CardTruth(
                card=p.card,
                pile=p.pile,
                index=p.index,
                face_up=p.face_up,
                image=quad(cam.project(outline)),
                table=quad(outline),
                hidden=_card_hidden(ids, canvas_quads[i], i, areas[i]),
                indices=tuple(indices),
            )
        )
    settings.update(_camera_settings(cam, placed))
    truth = SceneTruth(game, d.name, seed, _camera_truth(cam), tuple(cards), len(poses), settings)
    return image, truth


def _camera_settings(cam: Camera, placed: list[Placed]) -> dict[str, float | str]:
    r, _ = cv2.Rodrigues(np.array(cam.rvec))
    centre = -r.T @ np.array(cam.tvec)
    tilt = math.degrees(math.acos(min(1.0, abs(float(r[2] @ np.array([0.0, 0.0, 1.0]))))))
    return {
        "tilt_deg": round(tilt, 2),
        "camera_height_mm": round(float(-centre[2]), 1),
        "hfov_deg": round(math.degrees(2 * math.atan(cam.size[0] / 2 / cam.k[0])), 2),
        "cards": float(len(placed)),
    }
