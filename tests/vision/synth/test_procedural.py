"""Procedural decks (vision/synth/procedural.py): drawn training decks the renderer uses like artwork decks."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.errors import CadoganError
from vision.synth import RenderOptions, find_deck, render_scene
from vision.synth.artwork import CARD_H_PX, CARD_W_PX, all_cards, index_box_px, load_deck
from vision.synth.decks import DeckSource, DeckSplit, deck_seed
from vision.synth.procedural import fonts, procedural_deck

CLEAN = RenderOptions(hand_probability=0.0, clutter=False, effects=0.0, table="felt")


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("procedural_0", 0),
        ("procedural_12", 12),
        ("Procedural-7", 7),
        ("procedural_", None),
        ("procedural_x", None),
        ("dondorf", None),
    ],
)
def test_deck_names_carry_their_seed(name: str, seed: int | None) -> None:
    assert deck_seed(name) == seed


def test_a_procedural_deck_is_a_training_deck_and_bad_names_fail_clearly() -> None:
    deck = find_deck("procedural_3")
    assert deck.source is DeckSource.PROCEDURAL
    assert deck.split is DeckSplit.TRAIN  # never one of the unseen test decks
    with pytest.raises(CadoganError, match="procedural_<seed>"):
        find_deck("procedural_three")


def test_faces_are_cards_with_the_index_where_the_box_says() -> None:
    arts = load_deck(find_deck("procedural_5"))
    assert set(arts) == {*all_cards(), "back"}
    for name in all_cards():
        art = arts[name]
        assert art.image.shape == (CARD_H_PX, CARD_W_PX, 4)
        assert art.image[0, 0, 3] < 128 < art.image[CARD_H_PX // 2, 2, 3]  # rounded corner, opaque edge
        # the artwork decks' own index finder finds ink inside the drawn box (it may leave out a wide "10"'s
        # second digit: it only looks at the very corner), and the whole height of it
        found = index_box_px(art.image)
        assert found is not None, name
        x0, y0, x1, y1 = (v * 4 for v in art.index_box_mm)
        assert x0 - 2 <= found[0], name
        assert y0 - 2 <= found[1], name
        assert found[2] <= x1 + 2, name
        assert found[3] <= y1 + 2, name
        assert found[3] - found[1] >= 0.9 * (y1 - y0), name


def test_red_suits_print_red_and_black_suits_dark() -> None:
    arts = load_deck(find_deck("procedural_8"))
    for name in ("AH", "5D", "KS", "9C"):
        x0, y0, x1, y1 = (round(v * 4) for v in arts[name].index_box_mm)
        patch = arts[name].image[y0:y1, x0:x1, :3].reshape(-1, 3).astype(float)
        ink = patch[patch.sum(1) < np.percentile(patch.sum(1), 25)]
        b, g, r = ink.mean(0)
        assert (r - (b + g) / 2 > 60) == (name[-1] in "HD"), (name, b, g, r)


def test_decks_are_deterministic_and_differ_by_seed() -> None:
    one = procedural_deck(21, 126, 176)
    procedural_deck.cache_clear()
    again = procedural_deck(21, 126, 176)
    other = procedural_deck(22, 126, 176)
    assert all(np.array_equal(one[n][0], again[n][0]) for n in one)
    assert not np.array_equal(one["7H"][0], other["7H"][0])
    assert len(fonts()) >= 20


def test_a_scene_dealt_with_a_procedural_deck_has_exact_truth() -> None:
    """Rectify each unhidden face-up card from its truth quad: it matches its own face best of all 52."""
    piles = {
        "t1": [("QS", True)],
        "t2": [("7H", True)],
        "t3": [("10D", True)],
        "t4": [("AC", True)],
        "t5": [(None, False), ("2S", True)],
    }
    image, truth = render_scene("klondike", piles, deck="procedural_4", seed=4, options=CLEAN)
    arts = load_deck(find_deck("procedural_4"))
    w, h = 45, 63

    def gray(img: np.ndarray) -> np.ndarray:
        g = cv2.cvtColor(cv2.resize(img[:, :, :3], (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
        g = g.astype(np.float32)
        return (g - g.mean()) / (g.std() + 1e-6)

    refs = {name: gray(arts[name].image) for name in all_cards()}
    checked = 0
    for c in truth.cards:
        if not c.face_up or c.hidden > 0.01 or c.card is None:
            continue
        src = np.array(c.image, np.float32)
        dst = np.array([[0, 0], [CARD_W_PX, 0], [CARD_W_PX, CARD_H_PX], [0, CARD_H_PX]], np.float32) - 0.5
        crop = gray(cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (CARD_W_PX, CARD_H_PX)))
        scores = {name: float((crop * ref).mean()) for name, ref in refs.items()}
        assert max(scores, key=scores.__getitem__) == c.card
        checked += 1
    assert checked == 5


def test_a_deck_is_the_same_in_every_process() -> None:
    """Training data must be reproducible: nothing may depend on Python's per-process string hashing."""
    import os
    import subprocess
    import sys

    code = (
        "import hashlib; from vision.synth.procedural import procedural_deck; d = procedural_deck(3, 126, 176); "
        "print(hashlib.sha256(b''.join(d[n][0].tobytes() for n in ('QS', 'KH', 'JD', '7C', 'back'))).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


@pytest.mark.parametrize(("rank_only", "upright_bottom"), [(True, True), (True, False), (False, False)])
def test_decks_from_the_odd_seeds_print_the_rank_alone_or_the_bottom_index_upright(
    rank_only: bool, upright_bottom: bool
) -> None:
    """kde_ancient_egyptians' looks: no suit under the rank, the bottom-right index not turned. Lower seeds never
    draw them (their decks are as they were)."""
    from vision.synth.procedural import ODD_STYLE_SEEDS, _Style

    styles = (_Style(s, CARD_W_PX, CARD_H_PX) for s in range(ODD_STYLE_SEEDS, ODD_STYLE_SEEDS + 40))
    plain = next(st for st in styles if (st.rank_only, st.upright_bottom) == (rank_only, upright_bottom))
    assert not any(_Style(s, CARD_W_PX, CARD_H_PX).rank_only for s in range(12))
    face, (x0, y0, x1, y1) = plain.face("6H")
    corner = face[y0:y1, x0:x1]
    bottom = face[CARD_H_PX - y1 : CARD_H_PX - y0, CARD_W_PX - x1 : CARD_W_PX - x0]
    same, turned = np.abs(bottom.astype(int) - corner).mean(), np.abs(bottom.astype(int) - corner[::-1, ::-1]).mean()
    assert (same < turned) == upright_bottom, (same, turned)
    rank_h = plain.index_mask("6", "H")[0].shape[0]
    assert (y1 - y0 <= rank_h + 1) == rank_only, (y1 - y0, rank_h)
