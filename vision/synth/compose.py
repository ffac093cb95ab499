"""Drawing one card into the canvas: its bitmap warped onto the table, its contact shadow, and its footprint in
the id buffer.

Cards were most of a scene's time (two float blends per card), so a card is composited in one pass of 8-bit
operations: the bitmap is premultiplied by its alpha, and the contact shadow is folded into the factor that says
how much of what is under the card still shows.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[Any]  # cv2 returns loosely typed arrays; the name says the dtype
U8 = npt.NDArray[Any]  # ditto
IDS = npt.NDArray[np.int16]


def _blend(roi: U8, warped: U8, ids: IDS, own: int, keep: U8 | None) -> int:
    """Composite a warped, premultiplied BGRA card over ``roi`` (darkened by ``keep``/255 where the card lets it
    through, when given); returns its pixel count (alpha > 0.5), which it marks ``own`` in ``ids``."""
    a = cv2.extractChannel(warped, 3)
    through = cv2.bitwise_not(a)  # 255 - alpha: how much of what is under shows
    if keep is not None:
        through = cv2.multiply(through, keep, scale=1 / 255)
    under = cv2.multiply(roi, cv2.cvtColor(through, cv2.COLOR_GRAY2BGR), scale=1 / 255)
    cv2.add(cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR), under, dst=roi)
    _, mine = cv2.threshold(a, 127, 1, cv2.THRESH_BINARY)  # 1 where the card's paper is
    ids[mine.view(np.bool_)] = own
    return cv2.countNonZero(mine)


def draw_card(
    canvas: U8,
    ids: IDS,
    bitmap: U8,
    dst: F64,
    own: int,
    shadow: float,
    px_per_mm: float,
    height: float = 0.0,
) -> int:
    """Composite one card; returns how many canvas pixels its paper covers (rounded corners excluded).

    ``shadow``: strength of the contact shadow (0: none); ``height``: mm of packet standing on this card, which
    makes the shadow longer and softer.
    """
    ch, cw = canvas.shape[:2]
    dx, dy = round((0.4 + 0.3 * height) * px_per_mm), round((0.7 + 0.5 * height) * px_per_mm)
    k = max(3, round((1.6 + 0.8 * height) * px_per_mm) | 1)
    # Room for the shadow; without one, for the bilinear rim (a card in a packet: most cards of a scene).
    pad = math.ceil((2.5 + 1.0 * height) * px_per_mm) + 2 if shadow > 0 else 2
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
    keep = None
    if shadow > 0:  # contact shadow: the card sits a hair above what is under it
        h, w = warped.shape[:2]
        blurred = cv2.blur(cv2.extractChannel(warped, 3), (k, k))
        keep = np.full((h, w), 255, np.uint8)
        if dy < h and dx < w:  # a sliver of a card at the frame's edge can be thinner than the shadow's offset
            keep[dy:, dx:] = cv2.convertScaleAbs(blurred[: h - dy, : w - dx], alpha=-shadow, beta=255)
    return _blend(canvas[cy0:cy1, cx0:cx1], warped, ids[cy0:cy1, cx0:cx1], own, keep)


def draw_edge(canvas: U8, ids: IDS, top: F64, bottom: F64, colour: tuple[float, float, float], edge_id: int) -> None:
    """The side of one card of a packet, between its face (``top``, canvas quad) and its underside (``bottom``):
    the convex hull of both, in ``colour``, marked ``edge_id``. The card's face, drawn next, covers all but the
    part of the side that faces the camera."""
    hull = cv2.convexHull(np.vstack([top, bottom]).astype(np.float32)).reshape(-1, 2)
    pts = np.round(hull * 16).astype(np.int32)
    cv2.fillConvexPoly(canvas, pts, colour, cv2.LINE_AA, shift=4)
    cv2.fillConvexPoly(ids, pts, edge_id, cv2.LINE_8, shift=4)
