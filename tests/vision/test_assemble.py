"""Assembly from perfect reads (render truth), and the one-pack duplicate reconciliation."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engine import Table, find_game
from vision.assemble import UNKNOWN, assemble, reconcile, to_table
from vision.cards import NAMES, class_of
from vision.detections import Detections
from vision.synth import RenderOptions, render_scene
from vision.synth.truth import visible_face_down, visible_piles

sys.path.insert(0, str(Path(__file__).parent))
from truth_dets import truth_detections


def _playout(game: str, seed: int, moves: int) -> dict[str, list[tuple[str | None, bool]]]:
    table = Table.dealt(find_game(game), seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        options = table.generate_moves()
        if not options:
            break
        table.push(options[int(rng.integers(len(options)))])
    return table.piles_view()


@pytest.mark.parametrize(("game", "seed", "tilt"), [("klondike", 3, 0.0), ("klondike", 8, 40.0), ("canfield", 4, 30.0)])
def test_piles_from_perfect_reads(game: str, seed: int, tilt: float) -> None:
    piles = _playout(game, seed, 40)
    options = RenderOptions(max_tilt=tilt, hand_probability=0)
    _, truth = render_scene(game, piles, deck="paris", seed=seed, options=options)
    obs = assemble(truth_detections(truth), game)
    want = visible_piles(truth)
    assert obs.names() == {p: want.get(p, []) for p in obs.piles}
    down = visible_face_down(truth)
    assert obs.face_down == {p: down.get(p, 0) for p in obs.piles}
    table, _ = to_table(obs)
    assert table.game.name.lower().startswith(game)
    with_backs, _ = to_table(obs, face_down=True)
    for pile in obs.piles:
        if pile.startswith("t"):
            assert with_backs.face_down_count(pile) == down.get(pile, 0)


@pytest.mark.parametrize(("seed", "tilt"), [(1, 0.0), (5, 35.0)])
def test_face_down_counts_of_a_fresh_deal(seed: int, tilt: float) -> None:
    piles = Table.dealt(find_game("klondike"), seed).piles_view()
    _, truth = render_scene("klondike", piles, deck="paris", seed=seed,
                            options=RenderOptions(max_tilt=tilt, hand_probability=0))
    obs = assemble(truth_detections(truth), "klondike")
    assert obs.face_down == {"s": 1, "w": 0, "f1": 0, "f2": 0, "f3": 0, "f4": 0,
                             **{f"t{i}": i - 1 for i in range(1, 8)}}
    assert obs.names() == {p: ([str(piles[p][-1][0])] if p.startswith("t") else []) for p in obs.piles}


def test_duplicate_read_is_resolved_by_confidence_and_second_opinion() -> None:
    # 7H read at two places a whole layout apart: one pack, so one read is wrong.
    boxes = [[100, 100, 110, 120], [400, 300, 410, 320], [700, 100, 710, 120]]
    ids = [class_of("7H"), class_of("7H"), class_of("2C")]
    dets = Detections.build(
        boxes, ids, [0.9, 0.5, 0.8],
        {"second": np.array([class_of("7D"), class_of("7D"), class_of("2S")]),
         "second_score": np.array([0.05, 0.4, 0.1], np.float32)},
    )
    seen = {(round(c.x), round(c.y)): c.name for c in reconcile(dets, card_h=100.0)}
    assert seen[(105, 110)] == "7H"  # the confident read keeps the name
    assert seen[(405, 310)] == "7D"  # the weaker one takes its runner-up, not read anywhere else
    assert seen[(705, 110)] == "2C"


def test_duplicate_without_plausible_second_reading_becomes_unknown() -> None:
    boxes = [[100, 100, 110, 120], [500, 400, 510, 420], [700, 100, 710, 120]]
    ids = [class_of("KS"), class_of("KS"), class_of("QS")]
    dets = Detections.build(
        boxes, ids, [0.9, 0.6, 0.9],
        {"second": np.array([class_of("QS")] * 3), "second_score": np.array([0.3, 0.3, 0.3], np.float32)},
    )
    names = sorted(c.name for c in reconcile(dets, card_h=100.0))
    assert names == sorted(["KS", "QS", UNKNOWN])  # QS is taken, so the second KS read is given up


def test_two_corners_of_one_card_are_one_card() -> None:
    boxes = [[100, 100, 110, 120], [160, 180, 170, 200]]  # top-left and bottom-right index of one card
    dets = Detections.build(boxes, [class_of("QD")] * 2, [0.9, 0.8])
    cards = reconcile(dets, card_h=100.0)
    assert [(c.name, c.reads) for c in cards] == [("QD", 2)]
    assert NAMES[class_of("qd")] == "QD"
