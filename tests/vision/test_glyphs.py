"""Procedural corner indices (models/glyphs.py): the classifier's extra "decks" drawn from system fonts."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.data import CROP
from models.glyphs import Style, cached_batch, fonts, make_batch, make_index, restyle, suit_fonts, suit_shape
from vision.cards import NAMES


def test_fonts_are_found_and_symbol_fonts_left_out() -> None:
    found = fonts()
    assert len(found) >= 20, "bash run setup installs fonts-dejavu-core, -liberation, -freefont-ttf, -urw-base35"
    assert not any("D050000L" in f or "StandardSymbols" in f for f in found)
    assert len(suit_fonts()) >= 10


@pytest.mark.parametrize("suit", "SHDC")
def test_drawn_pips_differ_from_the_other_suits(suit: str) -> None:
    rng = np.random.default_rng(0)

    def norm(mask: np.ndarray) -> np.ndarray:
        return cv2.resize(mask, (32, 32)).astype(np.float64) / 255.0

    mine = norm(suit_shape(suit, rng))
    for other in "SHDC".replace(suit, ""):
        # the same parameters drawn for another suit leave a clearly different silhouette
        assert np.abs(mine - norm(suit_shape(other, np.random.default_rng(0)))).mean() > 0.08


def test_batches_are_deterministic_and_cover_every_card() -> None:
    crops, labels = make_batch(104, seed=3)
    again, labels_again = make_batch(104, seed=3)
    assert crops.shape == (104, CROP, CROP, 3)
    assert np.array_equal(crops, again)
    assert np.array_equal(labels, labels_again)
    assert np.bincount(labels, minlength=len(NAMES)).tolist() == [2] * len(NAMES)
    assert not np.array_equal(crops, make_batch(104, seed=4)[0])


@pytest.mark.parametrize(("card", "red"), [("AH", True), ("7D", True), ("QS", False), ("10C", False)])
def test_ink_colour_follows_the_suit(card: str, red: bool) -> None:
    # the index sits in the middle of the crop: its darkest pixels are ink, red for hearts and diamonds
    reds = []
    for seed in range(6):
        crop = make_index(NAMES.index(card), np.random.default_rng(seed)).astype(np.float64)
        middle = crop[20:44, 24:40].reshape(-1, 3)
        ink = middle[middle.sum(1) <= np.percentile(middle.sum(1), 10)]
        b, g, r = ink.mean(0)
        reds.append(r - (b + g) / 2)
    assert (np.median(reds) > 40) == red


def test_cached_batch_reuses_its_chunks(tmp_path: Path) -> None:
    crops, labels = cached_batch(tmp_path, 10, seed=1, workers=1)
    files = sorted(tmp_path.glob("procedural-1-*.npz"))
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    again, labels_again = cached_batch(tmp_path, 10, seed=1, workers=1)
    assert files[0].stat().st_mtime_ns == stamp  # read back, not drawn again
    assert np.array_equal(crops, again)
    assert np.array_equal(labels, labels_again)
    assert labels.dtype == np.int64


def test_plain_style_is_the_original_recipe_and_keeps_its_chunk_names(tmp_path: Path) -> None:
    # Style() draws nothing extra from the random stream: the session-3 chunks cached on disk stay valid
    assert Style().tag == ""
    assert np.array_equal(make_batch(4, seed=2)[0], make_batch(4, seed=2, style=Style())[0])
    cached_batch(tmp_path, 4, seed=1, workers=1, style=Style(flip=0.5, pixel=0.25))
    assert [f.name for f in tmp_path.glob("*.npz")] == ["procedural-f50p25-1-000-4.npz"]
    assert not np.array_equal(make_batch(4, seed=2, style=Style(1.0, 1.0))[0], make_batch(4, seed=2)[0])


def _masks() -> tuple[np.ndarray, np.ndarray]:
    rank = np.zeros((60, 40), np.uint8)
    rank[5:20, 5:35] = 255  # a top-heavy "glyph": turning it moves the ink down
    pip = np.zeros((30, 30), np.uint8)
    pip[2:10, 10:20] = 255
    return rank, pip


@pytest.mark.parametrize(("card", "turned"), [("7S", True), ("QH", True), ("6D", False), ("9D", False)])
def test_flip_turns_rank_and_pip_in_place_except_6d_9d(card: str, turned: bool) -> None:
    rank, pip = _masks()
    out_rank, out_pip = restyle(rank, pip, NAMES.index(card), Style(flip=1.0), np.random.default_rng(0))
    assert np.array_equal(out_rank, rank[::-1, ::-1]) == turned
    assert np.array_equal(out_pip, pip[::-1, ::-1]) == turned
    assert np.array_equal(out_rank, rank) != turned


@pytest.mark.parametrize(("card", "turned"), [("7S", True), ("6S", False), ("9H", False), ("6D", False), ("KC", True)])
def test_flip_can_spare_every_six_and_nine(card: str, turned: bool) -> None:
    rank, pip = _masks()
    style = Style(flip=1.0, spare_69=True)
    out_rank, out_pip = restyle(rank, pip, NAMES.index(card), style, np.random.default_rng(0))
    assert np.array_equal(out_rank, rank[::-1, ::-1]) == turned
    assert np.array_equal(out_pip, pip[::-1, ::-1]) == turned


def test_pixel_art_glyphs_are_blocky_and_unsmoothed() -> None:
    rank = np.asarray(cv2.GaussianBlur(_masks()[0], (0, 0), 3), np.uint8)  # soft edges, as a font is drawn
    out_rank, out_pip = restyle(rank, _masks()[1], 0, Style(pixel=1.0), np.random.default_rng(0))
    assert set(np.unique(out_rank).tolist()) <= {0, 255}  # no anti-aliasing
    assert out_rank.shape == rank.shape
    assert out_pip.shape == (30, 30)
    # 6-11 cells per rank height: far fewer distinct rows than the 60 px the mask has
    assert len({r.tobytes() for r in out_rank}) <= 12
    assert out_rank.any()


@pytest.mark.parametrize(
    ("style", "tag"),
    [
        (Style(), ""),
        (Style(0.4, 0.4), "f40p40-"),
        (Style(0.4, 0.5, (5.0, 9.0)), "f40p50c5-9-"),
        (Style(0, 1.0), "f0p100-"),
        (Style(1.0, 0.0, spare_69=True), "f100p0s69-"),
    ],
)
def test_every_style_caches_under_its_own_name(style: Style, tag: str) -> None:
    assert style.tag == tag


def test_fewer_cells_make_coarser_glyphs() -> None:
    rank = np.zeros((60, 40), np.uint8)
    cv2.fillPoly(rank, [np.array([[20, 2], [38, 58], [2, 58]], np.int32)], 255)  # a triangle: every row differs
    rows = []
    for cells in ((3.0, 3.0), (12.0, 12.0)):
        out, _ = restyle(rank, _masks()[1], 0, Style(pixel=1.0, cells=cells), np.random.default_rng(0))
        rows.append(len({r.tobytes() for r in out}))
    assert rows[0] < rows[1]
