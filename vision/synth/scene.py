"""render_scene: a game position -> a photo-like BGR image and its exact truth.

Order of work: deal the cards onto the table (mm), choose a camera, paint table, clutter, cards (with contact
shadows) and hands into an undistorted canvas through the plane homography, bend it with the lens, light it,
then blur, colour, noise and compress it. Occlusion is measured in the canvas with an id buffer.
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import CadoganError
from vision.synth.artwork import BACK, CARD_H_MM, CARD_H_PX, CARD_W_MM, CardArt, load_deck
from vision.synth.background import KINDS, draw_clutter, table_image
from vision.synth.camera import Camera, lens_canvas, sample_camera
from vision.synth.compose import draw_card, draw_edge
from vision.synth.decks import Deck, find_deck
from vision.synth.effects import Sensor, camera_effects, light
from vision.synth.hands import draw_hand
from vision.synth.layout import Piles, Placed, local_to_table, place
from vision.synth.truth import CameraTruth, CardTruth, IndexTruth, Quad, SceneTruth

F32 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
F64 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
U8 = npt.NDArray[Any]  # ditto
_HAND, _NONE, _EDGE = -2, -1, -3  # id buffer: a hand, nothing, the side of a packet
CARD_THICK_MM = 0.3  # a playing card: a 24-card stock stands 7 mm tall


@dataclass(frozen=True, slots=True)
class RenderOptions:
    max_tilt: float = 45.0  # degrees from straight down
    hand_probability: float = 0.5
    table: str | None = None  # one of background.KINDS; None: drawn at random
    clutter: bool = True
    effects: float = 1.0  # strength of light and camera effects; 0 gives a clean, sharp image
    close_up: float = 0.0  # chance of a close camera framing part of the layout (training data)
    free_roll: float = 0.0  # chance of a camera turned any angle about its axis (training data)


_CORNERS = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], np.float64)  # a card, mm
_SHADES = (0.9, 0.94, 0.98, 1.02)  # paper catching the light a little differently, card to card


def _place(game: str, piles: Piles, seed: int) -> list[Placed]:
    """``layout.place``, remembered: a photo places its cards twice (framing, drawing), a video once a frame."""
    key = tuple((pile, tuple(cards)) for pile, cards in piles.items())
    return list(_place_cached(game, key, seed))


@functools.lru_cache(maxsize=64)
def _place_cached(
    game: str, key: tuple[tuple[str, tuple[tuple[str | None, bool], ...]], ...], seed: int
) -> tuple[Placed, ...]:
    return tuple(place(game, {pile: list(cards) for pile, cards in key}, seed))


@functools.cache
def renderer_version() -> str:
    """A short hash of the renderer's source: caches of rendered output (the demo recording) key on it, so a
    changed renderer never serves a picture drawn by an older one."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def _squared(below: Placed, p: Placed) -> bool:
    """``p`` lies squared on ``below`` (same packet), not fanned from it."""
    return below.pile == p.pile and math.hypot(below.x - p.x, below.y - p.y) < 3.0


def _depths(placed: list[Placed], squared: list[bool]) -> list[float]:
    """How far (mm) each card's face lies below the top face of its pile: a squared packet has thickness.

    The top face stays on the table plane (z = 0), where its truth quad says, and the cards under it go down:
    seen through a camera this is the same packet as one standing on the table. Cascades and fans lie flat.
    """
    depth = [0.0] * len(placed)
    for i in range(len(placed) - 2, -1, -1):
        if squared[i + 1]:
            depth[i] = depth[i + 1] + CARD_THICK_MM
        elif placed[i + 1].pile == placed[i].pile:
            depth[i] = depth[i + 1]
    return depth


def _offset(ox: int, oy: int) -> F64:
    return np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64)


def _plane_homographies(cam: Camera, depths: list[float]) -> dict[float, F64]:
    """Table mm (x, y) on the plane ``z`` mm below the table top -> undistorted image px, for each ``z``."""
    r, _ = cv2.Rodrigues(np.array(cam.rvec, np.float64))
    k = cam.matrix()
    kr, kt = k @ r, k @ np.array(cam.tvec)
    out: dict[float, F64] = {}
    for z in depths:
        h = np.column_stack([kr[:, 0], kr[:, 1], z * kr[:, 2] + kt])
        out[z] = h / h[2, 2]
    return out


def _project(cam: Camera, pts: F64, z: F64) -> F64:
    """Table mm (x, y) at depths ``z`` (mm below the table top) -> distorted image px, as ``Camera.project``."""
    obj = np.column_stack([pts, z]).astype(np.float64)
    img, _ = cv2.projectPoints(obj, np.array(cam.rvec), np.array(cam.tvec), cam.matrix(), np.array(cam.dist))
    return np.asarray(img.reshape(-1, 2), np.float64)


def _edge_colour(p: Placed) -> tuple[float, float, float]:
    """Card stock seen edge on: off-white, darker than the face (it faces sideways), every other card a shade
    darker (the thin gaps between cards)."""
    k = 0.8 * _SHADES[p.shade % len(_SHADES)] * (0.93 if p.index % 2 else 1.0)
    return (208 * k, 216 * k, 222 * k)


def _to_canvas(pts: F64, hom: F64) -> F64:
    out: F64 = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), hom).reshape(-1, 2)
    return out


@functools.lru_cache(maxsize=512)
def _premultiplied(deck: Deck, name: str, level: int) -> U8:
    """The bitmap pyramid level nearest the drawn size (no aliasing when cards are small), premultiplied by its
    alpha: warping then blends the rim with nothing rather than with the colour of transparent pixels."""
    img = load_deck(deck)[name].image
    for _ in range(level):
        img = cv2.pyrDown(img)
    a = cv2.extractChannel(img, 3)
    out: U8 = cv2.multiply(img, cv2.merge([a, a, a, np.full_like(a, 255)]), scale=1 / 255)
    return out


@functools.lru_cache(maxsize=4096)
def _mip(deck: Deck, name: str, level: int, shade: int) -> U8:
    """``_premultiplied``, shaded (the paper's brightness, alpha untouched)."""
    img = _premultiplied(deck, name, level)
    out: U8 = cv2.insertChannel(cv2.extractChannel(img, 3), cv2.convertScaleAbs(img, alpha=_SHADES[shade]), 3)
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
        pts = [o for piles in tables for o in _outlines(_place(game, piles, seed))]
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


@functools.lru_cache(maxsize=2)
def _table(shot: Shot) -> tuple[U8, str, int, float]:
    """The bare table with its clutter (read-only), its kind, how many objects lie on it and the strength of
    the cards' contact shadows: all fixed by the shot, so a video draws them once."""
    lens = lens_canvas(shot.camera)
    hom = _offset(*lens.origin) @ shot.camera.homography()
    # Independent streams: the same seed gives the same table, light and hands whatever the cards are.
    r_table = np.random.default_rng([shot.seed, 3])
    opts = shot.options
    kind = opts.table or str(r_table.choice(KINDS))
    canvas = table_image(r_table, kind, hom, lens.size)
    n_clutter = draw_clutter(r_table, canvas, hom, shot.bbox) if opts.clutter else 0
    shadow = float(r_table.uniform(0.25, 0.55)) * min(1.0, opts.effects + 0.3)
    canvas.setflags(write=False)
    return canvas, kind, n_clutter, shadow


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
    placed = _place(game, piles, seed)
    outlines = _outlines(placed)
    # The canvas covers every ideal point the lens will look at (barrel distortion reaches outside the frame).
    lens = lens_canvas(cam)
    (ox, oy), (cw, chh) = lens.origin, lens.size
    hom = _offset(ox, oy) @ cam.homography()
    table, kind, n_clutter, shadow = _table(shot)
    canvas = table.copy()
    ids = np.full((chh, cw), _NONE, np.int16)
    # A card squared on the one below casts no shadow worth drawing (and packets are most of the cards).
    squared = [i > 0 and _squared(placed[i - 1], p) for i, p in enumerate(placed)]
    depth = _depths(placed, squared)
    planes = _plane_homographies(cam, sorted(set(depth) | {d + CARD_THICK_MM for d in depth}))
    homs = {z: _offset(ox, oy) @ h for z, h in planes.items()}
    canvas_quads = [_to_canvas(outline, homs[z]) for outline, z in zip(outlines, depth, strict=True)]
    areas: list[int] = []
    for i, (p, dst) in enumerate(zip(placed, canvas_quads, strict=True)):
        px_per_mm = float(np.linalg.norm(dst[1] - dst[0])) / CARD_W_MM
        level = min(3, max(0, math.floor(math.log2(max(CARD_H_PX / max(px_per_mm * CARD_H_MM, 1.0), 1.0)))))
        name = p.card if p.face_up and p.card is not None else BACK
        bitmap = _mip(d, name, level, p.shade % len(_SHADES))
        if squared[i] or (i + 1 < len(placed) and squared[i + 1]):  # in a packet: its edge shows at the side
            under = _to_canvas(outlines[i], homs[depth[i] + CARD_THICK_MM])
            draw_edge(canvas, ids, dst, under, _edge_colour(p), _EDGE)
        # The packet's bottom card casts the shadow of the whole packet: longer and softer the taller it is.
        cast, height = (0.0, 0.0) if squared[i] else (shadow, depth[i])
        areas.append(draw_card(canvas, ids, bitmap, dst, i, cast, px_per_mm, height))
    r_hand = np.random.default_rng([seed, 5])
    poses: list[tuple[F64, F64] | None] = []
    if reach is not None:
        poses = list(reach)
    elif r_hand.random() < opts.hand_probability:
        poses = [None] * (1 + int(r_hand.random() < 0.2))
    for pose in poses:
        (hx, hy), arm = draw_hand(r_hand, canvas, hom, bbox, pose)
        ids[hy : hy + arm.shape[0], hx : hx + arm.shape[1]][arm] = _HAND
    settings: dict[str, float | str] = {"table": kind, "clutter": float(n_clutter)}
    # Four channels: OpenCV's bilinear remap is twice as fast on BGRA as on BGR, conversions included.
    no_map2: Any = None  # the map is two-channel (x, y); OpenCV's stubs want a second one
    image = cv2.remap(
        cv2.cvtColor(canvas, cv2.COLOR_BGR2BGRA), lens.map, no_map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    # Light fields are smooth: applied to the photo rather than the larger canvas, nobody can tell.
    sensor = Sensor.draw(np.random.default_rng([seed, 7]), opts.effects) if opts.effects > 0 else None
    wb = sensor.wb if sensor is not None else (1.0, 1.0, 1.0)
    settings.update(light(np.random.default_rng([seed, 6]), image, opts.effects, wb))
    if sensor is not None:
        image = camera_effects(image, sensor, np.random.default_rng([seed, 8, frame]))
        settings.update(sensor.settings())
    # Every truth point in one projection: card outlines and index boxes, each at the depth its card is drawn.
    boxes = [_index_quads(arts[p.card]) if p.face_up and p.card is not None else [] for p in placed]
    table_pts = [
        np.vstack([outline, local_to_table(p, np.vstack([box for _, box in bx]))]) if bx else outline
        for p, outline, bx in zip(placed, outlines, boxes, strict=True)
    ]
    depths = np.repeat(depth, [len(t) for t in table_pts])
    all_table = np.vstack(table_pts) if table_pts else np.zeros((0, 2))
    image_pts = _project(cam, all_table, depths) if table_pts else np.zeros((0, 2))
    # Rounded as truth.quad rounds, all at once: a scene has some 200 quads.
    image_r = [round(v, 3) for v in image_pts.ravel().tolist()]
    table_r = [round(v, 3) for v in all_table.ravel().tolist()]
    cards = []
    start = 0
    for i, (p, tpts, bx) in enumerate(zip(placed, table_pts, boxes, strict=True)):
        indices: list[IndexTruth] = []
        if bx:
            cpts = _to_canvas(tpts[4:], homs[depth[i]])
            for j, (corner, _) in enumerate(bx):
                k = start + 4 + 4 * j
                hidden = _hidden(ids, cpts[4 * j : 4 * j + 4], i)
                indices.append(IndexTruth(corner, _quad_at(image_r, k), _quad_at(table_r, k), hidden))
        cards.append(
            CardTruth(
                card=p.card,
                pile=p.pile,
                index=p.index,
                face_up=p.face_up,
                image=_quad_at(image_r, start),
                table=_quad_at(table_r, start),
                hidden=_card_hidden(ids, canvas_quads[i], i, areas[i]),
                indices=tuple(indices),
            )
        )
        start += len(tpts)
    settings.update(_camera_settings(cam, placed))
    truth = SceneTruth(game, d.name, seed, _camera_truth(cam), tuple(cards), len(poses), settings)
    return image, truth


def _quad_at(flat: list[float], k: int) -> Quad:
    """Points k..k+3 of a flattened (x, y) list as a truth quad."""
    f = flat[2 * k : 2 * k + 8]
    return ((f[0], f[1]), (f[2], f[3]), (f[4], f[5]), (f[6], f[7]))


def _outlines(placed: list[Placed]) -> list[F64]:
    """``layout.card_corners`` of every card, in one go."""
    if not placed:
        return []
    a = np.radians([p.angle for p in placed])[:, None]
    cos, sin = np.cos(a), np.sin(a)
    cx, cy = _CORNERS[:, 0] - CARD_W_MM / 2, _CORNERS[:, 1] - CARD_H_MM / 2
    x = cx * cos + cy * -sin + np.array([p.x for p in placed])[:, None]
    y = cx * sin + cy * cos + np.array([p.y for p in placed])[:, None]
    return list(np.stack([x, y], axis=-1))


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
