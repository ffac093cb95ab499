"""Procedural corner indices (models/glyphs.py): the classifier's extra "decks" drawn from system fonts."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.data import CROP
from models.glyphs import cached_batch, fonts, make_batch, make_index, suit_fonts, suit_shape
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
