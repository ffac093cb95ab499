"""The synthetic renderer: exact truth, deterministic renders, bad input as one clear error."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.errors import CadoganError
from vision.synth import CardTruth, RenderOptions, SceneTruth, find_deck, render_scene
from vision.synth.artwork import CARD_H_PX, CARD_W_PX, all_cards, load_deck
from vision.synth.decks import Deck, DeckSource, DeckSplit
from vision.synth.layout import Piles

DECK = "dondorf"  # quick to rasterise on a fresh machine (~3 s), then cached
CLEAN = RenderOptions(hand_probability=0.0, clutter=False, effects=0.0)
FELT = RenderOptions(hand_probability=0.0, clutter=False, effects=0.0, table="felt")  # dark: card edges stand out
SMALL = (640, 360)


def klondike_deal(seed: int) -> Piles:
    cards = all_cards()
    random.Random(seed).shuffle(cards)
    piles: Piles = {f"f{i}": [] for i in range(1, 5)}
    k = 0
    for col in range(1, 8):
        piles[f"t{col}"] = [(cards[k + j], j == col - 1) for j in range(col)]
        k += col
    piles["s"] = [(None, False)] * 21
    piles["w"] = [(c, True) for c in cards[k + 21 : k + 24]]
    return piles


def canfield_deal(seed: int) -> Piles:
    cards = all_cards()
    random.Random(seed).shuffle(cards)
    piles: Piles = {"r": [(c, i == 12) for i, c in enumerate(cards[:13])], "f1": [(cards[13], True)]}
    piles.update({f"f{i}": [] for i in range(2, 5)})
    piles.update({f"t{i}": [(cards[13 + i], True)] for i in range(1, 5)})
    piles["s"] = [(c, False) for c in cards[18:]]
    piles["w"] = []
    return piles


def rectify(image: np.ndarray, quad: tuple[tuple[float, float], ...], w: int, h: int) -> np.ndarray:
    src = np.array(quad, np.float32)
    # Edge-aligned: crop pixel 0 spans the card from its corner, like the resized bitmap it is compared with.
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h))


def gray_small(img: np.ndarray, w: int, h: int) -> np.ndarray:
    g = cv2.cvtColor(cv2.resize(img[:, :, :3], (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    g = g.astype(np.float32)
    return (g - g.mean()) / (g.std() + 1e-6)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_card_quads_frame_the_right_artwork(seed: int) -> None:
    """Rectify each unhidden face-up card from its truth quad: it must match its own bitmap best of all 52."""
    image, truth = render_scene("klondike", klondike_deal(seed), deck=DECK, seed=seed, options=CLEAN)
    arts = load_deck(find_deck(DECK))
    w, h = 45, 63
    refs = {name: gray_small(arts[name].image, w, h) for name in all_cards()}
    checked = 0
    for c in truth.cards:
        if not c.face_up or c.hidden > 0.01 or c.card is None:
            continue
        crop = gray_small(rectify(image, c.image, CARD_W_PX, CARD_H_PX), w, h)
        scores = {name: float((crop * ref).mean()) for name, ref in refs.items()}
        assert scores[c.card] > 0.8, (c.card, scores[c.card])
        assert max(scores, key=scores.__getitem__) == c.card
        checked += 1
    assert checked >= 8


def test_card_quads_are_exact_to_a_pixel() -> None:
    """Moving a truth quad by 1.5 px in any direction must make the rectified card match its bitmap worse."""
    image, truth = render_scene("klondike", klondike_deal(4), deck=DECK, seed=4, options=CLEAN)
    arts = load_deck(find_deck(DECK))
    w, h = CARD_W_PX // 2, CARD_H_PX // 2
    top = [c for c in truth.cards if c.face_up and c.hidden == 0.0 and c.card is not None]
    assert len(top) >= 5
    for c in top:
        ref = gray_small(arts[str(c.card)].image, w, h)

        def score(dx: float, dy: float, c: CardTruth = c, ref: np.ndarray = ref) -> float:
            q = tuple((x + dx, y + dy) for x, y in c.image)
            return float((gray_small(rectify(image, q, w, h), w, h) * ref).mean())

        best = score(0, 0)
        assert best > 0.85, (c.card, best)
        for dx, dy in ((1.5, 0), (-1.5, 0), (0, 1.5), (0, -1.5)):
            assert score(dx, dy) < best, (c.card, dx, dy)


def test_index_boxes_hold_the_index_ink() -> None:
    image, truth = render_scene("canfield", canfield_deal(5), deck=DECK, seed=5, options=CLEAN)
    seen = 0
    for c in truth.cards:
        for idx in c.indices:
            if idx.hidden > 0.0:
                continue
            patch = cv2.cvtColor(rectify(image, idx.image, 40, 80), cv2.COLOR_BGR2GRAY)
            paper = np.percentile(patch, 95)
            ink = float(np.mean(patch < 0.6 * paper))
            assert 0.04 < ink < 0.8, (c.card, idx.corner, ink)
            seen += 1
    assert seen >= 6


def test_hidden_fractions_follow_the_stacking() -> None:
    _, truth = render_scene("klondike", klondike_deal(6), deck=DECK, seed=6, options=CLEAN)
    by_pile: dict[str, list] = {}
    for c in truth.cards:
        by_pile.setdefault(c.pile, []).append(c)
    for pile, cards in by_pile.items():
        assert [c.index for c in cards] == list(range(len(cards)))
        assert cards[-1].hidden < 0.02, pile  # nothing lies on the top card
        if pile == "s":
            assert all(c.hidden > 0.9 for c in cards[:-1])  # a squared packet hides what is under the top
        if pile.startswith("t") and len(cards) > 1:
            assert all(0.5 < c.hidden < 1.0 for c in cards[:-1])  # a cascade shows a strip of each card


def test_same_seed_same_picture_and_truth() -> None:
    piles = klondike_deal(7)
    a, ta = render_scene("klondike", piles, deck=DECK, seed=11, size=SMALL)
    b, tb = render_scene("klondike", piles, deck=DECK, seed=11, size=SMALL)
    c, _ = render_scene("klondike", piles, deck=DECK, seed=12, size=SMALL)
    assert np.array_equal(a, b)
    assert ta == tb
    assert not np.array_equal(a, c)


def test_truth_json_round_trip() -> None:
    _, truth = render_scene("canfield", canfield_deal(8), deck=DECK, seed=8, size=SMALL)
    text = truth.to_json()
    json.loads(text)
    assert SceneTruth.from_json(text) == truth


FALLBACK: Piles = {
    "k": [("KS", True)],
    "h": [(None, False), ("2H", True)],
    "a": [("3C", True)],
    "m": [("4D", True)],
    "p1": [("5S", True)],
    "p2": [],
    "b1": [("6H", True), ("7H", True)],
    "g1": [(None, False)] * 3,
    "t1": [("8C", True), ("9C", True)],
    "f1": [("AS", True)],
    "x1": [("QD", True)],
}


@pytest.mark.parametrize(
    ("game", "piles"),
    [
        ("klondike", klondike_deal(9)),
        ("klondike/draw3", klondike_deal(10)),
        ("canfield", canfield_deal(9)),
        ("some_future_game", FALLBACK),
        ("klondike", {}),
    ],
)
def test_every_layout_renders(game: str, piles: Piles) -> None:
    image, truth = render_scene(game, piles, deck=DECK, seed=3, size=SMALL)
    assert image.shape == (360, 640, 3)
    assert image.dtype == np.uint8
    assert len(truth.cards) == sum(len(p) for p in piles.values())
    assert {c.pile for c in truth.cards} == {p for p, cards in piles.items() if cards}
    # Cards must not be stacked on each other by accident: different piles sit apart on the table.
    centres = {c.pile: np.mean(c.table, axis=0) for c in truth.cards if c.index == 0}
    pts = list(centres.values())
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            assert np.linalg.norm(pts[i] - pts[j]) > 40


def test_an_unseen_kde_deck_renders() -> None:
    deck = find_deck("kde_standard")
    assert deck.split is DeckSplit.UNSEEN
    image, truth = render_scene("canfield", canfield_deal(1), deck=deck, seed=1, size=SMALL)
    assert truth.deck == "kde_standard"
    assert image.std() > 10


def test_unknown_deck_lists_the_known_ones() -> None:
    with pytest.raises(CadoganError, match=r"known decks: .*dondorf"):
        find_deck("no_such_deck")


def test_missing_artwork_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CADOGAN_CACHE", str(tmp_path))
    ghost = Deck("ghost", DeckSource.GNOME, "ghost-not-installed.svgz", "none", DeckSplit.TRAIN)
    with pytest.raises(CadoganError, match="apt-get install"):
        load_deck(ghost)


def _cli_args(tmp_path: Path, **kw: object) -> argparse.Namespace:
    from cadogan.commands import render

    parser = argparse.ArgumentParser()
    render.add_parser(parser.add_subparsers())
    table = tmp_path / "t.json"
    table.write_text(json.dumps({"game": "canfield", "piles": {"r": ["4h", "KS"], "t1": ["10D"], "s": ["??"]}}))
    argv = ["render", str(table), "-o", str(kw.get("out", tmp_path / "o.png"))]
    argv += [str(a) for a in kw.get("extra", [])]  # type: ignore[attr-defined]
    return parser.parse_args(argv)


def test_cli_writes_image_and_truth(tmp_path: Path) -> None:
    from cadogan.commands import render

    truth = tmp_path / "o.json"
    args = _cli_args(tmp_path, extra=["--truth", truth, "--size", "320x200", "--seed", "4"])
    assert render.run(args) == 0
    img = cv2.imread(str(tmp_path / "o.png"))
    assert img is not None
    assert img.shape == (200, 320, 3)
    t = SceneTruth.from_json(truth.read_text())
    assert [c.card for c in t.cards if c.pile == "r"] == ["4H", "KS"]
    assert [c.face_up for c in t.cards if c.pile == "r"] == [False, True]


@pytest.mark.parametrize(
    ("out", "extra", "message"),
    [
        ("missing_dir/o.png", [], "does not exist"),
        ("o.png", ["--deck", "nope"], "unknown deck"),
        ("o.txt", [], "png"),
        ("o.png", ["--size", "big"], "WIDTHxHEIGHT"),
        ("o.png", ["--surface", "marble"], "unknown table"),
    ],
)
def test_cli_bad_input_is_one_clear_error(tmp_path: Path, out: str, extra: list[str], message: str) -> None:
    from cadogan.commands import render

    args = _cli_args(tmp_path, out=tmp_path / out, extra=extra)
    with pytest.raises(CadoganError, match=message) as info:
        render.run(args)
    assert "\n" not in str(info.value)


def test_a_packet_shows_its_side_and_keeps_its_top_card_exact() -> None:
    """A squared packet stands 0.3 mm a card: its side shows beside the top card, whose quad stays exact."""
    piles = canfield_deal(3)
    image, truth = render_scene("canfield", piles, deck=DECK, seed=3, options=FELT)
    assert truth.settings["tilt_deg"] > 15  # the side shows best at a slant
    cam = truth.camera
    stock = [c for c in truth.cards if c.pile == "s"]
    top, bottom = np.array(stock[-1].image), np.array(stock[0].image)
    table = np.array(stock[-1].table)
    obj = np.column_stack([table, np.zeros(4)])
    exact, _ = cv2.projectPoints(obj, np.array(cam.rvec), np.array(cam.tvec), np.array(cam.matrix), np.array(cam.dist))
    assert np.abs(exact.reshape(4, 2) - top).max() < 0.01  # the top face lies on the table plane, as its truth says
    assert np.abs(bottom - top).max() > 2.0  # 33 cards further down: the packet has depth
    # ... and the bottom card's image quad is its table quad 33 x 0.3 mm under the table plane (where it is drawn).
    obj = np.column_stack([np.array(stock[0].table), np.full(4, 0.3 * (len(stock) - 1))])
    deep, _ = cv2.projectPoints(obj, np.array(cam.rvec), np.array(cam.tvec), np.array(cam.matrix), np.array(cam.dist))
    assert np.abs(deep.reshape(4, 2) - bottom).max() < 0.01
    h, w = image.shape[:2]
    under = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(under, np.round(bottom).astype(np.int32), 1)
    face = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(face, np.round(top).astype(np.int32), 1)
    side = (under > 0) & (cv2.dilate(face, np.ones((5, 5), np.uint8)) == 0)
    ring = (cv2.dilate(under, np.ones((15, 15), np.uint8)) > 0) & (cv2.dilate(under, np.ones((7, 7), np.uint8)) == 0)
    assert side.sum() > 30
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
    assert grey[side].mean() > grey[ring].mean() + 40  # off-white card edges, not felt


@pytest.mark.parametrize("deck", ["dondorf", "kde_penguins", "kde_nicu_white", "kde_standard"])
@pytest.mark.parametrize("card", ["AS", "7H"])
def test_the_index_box_holds_both_rank_and_suit(deck: str, card: str) -> None:
    """Down the box: ink (the rank), a blank row, ink again (the suit sign). kde_penguins' rank touches its
    thick outline and kde_nicu_white's suit sign sits low: the finder once boxed half of such an index."""
    art = load_deck(find_deck(deck))[card]
    x0, y0, x1, y1 = (round(v * 4) for v in art.index_box_mm)
    patch = art.image[y0:y1, x0:x1]
    ink = (np.abs(patch[:, :, :3].astype(int) - 255).sum(axis=2) > 150) & (patch[:, :, 3] > 128)
    rows = ink.mean(axis=1) > 0.02
    runs = np.flatnonzero(np.diff(rows.astype(int)) == 1).size + int(rows[0])
    assert runs >= 2, (deck, card, (x0, y0, x1, y1))
