"""Assembly from reads as the real recogniser gives them: back strips of neighbouring columns merged into one box,
a card's turned corner misread as another card, doubtful phantoms between the piles, reads missing. The cards
that are read right must still land in their piles."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from vision.assemble import assemble
from vision.cards import NAMES, class_of
from vision.detections import BACK, Detections
from vision.synth import SceneTruth

sys.path.insert(0, str(Path(__file__).parent))
from test_assemble import _render  # one recipe for a played position's render
from truth_dets import expected_piles, truth_detections


def _unseen_names(dets: Detections, count: int) -> list[str]:
    """Names no read gives (a misread or a phantom names one of them)."""
    read = {NAMES[int(k)] for k in dets.class_id if k < BACK}
    return [n for n in NAMES if n not in read][:count]


def _bottom_right_reads(truth: SceneTruth, dets: Detections, piles: list[str], count: int) -> list[int]:
    """Indices into ``dets`` of the bottom-right index reads of the top card of the first ``count`` of ``piles``
    whose top card shows that index."""
    out = []
    for pile in piles:
        top = max((c for c in truth.cards if c.pile == pile and c.face_up), key=lambda c: c.index)
        corner = next(ix for ix in top.indices if ix.corner == "bottom_right")
        miss = np.hypot(*(dets.boxes[:, :2] - np.array(corner.image).min(0)).T)
        if miss.min() < 1.0:
            out.append(int(np.argmin(miss)))
    assert len(out) >= count
    return out[:count]


def _faces_right(obs_names: dict[str, list[str]], want: dict[str, list[str]], extra: set[str]) -> None:
    """Every pile holds exactly its truth cards, in order, once the ``extra`` names (phantoms) are left out."""
    got = {p: [n for n in names if n not in extra] for p, names in obs_names.items()}
    assert got == want


@pytest.mark.parametrize(("seed", "tilt"), [(1, 0.0), (5, 30.0), (8, 45.0)])
def test_merged_back_strips_and_a_stock_box_too_wide(seed: int, tilt: float) -> None:
    """A detector that merges each column's strips with the next two columns' (boxes three cards wide) and
    draws the stock's box three and a half cards wide: the card size must not come from those boxes."""
    truth = _render("klondike", seed, tilt, moves=0)
    dets = truth_detections(truth)
    backs = dets[dets.class_id == BACK]
    b = backs.boxes.copy()
    w = b[:, 2] - b[:, 0]
    stock = int(np.argmin(b[:, 1]))  # the top row's only back
    wide = b.copy()
    wide[:, 2] = b[:, 2] + 2.0 * w  # each strip runs on over the next two columns
    mid = (b[stock, 0] + b[stock, 2]) / 2
    wide[stock, 0], wide[stock, 2] = mid - 1.75 * w[stock], mid + 1.75 * w[stock]
    merged = Detections.build(wide, backs.class_id, np.full(len(backs), 0.5))
    obs = assemble(Detections.merge([dets[dets.class_id < BACK], merged]), "klondike")
    assert obs.names() == expected_piles(truth, "klondike")[0]


@pytest.mark.parametrize(("seed", "tilt"), [(2, 0.0), (6, 25.0), (9, 40.0)])
def test_a_misread_turned_corner_is_not_a_second_card(seed: int, tilt: float) -> None:
    """The bottom-right index of three columns' top cards read as cards not on the table (a 6 read as a 9): each
    is the same card's other corner, not a card of its own that pulls the columns."""
    truth = _render("klondike", seed, tilt, moves=0)
    dets = truth_detections(truth)
    wrong = _bottom_right_reads(truth, dets, ["t2", "t4", "t6", "t3", "t5", "t7"], 3)
    ids, conf = dets.class_id.copy(), np.full(len(dets), 0.9, np.float32)
    for k, name in zip(wrong, _unseen_names(dets, 3), strict=True):
        ids[k], conf[k] = class_of(name), 0.5
    obs = assemble(Detections.build(dets.boxes, ids, conf), "klondike")
    want, down = expected_piles(truth, "klondike")
    assert obs.names() == want
    assert obs.face_down == down


@pytest.mark.parametrize(("seed", "tilt"), [(4, 0.0), (7, 20.0), (3, 35.0)])
def test_doubtful_phantoms_do_not_outvote_the_sure_reads(seed: int, tilt: float) -> None:
    """Few cards read surely (the top-left index of columns 1, 3, 5 and 7 of a deal) and more doubtful phantoms
    (0.3) on a lattice half a column off them, between every two columns, as confident reads would carry the fit
    there: the sure cards keep their columns."""
    truth = _render("klondike", seed, tilt, moves=0)
    dets = truth_detections(truth, backs=False)
    top_left = []
    for pile in ("t1", "t2", "t3", "t4", "t5", "t6", "t7"):
        card = max((c for c in truth.cards if c.pile == pile and c.face_up), key=lambda c: c.index)
        at = np.array(card.indices[0].image).min(0)
        top_left.append(int(np.argmin(np.hypot(*(dets.boxes[:, :2] - at).T))))
    keep = top_left[::2]
    corners = dets.boxes[top_left, :2]
    spots = (corners[:-1] + corners[1:]) / 2
    size = dets.boxes[keep[0], 2:] - dets.boxes[keep[0], :2]
    names = _unseen_names(dets, len(spots))
    phantoms = Detections.build(
        [[*s, *(s + size)] for s in spots], [class_of(n) for n in names], np.full(len(spots), 0.3)
    )
    sure = Detections.build(dets.boxes[keep], dets.class_id[keep], np.full(len(keep), 0.95))
    obs = assemble(Detections.merge([sure, phantoms]), "klondike")
    read = {NAMES[int(k)] for k in sure.class_id}
    want = {p: [n for n in cards if n in read] for p, cards in expected_piles(truth, "klondike")[0].items()}
    _faces_right(obs.names(), want, set(names))


@pytest.mark.parametrize(("confidence", "kept"), [(0.35, False), (0.9, True)])
def test_a_doubtful_read_on_a_cascades_last_card_is_its_face(confidence: float, kept: bool) -> None:
    """A read a quarter card below the last card of a column, on its face, read once (no second corner): when
    doubtful it is a read of the card's picture (the same in every frame, so the tracker's vote would keep it),
    when sure it is taken for a card."""
    truth = _render("klondike", 4, 20.0, moves=0)
    dets = truth_detections(truth)
    card = max((c for c in truth.cards if c.pile == "t3" and c.face_up), key=lambda c: c.index)
    box = dets.boxes[int(np.argmin(np.hypot(*(dets.boxes[:, :2] - np.array(card.indices[0].image).min(0)).T)))]
    quad = np.array(card.image)
    step = 0.25 * (quad[:, 1].max() - quad[:, 1].min())
    name = _unseen_names(dets, 1)[0]
    face = Detections.build([[box[0], box[1] + step, box[2], box[3] + step]], [class_of(name)], [confidence])
    sure = Detections.build(dets.boxes, dets.class_id, np.full(len(dets), 0.95))
    obs = assemble(Detections.merge([sure, face]), "klondike")
    want = expected_piles(truth, "klondike")[0]
    assert obs.names() == {**want, "t3": [*want["t3"], name] if kept else want["t3"]}


def test_one_index_read_under_two_names_is_one_card() -> None:
    """The recogniser names one corner twice (the 5 of clubs' turned corner as 8H and 8C): the surer name
    stands, the other is no card of its own."""
    truth = _render("klondike", 7, 30.0, moves=0)
    dets = truth_detections(truth)
    faces = np.flatnonzero(dets.class_id < BACK)[:5]
    names = _unseen_names(dets, len(faces))
    again = Detections.build(dets.boxes[faces] + 1.0, [class_of(n) for n in names], np.full(len(faces), 0.4))
    sure = Detections.build(dets.boxes, dets.class_id, np.full(len(dets), 0.9))
    obs = assemble(Detections.merge([sure, again]), "klondike")
    assert obs.names() == expected_piles(truth, "klondike")[0]
    assert not any(c.name in names for c in obs.unplaced)


def test_a_deal_whose_cascade_backs_were_not_read() -> None:
    """A fresh deal read without the cascades' backs (a detector that merges them into boxes several columns
    wide, dropped): the columns' top cards step down from left to right like a row turned by the camera, and the
    layout's turn measured on them is wrong; the layout fitted unturned puts each card on its column."""
    truth = _render("klondike", 5, 20.0, moves=0)
    dets = truth_detections(truth)
    backs = np.flatnonzero(dets.class_id == BACK)
    stock = backs[np.argmin(dets.boxes[backs, 1])]  # the top row's only back
    keep = (dets.class_id < BACK) | (np.arange(len(dets)) == stock)
    assert assemble(dets[keep], "klondike").names() == expected_piles(truth, "klondike")[0]


def _top_card(truth: SceneTruth, pile: str) -> Any:
    return max((c for c in truth.cards if c.pile == pile and c.face_up), key=lambda c: c.index)


def _nearest_box(dets: Detections, at: npt.NDArray[np.float64], rows: npt.NDArray[np.intp] | None = None) -> int:
    """The read (among ``rows``, default all) whose box's top-left corner lies nearest ``at``."""
    rows = np.arange(len(dets)) if rows is None else rows
    return int(rows[np.argmin(np.hypot(*(dets.boxes[rows, :2] - at).T))])


@pytest.mark.parametrize(("seed", "tilt"), [(2, 0.0), (6, 25.0), (9, 40.0), (3, 45.0)])
def test_a_misread_turned_corner_when_no_card_is_read_twice(seed: int, tilt: float) -> None:
    """Every column's top card read by its top-left index only, except three whose turned corner is read too and
    misread (a 6S's as 9H): with no card read twice the offset between a card's corners cannot be measured, the
    usual deck's pairs them (k-illegal-1: the misread corner, a card of its own, was accused of an illegal move)."""
    truth = _render("klondike", seed, tilt, moves=0)
    dets = truth_detections(truth)
    corners = {
        pile: _nearest_box(
            dets,
            np.array(next(ix for ix in _top_card(truth, pile).indices if ix.corner == "bottom_right").image).min(0),
        )
        for pile in ("t1", "t2", "t3", "t4", "t5", "t6", "t7")
    }
    misread = [corners[p] for p in ("t2", "t4", "t6")]
    ids, conf = dets.class_id.copy(), np.full(len(dets), 0.9, np.float32)
    for k, name in zip(misread, _unseen_names(dets, 3), strict=True):
        ids[k], conf[k] = class_of(name), 0.5
    keep = np.ones(len(dets), bool)
    keep[[corners[p] for p in ("t1", "t3", "t5", "t7")]] = False
    reads = Detections.build(dets.boxes[keep], ids[keep], conf[keep])
    names = [NAMES[int(k)] for k in reads.class_id if k < BACK]
    assert len(names) == len(set(names))  # no name read twice
    obs = assemble(reads, "klondike")
    want, down = expected_piles(truth, "klondike")
    assert obs.names() == want
    assert obs.face_down == down


@pytest.mark.parametrize(("seed", "tilt"), [(1, 0.0), (8, 45.0), (2, 45.0)])
def test_doubtful_reads_between_the_rows_do_not_make_them_one(seed: int, tilt: float) -> None:
    """Three doubtful phantoms (0.5) between the foundations' row and the cascades', a quarter of the gap apart
    and between columns (reads of a card's picture or turned corner): cut on every read the two rows are one
    cluster, or a phantom is taken for the cascades' row; the rows cut on the sure reads alone win."""
    truth = _render("klondike", seed, tilt, moves=30)
    dets = truth_detections(truth)
    top_of = {c.pile: float(np.array(c.image)[:, 1].min()) for c in truth.cards}
    left = {p: float(np.mean([np.array(c.image)[:, 0].min() for c in truth.cards if c.pile == p])) for p in top_of}
    cascades = min(y for p, y in top_of.items() if p.startswith("t"))
    upper = max(y for p, y in top_of.items() if not p.startswith("t"))
    size = np.median(dets.boxes[:, 2:] - dets.boxes[:, :2], axis=0)
    spots = [
        ((left[a] + left[b]) / 2, upper + (cascades - upper) * f)
        for (a, b), f in zip([("t3", "t4"), ("t5", "t6"), ("t6", "t7")], (0.25, 0.5, 0.75), strict=True)
    ]
    names = _unseen_names(dets, len(spots))
    phantoms = Detections.build(
        [[x, y, x + size[0], y + size[1]] for x, y in spots], [class_of(n) for n in names], np.full(len(spots), 0.5)
    )
    sure = Detections.build(dets.boxes, dets.class_id, np.full(len(dets), 0.95))
    obs = assemble(Detections.merge([sure, phantoms]), "klondike")
    want, down = expected_piles(truth, "klondike")
    _faces_right(obs.names(), want, set(names))
    assert obs.face_down == down


def test_a_deep_cascade_s_first_card_below_its_backs_is_no_misplaced_head() -> None:
    """A deal whose last three columns show only their first two backs (the strips below missed): the face-up
    card hangs far below its row's line, but under backs of its own column, so it continues its cascade and
    costs the fit nothing (unexcused, it tipped the fit to put the king of column 7 in column 6)."""
    truth = _render("klondike", 1, 45.0, moves=0)
    dets = truth_detections(truth)
    backs = np.flatnonzero(dets.class_id == BACK)
    drop = []
    for pile in ("t5", "t6", "t7"):
        down = sorted((c for c in truth.cards if c.pile == pile and not c.face_up), key=lambda c: c.index)
        drop += [_nearest_box(dets, np.array(c.image).min(0), backs) for c in down[2:]]
    keep = np.ones(len(dets), bool)
    keep[drop] = False
    assert len(drop) == 9
    assert assemble(dets[keep], "klondike").names() == expected_piles(truth, "klondike")[0]


@pytest.mark.parametrize(
    ("top_left", "bottom_right", "kept"),
    [
        ("6H", "9H", "6H"),  # a 6 and a 9 of one suit: the top-left corner, printed upright on every deck
        ("9D", "6D", "9D"),
        ("8S", "8H", "8H"),  # any other misread pair: the more confident read
        ("6C", "9H", "9H"),  # a 6 and a 9 of two suits are no turned pair
    ],
)
def test_a_card_whose_two_corners_read_as_a_6_and_a_9_keeps_its_top_left_name(
    top_left: str, bottom_right: str, kept: str
) -> None:
    """kde_ancient_egyptians prints its bottom-right index upright, and the classifier, which reads indices either
    way up, takes its 6s' bottom-right corner for a 9 (more confidently than the top-left's 6)."""
    from vision.corners import misread_corners

    offset = np.array([60.0, 90.0])
    centres = np.array([[100.0, 100.0], [160.0, 190.0], [400.0, 100.0]])
    confidence = np.array([0.6, 0.9, 0.8], np.float32)
    groups = [(top_left, [0]), (bottom_right, [1]), ("KS", [2])]
    merged = misread_corners(groups, centres, confidence, offset)
    assert ("KS", [2]) in merged
    assert (kept, [0, 1]) in merged
    assert len(merged) == 2


def test_a_cascade_card_of_the_next_column_is_not_taken_for_a_bottom_right_corner() -> None:
    """c-misdeal-1 (reads of one frame): column 2's 7S, lying on its 5D, sat about a card's corners away from
    column 1's jack and was paired with it as the jack's misread bottom-right corner; the 7S went missing, and
    with it the misdeal column 2 showed. A read with another card's index just above it in its column is a card of
    a cascade (its top-left index), not a bottom-right corner."""
    from vision.corners import misread_corners

    offset = np.array([101.5, 117.2])
    centres = np.array([[555.0, 340.0], [691.0, 371.0], [686.0, 417.0]])  # JH, 5D, 7S
    confidence = np.array([0.75, 0.42, 0.63], np.float32)
    groups = [("JH", [0]), ("5D", [1]), ("7S", [2])]
    assert sorted(misread_corners(groups, centres, confidence, offset)) == sorted(groups)
    # without the 5D read above it, the 7S is where the jack's bottom-right corner would be, and is taken for it
    alone = [("JH", [0]), ("7S", [1])]
    assert ("JH", [0, 1]) in misread_corners(alone, centres[[0, 2]], confidence[[0, 2]], offset)
