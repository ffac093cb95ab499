"""Index reads -> physical cards (``vision.corners``): a card's two corners read as a 6 and a 9."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import vision.recognise as recognise_module
from vision.cards import NAMES, class_of
from vision.corners import settle_turned_corners
from vision.detections import BACK, Detections
from vision.recognise import load_recogniser, recognise
from vision.synth import RenderOptions, render_scene

sys.path.insert(0, str(Path(__file__).parent))
from truth_dets import VISIBLE


def _reads(named: list[tuple[str, float, float]]) -> Detections:
    """Index reads (name, centre x, centre y), each box 20 x 30 px (a card about 150 px high)."""
    boxes = [[x - 10, y - 15, x + 10, y + 15] for _, x, y in named]
    return Detections.build(boxes, [NAMES.index(n) for n, _, _ in named], [0.8] * len(named))


@pytest.mark.parametrize(
    ("top_left", "bottom_right", "named"),
    [
        ("6H", "9H", "6H"),  # the bottom-right corner printed upright, read turned: the top-left read names both
        ("9D", "6D", "9D"),
        ("6C", "9H", None),  # a 6 and a 9 of two suits: no turned pair, each read kept
        ("8S", "8H", None),  # any other misread pair is the assembly's to settle (vision.assemble)
    ],
)
def test_a_card_read_as_a_6_and_a_9_is_named_by_its_top_left_corner(
    top_left: str, bottom_right: str, named: str | None
) -> None:
    # the usual offset from a card's top-left index to its bottom-right one, for a card 150 px high: (80, 93)
    dets = _reads([(top_left, 100.0, 100.0), (bottom_right, 180.0, 193.0), ("KS", 400.0, 100.0)])
    settled = settle_turned_corners(dets)
    expected = [named, named, "KS"] if named else [top_left, bottom_right, "KS"]
    assert settled.names == expected
    assert np.array_equal(settled.boxes, dets.boxes)
    assert np.array_equal(settled.confidence, dets.confidence)


def test_a_6_and_a_9_far_apart_or_alone_are_left_alone() -> None:
    far = _reads([("6H", 100.0, 100.0), ("9H", 400.0, 300.0)])
    assert settle_turned_corners(far).names == ["6H", "9H"]
    alone = _reads([("9H", 180.0, 193.0)])
    assert settle_turned_corners(alone).names == ["9H"]
    back = Detections.build([[0, 0, 40, 10]], [BACK], [0.5])
    assert settle_turned_corners(Detections.merge([alone, back])).names == ["9H", "back"]


def test_an_upright_bottom_index_deck_has_its_6s_and_9s_named_at_both_corners(monkeypatch: pytest.MonkeyPatch) -> None:
    """kde_ancient_egyptians (an unseen deck) prints its bottom-right index upright: read alone, a 6's bottom-right
    corner is taken for a 9 (and a 9's for a 6). Seven cards dealt apart, each showing both corners."""
    cards = ["6H", "9C", "6S", "9D", "QC", "4H", "JS"]
    piles = {f"t{k + 1}": [(card, True)] for k, card in enumerate(cards)}
    image, truth = render_scene(
        "klondike", piles, deck="kde_ancient_egyptians", seed=7, options=RenderOptions(max_tilt=10, hand_probability=0)
    )
    rec = load_recogniser(threads=1)

    def turned_reads() -> tuple[int, int]:
        """(reads on a 6's or 9's index, those of them named as the card's turn twin)."""
        found = recognise(image, rec)
        reads = turned = 0
        for c in truth.cards:
            if not (c.face_up and c.card and c.card[0] in "69"):
                continue
            twin = {"6": "9", "9": "6"}[c.card[0]] + c.card[1:]
            for ix in c.indices:
                if ix.hidden > VISIBLE:
                    continue
                q = np.array(ix.image)
                (x0, y0), (x1, y1) = q.min(0) - 3, q.max(0) + 3
                inside = (found.centres[:, 0] >= x0) & (found.centres[:, 0] <= x1)
                inside &= (found.centres[:, 1] >= y0) & (found.centres[:, 1] <= y1)
                reads += int(np.sum(inside & (found.class_id < BACK)))
                turned += int(np.sum(inside & (found.class_id == class_of(twin))))
        return reads, turned

    reads, turned = turned_reads()
    assert reads >= 6
    assert turned == 0
    monkeypatch.setattr(recognise_module, "settle_turned_corners", lambda dets: dets)
    _, turned_alone = turned_reads()  # the same reads, each corner named on its own
    assert turned_alone >= 3
