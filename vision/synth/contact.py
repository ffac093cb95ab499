"""Random plausible positions and the contact sheet of docs/images/contact_sheet.png.

``python -m vision.synth.contact -o docs/images/contact_sheet.png`` (deterministic). The positions are
plausible-looking, not necessarily reachable: the renderer does not judge the rules.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.artwork import RANKS, SUITS
from vision.synth.decks import DeckSplit, deck_names
from vision.synth.layout import Piles
from vision.synth.scene import render_scene


def random_position(game: str, seed: int) -> Piles:
    """A mid-game position of ``game`` (klondike, canfield, "spread": cards laid apart, or any other name: a
    generic spread of piles)."""
    r = random.Random(seed)
    found = {s: r.randint(0, 5) for s in SUITS}
    piles: Piles = {}
    for i, s in enumerate(SUITS, 1):
        piles[f"f{i}"] = [(RANKS[k] + s, True) for k in range(found[s])]
    rest = [rk + s for s in SUITS for rk in RANKS[found[s] :]]
    r.shuffle(rest)

    def take(n: int) -> list[str]:
        out = rest[:n]
        del rest[:n]
        return out

    if game == "spread":  # cards laid apart, a few face down (some of a deck; all 52 a quarter of the time)
        cards = [rk + s for s in SUITS for rk in RANKS]
        r.shuffle(cards)
        n = 52 if r.random() < 0.25 else r.randint(8, 40)
        return {f"p{k}": [(c, r.random() > 0.08)] for k, c in enumerate(cards[:n], 1)}
    if game.startswith("klondike"):
        for col in range(1, 8):
            down = max(0, col - 1 - r.randint(0, 2))
            piles[f"t{col}"] = [(c if r.random() < 0.7 else None, False) for c in take(down)]
            piles[f"t{col}"] += [(c, True) for c in take(r.randint(0 if col > 1 else 1, 5))]
        waste = r.randint(0, 6)
        piles["w"] = [(c, True) for c in take(waste)]
        piles["s"] = [(None, False)] * len(take(len(rest)))
    elif game.startswith("canfield"):
        reserve = take(r.randint(1, 13))
        piles["r"] = [(c, k == len(reserve) - 1) for k, c in enumerate(reserve)]
        for col in range(1, 5):
            piles[f"t{col}"] = [(c, True) for c in take(r.randint(1, 4))]
        piles["w"] = [(c, True) for c in take(r.randint(0, 8))]
        piles["s"] = [(c, False) for c in take(len(rest))]
    else:
        for k in range(1, 11):
            piles[f"p{k}"] = [(c, True) for c in take(r.randint(0, 2))]
        for letter in "abcd":
            piles[letter] = [(c, k == 3) for k, c in enumerate(take(4))]
        piles["k"] = [(c, True) for c in take(1)]
        piles["s"] = [(c, False) for c in take(len(rest))]
    return piles


def contact_sheet(n: int = 16, cols: int = 4, tile: tuple[int, int] = (320, 180), seed: int = 2026) -> npt.NDArray[Any]:
    r = random.Random(seed)
    decks = deck_names(DeckSplit.TRAIN) + deck_names(DeckSplit.UNSEEN)
    games = ["klondike", "klondike", "canfield", "canfield", "fortunes_wheel"]
    tiles = []
    for i in range(n):
        game = games[i % len(games)]
        img, _ = render_scene(game, random_position(game, seed + i), deck=r.choice(decks), seed=seed + i)
        tiles.append(cv2.resize(img, tile, interpolation=cv2.INTER_AREA))
    rows = [np.hstack(tiles[k : k + cols]) for k in range(0, n, cols)]
    return np.vstack(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    cv2.imwrite(a.output, contact_sheet(), [cv2.IMWRITE_PNG_COMPRESSION, 9])


if __name__ == "__main__":
    main()
