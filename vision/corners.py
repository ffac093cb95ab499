"""Index reads -> physical cards: which reads are the two corners of one card.

Every card shows its index in two corners, the top-left one printed upright and the bottom-right one turned on
most decks (upright on some). A read and a read of the same name a card's diagonal down and to the right are the
two corners of one card (that offset, measured on the names read twice, settles two packs' candidates), and so are
two single reads of different names that offset apart: one of them is misread (most often the turned corner: a 6
read as a 9). ``settle_turned_corners`` names both corners of a card read as a 6 and a 9 of one suit by its
top-left read, before the assembly (``vision.assemble``) lays the cards out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from vision.cards import NAMES, class_of, turn_twins
from vision.detections import BACK, Detections

CARD_PER_INDEX = 5.0  # card height / index height: 5.4 for the renderer's decks (median), 3.9 for a poker deck
CARD_ASPECT = 63.0 / 88.0
_F = npt.NDArray[np.float64]


def settle_turned_corners(dets: Detections) -> Detections:
    """``dets`` with both reads of each card whose two corners are read as a 6 and a 9 of one suit named as its
    top-left read (``physical_cards``): the classifier reads an index either way up and tells a 6 from a 9 by the
    corner it lies in, which a deck that prints its bottom-right index upright fools (kde_ancient_egyptians: its
    top-left 6s and 9s read right 50 of 50, bottom-right ones 0 of 32). Other reads are kept as they are."""
    is_face = dets.class_id < BACK
    faces = dets[is_face]
    if len(faces) < 2:
        return dets
    groups = physical_cards(faces, index_card_height(faces, dets[~is_face]))
    renamed = faces.class_id.copy()
    for name, cl in groups:
        names = [NAMES[int(faces.class_id[i])] for i in cl]
        if len(cl) == 2 and names[0] != names[1] and turn_twins(names[0], names[1]):
            renamed[cl] = class_of(name)
    if np.array_equal(renamed, faces.class_id):
        return dets
    class_id = dets.class_id.copy()
    class_id[np.flatnonzero(is_face)] = renamed
    return Detections(dets.boxes, class_id, dets.confidence, dets.data)


def physical_cards(faces: Detections, card_h: float) -> list[tuple[str, list[int]]]:
    """Reads of each name grouped into physical cards: one read, or a top-left and bottom-right pair. The second
    index of a card lies down and to the right of the first, along the card's diagonal less the index margins
    (how far depends on the deck), not beside it (the next pile) nor straight below it (the next row). Every card
    of a photo has the same offset between its two indices (one deck, one camera): it is measured on the names
    read exactly twice, and where a name has more candidates (two packs) the reads whose offset is nearest it
    pair first. ``card_h``: a rough card height (px), for the reach only."""
    centres = faces.centres.astype(np.float64)
    by_name = _grouped(faces.names)
    offset = measured_corner_offset(centres, faces.names, card_h)
    out: list[tuple[str, list[int]]] = []
    for name in sorted(by_name):
        idx = sorted(by_name[name], key=lambda i: -float(faces.confidence[i]))
        pairs = []
        for i, j, d in _down_right(centres, idx, card_h):
            if offset is None:
                pairs.append((float(np.hypot(*d)), i, j))
            elif np.hypot(*(d - offset)) < 0.35 * np.hypot(*offset) or len(idx) == 2:
                pairs.append((float(np.hypot(*(d - offset))), i, j))
        used: set[int] = set()
        for _, i, j in sorted(pairs):
            if i not in used and j not in used:
                used |= {i, j}
                out.append((name, [i, j]))
        out.extend((name, [i]) for i in idx if i not in used)
    # with no card read twice, the usual deck's offset: a photo with every second index misread has the most to
    # gain (k-illegal-1: a 6S's turned corner read as 9H, a second card on it)
    usual = usual_corner_offset(CARD_ASPECT * card_h, card_h)
    return misread_corners(out, centres, faces.confidence, usual if offset is None else offset)


def _grouped(names: Sequence[str]) -> dict[str, list[int]]:
    """The positions of each name, in order."""
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        groups.setdefault(name, []).append(i)
    return groups


def _down_right(centres: _F, idx: list[int], card_h: float) -> list[tuple[int, int, _F]]:
    """Pairs (i, j, offset) of ``idx`` where j lies down and to the right of i as a card's bottom-right index lies
    from its top-left one: not beside it (the next pile), not straight below it (the next row), within reach."""
    out = []
    for i in idx:
        for j in idx:
            dx, dy = centres[j] - centres[i]
            if dx > 0 and dy > 0 and 0.4 * dx <= dy <= 4.0 * dx and np.hypot(dx, dy) < 3.0 * card_h:
                out.append((i, j, centres[j] - centres[i]))
    return out


def measured_corner_offset(centres: _F, names: Sequence[str], card_h: float, *, twice_only: bool = True) -> _F | None:
    """The offset (px) from a card's top-left index to its bottom-right one, measured on the card names read
    exactly twice (``twice_only``; else on every two reads of a name), a card's diagonal apart (one deck, one
    camera: every card has the same); None with no such pair. ``card_h``: a rough card height (px), for the reach
    only."""
    groups = [idx for idx in _grouped(names).values() if len(idx) == 2 or not twice_only]
    found = [d for idx in groups for _, _, d in _down_right(centres, idx, card_h)]
    return np.median(np.array(found), axis=0) if found else None


def usual_corner_offset(card_w: float, card_h: float) -> npt.NDArray[np.float64]:
    """The usual deck's offset (px) from a card's top-left index to its bottom-right one."""
    return np.array([0.75 * card_w, 0.62 * card_h])


def misread_corners(
    groups: list[tuple[str, list[int]]], centres: _F, confidence: npt.NDArray[np.float32], offset: _F | None
) -> list[tuple[str, list[int]]]:
    """Pair the single reads that lie a card's two corners apart (``offset``, measured on the names read twice)
    under different names: one of the two was misread (most often the turned corner: a 6 read as a 9), and left
    alone it would be a second card, a phantom that pulls the layout fit. The pair keeps the more confident
    name; but a 6 and a 9 of one suit keep the top-left read's: that corner is printed upright on every deck,
    the bottom-right one turned on most and upright on some, where the classifier, which reads either way up, takes
    it for the other rank (kde_ancient_egyptians: its top-left 6s and 9s read right 50 of 50, bottom-right 0 of 32)."""
    if offset is None:
        return groups
    ox, oy = float(offset[0]), float(offset[1])
    # the top-left reads (a pair's lower read is a bottom-right index, which covers nothing)
    top = np.ones(len(centres), bool)
    for _, cl in groups:
        if len(cl) == 2:
            top[max(cl, key=lambda i: float(centres[i, 1]))] = False

    def in_column(i: int, below: bool, depth: float, width: float) -> bool:
        """Whether a top-left read lies within ``depth`` x the offset's height below (or above) read ``i``, and
        within ``width`` x its width aside."""
        dx, dy = centres[:, 0] - centres[i, 0], centres[:, 1] - centres[i, 1]
        dy = dy if below else -dy
        return bool(np.any(top & (dy > 0.05 * oy) & (dy < depth * oy) & (np.abs(dx) < width * ox)))

    # a card just below it in its column: a cascade's card, its lower corner hidden
    single = [k for k, (_, cl) in enumerate(groups) if len(cl) == 1 and not in_column(cl[0], True, 1.5, 0.4)]
    # a card's index just above it in its column: a cascade's card lying on that one, read by its own top-left
    # index, not a bottom-right corner (c-misdeal-1: the 7S on the 5D of column 2 was taken for the bottom-right
    # corner of column 1's jack, and went missing with the misdeal it showed)
    lower = [k for k in single if not in_column(groups[k][1][0], False, 0.6, 0.2)]
    pairs = []
    for a in single:
        for b in lower:
            i, j = groups[a][1][0], groups[b][1][0]
            miss = float(np.hypot(*(centres[j] - centres[i] - offset)))
            if a != b and groups[a][0] != groups[b][0] and miss < 0.35 * float(np.hypot(*offset)):
                pairs.append((miss, a, b))
    done: set[int] = set()
    merged = []
    for _, a, b in sorted(pairs):
        if a not in done and b not in done:
            done |= {a, b}
            i, j = groups[a][1][0], groups[b][1][0]  # i at the top-left corner, j a card's corners away
            upright = turn_twins(groups[a][0], groups[b][0]) or confidence[i] >= confidence[j]
            merged.append((groups[a][0] if upright else groups[b][0], [i, j]))
    return [g for k, g in enumerate(groups) if k not in done] + merged


def index_card_height(faces: Detections, backs: Detections) -> float:
    """A rough card height (px) from the index boxes (decks differ: within a factor of two), or, with no index
    read, from the backs' strips (a card wide)."""
    if len(faces):
        box_h = float(np.median(faces.boxes[:, 3] - faces.boxes[:, 1]))
        box_w = float(np.median(faces.boxes[:, 2] - faces.boxes[:, 0]))
        return CARD_PER_INDEX * max(box_h, box_w)
    return float(np.median(backs.boxes[:, 2] - backs.boxes[:, 0])) / CARD_ASPECT
